// Differential check of the Llama 3.x renderers on seeded random conversations, beyond the
// committed goldens: random structure (system or not, tools in the system or the first user
// message or none, tool calls with object or JSON-string arguments, tool/ipython results,
// date_string, prefill, generation prompt) and random text (whitespace the templates trim,
// CJK, emoji, quotes, backslashes, control characters, JSON-looking text). Reference, run live:
// Python jinja2 in transformers' environment (test-vectors/gen/family_llama3_render.py) and HF
// Rust `tokenizers` on the Llama 3.0 package file. Our IDs, our text rendering, and our
// refusals must equal the reference's. Needs /usr/bin/python3 with jinja2 and ../shared/templates.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenizerError } from "../src/index.ts";
import { encode, type FamilyName, PKG_DIR, renderText, repoRoot, vocab } from "./llama3-support.ts";
import { sharedRustTokenizer } from "./rust-tokenizers.ts";
import { havePython } from "./template-support.ts";

const rust = sharedRustTokenizer(join(PKG_DIR, "tokenizer.json"));

const templates = join(repoRoot, "..", "shared/templates");
const TEMPLATE: Record<FamilyName, string> = {
  llama3: "llama-3-8b-instruct.jinja",
  llama31: "llama-3.2-3b-instruct.jinja",
};

const text = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.string({ maxLength: 6, unit: "grapheme" }) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          " ",
          "\n",
          "\n\n",
          "\t",
          "\r\n",
          "\u00a0",
          "\u3000",
          "\u200b",
          "\u2028",
          "\u0001",
          '"',
          "\\",
          "{",
          '{"name": "f", "parameters": {}}',
          "你好世界",
          "👨‍👩‍👧",
          "é",
          "e\u0301",
          "1.0",
          "assistant",
        ),
      },
    ),
    { maxLength: 8 },
  )
  .map((a) => a.join(""));

const jsonValue = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  text,
);
const args = fc.dictionary(fc.oneof(text, fc.constantFrom("1", "0", "a")), jsonValue, { maxKeys: 4 });
const tool = fc.record({
  type: fc.constant("function"),
  function: fc.record({
    name: fc.stringMatching(/^[a-z_]{1,8}$/),
    description: text,
    parameters: fc.record({
      type: fc.constant("object"),
      properties: fc.dictionary(text, fc.record({ type: fc.constantFrom("string", "number") }), {
        maxKeys: 3,
      }),
    }),
  }),
});

const message = (withTools: boolean) =>
  fc.oneof(
    fc.record({ role: fc.constantFrom("user", "assistant", "system"), content: text }),
    fc.record({ role: fc.constantFrom("tool", "ipython"), content: text }),
    ...(withTools
      ? [
          fc.record({
            role: fc.constant("assistant"),
            content: fc.constant(null),
            tool_calls: fc.array(
              fc.tuple(fc.stringMatching(/^[a-z_]{1,8}$/), args, fc.boolean()).map(([name, a, asString]) => ({
                type: "function",
                function: { name, arguments: asString ? JSON.stringify(a) : a },
              })),
              { minLength: 1, maxLength: 2 },
            ),
          }),
        ]
      : []),
  );

const request = (family: FamilyName) =>
  fc.boolean().chain((withTools0) => {
    const withTools = withTools0;
    return fc
      .record(
        {
          messages: fc
            .tuple(
              fc.option(text, { nil: undefined }),
              fc.array(message(withTools), { minLength: 1, maxLength: 6 }),
            )
            .map(([sys, rest]) => (sys === undefined ? rest : [{ role: "system", content: sys }, ...rest])),
          tools: withTools ? fc.array(tool, { minLength: 1, maxLength: 2 }) : fc.constant(undefined),
          chat_template_kwargs:
            family === "llama31"
              ? fc.record({ date_string: text, tools_in_user_message: fc.boolean() }, { requiredKeys: [] })
              : fc.constant(undefined),
          end: fc.constantFrom("agp", "no-agp", "prefill"),
        },
        { requiredKeys: ["messages"] },
      )
      .map(({ end, ...r }) =>
        end === "prefill"
          ? { ...r, continue_final_message: true }
          : { ...r, add_generation_prompt: end === "agp" },
      );
  });

/** Documented divergence: prefill of a tool result / tool call is refused (transformers cuts inside it). */
function prefillOnToolMessage(req: unknown): boolean {
  const r = req as {
    continue_final_message?: boolean;
    messages: Array<{ role: string; tool_calls?: unknown }>;
  };
  const last = r.messages[r.messages.length - 1];
  return (
    r.continue_final_message === true &&
    last !== undefined &&
    (last.role === "tool" || last.role === "ipython" || last.tool_calls !== undefined)
  );
}

/** Drops undefined fields (JSON as the reference sees it). */
const clean = (r: unknown): unknown => JSON.parse(JSON.stringify(r));

function reference(family: FamilyName, requests: unknown[]): Array<{ text?: string; error?: string }> {
  const r = spawnSync(
    process.env.CHATWIRE_PYTHON ?? "/usr/bin/python3",
    [join(repoRoot, "test-vectors/gen/family_llama3_render.py")],
    {
      input: JSON.stringify({
        template: readFileSync(join(templates, TEMPLATE[family]), "utf8"),
        special: { bos_token: "<|begin_of_text|>", eos_token: "<|eot_id|>" },
        now: "2024-07-26T10:00:00",
        requests,
      }),
      encoding: "utf8",
      maxBuffer: 1 << 28,
    },
  );
  if (r.status !== 0) throw new Error(`family_llama3_render.py failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Array<{ text?: string; error?: string }>;
}

describe.runIf(havePython() && existsSync(templates)).each(["llama3", "llama31"] as const)(
  "%s: random conversations against Python jinja2 + Rust tokenizers",
  (family) => {
    it("300 seeded conversations: same text, same IDs, same refusals", async () => {
      const v = vocab("3.0");
      // Refused by both: two tool calls in one message, prefill on a tool result or call
      // (ours only: the tally below keeps those apart).
      const requests = fc.sample(request(family), { numRuns: 300, seed: 31 }).map(clean);
      const refs = reference(family, requests);
      let compared = 0;
      let refused = 0;
      let oursOnly = 0;
      for (const [k, req] of requests.entries()) {
        const ref = refs[k] as { text?: string; error?: string };
        const label = JSON.stringify(req);
        if (prefillOnToolMessage(req)) {
          expect(() => encode(family, v, req), label).toThrow(/continue_final_message/);
          oursOnly++;
          continue;
        }
        if (ref.error !== undefined) {
          let type: string | undefined;
          try {
            encode(family, v, req);
          } catch (e) {
            if (!TokenizerError.isInstance(e)) throw e;
            type = e.type;
          }
          expect(type, `${label}\nreference: ${ref.error}`).toBe("invalid-conversation");
          refused++;
          continue;
        }
        expect(renderText(family, v, req), label).toBe(ref.text);
        const want = (await rust.encode(ref.text as string, null, { addSpecialTokens: false })).getIds();
        expect(encode(family, v, req).ids, label).toEqual(want);
        compared++;
      }
      expect(compared).toBeGreaterThan(200);
      expect(refused + oursOnly).toBeLessThan(100);
      if (family === "llama31") expect(refused).toBeGreaterThan(0);
    }, 120_000);
  },
);
