/**
 * Running the built srs on a real pseudo-terminal (util-linux `script`), so that its stdout and stderr are TTYs.
 * `pty` is the optional tool: missing locally, its tests skip visibly naming util-linux; under CI they fail.
 */
import { execFile } from 'node:child_process';
import { BIN } from '../integration/harness.js';
import { onPath, optionalTool } from './optional-tool.js';

export const pty = optionalTool({ name: 'script (util-linux)', pkg: 'util-linux', present: () => onPath('script') });

export interface TerminalOptions {
  /** Sets the terminal's own width (stty cols N) and drops COLUMNS, so srs reads the width from the terminal. */
  cols?: number;
}

/**
 * What the terminal shows for `srs ARGS` under `env` (CRLF made LF), and the exit code. Asynchronous: an emulator
 * answering srs may run in the calling process.
 */
export function onTerminal(args: readonly string[], env: Record<string, string | undefined>, opts: TerminalOptions = {}): Promise<{ code: number; out: string }> {
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const line = [process.execPath, BIN, ...args].map(quote).join(' ');
  const cmd = opts.cols ? `stty cols ${opts.cols} rows 50 && exec ${line}` : `exec ${line}`;
  const e: Record<string, string | undefined> = { ...env };
  if (opts.cols) delete e.COLUMNS;
  return new Promise((resolve) => {
    execFile('script', ['-qfec', cmd, '/dev/null'], { env: e as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 20_000 }, (err, stdout) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: stdout.replace(/\r\n/g, '\n') });
    });
  });
}
