import { Command } from 'commander';
import { collect, examples, type Invoke } from '../kit.js';

export function supplierCommand(invoke: Invoke): Command {
  const cmd = new Command('supplier').description('Create, read and bulk-import suppliers');

  examples(
    cmd
      .command('create')
      .description('Create a supplier (validated locally before anything is sent)')
      .option('--name <name>', 'supplier name, 1 to 255 characters')
      .option('--country <iso3>', 'ISO 3166-1 alpha-3 country code, e.g. DEU')
      .option('--website <url>', 'website URI, e.g. https://example.com')
      .option('--industry <code>', 'industry (sub-industry) code; repeatable', collect)
      .option('--category <id>', 'category id (see srs ref categories); repeatable', collect)
      .option('--contact <email[,first[,last]]>', 'contact; the first one becomes the default contact; repeatable', collect)
      .option('--customer-id <id>', 'your own supplier reference, at most 255 characters')
      .option('--json <file>', 'read the whole request body from a JSON file, or - for stdin')
      .action(invoke(async () => (await import('./create.js')).run)),
    'srs supplier create --name "Embudo Valley Organics" --country USA --website https://example.com --industry 30202030 --customer-id SUPP-12345',
    'srs supplier create --name "Rhine Castings" --contact jane@example.com,Jane,Doe -o json',
    'echo \'{"name":"Acme"}\' | srs supplier create --json -',
  );

  examples(
    cmd
      .command('get')
      .description("Show one supplier's profile")
      .argument('<id>', 'supplier id')
      .action(invoke(async () => (await import('./get.js')).run)),
    'srs supplier get 01h57nhc4sapk2v8c7tqxyz123',
    'srs supplier get 01h57nhc4sapk2v8c7tqxyz123 -o json | jq .averageScore',
  );

  return cmd;
}
