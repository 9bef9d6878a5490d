import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Opts } from '../kit.js';

export async function run(ctx: Context, _args: string[], _opts: Opts): Promise<void> {
  if (ctx.sandbox) throw new UsageError('the sandbox has no stored key: drop --sandbox (or SRS_SANDBOX) to log out of a profile');
  const s = await ctx.settings();
  const removed = (await ctx.configStore()).removeKey(s.profile);
  ctx.info(removed ? `Removed the API key of profile "${s.profile}"` : `Profile "${s.profile}" had no stored API key`);
  if (ctx.env.SRS_API_KEY) ctx.warn('SRS_API_KEY is still set in the environment; unset it to stop using that key');
}
