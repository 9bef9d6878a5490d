import { Command, Option } from 'commander';
import { examples, positiveInt, type Invoke } from '../kit.js';

export function emulatorCommand(invoke: Invoke): Command {
  const cmd = new Command('emulator').description('A local emulator of the service: real HTTP on loopback, seeded data');
  examples(
    cmd
      .command('start')
      .description('Start the emulator on 127.0.0.1 and serve until Ctrl-C; prints its base URL')
      .addOption(new Option('--port <n>', 'port to listen on; 0 picks a free one').default(0).argParser(positiveInt('--port', 0, 65535)))
      .option('--api-key <key>', 'key clients must send (default: SRS_EMULATOR_API_KEY, else generated and printed)')
      .addOption(new Option('--seed <n>', 'seed of the deterministic dataset (0 to 4294967295)').argParser(positiveInt('--seed', 0, 0xffff_ffff)))
      .addOption(new Option('--suppliers <n>', 'number of seeded suppliers (default 150)').argParser(positiveInt('--suppliers', 1, 1_000_000)))
      .option('--state <file>', 'keep created suppliers in this SQLite file across restarts (each committed before its 201; an older JSON state file is migrated)')
      .addOption(new Option('--last-page <style>', 'what nextPage holds on the last page (default absent; null with --nulls)').choices(['null', 'absent', 'zero', 'same', 'past']))
      .option('--nulls', 'answer "no data" with null (averageScore, score values, riskLevel) instead of leaving the field out, as earlier versions did; not spec-strict, to test clients')
      // For tests: every field a client need not accept left out (minimal) or null (all-nulls).
      .addOption(new Option('--shape <shape>', 'response shape').choices(['wire', 'nulls', 'minimal', 'all-nulls']).hideHelp())
      .option('--log', 'log each request (method, path, status, time) and each injected fault to stderr')
      .option('--admin', 'also serve GET /_emulator/suppliers (same x-api-key): every stored supplier with its customerSupplierId (with --state: every one in the file, whichever emulator or sandbox command created it)')
      .option('--latency <ms>', 'delay before processing each /v1 request without an earlier fault: MS, or MS-MS for uniform in a range (default 0)')
      .option('--rate-limit <n/s>', 'token bucket of N requests per second, burst N; above it 429 with Retry-After (default no limit)')
      .option('--capacity <n>', 'process at most N /v1 requests at once (latency included); N more wait in line, the rest get 503 with Retry-After: 1 (default no bound)')
      .option('--reset-rate <r>', 'share of /v1 requests whose connection is reset before processing, 0..1 (default 0)')
      .option('--fail-rate <r>', 'share of /v1 requests answered 500/502/503 before processing (nothing stored), 0..1 (default 0)')
      .option('--stall-rate <r>', 'share of /v1 requests never answered (ended after 5 minutes or at shutdown), 0..1 (default 0)')
      .option('--fail-after-commit-rate <r>', 'share of POST /v1/suppliers stored, then dropped without an answer, 0..1 (default 0)')
      .option('--echo-key-rate <r>', 'share of POST /v1/suppliers answered 400 with the API key quoted in the message (nothing stored), 0..1 (default 0)')
      .addHelpText(
        'after',
        `
Answers are spec-strict by default: what the interface document types as a
number or a string is never null; where there is no data the field is left out
(docs/emulator.md). Requests are checked as strictly as the document does:
unknown keys in a request body are ignored (named in the
x-emulator-ignored-keys header), page and perPage take whole numbers within
their bounds (2 and 2.0 alike; 2.5 is a 400).

Faults apply to /v1/* requests only (never to /_emulator/*), at most one per
request, in this order: rate limit, reset, fail, stall, capacity, latency,
processing, fail after commit. Each rate applies to the requests that got no
earlier fault. Decisions are deterministic under --seed for a given sequence
of requests (only the rate limit depends on the clock). Half of the 503s carry
Retry-After: 1; 502s have an HTML body, like a proxy's. --echo-key-rate plays
a careless service that quotes the request's API key in a 400 message (to
check that srs keeps the key out of every file it writes). With --capacity N
the emulator behaves like a saturated service: N requests in progress at once,
the next N queue (their latency grows), beyond that 503.`,
      )
      .action(invoke(async () => (await import('./start.js')).run)),
    'srs emulator start --port 8787',
    'srs emulator start --seed 7 --suppliers 1000 --state ./emulator-state.db',
    'srs emulator start --seed 7 --fail-rate 0.2 --reset-rate 0.05 --fail-after-commit-rate 0.02 --rate-limit 200/s --admin',
    'srs emulator start --latency 50-400 --stall-rate 0.01 --log',
    'srs emulator start --capacity 16 --latency 20',
  );
  examples(
    cmd
      .command('fixtures')
      .description('Print the seeded ids (suppliers, scorecards, data entries, parameters, sources) as one JSON document (-o json only)')
      .addOption(new Option('--seed <n>', 'seed of the dataset, 0 to 4294967295 (default: the one the sandbox uses)').argParser(positiveInt('--seed', 0, 0xffff_ffff)))
      .addOption(new Option('--suppliers <n>', 'number of seeded suppliers (default 150)').argParser(positiveInt('--suppliers', 1, 1_000_000)))
      .action(invoke(async () => (await import('./fixtures.js')).run)),
    'srs emulator fixtures | jq -r ".suppliers[0].id"',
  );
  return examples(
    cmd,
    'srs emulator start --port 8787',
    'srs emulator fixtures | jq -r ".suppliers[0].id"',
  );
}
