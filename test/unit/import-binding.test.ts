/**
 * Target binding of the import journal (src/import/binding.ts through
 * runImport): a journal of another service, account or the sandbox never makes
 * a run skip rows; a rotated key is linked after one read of a recorded
 * supplier; version 1 journals are still read.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_TARGET, targetFor, type Target } from '../../src/api/target.js';
import { ApiError, AuthError, NetworkError } from '../../src/errors.js';
import { runImport, type ImportDeps } from '../../src/import/index.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-import-binding-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function csv(): string {
  const p = join(dir, `in${n++}.csv`);
  writeFileSync(p, 'name,country,customerSupplierId\nA,DEU,A-1\nB,DEU,B-1\n');
  return p;
}

const PROD = targetFor('https://api.example.com/v1/', 'key-one-aaaa');
const PROD_ROTATED = targetFor('https://API.example.com', 'key-two-bbbb');
const STAGING = targetFor('https://staging.example.com', 'key-one-aaaa');

interface Run {
  sent: string[];
  reads: string[];
  info: string[];
  warnings: string[];
  deps: ImportDeps;
}

function deps(target: Target | undefined, read?: (id: string) => Promise<void>): Run {
  const r: Run = { sent: [], reads: [], info: [], warnings: [], deps: undefined as unknown as ImportDeps };
  r.deps = {
    client: async () => ({
      createSupplier: async (b) => {
        r.sent.push(b.customerSupplierId!);
        return { id: `id-${b.customerSupplierId}-${n}` };
      },
    }),
    target: async () => target,
    ...(read
      ? {
          readSupplier: async (id: string) => {
            r.reads.push(id);
            await read(id);
          },
        }
      : {}),
    stderrWrite: () => undefined,
    stderrIsTTY: false,
    warn: (m) => void r.warnings.push(m),
    info: (m) => void r.info.push(m),
  };
  return r;
}

const found = async () => undefined;

describe('journal target binding', () => {
  it('records the target in a new journal (version 2) and resumes on the same target', async () => {
    const file = csv();
    const a = deps(PROD, found);
    expect((await runImport({ file, quiet: true }, a.deps)).summary.created).toBe(2);
    const header = JSON.parse(readFileSync(file + '.srs-journal', 'utf8').split('\n')[0]!);
    expect(header).toMatchObject({ v: 2, target: { baseUrl: 'https://api.example.com', account: PROD.account } });
    const b = deps(targetFor('https://api.example.com', 'key-one-aaaa'), found);
    expect((await runImport({ file, quiet: true }, b.deps)).summary).toMatchObject({ created: 0, skipped: 2 });
    expect(b.sent).toEqual([]);
    expect(b.reads).toEqual([]);
  });

  it('another base URL, or the sandbox, exits 2 before sending and says --journal NEW; never skips', async () => {
    for (const [first, second] of [
      [PROD, STAGING],
      [SANDBOX_TARGET, PROD],
      [PROD, SANDBOX_TARGET],
    ] as const) {
      const file = csv();
      await runImport({ file, quiet: true }, deps(first, found).deps);
      const before = readFileSync(file + '.srs-journal', 'utf8');
      const b = deps(second, found);
      const err = await runImport({ file, quiet: true }, b.deps).catch((e: unknown) => e);
      expect(err).toMatchObject({ exitCode: 2, message: expect.stringContaining('--journal NEW') });
      expect(b.sent).toEqual([]);
      expect(b.reads).toEqual([]);
      expect(readFileSync(file + '.srs-journal', 'utf8')).toBe(before);
      // With a new journal, every row is created on the new target.
      const c = deps(second, found);
      expect((await runImport({ file, journal: file + '.new', quiet: true }, c.deps)).summary.created).toBe(2);
    }
  });

  it('a rotated key that reads a recorded supplier is the same account: linked once, rows skipped', async () => {
    const file = csv();
    await runImport({ file, quiet: true }, deps(PROD, found).deps);
    const b = deps(PROD_ROTATED, found);
    expect((await runImport({ file, quiet: true }, b.deps)).summary).toMatchObject({ created: 0, skipped: 2 });
    expect(b.reads).toHaveLength(1);
    expect(b.reads[0]).toMatch(/^id-A-1-/);
    expect(b.info.join('\n')).toContain('same account');
    expect(readFileSync(file + '.srs-journal', 'utf8')).toContain(`{"alias":"${PROD_ROTATED.account}","via":"${b.reads[0]}"`);
    const c = deps(PROD_ROTATED, found);
    expect((await runImport({ file, quiet: true }, c.deps)).summary.skipped).toBe(2);
    expect(c.reads).toEqual([]);
  });

  it('a key that the service rejects outright (401) proves no account: exit 4, nothing sent', async () => {
    const file = csv();
    await runImport({ file, quiet: true }, deps(PROD, found).deps);
    const b = deps(PROD_ROTATED, async () => {
      throw new AuthError('rejected', { status: 401 });
    });
    const err = await runImport({ file, quiet: true }, b.deps).catch((x: unknown) => x);
    expect(err).toMatchObject({ exitCode: 4, message: 'rejected' });
    expect(b.sent).toEqual([]);
  });

  it('a key that cannot read a recorded supplier (403, 404) is another account: exit 2, nothing sent', async () => {
    for (const e of [
      new ApiError({ status: 404, method: 'GET', path: '/v1/suppliers/x' }),
      new ApiError({ status: 403, method: 'GET', path: '/v1/suppliers/x' }),
      new AuthError('forbidden', { status: 403 }),
    ]) {
      const file = csv();
      await runImport({ file, quiet: true }, deps(PROD, found).deps);
      const b = deps(PROD_ROTATED, async () => {
        throw e;
      });
      const err = await runImport({ file, quiet: true }, b.deps).catch((x: unknown) => x);
      expect(err).toMatchObject({ exitCode: 2, message: expect.stringMatching(new RegExp(`HTTP ${e.status}.*--journal NEW`)) });
      expect(b.sent).toEqual([]);
    }
  });

  it('when the service cannot say (network error), the outcome is unknown: exit 1, nothing sent', async () => {
    const file = csv();
    await runImport({ file, quiet: true }, deps(PROD, found).deps);
    const b = deps(PROD_ROTATED, async () => {
      throw new NetworkError({ method: 'GET', path: '/v1/suppliers/x', reason: 'connection refused', notSent: true });
    });
    const err = await runImport({ file, quiet: true }, b.deps).catch((x: unknown) => x);
    expect(err).toMatchObject({ exitCode: 1, message: expect.stringContaining('unknown') });
    expect(b.sent).toEqual([]);
  });

  it('a dry run never asks the service: it warns about a rotated key and refuses another base URL', async () => {
    const file = csv();
    await runImport({ file, quiet: true }, deps(PROD, found).deps);
    const b = deps(PROD_ROTATED, found);
    const r = await runImport({ file, quiet: true, dryRun: true }, b.deps);
    expect(b.reads).toEqual([]);
    expect(b.warnings.join('\n')).toContain('the real run asks the service');
    expect(r.summary.dryRun).toBe(true);
    await expect(runImport({ file, quiet: true, dryRun: true }, deps(STAGING, found).deps)).rejects.toMatchObject({ exitCode: 2 });
  });

  it('reads a version 1 journal (no target): checks it with one read, then binds it', async () => {
    const file = csv();
    await runImport({ file, quiet: true }, deps(undefined).deps); // no target known: a header without one
    const path = file + '.srs-journal';
    const lines = readFileSync(path, 'utf8').split('\n');
    const h = JSON.parse(lines[0]!);
    expect(h.target).toBeUndefined();
    h.v = 1;
    writeFileSync(path, [JSON.stringify(h), ...lines.slice(1)].join('\n'));
    const b = deps(PROD, found);
    expect((await runImport({ file, quiet: true }, b.deps)).summary.skipped).toBe(2);
    expect(b.reads).toHaveLength(1);
    expect(readFileSync(path, 'utf8')).toContain(`{"target":{"baseUrl":"https://api.example.com","account":"${PROD.account}"},"via"`);
    // Bound now: the sandbox is refused.
    await expect(runImport({ file, quiet: true }, deps(SANDBOX_TARGET, found).deps)).rejects.toMatchObject({ exitCode: 2 });
  });

  it('refuses a journal written by a newer srs', async () => {
    const file = csv();
    writeFileSync(file + '.srs-journal', '{"srs":"import-journal","v":3,"file":null,"size":null,"head":"x","headBytes":0,"started":"x"}\n');
    await expect(runImport({ file, quiet: true }, deps(PROD, found).deps)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('newer srs') });
  });
});
