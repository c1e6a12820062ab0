// Mistral tokenizer v11 and v13 (tekken only): mistral-common's own expectations from
// tests/test_tokenizer_v11.py and test_tokenizer_v13.py (the expected IDs and texts written
// there), on the small tekken tokenizers those tests build (test-support/mistral-synthetic-tekken.ts).
// Its tests encode single messages (encode_assistant_message); here the same message is the last
// of a request, so the IDs follow <s>.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { syntheticTekken } from "../../../test-support/mistral-synthetic-tekken.ts";
import { type ChatRequest, type ChatTokenizer, fromFiles, TokenizerError } from "../src/index.ts";

const v11 = (): ChatTokenizer => fromFiles({ "tekken.json": syntheticTekken("v11") });
const v13 = (think = false): ChatTokenizer => fromFiles({ "tekken.json": syntheticTekken("v13", think) });
const shown = (tok: ChatTokenizer, ids: readonly number[]): string =>
  tok.decode(ids, { specialTokens: "show" });

const call = (name: string, args: string, id?: string) => ({
  ...(id === undefined ? {} : { id }),
  type: "function" as const,
  function: { name, arguments: args },
});
const finished = (messages: ChatRequest["messages"]): ChatRequest => ({
  messages,
  add_generation_prompt: false,
});

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const PYTHON = "/usr/bin/python3";

describe("the small tekken files", () => {
  it.skipIf(!existsSync(PYTHON))("are what the committed generator writes", () => {
    const out = mkdtempSync(join(tmpdir(), "chatwire-tekken-"));
    try {
      const r = spawnSync(PYTHON, [resolve(root, "test-vectors/gen/tiny_tekken.py"), out], {
        encoding: "utf8",
      });
      expect(r.stderr).toBe("");
      const files = readdirSync(out).sort();
      expect(files).toEqual([
        "tiny-tekken-v11.json",
        "tiny-tekken-v13-think.json",
        "tiny-tekken-v13.json",
        "tiny-tekken-v7.json",
      ]);
      for (const f of files)
        expect(readFileSync(join(out, f), "utf8"), f).toBe(
          readFileSync(resolve(root, "test-vectors/models", f), "utf8"),
        );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("Mistral tokenizer v11 (mistral-common test_tokenizer_v11.py)", () => {
  it("detects tekken.json v11 as mistral-tekken-v11", () => {
    expect(v11().format).toBe("mistral-tekken-v11");
  });
  it("a tekken.json of a version no format reads: the error names the file, its version and the known ones", () => {
    const file = JSON.parse(new TextDecoder().decode(syntheticTekken("v11"))) as {
      config: { version: string };
    };
    file.config.version = "v15";
    try {
      fromFiles({ "tekken.json": JSON.stringify(file) });
      throw new Error("no error");
    } catch (e) {
      if (!TokenizerError.isInstance(e)) throw e;
      expect(e.type).toBe("unknown-format");
      expect(e.fields.file).toBe("tekken.json");
      expect(e.message).toMatch(
        /^tekken\.json: version "v15" is not one a format reads \(v3, v7, v11, v13\); pass a format: /,
      );
      expect(e.message).not.toContain("tokenizer_config.json");
    }
  });
  it("test_tokenize_assistant_message: [TOOL_CALLS]NAME[ARGS]json.dumps(arguments)</s>", () => {
    const tok = v11();
    const ids = tok.encodeChat(
      finished([{ role: "assistant", content: null, tool_calls: [call("a_a_a", "blabla")] }]),
    ).ids;
    expect(ids).toEqual([1, 9, 197, 195, 197, 195, 197, 32, 134, 198, 208, 197, 198, 208, 197, 134, 2]);
    expect(shown(tok, ids)).toBe('<s>[TOOL_CALLS]a_a_a[ARGS]"blabla"</s>');
  });
  it("test_tokenize_assistant_messages: one [TOOL_CALLS] per call", () => {
    const tok = v11();
    const ids = tok.encodeChat(
      finished([
        { role: "assistant", content: null, tool_calls: [call("a_a_a", "blabla"), call("b", "blu")] },
      ]),
    ).ids;
    expect(ids).toEqual([
      1, 9, 197, 195, 197, 195, 197, 32, 134, 198, 208, 197, 198, 208, 197, 134, 9, 198, 32, 134, 198, 208,
      217, 134, 2,
    ]);
  });
  it("test_tokenize_assistant_message_train: [CALL_ID] before [ARGS] when the call has an id", () => {
    const tok = v11();
    const ids = tok.encodeChat(
      finished([{ role: "assistant", content: null, tool_calls: [call("a_a_a", "blabla", "ABC")] }]),
    ).ids;
    expect(ids).toEqual([
      1, 9, 197, 195, 197, 195, 197, 33, 165, 166, 167, 32, 134, 198, 208, 197, 198, 208, 197, 134, 2,
    ]);
    expect(shown(tok, ids)).toBe('<s>[TOOL_CALLS]a_a_a[CALL_ID]ABC[ARGS]"blabla"</s>');
  });
  it("test_tokenize_assistant_message_continue_message: an open message has no </s>", () => {
    const tok = v11();
    const ids = tok.encodeChat({
      messages: [{ role: "assistant", content: '"blabla"' }],
      continue_final_message: true,
    }).ids;
    expect(ids).toEqual([1, 134, 198, 208, 197, 198, 208, 197, 134]);
  });
});

const TOOLS: ChatRequest["tools"] = [
  {
    type: "function",
    function: {
      name: "math_interpreter",
      description: "Get the value of an arithmetic expression.",
      parameters: {
        type: "object",
        properties: { expression: { type: "string", description: "Math expression." } },
      },
    },
  },
];

describe("Mistral tokenizer v13 (mistral-common test_tokenizer_v13.py)", () => {
  it("test_end_to_end_v13_wrong_order: tools at the first user message, results in call order, no call ids", () => {
    const tok = v13();
    expect(tok.format).toBe("mistral-tekken-v13");
    const ids = tok.encodeChat({
      messages: [
        { role: "system", content: "S" },
        { role: "user", content: "U1" },
        {
          role: "assistant",
          content: "A1",
          tool_calls: [call("F1", "{}", "123456789"), call("F2", "{}", "999999999")],
        },
        { role: "tool", content: "R2", tool_call_id: "999999999" },
        { role: "tool", content: "R1", tool_call_id: "123456789" },
        { role: "assistant", content: "A2" },
        { role: "user", content: "U2" },
      ],
      tools: TOOLS,
    }).ids;
    expect(shown(tok, ids)).toBe(
      '<s>[SYSTEM_PROMPT]S[/SYSTEM_PROMPT][AVAILABLE_TOOLS][{"type": "function", "function": {"name": "math_interpreter", ' +
        '"description": "Get the value of an arithmetic expression.", "parameters": {"type": "object", "properties": {' +
        '"expression": {"type": "string", "description": "Math expression."}}}}}][/AVAILABLE_TOOLS][INST]U1[/INST]A1' +
        "[TOOL_CALLS]F1[ARGS]{}[TOOL_CALLS]F2[ARGS]{}</s>[TOOL_RESULTS]R1[/TOOL_RESULTS][TOOL_RESULTS]R2" +
        "[/TOOL_RESULTS]A2</s>[INST]U2[/INST]",
    );
  });
  it("test_encode_tool_message: [TOOL_RESULTS] CONTENT [/TOOL_RESULTS]", () => {
    const tok = v13();
    const ids = tok.encodeChat({
      messages: [
        { role: "user", content: "U" },
        { role: "assistant", content: null, tool_calls: [call("F1", "{}", "123456789")] },
        { role: "tool", content: "R1", tool_call_id: "123456789" },
      ],
    }).ids;
    expect(ids.slice(-4)).toEqual([7, 182, 149, 8]);
  });
  it("test_tokenize_assistant_message: the reasoning as [THINK]...[/THINK] before the content", () => {
    const tok = v13(true);
    for (const open of [false, true]) {
      const ids = tok.encodeChat({
        messages: [{ role: "assistant", content: "A1", reasoning_content: "T1" }],
        ...(open ? { continue_final_message: true } : { add_generation_prompt: false }),
      }).ids;
      expect(shown(tok, ids)).toBe(`<s>[THINK]T1[/THINK]A1${open ? "" : "</s>"}`);
    }
  });
  it("a tool call without an id is refused (v13 asserts every call has one)", () => {
    const req = finished([
      { role: "user", content: "U" },
      { role: "assistant", content: null, tool_calls: [call("F1", "{}")] },
    ]);
    expect(() => v13().encodeChat(req)).toThrow(TokenizerError);
  });
});
