// The small tekken tokenizers mistral-common's own v11/v13 tests build (tests/test_tekken.py
// quick_vocab + get_special_tokens, a re-implementation labelled as such): the 256 byte tokens
// (its extra tokens lie past vocab_size - num_special_tokens and are cut off), pattern ".+",
// 100 special tokens: the deprecated list, then (v11+) fillers, [ARGS] = 32, [CALL_ID] = 33 and,
// with `think`, [THINK] = 35, [/THINK] = 36. So a byte b of text is ID b + 100, as its expected IDs say.

const DEPRECATED = [
  "<unk>",
  "<s>",
  "</s>",
  "[INST]",
  "[/INST]",
  "[AVAILABLE_TOOLS]",
  "[/AVAILABLE_TOOLS]",
  "[TOOL_RESULTS]",
  "[/TOOL_RESULTS]",
  "[TOOL_CALLS]",
  "[IMG]",
  "<pad>",
  "[IMG_BREAK]",
  "[IMG_END]",
  "[PREFIX]",
  "[MIDDLE]",
  "[SUFFIX]",
  "[SYSTEM_PROMPT]",
  "[/SYSTEM_PROMPT]",
  "[TOOL_CONTENT]",
];

export function syntheticTekken(version: "v7" | "v11" | "v13", think = false): Uint8Array {
  const special = [...DEPRECATED];
  if (version !== "v7") {
    for (let i = special.length; i < 24; i++) special.push(`<SPECIAL_${i}>`);
    for (let i = special.length; i < 32; i++) special.push(`<SPCECIAL_${i}>`);
    special.push("[ARGS]", "[CALL_ID]");
    if (version === "v13" && think) special.push("<SPCECIAL_34>", "[THINK]", "[/THINK]");
  }
  const vocab = Array.from({ length: 256 }, (_, i) => ({
    rank: i,
    token_bytes: Buffer.from([i]).toString("base64"),
    token_str: String.fromCharCode(i),
  }));
  const file = {
    config: { pattern: ".+", default_vocab_size: 356, default_num_special_tokens: 100, version },
    vocab,
    special_tokens: special.map((token_str, rank) => ({ rank, token_str, is_control: true })),
  };
  return new TextEncoder().encode(JSON.stringify(file));
}
