// The recognizers, in the order they are tried: the first that recognizes the template wins
// (one reasoning part, one tool-call part). More specific shapes come first.
import type { Recognizer } from "../part.ts";
import { deepseekFenced } from "./deepseek-fenced.ts";
import { functionTag } from "./function-tag.ts";
import { markerQuotedCall } from "./marker-quoted-call.ts";
import { plainJson } from "./plain-json.ts";
import { pythonCallList } from "./python-call-list.ts";
import { reasoningOpenText } from "./reasoning-open-text.ts";
import { reasoningPair } from "./reasoning-pair.ts";
import { toolCallTag } from "./tool-call-tag.ts";

export const REASONING_RECOGNIZERS: readonly Recognizer[] = [reasoningPair, reasoningOpenText];

export const TOOL_RECOGNIZERS: readonly Recognizer[] = [
  deepseekFenced,
  toolCallTag,
  plainJson,
  pythonCallList,
  markerQuotedCall,
  functionTag,
];
