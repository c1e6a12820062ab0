// One long single "word" (peers.ts longWord: a run of CJK ideographs or of ASCII letters, one
// pre-token) encoded once by one library, in its own process: the rows that show quadratic
// growth in the merge of one pre-token. Libraries: ours (`encodeText`), tiktoken (WASM),
// js-tiktoken, gpt-tokenizer's BytePairEncodingCore (all with Qwen3's ranks, peers.ts). A warmup
// encode of a short word of the same kind first (JIT, lazy tables), then the one timed encode:
// CPU time (process.cpuUsage) and wall time. The driver caps each process's CPU time (ulimit -t)
// and skips the larger sizes of a library once one size went over the cap.
import { reply, request, SINK } from "../measure.ts";
import { loadOurs } from "../ours.ts";
import { loadPeer, longWord, type PeerLib, peerModules, preparePeerFiles } from "../peers.ts";

interface Req {
  lib: "ours" | PeerLib;
  kind: "cjk" | "ascii";
  chars: number;
}
const req = request<Req>();
let encode: (t: string) => number;
if (req.lib === "ours") {
  const tok = await loadOurs("qwen3");
  encode = (t) => tok.encodeText(t).ids.length;
} else {
  preparePeerFiles();
  const peer = loadPeer(req.lib, await peerModules());
  encode = (t) => peer.encode(t).length;
}
const word = longWord(req.kind, req.chars);
SINK.v += encode(longWord(req.kind, 64));
const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const n = encode(word);
const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
const c = process.cpuUsage(c0);
SINK.v += n;
reply({
  lib: req.lib,
  kind: req.kind,
  chars: req.chars,
  tokens: n,
  cpu_ms: (c.user + c.system) / 1000,
  wall_ms: wallMs,
});
