/**
 * Ctrl-C and SIGTERM, the same in every command: SIGINT exits 130 and SIGTERM
 * 143 (128 + the signal's number, as a shell reports a process the signal
 * killed).
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
import { ExitCode, SrsError } from '../errors.js';

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** 130 for SIGINT, 143 for SIGTERM. */
export const signalExitCode = (sig: StopSignal): 130 | 143 => (sig === 'SIGINT' ? ExitCode.interrupted : ExitCode.terminated);

/** The run was stopped by a signal (or Ctrl-C at a prompt). Exit 130 or 143. */
export class InterruptedError extends SrsError {
  readonly signal: StopSignal;
  /** `code`: outcome_unknown when a request was in flight (a create that may have reached the service). */
  constructor(sig: StopSignal, message = sig === 'SIGINT' ? 'interrupted' : 'terminated', code: 'interrupted' | 'outcome_unknown' = 'interrupted') {
    super(code, signalExitCode(sig), message);
    this.name = 'InterruptedError';
    this.signal = sig;
  }
}

const graceful = new Set<(sig: StopSignal) => void>();
let received: StopSignal | undefined;

/** Registers a graceful stop for the first signal; returns a function that removes it. */
export function onInterrupt(stop: (sig: StopSignal) => void): () => void {
  graceful.add(stop);
  return () => graceful.delete(stop);
}

/** The signal that arrived, if one did. */
export const interruptedBy = (): StopSignal | undefined => received;

/** Installs SIGINT and SIGTERM handlers for the process; `exit` ends it with a code. */
export function installSignalHandlers(exit: (code: number) => void): void {
  const handle = (sig: StopSignal) => {
    const first = received === undefined;
    received ??= sig;
    if (first && graceful.size > 0) {
      for (const stop of [...graceful]) stop(sig);
      return;
    }
    exit(signalExitCode(sig));
  };
  process.on('SIGINT', () => handle('SIGINT'));
  process.on('SIGTERM', () => handle('SIGTERM'));
}
