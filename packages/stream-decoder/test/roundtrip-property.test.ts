// Property round trips on the real tokenizers (seeded fast-check, 200 runs per format): random
// assistant turns built from a unicode-heavy alphabet (roundtrip-support.ts unicodeText) and
// random JSON arguments, encoded by encodeChat and decoded one ID at a time and in random
// chunks, come back EXACTLY. Strings a format itself normalizes are mapped out of the
// generators, each for a stated reason:
//
// - all SentencePiece formats (InternLM2, ChatGLM3): no U+2581 "▁". SentencePiece escapes " "
//   as "▁" and decodes every "▁" as " ", so a literal "▁" comes back as a space.
// - Qwen3: text is NFC (tokenizer.json has an NFC normalizer: "e\u0301" comes back "é"), both
//   in content/reasoning and in tool names/argument strings.
// - Qwen3: the WHOLE tool call text is NFC, not just each string: NFC runs over the rendered
//   JSON, so an escape such as "\n" (from a newline in an argument) followed by U+0301 becomes
//   "\ń" and the JSON is broken. The HF reference (npm tokenizers) does the same.
// - Qwen3: no leading "\n" in content (the template writes content.lstrip("\n") after
//   </think>) and no leading/trailing "\n" in reasoning (reasoning_content.strip("\n")).
// - Qwen3: tool names without '"', "\\" and C0 controls: the template pastes the name into the
//   JSON text unescaped ('{"name": "' + name + '"'), so such a name makes invalid JSON.
// - InternLM2: content does not start with [ \t]*"\n": "assistant\n" + CONTENT is ONE enc()
//   call and the vocabulary has pieces "\n\n", "\n  \n", ...; the turn then does not extend the
//   generation prompt, i.e. no model generation looks like it (roundtrip.test.ts shows it).
// - code (InternLM2 interpreter, ChatGLM3 "interpreter"): no trailing "\r": the fence
//   stripper reads "\r\n```" as the line break before the closing fence.
// - ChatGLM3 tool_call keywords are ASCII identifiers that are not Python keywords (the
//   vendor eval()s the call; the decoder's parser accepts ASCII identifiers only).
// - ChatGLM3 tool names (metadata) are one line (the encoder refuses a newline) and not
//   "interpreter" (that metadata means code).
// The ChatGLM3 dummy prefix needs NO exclusion: metadata and content are separate enc()
// calls, each with its own dummy "▁" that the decoder drops at the span start, so leading
// spaces and newlines of content come back as written.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haveFixtures } from "../../../test-support/fixtures.ts";
import type { DecoderEvent } from "../src/index.ts";
import { tokenizer } from "./models.ts";
import {
  type Case,
  decode,
  type Fmt,
  type GlmSegment,
  generationIds,
  glmCase,
  type InternTurn,
  internCase,
  type JsonObject,
  jsonValue,
  merged,
  type QwenTurn,
  qwenCase,
  qwenRaw,
  specOf,
  unicodeText,
} from "./roundtrip-support.ts";

const RUNS = 200;
const params = (seed: number) => ({ seed, numRuns: RUNS });

function holds(format: Fmt, c: Case, chunkSeed: number): void {
  const ids = generationIds(tokenizer(format), c.context, c.turn);
  const spec = specOf(format);
  const single = decode(spec, ids);
  expect(merged(single)).toEqual(c.expected);
  expect(decode(spec, ids, {}, chunkSeed)).toEqual(single);
}

const noSpaceMark = (s: string) => s.replaceAll("\u2581", "_");
const nfc = (s: string) => s.normalize("NFC");
const args = (str: fc.Arbitrary<string>, key: fc.Arbitrary<string> = str): fc.Arbitrary<JsonObject> =>
  fc.dictionary(key, jsonValue(str), { maxKeys: 4, noNullPrototype: true });
const code = unicodeText(20)
  .map(noSpaceMark)
  .map((s) => s.replace(/\r+$/, ""));

describe("round-trip properties: Qwen3", () => {
  const str = unicodeText(8).map(nfc);
  const content = unicodeText(16)
    .map(nfc)
    .map((s) => s.replace(/^\n+/, ""));
  const reasoning = unicodeText(16)
    .map(nfc)
    .map((s) => s.replace(/^\n+|\n+$/g, ""));
  const name = unicodeText(6)
    .map(nfc)
    .filter(
      (s) => !Array.from(s).some((ch) => ch === '"' || ch === "\\" || (ch.codePointAt(0) as number) < 0x20),
    );
  const call = fc.record({ name, arguments: args(str) }).filter((c) => nfc(qwenRaw(c)) === qwenRaw(c));
  const turn: fc.Arbitrary<QwenTurn> = fc.record({
    reasoning,
    content,
    calls: fc.array(call, { maxLength: 3 }),
  });

  it("random turns (reasoning, text, tool calls) round-trip exactly", () => {
    fc.assert(
      fc.property(turn, fc.nat(), (t, seed) => holds("qwen3", qwenCase(t), seed)),
      params(3001),
    );
  });
});

describe.skipIf(!haveFixtures())("round-trip properties: InternLM2", () => {
  const str = unicodeText(8).map(noSpaceMark);
  const content = unicodeText(16)
    .map(noSpaceMark)
    .map((s) => s.replace(/^(?:[ \t]*\n)+/, ""));
  const action = fc.oneof(
    fc.constant(undefined),
    fc.record({ kind: fc.constant("plugin" as const), name: str, parameters: args(str) }),
    fc.record({ kind: fc.constant("interpreter" as const), code }),
  );
  const turn: fc.Arbitrary<InternTurn> = fc
    .record({ content, action })
    .map(({ content, action }) => (action === undefined ? { content } : { content, action }));

  it("random turns (text, plugin call, interpreter code) round-trip exactly", () => {
    fc.assert(
      fc.property(turn, fc.nat(), (t, seed) => holds("internlm2", internCase(t), seed)),
      params(3002),
    );
  });
});

const PY_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

describe.skipIf(!haveFixtures())("round-trip properties: ChatGLM3", () => {
  const str = unicodeText(8).map(noSpaceMark);
  const keyword = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,7}$/).filter((k) => !PY_KEYWORDS.has(k));
  const toolName = unicodeText(6)
    .map(noSpaceMark)
    .filter((s) => s !== "" && s !== "interpreter" && !s.includes("\n"));
  const segment: fc.Arbitrary<GlmSegment> = fc.oneof(
    fc.record({ kind: fc.constant("text" as const), content: unicodeText(16).map(noSpaceMark) }),
    fc.record({
      kind: fc.constant("tool" as const),
      name: toolName,
      arguments: args(str, keyword),
      quote: fc.constantFrom("'" as const, '"' as const),
    }),
    fc.record({ kind: fc.constant("interpreter" as const), code }),
  );

  it("random generations (text, tool-call and code segments) round-trip exactly", () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.nat(), (s, seed) =>
        holds("chatglm3", glmCase(s), seed),
      ),
      params(3003),
    );
  });
});

describe("stop-string properties on encoded turns", () => {
  /** Content with the format's exclusions, and a stop string cut out of it. */
  const formats: Array<readonly [Fmt, boolean, (s: string) => string, (content: string) => Case]> = [
    [
      "qwen3",
      true,
      (s) => nfc(s).replace(/^\n+/, ""),
      (content) => qwenCase({ reasoning: "", content, calls: [] }),
    ],
    [
      "internlm2",
      haveFixtures(),
      (s) => noSpaceMark(s).replace(/^(?:[ \t]*\n)+/, ""),
      (content) => internCase({ content }),
    ],
    ["chatglm3", haveFixtures(), noSpaceMark, (content) => glmCase([{ kind: "text", content }])],
  ];
  for (const [format, available, clean, build] of formats) {
    it.skipIf(!available)(
      `${format}: a stop string inside the content stops exactly at its first match`,
      () => {
        const input = unicodeText(16)
          .map(clean)
          .filter((s) => s !== "")
          .chain((content) => {
            // Cut on code points: a stop string is text, not half a surrogate pair.
            const cps = Array.from(content);
            return fc
              .tuple(fc.nat(cps.length - 1), fc.integer({ min: 1, max: 6 }))
              .map(([i, n]) => ({ content, stop: cps.slice(i, i + n).join("") }));
          });
        fc.assert(
          fc.property(input, fc.nat(), ({ content, stop }, seed) => {
            const c = build(content);
            const ids = generationIds(tokenizer(format), c.context, c.turn);
            const before = content.slice(0, content.indexOf(stop));
            const expected: DecoderEvent[] = [{ type: "message_start", role: "assistant", metadata: "" }];
            if (before !== "") expected.push({ type: "text", text: before });
            expected.push({ type: "stop", reason: "stop_string", text: stop });
            const single = decode(specOf(format), ids, { stopStrings: [stop] });
            expect(merged(single)).toEqual(expected);
            expect(decode(specOf(format), ids, { stopStrings: [stop] }, seed)).toEqual(single);
          }),
          { seed: 3010, numRuns: 100 },
        );
      },
    );
  }
});
