import { Command } from 'commander';
import { examples, type Invoke } from '../kit.js';

export function dataEntryCommand(invoke: Invoke): Command {
  const cmd = new Command('data-entry').description('Read data entries (scored evidence about a supplier)');
  examples(
    cmd
      .command('get')
      .description('Show one data entry with its parameter scores and news event')
      .argument('<id>', 'data entry id')
      .action(invoke(async () => (await import('./get.js')).run)),
    'srs data-entry get 01hk3qgqbkf02mh6pj63dyynmh',
    'srs data-entry get 01hk3qgqbkf02mh6pj63dyynmh -o json | jq .policyParameterScores',
  );
  return examples(
    cmd,
    'srs data-entry get 01hk3qgqbkf02mh6pj63dyynmh',
  );
}
