import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { checkBaseUrl, errorFromResponse, extractServiceMessage, parseResponse } from '../../src/api/http.js';
import { ApiError, AuthError, BadResponseError, UsageError } from '../../src/errors.js';

describe('service error messages', () => {
  it('accepts message, error, errors[] and plain text', () => {
    expect(extractServiceMessage('{"message":"bad name"}')).toBe('bad name');
    expect(extractServiceMessage('{"error":"nope"}')).toBe('nope');
    expect(extractServiceMessage('{"error":{"message":"nested"}}')).toBe('nested');
    expect(extractServiceMessage('{"errors":[{"message":"a"},"b"]}')).toBe('a; b');
    // A list of messages beside the status name (NestJS's validation errors): the messages, not "Bad Request".
    expect(extractServiceMessage('{"message":["perPage must not be greater than 100","page must be a number"],"error":"Bad Request","statusCode":400}')).toBe(
      'perPage must not be greater than 100; page must be a number',
    );
    expect(extractServiceMessage('plain text\nfailure')).toBe('plain text failure');
    expect(extractServiceMessage('<html><title>502 Bad Gateway</title></html>')).toBe('HTML page: 502 Bad Gateway');
    expect(extractServiceMessage('')).toBeUndefined();
  });
  it('maps 401/403 to AuthError and others to ApiError with method and path', () => {
    expect(errorFromResponse('GET', '/v1/x', { status: 401, headers: {}, text: '' })).toBeInstanceOf(AuthError);
    const unauthorized = errorFromResponse('GET', '/v1/x', { status: 401, headers: {}, text: '' });
    expect(unauthorized.message).toContain('HTTP 401');
    const forbidden = errorFromResponse('POST', '/v1/suppliers', { status: 403, headers: {}, text: '{"message":"read-only key"}' });
    expect(forbidden).toBeInstanceOf(AuthError);
    expect(forbidden).not.toBeInstanceOf(ApiError);
    expect(forbidden.message).toContain('HTTP 403');
    expect(forbidden.message).toContain('POST /v1/suppliers');
    expect(forbidden.message).toContain('read-only key');
    const e = errorFromResponse('GET', '/v1/suppliers/1', { status: 404, headers: {}, text: '{"message":"supplier not found"}' });
    expect(e).toBeInstanceOf(ApiError);
    // A 404 for one resource also says where ids come from.
    expect(e.message).toBe("GET /v1/suppliers/1 failed with HTTP 404: supplier not found; check the supplier id (srs supplier find NAME lists the suppliers srs has recorded; an emulator's seeded ones: srs emulator fixtures, with the emulator's --seed and --suppliers)");
    expect((e as ApiError).code).toBe('not_found');
  });
});

describe('parseResponse', () => {
  const schema = z.looseObject({ item: z.looseObject({ id: z.string() }) });
  it('names the missing path', () => {
    expect(() => parseResponse('GET', '/v1/x', { status: 200, headers: {}, text: '{"item":{}}' }, schema)).toThrow(/body\.item\.id/);
  });
  it('keeps unknown fields', () => {
    expect(parseResponse('GET', '/v1/x', { status: 200, headers: {}, text: '{"item":{"id":"1","extra":true}}' }, schema)).toEqual({ item: { id: '1', extra: true } });
  });
  it('reports HTML and truncated JSON as bad responses', () => {
    expect(() => parseResponse('GET', '/v1/x', { status: 200, headers: { 'content-type': 'text/html' }, text: '<html>' }, schema)).toThrow(BadResponseError);
    expect(() => parseResponse('GET', '/v1/x', { status: 200, headers: {}, text: '{"item":{"id":"1"' }, schema)).toThrow(/not valid JSON/);
  });
});

describe('checkBaseUrl', () => {
  it('refuses plain http to a non-loopback host unless allowed', () => {
    expect(() => checkBaseUrl('http://api.example.com')).toThrow(UsageError);
    expect(checkBaseUrl('http://api.example.com', true).host).toBe('api.example.com');
    expect(checkBaseUrl('http://127.0.0.1:8080').port).toBe('8080');
    expect(checkBaseUrl('http://localhost:1').hostname).toBe('localhost');
    expect(() => checkBaseUrl('ftp://x')).toThrow(/https/);
    expect(() => checkBaseUrl('not a url')).toThrow(/not a URL/);
  });
});
