/** Import limits shared by the command definition (loaded at start-up) and the import itself. */
export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;
