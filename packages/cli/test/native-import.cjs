// Node's own import(), for support.ts: an import() written in a test module goes through vitest's
// module runner; one in a CommonJS file that Node's require() loaded goes to Node's loader.
module.exports = (url) => import(url);
