// Shared by the table-cache suites: temporary directories removed after the file, the decode
// table in a form that compares fast, and what a caller observes of a loaded tokenizer.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll } from "vitest";
import type { DecodeTable } from "../src/models/text-model.ts";

/** A maker of fresh temporary directories (named `prefix`...), all removed after the file. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}

const sha256 = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex");

/**
 * Every field of a decode table, the large ones as SHA-256 digests of an exact serialization: two
 * tables digest equal exactly when their entries are equal, and a difference names the field.
 * (An element-by-element toEqual over a vocabulary of 262k IDs takes about a second per call.)
 */
export function decodeTableDigest(t: DecodeTable): Record<string, string | number> {
  const bytes = createHash("sha256");
  for (let id = 0; id < t.bytes.length; id++) {
    const b = t.bytes[id];
    if (b === undefined) continue;
    bytes.update(`${id}:${b.length}:`);
    bytes.update(b);
  }
  return {
    size: t.size,
    kind: sha256(t.kind),
    text: sha256(JSON.stringify(t.text)),
    textAtStart: sha256(JSON.stringify(t.textAtStart)),
    bytes: bytes.digest("hex"),
    byteLength:
      t.byteLength === undefined
        ? "none"
        : sha256(new Uint8Array(t.byteLength.buffer, t.byteLength.byteOffset, t.byteLength.byteLength)),
    invalidUtf8: t.invalidUtf8,
    startEnds: t.startEnds,
  };
}

/** The sample texts: code, CJK with emoji and a combining mark, the format's marker-like text, whitespace and rare ideographs. */
export function sampleTexts(markers: string): readonly string[] {
  return [
    "Hello, world!  def f(x):\n    return {'a': [1, 2]}\n",
    "你好，世界。日本語のテキスト 🎉🧑‍💻 é e\u0301 Ω",
    markers,
    "   leading spaces and\ttabs\r\n\u2581marks\u2581 and rare 𠀋𡈽 ideographs",
  ];
}

/** What observe() calls (a native-family or template tokenizer). */
interface Observed {
  encodeChat(request: {
    messages: { role: "user" | "assistant"; content: string }[];
    add_generation_prompt?: boolean;
  }): { ids: readonly number[]; spans?: unknown };
  encodeText(text: string): { ids: readonly number[] };
  decode(ids: readonly number[]): string;
}

/**
 * Everything a caller can observe of a tokenizer on `texts`: a chat of the first `turns` texts
 * (alternating user / assistant; `generationPrompt` adds the assistant's opening), its spans,
 * each text's IDs and their decode.
 */
export function observe(tok: Observed, texts: readonly string[], turns: number, generationPrompt: boolean) {
  const chat = tok.encodeChat({
    messages: texts.slice(0, turns).map((content, i) => ({
      role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content,
    })),
    ...(generationPrompt ? { add_generation_prompt: true } : {}),
  });
  const ids = texts.map((t) => tok.encodeText(t).ids);
  return { chat: chat.ids, spans: chat.spans, texts: ids, decoded: ids.map((i) => tok.decode(i)) };
}

/**
 * Damaged copies of a stored file: 1 to 8 bytes flipped (XOR with a non-zero byte), and with
 * `cut` the copy may also end early (any length).
 */
export function damagedCopies(file: Uint8Array, cut: boolean): fc.Arbitrary<Uint8Array> {
  const flips = fc.array(fc.tuple(fc.nat(file.length - 1), fc.integer({ min: 1, max: 255 })), {
    minLength: 1,
    maxLength: 8,
  });
  const end = cut ? fc.option(fc.nat(file.length), { nil: undefined }) : fc.constant(undefined);
  return fc.tuple(flips, end).map(([fs, at]) => {
    const damaged = new Uint8Array(file.subarray(0, at ?? file.length));
    for (const [i, x] of fs) if (i < damaged.length) damaged[i] = (damaged[i] as number) ^ x;
    return damaged;
  });
}
