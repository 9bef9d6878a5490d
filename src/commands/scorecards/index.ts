import { Command } from 'commander';
import { examples, listOptions, type Invoke } from '../kit.js';

export function scorecardsCommand(invoke: Invoke): Command {
  const cmd = new Command('scorecards').description('List and read scorecards (weighted policy parameters)');
  examples(
    listOptions(
      cmd
        .command('ls')
        .alias('list')
        .description('List scorecards, every page by default')
        .option('--supplier <id>', 'only the scorecards that apply to this supplier (a ULID; exit 1 when the service does not know it, rather than an empty list)'),
    ).action(invoke(async () => (await import('./ls.js')).run)),
    'srs scorecards ls',
    'srs scorecards ls --supplier 01h58vrn1sad1y603je9gbpje8 -o csv',
  );
  examples(
    cmd
      .command('get')
      .description('Show one scorecard and its weighted items')
      .argument('<id>', 'scorecard id')
      .action(invoke(async () => (await import('./get.js')).run)),
    'srs scorecards get 01hayktg1aw59w0ksytab77nmm',
  );
  return examples(
    cmd,
    'srs scorecards ls',
    'srs scorecards get 01hayktg1aw59w0ksytab77nmm',
  );
}
