/**
 * SupplierInput: the supplier creation request as a person or a file gives it,
 * validated before anything is sent. It is the contract's SupplierCreateRequest
 * with the rules the contract leaves loose made exact:
 * - countryIso3Code: trimmed and upper-cased, then exactly 3 letters AND a real
 *   ISO 3166-1 alpha-3 code (the cca3 codes of the npm package world-countries
 *   whose status is officially-assigned: 249, without Kosovo's user-assigned
 *   UNK; the same list the emulator serves);
 * - website: a URI with an http or https scheme (a website; `javascript:` or
 *   `mailto:` URIs are refused);
 * - contacts[].email: the shape of an address (the contract's EMAIL_SHAPE).
 * `srs supplier create` and `srs supplier import` (dry run and real run) all
 * validate with this one schema. Its output is a valid SupplierCreateRequest.
 *
 * The country list is loaded on first use, cheaply: the package's JSON file is
 * scanned for its cca2/cca3 fields (a few ms) instead of being bundled or parsed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as z from 'zod/mini';
import { SupplierCreateRequest, URI_TEXT } from './contract.js';

interface CountryCodes {
  iso3: ReadonlySet<string>;
  /** alpha-2 -> alpha-3, for "did you mean" hints. */
  byIso2: ReadonlyMap<string, string>;
}

let codes: CountryCodes | undefined;

function loadCountryCodes(): CountryCodes {
  const file = createRequire(import.meta.url).resolve('world-countries/countries.json');
  const text = readFileSync(file, 'utf8');
  const iso3 = new Set<string>();
  const byIso2 = new Map<string, string>();
  // Each country object carries "cca2", then "cca3", then "status"; pair them up without parsing 1.4 MB of JSON.
  let pending2: string | undefined;
  let pending3: string | undefined;
  for (const m of text.matchAll(/"(cca2|cca3|status)"\s*:\s*"([^"]*)"/g)) {
    const value = m[2]!;
    if (m[1] === 'cca2') {
      pending2 = value.toUpperCase();
    } else if (m[1] === 'cca3') {
      pending3 = value.toUpperCase();
    } else if (pending3 !== undefined) {
      // ISO 3166-1 codes only: Kosovo's UNK is user-assigned, and a service that checks the standard refuses it.
      if (value === 'officially-assigned') {
        iso3.add(pending3);
        if (pending2 !== undefined) byIso2.set(pending2, pending3);
      }
      pending2 = pending3 = undefined;
    }
  }
  if (iso3.size < 200) throw new Error(`world-countries: expected about 249 country codes in ${file}, found ${iso3.size}`);
  return { iso3, byIso2 };
}

function countryCodes(): CountryCodes {
  codes ??= loadCountryCodes();
  return codes;
}

/** True when `code` (any case) is an ISO 3166-1 alpha-3 code. */
export function isIso3CountryCode(code: string): boolean {
  return countryCodes().iso3.has(code.toUpperCase());
}

/** Every known alpha-3 code (for tests and help). */
export function iso3CountryCodes(): ReadonlySet<string> {
  return countryCodes().iso3;
}

function countryMessage(code: string): string {
  const hint = code.length === 2 ? countryCodes().byIso2.get(code) : undefined;
  return `"${code}" is not an ISO 3166-1 alpha-3 country code (${hint ? `did you mean ${hint}?` : 'three letters, e.g. DEU'})`;
}

const CountryIso3 = z.string().check(
  z.overwrite((s) => s.trim().toUpperCase()),
  z.superRefine((s, ctx) => {
    if (!countryCodes().iso3.has(s)) ctx.addIssue({ code: 'custom', message: countryMessage(s) });
  }),
);

const websiteError = (iss: { input?: unknown }) => `${typeof iss.input === 'string' ? `"${iss.input.length > 60 ? iss.input.slice(0, 57) + '...' : iss.input}"` : 'website'} is not an http(s) URI (for example https://example.com; a space must be percent-encoded: %20)`;
// The characters a URI may hold are checked on the value as given, before z.url(), which parses it the WHATWG way
// and silently drops tabs and line breaks ("http://exa\r\nmple.com" was sent as http://example.com).
const Website = z.pipe(z.string().check(z.regex(URI_TEXT, { error: websiteError })), z.url({ protocol: /^https?$/, error: websiteError }));

/**
 * Industry codes are the classification's 8-digit sub-industry codes (the service's documentation): checked here,
 * so that a dry run does not call valid a row the service will refuse ("30202010, 30202030" in one comma file cell).
 */
const IndustryCode = z.string().check(z.regex(/^\d{8}$/, 'an industry code is 8 digits, a sub-industry code (srs ref industries lists them; several go in separate --industry options, or separated by ";")'));

export const SupplierInput = z.extend(SupplierCreateRequest, {
  countryIso3Code: z.optional(CountryIso3),
  industryCodes: z.optional(z.array(IndustryCode)),
  website: z.optional(Website),
});

export type SupplierInput = z.infer<typeof SupplierInput>;
