import { Command } from 'commander';
import { examples, listOptions, type Invoke } from '../kit.js';

export function refCommand(invoke: Invoke): Command {
  const cmd = new Command('ref').description('Reference data: countries, industries, data sources, categories');
  examples(
    listOptions(cmd.command('countries').description('List ISO 3166-1 countries')).action(invoke(async () => (await import('./list.js')).countries)),
    'srs ref countries',
    'srs ref countries -o csv --fields iso3Code,commonName',
  );
  examples(
    listOptions(
      cmd
        .command('industries')
        .description('List the industry classification (sub-industries by default)')
        .option('--all-levels', 'every level (sector, industry group, industry, sub-industry), not just sub-industries'),
    ).action(invoke(async () => (await import('./list.js')).industries)),
    'srs ref industries',
    'srs ref industries --all-levels -o json | jq \'.[] | select(.hierarchyLevel=="sector")\'',
  );
  examples(
    listOptions(cmd.command('sources').description('List data sources')).action(invoke(async () => (await import('./list.js')).sources)),
    'srs ref sources',
  );
  examples(
    listOptions(cmd.command('categories').description('List supplier categories (ids for --category)')).action(invoke(async () => (await import('./list.js')).categories)),
    'srs ref categories -o json',
  );
  return examples(
    cmd,
    'srs ref countries --limit 5',
    'srs ref industries --all-levels -o json',
  );
}
