// The security rule (docs/formats.md) for every field of the OpenAI-shaped request, as
// properties: caller strings built from every reserved string and literal piece (and their
// fragments) in text parts, developer/system content, participant names, tool_call ids, tool
// names, string and object arguments (keys and values), tool results, tool definitions,
// reasoning and a prefilled final message never yield a reserved ID:
//   1. caller-field spans hold no reserved ID;
//   2. the reserved IDs of the encoding are exactly those of the same request with benign text;
//   3. the audit reports a reserved string iff a caller string holds one (renderChat agrees).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatRequest, ChatTokenizer, FormatName } from "../src/index.ts";
import {
  adversarial,
  availableFormats,
  render,
  type SharedSuiteFormat,
  tokenizerFor,
} from "./chat-support.ts";

const SLOTS = 12;
const CALLER_FIELDS = new Set(["content", "name", "metadata", "tools", "reasoning_content", "tool_calls"]);

/** Header names and tool names are one line and non-empty; InternLM2 names "plugin"/"interpreter" are tokens. */
function oneLine(s: string): string {
  const t = s.replaceAll("\n", " ");
  return t === "" || t === "plugin" || t === "interpreter" ? `x${t}` : t;
}

/** An OpenAI-shaped request holding SLOTS caller strings (ChatGLM3 keyword names stay identifiers). */
function fill(format: FormatName, s: readonly string[]): ChatRequest {
  const at = (k: number): string => s[k] ?? "";
  const key = format === "chatglm3" ? "k" : at(5);
  return {
    messages: [
      {
        role: "developer",
        content: [
          { type: "text", text: at(0) },
          { type: "text", text: at(1) },
        ],
      },
      { role: "user", name: oneLine(at(2)), content: [{ type: "text", text: at(3) }] },
      {
        role: "assistant",
        content: null,
        reasoning_content: at(4),
        tool_calls: [
          {
            id: at(6),
            type: "function",
            function: { name: oneLine(at(7)), arguments: { [key]: at(8), n: 1 } },
          },
          { id: at(9), type: "function", function: { name: "f", arguments: JSON.stringify({ k: at(10) }) } },
        ],
      },
      { role: "tool", tool_call_id: at(6), content: at(11) },
      { role: "tool", tool_call_id: at(9), content: [{ type: "text", text: at(1) }] },
      { role: "assistant", content: `a${at(3)}` },
    ],
    tools: [
      { type: "function", function: { name: at(7), description: at(2), parameters: { [at(5)]: at(8) } } },
    ],
    continue_final_message: true,
  };
}

/** Slots no template renders: tool_call ids everywhere; reasoning in InternLM2 / ChatGLM3. */
const UNRENDERED: Record<Exclude<SharedSuiteFormat, "gpt-oss">, ReadonlySet<number>> = {
  qwen3: new Set([6, 9]),
  internlm2: new Set([4, 6, 9]),
  chatglm3: new Set([4, 6, 9]),
};

function reservedOf(tok: ChatTokenizer, ids: readonly number[]): number[] {
  return ids.filter((id) => tok.registry.ids.has(id));
}

describe.each(availableFormats)("%s: OpenAI-shaped caller fields never yield a reserved ID", (format) => {
  const tok = tokenizerFor(format);
  // Benign twin: the same emptiness per slot (templates branch on empty strings), no special text.
  const benign = (strings: readonly string[]) => strings.map((x) => (x.length > 0 ? "x" : ""));

  it("property: spans, reserved-ID sequence and audit", () => {
    fc.assert(
      fc.property(fc.array(adversarial(tok), { minLength: SLOTS, maxLength: SLOTS }), (strings) => {
        const req = fill(format, strings);
        const enc = tok.encodeChat(req);
        for (const s of enc.spans) {
          if (!CALLER_FIELDS.has(s.field)) continue;
          // InternLM2: the header name of a tool result / the tools message IS <|plugin|>
          const m = s.message === null ? undefined : req.messages[s.message];
          if (format === "internlm2" && s.field === "name" && (m === undefined || m.role === "tool"))
            continue;
          for (const id of enc.ids.slice(s.start, s.end)) expect(tok.registry.ids.has(id)).toBe(false);
        }
        expect(reservedOf(tok, enc.ids)).toEqual(
          reservedOf(tok, tok.encodeChat(fill(format, benign(strings))).ids),
        );
        // the audit reports exactly when a rendered slot holds a reserved string
        const unrendered = UNRENDERED[format];
        const expected = strings.some((x, k) => !unrendered.has(k) && tok.scanner.first(x) !== undefined);
        expect(enc.audit.length > 0, JSON.stringify(strings)).toBe(expected);
        // renderChat is the same rendering as the IDs (SentencePiece reads "▁" in text as a space)
        const text = tok.renderChat(req).normalize("NFC");
        const want = tok.textModel.family === "sentencepiece" ? text.replaceAll("▁", " ") : text;
        expect(render(tok, enc.ids, enc.spans).normalize("NFC")).toBe(want);
      }),
      { numRuns: 400, seed: 9090 },
    );
  });

  it("every reserved string and literal piece alone, in every slot", () => {
    const specials = [...new Set([...tok.registry.strings.keys(), ...tok.textModel.literalPieces.keys()])];
    const want = reservedOf(
      tok,
      tok.encodeChat(
        fill(
          format,
          Array.from({ length: SLOTS }, () => "x"),
        ),
      ).ids,
    );
    for (const sp of specials) {
      const enc = tok.encodeChat(
        fill(
          format,
          Array.from({ length: SLOTS }, () => sp),
        ),
      );
      expect(reservedOf(tok, enc.ids), sp).toEqual(want);
      expect(enc.audit.length > 0, sp).toBe(tok.scanner.first(sp) !== undefined);
    }
  });
});
