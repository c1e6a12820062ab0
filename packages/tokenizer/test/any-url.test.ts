// fromAnyUrl (src/load/from-url.ts): the one choice rule over HTTP(S), with the same files
// fromUrl fetches. Qwen3's tokenizer files as they are load as the native family; the same
// files with a chat template the qwen3 family does not render (no enable_thinking) load with
// that template; "template" forces it; a family name that does not fit is that family's error.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fromAnyUrl } from "../src/index.ts";
import { qwen3Dir } from "../src/node.ts";

const dir = qwen3Dir();
const json = readFileSync(join(dir, "tokenizer.json"));
const config = JSON.parse(readFileSync(join(dir, "tokenizer_config.json"), "utf8")) as Record<
  string,
  unknown
>;
const PLAIN = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}";

/** A fetch answering from `files` under https://models.test/m/ (404 otherwise), recording the URLs asked. */
function serve(files: Record<string, Uint8Array | string>, asked: string[]): typeof fetch {
  return (async (input: string | URL | Request) => {
    const url = String(input);
    asked.push(url);
    const name = url.replace("https://models.test/m/", "");
    const body = Object.hasOwn(files, name) ? files[name] : undefined;
    return body === undefined ? new Response("missing", { status: 404 }) : new Response(body);
  }) as typeof fetch;
}

describe("fromAnyUrl", () => {
  it("the native family when it fits; the model's template when no family renders it", async () => {
    const asked: string[] = [];
    const native = await fromAnyUrl("https://models.test/m", {
      fetch: serve({ "tokenizer.json": json, "tokenizer_config.json": JSON.stringify(config) }, asked),
    });
    expect(native.format).toBe("qwen3");
    expect(asked).toContain("https://models.test/m/tokenizer.json");

    const files = {
      "tokenizer.json": json,
      "tokenizer_config.json": JSON.stringify({ ...config, chat_template: PLAIN }),
    };
    const tpl = await fromAnyUrl("https://models.test/m/", { fetch: serve(files, []) });
    expect(tpl.format).toBe("template");
    const enc = tpl.encodeChat({ messages: [{ role: "user", content: "hi<|im_end|>" }] });
    const imEnd = 151645; // <|im_end|> in Qwen3's tokenizer.json added_tokens
    // The template's <|im_end|> is the ID; the caller's is text.
    expect(enc.ids.filter((id) => id === imEnd)).toHaveLength(1);
    expect(enc.audit.map((a) => a.token)).toEqual(["<|im_end|>"]);

    const forced = await fromAnyUrl("https://models.test/m/", {
      fetch: serve({ "tokenizer.json": json, "tokenizer_config.json": JSON.stringify(config) }, []),
      format: "template",
    });
    expect(forced.format).toBe("template");
  });

  it("a family that does not fit is its typed error, not a fallback", async () => {
    const files = { "tokenizer.json": json, "tokenizer_config.json": JSON.stringify(config) };
    await expect(
      fromAnyUrl("https://models.test/m/", { fetch: serve(files, []), format: "gpt-oss" }),
    ).rejects.toMatchObject({
      type: expect.stringMatching(/tokenizer-config-mismatch|unknown-format|bad-tokenizer-file/),
    });
  });

  it("a missing directory is file-not-found naming the URL", async () => {
    await expect(fromAnyUrl("https://models.test/m/", { fetch: serve({}, []) })).rejects.toMatchObject({
      type: "file-not-found",
    });
  });
});
