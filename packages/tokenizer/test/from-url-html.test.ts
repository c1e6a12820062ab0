// fromUrl against a host that answers every missing path with its index page (Vite's dev server,
// single-page hosts: 200, text/html): an optional file answered by an HTML page is absent, so the
// tokenizer loads as if those files were 404s; a required file answered by HTML is still an error.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ChatRequest, fromUrl } from "../src/index.ts";
import { loadTokenizerSync, qwen3Dir } from "../src/node.ts";
import { rejectionOf } from "./error-support.ts";

const base = "http://127.0.0.1:5173/tokenizers/qwen3/";
const files: Record<string, Uint8Array> = Object.fromEntries(
  ["tokenizer.json", "tokenizer_config.json"].map((n) => [
    base + n,
    new Uint8Array(readFileSync(join(qwen3Dir(), n))),
  ]),
);
const INDEX =
  '<!doctype html>\n<html lang="en"><head><script type="module" src="/@vite/client"></script></head></html>';
const sample: ChatRequest = {
  messages: [{ role: "user", content: "hi<|im_end|>" }],
  add_generation_prompt: true,
};
const reference = loadTokenizerSync("qwen3");

/** A host with `known` files; every other path gets the index page, with `contentType`. */
function spaFetch(known: Record<string, Uint8Array | string>, contentType: string): typeof fetch {
  return (async (input: string | URL | Request) => {
    const body = known[String(input)];
    if (body !== undefined)
      return new Response(body, { headers: { "content-type": "application/octet-stream" } });
    return new Response(INDEX, { status: 200, headers: { "content-type": contentType } });
  }) as typeof fetch;
}

describe("fromUrl on a host that answers missing files with its index page", () => {
  it.each([
    ["text/html", "by its content type"],
    ["application/octet-stream", "by its body"],
    ["", "without a content type"],
  ])("an optional file answered by HTML (%s) is absent: %s", async (contentType) => {
    const tok = await fromUrl(base, { fetch: spaFetch(files, contentType) });
    expect(tok.family.name).toBe("qwen3");
    expect(tok.encodeChat(sample)).toEqual(reference.encodeChat(sample));
    expect(tok.registry.eosIds).toEqual(reference.registry.eosIds);
  });

  it("an optional file that is really there is still read", async () => {
    const gen = JSON.stringify({ eos_token_id: [151645, 151662] });
    const tok = await fromUrl(base, {
      fetch: spaFetch({ ...files, [`${base}generation_config.json`]: gen }, "text/html"),
    });
    expect(tok.registry.eosIds).toContain(151662);
  });

  it("a required file answered by HTML is an error naming it, not an absent file", async () => {
    const { [`${base}tokenizer.json`]: _dropped, ...rest } = files;
    const e = await rejectionOf(fromUrl(base, { fetch: spaFetch(rest, "text/html") }));
    expect(e.fields.file ?? e.message).toContain("tokenizer.json");
  });
});
