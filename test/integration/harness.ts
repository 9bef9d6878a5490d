/**
 * Runs the BUILT srs binary (bin/srs.js -> dist/) as a child process against a
 * real emulator on 127.0.0.1, with an isolated config and data directory.
 * Every run checks that the API key never shows up in stdout or stderr.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/srs.js');

export interface RunResult {
  code: number;
  /** The signal that ended the child, if one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  input?: string | Buffer;
  cwd?: string;
  /** Called once the child runs, with a way to signal it (kill -9 and Ctrl-C tests). */
  onSpawn?: (kill: (s: NodeJS.Signals) => void) => void;
  /** Run under bash's `ulimit -f` (KiB): writes past it fail with EFBIG, as on a full disk. */
  fileSizeLimitKb?: number;
  env?: Record<string, string | undefined>;
  /** Skip the "key never printed" check (for commands that must print a generated key). */
  allowKeyInOutput?: boolean;
  timeoutMs?: number;
  /** Close the read end of the child's stdout at once: a reader that has gone (`srs ... | true`); every write meets EPIPE. */
  closeStdout?: boolean;
  /** The same for stderr (`srs ... 2>&1 | head -1`: both go into a reader that has gone). */
  closeStderr?: boolean;
}

export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist/srs.js'))) throw new Error('dist/ is missing: run "npm run build" before the integration tests (npm test does)');
}

/** A clean environment: PATH and HOME only, plus isolated srs directories. */
export function baseEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    SRS_CONFIG_DIR: join(home, 'config'),
    SRS_DATA_DIR: join(home, 'data'),
  };
}

export function runSrs(args: string[], env: Record<string, string | undefined>, opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const [cmd, argv] =
      opts.fileSizeLimitKb === undefined
        ? [process.execPath, [BIN, ...args]]
        : ['bash', ['-c', `ulimit -f ${opts.fileSizeLimitKb} && exec "$@"`, 'bash', process.execPath, BIN, ...args]];
    const child = spawn(cmd, argv, {
      ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
      env: Object.fromEntries(Object.entries({ ...env, ...opts.env }).filter(([, v]) => v !== undefined)) as Record<string, string>,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    if (opts.closeStdout) child.stdout.destroy();
    else child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    if (opts.closeStderr) child.stderr.destroy();
    else child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // The key the child actually got: opts.env wins over env (an explicit undefined there removes it).
      const key = opts.env && 'SRS_API_KEY' in opts.env ? opts.env.SRS_API_KEY : env.SRS_API_KEY;
      if (key && !opts.allowKeyInOutput) {
        expect(stdout.includes(key), `API key leaked to stdout of srs ${args.join(' ')}`).toBe(false);
        expect(stderr.includes(key), `API key leaked to stderr of srs ${args.join(' ')}`).toBe(false);
      }
      resolvePromise({ code: code ?? -1, signal, stdout, stderr });
    });
    child.stdin.on('error', () => undefined); // a child that exits without reading its input
    child.stdin.end(opts.input ?? '');
    opts.onSpawn?.((sig) => child.kill(sig));
  });
}

export interface Harness {
  emu: RunningEmulator;
  env: Record<string, string>;
  home: string;
  /** Request lines the emulator saw ("METHOD /path status ms"). */
  requests: string[];
  run(args: string[], opts?: RunOptions): Promise<RunResult>;
  close(): Promise<void>;
}

export async function startHarness(opts: EmulatorOptions = {}): Promise<Harness> {
  assertBuilt();
  const home = mkdtempSync(join(tmpdir(), 'srs-it-'));
  const requests: string[] = [];
  const apiKey = `test-key-${Math.random().toString(36).slice(2)}-SECRET`;
  const emu = await startEmulator({ port: 0, apiKey, log: (l) => requests.push(l), ...opts });
  const env = { ...baseEnv(home), SRS_BASE_URL: emu.url, SRS_API_KEY: apiKey };
  return {
    emu,
    env,
    home,
    requests,
    run: (args, o) => runSrs(args, env, o),
    close: () => emu.close(),
  };
}

/**
 * A harness whose catalog-free evidence bundle (`score calc IDS --save`) is ready, and an environment
 * whose service cannot be reached (for commands that must send nothing).
 */
export async function startWithBundle(ids: string[]): Promise<{ h: Harness; offline: Record<string, string>; bundle: string }> {
  const h = await startHarness();
  const offline = { ...baseEnv(h.home + '/offline'), SRS_BASE_URL: 'http://127.0.0.1:9' };
  const bundle = join(h.home, 'evidence.jsonl');
  const r = await h.run(['score', 'calc', ...ids, '--save', bundle, '-o', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return { h, offline, bundle };
}

/** Runs `fn` against a fresh emulator with the admin route (GET /_emulator/suppliers), closed afterwards. */
export async function withHarness(opts: EmulatorOptions, fn: (h: Harness) => Promise<void>): Promise<void> {
  const h = await startHarness({ admin: true, ...opts });
  try {
    await fn(h);
  } finally {
    await h.close();
  }
}

/** customerSupplierId -> how many suppliers the emulator stored with it (GET /_emulator/suppliers: needs the admin route). */
export async function storedIds(h: Harness, prefix: string): Promise<Map<string, number>> {
  const res = await fetch(`${h.emu.url}/_emulator/suppliers`, { headers: { 'x-api-key': h.env.SRS_API_KEY! } });
  const all = (await res.json()) as Array<{ customerSupplierId: string | null }>;
  const counts = new Map<string, number>();
  for (const s of all) if (s.customerSupplierId?.startsWith(prefix)) counts.set(s.customerSupplierId, (counts.get(s.customerSupplierId) ?? 0) + 1);
  return counts;
}

/** A scratch directory for one test file: made (after checking the build) before its tests, removed after them. */
export function scratchDir(prefix: string): { readonly path: string } {
  const scratch = { path: '' };
  beforeAll(() => {
    assertBuilt();
    scratch.path = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(scratch.path, { recursive: true, force: true }));
  return scratch;
}
