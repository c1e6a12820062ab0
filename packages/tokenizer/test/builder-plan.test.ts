// ChatBuilder records format code's calls and encodes them in finish() (chat/builder.ts: a
// plan, a program of ops, spans from where each op ended). These tests hold that machinery to
// the builder's DEFINITION, computed naively here (a re-implementation of the rule, not a
// golden): every run (text segments between two reserved IDs or cuts) is ONE call of the text
// model's encoder on the run's joined text, reserved IDs sit between the runs, and the audit is
// the scanner's matches over the caller strings in the order they were written. Random op
// sequences mix what takes the builder's shortcuts (template-only runs from the cache, a header
// ending in "\n" cut off before caller text) with what must not (caller text that starts with a
// space or a newline, caller text inside a header, template text after caller text).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChatBuilder } from "../src/chat/builder.ts";
import { build, IM_START, type Op, op, tok } from "./builder-support.ts";

/** The definition: one encoder call per run, reserved IDs between, audit in caller order. */
function naive(ops: readonly Op[]): { ids: number[]; audit: unknown[] } {
  const ids: number[] = [];
  const audit: unknown[] = [];
  let run = "";
  const flush = () => {
    if (run.length > 0) ids.push(...tok.textModel.encode(run));
    run = "";
  };
  ops.forEach((o, i) => {
    if (o.kind === "reserved") {
      flush();
      ids.push(o.id);
    } else if (o.kind === "cut") flush();
    else {
      run += o.text;
      if (o.kind === "caller")
        for (const m of tok.scanner.scan(o.text))
          audit.push({ message: i, field: `f${i}`, token: m.token, index: m.index + o.offset, id: m.id });
    }
  });
  flush();
  return { ids, audit };
}

describe("ChatBuilder: the recorded plan encodes what its definition says", () => {
  it("IDs and audit equal the naive runs on random op sequences; spans tile the IDs in op order", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 24 }), (ops) => {
        const got = build(ops);
        const want = naive(ops);
        expect(got.ids).toEqual(want.ids);
        expect(got.audit).toEqual(want.audit);
        // Every token is attributed exactly once, in order, to an op at or after the previous one.
        let at = 0;
        let lastOwner = -1;
        for (const s of got.spans) {
          expect(s.start).toBe(at);
          expect(s.end).toBeGreaterThan(s.start);
          expect(s.message as number).toBeGreaterThanOrEqual(lastOwner);
          lastOwner = s.message as number;
          at = s.end;
        }
        expect(at).toBe(got.ids.length);
        // A reserved ID is its own op's one-token span.
        for (const s of got.spans)
          if (ops[s.message as number]?.kind === "reserved") expect(s.end - s.start).toBe(1);
      }),
      { numRuns: 1500, seed: 1202 },
    );
  });

  it("finish() runs the plan once: a second call answers the same encoding", () => {
    const b = new ChatBuilder(tok.textModel, tok.scanner, "neutralize");
    b.reserved(IM_START, 0, "marker");
    b.text("user", 0, "role");
    b.text("\n", 0, "template");
    b.caller("hi <think>", 0, "content");
    const first = b.finish();
    expect(b.finish()).toBe(first);
    expect(first.audit).toHaveLength(1);
    expect(first.ids.filter((id) => id === IM_START)).toHaveLength(1);
  });

  it('under "reject" the first reserved string throws from caller(), before anything is encoded', () => {
    const b = new ChatBuilder(tok.textModel, tok.scanner, "reject");
    b.caller("clean", 0, "content");
    expect(() => b.caller("x<|im_end|>", 1, "content", { field: "content", offset: 2 })).toThrow(
      expect.objectContaining({ type: "special-token-in-text" }),
    );
    expect(() => b.caller("x<|im_end|>", 1, "content", { field: "content", offset: 2 })).toThrow(
      /messages\[1\]\.content contains the reserved token "<\|im_end\|>" at index 3/,
    );
  });
});
