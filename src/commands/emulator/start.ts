import type { Context } from '../../context.js';
import { ExitCode, SrsError, UsageError } from '../../errors.js';
import type { FaultOptions } from '../../emulator/faults.js';
import type { ResponseShape } from '../../emulator/index.js';
import type { Opts } from '../kit.js';
import type { StopSignal } from '../../util/signals.js';

/** The fault options of `srs emulator start`, validated; an invalid value is a usage error naming the option. */
async function faultOptions(opts: Opts): Promise<FaultOptions> {
  const { parseCapacity, parseLatency, parseRate, parseRateLimit, FaultOptionError } = await import('../../emulator/faults.js');
  const faults: FaultOptions = {};
  try {
    if (opts.latency !== undefined) faults.latency = parseLatency(opts.latency, '--latency');
    if (opts.capacity !== undefined) faults.capacity = parseCapacity(opts.capacity, '--capacity');
    if (opts.rateLimit !== undefined) faults.rateLimit = parseRateLimit(opts.rateLimit, '--rate-limit');
    if (opts.resetRate !== undefined) faults.resetRate = parseRate(opts.resetRate, '--reset-rate');
    if (opts.failRate !== undefined) faults.failRate = parseRate(opts.failRate, '--fail-rate');
    if (opts.stallRate !== undefined) faults.stallRate = parseRate(opts.stallRate, '--stall-rate');
    if (opts.echoKeyRate !== undefined) faults.echoKeyRate = parseRate(opts.echoKeyRate, '--echo-key-rate');
    if (opts.failAfterCommitRate !== undefined) faults.failAfterCommitRate = parseRate(opts.failAfterCommitRate, '--fail-after-commit-rate');
  } catch (e) {
    if (e instanceof FaultOptionError) throw new UsageError(e.message);
    throw e;
  }
  return faults;
}

/** --nulls, or the hidden --shape (tests); they cannot disagree. */
function responseShape(opts: Opts): { shape?: ResponseShape } {
  const shape = typeof opts.shape === 'string' ? (opts.shape as ResponseShape) : undefined;
  if (opts.nulls === true && shape !== undefined && shape !== 'nulls') throw new UsageError(`--nulls and --shape ${shape} disagree: give one`);
  if (opts.nulls === true) return { shape: 'nulls' };
  return shape !== undefined ? { shape } : {};
}

/** A state file srs cannot use is a runtime error naming it (exit 1), not an "unexpected error". */
function asSrsError(e: unknown): unknown {
  return e instanceof SrsError || !(e instanceof Error) || (e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? e : new SrsError('runtime', ExitCode.failure, e.message, { cause: e });
}
function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw asSrsError(e);
  }
}
async function wrapAsync<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw asSrsError(e);
  }
}

export async function run(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  // Its one line of connection details is JSON already (-o json or table): --fields and --query were ignored in silence.
  const outputOptions = [ctx.globals.fields !== undefined && '--fields', ctx.globals.query !== undefined && '--query'].filter((o): o is string => !!o);
  if (outputOptions.length) throw new UsageError(`${outputOptions.join(' and ')} ${outputOptions.length > 1 ? 'do' : 'does'} not apply to srs emulator start (it prints one line of connection details: url, apiKey, seed)`);
  const faults = await faultOptions(opts);
  const { startEmulator, DEFAULT_SEED } = await import('../../emulator/index.js');
  const { describeFaults, resolveFaults } = await import('../../emulator/faults.js');
  // A blank SRS_EMULATOR_API_KEY (an unset variable exported empty) counts as not given: startEmulator then generates
  // one. A blank --api-key was typed on purpose (a script's empty variable): refused, not replaced by a random key.
  if (typeof opts.apiKey === 'string' && !opts.apiKey.trim()) throw new UsageError('--api-key is empty: give a key, or leave the option out to have one generated');
  const given = (typeof opts.apiKey === 'string' ? opts.apiKey : ctx.env.SRS_EMULATOR_API_KEY)?.trim() || undefined;
  // A key srs itself would refuse to send (keyProblem) makes an emulator no srs can talk to.
  const { keyProblem } = await import('../../config/resolve.js');
  const badKey = given === undefined ? undefined : keyProblem(given);
  if (badKey) throw new UsageError(`${typeof opts.apiKey === 'string' ? '--api-key' : 'SRS_EMULATOR_API_KEY'} ${badKey}: choose a key of printable ASCII without spaces`);
  if (typeof opts.state === 'string') {
    // A mistyped directory must not become a new, empty state (the suppliers of the real one would seem gone).
    const { fileTargetProblem } = await import('../../util/fs.js');
    const problem = fileTargetProblem(opts.state);
    if (problem) throw new UsageError(`--state ${opts.state}: ${problem} (srs creates the state file, not its directory)`);
    const { migrateJsonStateInPlace } = await import('../../emulator/state.js');
    const migrated = wrap(() => migrateJsonStateInPlace(opts.state as string));
    if (migrated) ctx.info(migrated);
  }
  const port = typeof opts.port === 'number' ? opts.port : 0;
  const emu = await wrapAsync(() => startEmulator({
    port,
    ...(given !== undefined ? { apiKey: given } : {}),
    seed: typeof opts.seed === 'number' ? opts.seed : DEFAULT_SEED,
    ...(typeof opts.suppliers === 'number' ? { suppliers: opts.suppliers } : {}),
    ...(typeof opts.state === 'string' ? { statePath: opts.state } : {}),
    ...(typeof opts.lastPage === 'string' ? { lastPageNextPage: opts.lastPage as 'null' | 'absent' | 'zero' | 'same' | 'past' } : {}),
    ...responseShape(opts),
    ...(opts.log ? { log: (line: string) => ctx.stderr(line) } : {}),
    faults,
    admin: opts.admin === true,
  }).catch((e: unknown) => {
    const code = (e as NodeJS.ErrnoException)?.code;
    if (code === 'EADDRINUSE') throw new SrsError('runtime', ExitCode.failure, `port ${port} is in use: choose another or --port 0`);
    if (code === 'EACCES') throw new SrsError('runtime', ExitCode.failure, `port ${port} needs privileges this user lacks: choose one above 1023 or --port 0`);
    throw e;
  }));
  // A key the user chose is theirs to know; a generated one must be shown or nobody could use it.
  // A chosen key is left out (no "(as given)" placeholder: eval'd or copied, it set the key to those words).
  const info = { url: emu.url, ...(given !== undefined ? {} : { apiKey: emu.apiKey }), seed: emu.seed };
  // A --state file made earlier keeps the seed and supplier count it was made with: said, not left to --log.
  const askedSeed = typeof opts.seed === 'number' ? opts.seed : DEFAULT_SEED;
  if (typeof opts.state === 'string' && (emu.seed !== askedSeed || (opts.suppliers !== undefined && Number(opts.suppliers) !== emu.suppliers))) {
    ctx.warn(`--state ${opts.state} was made with seed ${emu.seed} and ${emu.suppliers} suppliers: those are in use, not the --seed or --suppliers given (delete the file or choose another to start afresh)`);
  }
  if (ctx.format === 'table') {
    await ctx.sink.write(`SRS_BASE_URL=${info.url}\n${info.apiKey !== undefined ? `SRS_API_KEY=${info.apiKey}\n` : ''}`);
    ctx.info(`srs emulator listening on ${emu.url} (seed ${info.seed}); Ctrl-C to stop`);
    const active = describeFaults(resolveFaults(faults, ''));
    // With --log the emulator itself already said so.
    if (active && !opts.log) ctx.info(`injecting faults on /v1/*: ${active}`);
    if (opts.admin === true) ctx.info(`admin route: ${emu.url}/_emulator/suppliers`);
  } else {
    await ctx.sink.write(JSON.stringify(info) + '\n');
  }
  // Serves until Ctrl-C, SIGTERM or SIGHUP: then closes (flushing --state) and exits 130, 143 or 129 (src/util/signals.ts).
  const { onInterrupt, InterruptedError, stoppedWord } = await import('../../util/signals.js');
  const sig = await new Promise<StopSignal>((resolve) => onInterrupt(resolve));
  await emu.close();
  throw new InterruptedError(sig, `emulator stopped (${stoppedWord(sig)})`);
}
