/**
 * Evidence bundles as streams (src/commands/score/evidence.ts): the writer's
 * digest and atomic rename, the reader's formats, and its limits, which are
 * runtime errors (exit 1) with the right words, never usage errors.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScoreResult } from '../../src/api/contract.js';
import type { Context } from '../../src/context.js';
import { bundleOptions } from '../../src/commands/score/bundle.js';
import { BUNDLE_VERSION, BundleWriter, digestOfFile, readEvidence, type EvidenceEvent } from '../../src/commands/score/evidence.js';
import { ExitCode, SrsError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-evidence-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// readEvidence uses the context only for stdin; these tests read files.
const ctx = { io: { stdinIsTTY: true } } as unknown as Context;

const item = (supplierId: string, v: number | null): ScoreResult =>
  ({ supplierId, score: { value: v, dataSourcesScore: { value: v }, policyParametersScore: { value: null } }, dataSourceScores: [], policyParameterScores: [] }) as unknown as ScoreResult;
const card = { id: 'c1', name: 'Card', items: [{ type: 'policy_parameter_item', policyParameter: { id: 'p1', name: 'P', policyCategoryName: 'C' }, weight: 2 }] };

async function events(path: string, opts: Parameters<typeof readEvidence>[3] = {}): Promise<EvidenceEvent[]> {
  const out: EvidenceEvent[] = [];
  for await (const ev of readEvidence(ctx, path, 'test', opts)) out.push(ev);
  return out;
}

async function rejection(p: Promise<unknown>): Promise<SrsError> {
  try {
    await p;
  } catch (e) {
    return e as SrsError;
  }
  throw new Error('expected a rejection');
}

describe('BundleWriter and readEvidence', () => {
  it('writes one record per line, each scorecard once, and an end record whose digest covers every line before it', async () => {
    const path = join(dir, 'b.jsonl');
    const w = await BundleWriter.create(path, { modelVersion: '1.0.0', createdAt: 'now', asOf: '2025-01-01', service: { baseUrl: null }, options: bundleOptions() });
    await w.request({ supplierIds: ['a', 'b', 'c'] });
    await w.result(item('a', 1), [card as never]);
    await w.result(item('b', null), [card as never]);
    await w.error('c', 'not_found', 'the service does not know supplier c');
    await w.finish();
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const text = readFileSync(path, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { t?: string }).t ?? 'header')).toEqual(['header', 'request', 'scorecard', 'result', 'result', 'error', 'end']);
    // A result line is built around the item's own JSON (made once, shared with the output): byte for byte what
    // JSON.stringify of the record makes, so the digest of a bundle does not depend on how it was written.
    expect(lines[3]).toBe(JSON.stringify({ t: 'result', scorecards: [card.id], item: item('a', 1) }));
    const end = JSON.parse(lines.at(-1)!) as { suppliers: number; digest: { value: string } };
    expect(end.suppliers).toBe(3);
    expect(end.digest.value).toBe(createHash('sha256').update(lines.slice(0, -1).join('\n') + '\n').digest('hex'));
    expect(await digestOfFile(ctx, path, 'test')).toEqual({ computed: end.digest.value, declared: end.digest.value, declaredSuppliers: 3, suppliers: 3, ends: 1 });

    const evs = await events(path);
    expect(evs[0]).toMatchObject({ t: 'header', format: BUNDLE_VERSION, asOf: '2025-01-01' });
    expect(evs.filter((e) => e.t === 'result').map((e) => (e as { item: ScoreResult }).item.supplierId)).toEqual(['a', 'b']);
    expect(evs.at(-1)).toEqual({ t: 'end', declared: { suppliers: 3, digest: end.digest.value }, computed: end.digest.value });
    // The digest computed beforehand: none is computed again (items are validated all the same).
    const known = await events(path, { digest: false });
    expect(known.filter((e) => e.t === 'result')).toHaveLength(2);
    expect(known.at(-1)).toMatchObject({ computed: null });
  });

  it('abort() leaves nothing behind and the target untouched', async () => {
    const path = join(dir, 'kept.jsonl');
    writeFileSync(path, 'before');
    const w = await BundleWriter.create(path, { modelVersion: '1.0.0', createdAt: 'now', asOf: '2025-01-01', service: { baseUrl: null }, options: bundleOptions() });
    await w.result(item('a', 1), []);
    await w.abort();
    expect(readFileSync(path, 'utf8')).toBe('before');
    expect(readdirSync(dir).filter((f) => f.includes('kept.jsonl.'))).toEqual([]);
  });

  it('a format-1 document over the limit is a runtime error (exit 1) that says so, not a usage error', async () => {
    const path = join(dir, 'big.json');
    writeFileSync(path, JSON.stringify({ items: Array.from({ length: 200 }, (_, k) => item(`s${k}`, 1)) }, null, 2));
    const e = await rejection(events(path, { maxWholeBytes: 10_000 }));
    expect(e).toBeInstanceOf(SrsError);
    expect(e.exitCode).toBe(ExitCode.failure);
    expect(e.code).toBe('runtime');
    expect(e.message).toMatch(/too large to read at once/);
    expect(e.message).not.toMatch(/usage/);
    expect((await events(path)).filter((x) => x.t === 'result')).toHaveLength(200);
  });

  it('a format-2 line over the limit is a runtime error naming the line', async () => {
    const path = join(dir, 'long.jsonl');
    const w = await BundleWriter.create(path, { modelVersion: '1.0.0', createdAt: 'now', asOf: '2025-01-01', service: { baseUrl: null }, options: bundleOptions() });
    await w.request({ supplierIds: ['a'] });
    await w.result({ ...item('a', 1), padding: 'x'.repeat(50_000) } as unknown as ScoreResult, []);
    await w.finish();
    const e = await rejection(events(path, { maxLineBytes: 10_000 }));
    expect(e.exitCode).toBe(ExitCode.failure);
    expect(e.message).toMatch(/long\.jsonl line 3: longer than .* MiB: too large to read/);
  });

  it('malformed records are usage errors (exit 2) naming the line', async () => {
    const path = join(dir, 'bad.jsonl');
    const header = { kind: 'srs.score-bundle', bundleVersion: 2, modelVersion: '1', createdAt: 'now', asOf: '2025-01-01', service: { baseUrl: null }, options: bundleOptions() };
    writeFileSync(path, `${JSON.stringify(header)}\n{"t":"result","scorecards":[],"item":{"supplierId":1}}\n`);
    const e = await rejection(events(path));
    expect(e.exitCode).toBe(ExitCode.usage);
    expect(e.message).toMatch(/bad\.jsonl line 2: /);
    writeFileSync(path, `${JSON.stringify(header)}\n{"t":"surprise"}\n`);
    expect((await rejection(events(path))).message).toMatch(/line 2: unknown record type "surprise"/);
  });

  it('chunk boundaries: an end record in a chunk of its own, and a one-line document over many chunks', async () => {
    const header = { kind: 'srs.score-bundle', bundleVersion: 2, modelVersion: '1', createdAt: 'now', asOf: '2025-01-01', service: { baseUrl: null }, options: bundleOptions() };
    const head = JSON.stringify(header) + '\n' + JSON.stringify({ t: 'request', request: { supplierIds: ['a'] } }) + '\n';
    const base = JSON.stringify({ t: 'result', scorecards: [], item: { ...item('a', 1), pad: '' } }) + '\n';
    // Pad the result so that everything before the end record is exactly one read chunk (1 MiB).
    const body = head + base.replace('"pad":""', `"pad":"${'x'.repeat((1 << 20) - head.length - base.length)}"`);
    expect(Buffer.byteLength(body)).toBe(1 << 20);
    const digest = createHash('sha256').update(body).digest('hex');
    const path = join(dir, 'boundary.jsonl');
    writeFileSync(path, body + JSON.stringify({ t: 'end', suppliers: 1, digest: { algorithm: 'sha256', value: digest } }) + '\n');
    expect(await digestOfFile(ctx, path, 'test')).toEqual({ computed: digest, declared: digest, declaredSuppliers: 1, suppliers: 1, ends: 1 });
    expect((await events(path)).at(-1)).toMatchObject({ declared: { digest }, computed: digest });

    const one = join(dir, 'one-line.json');
    writeFileSync(one, JSON.stringify({ items: Array.from({ length: 20_000 }, (_, k) => item(`s${k}`, 1)) }));
    expect(readFileSync(one).length).toBeGreaterThan(3 << 20);
    expect((await events(one)).filter((x) => x.t === 'result')).toHaveLength(20_000);
  });
});

describe('RecordCounter (the end count checked in the digest pass)', () => {
  it('counts result and error lines however the chunks split them', async () => {
    const { RecordCounter } = await import('../../src/commands/score/evidence.js');
    const text = ['{"kind":"srs.score-bundle"}', '{"t":"request"}', '{"t":"result","item":{}}', '', '{"t":"error","x":1}', '{"t":"res"}', '{ "t":"result"}', '{"t":"result"}', '{"t":"end"}'].join('\n') + '\n';
    const bytes = Buffer.from(text);
    for (let size = 1; size <= bytes.length; size++) {
      const c = new RecordCounter();
      for (let i = 0; i < bytes.length; i += size) c.scan(bytes.subarray(i, i + size));
      expect(c.count, `chunks of ${size}`).toBe(3);
    }
  });
});
