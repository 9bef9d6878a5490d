/** Import limits shared by the command definition (loaded at start-up) and the import itself. */
/** The ceiling of the adaptive concurrency (--max-concurrency's default). */
export const DEFAULT_MAX_CONCURRENCY = 64;
/** The most requests in flight either option allows. */
export const MAX_CONCURRENCY = 256;
