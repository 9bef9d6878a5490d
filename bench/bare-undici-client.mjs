#!/usr/bin/env node
// A contender for bench/import.bench.mjs, not a benchmark of its own: the same
// POST /v1/suppliers requests as the import, sent with undici alone (Agent.dispatch,
// JSON.stringify / JSON.parse, `concurrency` workers), and nothing else: no CSV,
// no validation, no journal, no report. It is the floor for any client built on
// undici, which srs is; how close `srs supplier import` gets to it shows what
// srs's own per-row work costs.
//   node bench/bare-undici-client.mjs URL API_KEY ROWS [CONCURRENCY]
// Prints {"requests":N,"seconds":S,"cpuMicrosPerRequest":U} on stdout.
import { Agent } from 'undici';

const [url, apiKey, rowsArg, concArg] = process.argv.slice(2);
const rows = Number(rowsArg);
const concurrency = Number(concArg ?? 8);
const started = performance.now();
const agent = new Agent({ connections: concurrency });
const origin = new URL(url).origin;
const headers = ['accept', 'application/json', 'x-api-key', apiKey, 'content-type', 'application/json'];
const COUNTRIES = ['DEU', 'FRA', 'USA', 'GBR', 'ITA', 'ESP', 'NLD', 'CHN', 'JPN', 'BRA'];

function post(body) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let status = 0;
    agent.dispatch(
      { origin, path: '/v1/suppliers', method: 'POST', headers, body },
      {
        onRequestStart() {},
        onResponseStart(_c, s) {
          status = s;
        },
        onResponseData(_c, d) {
          chunks.push(d);
        },
        onResponseEnd() {
          const data = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (status !== 201 || typeof data.id !== 'string') reject(new Error(`HTTP ${status}`));
          else resolve(data.id);
        },
        onResponseError(_c, e) {
          reject(e);
        },
      },
    );
  });
}

let next = 0;
async function worker() {
  while (next < rows) {
    const i = next++;
    await post(
      JSON.stringify({
        name: `Supplier ${i}, Ltd`,
        countryIso3Code: COUNTRIES[i % 10],
        website: `https://s${i}.example.com`,
        customerSupplierId: `V${String(i).padStart(8, '0')}`,
        industryCodes: ['30202010'],
        contacts: [{ email: `buyer${i}@s${i}.example.com`, firstName: 'Ann', lastName: 'Lee' }],
      }),
    );
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await agent.close();
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ requests: rows, seconds: (performance.now() - started) / 1000, cpuMicrosPerRequest: (cpu.user + cpu.system) / rows }) + '\n');
