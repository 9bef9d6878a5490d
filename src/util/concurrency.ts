/** Runs fn over items with at most `limit` in flight; results keep input order. Stops at the first error. */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed: { error: unknown } | undefined;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (e) {
        failed ??= { error: e };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failed) throw failed.error;
  return results;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Runs fn over items with at most `concurrency` calls in flight and yields the
 * results in input order. A call that finishes early frees its slot at once
 * (a slow earlier call does not stall the others); at most `ahead` finished
 * results wait for an earlier one, which bounds memory. A failure surfaces
 * when its turn comes; calls already in flight then settle unobserved.
 */
export async function* mapOrdered<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>, ahead = concurrency * 4): AsyncGenerator<R> {
  const limit = Math.max(1, concurrency);
  const window = Math.max(limit, ahead);
  const pending: Array<Promise<R> | undefined> = [];
  let started = 0;
  let consumed = 0;
  let inFlight = 0;
  const settled = () => {
    inFlight--;
    fill();
  };
  const fill = () => {
    while (started < items.length && inFlight < limit && started - consumed < window) {
      let p: Promise<R>;
      try {
        p = fn(items[started]!);
      } catch (e) {
        p = Promise.reject(e);
      }
      inFlight++;
      p.then(settled, settled);
      pending[started++] = p;
    }
  };
  fill();
  while (consumed < items.length) {
    const p = pending[consumed]!;
    pending[consumed] = undefined;
    const r = await p;
    consumed++;
    fill();
    yield r;
  }
}
