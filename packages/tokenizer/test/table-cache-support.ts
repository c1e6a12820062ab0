// Shared by the table-cache suites: temporary directories removed after the file, the decode
// table in a form that compares fast, what a caller observes of a loaded tokenizer, random
// damage to a table file, and the check that the cache ignores a stored file.
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, expect } from "vitest";
import type { DecodeTable } from "../src/models/text-model.ts";
import { openTableCacheFor } from "../src/node/table-cache.ts";

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

/** The table files (`<digest>.cwtables`) in a cache directory. */
export const tableEntries = (cache: string): string[] =>
  readdirSync(cache).filter((n) => n.endsWith(".cwtables"));

/**
 * `load` into the empty cache directory `cache` twice: the first load writes one table file, the
 * second reads it (the same file: an entry a load cannot use is written again, a new inode).
 */
export async function loadedTwice<T>(load: (cacheDir: string) => Promise<T>, cache: string): Promise<[T, T]> {
  const first = await load(cache);
  const entries = tableEntries(cache);
  expect(entries).toHaveLength(1);
  const entry = join(cache, entries[0] as string);
  const before = statSync(entry);
  const second = await load(cache);
  expect(statSync(entry).ino).toBe(before.ino);
  return [first, second];
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
 * Asserts that the cache ignores the stored table file at `path` (a `<digest>.cwtables` in a
 * cache directory): its session offers no bytes. A load takes a stored file only through that
 * session (src/node/directory.ts), and one without bytes builds from the model files and stores a
 * fresh file whatever the bad one held, so a bad file needs no load of its own to show it is not
 * used (each suite still loads over one bad file whole).
 */
export function expectIgnoredEntry(path: string, what?: string): void {
  const source = basename(path).replace(/\.cwtables$/, "");
  const session = openTableCacheFor(source, { cacheDir: dirname(path), prebuiltTables: false });
  expect(session, what).toBeDefined();
  expect(session?.tables.bytes, what).toBeUndefined();
  expect(session?.tables.verified, what).toBe(false);
}

/** Damage to a file: bytes XORed with a non-zero mask, and the length it is cut to (undefined: whole). */
export interface Damage {
  readonly flips: readonly (readonly [index: number, mask: number])[];
  readonly end: number | undefined;
}

/**
 * Damage to a file of `length` bytes: 1 to 8 bytes flipped, and with `cut` the file may also end
 * early (any length). The flip lists, not the damaged bytes, are the values: a counterexample
 * prints short, and withDamage applies one to the file in place.
 */
function damage(length: number, cut: boolean): fc.Arbitrary<Damage> {
  const flips = fc.array(fc.tuple(fc.nat(length - 1), fc.integer({ min: 1, max: 255 })), {
    minLength: 1,
    maxLength: 8,
  });
  const end = cut ? fc.option(fc.nat(length), { nil: undefined }) : fc.constant(undefined);
  return fc.tuple(flips, end).map(([fs, at]) => ({ flips: fs, end: at }));
}

/**
 * `use` of `file` with `d` applied: flipped in place and flipped back afterwards (a copy of a
 * large file per run costs more than the read it feeds), a cut one as a fresh copy of that length
 * (a view would leave the bytes after the cut readable to a reader that overruns it). The bytes
 * are handed on as a new view: table-file.ts caches a read by the Uint8Array object.
 */
function withDamage<T>(file: Uint8Array, d: Damage, use: (damaged: Uint8Array) => T): T {
  if (d.end !== undefined) return use(applied(file, d));
  const flip = () => {
    for (const [i, x] of d.flips) file[i] = (file[i] as number) ^ x;
  };
  flip();
  try {
    return use(file.subarray(0));
  } finally {
    flip();
  }
}

/**
 * fc.assert of `check` over damage() to `file` (withDamage), then a check that `file` is as
 * before: every run takes its damage in place, so a run that wrote to it would leave the later
 * runs checking other bytes.
 */
export function assertUnderDamage(
  file: Uint8Array,
  cut: boolean,
  check: (damaged: Uint8Array) => void,
  params: fc.Parameters<[Damage]>,
): void {
  const before = sha256(file);
  fc.assert(
    fc.property(damage(file.length, cut), (d) => withDamage(file, d, check)),
    params,
  );
  expect(sha256(file), "the file after the damaged runs").toBe(before);
}

function applied(file: Uint8Array, { flips, end }: Damage): Uint8Array {
  const damaged = new Uint8Array(file.subarray(0, end ?? file.length));
  for (const [i, x] of flips) if (i < damaged.length) damaged[i] = (damaged[i] as number) ^ x;
  return damaged;
}

/** Damaged copies of a stored file (damage(), each applied to a fresh copy). */
export function damagedCopies(file: Uint8Array, cut: boolean): fc.Arbitrary<Uint8Array> {
  return damage(file.length, cut).map((d) => applied(file, d));
}
