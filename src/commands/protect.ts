/**
 * Files that no output of a command may replace, whatever option names them: the supplier catalog (the one this
 * run uses and the default one, each with its SQLite companions), the sandbox's state and the config file, which
 * holds the API keys.
 * A `score calc --save` over the catalog destroyed 1,502 entries with exit 0 (the import already refused it for
 * --report, --failed and --journal). Shared by the commands that write files; see checkNotAnInput.
 */
import { join } from 'node:path';
import { dataDir, type Context } from '../context.js';

export type Protected = ReadonlyArray<readonly [path: string, what: string]>;

export async function filesNoOutputMayReplace(ctx: Context): Promise<Protected> {
  const catalogs = new Set<string>([join(dataDir(ctx.env), 'catalog.db')]);
  try {
    const setting = ctx.catalogSetting();
    if (setting) catalogs.add(setting.path);
  } catch {
    /* a --catalog the command does not use (an empty path) is that command's own business */
  }
  const out: Array<readonly [string, string]> = [];
  for (const p of catalogs) {
    out.push([p, 'the supplier catalog'], [`${p}-wal`, "the supplier catalog's write-ahead log"], [`${p}-shm`, "the supplier catalog's shared memory file"]);
  }
  // The sandbox's state (everything created in the sandbox): an import's --report over it left a sandbox that
  // could not start. The name is emulator/state.ts's SANDBOX_STATE_FILE (not imported: it loads zod; a test
  // checks they agree).
  const state = join(dataDir(ctx.env), 'sandbox-state.db');
  out.push([state, "the sandbox's state"], [`${state}-wal`, "the sandbox state's write-ahead log"], [`${state}-shm`, "the sandbox state's shared memory file"]);
  // Not config/store.js: it loads conf, whose exit handlers take over Ctrl-C (see config/paths.ts).
  const { defaultConfigDir } = await import('../config/paths.js');
  out.push([join(ctx.env.SRS_CONFIG_DIR || defaultConfigDir(), 'config.json'), "srs's config file (it holds the API keys)"]);
  return out;
}
