/**
 * Which service and which account a piece of local state belongs to (a journal, a catalog partition).
 *
 * The service has no "who am I" endpoint, so the account behind a key is known by a fingerprint of the
 * key that cannot reveal it: the first 12 hex digits of SHA-256 over a fixed label and the key. The
 * sandbox is its own target. Two targets are the same when their normalised base URLs and accounts
 * match; a rotated key gives another fingerprint, which callers link to the old one only after the
 * service has shown that the new key can read a supplier recorded under the old one.
 */
// SHA-256 from @noble/hashes, not node:crypto: loading node:crypto was 5% of the samples of a
// `srs supplier get`, which hashes one short key (test/unit/target.test.ts pins the digests).
import { sha256 } from '@noble/hashes/sha2.js';
import { ApiError, AuthError } from '../errors.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { normaliseBaseUrl } from '../util/base-url.js';

export interface Target {
  /** Normalised base URL (see normaliseBaseUrl), or `sandbox`. */
  baseUrl: string;
  /** Key fingerprint (12 hex digits), or `sandbox`. */
  account: string;
}

export const SANDBOX_TARGET: Target = Object.freeze({ baseUrl: 'sandbox', account: 'sandbox' });

const FINGERPRINT_LABEL = 'srs-account-fingerprint-v1\0';

/** First 12 hex digits of SHA-256(label + key): enough to tell accounts apart, useless for guessing the key. */
export function keyFingerprint(apiKey: string): string {
  return bytesToHex(sha256(utf8ToBytes(FINGERPRINT_LABEL + apiKey))).slice(0, 12);
}

export { normaliseBaseUrl };

export function targetFor(baseUrl: string, apiKey: string): Target {
  return { baseUrl: normaliseBaseUrl(baseUrl), account: keyFingerprint(apiKey) };
}

export function sameTarget(a: Target, b: Target): boolean {
  return a.baseUrl === b.baseUrl && a.account === b.account;
}

/** One line for messages: `https://api.example.com (account 3f9a1c...)`, or `the sandbox`. */
export function describeTarget(t: Target): string {
  return t.baseUrl === 'sandbox' ? 'the sandbox' : `${t.baseUrl} (account ${t.account})`;
}

/**
 * What a failed GET of a supplier recorded under another key says about the account behind this key (the key
 * rotation check of the journal and the catalog): 403 or 404, another account; undefined, nothing (the caller
 * says the outcome is unknown). A 401 rejects the key itself, which proves no account and would fail every
 * request: it is thrown on (exit 4).
 */
export function otherAccountStatus(e: unknown): 403 | 404 | undefined {
  if (e instanceof AuthError && e.status !== 403) throw e;
  const status = e instanceof ApiError || e instanceof AuthError ? e.status : undefined;
  return status === 403 || status === 404 ? status : undefined;
}
