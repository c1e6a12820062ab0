// Load-test clients (a separate process, so their memory is not the server's): N concurrent
// streaming chat requests over loopback with fetch, each parsing SSE itself. Some disconnect
// mid-stream on purpose. Prints ONE JSON line: per stream, what it reassembled and when.
//   node bench/serve/clients.js URL N MAX_TOKENS DISCONNECT_EVERY
const [url, nArg, maxArg, everyArg] = process.argv.slice(2);
const n = Number(nArg);
const maxTokens = Number(maxArg);
const every = Number(everyArg);

async function one(i) {
  const t0 = performance.now();
  const disconnectAfter = every > 0 && i % every === every - 1 ? 5 : -1;
  const ac = new AbortController();
  const r = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "bench",
      messages: [{ role: "user", content: `stream ${i}: what is the weather?` }],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: maxTokens,
      seed: i,
    }),
    signal: ac.signal,
  });
  const res = {
    i,
    status: r.status,
    ttftMs: -1,
    chunks: 0,
    content: "",
    reasoning: "",
    args: "",
    finish: null,
    usage: null,
    done: false,
    disconnected: false,
    ms: 0,
  };
  const dec = new TextDecoder();
  let buf = "";
  try {
    for await (const bytes of r.body) {
      buf += dec.decode(bytes, { stream: true });
      let k = buf.indexOf("\n\n");
      while (k !== -1) {
        const ev = buf.slice(0, k);
        buf = buf.slice(k + 2);
        k = buf.indexOf("\n\n");
        if (!ev.startsWith("data: ")) continue;
        const data = ev.slice(6);
        if (data === "[DONE]") {
          res.done = true;
          continue;
        }
        const c = JSON.parse(data);
        if (c.usage) res.usage = c.usage;
        const ch = c.choices[0];
        if (ch === undefined) continue;
        res.chunks++;
        const d = ch.delta;
        const piece = (d.content ?? "") + (d.reasoning_content ?? "");
        if (res.ttftMs < 0 && (piece !== "" || d.tool_calls)) res.ttftMs = performance.now() - t0;
        res.content += d.content ?? "";
        res.reasoning += d.reasoning_content ?? "";
        for (const t of d.tool_calls ?? []) res.args += t.function.arguments ?? "";
        if (ch.finish_reason) res.finish = ch.finish_reason;
        if (disconnectAfter > 0 && res.chunks >= disconnectAfter) {
          res.disconnected = true;
          ac.abort();
          throw new Error("disconnect");
        }
      }
    }
  } catch (e) {
    if (!res.disconnected) res.error = String(e);
  }
  res.ms = performance.now() - t0;
  return res;
}

const t0 = performance.now();
const results = await Promise.all(Array.from({ length: n }, (_, i) => one(i)));
process.stdout.write(`${JSON.stringify({ wallMs: performance.now() - t0, results })}\n`);
