import { UsageError } from '../errors.js';

/**
 * The shape of the service's ids: 26-character lowercase ULIDs in Crockford
 * base32 (digits and lowercase letters without i, l, o, u). The first
 * character is 0-7: a ULID's 48-bit time part cannot be larger.
 */
export const ULID_SHAPE = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

export function isUlid(s: string): boolean {
  return ULID_SHAPE.test(s);
}

/**
 * Whether an id the service sent can be recorded and looked up again. The interface calls ids opaque strings
 * and its own example answers a create with "01h57nhc4sapk2v8c7tq[...]", so any text is taken but what cannot
 * name one supplier: empty or blank, surrounded by spaces, with control characters, a path ("../x", "a/b",
 * "a\\b": the answer of a broken or hostile service, never an id) or a dot segment ("." or "..").
 */
export function isUsableServiceId(s: string): boolean {
  return s.length > 0 && s.length <= 1024 && s.trim() === s && !/[\u0000-\u001f\u007f/\\]/.test(s) && s !== '.' && s !== '..';
}

/** Why `s` is not a ULID, for an error message. */
export function whyNotUlid(s: string): string {
  if (s.length !== 26) return `${s.length} characters, not 26`;
  if (ULID_SHAPE.test(s.toLowerCase())) return 'uppercase: ids are lowercase';
  const bad = [...s].find((c) => !/[0-9a-hjkmnp-tv-z]/.test(c));
  if (bad !== undefined) return `"${bad}" is not a Crockford base32 character`;
  return 'starts above 7 (a ULID\'s time part overflows)';
}

/**
 * One id argument or option: exit 2 naming it unless it is a 26-character lowercase ULID. Here rather than
 * beside gatherIds (src/commands/score/ids.ts) so that a lookup (`supplier get`) loads no more than it needs.
 */
export function checkId(given: string, what = 'supplier id'): string {
  // Surrounding spaces (a copy-paste) are no part of an id, in every command alike: some trimmed, some refused.
  const id = given.trim();
  if (!isUlid(id)) throw new UsageError(`${what} ${JSON.stringify(given)} is not a 26-character lowercase ULID (${whyNotUlid(id)})`, { code: 'invalid_input' });
  return id;
}
