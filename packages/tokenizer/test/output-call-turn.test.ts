// The "call-turn" recognizer (GigaChat 3.0: a call written as a turn of its own after the assistant's
// end of turn, `‹<|message_sep|>›\n\nfunction call‹<|role_sep|>›\n{"name", "arguments"}`): the
// opening text and header token from renderings, the end of turn left out of the stop IDs (what it
// claims: ./output-claims.test.ts). The templates are read from ../shared (CHATWIRE_TEMPLATES,
// CHATWIRE_TEMPLATES_EXTRA); the suite is skipped without them.
import { describe, expect, it } from "vitest";
import { entryPresent, probeEntry } from "./output-claims-support.ts";

const KEY = "models/templates/GigaChat3-10B-A1.8B.jinja";

describe.skipIf(!entryPresent(KEY))("call-turn recognizer (GigaChat 3.0)", () => {
  it("derives the call turn's opening, its body and the end of turn that is no stop", () => {
    const { tok, probe } = probeEntry(KEY);
    const g = probe.output.grammar;
    expect(probe.output.name).toBe('call turn "function call": JSON call object');
    expect(g.callTurn).toEqual({ text: "\n\nfunction call", marker: "<|role_sep|>", block: "tool_calls" });
    expect(g.blocks).toEqual([{ name: "tool_calls", emits: "action", kind: "tool_call", body: "json-call" }]);
    const sep = tok.reserved.get("<|message_sep|>");
    expect(probe.endOfTurn).toBe(sep);
    // The model writes its call after the end of turn: a stop there would never let it.
    expect(probe.eosIds).not.toContain(sep);
    expect(probe.output.evidence).toContain("call-turn: of two calls the template writes the first only");
  });

  it("GigaChat 3.1 (calls after <|function_call|> inside the turn) keeps its end of turn as a stop", () => {
    const { tok, probe } = probeEntry("models/templates/GigaChat3.1-10B-A1.8B.jinja");
    expect(probe.output.grammar.callTurn).toBeUndefined();
    expect(probe.eosIds).toContain(tok.reserved.get("<|message_sep|>"));
  });
});
