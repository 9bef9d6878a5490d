/**
 * Reusable buffers for large response bodies of known length. score calc
 * -o json|ndjson gathers each ~600 KB body into one of these and gives it back
 * once its results are written: a fresh buffer per response costs more in
 * garbage collection (external memory drives V8's full collections) than the
 * work on the bytes themselves.
 */
export class BufferPool {
  readonly #free: Buffer[] = [];
  /** The memory this pool handed out: only that may come back. */
  readonly #mine = new WeakSet<ArrayBufferLike>();
  readonly #max: number;

  /** `max`: the most free buffers kept (more are left to the garbage collector). */
  constructor(max = 16) {
    this.#max = max;
  }

  /** A buffer of at least `size` bytes (its contents are arbitrary). */
  take(size: number): Buffer {
    for (let k = this.#free.length - 1; k >= 0; k--) {
      const b = this.#free[k]!;
      if (b.length >= size) {
        this.#free.splice(k, 1);
        this.#mine.add(b.buffer);
        return b;
      }
    }
    // Room to spare, so that a slightly larger body next time fits too.
    const b = Buffer.allocUnsafeSlow(Math.max(size + (size >> 2), 64 * 1024));
    this.#mine.add(b.buffer);
    return b;
  }

  /**
   * Gives back a buffer from take (or a view of one); nothing may use it
   * afterwards. Anything else is left alone.
   */
  release(view: Buffer): void {
    if (!this.#mine.has(view.buffer) || this.#free.length >= this.#max) return;
    this.#mine.delete(view.buffer); // back in `free` until taken again
    this.#free.push(Buffer.from(view.buffer, 0, view.buffer.byteLength));
  }
}
