import { Command, Option } from 'commander';
import { collect, examples, positiveInt, type Invoke } from '../kit.js';
import { DEFAULT_TOLERANCE } from './options.js';

export function scoreCommand(invoke: Invoke): Command {
  const cmd = new Command('score').description('Calculate, explain, recompute offline and gate on supplier scores (scale -3..+3)');

  const filters = (c: Command) =>
    c
      .option('--ids-file <file>', 'more supplier ids, one per line; blank lines and # comments ignored (- for stdin)')
      .option('--policy-parameter <id>', 'only this policy parameter; repeatable', collect)
      .option('--data-source <id>', 'only this data source; repeatable', collect)
      .option('--exclude-zero-values', 'leave entries whose value is 0 out of the calculation');

  examples(
    filters(
      cmd
        .command('calc')
        .description(
          'Calculate scores for any number of suppliers (batches of 100 sent concurrently, results in input order). Fails closed: exit 2 for ids that are not ULIDs (nothing sent); exit 1 after the results when a supplier is unknown to the service (one UNKNOWN line each on stderr)',
        )
        .argument('[ids...]', 'supplier ids (26-character lowercase ULIDs)'),
    )
      .addOption(new Option('--breakdown <kind>', 'rows per data source, policy parameter or data entry instead of one per supplier').choices(['sources', 'parameters', 'entries']))
      .option('--save <file>', 'write an evidence bundle (requests, results, scorecards, asOf, model version, digest; streamed, one record per line) for offline recompute; its directory must exist (checked before anything is sent)')
      .addOption(new Option('--concurrency <n>', 'batches in flight').default(8).argParser(positiveInt('--concurrency', 1, 64)))
      .action(invoke(async () => (await import('./calc.js')).run)),
    'srs score calc 01h58vrn1sad1y603je9gbpje8',
    'srs score calc --ids-file suppliers.txt --save evidence.jsonl -o csv > scores.csv',
    'srs score calc 01h58vrn1sad1y603je9gbpje8 --breakdown parameters',
  );

  examples(
    cmd
      .command('explain')
      .description('One supplier\'s score as a picture: bars on the -3..+3 scale per scorecard and parameter, with names, weights, entry counts and expiring evidence. Exit 2 for an id that is not a ULID, 1 for a supplier unknown to the service')
      .argument('<id>', 'supplier id (a 26-character lowercase ULID)')
      .option('--policy-parameter <id>', 'only this policy parameter; repeatable', collect)
      .option('--data-source <id>', 'only this data source; repeatable', collect)
      .option('--exclude-zero-values', 'leave entries whose value is 0 out of the calculation')
      .option('--from <file>', 'explain from a saved bundle (score calc --save) instead of calling the service')
      .option('--expiring-within <days>', 'flag evidence that expires within this many days (default 90)')
      .option('--ascii', 'draw with ASCII characters (the default when the locale is not UTF-8)')
      .action(invoke(async () => (await import('./explain.js')).run)),
    'srs score explain 01h58vrn1sad1y603je9gbpje8',
    'srs score explain 01h58vrn1sad1y603je9gbpje8 --from evidence.jsonl --ascii',
    'srs score explain 01h58vrn1sad1y603je9gbpje8 -o json | jq .scorecards',
  );

  examples(
    filters(
      cmd
        .command('report')
        .description('Write a self-contained HTML report (inline CSS and SVG, no network): overall scores and their distribution, per-parameter breakdowns with names, expiring evidence, digest and verification')
        .argument('[bundle-or-ids...]', 'a saved bundle (score calc --save; - for stdin), or supplier ids to calculate now; anything else is "no such bundle file or supplier id" (exit 2); an unknown supplier writes no report (exit 1)'),
    )
      .requiredOption('--html <file>', 'the HTML file to write (- for stdout); its directory must exist (checked before anything is sent)')
      .option('--title <text>', 'the report\'s title', 'Supplier score report')
      .option('--expiring-within <days>', 'list evidence that expires within this many days (default 90)')
      .option('--tolerance <n>', 'largest accepted difference when recomputing the values offline', String(DEFAULT_TOLERANCE))
      .option('--verify', 'the default: after writing the report, exit 3 unless the evidence is intact (digest), from this model, complete, without conflicts, and every value agrees')
      .option('--no-verify', 'write the report and exit 0 even when the verification finds something (the report and stderr still say what)')
      .option('--accept-model <version>', 'with a bundle: accept one computed with this other model version')
      .option('--allow-undigested', 'with a bundle: accept a format-1 bundle (no digest)')
      .addOption(new Option('--concurrency <n>', 'batches in flight (with ids)').default(8).argParser(positiveInt('--concurrency', 1, 64)))
      .action(invoke(async () => (await import('./report.js')).run)),
    'srs score report evidence.jsonl --html report.html',
    'srs score report 01h58vrn1sad1y603je9gbpje8 01h59065wk9v9eamxv2ykspbbp --html report.html',
    'srs score report --ids-file suppliers.txt --html report.html --title "Q3 suppliers"',
  );

  examples(
    cmd
      .command('recompute')
      .description('Recompute every aggregate of a saved bundle offline with the local model, beside the reported values (no network)')
      .argument('[file]', 'bundle from score calc --save, or a raw score-calculation response; - for stdin', '-')
      .option('--scorecards <file>', 'scorecards for a raw response: {supplierId: [scorecards]}, or one JSON array that applies to every supplier (srs scorecards ls --supplier ID -o json; all scorecards, without --supplier, apply to no one supplier)')
      .option('--verify', 'exit 3 unless the bundle is intact (digest), from this model, complete, without conflicting entries, and every value agrees within the tolerance; an altered, undigested or other-model file stops before anything is recomputed, and the summary starts with verified: or NOT VERIFIED:')
      .option('--tolerance <n>', 'largest accepted difference', String(DEFAULT_TOLERANCE))
      .option('--accept-model <version>', 'accept a bundle computed with this other model version')
      .option('--allow-undigested', 'accept evidence without a digest (format-1 bundles, raw responses) under --verify')
      .option('--only-differences', 'print only the values that differ')
      .option('--as-of <date>', 'recompute as of this date (YYYY-MM-DD) instead of the bundle\'s')
      .addOption(new Option('--mode <mode>', 'how parameter scores combine (default: the bundle\'s, else parameters)').choices(['parameters', 'scorecards']))
      // --as-of and --claim-weight are checked against the model's rules by the handler (scoringOverrides), before any input is read.
      .addOption(new Option('--claim-weight <w>', 'weight of self-declared claims (default: the bundle\'s, else 0.5)'))
      .action(invoke(async () => (await import('./recompute.js')).run)),
    'srs score recompute evidence.jsonl --verify',
    'srs score recompute response.json --scorecards scorecards.json --only-differences',
  );

  examples(
    filters(
      cmd
        .command('check')
        .description(
          'CI gate, failing closed: exit 3 when any supplier breaks a threshold, is unknown to the service or has no data; exit 2 for ids that are not ULIDs (scores from the service, or --from a saved bundle, verified first). Appends a Markdown summary to $GITHUB_STEP_SUMMARY when set',
        )
        .argument('[ids...]', 'supplier ids'),
    )
      .option('--from <file>', 'check a saved bundle offline instead of calling the service (verified first, as score recompute --verify does)')
      .option('--no-verify', 'with --from: gate on the bundle\'s values without verifying it')
      .option('--accept-model <version>', 'with --from or --baseline: accept a bundle computed with this other model version')
      .option('--allow-undigested', 'with --from or --baseline: accept evidence without a digest (format-1 bundles, raw responses)')
      .option('--min <n>', 'minimum overall score')
      .option('--min-parameter <id=n>', 'minimum score of one policy parameter; repeatable', collect)
      .option('--max-risk <level>', 'highest acceptable risk level (Low, Medium, High)')
      .option('--expiring-within <days>', 'fail when counting evidence expires within this many days from today (or has expired)')
      .option('--baseline <file>', 'a saved bundle to compare against (with --max-drop), verified first as --from is; suppliers not in it are reported new')
      .option('--max-drop <n>', 'largest accepted fall of the overall score since --baseline (a fall to no data is a drop)')
      .option('--baseline-strict', 'fail when a supplier of the baseline is not in this run (otherwise a warning)')
      .option('--allow-no-data', 'a supplier, parameter or risk level without data passes as "no data" instead of failing')
      .option('--require-score', 'accepted for old pipelines: failing on no data is now the default')
      .option('--junit <file>', 'also write a JUnit XML report (its directory must exist; checked before anything is sent)')
      .action(invoke(async () => (await import('./check.js')).run)),
    'srs score check 01h58vrn1sad1y603je9gbpje8 --min 0.5 --max-risk Medium',
    'srs score check --ids-file suppliers.txt --min 1 --junit score-report.xml',
    'srs score check --from evidence.jsonl --baseline last-month.jsonl --max-drop 0.5',
  );
  return examples(
    cmd,
    'srs score calc 01h58vrn1sad1y603je9gbpje8',
    'srs score recompute evidence.jsonl --verify',
    'srs score check --ids-file suppliers.txt --min 0.5',
  );
}
