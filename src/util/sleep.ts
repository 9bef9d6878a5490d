/** Blocks the thread for `ms` (no event loop turn): for waits inside a change that is synchronous from end to end. */
export function sleepSync(ms: number): void {
  Atomics.wait(nap, 0, 0, ms);
}

const nap = new Int32Array(new SharedArrayBuffer(4));
