import { Command } from 'commander';
import { examples, type Invoke } from '../kit.js';

export function schemaCommand(invoke: Invoke): Command {
  return examples(
    new Command('schema')
      .description('Print the JSON Schema of a resource or of a command\'s JSON output, generated from the client\'s contract; without a name, list the names')
      .argument('[name...]', 'a resource (score-result, supplier, ...) or a command (score calc, "scorecards ls", ...)')
      .action(invoke(async () => (await import('./run.js')).run)),
    'srs schema',
    'srs schema score-result',
    'srs schema score calc > score-calc.schema.json',
    'srs schema "score check" | jq .items.properties.status',
  );
}
