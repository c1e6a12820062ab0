export { readTekkenTables, type StoredTekken } from "./model-tables.ts";
export { base64Bytes, readTekkenFile, type TekkenFile } from "./tekken-file.ts";
export { loadTekkenModel, type TekkenModel, type TekkenModelOptions } from "./tekken-model.ts";
