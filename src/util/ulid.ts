/**
 * The shape of the service's ids: 26-character lowercase ULIDs in Crockford
 * base32 (digits and lowercase letters without i, l, o, u). The first
 * character is 0-7: a ULID's 48-bit time part cannot be larger.
 */
export const ULID_SHAPE = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

export function isUlid(s: string): boolean {
  return ULID_SHAPE.test(s);
}

/** Why `s` is not a ULID, for an error message. */
export function whyNotUlid(s: string): string {
  if (s.length !== 26) return `${s.length} characters, not 26`;
  if (ULID_SHAPE.test(s.toLowerCase())) return 'uppercase: ids are lowercase';
  const bad = [...s].find((c) => !/[0-9a-hjkmnp-tv-z]/.test(c));
  if (bad !== undefined) return `"${bad}" is not a Crockford base32 character`;
  return 'starts above 7 (a ULID\'s time part overflows)';
}
