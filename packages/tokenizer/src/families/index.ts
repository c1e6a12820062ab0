// Every model family chatwire knows: one import line and one list entry per family
// (docs/formats.md "Adding a family"). The list order is the detection order among families of
// equal Detection.priority, and the order names are listed in errors and --help.
import { definition as chatglm3 } from "./chatglm3/definition.ts";
import { deepseekR1, deepseekV3 } from "./deepseek/definition.ts";
import type { FamilyDefinition } from "./definition.ts";
import { definition as gptOss } from "./gpt-oss/definition.ts";
import { definition as internlm2 } from "./internlm2/definition.ts";
import { definitions as llama3 } from "./llama3/definition.ts";
import { definitions as mistral } from "./mistral/definition.ts";
import { definition as qwen3 } from "./qwen3/definition.ts";
import { definition as qwen3Coder } from "./qwen3-coder/definition.ts";

// biome-ignore format: one family per line, so adding one is a one-line change
export const FAMILIES: readonly FamilyDefinition[] = [
  internlm2,
  chatglm3,
  qwen3,
  qwen3Coder,
  gptOss,
  deepseekV3,
  deepseekR1,
  ...llama3,
  ...mistral,
];

/** The family names (the --format values besides "auto" and "template"). */
export const FAMILY_NAMES: readonly string[] = FAMILIES.map((f) => f.name);
