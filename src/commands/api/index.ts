import { Command, Option } from 'commander';
import { collect, examples, type Invoke } from '../kit.js';

export function apiCommand(invoke: Invoke): Command {
  return examples(
    new Command('api')
      .description('Call any endpoint with your key, retries and output formats: for what no subcommand covers yet')
      .argument('<method>', 'GET or POST')
      .argument('<path>', 'path from the base URL, e.g. /v1/countries (a query string is allowed)')
      .addOption(
        new Option('-f, --field <key=value>', 'GET: a query parameter; POST: a top-level body field, the value parsed as JSON when it is JSON (42, true, ["a"]), else a string; repeatable')
          .argParser(collect)
          .default([], 'none'),
      )
      .option('--input <file>', 'POST: the whole JSON body from a file, or - for stdin (not with --field)')
      .option('--paginate', 'GET: follow page/perPage through every page and print the items of all pages as one list')
      .addHelpText(
        'after',
        `
Output: -o json prints the response body as received; ndjson, csv and table
print the items of a list answer ({items: [...]}) or the fields of an object.
HTTP errors exit like every other command (1, or 4 when the key is rejected).
Quote a --field value that must stay a string: -f 'customerSupplierId="123"'.
srs api neither reads nor writes the supplier catalog: a supplier it creates
is unknown to supplier find and to the duplicate guard of supplier create and
supplier import (use those commands to create suppliers you want tracked).`,
      )
      .action(invoke(async () => (await import('./run.js')).run)),
    'srs api GET /v1/countries --field perPage=5',
    'srs api GET /v1/countries --paginate -o csv',
    'srs api GET /v1/standard-industries -f subIndustriesOnly=false --paginate',
    'srs api POST /v1/suppliers -f name="Embudo Valley" -f countryIso3Code=USA',
    'srs api POST /v1/score-calculation --input request.json -o json',
  );
}
