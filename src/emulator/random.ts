/**
 * Deterministic randomness for the emulator's seeded data, and ULIDs.
 *
 * - `Rng`: sfc32, a small fast PRNG with 128 bits of state, seeded through
 *   splitmix32. Identical seeds give identical sequences on every platform.
 * - `deriveSeed(seed, ...parts)`: independent sub-streams (one per supplier, one
 *   for reference data...), so supplier #7 is the same whether 150 or 20,000
 *   suppliers are seeded.
 * - `SeededUlids`: deterministic ULIDs: 10 time characters from a fixed base
 *   timestamp advanced per id, then 16 characters from the PRNG.
 * - `MonotonicUlids`: real ULIDs (wall clock + crypto randomness) for records
 *   created at run time, strictly increasing so that "ordered by id" is also
 *   "ordered by creation".
 *
 * All ULIDs are 26 characters of lowercase Crockford base32.
 */
import { randomBytes } from 'node:crypto';

export const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
export const ULID_RE = /^[0-9a-hjkmnp-tv-z]{26}$/;
const TIME_LEN = 10;
const RAND_LEN = 16;
const MAX_TIME = 2 ** 48 - 1;

/** splitmix32 step: a good bijective mixer for 32-bit seeds. */
function splitmix32(state: number): [number, number] {
  const s = (state + 0x9e3779b9) | 0;
  let z = s;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  z ^= z >>> 15;
  return [s, z >>> 0];
}

/** FNV-1a over the parts' text, then mixed: a stable 32-bit seed for a sub-stream. */
export function deriveSeed(seed: number, ...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  const text = parts.join('\u0000');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= Math.imul(seed | 0, 0x85ebca6b);
  return splitmix32(h >>> 0)[1];
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const out: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [next, z] = splitmix32(s);
      s = next;
      out.push(z);
    }
    this.a = out[0]!;
    this.b = out[1]!;
    this.c = out[2]!;
    this.d = out[3]!;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** A uniformly distributed unsigned 32-bit integer (sfc32). */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** [0, 1) */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: ReadonlyArray<T>): T {
    if (items.length === 0) throw new Error('Rng.pick: empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight; `weights[i]` is the weight of `items[i]`. */
  weighted<T>(items: ReadonlyArray<T>, weights: ReadonlyArray<number>): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i] ?? 0;
      if (r < 0) return items[i]!;
    }
    return items[items.length - 1]!;
  }

  /** `n` distinct elements (fewer when the list is shorter), in random order. */
  sample<T>(items: ReadonlyArray<T>, n: number): T[] {
    const copy = items.slice();
    const out: T[] = [];
    while (out.length < n && copy.length > 0) {
      const i = Math.floor(this.next() * copy.length);
      out.push(copy[i]!);
      copy[i] = copy[copy.length - 1]!;
      copy.pop();
    }
    return out;
  }
}

export function encodeTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_TIME) throw new Error(`ULID time out of range: ${ms}`);
  let out = '';
  let t = ms;
  for (let i = 0; i < TIME_LEN; i++) {
    out = CROCKFORD[t % 32]! + out;
    t = Math.floor(t / 32);
  }
  return out;
}

export function decodeTime(ulid: string): number {
  let t = 0;
  for (let i = 0; i < TIME_LEN; i++) {
    const v = CROCKFORD.indexOf(ulid[i] ?? '');
    if (v < 0) throw new Error(`not a ULID: ${ulid}`);
    t = t * 32 + v;
  }
  return t;
}

/**
 * Deterministic ULIDs: the time part starts at `baseMs` and advances by a
 * random step in [minStepMs, maxStepMs] per id, the random part comes from `rng`.
 * Successive ids are therefore strictly increasing.
 */
export class SeededUlids {
  private time: number;
  constructor(
    private readonly rng: Rng,
    baseMs: number,
    private readonly minStepMs = 1_000,
    private readonly maxStepMs = 90_000,
  ) {
    this.time = baseMs;
  }

  next(): string {
    this.time += this.rng.int(this.minStepMs, this.maxStepMs);
    let rand = '';
    for (let i = 0; i < RAND_LEN; i++) rand += CROCKFORD[this.rng.uint32() & 31]!;
    return encodeTime(this.time) + rand;
  }

  /** The time part of the last id produced. */
  get lastTime(): number {
    return this.time;
  }
}

/**
 * Real, monotonic ULIDs: wall-clock time, crypto randomness, and when the clock
 * has not moved past the previous id, the previous random part plus one.
 */
export class MonotonicUlids {
  private lastTimeMs = -1;
  private lastRand: number[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Makes every later id sort after `id` (used after loading stored ids). */
  observe(id: string): void {
    if (!ULID_RE.test(id)) return;
    const t = decodeTime(id);
    const rand = [...id.slice(TIME_LEN)].map((ch) => CROCKFORD.indexOf(ch));
    if (t > this.lastTimeMs || (t === this.lastTimeMs && compareDigits(rand, this.lastRand) > 0)) {
      this.lastTimeMs = t;
      this.lastRand = rand;
    }
  }

  next(): string {
    const now = Math.min(Math.max(0, Math.floor(this.now())), MAX_TIME);
    if (now > this.lastTimeMs) {
      this.lastTimeMs = now;
      const bytes = randomBytes(RAND_LEN);
      // 5 bits per character; the first character keeps headroom for increments.
      this.lastRand = [...bytes].map((b, i) => (i === 0 ? b & 15 : b & 31));
    } else {
      incrementDigits(this.lastRand);
    }
    return encodeTime(this.lastTimeMs) + this.lastRand.map((v) => CROCKFORD[v]!).join('');
  }
}

function compareDigits(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

function incrementDigits(d: number[]): void {
  for (let i = d.length - 1; i >= 0; i--) {
    const v = (d[i] ?? 0) + 1;
    if (v < 32) {
      d[i] = v;
      return;
    }
    d[i] = 0;
  }
  throw new Error('ULID random part overflow');
}
