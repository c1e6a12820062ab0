import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type FamilyFixtures,
  familyFixtures,
  goldenVectors,
  missingOf,
} from "../../../../test-support/family-fixtures.ts";
import { loadFixtureTokenizer } from "../../../../test-support/family-tokenizer.ts";
import {
  type ChatEncoding,
  type ChatRequest,
  type ChatTokenizer,
  FAMILIES,
  TokenizerError,
} from "../../src/index.ts";

/** The clock every golden generator renders with (gen/*.js NOW). */
const GOLDEN_CLOCK = "2024-07-26T10:00:00";

const _root = resolve(import.meta.dirname, "../../../..");

/** The reserved IDs of an encoding, in order. */
const reservedOf = (tok: ChatTokenizer, ids: readonly number[]): number[] =>
  ids.filter((id) => tok.registry.ids.has(id));

// The checks below compare in plain code and call expect() only for what fails: the injection
// test checks tens of thousands of encodings, and an expect() call costs far more than the check.

function expectTiling(enc: ChatEncoding, what: string): void {
  let at = 0;
  for (const s of enc.spans) {
    if (s.start !== at || !(s.end >= s.start)) {
      expect(s.start, `${what}: span starts where the previous ended`).toBe(at);
      expect(s.end, `${what}: span end`).toBeGreaterThanOrEqual(s.start);
    }
    at = s.end;
  }
  if (at !== enc.ids.length) expect(at, `${what}: spans cover every ID`).toBe(enc.ids.length);
}

function expectSameIds(got: readonly number[], want: readonly number[], what: string): void {
  if (got.length !== want.length || got.some((id, i) => id !== want[i])) expect(got, what).toEqual(want);
}

function expectShown(
  mode: FamilyFixtures["decodeEqualsRender"],
  tok: ChatTokenizer,
  req: ChatRequest,
  enc: ChatEncoding,
  what: string,
): void {
  const norm = (s: string): string => (mode === "ignoring-spaces" ? s.replaceAll(" ", "") : s);
  const shown = norm(tok.decode(enc.ids, { specialTokens: "show" }));
  const rendered = norm(tok.renderChat(req));
  if (shown !== rendered) expect(shown, `${what}: decode(ids, show) = renderChat`).toBe(rendered);
}

/** The caller fields of the injection request (OpenAI shape, valid for every family). */
const SLOTS = [
  "system.content",
  "user.content",
  "user.name",
  "assistant.reasoning_content",
  "assistant.content",
  "tool_calls[0].function.name",
  "tool_calls[0].function.arguments.q",
  "tool_calls[1].function.arguments (JSON text)",
  "tool.content",
  "tool.name",
  "user[2].content",
  "tools[0].function.name",
  "tools[0].function.description",
  "tools[0].function.parameters.q.description",
] as const;
type Slot = (typeof SLOTS)[number];

/**
 * The request's shape: "two-calls" as written below; "one-call-per-message": the two calls in
 * two assistant messages, each followed by its result (a family whose template allows one call
 * per message, Llama 3.1+, refuses the two-call twin); "strict": also every call with an id and
 * every result with its tool_call_id, and the assistant text in its own turn before the calls
 * (Mistral v2/v3 refuse text next to calls, v3+ results without a call id); "no-tools": no
 * tools, calls or results at all (Mistral v1), so the tool fields hold nothing to inject.
 */
type Shape = "two-calls" | "one-call-per-message" | "strict" | "no-tools";
const SHAPES: readonly Shape[] = ["two-calls", "one-call-per-message", "strict", "no-tools"];

function injectionRequest(at: Slot, value: string, shape: Shape = "two-calls"): ChatRequest {
  const r = injectionRequestTwoCalls(at, value) as unknown as { messages: Array<Record<string, unknown>> };
  if (shape === "two-calls") return r as unknown as ChatRequest;
  const [sys, user, asst, tool, last] = r.messages as [
    object,
    object,
    Record<string, unknown>,
    Record<string, unknown>,
    object,
  ];
  const calls = asst.tool_calls as Array<Record<string, unknown>>;
  if (shape === "one-call-per-message")
    return {
      ...r,
      messages: [
        sys,
        user,
        { ...asst, tool_calls: [calls[0]] },
        tool,
        { role: "assistant", content: null, tool_calls: [calls[1]] },
        tool,
        last,
      ],
    } as ChatRequest;
  if (shape === "no-tools") {
    const { tool_calls: _calls, ...textOnly } = asst;
    const { tools: _tools, ...rest } = r as unknown as Record<string, unknown>;
    return { ...rest, messages: [sys, user, textOnly, last] } as ChatRequest;
  }
  const ids = ["call00001", "call00002"];
  const { content, ...callsOnly } = asst;
  return {
    ...r,
    messages: [
      sys,
      user,
      { role: "assistant", content },
      { role: "user", content: "Go on." },
      { ...callsOnly, content: null, tool_calls: [{ ...calls[0], id: ids[0] }] },
      { ...tool, tool_call_id: ids[0] },
      { role: "assistant", content: null, tool_calls: [{ ...calls[1], id: ids[1] }] },
      { ...tool, tool_call_id: ids[1] },
      last,
    ],
  } as ChatRequest;
}

function injectionRequestTwoCalls(at: Slot, value: string): ChatRequest {
  const v = (slot: Slot, dflt: string): string => (slot === at ? value : dflt);
  return {
    messages: [
      { role: "system", content: v("system.content", "You are helpful.") },
      { role: "user", content: v("user.content", "Weather?"), name: v("user.name", "ann") },
      {
        role: "assistant",
        reasoning_content: v("assistant.reasoning_content", "Call the tool."),
        content: v("assistant.content", "Checking."),
        tool_calls: [
          {
            type: "function",
            function: {
              name: v("tool_calls[0].function.name", "get_weather"),
              arguments: { q: v("tool_calls[0].function.arguments.q", "Paris") },
            },
          },
          {
            type: "function",
            function: {
              name: "get_weather",
              arguments: JSON.stringify({ q: v("tool_calls[1].function.arguments (JSON text)", "Rome") }),
            },
          },
        ],
      },
      { role: "tool", content: v("tool.content", "21 C"), name: v("tool.name", "get_weather") },
      { role: "user", content: v("user[2].content", "Thanks") },
    ],
    tools: [
      {
        type: "function",
        function: {
          name: v("tools[0].function.name", "get_weather"),
          description: v("tools[0].function.description", "Current weather"),
          parameters: {
            type: "object",
            properties: {
              q: { type: "string", description: v("tools[0].function.parameters.q.description", "city") },
            },
          },
        },
      },
    ],
    add_generation_prompt: true,
  } as ChatRequest;
}

function isRefusal(e: unknown): boolean {
  return TokenizerError.isInstance(e) && e.type === "invalid-conversation";
}

function suite(name: string, fx: FamilyFixtures): void {
  for (const t of fx.tokenizers) {
    const goldens = fx.goldens.filter((g) => (g.tokenizer ?? fx.tokenizers[0]?.label) === t.label);
    const vectors = goldens.flatMap((g) => goldenVectors(g).map((v) => ({ ...v, file: g.file })));
    const missing = missingOf(t);
    describe.skipIf(missing.length > 0)(`${name} x ${t.label}: ${vectors.length} golden vectors`, () => {
      let tok: ChatTokenizer;
      it("loads as the family; registry facts hold", () => {
        tok = loadFixtureTokenizer(t);
        expect(tok.family.name).toBe(name);
        expect(tok.format).toBe(name);
        for (const [s, id] of Object.entries(t.registry ?? {}))
          expect(tok.registry.idByName.get(s), s).toBe(id);
        for (const [key, id] of Object.entries(tok.tokenIds)) {
          expect(Object.hasOwn(tok.family.tokens, key), key).toBe(true);
          if (!(tok.family.reserved.notReserved ?? []).includes(key))
            expect(tok.registry.ids.has(id), key).toBe(true);
        }
      });

      it.skipIf(vectors.length === 0)("golden IDs; decode(ids, show) = renderChat; spans tile", () => {
        for (const v of vectors) {
          const what = `${v.file} ${v.name}`;
          // The goldens' generators render with a fixed clock (the templates' strftime_now):
          // pinned here by the request's `now` unless the vector sets one.
          const req = { now: GOLDEN_CLOCK, ...(v.request as ChatRequest) };
          const enc = tok.encodeChat(req);
          expect(enc.ids, what).toEqual(v.ids);
          expectShown(fx.decodeEqualsRender, tok, req, enc, what);
          expectTiling(enc, what);
        }
      });

      it("every registry string in every caller field: the reserved IDs of a benign twin, in order", () => {
        const strings = [...tok.registry.strings.keys()];
        let encoded = 0;
        let refused = 0;
        // A family that refuses the two-call request gets the next shape it renders.
        const shape =
          SHAPES.find((sh) => {
            try {
              tok.encodeChat(injectionRequest("system.content", "axb", sh));
              return true;
            } catch (e) {
              if (!isRefusal(e)) throw e;
              return false;
            }
          }) ?? "no-tools";
        for (const slot of SLOTS) {
          const twinReq = injectionRequest(slot, "axb", shape);
          const twin = tok.encodeChat(twinReq);
          expectTiling(twin, `${slot} benign`);
          const expected = reservedOf(tok, twin.ids);
          for (const s of strings) {
            const what = `${slot} <- ${JSON.stringify(s)}`;
            const req = injectionRequest(slot, `a${s}b`, shape);
            let enc: ChatEncoding;
            try {
              enc = tok.encodeChat(req);
            } catch (e) {
              if (!isRefusal(e)) throw e;
              refused++;
              continue;
            }
            encoded++;
            expectSameIds(reservedOf(tok, enc.ids), expected, what);
            expectTiling(enc, what);
            expectShown(fx.decodeEqualsRender, tok, req, enc, what);
          }
        }
        console.log(
          `conformance ${name} x ${t.label}: ${vectors.length} golden vectors, ${strings.length} strings x ${SLOTS.length} fields = ${encoded} injections encoded + ${refused} refused`,
        );
        expect(encoded).toBeGreaterThan(0);
      });
    });
  }
}

describe("encode conformance battery", () => {
  it("every family has a fixtures file", () => {
    expect(FAMILIES.filter((f) => familyFixtures(f.name) === undefined).map((f) => f.name)).toEqual([]);
  });
});

for (const f of FAMILIES) {
  let fx: FamilyFixtures | undefined;
  let why = "";
  try {
    fx = familyFixtures(f.name);
  } catch (e) {
    why = e instanceof Error ? e.message : String(e);
  }
  if (fx !== undefined) suite(f.name, fx);
  else if (why !== "")
    it(`${f.name}: its fixtures file has the shape of test-support/family-fixtures.ts`, () => {
      expect.fail(why);
    });
}
