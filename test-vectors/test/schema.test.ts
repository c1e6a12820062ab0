// Always runs: every committed golden file parses, has the fixed schema, names its source,
// and holds vectors. Also pins facts about the references recorded in SOURCES.md.
import { describe, expect, it } from "vitest";
import { goldenFile, type Kind, MODELS, type ModelName, readJson, vectorsDir } from "./golden-files.ts";

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const isIds = (v: unknown): v is number[] =>
  Array.isArray(v) && v.every((x) => Number.isInteger(x) && x >= 0);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

const FIELDS: Record<Kind, Record<string, (v: unknown) => boolean>> = {
  text: {
    name: (v) => typeof v === "string",
    text: (v) => typeof v === "string",
    ids: isIds,
    pieces: isStrings,
    decoded: (v) => typeof v === "string",
    neutralized_ids: isIds,
    neutralized_pieces: isStrings,
  },
  decode: { name: (v) => typeof v === "string", ids: isIds, decoded: (v) => typeof v === "string" },
  chat: {
    name: (v) => typeof v === "string",
    request: isRec,
    rendered: (v) => typeof v === "string",
    ids: isIds,
  },
  request: {
    name: (v) => typeof v === "string",
    request: isRec,
    rendered: (v) => typeof v === "string",
    ids: isIds,
  },
};

function load(model: ModelName, kind: Kind): { doc: Rec; vectors: Rec[] } {
  const doc = readJson(goldenFile(model, kind));
  if (!isRec(doc) || !Array.isArray(doc.vectors)) throw new Error(`${model}.${kind}.json: no vectors array`);
  return { doc, vectors: doc.vectors.filter(isRec) };
}

function vector(model: ModelName, kind: Kind, name: string): Rec {
  const v = load(model, kind).vectors.find((x) => x.name === name);
  if (v === undefined) throw new Error(`${model}.${kind}.json has no vector ${name}`);
  return v;
}

describe("golden files: schema", () => {
  const inputs = readJson(`${vectorsDir}/inputs.json`) as { inputs: { name: string; text: string }[] };
  const conversations = readJson(`${vectorsDir}/conversations.json`) as {
    conversations: { name: string; format: string; request: Rec }[];
  };

  it("inputs.json and conversations.json have unique names", () => {
    const names = inputs.inputs.map((i) => i.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(40);
    const convNames = conversations.conversations.map((c) => c.name);
    expect(new Set(convNames).size).toBe(convNames.length);
  });

  for (const { name: model, kinds } of MODELS) {
    for (const kind of kinds) {
      it(`${model}.${kind}.json has the fixed schema`, () => {
        const { doc, vectors } = load(model, kind);
        expect(doc.model).toBe(model);
        const source = doc.source;
        expect(isRec(source)).toBe(true);
        if (!isRec(source)) return;
        for (const key of ["tool", "version", "file", "sha256"]) expect(typeof source[key]).toBe("string");
        expect(source.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(vectors.length).toBe((doc.vectors as unknown[]).length);
        expect(vectors.length).toBeGreaterThan(0);
        for (const v of vectors) {
          for (const [field, check] of Object.entries(FIELDS[kind])) {
            expect(check(v[field]), `${model}.${kind} ${String(v.name)}.${field}`).toBe(true);
          }
        }
        if (kind === "text") {
          expect(isIds(doc.reserved_ids)).toBe(true);
          expect(vectors.map((v) => v.name)).toEqual(inputs.inputs.map((i) => i.name));
          const reserved = new Set(doc.reserved_ids as number[]);
          for (const v of vectors) {
            expect(v.pieces).toHaveLength((v.ids as number[]).length);
            const leaked = (v.neutralized_ids as number[]).filter((id) => reserved.has(id) && id > 2);
            expect(leaked, `${model} ${String(v.name)} neutralized_ids hold reserved ids`).toEqual([]);
          }
        }
        if (kind === "decode") {
          expect(vectors.length).toBeGreaterThanOrEqual(300);
          for (const v of vectors) expect((v.ids as number[]).length).toBeLessThanOrEqual(40);
        }
        if (kind === "chat") {
          const expected = conversations.conversations.filter((c) => c.format === model).map((c) => c.name);
          expect(vectors.map((v) => v.name)).toEqual(expected);
        }
      });
    }
  }
});

describe("golden files: known reference facts (SOURCES.md)", () => {
  it("InternLM2", () => {
    expect(vector("internlm2", "text", "simple").ids).toEqual([9843, 2028]);
    expect(vector("internlm2", "text", "special_ilm_unused_chat").ids).toEqual([
      92543, 1008, 364, 6176, 92542, 364,
    ]);
    expect(vector("internlm2", "text", "chinese").ids).toEqual([77230, 60353, 68339]);
    expect(vector("internlm2", "text", "emoji").ids).toEqual([243, 162, 155, 131, 42023]);
    expect(vector("internlm2", "text", "newline_single").ids).toEqual([364]);
    expect(vector("internlm2", "text", "two_spaces_newline").ids).toEqual([
      387, 19963, 387, 43842, 402, 1069, 1198,
    ]);
    const chat = vector("internlm2", "chat", "ilm_single_turn");
    expect(chat.ids).toEqual([1, 92543, 1008, 364, 9843, 92542, 364, 92543, 525, 11353, 364]);
  });
  it("ChatGLM3", () => {
    expect(vector("chatglm3", "text", "simple").ids).toEqual([13755, 993]);
    expect(vector("chatglm3", "text", "chinese").ids).toEqual([36474, 54591, 31123, 31661]);
    expect(vector("chatglm3", "text", "emoji").ids).toEqual([30910, 31385, 767, 30914, 6670]);
    expect(vector("chatglm3", "text", "newline_single").ids).toEqual([30910, 13]);
    const v = vector("chatglm3", "text", "two_spaces_newline");
    expect(v.ids).toEqual([265, 769, 265, 1457, 1854, 13, 13, 1704, 1131]);
    expect(v.neutralized_ids).toEqual(v.ids);
    const chat = vector("chatglm3", "chat", "glm_single_turn").ids as number[];
    expect(chat.slice(0, 5)).toEqual([64790, 64792, 64795, 30910, 13]);
    expect(chat.at(-1)).toBe(64796);
  });
  it("Qwen3", () => {
    expect(vector("qwen3", "text", "simple").ids).toEqual([9707, 1879]);
    const chat = vector("qwen3", "chat", "qwen3_single_turn");
    expect(chat.ids).toEqual([151644, 872, 198, 9707, 151645, 198, 151644, 77091, 198]);
  });
});
