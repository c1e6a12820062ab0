// Internal switches (NOT exported from ./index.ts): for the package's own tests only.

/**
 * createDecoder option key: true makes every push() take the checked slow path (the per-token
 * fast path is never taken). Same events by construction; the differential tests compare.
 */
export const SLOW_PATH_ONLY: unique symbol = Symbol("chatwire.slowPathOnly");
