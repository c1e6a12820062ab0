// encodeChat / renderChat on OpenAI-shaped requests (test-vectors/requests.json) against the
// golden vectors test-vectors/golden/*.request.json: Qwen3 from its own chat_template in Python
// jinja2 + HF Rust tokenizers; InternLM2 / ChatGLM3 from the vendors' rules re-implemented in
// gen/request_vectors.py and Google SentencePiece. Never from chatwire's output.
import { describe, expect, it } from "vitest";
import { haveFixtures } from "../../../test-support/fixtures.ts";
import type { ChatRequest, FormatName } from "../src/index.ts";
import { expectSpansCover, goldenChats, idDiff, render, tokenizerFor } from "./chat-support.ts";

function suite(format: FormatName): void {
  const vectors = goldenChats(format, "request");
  it("has vectors", () => expect(vectors.length).toBeGreaterThanOrEqual(20));
  for (const v of vectors) {
    it(v.name, () => {
      const tok = tokenizerFor(format);
      const request = v.request as ChatRequest;
      const got = tok.encodeChat(request);
      expect(got.ids, idDiff(tok, v.ids, got.ids)).toEqual(v.ids);
      expect(got.audit).toEqual([]);
      expectSpansCover(got.spans, got.ids.length);
      expect(render(tok, got.ids, got.spans)).toBe(v.rendered);
      // renderChat is the same rendering as text
      expect(tok.renderChat(request)).toBe(v.rendered);
    });
  }
}

describe("qwen3 golden requests", () => suite("qwen3"));
describe.skipIf(!haveFixtures())("internlm2 golden requests", () => suite("internlm2"));
describe.skipIf(!haveFixtures())("chatglm3 golden requests", () => suite("chatglm3"));
