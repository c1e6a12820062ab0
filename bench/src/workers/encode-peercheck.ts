// Before any peer is timed: do the rank-based peers (tiktoken WASM, js-tiktoken, gpt-tokenizer's
// BytePairEncodingCore, each loaded with Qwen3's ranks, peers.ts) give exactly the reference's IDs?
// The reference is HF Rust `tokenizers` on Qwen3's tokenizer.json (NFC normalizer included).
// Every document of the mixed corpus (the full run: all parts, also the ones only our chat/raw
// pairs encode; the quick run: the parts the peers time), of the cold corpus (likewise), and the
// long words of the quadratic rows at the smallest size, compared
// token for token; the answer names, per peer, the number of texts and characters compared and
// the first difference (text index, token index, both IDs) or null. The driver drops every peer
// with a difference from the timed rows. Runs in its own process so no timed process has seen
// the corpus before its rounds.
import { readFileSync } from "node:fs";
import tokenizers from "tokenizers";
import { qwen3TokenizerJson } from "../fixtures.ts";
import { reply, request } from "../measure.ts";
import { loadPeer, longWord, PEER_LIBS, type PeerLib, peerModules, preparePeerFiles } from "../peers.ts";

interface Req {
  corpus: string;
  cold?: string;
  /** Corpus parts to compare (from 0): at least the ones the peers time; all when absent. */
  parts?: number;
  longWordChars: number;
}
const req = request<Req>();
const take = (file: string): string[] => {
  const all = JSON.parse(readFileSync(file, "utf8")) as string[][];
  return (req.parts === undefined ? all : all.slice(0, req.parts)).flat();
};
const texts: string[] = take(req.corpus);
if (req.cold !== undefined) texts.push(...take(req.cold));
texts.push(longWord("cjk", req.longWordChars), longWord("ascii", req.longWordChars));
const chars = texts.reduce((a, t) => a + t.length, 0);

const out0: Record<string, number> = {};
const ref = tokenizers.Tokenizer.fromFile(qwen3TokenizerJson());
const refIds: number[][] = [];
const tRef = performance.now();
for (const t of texts) refIds.push((await ref.encode(t, null, { addSpecialTokens: false })).getIds());
out0.reference_s = (performance.now() - tRef) / 1000;

preparePeerFiles();
const mods = await peerModules();
const out: Record<string, unknown> = {
  texts: texts.length,
  chars,
  reference: "HF Rust tokenizers (npm tokenizers)",
  ...out0,
};
for (const lib of PEER_LIBS) {
  const key = lib.replace("-", "_");
  let firstDiff: { text: number; token: number; ref: number | null; peer: number | null } | null = null;
  let error: string | null = null;
  const t0 = performance.now();
  try {
    const peer = loadPeer(lib as PeerLib, mods);
    for (let i = 0; i < texts.length && firstDiff === null; i++) {
      const got = peer.encode(texts[i] as string);
      const want = refIds[i] as number[];
      const n = Math.max(got.length, want.length);
      for (let k = 0; k < n; k++) {
        if (got[k] !== want[k]) {
          firstDiff = { text: i, token: k, ref: want[k] ?? null, peer: got[k] ?? null };
          break;
        }
      }
    }
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const seconds = (performance.now() - t0) / 1000;
  out[key] = { identical: firstDiff === null && error === null, first_difference: firstDiff, error, seconds };
  process.stderr.write(
    `peer check ${lib}: ${firstDiff === null && error === null ? "identical" : "DIFFERS"}\n`,
  );
}
reply(out);
