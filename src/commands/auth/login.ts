import type { Context } from '../../context.js';
import { DEFAULT_PROFILE, keyProblem, maskKey } from '../../config/resolve.js';
import { ApiError, AuthError, ExitCode, SrsError, UsageError } from '../../errors.js';
import { checkBaseUrl } from '../../api/http.js';
import { readInput, type Opts } from '../kit.js';
import { promptHidden } from './prompt.js';

export async function run(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  if (ctx.sandbox) throw new UsageError('the sandbox needs no login: drop --sandbox (or SRS_SANDBOX) to log in to a real service');
  const store = await ctx.configStore();
  const settings = await ctx.settings();
  const profile = settings.profile;
  const baseUrl = settings.baseUrl;
  if (!baseUrl) throw new UsageError(`no base URL for profile "${profile}": pass --base-url URL (or set SRS_BASE_URL)`);
  const parsed = checkBaseUrl(baseUrl, !!ctx.globals.insecureHttp);
  // srs sends the key in the x-api-key header only: credentials in the URL would be stored in the config and shown by auth status.
  if (parsed.username || parsed.password) throw new UsageError('the base URL holds user:password@: srs does not send it (the key goes in the x-api-key header), and it would be stored and shown; give the URL without it');

  let key: string;
  if (opts.withKey) {
    key = (await readInput(ctx, '-', '--with-key')).trim();
  } else if (ctx.io.stdinIsTTY) {
    key = (await promptHidden(ctx.io.stdin, ctx.io.stderr, `API key for ${baseUrl}: `)).trim();
  } else {
    throw new UsageError('stdin is not a terminal: pass --with-key and pipe the key in (never put it on the command line)');
  }
  // No key is missing authentication (exit 4), like a key that is only whitespace: the same prompt, the same answer.
  if (!key) throw new AuthError('no API key given: nothing was stored (paste the key at the prompt, or pipe it in with --with-key)');
  // The rule every command applies to a key (exit 4, before anything is sent): a control character or a
  // non-ASCII letter used to reach undici, which refused it as a header and was retried as a network fault.
  const problem = keyProblem(key);
  if (problem) throw new AuthError(`the API key given ${problem}: it cannot be sent in a header; check what was pasted or piped (nothing was sent or stored)`);
  ctx.addSecret(key);

  // One cheap request: the smallest page of a reference list.
  const client = await ctx.newClient(baseUrl, key);
  try {
    await ctx.withSpinner('Checking the key…', () => client.listCountriesPage({ perPage: 1 }));
  } catch (e) {
    if (e instanceof AuthError) {
      // The status and what the service said: a 403 may be a key scoped away from reference data, not a wrong key.
      const said = e.status !== undefined ? ` (GET /v1/countries: HTTP ${e.status}${e.serviceMessage ? `: ${e.serviceMessage}` : ''})` : '';
      throw new AuthError(`the service at ${baseUrl} rejected this API key${said}; nothing was stored`, { status: e.status ?? 401 });
    }
    // A base URL that is not the service's answers its reference list with 404 (or a page of HTML): say so.
    if (e instanceof ApiError && e.status === 404) {
      throw new SrsError('not_found', ExitCode.failure, `no Supplier Responsibility Assessment Service answered at ${baseUrl} (GET /v1/countries: HTTP 404): check the base URL; nothing was stored`);
    }
    // Any other failure of the check (an HTML page, a 500, no answer): the key was not checked, so nothing was
    // stored, which is said, with where it was asked (it read like a failure of some other command).
    if (e instanceof SrsError) throw new SrsError(e.code, e.exitCode, `the key could not be checked at ${baseUrl}: ${e.message}; nothing was stored`, { ...(e.detail !== undefined ? { detail: e.detail } : {}), cause: e });
    throw e;
  } finally {
    await client.close();
  }
  store.setProfile(profile, { baseUrl, apiKey: key });
  // Logging in to another profile never changes which one is active, unless asked to.
  if (opts.activate === true) store.currentProfile = profile;
  const active = store.currentProfile ?? DEFAULT_PROFILE;
  ctx.stderr(`Logged in: profile "${profile}", ${baseUrl}, key ${maskKey(key)}, stored in ${store.path}`);
  if (active === profile) ctx.info(`"${profile}" is the active profile`);
  else ctx.info(`the active profile is still "${active}": use --profile ${profile} for one command, or "srs auth switch ${profile}" (or log in with --activate)`);
  if (settings.apiKeySource === 'env') ctx.warn('SRS_API_KEY is set in the environment and takes precedence over the stored key');
}
