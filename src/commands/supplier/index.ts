import { Command, Option } from 'commander';
import { collect, examples, positiveInt, type Invoke } from '../kit.js';
import { DEFAULT_MAX_CONCURRENCY, MAX_CONCURRENCY } from '../../import/limits.js';

export function supplierCommand(invoke: Invoke): Command {
  const cmd = new Command('supplier').description('Create, read, find and bulk-import suppliers');

  examples(
    cmd
      .command('create')
      .description('Create a supplier (validated locally before anything is sent)')
      .option('--name <name>', 'supplier name, 1 to 255 characters')
      .option('--country <iso3>', 'ISO 3166-1 alpha-3 country code, e.g. DEU')
      .option('--website <url>', 'website: an http or https URL, e.g. https://example.com (srs refuses other schemes, such as mailto:)')
      .option('--industry <code>', 'industry (sub-industry) code; repeatable, or several separated by ";"', collect)
      .option('--category <id>', 'category id (see srs ref categories); repeatable', collect)
      .option('--contact <email[,first[,last]]>', 'contact; the first one becomes the default contact; repeatable', collect)
      .option('--customer-id <id>', 'your own supplier reference, at most 255 characters')
      .option('--json <file>', 'read the whole request body from a JSON file, or - for stdin')
      .option('--allow-existing', 'send it although the catalog knows its customer id as created on this target (default: exit 1, exists)')
      .option('--retry-unknown', 'send it although an earlier create of its customer id has an unknown outcome (risk: a second supplier)')
      .addHelpText(
        'after',
        `
The supplier is recorded in the local catalog (see srs supplier ls). A
customer id the catalog knows on this target is not sent again: as created,
exit 1 (exists, naming the supplier; --allow-existing sends it); from a create
whose outcome is unknown, exit 1 (outcome_unknown; --retry-unknown sends it).
When the request may have reached the service without an answer (connection
dropped or timed out after sending, or Ctrl-C while it was in flight), srs
exits 1 (130/143/129 for Ctrl-C/SIGTERM/SIGHUP) with error code
outcome_unknown: the supplier may exist, and the attempt is recorded as
unknown. Do not create it again before checking (srs supplier find TEXT, srs
supplier ls --state unknown). If the catalog cannot be written after the
service created the supplier, it is still printed (exit 0), with a warning.`,
      )
      .action(invoke(async () => (await import('./create.js')).run)),
    'srs supplier create --name "Embudo Valley Organics" --country USA --website https://example.com --industry 30202030 --customer-id SUPP-12345',
    'srs supplier create --name "Rhine Castings" --contact jane@example.com,Jane,Doe -o json',
    'echo \'{"name":"Acme"}\' | srs supplier create --json -',
  );

  examples(
    cmd
      .command('get')
      .description("Show one supplier's profile, by id or by your own customer id (looked up in the local catalog)")
      .argument('[id]', 'supplier id')
      .option('--customer-id <id>', 'find the supplier id in the local catalog by customerSupplierId (exact, case-sensitive), then fetch it')
      .addHelpText('after', '\nWhat it reads is recorded in the local catalog (srs supplier ls);\n--no-catalog skips that.')
      .action(invoke(async () => (await import('./get.js')).run)),
    'srs supplier get 01h58vrn1sad1y603je9gbpje8',
    'srs supplier get 01h58vrn1sad1y603je9gbpje8 -o json | jq .averageScore',
    'srs supplier get --customer-id SUPP-12345',
  );

  examples(
    cmd
      .command('ls')
      .alias('list')
      .description('List the suppliers srs has created or read on this target (the local catalog; it knows nothing else)')
      .addHelpText(
        'after',
        `
The catalog is DATA_DIR/catalog.db, or --catalog PATH / SRS_CATALOG for a
team's shared file. It knows only what srs has seen: suppliers created
elsewhere are not in it. State "unknown" is a create whose answer was lost: it
may or may not exist.`,
      )
      .addOption(new Option('--state <state>', 'only entries in this state').choices(['created', 'unknown']))
      .action(invoke(async () => (await import('./ls.js')).run)),
    'srs supplier ls',
    'srs supplier ls --state unknown -o csv',
    'srs supplier ls -o json --query "[?countryIso3Code==\'DEU\'].id"',
  );

  examples(
    cmd
      .command('find')
      .description('Search the local catalog by name or customerSupplierId (substring, case- and accent-insensitive)')
      .argument('<text>', 'text to look for')
      .addOption(new Option('--state <state>', 'only entries in this state').choices(['created', 'unknown']))
      .action(invoke(async () => (await import('./ls.js')).find)),
    'srs supplier find giesserei',
    'srs supplier find SUP-00 --fields id,customerSupplierId -o csv',
  );

  examples(
    cmd
      .command('import')
      .description('Create suppliers in bulk from a CSV export (any common delimiter and encoding); re-runs pick up where a run stopped')
      .argument('<file>', 'CSV file, or - for stdin (/dev/stdin, FIFOs and process substitutions are read like -)')
      .option('--dry-run', 'validate every row and print the summary; send nothing (no API key needed)')
      .addOption(new Option('--concurrency <n>', `pin the requests in flight at N, 1 to ${MAX_CONCURRENCY} (default: adaptive, see below)`).argParser(positiveInt('--concurrency', 1, MAX_CONCURRENCY)))
      .addOption(
        // No Commander default: a value given equal to the default (--max-concurrency 64 --concurrency 100) is still a conflict.
        new Option('--max-concurrency <n>', `ceiling of the adaptive concurrency, 1 to ${MAX_CONCURRENCY} (default: ${DEFAULT_MAX_CONCURRENCY})`).argParser(
          positiveInt('--max-concurrency', 1, MAX_CONCURRENCY),
        ),
      )
      .addOption(new Option('--encoding <name>', 'file encoding: auto (BOM, else UTF-8 if valid, else Windows-1252), utf-8, utf-16le, utf-16be, windows-1252, ...').default('auto'))
      .option('--delimiter <char>', 'field delimiter: , ; | or tab (default: detected from the header line)')
      .option('--map <header=field>', 'map a column to a field (or to "ignore"), e.g. --map "Lieferant=name"; repeatable', collect)
      .option('--journal <file>', 'journal of sent rows and outcomes that makes re-runs safe; locked while a run uses it, bound to the file, its encoding, the service and the account (default: FILE.srs-journal; none for stdin)')
      .option('--journal-fsync', 'fsync the journal before each request (survives power loss; slower)')
      .option('--retry-unknown', 'send again the rows whose outcome is unknown (risk: a second supplier if the first attempt went through)')
      .option('--allow-existing', 'send rows whose customerSupplierId the catalog already knows as created on this target (default: state exists, not sent)')
      .option('--report <file>', 'write a CSV with every row: line, state, supplierId, customerSupplierId, field, message')
      .option('--failed <file>', 'write the failed and invalid rows in the input\'s own columns, ready to fix and import again')
      .addHelpText(
        'after',
        `
Rows never merge or vanish: records end at CRLF, LF or CR; a row whose cell
count differs from the header's, or whose name or id holds a line break, is
invalid. One run per journal (JOURNAL.lock), and one import per target with
the catalog (CATALOG.import-N.lock): a second exits 2 naming the first. A
journal started against another service, account or the sandbox is refused:
pass --journal NEW. A run that stopped at a malformed line resumes once the
file is fixed from that line on. Exit codes: 0 every row created, skipped or
already existing (the catalog knew it); 1 a row invalid, failed or unknown, or
a journal/report write failed; 2 nothing sent (unusable file, journal in use
or bound elsewhere); 4 authentication; 130/143/129 interrupted (Ctrl-C /
SIGTERM / SIGHUP).

Concurrency: unless --concurrency pins it, the requests in flight adapt to the
service, like TCP's congestion control: from 4 the limit doubles each round
trip while answers come back as fast as the fastest seen, then by about
sqrt(limit) a round trip (by one after a throttle); a 429 or 503 or a timeout
cuts it by 30%, a latency well above the
fastest seen (the service queueing) by up to half; never past
--max-concurrency. A 429 also pauses every request for its Retry-After. At
most the limit in force is in flight, so at most that many rows can end
unknown when a run is cut short.

Progress (stderr; on a terminal one updating line, otherwise one line every
10 s): rows done of the total (counted ahead for a file; ~ marks an estimate
from what was read while the count runs; from stdin no total, so no ETA),
rows/s over the last 10 s, the ETA, the concurrency in force and the requests
the service throttled (429/503).`,
      )
      .action(invoke(async () => (await import('./import.js')).run)),
    'srs supplier import vendors.csv --report import-report.csv --failed to-fix.csv',
    'srs supplier import sap-export.txt --encoding windows-1252 --map "Lieferant=name" --map "Kreditor=customerSupplierId" --dry-run',
    'gunzip -c suppliers.csv.gz | srs supplier import - --journal suppliers.journal -o json',
  );

  return examples(
    cmd,
    'srs supplier create --name "Rhine Castings" --country DEU',
    'srs supplier get 01h58vrn1sad1y603je9gbpje8',
    'srs supplier find "rhine"',
    'srs supplier import vendors.csv --dry-run',
  );
}
