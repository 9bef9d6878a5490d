// Preloaded (node --import) into an srs run by bench/scorecalc.bench.mjs, for
// context only (those runs are not the timed ones): on exit it writes to
// stderr when the first request's headers left and when the last response
// ended, in ms since the process started, from undici's diagnostics channels.
import dc from 'node:diagnostics_channel';

let first = 0;
let last = 0;
dc.subscribe('undici:client:sendHeaders', () => {
  if (!first) first = performance.now();
});
dc.subscribe('undici:request:trailers', () => {
  last = performance.now();
});
process.on('exit', () => {
  process.stderr.write(`request-phases ${JSON.stringify({ firstRequest: first, lastResponse: last })}\n`);
});
