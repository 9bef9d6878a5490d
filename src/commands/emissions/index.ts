import { Command } from 'commander';
import { examples, type Invoke } from '../kit.js';

export function emissionsCommand(invoke: Invoke): Command {
  const cmd = new Command('emissions').description("Read a supplier's emission reports");
  examples(
    cmd
      .command('ls')
      .alias('list')
      .description("List a supplier's emission reports (the service does not page this list); a table ends with bars of the totals per year")
      .argument('<supplier-id>', 'supplier id')
      .option('--ascii', 'draw the totals bars with ASCII characters (the default when the locale is not UTF-8)')
      .action(invoke(async () => (await import('./ls.js')).run)),
    'srs emissions ls 01h58vrn1sad1y603je9gbpje8',
    'srs emissions ls 01h58vrn1sad1y603je9gbpje8 -o csv > emissions.csv',
  );
  return examples(
    cmd,
    'srs emissions ls 01h58vrn1sad1y603je9gbpje8',
  );
}
