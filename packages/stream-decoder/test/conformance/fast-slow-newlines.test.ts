// Differential test of the decoder's newline shortcuts (decoder.ts leanNewline and the lean
// branch of afterHeldNewlines: no stop strings, no maxTokens) against the checked path
// (internal SLOW_PATH_ONLY). The other batteries draw random IDs (newline pieces are rare
// among them) or encoded text, and most of their decoders have stop strings or maxTokens,
// which keep the shortcuts off. Here every stream is made of the spec's OWN newline pieces —
// only newlines ("\n", "\n\n", ...), text ending in one "\n", text ending in several — plain
// pieces and the family's markers (blocks whose newline rules hold "\n": reasoning, tool
// calls), decoded with no stop strings and no maxTokens unless drawn.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DecoderOptions } from "../../src/index.ts";
import { SLOW_PATH_ONLY } from "../../src/internal.ts";
import { Cls, classOf, type DecoderSpec } from "../../src/spec.ts";
import { StopSets } from "../drawn-options.ts";
import { expectEqual } from "../expect-equal.ts";
import { decodeAll } from "./decode-all.ts";
import { FAMILY_CASES } from "./families.ts";

/** Up to `max` IDs of each kind of newline piece, and plain pieces (text classes only), from the spec. */
function newlinePieces(spec: DecoderSpec, max: number): number[][] {
  const onlyNl: number[] = [];
  const oneNl: number[] = [];
  const manyNl: number[] = [];
  const plain: number[] = [];
  for (let id = 0; id < spec.classes.length; id++) {
    // classOf fills a lazy text table's entry (SentencePiece) before the text is read.
    const k = classOf(spec, id);
    if (k !== Cls.Text && k !== Cls.TextNl) continue;
    const t = spec.text[id] as string;
    if (t === "") continue;
    let nl = 0;
    while (nl < t.length && t.charCodeAt(t.length - 1 - nl) === 10) nl++;
    const bucket =
      nl === t.length ? onlyNl : nl === 1 ? oneNl : nl > 1 ? manyNl : t.includes("\n") ? null : plain;
    if (bucket !== null && bucket.length < max) bucket.push(id);
    if (onlyNl.length >= max && oneNl.length >= max && manyNl.length >= max && plain.length >= max) break;
  }
  return [onlyNl, oneNl, manyNl, plain].filter((b) => b.length > 0);
}

/** The first ID whose text is `t`, or -1 (classOf fills a lazy text table's entries first). */
function idOfText(spec: DecoderSpec, t: string): number {
  for (let id = 0; id < spec.classes.length; id++) {
    classOf(spec, id);
    if (spec.text[id] === t) return id;
  }
  return -1;
}

const cases = FAMILY_CASES.filter((c) => c.available);

describe("newline shortcuts = checked path", () => {
  it("families are covered, with newline pieces of every kind", () => {
    expect(cases.length).toBeGreaterThan(0);
    // At least one family has pieces of all four kinds (only newlines, one and several trailing, plain).
    expect(cases.some((c) => newlinePieces(c.spec("default"), 4).length === 4)).toBe(true);
  });

  it("a stop-string prefix left held by the text after a held newline keeps later pieces behind it", () => {
    // Qwen3 content holds ONE "\n" (the template's, before <tool_call>): "\n" + "b" then goes
    // into the matcher, which holds it (a prefix of "\nb\u2603"); "c" and "d" must come after it.
    const c = cases.find((k) => k.name.startsWith("qwen3/"));
    if (c === undefined) return;
    const spec = c.spec("default");
    const ids = ["a", "\n", "b", "c", "d"].map((t) => idOfText(spec, t));
    expect(ids.every((id) => id >= 0)).toBe(true);
    const o = { stopStrings: ["\nb\u2603"] };
    const slow = decodeAll(spec, ids, { ...o, [SLOW_PATH_ONLY]: true } as DecoderOptions);
    expect(slow.filter((e) => e.type === "text").map((e) => (e as { text: string }).text)).toEqual([
      "a",
      "\nbc",
      "d",
    ]);
    expect(decodeAll(spec, ids, o)).toEqual(slow);
    expect(decodeAll(spec, ids, o)).toEqual(slow);
  });

  it("one piece's two cuts keep their own stop-string answers (reasoning: every trailing newline held; content: one)", () => {
    // ".\n\n" in reasoning goes out as "." (both newlines held: reasoning before </think>) and in
    // content as ".\n" (one held). With "\n\nHuman:" the first cut passes the matcher unchanged and
    // the second leaves "\n" held, which the held "\n" and "Human:" then complete: a stop. Each
    // cut has its own per-ID byte in the compiled set (stop-matcher.ts DerivedText); one byte
    // for both would let the content's ".\n" out unscanned and miss the stop string.
    const c = cases.find((k) => k.name.startsWith("qwen3/"));
    if (c?.tokenizer === undefined) return;
    const spec = c.spec("default");
    const marks = c.tokenizer().tokenIds as Readonly<Record<string, number>>;
    const think = marks.think as number;
    const thinkEnd = marks.thinkEnd as number;
    const texts = ["\n", "a", ".\n\n", "\n\n", "b", ".\n\n", "Human", ":", "c"];
    const [nl, a, dotNl, nlNl, b, , human, colon, cc] = texts.map((t) => idOfText(spec, t)) as number[];
    const ids = [think, nl, a, dotNl, thinkEnd, nlNl, b, dotNl, human, colon, cc] as number[];
    expect(ids.every((id) => Number.isInteger(id) && id >= 0)).toBe(true);
    const o = { stopStrings: ["\n\nHuman:"] };
    const slow = decodeAll(spec, ids, { ...o, [SLOW_PATH_ONLY]: true } as DecoderOptions);
    const text = (events: typeof slow) =>
      events
        .filter((e) => e.type === "text")
        .map((e) => (e as { text: string }).text)
        .join("");
    expect(text(slow)).toBe("b.");
    expect(slow.some((e) => e.type === "stop" && (e as { reason: string }).reason === "stop_string")).toBe(
      true,
    );
    expect(decodeAll(spec, ids, o)).toEqual(slow);
  });

  for (const c of cases) {
    it(`${c.name}: newline pieces between markers`, () => {
      const spec0 = c.spec("default");
      const buckets = newlinePieces(spec0, 12);
      const markers = [...c.markerIds()];
      // Stop strings made of a few plain pieces' text (drawn often), so that "\n" + a piece
      // (the text after a held newline) can leave a prefix held in the matcher, or match
      // across the newline.
      const plainIds = (buckets.at(-1) ?? []).slice(0, 4);
      const plainTexts = plainIds.map((id) => spec0.text[id] as string);
      const piece = fc.oneof(...buckets.map((b) => ({ weight: 3, arbitrary: fc.constantFrom(...b) })), {
        weight: 4,
        arbitrary: fc.constantFrom(...plainIds),
      });
      const stopSets: (string[] | undefined)[] = [undefined, undefined, undefined, ["\n\n"], ["x\n"]];
      // (`\n${t}\u2603`: the matcher holds "\n" + t and the next clear piece must not pass it.)
      for (const t of plainTexts)
        stopSets.push([`${t.slice(-1)}\n`], [`\n${t}`], [`${t}${t}`], [`\n${t}\u2603`]);
      const token =
        markers.length > 0
          ? fc.oneof({ weight: 12, arbitrary: piece }, { weight: 1, arbitrary: fc.constantFrom(...markers) })
          : piece;
      const stops = new StopSets();
      fc.assert(
        fc.property(
          fc.array(token, { maxLength: 60 }),
          fc.record({
            eos: fc.constantFrom("default" as const, "none" as const),
            tools: fc.boolean(),
            stream: fc.boolean(),
            // Mostly the lean decoder (the shortcuts); sometimes stop strings or maxTokens (off).
            stop: fc.constantFrom(...stopSets),
            maxTokens: fc.constantFrom(undefined, undefined, undefined, 7),
          }),
          (ids, r) => {
            const spec = c.spec(r.eos);
            const o: Record<string, unknown> = {};
            if (r.tools)
              o.tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
            if (r.stream) o.streamToolCalls = true;
            if (r.stop !== undefined) o.stopStrings = stops.of(spec, r.stop);
            if (r.maxTokens !== undefined) o.maxTokens = r.maxTokens;
            const slow = decodeAll(spec, ids, { ...o, [SLOW_PATH_ONLY]: true } as DecoderOptions);
            // Twice: tables fill at an ID's first sight (the second run reads them).
            expectEqual(decodeAll(spec, ids, o as DecoderOptions), slow);
            expectEqual(decodeAll(spec, ids, o as DecoderOptions), slow);
          },
        ),
        { numRuns: 200, seed: 1501 },
      );
    });
  }
});
