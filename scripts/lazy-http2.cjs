'use strict';
// Stands in for node:http2 inside undici's client-h2.js (see scripts/build.mjs).
// That module reads ten constants of node:http2 when it loads, and calls
// http2.connect() only when a server negotiates HTTP/2. Loading node:http2 up
// front (and with it node:tls and node:crypto) cost every networked srs
// command ~10 ms of start-up, so the constants are given here and the real
// module loads on the first connect. The build checks them against node:http2.
let real;
const load = () => (real ??= require('node:http2'));
module.exports = {
  constants: {
    HTTP2_HEADER_AUTHORITY: ':authority',
    HTTP2_HEADER_METHOD: ':method',
    HTTP2_HEADER_PATH: ':path',
    HTTP2_HEADER_SCHEME: ':scheme',
    HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
    HTTP2_HEADER_EXPECT: 'expect',
    HTTP2_HEADER_STATUS: ':status',
    HTTP2_HEADER_PROTOCOL: ':protocol',
    NGHTTP2_NO_ERROR: 0,
    NGHTTP2_REFUSED_STREAM: 7,
  },
  connect: (...args) => load().connect(...args),
};
