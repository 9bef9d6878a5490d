/** Fast non-cryptographic hashing for per-row work (duplicate ids, journal row hashes). */

/**
 * 64-bit hash of a string (two 32-bit lanes, cyrb53-style mixing over UTF-16
 * code units). For a million distinct ids the chance that any two collide is
 * about 3 in 100 million; a collision would report a row as a duplicate (never
 * send a row twice), and the message names the line it collided with.
 */
export function hash64(s: string): [number, number] {
  let h1 = 0xdeadbeef ^ s.length;
  let h2 = 0x41c6ce57 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

/**
 * A short hash of a row's cells (48 bits, 12 hex digits), to notice a row that
 * was edited between runs: independent of quoting, line endings and encoding.
 * Not a security measure, so it need not be cryptographic (SHA-256 cost ~7 µs a row).
 */
export function rowHash(fields: readonly string[]): string {
  const [h1, h2] = hash64(fields.join('\u001f'));
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0').slice(0, 4);
}
