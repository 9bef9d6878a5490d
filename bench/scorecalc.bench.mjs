// Score calculation for 10,000 supplier ids (100 requests of 100 ids) with srs,
// against the same 100 requests issued by a load generator (autocannon) at the
// same concurrency (8), both against one emulator process. The ids are suppliers
// that have a score: for one without, srs also asks GET /v1/suppliers/{id} whether
// the service knows it (it fails closed on unknown ids), which the load generator
// does not; a run over 10,000 seeded ids, about 30% of them without data, is
// reported beside it with its count of lookups. The target compares
// srs (a whole process: start-up, cold JIT, exit) with autocannon's requests
// alone, in this warm process; the same load generator run as a fresh process
// (bench/scorecalc-loadgen.mjs) is reported beside it for context.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BIN, NODE, ROOT, median, report, srsEnv, startEmulatorProcess, tempDir, timeOnce } from './common.mjs';
import { scoreCalcLoad } from './scorecalc-load.mjs';
import { spawnSync } from 'node:child_process';

const N = 10_000;
const CONCURRENCY = 8;
// Rounds of each contender, interleaved: the emulator's own time for the same 100 requests varies by up to 2x within a session.
const ROUNDS = 7;
const SEEDED = 16_000; // enough seeded suppliers for 10,000 with a score
const emu = await startEmulatorProcess(['--suppliers', String(SEEDED)]);
try {
  const env = srsEnv({ SRS_BASE_URL: emu.url, SRS_API_KEY: emu.apiKey });
  const fx = JSON.parse(spawnSync(NODE, [BIN, 'emulator', 'fixtures', '--suppliers', String(SEEDED)], { encoding: 'utf8', env, maxBuffer: 1 << 28 }).stdout);
  const dir = tempDir();
  const mixedFile = join(dir, 'mixed.txt');
  writeFileSync(mixedFile, fx.suppliers.slice(0, N).map((s) => s.id).join('\n'));
  const allFile = join(dir, 'all.txt');
  writeFileSync(allFile, fx.suppliers.map((s) => s.id).join('\n'));
  const scored = spawnSync(NODE, [BIN, 'score', 'calc', '--ids-file', allFile, '-o', 'ndjson'], { encoding: 'utf8', env, maxBuffer: 1 << 30 });
  const withScore = scored.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((r) => typeof r.score?.value === 'number').map((r) => r.supplierId);
  if (withScore.length < N) throw new Error(`only ${withScore.length} of ${SEEDED} seeded suppliers have a score; need ${N}`);
  const ids = withScore.slice(0, N);
  const idsFile = join(dir, 'ids.txt');
  writeFileSync(idsFile, ids.join('\n'));
  const bodies = [];
  for (let i = 0; i < ids.length; i += 100) bodies.push(JSON.stringify({ supplierIds: ids.slice(i, i + 100) }));

  // Timed from the start to the last response, counted from autocannon's 'response'
  // events: with `amount`, autocannon itself only notices it is done at its next
  // one-second tick, so its own end time (or awaiting it) would time that tick.
  const loadgen = () =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      let last = t0;
      let seen = 0;
      const instance = autocannon(
        scoreCalcLoad(emu.url, emu.apiKey, bodies, CONCURRENCY),
        (err, r) => {
          if (err) return reject(err);
          if (r.non2xx) return reject(new Error(`load generator got ${r.non2xx} non-2xx answers`));
          if (seen !== bodies.length) return reject(new Error(`load generator saw ${seen} responses, expected ${bodies.length}`));
          resolve(last - t0);
        },
      );
      instance.on('response', () => {
        seen++;
        last = performance.now();
      });
    });
  const srsArgs = [BIN, 'score', 'calc', '--ids-file', idsFile, '--concurrency', String(CONCURRENCY), '-o', 'json'];
  const srs = () => timeOnce(NODE, srsArgs, { env });
  // The same load generator as a fresh process, timed like srs (context, not the target).
  const bodiesFile = join(dir, 'bodies.ndjson');
  writeFileSync(bodiesFile, bodies.join('\n') + '\n');
  const loadgenProcess = () => timeOnce(NODE, [join(ROOT, 'bench', 'scorecalc-loadgen.mjs'), emu.url, emu.apiKey, bodiesFile, String(CONCURRENCY)]);

  await loadgen();
  srs();
  loadgenProcess();
  const a = [];
  const b = [];
  const c = [];
  for (let i = 0; i < ROUNDS; i++) {
    a.push(srs());
    b.push(await loadgen());
    c.push(loadgenProcess());
  }
  // Where srs's time goes, from separate runs (context, not the target): start-up until its
  // first request leaves, then the requests (to the last response).
  const phases = [];
  const beside = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = spawnSync(NODE, ['--import', join(ROOT, 'bench', 'request-phases.mjs'), ...srsArgs], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const line = /^request-phases (.*)$/m.exec(r.stderr ?? '');
    if (r.status !== 0 || !line) throw new Error(`srs score calc with bench/request-phases.mjs failed (exit ${r.status}): ${r.stderr}`);
    phases.push(JSON.parse(line[1]));
    beside.push(await loadgen()); // a load generator round beside each, for the comparison of the requests alone
  }
  if (process.env.BENCH_VERBOSE) console.error('srs', a.map(Math.round), 'loadgen', b.map(Math.round), 'loadgen process', c.map(Math.round));
  // Context: 10,000 seeded ids as they come, some without data (each costs srs one lookup).
  const mixedArgs = [BIN, 'score', 'calc', '--ids-file', mixedFile, '--concurrency', String(CONCURRENCY), '-o', 'json'];
  const mixedOut = spawnSync(NODE, mixedArgs, { encoding: 'utf8', env, maxBuffer: 1 << 30 });
  const lookups = JSON.parse(mixedOut.stdout).filter((r) => typeof r.score?.value !== 'number').length;
  const mixed = [];
  for (let i = 0; i < ROUNDS; i++) mixed.push(timeOnce(NODE, mixedArgs, { env }));
  const ms = median(a);
  const lg = median(b);
  report('scorecalc', [
    { metric: 'srs score calc, 10,000 ids (each with a score)', value: ms, unit: 'ms' },
    { metric: 'autocannon, same 100 requests, 8 connections', value: lg, unit: 'ms' },
    { metric: 'srs / load generator', value: ms / lg, unit: 'x', target: '<= 1.5', pass: ms / lg <= 1.5 },
    { metric: 'autocannon as a fresh process (start-up included, like srs)', value: median(c), unit: 'ms' },
    { metric: 'srs / load generator process', value: ms / median(c), unit: 'x' },
    { metric: 'srs start-up, until its first request leaves (separate runs)', value: median(phases.map((p) => p.firstRequest)), unit: 'ms' },
    { metric: 'srs requests, first request to last response (separate runs)', value: median(phases.map((p) => p.lastResponse - p.firstRequest)), unit: 'ms' },
    { metric: 'srs requests / load generator', value: median(phases.map((p) => p.lastResponse - p.firstRequest)) / median(beside), unit: 'x' },
    { metric: `srs score calc, 10,000 seeded ids as they come (${lookups} without a score: as many GET /v1/suppliers/{id} lookups)`, value: median(mixed), unit: 'ms' },
  ]);
} finally {
  await emu.stop();
}
