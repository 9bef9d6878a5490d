/**
 * scripts/lazy-http2.cjs stands in for node:http2 inside undici's client-h2.js
 * (scripts/build.mjs), so that networked commands do not load node:http2,
 * node:tls and node:crypto at start-up. It must give node:http2's own
 * constants and a connect() that is node:http2's.
 */
import { once } from 'node:events';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const shim = require('../../scripts/lazy-http2.cjs') as { constants: Record<string, unknown>; connect: typeof http2.connect };

describe('lazy-http2', () => {
  it("its constants are node:http2's", () => {
    for (const [k, v] of Object.entries(shim.constants)) expect(v, k).toBe((http2.constants as Record<string, unknown>)[k]);
  });

  it('connect() is a real HTTP/2 connection', async () => {
    const server = http2.createServer((_req, res) => res.end('h2 ok'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const session = shim.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const stream = session.request({ ':path': '/' });
      let body = '';
      stream.setEncoding('utf8').on('data', (d: string) => (body += d));
      await once(stream, 'end');
      session.close();
      expect(body).toBe('h2 ok');
    } finally {
      server.close();
    }
  });
});
