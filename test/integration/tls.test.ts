/**
 * A service whose certificate Node does not trust (a company proxy, a private CA): one clear line with what
 * to do (NODE_EXTRA_CA_CERTS), exit 1, and no retries (the same answer on every attempt; it was tried 4
 * times). Trusted through NODE_EXTRA_CA_CERTS, the same service works. The certificate is a fixture
 * (test/fixtures/tls/README.md).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runSrs, scratchDir } from './harness.js';

const TLS = join(import.meta.dirname, '..', 'fixtures', 'tls');
const scratch = scratchDir('srs-tls-');
let server: Server;
let url: string;
let handshakes = 0;
let requests = 0;

beforeAll(async () => {
  server = createServer({ key: readFileSync(join(TLS, 'key.pem')), cert: readFileSync(join(TLS, 'cert.pem')) }, (_req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: [{ iso3Code: 'DEU', iso2Code: 'DE', commonName: 'Germany', officialName: 'Federal Republic of Germany', regionName: 'Europe' }], pagination: { pageSize: 100 } }));
  });
  server.on('secureConnection', () => handshakes++);
  server.on('tlsClientError', () => handshakes++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe('a certificate Node does not trust', () => {
  it('is one line saying to set NODE_EXTRA_CA_CERTS, exit 1, tried once; with it set, the same service answers', async () => {
    const env = { ...baseEnv(scratch.path), SRS_BASE_URL: url, SRS_API_KEY: 'tls-test-key-0123456789' };
    const r = await runSrs(['ref', 'countries', '-o', 'json'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/TLS failure \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\): .*set NODE_EXTRA_CA_CERTS to its certificate file/);
    expect(r.stderr).not.toMatch(/attempts over/);
    expect(handshakes).toBe(1);
    expect(requests).toBe(0);
    const trusted = await runSrs(['ref', 'countries', '-o', 'json'], { ...env, NODE_EXTRA_CA_CERTS: join(TLS, 'cert.pem') });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(JSON.parse(trusted.stdout)).toEqual([expect.objectContaining({ iso3Code: 'DEU' })]);
  });
});
