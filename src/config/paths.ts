/**
 * Where srs keeps its config, without loading conf: conf's atomically installs exit handlers (when-exit) on
 * SIGINT and SIGTERM that re-raise the signal, so a command that only needs the path (the files no output may
 * replace: commands/protect.ts) and must stop gracefully (an import) must not load it.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import envPaths from 'env-paths';

/** Where conf keeps srs's config without SRS_CONFIG_DIR (env-paths, which conf uses itself). */
export function defaultConfigDir(): string {
  // The XDG spec: a relative XDG_CONFIG_HOME is invalid and ignored (env-paths took it relative to the current
  // directory, so the key was stored in ./relcfg/srs/config.json and lost from any other directory).
  const xdg = process.env.XDG_CONFIG_HOME;
  if (process.platform !== 'darwin' && process.platform !== 'win32' && xdg !== undefined && xdg !== '' && !isAbsolute(xdg)) return join(homedir(), '.config', 'srs');
  return envPaths('srs', { suffix: '' }).config;
}
