/**
 * A small hostile service for integration tests: a real HTTP server on loopback
 * whose behaviour is chosen per scenario (the first path segment after /s/), so
 * one server serves a whole test file: `srs` runs with SRS_BASE_URL set to
 * `server.base(name)`.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { assertBuilt, baseEnv } from '../integration/harness.js';

export type Handler = (req: IncomingMessage, res: ServerResponse, count: number, body: string) => void;

export interface HostileServer {
  url: string;
  /** Registers a scenario; returns its base URL. */
  scenario(name: string, h: Handler): string;
  /** Requests a scenario got. */
  count(name: string): number;
  /** Every request: method, URL and the x-api-key header it carried. */
  seen: Array<{ method: string; url: string; key: string | undefined }>;
  close(): Promise<void>;
}

export const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** The page and perPage a list request asks for. */
export function pageOf(req: IncomingMessage): { page: number; perPage: number } {
  const u = new URL(req.url ?? '/', 'http://x');
  return { page: Number(u.searchParams.get('page') ?? 1), perPage: Number(u.searchParams.get('perPage') ?? 100) };
}

export async function startHostileServer(): Promise<HostileServer> {
  const routes = new Map<string, Handler>();
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const seen: HostileServer['seen'] = [];
  const server: Server = createServer((req, res) => {
    const key = req.headers['x-api-key'];
    seen.push({ method: req.method ?? '', url: req.url ?? '', key: typeof key === 'string' ? key : undefined });
    const name = /^\/s\/([^/]+)\//.exec(req.url ?? '')?.[1] ?? '';
    const n = (counts.get(name) ?? 0) + 1;
    counts.set(name, n);
    const h = routes.get(name);
    if (!h) return json(res, 404, { message: 'no scenario' });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => h(req, res, n, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    scenario(name, h) {
      routes.set(name, h);
      counts.set(name, 0);
      return `${url}/s/${name}`;
    },
    count: (name) => counts.get(name) ?? 0,
    seen,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * One hostile server for a test file: started before its tests (after checking
 * that srs is built) and closed after them. `env` is a clean srs environment
 * (isolated HOME, config and data) with SRS_API_KEY set to `key`.
 */
export function useHostileServer(key: string): { readonly server: HostileServer; readonly env: Record<string, string> } {
  let server: HostileServer | undefined;
  let env: Record<string, string> | undefined;
  beforeAll(async () => {
    assertBuilt();
    server = await startHostileServer();
    env = { ...baseEnv(mkdtempSync(join(tmpdir(), 'srs-hostile-'))), SRS_API_KEY: key };
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('the hostile server starts in beforeAll');
      return server;
    },
    get env() {
      if (!env) throw new Error('the hostile server starts in beforeAll');
      return env;
    },
  };
}

export interface MeasuredRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Bytes srs wrote to stdout (the text is not kept: it may be hundreds of MB). */
  stdoutBytes: number;
  /** The first 64 KiB of stdout. */
  stdoutHead: string;
  ms: number;
  /** Peak resident set of the srs process (VmHWM, sampled every 20 ms until it exits), in MiB. */
  peakMiB: number;
}

/** Runs `node bin` with args, measuring its time and peak RSS from /proc/PID/status (Linux). */
export function runMeasured(node: string, bin: string, args: string[], env: Record<string, string>, timeoutMs: number): Promise<MeasuredRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdoutBytes = 0;
    let stdoutHead = '';
    let stderr = '';
    let peakKb = 0;
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {
        // exited
      }
    };
    const sampler = setInterval(sample, 20);
    child.stdout.on('data', (d: Buffer) => {
      stdoutBytes += d.length;
      if (stdoutHead.length < 65536) stdoutHead += d.toString('utf8');
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // The last sample before it exits: the high-water mark can only have grown.
    child.on('exit', sample);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(sampler);
      clearTimeout(timer);
      resolve({ code, signal, stderr, stdoutBytes, stdoutHead, ms: performance.now() - started, peakMiB: peakKb / 1024 });
    });
  });
}
