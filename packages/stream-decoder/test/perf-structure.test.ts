// Structure behind the per-stream cost (never timing): decoders share their methods through a
// prototype (no per-stream closures), stop strings compile once per set and spec, and a
// precompiled set behaves exactly like the plain strings.
import { describe, expect, it } from "vitest";
import type { InternLM2Key } from "../../tokenizer/src/families/internlm2/definition.ts";
import {
  compileStopStrings,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  eventCollector,
  StopStrings,
} from "../src/index.ts";
import { familyOn } from "./models.ts";
import { synthetic } from "./synthetic.ts";

const s = synthetic(["a", "b", "ab", "ba", "abc", "c", "\n", "bca", "é"], false);
const { spec, id: I } = familyOn<InternLM2Key>(s.model, "internlm2");
const otherSpec = familyOn(s.model, "internlm2", { eosIds: [] }).spec;

function events(ids: readonly number[], opts: DecoderOptions): DecoderEvent[] {
  const c = eventCollector();
  const d = createDecoder(spec, c, opts);
  d.pushMany(ids);
  d.end();
  return c.events;
}

describe("per-stream structure", () => {
  it("a decoder holds no functions of its own: methods live on one shared prototype", () => {
    const h = eventCollector();
    const a = createDecoder(spec, h);
    const b = createDecoder(spec, h, { stopStrings: ["ab"] });
    for (const key of Object.getOwnPropertyNames(a)) {
      expect(typeof (a as unknown as Record<string, unknown>)[key], key).not.toBe("function");
    }
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
    expect(typeof Object.getPrototypeOf(a).push).toBe("function");
  });

  it("stop strings compile once per distinct set and spec", () => {
    const first = compileStopStrings(spec, ["bca", "a\nb"]);
    expect(first).toBeInstanceOf(StopStrings);
    expect(compileStopStrings(spec, ["bca", "a\nb"])).toBe(first);
    expect(compileStopStrings(spec, ["a\nb", "bca"])).not.toBe(first);
    expect(compileStopStrings(otherSpec, ["bca", "a\nb"])).not.toBe(first);
    // The same array object, changed after it was compiled: its new contents count.
    const arr = ["bca"];
    const x = compileStopStrings(spec, arr);
    arr[0] = "ab";
    const y = compileStopStrings(spec, arr);
    expect(y).not.toBe(x);
    expect(y.patterns).toEqual(["ab"]);
  });

  it("a precompiled set gives the same events as the plain strings, and must match the spec", () => {
    const ids = [259, 260, 265, 264, 259, 261, 266, 260, 259];
    const strings = ["bca", "a\nb"];
    const compiled = compileStopStrings(spec, strings);
    expect(events(ids, { stopStrings: compiled })).toEqual(events(ids, { stopStrings: strings }));
    expect(events(ids, { stopStrings: strings }).at(-1)).toMatchObject({
      type: "stop",
      reason: "stop_string",
    });
    expect(() => createDecoder(otherSpec, eventCollector(), { stopStrings: compiled })).toThrow(TypeError);
    expect(() => compileStopStrings(spec, ["a", ""])).toThrow(TypeError);
    expect(() => createDecoder(spec, eventCollector(), { stopStrings: [""] })).toThrow(TypeError);
  });

  it("reset() returns a decoder to the state of a fresh one", () => {
    const ids = [259, I.actionStart, I.plugin, 260, 265, I.actionEnd, 266, 3 + 0xc3];
    const c = eventCollector();
    const d = createDecoder(spec, c, { stopStrings: ["ab"] });
    d.pushMany(ids.slice(0, 5));
    d.reset();
    c.events.length = 0;
    d.pushMany(ids);
    d.end();
    expect(c.events).toEqual(events(ids, { stopStrings: ["ab"] }));
  });
});
