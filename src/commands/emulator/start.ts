import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import type { Opts } from '../kit.js';

export async function run(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const { startEmulator, DEFAULT_SEED } = await import('../../emulator/index.js');
  const given = typeof opts.apiKey === 'string' ? opts.apiKey : ctx.env.SRS_EMULATOR_API_KEY;
  const apiKey = given && given.trim() ? given.trim() : randomBytes(16).toString('hex');
  const emu = await startEmulator({
    port: typeof opts.port === 'number' ? opts.port : 0,
    apiKey,
    seed: typeof opts.seed === 'number' ? opts.seed : DEFAULT_SEED,
    ...(typeof opts.suppliers === 'number' ? { suppliers: opts.suppliers } : {}),
    ...(typeof opts.state === 'string' ? { statePath: opts.state } : {}),
    lastPageNextPage: (opts.lastPage as 'null' | 'absent' | 'zero' | 'same' | 'past' | undefined) ?? 'null',
    ...(opts.log ? { log: (line: string) => ctx.stderr(line) } : {}),
  });
  // A key the user chose is theirs to know; a generated one must be shown or nobody could use it.
  const info = { url: emu.url, apiKey: given ? '(as given)' : apiKey, seed: typeof opts.seed === 'number' ? opts.seed : DEFAULT_SEED };
  if (ctx.format === 'table') {
    await ctx.sink.write(`SRS_BASE_URL=${info.url}\nSRS_API_KEY=${info.apiKey}\n`);
    ctx.info(`srs emulator listening on ${emu.url} (seed ${info.seed}); Ctrl-C to stop`);
  } else {
    await ctx.sink.write(JSON.stringify(info) + '\n');
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await emu.close();
}
