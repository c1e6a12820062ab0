// toolChoicePrefill on every family and on a template format: the opening comes from the
// format's data (Grammar.callOpening over the loaded files' verified IDs; a template's from
// templateCallOpening). Per family, the expected opening is written out by hand from the
// template's own rendering of a call (docs/families/*.md), the markers named by token key; then
// the prefill plus a model continuation decodes into the named call (decoder + ChunkWriter).
import { type ChatRequest, type ChatTokenizer, FAMILIES } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync, loadTokenizerSync, qwen3Dir } from "@chatwire/tokenizer/node";
import { describe, expect, it } from "vitest";
import { familyFixtures, missingOf } from "../../../test-support/family-fixtures.ts";
import { loadFixtureTokenizer } from "../../../test-support/family-tokenizer.ts";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { GPTOSS_MODEL_DIR } from "../../../test-support/harmony-suite.ts";
import { type Prefill, RequestError, templateCallOpening, toolChoicePrefill } from "../src/index.ts";
import { runWriter } from "./writer-support.ts";

const fn = (name: string) => ({
  type: "function",
  function: { name, parameters: { type: "object", properties: { city: { type: "string" } } } },
});
const chatWith = (tools: object[]): ChatRequest =>
  ({ messages: [{ role: "user", content: "Weather in Paris?" }], tools }) as ChatRequest;
const TWO = chatWith([fn("get_weather"), fn("get_time")]);
const ONE = chatWith([fn("get_weather")]);

/** A marker by token key, or text: the expected opening. */
type Want = ReadonlyArray<{ readonly key: string } | string>;

interface Case {
  readonly family: string;
  readonly available: boolean;
  readonly tok: () => ChatTokenizer;
  /** Expected opening of `required` (undefined: not expressible, one tool = named). */
  readonly required?: Want;
  /** Expected opening of get_weather named. */
  readonly named: Want;
  /** What the model writes after the named opening: text, then stop markers by key. */
  readonly after: readonly [string, ...string[]];
  /** A name the format cannot write in that place (a 400). */
  readonly badName?: string;
}

function cached<T>(make: () => T): () => T {
  let v: T | undefined;
  return () => {
    v ??= make();
    return v;
  };
}

function fromFixtures(family: string): { available: boolean; tok: () => ChatTokenizer } {
  const entry = familyFixtures(family)?.tokenizers[0];
  return {
    available: entry !== undefined && missingOf(entry).length === 0,
    tok: cached(() => {
      if (entry === undefined) throw new Error(`no fixtures for ${family}`);
      return loadFixtureTokenizer(entry);
    }),
  };
}

const CASES: readonly Case[] = [
  {
    family: "qwen3",
    available: true,
    tok: cached(() => loadTokenizerSync("qwen3")),
    required: [{ key: "toolCall" }, "\n"],
    named: [{ key: "toolCall" }, '\n{"name": "get_weather", "arguments":'],
    after: [' {"city": "Paris"}}\n', "toolCallEnd", "imEnd"],
  },
  {
    family: "internlm2",
    available: haveFixtures(),
    tok: cached(() => loadTokenizerSync(fixturePath("internlm2"))),
    required: [{ key: "actionStart" }, { key: "plugin" }],
    named: [{ key: "actionStart" }, { key: "plugin" }, '\n{"name": "get_weather", "parameters":'],
    after: [' {"city": "Paris"}}', "actionEnd", "imEnd"],
  },
  {
    family: "chatglm3",
    available: haveFixtures(),
    tok: cached(() => loadTokenizerSync(fixturePath("chatglm3"))),
    named: ["get_weather\n"],
    after: [" ```python\ntool_call(city='Paris')\n```", "observation"],
    badName: "interpreter",
  },
  {
    family: "qwen3-coder",
    ...fromFixtures("qwen3-coder"),
    required: [{ key: "toolCall" }, "\n"],
    named: [{ key: "toolCall" }, "\n<function=get_weather>\n"],
    after: ["<parameter=city>\nParis\n</parameter>\n</function>\n", "toolCallEnd", "imEnd"],
    badName: "a>b",
  },
  {
    family: "llama31",
    ...fromFixtures("llama31"),
    required: ['{"name":'],
    named: ['{"name": "get_weather", "parameters":'],
    after: [' {"city": "Paris"}}', "eot"],
    badName: 'say "hi"',
  },
  {
    family: "deepseek-v3",
    ...fromFixtures("deepseek-v3"),
    required: [{ key: "toolCallsBegin" }, { key: "toolCallBegin" }, "function", { key: "toolSep" }],
    named: [
      { key: "toolCallsBegin" },
      { key: "toolCallBegin" },
      "function",
      { key: "toolSep" },
      "get_weather\n```json\n",
    ],
    after: ['{"city": "Paris"}\n```', "toolCallEnd", "toolCallsEnd", "eos"],
    badName: "two\nlines",
  },
  {
    family: "gpt-oss",
    available: true,
    tok: cached(() => loadTokenizerSync(GPTOSS_MODEL_DIR)),
    required: [" to=functions."],
    named: [
      " to=functions.get_weather",
      { key: "channel" },
      "commentary ",
      { key: "constrain" },
      "json",
      { key: "message" },
    ],
    after: ['{"city": "Paris"}', "call"],
  },
];

/** The IDs of an expected opening: markers by the tokenizer's verified IDs, text encoded as one run each. */
function idsOf(tok: ChatTokenizer, want: Want): number[] {
  return want.flatMap((w) => {
    if (typeof w === "string") return tok.encodeText(w).ids;
    const id = tok.tokenIds[w.key];
    if (id === undefined) throw new Error(`no token key ${w.key}`);
    return [id];
  });
}

function ok(p: Prefill | RequestError): Prefill {
  if (RequestError.isInstance(p)) throw p;
  return p;
}

describe("every family whose grammar has tool calls has a call opening", () => {
  // A family without an action block (Mistral v1: no tools) has no call to open.
  const withCalls = FAMILIES.filter((f) => (f.grammar.blocks ?? []).some((b) => b.emits === "action"));
  it("some families have none", () => expect(withCalls.length).toBeLessThan(FAMILIES.length));
  it.each(withCalls.map((f) => [f.name, f]))("%s", (_, f) => {
    expect(f.grammar.callOpening?.named.filter((p) => "name" in p)).toHaveLength(1);
  });
});

for (const c of CASES) {
  describe.skipIf(!c.available)(`tool_choice prefill from the format's data: ${c.family}`, () => {
    it("named: the opening of the template's call, the name as text", () => {
      const tok = c.tok();
      const p = ok(toolChoicePrefill(tok, TWO, { type: "function", name: "get_weather" }, 2));
      expect(p.ids).toEqual(idsOf(tok, c.named));
      expect(p.text).toBe(c.named.filter((w) => typeof w === "string").join(""));
    });

    it("required: the opening before the name, or (no such opening) only with exactly one tool", () => {
      const tok = c.tok();
      const two = toolChoicePrefill(tok, TWO, { type: "required" }, 2);
      if (c.required !== undefined) expect(ok(two).ids).toEqual(idsOf(tok, c.required));
      else {
        expect(RequestError.isInstance(two) && two.type).toBe("unsupported-parameter");
        const one = ok(toolChoicePrefill(tok, ONE, { type: "required" }, 1));
        expect(one.ids).toEqual(idsOf(tok, c.named));
      }
    });

    it.skipIf(c.badName === undefined)("a name the format cannot write there is a typed 400", () => {
      const r = toolChoicePrefill(c.tok(), TWO, { type: "function", name: c.badName as string }, 2);
      expect(RequestError.isInstance(r) && r.type).toBe("unsupported-parameter");
    });

    it("the prefill and the model's continuation decode into the named call", () => {
      const tok = c.tok();
      const p = ok(toolChoicePrefill(tok, TWO, { type: "function", name: "get_weather" }, 2));
      const [text, ...stops] = c.after;
      const generated = [
        ...tok.encodeText(text).ids,
        ...idsOf(
          tok,
          stops.map((key) => ({ key })),
        ),
      ];
      const r = runWriter(tok, generated, {}, { tools: TWO.tools ?? [] }, p.ids);
      expect(r.breaches).toEqual([]);
      expect(r.calls.map((x) => [x.name, JSON.parse(x.arguments)])).toEqual([
        ["get_weather", { city: "Paris" }],
      ]);
      expect(r.content.trim()).toBe("");
      expect(r.finish).toEqual(["tool_calls"]);
    });
  });
}

describe("a template format: the opening derived from the template by rendering", () => {
  const template = cached(() => loadTemplateTokenizerSync(qwen3Dir()));
  const native = cached(() => loadTokenizerSync("qwen3"));
  const source = () => ({
    encodeText: (s: string) => ({ ids: template().textModel.encode(s) }),
    callOpening: templateCallOpening(template()),
  });

  it("Qwen3's template: its last assistant turn's empty reasoning block, then the native family's opening", () => {
    // The template writes `<think>\n\n</think>\n\n` into an assistant turn without reasoning.
    const n = native();
    const think = [n.tokenIds.think as number, ...n.encodeText("\n\n").ids, n.tokenIds.thinkEnd as number];
    const lead = [...think, ...n.encodeText("\n\n").ids];
    const named = ok(toolChoicePrefill(source(), TWO, { type: "function", name: "get_weather" }, 2));
    const nativeNamed = ok(toolChoicePrefill(n, TWO, { type: "function", name: "get_weather" }, 2));
    expect(named.ids).toEqual([...lead, ...nativeNamed.ids]);
    const required = ok(toolChoicePrefill(source(), TWO, { type: "required" }, 2));
    expect(required.ids).toEqual([...lead, n.tokenIds.toolCall as number, ...n.encodeText('\n{"name":').ids]);
  });

  it("a template that renders no call has no opening: a typed 400", () => {
    const plain = loadTemplateTokenizerSync(qwen3Dir(), {
      chatTemplate: "{% for m in messages %}{{ m.content }}{% endfor %}",
    });
    expect(templateCallOpening(plain)).toBeUndefined();
    const r = toolChoicePrefill(
      { encodeText: (s) => ({ ids: plain.textModel.encode(s) }) },
      TWO,
      { type: "required" },
      2,
    );
    expect(RequestError.isInstance(r) && r.type).toBe("unsupported-parameter");
  });
});
