/** Process entry: wires the real streams and environment into main() and exits with its code. */
import { main } from './cli.js';
import { stdoutWriteError } from './errors.js';
import { installSignalHandlers } from './util/signals.js';

export async function run(): Promise<void> {
  // SIGINT exits 130, SIGTERM 143, in every command (see src/util/signals.ts).
  installSignalHandlers((code) => process.exit(code));
  const out = process.stdout;
  // Piping into `head` closes stdout early: that is not an error. A reader command stops there (exit 0); a
  // command whose exit code is a verdict, or whose work has effects, finishes with the rest of its output
  // discarded and exits with its own code (KEEPS_GOING_WHEN_STDOUT_CLOSES in src/context.ts). Any other
  // failure (a full disk) also reaches the write that failed, which fails the command with one line
  // (stdoutWriteError); here it is only noted, so that a run whose output was lost never exits 0.
  const stdoutClosed = { keepGoing: false, closed: false };
  let stdoutFailed: NodeJS.ErrnoException | undefined;
  out.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') {
      if (stdoutClosed.keepGoing) stdoutClosed.closed = true;
      else process.exit(process.exitCode ?? 0);
      return;
    }
    stdoutFailed ??= e;
  });
  // stderr into a reader that has gone (`srs ... 2>&1 | head -1`) or that cannot be written: the notes and
  // warnings are lost, and nothing can say so (there is nowhere left to say it). The exit code stays the
  // command's own: without a listener the EPIPE was an uncaught 'error' event, a stack trace and exit 1 that
  // replaced score check's verdict (3 or 0).
  process.stderr.on('error', () => undefined);
  let code = await main(
    process.argv.slice(2),
    {
      stdout: out,
      stderr: process.stderr,
      stdin: process.stdin,
      stdoutIsTTY: !!out.isTTY,
      // A dumb terminal (Emacs' shell, some CI consoles) shows cursor moves as text: no spinner, no redrawn progress line.
      stderrIsTTY: !!process.stderr.isTTY && process.env.TERM !== 'dumb',
      stdinIsTTY: !!process.stdin.isTTY,
      columns: out.columns,
      exitsAfter: true,
      stdoutClosed,
    },
    process.env,
  );
  // Everything srs starts is awaited by now. Once stdout and stderr have handed
  // their last bytes to the OS, exit without the teardown of the heap and of
  // idle keep-alive sockets, which took ~50 ms after a 10,000-result score calc.
  await Promise.all([written(out), written(process.stderr)]);
  // A failed write of the last output (help text into a full disk) is emitted a tick later: waited for,
  // or `srs supplier --help >/dev/full` exited 0 with nothing written.
  if (code === 0 && !stdoutFailed) await new Promise((r) => setImmediate(r));
  if (stdoutFailed && code === 0) {
    process.stderr.write(`srs: ${(stdoutWriteError(stdoutFailed) as Error).message}\n`);
    code = 1;
  }
  process.exitCode = code;
  process.exit(code);
}

/** Resolves once a stream has no write pending (at once when none is, as on Linux, where stdio writes are synchronous). */
function written(stream: NodeJS.WriteStream): Promise<void> | undefined {
  if (stream.destroyed || stream.writableLength === 0) return undefined;
  return new Promise((resolve) => stream.write('', () => resolve()));
}
