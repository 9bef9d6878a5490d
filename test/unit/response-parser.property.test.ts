/**
 * Property tests for the response parsers: whatever bytes a service or proxy
 * sends, the client either returns contract-valid data or throws one of its
 * typed errors with a one-line message; it never throws anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CountryList, ScoreCalculationResponse } from '../../src/api/contract.js';
import { extractServiceMessage, parseResponse } from '../../src/api/http.js';
import { SrsError } from '../../src/errors.js';

const bodies = fc.oneof(
  fc.string(),
  fc.json(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.constantFrom('<html><title>502</title></html>', '{"items":', '', 'null', '[]', '{"items":[],"pagination":{"pageSize":100}}'),
  fc.record({ items: fc.array(fc.record({ iso3Code: fc.oneof(fc.string(), fc.integer()), commonName: fc.string() })), pagination: fc.record({ pageSize: fc.integer(), nextPage: fc.option(fc.integer()) }) }).map((v) => JSON.stringify(v)),
);
const statuses = fc.oneof(fc.constantFrom(200, 201, 204, 400, 401, 403, 404, 429, 500, 502, 503), fc.integer({ min: 100, max: 599 }));
const ctypes = fc.constantFrom(undefined, 'application/json', 'application/json; charset=utf-8', 'text/html', 'text/plain', 'application/problem+json');

describe('response parsers (properties)', () => {
  it('parseResponse returns valid data or throws a typed one-line error, for any body and status', () => {
    fc.assert(
      fc.property(bodies, statuses, ctypes, (text, status, ctype) => {
        const headers = ctype ? { 'content-type': ctype } : {};
        for (const schema of [CountryList, ScoreCalculationResponse]) {
          try {
            const data = parseResponse('GET', '/v1/x', { status, headers, text }, schema);
            expect(status).toBeGreaterThanOrEqual(200);
            expect(status).toBeLessThan(300);
            expect(schema.safeParse(data).success).toBe(true);
          } catch (e) {
            expect(e).toBeInstanceOf(SrsError);
            expect((e as Error).message).not.toMatch(/\n/);
            expect([1, 4]).toContain((e as SrsError).exitCode);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('extractServiceMessage never throws and returns at most one short line', () => {
    fc.assert(
      fc.property(bodies, (text) => {
        const m = extractServiceMessage(text);
        if (m !== undefined) {
          expect(m).not.toMatch(/[\r\n]/);
          expect(m.length).toBeLessThanOrEqual(300);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
