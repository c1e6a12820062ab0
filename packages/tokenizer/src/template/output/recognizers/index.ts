// The recognizers, in the order they are tried: the first that recognizes the template wins
// (one reasoning part, one tool-call part). More specific shapes come first.
import type { Recognizer } from "../part.ts";
import { deepseekFenced } from "./deepseek-fenced.ts";
import { jsonCalls } from "./json-calls.ts";
import { plainJson } from "./plain-json.ts";
import { reasoningPair } from "./reasoning-pair.ts";
import { toolCallTag } from "./tool-call-tag.ts";

export const REASONING_RECOGNIZERS: readonly Recognizer[] = [reasoningPair];

export const TOOL_RECOGNIZERS: readonly Recognizer[] = [deepseekFenced, jsonCalls, toolCallTag, plainJson];
