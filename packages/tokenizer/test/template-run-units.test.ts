// The template path's run cache (src/template/template-runs.ts: a direct-mapped table of split
// runs; a text piece between two reserved strings of one run placed as its precomputed IDs)
// against the uncached path: the same rendering pushed through emitRuns (every template run split
// by the ChatBuilder's own template(), every text piece encoded by the builder) must give the
// same IDs, spans and audit. A differential test of our two paths (the IDs themselves are checked
// against HF by the goldens); it fails when a cached piece is not a whole encoder run, or gets
// another owner than the builder gives it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ChatBuilder } from "../src/chat/builder.ts";
import {
  type ChatRequest,
  compileTemplate,
  emitRuns,
  renderChatTemplate,
  specialTokenVars,
} from "../src/index.ts";
import { loadTemplateTokenizerSync, qwen3Dir } from "../src/node.ts";
import { repoRoot } from "./template-support.ts";

const source = readFileSync(join(repoRoot, "..", "shared/templates/qwen3.jinja"), "utf8");
const tok = loadTemplateTokenizerSync(qwen3Dir(), { chatTemplate: source });
const program = compileTemplate(source);
const vars = specialTokenVars(tok.config);

function uncached(request: ChatRequest) {
  const r = renderChatTemplate(program, request, vars);
  const b = new ChatBuilder(tok.textModel, tok.scanner, "neutralize");
  emitRuns(r, b);
  return b.finish();
}

// Text that makes whole-unit pieces and their neighbours interesting: newlines and spaces next
// to markers, reserved strings spelled by the caller (never IDs), CJK.
const piece = fc.constantFrom(
  "\n",
  "\n\n",
  " ",
  "a",
  "Hi",
  "你好",
  "<|im_end|>",
  "<think>",
  "</think>",
  "\t",
  "x\n",
);
const text = fc.array(piece, { maxLength: 6 }).map((p) => p.join(""));
const message = fc.record({ role: fc.constantFrom("system", "user", "assistant"), content: text });

describe("template run cache", () => {
  test("the 10 bench requests: cached path = uncached path", () => {
    const suite = JSON.parse(readFileSync(join(repoRoot, "test-vectors/template-requests.json"), "utf8")) as {
      requests: { request: ChatRequest }[];
    };
    for (const { request } of suite.requests) {
      // Twice: the second call reads the table filled by the first.
      for (let k = 0; k < 2; k++) {
        const e = tok.encodeChat(request, { specialText: "neutralize" });
        const u = uncached(request);
        expect({ ids: e.ids, spans: e.spans, audit: e.audit }).toEqual(u);
      }
    }
  });

  test("random conversations: cached path = uncached path", () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 6 }), fc.boolean(), (messages, agp) => {
        const request = { messages, add_generation_prompt: agp } as unknown as ChatRequest;
        const e = tok.encodeChat(request, { specialText: "neutralize" });
        expect({ ids: e.ids, spans: e.spans, audit: e.audit }).toEqual(uncached(request));
      }),
      { numRuns: 300 },
    );
  });
});
