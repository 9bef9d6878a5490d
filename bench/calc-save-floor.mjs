#!/usr/bin/env node
// A contender for bench/bundle.bench.mjs, not a benchmark of its own: exactly
// the requests `srs score calc --save` must send for N suppliers (one POST
// /v1/score-calculation per 100 ids, and one GET /v1/scorecards?supplierId= per
// supplier: the interface has no other way to learn which scorecards apply to a
// supplier), sent with undici alone and nothing else: bodies are read and
// dropped, nothing is parsed, validated or written. It is the floor for any
// client of this interface on this machine.
//   node bench/calc-save-floor.mjs URL API_KEY IDS_FILE [CONCURRENCY]
// Prints {"suppliers":N,"seconds":S,"calcSeconds":C,"scorecardSeconds":G,"cpuSeconds":U} on stdout.
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';

const [url, apiKey, idsFile, concArg] = process.argv.slice(2);
const ids = readFileSync(idsFile, 'utf8').split('\n').filter(Boolean);
const concurrency = Number(concArg ?? 8);
const agent = new Agent({ connections: concurrency });
const origin = new URL(url).origin;
const headers = ['accept', 'application/json', 'x-api-key', apiKey, 'content-type', 'application/json'];

function send(method, path, body) {
  return new Promise((resolve, reject) => {
    let status = 0;
    agent.dispatch(
      { origin, path, method, headers, body },
      {
        onRequestStart() {},
        onResponseStart(_c, s) {
          status = s;
        },
        onResponseData() {},
        onResponseEnd() {
          if (status !== 200) reject(new Error(`${method} ${path}: HTTP ${status}`));
          else resolve();
        },
        onResponseError(_c, e) {
          reject(e);
        },
      },
    );
  });
}

async function pool(n, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) await fn(next++);
  }));
}

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const batches = Math.ceil(ids.length / 100);
await pool(batches, (b) => send('POST', '/v1/score-calculation', JSON.stringify({ supplierIds: ids.slice(b * 100, b * 100 + 100) })));
const t1 = performance.now();
await pool(ids.length, (i) => send('GET', `/v1/scorecards?supplierId=${encodeURIComponent(ids[i])}&page=1&perPage=100`));
const t2 = performance.now();
const cpu = process.cpuUsage(cpu0);
await agent.close();
console.log(JSON.stringify({ suppliers: ids.length, seconds: (t2 - t0) / 1000, calcSeconds: (t1 - t0) / 1000, scorecardSeconds: (t2 - t1) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
