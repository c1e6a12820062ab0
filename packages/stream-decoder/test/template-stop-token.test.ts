// A stop token ID in a template-derived format stops the stream where it arrives, whatever the
// template layer holds at that point: a byte run (HF ByteFallback), a turn opening, the text of a
// call turn's opening after an assistant's end of turn (GigaChat 3). The property: a stop ID that
// is not a reserved ID, first met at position k, gives exactly the events of maxTokens = k (the
// stream cut before that ID), but for the stop event's reason. A reserved ID as a stop ID applies
// its marker's move first, as in a native decoder, so it is left out. Generations: llama.cpp's
// own test outputs for these templates (test-vectors/peer-parse/llamacpp.json), as one turn, and
// as three turns of a multi-turn spec (eosIds: []): the output, its end of turn, the template's
// user opening and a user turn, the generation prompt and the output again; one ID at a time and
// in bursts, both engines.
import { describe, expect, it } from "vitest";
import { peerFile } from "../../../test-vectors/peer-parse/score.ts";
import {
  compileTemplateDecoderSpec,
  createDecoder,
  createReferenceDecoder,
  type DecoderEvent,
  type DecoderOptions,
  eventCollector,
} from "../src/index.ts";
import type { DecoderSpec } from "../src/spec.ts";
import { haveTemplate, loadEntry } from "./derived-format-support.ts";
import { expectEqual } from "./expect-equal.ts";

const T = "models/templates/";
const KEYS = [
  "GigaChat3-10B-A1.8B.jinja",
  "GigaChat3.1-10B-A1.8B.jinja",
  "google-gemma-4-31B-it.jinja",
  "deepseek-ai-DeepSeek-V3.1.jinja",
  "meta-llama-Llama-3.1-8B-Instruct.jinja",
].map((k) => T + k);

/** Positions tried per generation (the first occurrence of each distinct non-reserved ID). */
const MAX_POSITIONS = 24;

function events(
  spec: DecoderSpec,
  ids: readonly number[],
  options: DecoderOptions,
  burst: number,
  reference: boolean,
): DecoderEvent[] {
  const c = eventCollector();
  const d = (reference ? createReferenceDecoder : createDecoder)(spec, c, options);
  for (let i = 0; i < ids.length && !d.stopped; i += burst) d.pushMany(ids.slice(i, i + burst));
  d.end();
  return c.events;
}

// Before the describe below, whose first format is this one: its entry is then still loaded
// (derived-format-support keeps only the last few).
it.skipIf(!haveTemplate(KEYS[0] as string))(
  "GigaChat 3: a stop ID right after the assistant's end of turn reports the held message end, then stops",
  () => {
    const { spec, encode, tok } = loadEntry(KEYS[0] as string);
    const ids = encode(
      'Let me check.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "f", "arguments": {}}<|message_sep|>\n\n',
    );
    const nn = tok.textModel.encode("\n\n")[0] as number;
    for (const reference of [false, true]) {
      const got = events(spec, ids, { stopTokenIds: [nn] }, 1, reference);
      expect(got.some((e) => e.type === "action_start")).toBe(false);
      expect(got.slice(-2)).toEqual([
        { type: "message_end" },
        { type: "stop", reason: "stop_token", token: nn },
      ]);
    }
  },
);

describe("a stop token ID in a template format: the events of the stream cut before it", () => {
  const cases = peerFile("llamacpp.json").cases;
  for (const key of KEYS)
    it.skipIf(!haveTemplate(key))(key.slice(T.length), () => {
      const { spec, encode, tok, probe } = loadEntry(key);
      const multi = compileTemplateDecoderSpec(tok.textModel, probe, { eosIds: [] });
      const endOfTurn = probe.endOfTurn === null ? [] : [probe.endOfTurn];
      const reserved = new Set(tok.reserved.values());
      const outputs = cases.filter((c) => c.template === key).map((c) => c.input);
      expect(outputs.length).toBeGreaterThan(0);
      let compared = 0;
      for (const output of outputs) {
        const one = encode(output);
        const turns = [
          ...one,
          ...endOfTurn,
          ...probe.userPrompt,
          ...encode("ok, and Paris?"),
          ...endOfTurn,
          ...probe.generationPrompt,
          ...one,
        ];
        for (const [spec_, ids] of [
          [spec, one],
          [multi, turns],
        ] as const) {
          const all: number[] = [];
          for (let k = 0; k < ids.length; k++) {
            const id = ids[k] as number;
            if (!reserved.has(id) && ids.indexOf(id) === k) all.push(k);
          }
          // Every position around the first end of turn (what follows it is held), others spread.
          const boundary = (k: number) => k >= one.length - 2 && k <= one.length + 16;
          const step = Math.ceil(all.length / MAX_POSITIONS);
          const firsts = all.filter((k, i) => boundary(k) || i % step === 0);
          for (const k of firsts) {
            const id = ids[k] as number;
            for (const reference of [false, true])
              for (const burst of [1, 3]) {
                const cut = events(spec_, ids, { maxTokens: Math.max(k, 1) }, burst, reference);
                const stop = events(spec_, ids, { stopTokenIds: [id] }, burst, reference);
                const what = `${reference ? "reference" : "fast"} burst ${burst}, stop at ${k} (${id})`;
                expectEqual(stop.at(-1), { type: "stop", reason: "stop_token", token: id }, what);
                if (k > 0) expectEqual(stop.slice(0, -1), cut.slice(0, -1), what);
                compared++;
              }
          }
        }
      }
      expect(compared).toBeGreaterThan(20);
    });
});
