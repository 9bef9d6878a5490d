#!/usr/bin/env node
// A contender for bench/lookup.bench.mjs, not a benchmark of its own: the floor of a
// lookup made with undici, which srs is built on. It does what `srs supplier get ID
// -o json` cannot do without: load undici's Agent (the same module srs bundles, not
// undici's index with fetch and WebSocket), send GET /v1/suppliers/{id} with the key,
// and print the body. Nothing else: no CLI, no validation, no config, no catalog.
// CommonJS and Node's compile cache, as srs's launcher enables it, so that it pays no
// more for loading than srs does.
//   node bench/bare-undici-lookup.cjs URL API_KEY ID
'use strict';
require('node:module').enableCompileCache?.();
const Agent = require('undici/lib/dispatcher/agent.js');

const [url, apiKey, id] = process.argv.slice(2);
const agent = new Agent();
const chunks = [];
let status = 0;
agent.dispatch(
  { origin: new URL(url).origin, path: `/v1/suppliers/${encodeURIComponent(id)}`, method: 'GET', headers: ['accept', 'application/json', 'x-api-key', apiKey] },
  {
    onRequestStart() {},
    onResponseStart(_c, s) {
      status = s;
    },
    onResponseData(_c, d) {
      chunks.push(d);
    },
    onResponseEnd() {
      if (status !== 200) {
        process.stderr.write(`HTTP ${status}\n`);
        process.exit(1);
      }
      process.stdout.write(Buffer.concat(chunks));
      process.stdout.write('\n');
      process.exit(0);
    },
    onResponseError(_c, e) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    },
  },
);
