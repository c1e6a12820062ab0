import { resolve } from "node:path";
import { cjkText, englishText, mixedText, type Rng, rng } from "./corpus.ts";
import { type FamilyModel, generatedReply, loadFamily, WRITE_FILE_TOOL } from "./family-fixtures.ts";
import { cachedJson, outDir } from "./fixtures.ts";
import { loadOurs } from "./ours.ts";

export const REALISTIC_VERSION = 1;
export type RealisticModel = "qwen3" | FamilyModel;
export const REALISTIC_MODELS: readonly RealisticModel[] = ["qwen3", "llama31", "deepseek-v3"];
export type RealisticKind = "realistic" | "bytesplit";

/** A stored generation (the fields the decoder workers read, like fixtures.ts's Fixture). */
export interface RealisticFixture {
  readonly version: number;
  readonly model: RealisticModel;
  readonly kind: RealisticKind;
  readonly n: number;
  readonly ids: number[];
  /** The text the reply was built from (reasoning, answer, call arguments). */
  readonly parts: ReadonlyArray<{ type: "text"; text: string }>;
}

type Tok = Awaited<ReturnType<typeof loadFamily>>;

const ZWJ_EMOJI = ["👩‍💻", "🧑‍🤝‍🧑", "👨‍👩‍👧‍👦", "🏳️‍🌈", "👩🏽‍🚀", "🧑🏿‍🔬", "❤️‍🔥", "🐻‍❄️"];
const OTHER_EMOJI = ["🇯🇵", "🇫🇷", "👍🏽", "🚀", "✅", "🤖", "🌧️", "🎉"];
const RARE_CJK = ["𠮷", "𩸽", "龘", "䲜", "𪚥", "齉", "𡈽", "鱻", "𠀋", "𨳒", "𤭢", "𫝆"];

function pick<T>(r: Rng, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

/** Emoji (a third ZWJ sequences) and rare CJK between ordinary CJK and English. */
function emojiAndRare(r: Rng, chars: number): string {
  let out = "";
  while (out.length < chars) {
    const x = r();
    if (x < 0.3) out += pick(r, ZWJ_EMOJI);
    else if (x < 0.55) out += pick(r, OTHER_EMOJI);
    else if (x < 0.85) out += pick(r, RARE_CJK);
    else out += x < 0.93 ? " " : "，";
  }
  return out;
}

/** The answer: markdown prose and code, CJK paragraphs, emoji and rare CJK sprinkled in. */
function answerText(r: Rng, chars: number): string {
  let out = "";
  while (out.length < chars) {
    const x = r();
    if (x < 0.45) out += englishText(r, 300);
    else if (x < 0.7) out += cjkText(r, 120);
    else if (x < 0.8) out += mixedText(r, 200);
    else out += emojiAndRare(r, 24);
    out += r() < 0.5 ? "\n\n" : " ";
  }
  return out;
}

/** The long call's arguments: a markdown file with CJK and emoji, ~460 IDs as JSON. */
function callArguments(r: Rng): { path: string; content: string } {
  return { path: "docs/release-notes.md", content: answerText(r, 1150).slice(0, 1150) };
}

function diff(tok: Tok, history: unknown[], reply: unknown, tools: unknown[] | undefined): number[] {
  return generatedReply(tok, history, reply, tools, "realistic fixture");
}

/** The generated IDs of one reply (reasoning, answer, call) as the family writes it. */
function replyIds(
  tok: Tok,
  model: RealisticModel,
  reasoning: string,
  answer: string,
  args: { path: string; content: string },
): number[] {
  const history = [{ role: "user", content: "Summarize the release and write the notes file." }];
  const call = { type: "function", function: { name: "write_file", arguments: args } };
  if (model === "qwen3") {
    const reply = { role: "assistant", reasoning_content: reasoning, content: answer, tool_calls: [call] };
    return diff(tok, history, reply, [WRITE_FILE_TOOL]);
  }
  // Families without a reasoning block: the reasoning is the first paragraphs of the text.
  const text = diff(tok, history, { role: "assistant", content: `${reasoning}\n\n${answer}` }, undefined);
  const end = text.pop();
  if (end === undefined) throw new Error(`realistic fixture ${model}: empty text reply`);
  if (model === "deepseek-v3") {
    const read = { type: "function", function: { name: "read_file", arguments: { path: "CHANGELOG.md" } } };
    const calls = diff(tok, history, { role: "assistant", content: null, tool_calls: [read, call] }, [
      WRITE_FILE_TOOL,
    ]);
    return [...text, ...calls];
  }
  return [...text, end];
}

let qwen3: Promise<Tok> | undefined;
/** The tokenizer a fixture is built with (loaded once per process: a build encodes many cuts). */
function loadFor(model: RealisticModel): Promise<Tok> {
  if (model !== "qwen3") return loadFamily(model);
  qwen3 ??= loadOurs("qwen3") as unknown as Promise<Tok>;
  return qwen3;
}

export async function buildRealisticFixture(
  model: RealisticModel,
  kind: RealisticKind,
  n: number,
): Promise<RealisticFixture> {
  const tok = await loadFor(model);
  const r = rng(9100 + REALISTIC_MODELS.indexOf(model) + (kind === "bytesplit" ? 50 : 0) + n);
  if (kind === "bytesplit") {
    // Emoji and rare CJK only, as one text span ending with the message end.
    const full = emojiAndRare(r, n * 2);
    const ids = Array.from(tok.encodeText(full).ids).slice(0, n);
    // The message end: the ID after the reply "x" in the family's rendering.
    const reply = diff(
      tok,
      [{ role: "user", content: "Emoji?" }],
      { role: "assistant", content: "x" },
      undefined,
    );
    const x = tok.encodeText("x").ids;
    ids[ids.length - 1] = reply[reply.lastIndexOf(x[x.length - 1] as number) + 1] as number;
    return { version: REALISTIC_VERSION, model, kind, n, ids, parts: [{ type: "text", text: full }] };
  }
  const reasoning = mixedText(r, Math.floor(n * 0.25 * 3.5)).trim();
  const args = callArguments(r);
  const fullAnswer = answerText(r, n * 5).trim();
  if (replyIds(tok, model, reasoning, fullAnswer, args).length < n)
    throw new Error(`realistic fixture ${model}/${n}: text too short`);
  let lo = 0;
  let hi = fullAnswer.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (replyIds(tok, model, reasoning, fullAnswer.slice(0, mid), args).length <= n) lo = mid;
    else hi = mid;
  }
  // A cut inside a surrogate pair would be a lone surrogate: step back one.
  const code = fullAnswer.charCodeAt(lo - 1);
  const answer = fullAnswer.slice(0, code >= 0xd800 && code <= 0xdbff ? lo - 1 : lo).trimEnd();
  const ids = replyIds(tok, model, reasoning, answer, args);
  return {
    version: REALISTIC_VERSION,
    model,
    kind,
    n,
    ids,
    parts: [
      { type: "text", text: reasoning },
      { type: "text", text: answer },
      { type: "text", text: JSON.stringify(args) },
    ],
  };
}

/** Builds (or reuses, if the stored one has this version) and returns the file path. */
export function ensureRealisticFixture(
  model: RealisticModel,
  kind: RealisticKind,
  n: number,
): Promise<string> {
  return cachedJson<RealisticFixture>(
    resolve(outDir, "fixtures", `${model}-${kind}-${n}.json`),
    (f) => f.version === REALISTIC_VERSION && f.n === n,
    () => buildRealisticFixture(model, kind, n),
  );
}
