/**
 * A request that never left the machine is "not sent", never "unknown": a TLS handshake that fails (https
 * to a plain-http port), or a connection that never completes within --timeout. undici writes a request
 * only on a connected socket (onRequestStart, src/api/http.ts): until then nothing can have reached the
 * service, so a create is failed (and may be sent again) rather than recorded as an unknown outcome.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let silent: Server;
let silentUrl: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  h = await startHarness({ admin: true });
  // Accepts connections and says nothing: a TLS handshake never completes.
  silent = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentUrl = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
  await h.close();
});

const unknownEntries = async (env: Record<string, string>) => JSON.parse((await h.run(['supplier', 'ls', '--state', 'unknown', '-o', 'json'], { env })).stdout) as unknown[];

describe('a request that never left', () => {
  it('https to a plain-http port: a TLS failure, exit 1, not unknown; the create can be sent again', async () => {
    const env = { SRS_BASE_URL: h.emu.url.replace('http://', 'https://') };
    const r = await h.run(['supplier', 'create', '--name', 'TLS Co', '--customer-id', 'TLS-1', '--retries', '0'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/TLS failure \(ERR_SSL_[A-Z_]+\): is the base URL's scheme right\?/);
    expect(r.stderr).not.toMatch(/outcome_unknown|may exist/);
    expect(await unknownEntries(env)).toEqual([]);
    const file = join(mkdtempSync(join(tmpdir(), 'srs-notsent-')), 'tls.csv');
    writeFileSync(file, 'name,countryIso3Code,customerSupplierId\nTLS Row,DEU,TLS-2\n');
    const imp = await h.run(['supplier', 'import', file, '--retries', '0', '-o', 'json', '--quiet'], { env });
    expect(JSON.parse(imp.stdout)).toMatchObject({ created: 0, failed: 1, unknown: 0 });
    // The right URL then creates both, once each.
    expect((await h.run(['supplier', 'create', '--name', 'TLS Co', '--customer-id', 'TLS-1'])).code).toBe(0);
    expect(JSON.parse((await h.run(['supplier', 'import', file, '-o', 'json', '--quiet'])).stdout)).toMatchObject({ created: 1 });
  });

  it('a connection that never completes: the attempt ends at --timeout, not at the connect timeout, and is not unknown', async () => {
    const env = { SRS_BASE_URL: silentUrl };
    const t = performance.now();
    const r = await h.run(['supplier', 'create', '--name', 'Silent Co', '--customer-id', 'SIL-1', '--timeout', '1s', '--retries', '0'], { env });
    expect(performance.now() - t).toBeLessThan(5_000);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no connection within 1 s/);
    expect(r.stderr).not.toMatch(/outcome_unknown|may exist/);
    expect(await unknownEntries(env)).toEqual([]);
  });
});
