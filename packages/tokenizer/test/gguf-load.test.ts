// Loading a GGUF from bytes, a file and a URL, with the one choice rule: the tiny byte-level GGUF
// of ./gguf-support.ts fits no native family, so `auto` gives its own template's tokenizer, which
// answers the same API as a family's (encodeText, countTokens, decode, encodeChat).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fromGguf, loadGgufUrl, TokenizerError } from "../src/index.ts";
import { loadAnyTokenizer, loadGgufFile, loadTokenizer, readGgufHeadMetadata } from "../src/node.ts";
import { type Kv, tinyGpt2Kvs, writeGguf } from "./gguf-support.ts";

const bytes = writeGguf(tinyGpt2Kvs());
let dir: string;
let path: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "chatwire-gguf-load-"));
  path = join(dir, "tiny.gguf");
  // Tensor data after the metadata: a reader must not need it.
  writeFileSync(path, Buffer.concat([Buffer.from(bytes), Buffer.alloc(1 << 20, 7)]));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const IM_START = 256 + 5 + 1;
const IM_END = 256 + 5 + 2;
const TOOL = 256 + 5 + 3;

describe("GGUF loading", () => {
  test("auto with no family and no template: unknown-format naming the GGUF itself", () => {
    const kvs = tinyGpt2Kvs().filter((kv) => kv.key !== "tokenizer.chat_template");
    let err: unknown;
    try {
      fromGguf(writeGguf(kvs), { file: "vocab.gguf" });
    } catch (e) {
      err = e;
    }
    expect(TokenizerError.isInstance(err)).toBe(true);
    const e = err as TokenizerError;
    expect(e.type).toBe("unknown-format");
    expect(e.fields.file).toBe("vocab.gguf");
    expect(e.message).toMatch(
      /^vocab\.gguf: cannot tell the chat format \(no tokenizer_class, and no family's tokens/,
    );
  });

  test("auto: no family fits, so the file's template; one API", () => {
    const tok = fromGguf(bytes);
    expect(tok.format).toBe("template");
    const chat = tok.encodeChat({ messages: [{ role: "user", content: "hello <|im_end|> <tool>" }] });
    expect(chat.ids[0]).toBe(IM_START);
    expect(chat.ids.filter((id) => id === IM_END)).toHaveLength(1);
    expect(chat.ids).not.toContain(TOOL);
    expect(chat.audit.map((a) => a.token)).toEqual(["<|im_end|>", "<tool>"]);
    const t = tok.encodeText("hello world <|im_end|>");
    expect(t.ids).not.toContain(IM_END);
    expect(t.audit).toHaveLength(1);
    expect(tok.countTokens("hello world <|im_end|>")).toBe(t.ids.length);
    expect(tok.decode(t.ids)).toBe("hello world <|im_end|>");
    expect(tok.decode(chat.ids, { specialTokens: "show" })).toBe(
      "<|im_start|>user\nhello <|im_end|> <tool><|im_end|>\n",
    );
    expect(tok.decode([IM_START, 104, 101])).toBe("he");
    expect(() => tok.encodeText("a <|im_end|>", { specialText: "reject" })).toThrow(TokenizerError);
    expect(() => tok.decode([99999])).toThrow(TokenizerError);
  });

  test("a family name the files do not fit is that family's error; unsupported types name the type", () => {
    expect(() => fromGguf(bytes, { format: "qwen3" })).toThrow(TokenizerError);
    const bert = writeGguf([
      { key: "tokenizer.ggml.model", type: "string", value: "bert" },
      { key: "tokenizer.ggml.tokens", type: "array", of: "string", value: ["[PAD]"] },
    ]);
    expect(() => fromGguf(bert)).toThrow(/"bert" is not supported/);
    const pre = writeGguf(
      tinyGpt2Kvs().map(
        (kv): Kv =>
          kv.key === "tokenizer.ggml.pre" ? { key: kv.key, type: "string", value: "no-such-pre" } : kv,
      ),
    );
    expect(() => fromGguf(pre)).toThrow(/tokenizer.ggml.pre "no-such-pre"/);
    const twice = writeGguf(
      tinyGpt2Kvs().map(
        (kv): Kv =>
          kv.key === "tokenizer.ggml.tokens" && kv.type === "array" && kv.of === "string"
            ? { ...kv, value: kv.value.map((t, i) => (i === 260 ? "hell" : t)) }
            : kv,
      ),
    );
    expect(() => fromGguf(twice)).toThrow(/holds "hell" twice \(IDs 258 and 260\)/);
  });

  test("Node: loadTokenizer(x.gguf) is native only; loadAnyTokenizer falls back to the template", async () => {
    const err = await loadTokenizer(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(TokenizerError.isInstance(err)).toBe(true);
    const any = await loadAnyTokenizer(path);
    expect(any.format).toBe("template");
    const t = await loadTokenizer(path, { format: "template" });
    expect(t.encodeText("hello").ids).toEqual(any.encodeText("hello").ids);
    const { metadata, head } = await readGgufHeadMetadata(path);
    expect(metadata.metadataEnd).toBe(bytes.length);
    expect(head.length).toBeLessThanOrEqual(bytes.length + (1 << 20));
    expect((await loadGgufFile(path)).vocabulary.type).toBe("gpt2");
    const missing = await loadAnyTokenizer(join(dir, "absent.gguf")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((missing as TokenizerError).type).toBe("file-not-found");
  });

  test("URL: Range requests growing until the metadata parses; a server ignoring Range; 404", async () => {
    const file = Buffer.concat([Buffer.from(bytes), Buffer.alloc(4096, 7)]);
    const ranges: string[] = [];
    const ranged = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const range = new Headers(init?.headers).get("range") ?? "";
      ranges.push(range);
      const m = /^bytes=0-(\d+)$/.exec(range);
      const end = m === null ? file.length : Math.min(file.length, Number(m[1]) + 1);
      return new Response(file.subarray(0, end), { status: m === null ? 200 : 206 });
    };
    const g = await loadGgufUrl("https://example.test/tiny.gguf", {
      fetch: ranged as typeof fetch,
      firstRange: 64,
    });
    expect(g.tokenizer.format).toBe("template");
    expect(ranges.length).toBeGreaterThan(2);
    expect(ranges[0]).toBe("bytes=0-63");
    expect(ranges[1]).toBe("bytes=0-255");
    const whole = async (): Promise<Response> => new Response(file, { status: 200 });
    expect(
      (await loadGgufUrl("https://example.test/x.gguf", { fetch: whole as typeof fetch })).vocabulary.type,
    ).toBe("gpt2");
    const gone = async (): Promise<Response> => new Response("no", { status: 404 });
    const err = await loadGgufUrl("https://example.test/x.gguf", { fetch: gone as typeof fetch }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as TokenizerError).type).toBe("file-not-found");
    const cut = async (): Promise<Response> => new Response(file.subarray(0, 100), { status: 200 });
    const bad = await loadGgufUrl("https://example.test/x.gguf", { fetch: cut as typeof fetch }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((bad as TokenizerError).type).toBe("bad-gguf-file");
  });
});
