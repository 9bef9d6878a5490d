/**
 * Ctrl-C, SIGTERM and SIGHUP (the terminal closed), the same in every command:
 * SIGINT exits 130, SIGTERM 143 and SIGHUP 129 (128 + the signal's number, as a
 * shell reports a process the signal killed). SIGHUP is handled like the others:
 * left to Node's default, it ended an import or a create in flight without
 * saving what it knew.
 *
 * - By default a signal ends the process at once with that code (reads hold
 *   nothing that needs saving; files srs writes are written atomically).
 * - A command with work to save (an import: its journal and reports; the
 *   emulator: its state file) registers a graceful stop with onInterrupt: the
 *   first signal calls it, and the command then ends with InterruptedError,
 *   which carries the same exit code. A second signal ends the process at once.
 *
 * src/index.ts installs the handlers (installSignalHandlers) for the real
 * process; in-process runs (tests calling main()) never see a signal.
 */
import { statSync } from 'node:fs';
import { ExitCode, SrsError } from '../errors.js';

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP. */
export const signalExitCode = (sig: StopSignal): 129 | 130 | 143 => (sig === 'SIGINT' ? ExitCode.interrupted : sig === 'SIGTERM' ? ExitCode.terminated : ExitCode.hangup);

/** What a signal did, in a message: interrupted, terminated, hung up. */
export const stoppedWord = (sig: StopSignal): string => (sig === 'SIGINT' ? 'interrupted' : sig === 'SIGTERM' ? 'terminated' : 'hung up');

/** The run was stopped by a signal (or Ctrl-C at a prompt). Exit 130 or 143. */
export class InterruptedError extends SrsError {
  readonly signal: StopSignal;
  /** `code`: outcome_unknown when a request was in flight (a create that may have reached the service). */
  constructor(sig: StopSignal, message = stoppedWord(sig), code: 'interrupted' | 'outcome_unknown' = 'interrupted') {
    super(code, signalExitCode(sig), message);
    this.name = 'InterruptedError';
    this.signal = sig;
  }
}

const graceful = new Set<(sig: StopSignal) => void>();
const beforeHardExit = new Set<(sig: StopSignal) => void>();
let received: StopSignal | undefined;

/** Registers what must run before a second signal ends the process at once (a progress line to end); returns a remover. */
export function onHardExit(fn: (sig: StopSignal) => void): () => void {
  beforeHardExit.add(fn);
  return () => beforeHardExit.delete(fn);
}

/** Registers a graceful stop for the first signal; returns a function that removes it. */
export function onInterrupt(stop: (sig: StopSignal) => void): () => void {
  graceful.add(stop);
  return () => graceful.delete(stop);
}

/** The signal that arrived, if one did. */
export const interruptedBy = (): StopSignal | undefined => received;

let readingNonRegular = false;

/** Whether `path` names an existing file that is neither regular nor a directory (a FIFO, <(...), a device). stat never waits. */
export function isSpecialFile(path: string): boolean {
  try {
    const st = statSync(path);
    return !st.isFile() && !st.isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether `path` is a special file (isSpecialFile), noting that this run reads one: its open() or read() in Node's
 * thread pool can wait for ever, so a signal then ends the process by the signal itself (installSignalHandlers).
 * Runs that read regular files only keep exiting with the code, as every test and script expects.
 */
export function readsSpecialFile(path: string): boolean {
  const special = isSpecialFile(path);
  if (special) readingNonRegular = true;
  return special;
}

/** Whether a file system call is waiting in Node's thread pool (FSReqCallback, FSReqPromise). */
const fsCallPending = (): boolean => process.getActiveResourcesInfo().some((r) => r.startsWith('FSReq'));

/** Installs SIGINT, SIGTERM and SIGHUP handlers for the process; `exit` ends it with a code. */
export function installSignalHandlers(exit: (code: number) => void): void {
  const handle = (sig: StopSignal) => {
    const first = received === undefined;
    received ??= sig;
    if (first && graceful.size > 0) {
      for (const stop of [...graceful]) stop(sig);
      return;
    }
    for (const fn of [...beforeHardExit]) {
      try {
        fn(sig);
      } catch {
        /* leaving at once all the same */
      }
    }
    if (readingNonRegular && fsCallPending()) {
      // A call in Node's thread pool may never return: open() of a FIFO that no writer opens (`srs score recompute
      // fifo`, an import of one). process.exit() waits for the pool's threads, so Ctrl-C and SIGTERM did nothing
      // and only SIGKILL ended the run. The 'exit' listeners run (temporary files, locks), then the process dies of
      // the signal itself, its default action: a shell reports 128 + its number, as for the exit codes above.
      try {
        process.emit('exit', signalExitCode(sig));
      } finally {
        process.removeAllListeners(sig);
        process.kill(process.pid, sig);
      }
      return;
    }
    exit(signalExitCode(sig));
  };
  // A file-size limit (ulimit -f) reached: without a handler SIGXFSZ kills the process on the spot (exit 153, a
  // temporary file left, nothing said); handled, the write fails with EFBIG and srs says which file it could not write.
  process.on('SIGXFSZ', () => undefined);
  process.on('SIGINT', () => handle('SIGINT'));
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGHUP', () => handle('SIGHUP'));
}
