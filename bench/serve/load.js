#!/usr/bin/env node
// Bounded loopback load test of the chatwire server:
//   node bench/serve/load.js [--quick]      (needs the built dist/: `pnpm run build`)
// Method: the server runs IN THIS process (packages/server/dist, node:http on 127.0.0.1) over an
// engine wrapped by a tap that records the IDs it yields per prompt; the clients run in a
// SEPARATE process (bench/serve/clients.js: fetch + SSE parsing), so the server's memory is
// measured alone. Per scenario: N concurrent streams, every 4th client disconnects after 5
// chunks. Reported:
//   - TTFT added by chatwire, p50/p99: the server's own log field chatwire_ttft_ms = request
//     read + encode time + (first output chunk written - arrival of the engine batch that
//     produced it): what chatwire adds before the client sees output, excluding engine time
//     (prefill, IDs with no visible output such as a lone <think>) and queue wait;
//   - client-side TTFT p50/p99 (includes the engine);
//   - tokens/s: completion tokens (server log) / wall time, all streams together;
//   - memory per open stream: (heapUsed 100 ms after every slot was first busy - idle after
//     warm-up) / streams open at that moment, both right after a forced GC (node --expose-gc;
//     the script re-runs itself with it): the JS memory open streams retain, not garbage. RSS and
//     external memory are not reported: after a forced GC they fell below the idle values (V8
//     and the warm-up's freed buffers returned pages), so their deltas were noise;
//   - loss/duplication: for every finished stream, content + reasoning + tool-call arguments
//     must equal a fresh decoder's account of the tapped IDs (reference, no HTTP); for
//     disconnected streams, what arrived must be a prefix of it; after each scenario no slot is
//     active or queued (stats()).
// Engines: replay (the built-in Qwen3 script, 5 ms between IDs) and node-llama-cpp on the tiny
// GGUF (scripts/make-tiny-gguf.js; 1 thread; random tokens). Writes bench/serve/results.json and
// bench/serve/RESULTS.md (table). --quick: fewer/lower N.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  builtinReplayScript,
  createChatwireServer,
  createLlamaCppEngine,
  createReplayEngine,
} from "../../packages/server/dist/index.js";
import {
  compileDecoderSpecFor,
  createDecoder,
  eventCollector,
} from "../../packages/stream-decoder/dist/index.js";
import { loadTokenizerSync } from "../../packages/tokenizer/dist/node.js";

// Memory is measured after a forced GC: re-run with --expose-gc when it is missing.
if (typeof globalThis.gc !== "function") {
  const r = spawnSync(process.execPath, ["--expose-gc", ...process.argv.slice(1)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const quick = process.argv.includes("--quick");
const tok = loadTokenizerSync("qwen3");
const spec = compileDecoderSpecFor(tok);

function tap(engine) {
  const byPrompt = new Map();
  return {
    byPrompt,
    engine: {
      name: engine.name,
      close: () => engine.close(),
      async *generate(req) {
        const ids = [];
        byPrompt.set(req.promptIds.join(","), ids);
        for await (const b of engine.generate(req)) {
          ids.push(...b);
          yield b;
        }
      },
    },
  };
}

function reference(ids, maxTokens) {
  const c = eventCollector();
  const d = createDecoder(spec, c, { maxTokens, streamToolCalls: true });
  for (const id of ids) {
    d.push(id);
    if (d.stopped) break;
  }
  d.end();
  let content = "";
  let reasoning = "";
  let args = "";
  let inCall = false;
  const held = [];
  for (const e of c.events) {
    if (e.type === "text") content += e.text;
    else if (e.type === "reasoning") reasoning += e.text;
    else if (e.type === "action_start") {
      inCall = e.kind === "tool_call";
      held.length = 0;
      if (!inCall) continue;
    } else if (e.type === "action_text" && !inCall) content += e.text;
    else if (e.type === "tool_call_arguments" && inCall) held.push(e.text);
    else if (e.type === "action_end" && inCall) {
      // The server's hold-per-call policy: parsed calls send their arguments, malformed ones
      // their raw text as content.
      if (e.call) {
        const j = held.join("");
        let ok = false;
        try {
          const v = JSON.parse(j);
          ok = typeof v === "object" && v !== null && !Array.isArray(v);
        } catch {}
        args += ok ? j : JSON.stringify(e.call.arguments);
      } else content += e.raw;
      inCall = false;
    }
  }
  return { content, reasoning, args };
}

const pct = (xs, p) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const round = (x, d = 1) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);

async function scenario({ name, engine, n, maxTokens, maxConcurrent }) {
  const logs = [];
  const t = tap(engine);
  const server = createChatwireServer({
    tokenizer: tok,
    engine: t.engine,
    modelId: "bench",
    // The reference account below models per-call tool-call deltas (a call broken after its
    // header would count as a mismatch under the incremental default): measure that policy.
    toolCallStreaming: "per-call",
    limits: { maxConcurrent, maxQueue: 1024, maxModelLen: 4096 },
    log: (l) => logs.push(l),
  });
  const url = await server.listen(0);
  // warm-up (JIT, first allocation of everything): a few streamed requests, then the idle baseline
  for (let i = 0; i < 5; i++)
    await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "bench",
        messages: [{ role: "user", content: `warm up ${i}` }],
        max_tokens: 16,
        stream: true,
      }),
    }).then((r) => r.text());
  logs.length = 0;
  await new Promise((r) => setTimeout(r, 50));
  globalThis.gc();
  const idle = process.memoryUsage();
  let peakActive = 0;
  let atPeak = idle;
  let sampledAt = 0;
  // Once, when every slot is busy: a forced GC, then memory = what the open streams retain.
  const sampler = setInterval(() => {
    const a = server.stats().active;
    if (a > peakActive) {
      peakActive = a;
      if (a === Math.min(n, maxConcurrent)) {
        clearInterval(sampler);
        // 100 ms later (after the first tokens went out, so the GC pause does not land in the
        // TTFT numbers), divided by the streams open at that moment.
        setTimeout(() => {
          globalThis.gc();
          atPeak = process.memoryUsage();
          sampledAt = server.stats().active;
        }, 100);
      }
    }
  }, 2);
  const child = spawn(process.execPath, [join(here, "clients.js"), url, String(n), String(maxTokens), "4"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (c) => {
    out += c;
  });
  await new Promise((r) => child.once("exit", r));
  clearInterval(sampler);
  const { wallMs, results } = JSON.parse(out.trim().split("\n").at(-1));
  for (let i = 0; i < 100 && (server.stats().active > 0 || logs.length < n); i++)
    await new Promise((r) => setTimeout(r, 10));
  const leaked = server.stats();
  await server.close();

  let lost = 0;
  let checked = 0;
  let prefixChecked = 0;
  for (const r of results) {
    const prompt = tok.encodeChat({
      messages: [{ role: "user", content: `stream ${r.i}: what is the weather?` }],
    }).ids;
    const ids = t.byPrompt.get(prompt.join(","));
    if (ids === undefined) {
      lost++;
      continue;
    }
    const ref = reference(ids, maxTokens);
    if (r.disconnected) {
      prefixChecked++;
      if (
        !ref.content.startsWith(r.content) ||
        !ref.reasoning.startsWith(r.reasoning) ||
        !ref.args.startsWith(r.args)
      )
        lost++;
    } else {
      checked++;
      if (!r.done || r.content !== ref.content || r.reasoning !== ref.reasoning || r.args !== ref.args)
        lost++;
    }
  }
  const done = logs.filter((l) => l.status === 200);
  const tokens = logs.reduce((s, l) => s + (l.completion_tokens ?? 0), 0);
  const added = done.map((l) => l.chatwire_ttft_ms).filter((x) => typeof x === "number");
  const clientTtft = results.filter((r) => r.ttftMs >= 0).map((r) => r.ttftMs);
  const row = {
    name,
    engine: engine.name,
    streams: n,
    maxConcurrent,
    maxTokens,
    completed: checked,
    disconnected: prefixChecked,
    mismatches: lost,
    leakedActive: leaked.active,
    leakedQueued: leaked.queued,
    chatwireTtftP50Ms: round(pct(added, 50), 2),
    chatwireTtftP99Ms: round(pct(added, 99), 2),
    clientTtftP50Ms: round(pct(clientTtft, 50)),
    clientTtftP99Ms: round(pct(clientTtft, 99)),
    tokensPerSec: round((tokens / wallMs) * 1000, 0),
    peakOpenStreams: peakActive,
    memorySampledAt: sampledAt,
    heapPerStreamKB: sampledAt > 0 ? round((atPeak.heapUsed - idle.heapUsed) / sampledAt / 1024, 1) : null,
    externalPerStreamKB:
      sampledAt > 0
        ? round(
            (atPeak.external + atPeak.arrayBuffers - idle.external - idle.arrayBuffers) / sampledAt / 1024,
            1,
          )
        : null,
  };
  process.stderr.write(`${JSON.stringify(row)}\n`);
  return row;
}

const rows = [];
const script = builtinReplayScript(tok);
for (const n of quick ? [8, 32] : [1, 16, 64, 128]) {
  rows.push(
    await scenario({
      name: `replay x${n}`,
      engine: createReplayEngine({ script: () => script, delayMs: 5 }),
      n,
      maxTokens: 512,
      maxConcurrent: n,
    }),
  );
}
const gguf = join(mkdtempSync(join(tmpdir(), "chatwire-bench-")), "tiny.gguf");
const g = spawnSync(process.execPath, [join(root, "scripts/make-tiny-gguf.js"), gguf], { encoding: "utf8" });
if (g.status === 0 && existsSync(gguf)) {
  for (const [n, c] of quick
    ? [[4, 4]]
    : [
        [4, 4],
        [16, 4],
      ]) {
    const llama = await createLlamaCppEngine({
      modelPath: gguf,
      sequences: c,
      contextSize: 1024,
      threads: 1,
    });
    rows.push(
      await scenario({
        name: `tiny GGUF x${n} (${c} slots)`,
        engine: llama,
        n,
        maxTokens: 48,
        maxConcurrent: c,
      }),
    );
    await llama.close();
  }
} else process.stderr.write(`tiny GGUF not generated: ${g.stderr}\n`);

const os = await import("node:os");
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  quick,
  cpus: os.cpus().length,
  loadavg1m: round(os.loadavg()[0] ?? 0, 2),
};
writeFileSync(join(here, "results.json"), `${JSON.stringify({ meta, rows }, null, 2)}\n`);
const cols = [
  ["scenario", (r) => r.name],
  ["streams", (r) => r.streams],
  ["done / cut", (r) => `${r.completed} / ${r.disconnected}`],
  ["mismatch", (r) => r.mismatches],
  ["leaked slots", (r) => r.leakedActive + r.leakedQueued],
  ["chatwire TTFT p50 / p99 ms", (r) => `${r.chatwireTtftP50Ms} / ${r.chatwireTtftP99Ms}`],
  ["client TTFT p50 / p99 ms", (r) => `${r.clientTtftP50Ms} / ${r.clientTtftP99Ms}`],
  ["tokens/s", (r) => r.tokensPerSec],
  ["JS heap per open stream KB", (r) => r.heapPerStreamKB],
];
const table = [
  `| ${cols.map((c) => c[0]).join(" | ")} |`,
  `|${cols.map(() => "---").join("|")}|`,
  ...rows.map((r) => `| ${cols.map((c) => c[1](r)).join(" | ")} |`),
].join("\n");
writeFileSync(
  join(here, "RESULTS.md"),
  `# chatwire serve load test\n\nGenerated by \`node bench/serve/load.js${quick ? " --quick" : ""}\` on ${meta.date} (Node ${meta.node}, ${meta.cpus} shared cores, 1-minute load average ${meta.loadavg1m} at the end: other jobs ran on the machine, so treat absolute times as noisy; loopback). Method: header of bench/serve/load.js.\n\n${table}\n\nReading: "done / cut" = streams that ran to [DONE] / streams whose client disconnected after 5 chunks (every 4th); "mismatch" counts streams whose reassembled content + reasoning + tool-call arguments differ from a fresh decoder's account of the IDs the engine produced for that prompt (for cut streams: are not a prefix of it); "leaked slots" = slots active or queued after the run. chatwire TTFT starts when the request handler runs, so it excludes connection accept / HTTP parsing under a burst and the engine's own time; client TTFT includes everything (the replay script needs two engine steps, <think> then text, 5 ms each, before any visible output; a cold fetch connection in the clients process). tokens/s counts all streams together; the tiny GGUF runs llama.cpp on 1 thread, so x16 on 4 slots queues (client TTFT = waiting for a slot).\n`,
);
process.stdout.write(`${table}\n`);
const bad = rows.filter((r) => r.mismatches > 0 || r.leakedActive + r.leakedQueued > 0);
process.exitCode = bad.length === 0 ? 0 : 1;
