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
      .addOption(new Option('--seed <n>', 'seed of the deterministic dataset').argParser(positiveInt('--seed', 0)))
      .addOption(new Option('--suppliers <n>', 'number of seeded suppliers (default 150)').argParser(positiveInt('--suppliers', 1, 1_000_000)))
      .option('--state <file>', 'keep created data in this file across restarts (written atomically)')
      .addOption(new Option('--last-page <style>', 'what nextPage holds on the last page').choices(['null', 'absent', 'zero', 'same', 'past']).default('null'))
      .option('--log', 'log each request (method, path, status, time) to stderr')
      .action(invoke(async () => (await import('./start.js')).run)),
    'srs emulator start --port 8787',
    'srs emulator start --seed 7 --suppliers 1000 --state ./emulator-state.json',
  );
  examples(
    cmd
      .command('fixtures')
      .description('Print the seeded ids (suppliers, scorecards, data entries, parameters, sources) as JSON')
      .addOption(new Option('--seed <n>', 'seed of the dataset (default: the one the sandbox uses)').argParser(positiveInt('--seed', 0)))
      .addOption(new Option('--suppliers <n>', 'number of seeded suppliers (default 150)').argParser(positiveInt('--suppliers', 1, 1_000_000)))
      .action(invoke(async () => (await import('./fixtures.js')).run)),
    'srs emulator fixtures | jq -r ".suppliers[0].id"',
  );
  return cmd;
}
