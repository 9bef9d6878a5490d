// Shared helpers of the benchmark scripts: spawning the built srs, timing
// commands (median of runs after warm-ups), peak RSS, and an emulator process.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(ROOT, 'bin/srs.js');
export const NODE = process.execPath;

export function tempDir(prefix = 'srs-bench-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A clean environment for srs runs. */
export function srsEnv(extra = {}) {
  const home = tempDir();
  return { PATH: process.env.PATH, HOME: home, SRS_CONFIG_DIR: join(home, 'config'), SRS_DATA_DIR: join(home, 'data'), ...extra };
}

/** A small deterministic generator (mulberry32): the same data on every run. */
export function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs a command synchronously and returns wall milliseconds; throws on a non-zero exit. */
export function timeOnce(cmd, args, opts = {}) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { stdio: ['pipe', 'ignore', 'pipe'], input: opts.input ?? '', env: opts.env ?? process.env, maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (r.status !== 0 && !opts.allowFail) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/** Interleaves contenders (so drift hits all alike); returns {name: medianMs}. */
export function compare(contenders, { warmup = 3, runs = 15 } = {}) {
  const times = Object.fromEntries(contenders.map((c) => [c.name, []]));
  for (let i = 0; i < warmup; i++) for (const c of contenders) timeOnce(c.cmd, c.args, c);
  for (let i = 0; i < runs; i++) for (const c of contenders) times[c.name].push(timeOnce(c.cmd, c.args, c));
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

/**
 * Peak RSS in MB of a command (GNU time's %M, in KiB), its CPU seconds (user +
 * system) and how many lines it printed. Asynchronous, so a server living in
 * the calling process keeps answering.
 */
export function peakRss(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%M %U %S', cmd, ...args], { env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let err = '';
    child.stdout.on('data', (d) => {
      // indexOf, not a loop over the bytes: that loop took 2.0 s of CPU for the 600 MB of `score calc --save -o ndjson`
      // (25 ms this way), on a machine of 2 cores that srs and the emulator share with this process.
      for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(timeLine(err, lines)) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`)),
    );
  });
}

function timeLine(err, lines) {
  const [kb, user, sys] = err.trim().split('\n').at(-1).split(' ').map(Number);
  return { mb: kb / 1024, cpu: user + sys, lines };
}

/** Starts `srs emulator start` in its own process; resolves {url, apiKey, stop()}. */
export function startEmulatorProcess(args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [BIN, 'emulator', 'start', '--port', '0', '-o', 'json', ...args], { env: srsEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`emulator exited ${code}`)));
    child.stdout.setEncoding('utf8').on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        const info = JSON.parse(buf.slice(0, nl));
        child.removeAllListeners('exit');
        resolve({
          ...info,
          stop: () =>
            new Promise((r) => {
              child.once('exit', r);
              child.kill('SIGTERM');
            }),
        });
      }
    });
  });
}

export function report(name, results) {
  console.log(JSON.stringify({ name, results }));
}
