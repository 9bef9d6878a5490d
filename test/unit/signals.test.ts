/**
 * src/util/signals.ts: the first signal stops gracefully; a second ends the process at once, after the
 * cleanups registered with onHardExit (an import's progress line ended, the rows in flight named).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { installSignalHandlers, onHardExit, onInterrupt } from '../../src/util/signals.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGXFSZ'] as const;
const before = new Map(SIGNALS.map((s) => [s, process.listeners(s)]));

afterEach(() => {
  // Only the listeners this test added go.
  for (const s of SIGNALS) for (const l of process.listeners(s)) if (!before.get(s)!.includes(l)) process.removeListener(s, l as () => void);
});

describe('a second signal', () => {
  it('runs the hard-exit cleanups, then exits with the signal\'s code; the first only stops gracefully', () => {
    const exits: number[] = [];
    const calls: string[] = [];
    installSignalHandlers((code) => exits.push(code));
    const off = onInterrupt(() => calls.push('graceful'));
    const offHard = onHardExit(() => calls.push('cleanup'));
    process.emit('SIGINT');
    expect(calls).toEqual(['graceful']);
    expect(exits).toEqual([]);
    process.emit('SIGINT');
    expect(calls).toEqual(['graceful', 'cleanup']);
    expect(exits).toEqual([130]);
    off();
    offHard();
  });
});
