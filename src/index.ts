/** Process entry: wires the real streams and environment into main() and exits with its code. */
import { main } from './cli.js';

export async function run(): Promise<void> {
  const out = process.stdout;
  // Piping into `head` closes stdout early: that is not an error.
  out.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  const code = await main(
    process.argv.slice(2),
    {
      stdout: out,
      stderr: process.stderr,
      stdin: process.stdin,
      stdoutIsTTY: !!out.isTTY,
      stderrIsTTY: !!process.stderr.isTTY,
      stdinIsTTY: !!process.stdin.isTTY,
      columns: out.columns,
    },
    process.env,
  );
  process.exitCode = code;
}
