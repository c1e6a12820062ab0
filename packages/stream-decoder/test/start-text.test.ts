// Grammar.startText (Apriel 1.6): reasoning opened by the generation prompt's own words
// `Here are my reasoning steps:\n` and closed by the literal `[BEGIN FINAL RESPONSE]`. A prompt
// ending with the start text opens the block (promptOpensStartBlock); the decoder reports the
// start text once, as the reasoning's first text, then the model's words; any bursts and the
// reference decoder agree; a stop string never reads the start text. Loaded as the peer-parse
// scorer loads the format (../shared's template, the stand-in vocabulary); skipped without it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileTemplateDecoderSpec, promptOpensStartBlock } from "../src/index.ts";
import { agreedMessage, decodeIds, haveTemplate, loadEntry, message } from "./derived-format-support.ts";

const KEY = "models/templates/Apriel-1.6-15b-Thinker-fixed.jinja";
const START = "Here are my reasoning steps:\n";

describe.skipIf(!haveTemplate(KEY))("startText: reasoning opened by the prompt's words (Apriel 1.6)", () => {
  it("the prompt's start text opens the block; a prompt without it does not", () => {
    const { spec, tok, probe } = loadEntry(KEY);
    expect(spec.startInReasoning).toBe(true);
    const prompt = tok.encodeChat({
      messages: [{ role: "user", content: "Hey there!" }],
      add_generation_prompt: true,
    } as never).ids;
    expect(promptOpensStartBlock(spec, prompt)).toBe(true);
    expect(promptOpensStartBlock(spec, prompt.slice(0, -2))).toBe(false);
    expect(promptOpensStartBlock(spec, [])).toBe(false);
    // Compiled not to start in the block, the text is content and the start text is not reported.
    const plain = compileTemplateDecoderSpec(tok.textModel, probe, { startInReasoning: false });
    expect(plain.startInReasoning).toBe(false);
  });

  it("reasoning = start text + the model's words; content after the close; any bursts agree", () => {
    const { encode } = loadEntry(KEY);
    const ids = encode("I'm\nthinking\n[BEGIN FINAL RESPONSE]\nHello, world!");
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 12 }), (bursts) => {
        const m = agreedMessage(KEY, ids, bursts);
        expect(m.reasoning).toBe(`${START}I'm\nthinking`);
        expect(m.content).toBe("Hello, world!");
        expect(m.errors).toEqual([]);
      }),
      { numRuns: 40, seed: 37 },
    );
  });

  it("the start text is reported once, first, even for an empty stream", () => {
    const events = decodeIds(KEY, [], "one");
    expect(events.filter((e) => e.type === "reasoning")).toEqual([{ type: "reasoning", text: START }]);
    const { encode } = loadEntry(KEY);
    const m = message(decodeIds(KEY, encode("a"), "one"));
    expect(m.reasoning).toBe(`${START}a`);
  });

  it("stop strings read the model's words only", () => {
    const { encode } = loadEntry(KEY);
    const ids = encode("my steps\n[BEGIN FINAL RESPONSE]\nok");
    // "reasoning steps" is only in the start text: no stop.
    const a = message(decodeIds(KEY, ids, "one", { stopStrings: ["reasoning steps"] }));
    expect(a.content).toBe("ok");
    // "my steps" is the model's: the stream stops there.
    const events = decodeIds(KEY, ids, "one", { stopStrings: ["my steps"] });
    expect(message(events).reasoning).toBe(START);
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "stop_string" });
  });
});
