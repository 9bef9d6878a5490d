import type { Context } from '../../context.js';
import { describeSource, maskKey } from '../../config/resolve.js';
import { AuthError } from '../../errors.js';
import { renderItem } from '../../output/render.js';
import type { Opts } from '../kit.js';

export async function run(ctx: Context, _args: string[], _opts: Opts): Promise<void> {
  if (ctx.sandbox) {
    await renderItem(ctx.sink, { profile: 'sandbox', baseUrl: 'in-process emulator', keySource: 'sandbox', key: 'generated per run' }, statusColumns, ctx.renderOptions());
    return;
  }
  const s = await ctx.settings();
  const store = await ctx.configStore();
  const status = {
    profile: s.profile,
    profileSource: describeSource(s.profileSource),
    baseUrl: s.baseUrl ?? null,
    baseUrlSource: describeSource(s.baseUrlSource),
    keySource: s.apiKeySource === 'env' ? 'environment (SRS_API_KEY)' : describeSource(s.apiKeySource),
    key: s.apiKey ? maskKey(s.apiKey) : null,
    configFile: store.path,
    profiles: store.profileNames(),
  };
  await renderItem(ctx.sink, status, statusColumns, ctx.renderOptions());
  if (!s.apiKey) throw new AuthError(`not logged in: profile "${s.profile}" has no API key; run "srs auth login" or set SRS_API_KEY`);
}

const statusColumns = [
  { path: 'profile', header: 'PROFILE' },
  { path: 'profileSource', header: 'PROFILE FROM' },
  { path: 'baseUrl', header: 'BASE URL' },
  { path: 'baseUrlSource', header: 'BASE URL FROM' },
  { path: 'keySource', header: 'KEY FROM' },
  { path: 'key', header: 'KEY' },
  { path: 'configFile', header: 'CONFIG FILE' },
];
