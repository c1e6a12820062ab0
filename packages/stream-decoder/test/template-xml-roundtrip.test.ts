// Round trip of the derived XML-parameter and key/value formats through the decoder: the chat
// template itself (../shared/templates-extra) renders an assistant turn with calls whose
// arguments cover every JSON type, after a reasoning text and a content text (strings with quotes, newlines inside and non-ASCII text;
// integers, floats, booleans, arrays, objects); the IDs the model would have generated for that
// turn are decoded by probeTemplate + compileTemplateDecoderSpec + createDecoder with the
// request's tools, and must give back those calls (the reference is the template's input, not
// our output). The same IDs one at a time give the same events (bursts), and each call's
// streamed name comes first and its argument deltas concatenate to its arguments.
// Vocabulary: Qwen3's, with the marker strings of test-vectors/peer-parse/formats.json added as
// special tokens (a stand-in, as the peer-parse vectors use), and DeepSeek's turn tokens.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type ChatRequest,
  createTemplateTokenizer,
  probeTemplate,
  type TemplateTokenizer,
} from "../../tokenizer/src/index.ts";
import { loadTemplateTokenizerSync, qwen3Dir } from "../../tokenizer/src/node.ts";
import {
  compileTemplateDecoderSpec,
  createDecoder,
  type DecoderEvent,
  eventCollector,
  promptOpensStartBlock,
} from "../src/index.ts";

const repoRoot = resolve(import.meta.dirname, "../../..");
const extra = resolve(repoRoot, process.env.CHATWIRE_TEMPLATES_EXTRA || "../shared/templates-extra");
const TEMPLATES = [
  "llamacpp-ByteDance-Seed-OSS.jinja",
  "llamacpp-MiniMax-M2.jinja",
  "llamacpp-GLM-4.6.jinja",
  "llamacpp-GLM-4.7-Flash.jinja",
  "hfjs-zai-org-GLM-5.1.jinja",
  "llamacpp-Qwen3.5-4B.jinja",
  "llamacpp-NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja",
  "llamacpp-StepFun3.5-Flash.jinja",
  "llamacpp-deepseek-ai-DeepSeek-V3.2.jinja",
];
/** Template variables per template: DeepSeek V3.2 renders the last turn's reasoning only when thinking. */
const KWARGS: Readonly<Record<string, Readonly<Record<string, boolean>>>> = {
  "llamacpp-deepseek-ai-DeepSeek-V3.2.jinja": { enable_thinking: true },
};
/** The DeepSeek V3 turn and sentence tokens (its own vocabulary reserves them; Qwen3's does not). */
const DEEPSEEK_TOKENS = ["<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>"];
const present = TEMPLATES.every((t) => existsSync(join(extra, t)));

const CALLS = [
  {
    name: "edit_file",
    arguments: {
      path: 'src/"quoted" файл.ts',
      text: "line one\n  line two\twith tab",
      count: 42,
      ratio: -2.5,
      dry: false,
      tags: ["a", "b c"],
      opts: { deep: { k: [1, null] }, s: "x" },
    },
  },
  { name: "get_time", arguments: { city: "東京" } },
  { name: "no_args", arguments: {} },
];

const REASONING = "thinking about it";
const CONTENT = "Let me check.";

const schemaOf = (v: unknown): object =>
  typeof v === "string"
    ? { type: "string" }
    : typeof v === "number"
      ? { type: Number.isInteger(v) ? "integer" : "number" }
      : typeof v === "boolean"
        ? { type: "boolean" }
        : { type: Array.isArray(v) ? "array" : "object" };
const TOOLS = CALLS.map((c) => ({
  type: "function",
  function: {
    name: c.name,
    description: c.name,
    parameters: {
      type: "object",
      properties: Object.fromEntries(Object.entries(c.arguments).map(([k, v]) => [k, schemaOf(v)])),
    },
  },
}));

function tokenizerMaker(): (template: string) => TemplateTokenizer {
  const base = loadTemplateTokenizerSync(qwen3Dir());
  const added = [
    ...[...base.reserved].map(([content, id]) => ({ id, content, special: true })),
    ...[...base.textPieces].map(([content, id]) => ({ id, content, special: false })),
  ];
  const fm = JSON.parse(readFileSync(join(repoRoot, "test-vectors/peer-parse/formats.json"), "utf8")) as {
    templates: Record<string, { vocabulary: { markers: string[] } }>;
  };
  const have = new Set(added.map((a) => a.content));
  let next = Math.max(...added.map((a) => a.id)) + 1;
  for (const m of [...Object.values(fm.templates).flatMap((e) => e.vocabulary.markers), ...DEEPSEEK_TOKENS]) {
    if (!have.has(m)) {
      have.add(m);
      added.push({ id: next++, content: m, special: true });
    }
  }
  return (template) =>
    createTemplateTokenizer({
      textModel: base.textModel,
      config: base.config,
      addedTokens: added,
      templates: { default: template },
      options: { now: () => new Date(2024, 6, 26) },
    });
}

/**
 * The generation prompt, and the IDs after it up to the end of turn: what the model generated.
 */
function generated(
  tok: TemplateTokenizer,
  endOfTurn: number | null,
  kwargs: Readonly<Record<string, boolean>> | undefined,
): [number[], number[]] {
  const user = { role: "user", content: "Hey there!" };
  const assistant = {
    role: "assistant",
    content: CONTENT,
    reasoning_content: REASONING,
    tool_calls: CALLS.map((c) => ({ type: "function", function: c })),
  };
  const req = (messages: object[], gp: boolean): ChatRequest =>
    ({
      messages,
      tools: TOOLS,
      add_generation_prompt: gp,
      ...(kwargs !== undefined ? { chat_template_kwargs: kwargs } : {}),
    }) as unknown as ChatRequest;
  const prompt = tok.encodeChat(req([user], true)).ids;
  const full = tok.encodeChat(req([user, assistant], false)).ids;
  let k = 0;
  while (k < prompt.length && prompt[k] === full[k]) k++;
  // The model's generation ends with the end of turn (included: it ends the message).
  const end = endOfTurn === null ? -1 : full.indexOf(endOfTurn, k);
  return [[...prompt], full.slice(k, end < 0 ? full.length : end + 1)];
}

describe.skipIf(!present)("derived XML-parameter / key-value formats decode the template's own calls", () => {
  const make = tokenizerMaker();
  for (const t of TEMPLATES)
    it(t, () => {
      const tok = make(readFileSync(join(extra, t), "utf8"));
      const probe = probeTemplate(tok);
      const [prompt, ids] = generated(tok, probe.endOfTurn, KWARGS[t]);
      // Decoding starts in reasoning when this prompt opened it, as a server would decide.
      const base = compileTemplateDecoderSpec(tok.textModel, probe);
      const open = promptOpensStartBlock(base, prompt);
      const spec = compileTemplateDecoderSpec(tok.textModel, probe, { startInReasoning: open });
      const decode = (burst: boolean): DecoderEvent[] => {
        const sink = eventCollector();
        const d = createDecoder(spec, sink, { tools: TOOLS, streamToolCalls: true });
        if (burst) d.pushMany(ids);
        else for (const id of ids) d.push(id);
        d.end();
        return sink.events;
      };
      const events = decode(true);
      expect(decode(false)).toEqual(events);
      const ends = events.filter((e) => e.type === "action_end");
      expect(ends.map((e) => ("call" in e ? e.call : e))).toEqual(CALLS);
      expect(events.filter((e) => e.type === "error")).toEqual([]);
      const reasoning = events.flatMap((e) => (e.type === "reasoning" ? [e.text] : [])).join("");
      expect(reasoning.trim()).toBe(REASONING);
      // The "\n"s the template writes between the content and the call are not content.
      const content = events.flatMap((e) => (e.type === "text" ? [e.text] : [])).join("");
      expect(content.trimStart()).toBe(CONTENT);
      expect(events.at(-1)).toMatchObject({ type: "stop" });
      // Per action: the name first, then argument deltas that concatenate to its arguments.
      let at = -1;
      for (const [i, c] of CALLS.entries()) {
        const start = events.findIndex((e, j) => j > at && e.type === "action_start");
        const end = events.findIndex((e, j) => j > start && e.type === "action_end");
        const mine = events.slice(start, end);
        const firstStream = mine.findIndex(
          (e) => e.type === "tool_call_name" || e.type === "tool_call_arguments",
        );
        expect(mine[firstStream], `${t} call ${i}`).toEqual({ type: "tool_call_name", name: c.name });
        const args = mine.flatMap((e) => (e.type === "tool_call_arguments" ? [e.text] : [])).join("");
        expect(JSON.parse(args)).toEqual(c.arguments);
        at = end;
      }
    });
});
