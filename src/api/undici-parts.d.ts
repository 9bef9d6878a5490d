// Types for the two undici modules the transport imports directly (src/api/http.ts):
// the package's index also loads fetch, WebSocket, caches and more, which cost
// every command ~20 ms at start-up. undici has no "exports" map, so these paths
// are public files of the package; the types are those of its index.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/core/errors.js' {
  import { errors } from 'undici';
  export const RequestAbortedError: typeof errors.RequestAbortedError;
}
