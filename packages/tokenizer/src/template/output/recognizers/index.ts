// The recognizers, in the order they are tried: the first that recognizes the template wins
// (one reasoning part, one tool-call part). More specific shapes come first.
import type { Recognizer } from "../part.ts";
import { argKeyValue } from "./arg-key-value.ts";
import { callTurn } from "./call-turn.ts";
import { fencedCall } from "./fenced-call.ts";
import { fieldHeaders } from "./field-headers.ts";
import { functionTag } from "./function-tag.ts";
import { jsonCalls } from "./json-calls.ts";
import { markerQuotedCall } from "./marker-quoted-call.ts";
import { plainJson } from "./plain-json.ts";
import { pythonCallList } from "./python-call-list.ts";
import { reasoningOpenText } from "./reasoning-open-text.ts";
import { reasoningPair } from "./reasoning-pair.ts";
import { reasoningPromptText } from "./reasoning-prompt-text.ts";
import { recipientLines } from "./recipient-lines.ts";
import { separatedCall } from "./separated-call.ts";
import { toolCallTag } from "./tool-call-tag.ts";
import { xmlParameters } from "./xml-parameters.ts";

// Channel headers (gpt-oss) first: their messages also put reasoning between two reserved tokens.
export const REASONING_RECOGNIZERS: readonly Recognizer[] = [
  fieldHeaders,
  reasoningPair,
  reasoningOpenText,
  reasoningPromptText,
];

export const TOOL_RECOGNIZERS: readonly Recognizer[] = [
  separatedCall,
  fencedCall,
  argKeyValue,
  xmlParameters,
  jsonCalls,
  toolCallTag,
  plainJson,
  pythonCallList,
  markerQuotedCall,
  functionTag,
  recipientLines,
  callTurn,
];
