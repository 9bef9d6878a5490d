/**
 * Where srs keeps its config, without loading conf: conf's atomically installs exit handlers (when-exit) on
 * SIGINT and SIGTERM that re-raise the signal, so a command that only needs the path (the files no output may
 * replace: commands/protect.ts) and must stop gracefully (an import) must not load it.
 */
import envPaths from 'env-paths';

/** Where conf keeps srs's config without SRS_CONFIG_DIR (env-paths, which conf uses itself). */
export function defaultConfigDir(): string {
  return envPaths('srs', { suffix: '' }).config;
}
