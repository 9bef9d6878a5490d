import { Command } from 'commander';
import { examples, listOptions, type Invoke } from '../kit.js';

export function newsCommand(invoke: Invoke): Command {
  const cmd = new Command('news').description("Read a supplier's news events");
  examples(
    listOptions(
      cmd
        .command('ls')
        .alias('list')
        .description("List a supplier's news events with their articles, every page by default")
        .argument('<supplier-id>', 'supplier id')
        .option('--data-entry <id>', 'only the news events of this data entry'),
    ).action(invoke(async () => (await import('./ls.js')).run)),
    'srs news ls 01h58vrn1sad1y603je9gbpje8',
    'srs news ls 01h58vrn1sad1y603je9gbpje8 -o ndjson | jq -r .name',
  );
  return examples(
    cmd,
    'srs news ls 01h58vrn1sad1y603je9gbpje8',
  );
}
