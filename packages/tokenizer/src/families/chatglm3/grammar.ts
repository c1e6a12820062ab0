// PLACEHOLDER written by core-tok so the definition compiles: core-dec owns this file and
// writes the real decoder grammar (on merge, core-dec's version wins).
import type { Grammar } from "../grammar.ts";
import type { ChatGLM3Key } from "./definition.ts";

export const grammar: Grammar<ChatGLM3Key> = { markers: {}, header: { syntax: "none" } };
