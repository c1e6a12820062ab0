// The peers' own parse expectations (test-vectors/peer-parse/, README.md there) against today's
// template decoder. The vectors' schema is checked; the score is MEASURED, not asserted: the
// suite prints the per-format pass table and, with CHATWIRE_WRITE_PEER_TABLE=1, writes it to
// docs/output-formats.md. The scoring rules themselves (llama.cpp's comparison) are pinned on
// hand-written messages so the table cannot pass a case by a lax rule.
// The chat templates are read from ../shared (CHATWIRE_TEMPLATES, CHATWIRE_TEMPLATES_EXTRA).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  compareMessage,
  type Decoded,
  defaultNoneApplies,
  failureKind,
  formats,
  notApplicable,
  type PeerCase,
  peerFile,
  renderTable,
  sameJson,
  scoreFile,
  templateDir,
} from "../peer-parse/score.ts";

const repoRoot = resolve(import.meta.dirname, "../..");
const file = peerFile("llamacpp.json");
const fmt = formats();
const templatesPresent = Object.values(fmt.templates).every((e) =>
  existsSync(join(templateDir(e.template.dir), e.template.file)),
);

describe("peer-parse vectors: llama.cpp tests/test-chat.cpp", () => {
  it("records its source and has cases with the documented shape", () => {
    expect(file.source.licence).toBe("MIT");
    expect(file.source.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(file.source.revision).toMatch(/^[0-9a-f]{40}$/);
    expect(file.cases.length).toBeGreaterThan(300);
    const names = new Set<string>();
    for (const c of file.cases) {
      expect(typeof c.input).toBe("string");
      expect(typeof c.expect.content).toBe("string");
      expect(typeof c.expect.reasoning_content).toBe("string");
      for (const call of c.expect.tool_calls)
        expect(Object.keys(call).sort()).toEqual(["arguments", "id", "name"]);
      for (const t of c.tools) expect(typeof t.name).toBe("string");
      expect(names.has(c.name)).toBe(false);
      names.add(c.name);
    }
  });

  it("maps every case's template to a chat template and a vocabulary", () => {
    for (const c of file.cases) expect(fmt.templates[c.template], c.template).toBeDefined();
  });
});

describe("peer-parse scoring rules (llama.cpp assert_msg_equals, whitespace-insensitive)", () => {
  const expect1 = {
    content: "Hello",
    reasoning_content: "I'm\nthinking",
    tool_calls: [{ name: "f", arguments: '{"a": 1, "b": [true, null]}', id: "" }],
  };
  const got = (over: Partial<Decoded>): Decoded => ({
    content: "\nHello\n\n",
    reasoning: " I'm\nthinking\n",
    calls: [{ name: "f", arguments: { b: [true, null], a: 1 } }],
    errors: [],
    ...over,
  });
  it("strips both ends, compares arguments as JSON values", () => {
    expect(compareMessage(expect1, got({}))).toBeUndefined();
  });
  it("fails on inner whitespace, a wrong value, a missing call, a wrong name, an expected id", () => {
    expect(compareMessage(expect1, got({ content: "Hel lo" }))).toMatch(/^content/);
    expect(compareMessage(expect1, got({ reasoning: "I'm thinking" }))).toMatch(/^reasoning/);
    expect(
      compareMessage(expect1, got({ calls: [{ name: "f", arguments: { a: "1", b: [true, null] } }] })),
    ).toMatch(/arguments/);
    expect(compareMessage(expect1, got({ calls: [] }))).toMatch(/tool calls/);
    expect(
      compareMessage(expect1, got({ calls: [{ name: "g", arguments: { a: 1, b: [true, null] } }] })),
    ).toMatch(/name/);
    const withId = {
      ...expect1,
      tool_calls: [{ ...(expect1.tool_calls[0] as PeerCase["expect"]["tool_calls"][0]), id: "0" }],
    };
    expect(compareMessage(withId, got({}))).toMatch(/id/);
    const call = { name: "f", arguments: { a: 1, b: [true, null] } };
    expect(compareMessage(withId, got({ calls: [{ ...call, id: "0" }] }))).toBeUndefined();
    expect(compareMessage(withId, got({ calls: [{ ...call, id: "1" }] }))).toMatch(/id/);
    expect(compareMessage(expect1, got({ calls: [{ ...call, id: "0" }] }))).toMatch(/id/);
  });
  it("sameJson: key order free, types strict", () => {
    expect(sameJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: "1" })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: null }, {})).toBe(false);
  });
  it("a case without reasoning_format (llama.cpp's default none) is not scored when reasoning was read", () => {
    const base = file.cases[0] as PeerCase;
    const kept = { ...base, params: {}, expect: { ...base.expect, content: "<think>x</think>Hello" } };
    expect(defaultNoneApplies(kept, got({ reasoning: "x" }))).toMatch(/none by default/);
    // Content the decoder read as reasoning (the peer's content is exactly that text) is scored.
    const plain = { ...base, params: {}, expect: { ...base.expect, content: "x" } };
    expect(defaultNoneApplies(plain, got({ reasoning: "x" }))).toBeUndefined();
    // none ignores the reasoning block a prompt left open; the decoder, told of it, reads reasoning.
    expect(defaultNoneApplies(plain, got({ reasoning: "x" }), true)).toMatch(/open reasoning ignored/);
    expect(defaultNoneApplies(kept, got({ reasoning: " \n" }))).toBeUndefined();
    expect(defaultNoneApplies({ ...base, params: { reasoning_format: "auto" } }, got({}))).toBeUndefined();
  });
  it("classifies a failure by what differed first", () => {
    expect(failureKind(compareMessage(expect1, got({ content: "x" })) ?? "")).toBe("content");
    expect(failureKind(compareMessage(expect1, got({ calls: [] })) ?? "")).toBe("calls");
    expect(failureKind("load bad-tokenizer-file: x")).toBe("other");
  });
  it("does not score what the decoder cannot be asked", () => {
    const base = file.cases[0] as PeerCase;
    expect(notApplicable({ ...base, is_partial: true })).toMatch(/partial/);
    expect(notApplicable({ ...base, params: { continue_final_message: "content" } })).toMatch(/prefilled/);
    expect(notApplicable({ ...base, params: { reasoning_format: "none" } })).toMatch(/none/);
    expect(notApplicable({ ...base, is_partial: false, params: {} })).toBeUndefined();
  });
});

// Loading ~50 vocabularies and probing their templates takes minutes: the table is built on
// request only (CHATWIRE_PEER_TABLE=1 prints it, CHATWIRE_WRITE_PEER_TABLE=1 also writes it).
const wanted = process.env.CHATWIRE_PEER_TABLE === "1" || process.env.CHATWIRE_WRITE_PEER_TABLE === "1";

// CHATWIRE_PEER_FORMATS=LFM2,Gemma 4 scores only those formats (format names of formats.json,
// comma-separated) and prints their failures; the table is written only from a full run.
const only = (process.env.CHATWIRE_PEER_FORMATS ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter((s) => s !== "");

describe.runIf(wanted && templatesPresent)("peer-parse pass table (measured, not asserted)", () => {
  it("scores every case and writes the table on request", () => {
    const cases =
      only.length === 0
        ? file.cases
        : file.cases.filter((c) => only.includes(fmt.templates[c.template]?.format ?? ""));
    const scored = scoreFile({ ...file, cases }, fmt);
    const md = renderTable({ ...file, cases }, scored);
    const scoredCases = scored.rows.reduce((n, r) => n + r.scored + r.skipped, 0);
    expect(scoredCases).toBe(cases.length);
    if (process.env.CHATWIRE_WRITE_PEER_TABLE === "1" && only.length === 0)
      writeFileSync(join(repoRoot, "docs/output-formats.md"), md);
    const total = scored.rows.reduce((n, r) => n + r.scored, 0);
    const passed = scored.rows.reduce((n, r) => n + r.passed, 0);
    console.log(`peer-parse (llama.cpp): ${passed}/${total} cases pass`);
    if (only.length > 0)
      for (const f of scored.failures) console.log(`FAIL ${f.name} (line ${f.line}): ${f.why}`);
    const slow = [...scored.loadMs].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(`slowest template loads (ms): ${slow.map(([t, ms]) => `${t.slice(17)} ${ms}`).join(", ")}`);
  }, 900_000);
});

// The extractor on a hand-written excerpt in test-chat.cpp's dialect: each construct it reads,
// and a chain it cannot read, which must be reported rather than guessed.
const CPP = String.raw`
static common_chat_tool t1{
    /* .name = */ "t1",
    /* .description = */ "d",
    /* .parameters = */ R"({"type": "object", "properties": {"a": {"type": "integer"}}})",
};
static common_chat_msg simple_assist_msg(const std::string & content, const std::string & reasoning_content = "") {}
const common_chat_msg m_call = simple_assist_msg("", "", "t1", "{\"a\": 1}", "7");
static void test_template_output_peg_parsers(bool detailed_debug) {
    {
        auto tst = peg_tester("models/templates/A.jinja", detailed_debug);
        tst.test("x<tag>" "y\n\u00e9").tools({ t1 }).enable_thinking(false).expect(m_call).run();
        auto local = simple_assist_msg("C", "R");
        tst.test(R"#(raw "q")#").reasoning_format(COMMON_REASONING_FORMAT_DEEPSEEK).expect(local).run();
        tst.test("z").expect(unknown_helper("q")).run();
    }
    for (const auto & path : { "models/templates/B.jinja", "models/templates/C.jinja" }) {
        auto tst = peg_tester(path, detailed_debug);
        tst.test("w").is_partial(true).expect_tool_calls({ { "t1", R"({"a")", {} } }).run();
    }
}
`;

describe.runIf(spawnSync("python3", ["--version"]).status === 0)(
  "peer_parse_llamacpp.py on an excerpt",
  () => {
    it("reads literals, tools, messages, locals and loops; reports what it cannot read", () => {
      const dir = mkdtempSync(join(tmpdir(), "peer-parse-"));
      try {
        writeFileSync(join(dir, "t.cpp"), CPP);
        const gen = join(repoRoot, "test-vectors/gen/peer_parse_llamacpp.py");
        const run = spawnSync("python3", [
          gen,
          join(dir, "t.cpp"),
          join(dir, "o.json"),
          `--revision=${"a".repeat(40)}`,
        ]);
        expect(run.status, String(run.stderr)).toBe(0);
        const out = JSON.parse(readFileSync(join(dir, "o.json"), "utf8")) as {
          cases: PeerCase[];
          unreadable: { line: number; reason: string }[];
        };
        expect(out.cases.map((c) => c.name)).toEqual(["A#1", "A#2", "B#1", "C#1"]);
        const [a1, a2, b1] = out.cases as [PeerCase, PeerCase, PeerCase];
        expect(a1.input).toBe("x<tag>y\né");
        expect(a1.tools.map((t) => t.name)).toEqual(["t1"]);
        expect(a1.params).toEqual({ enable_thinking: false });
        expect(a1.expect).toEqual({
          content: "",
          reasoning_content: "",
          tool_calls: [{ name: "t1", arguments: '{"a": 1}', id: "7" }],
        });
        expect(a2.input).toBe('raw "q"');
        expect(a2.params).toEqual({ reasoning_format: "deepseek" });
        expect(a2.expect).toEqual({ content: "C", reasoning_content: "R", tool_calls: [] });
        expect(b1.is_partial).toBe(true);
        expect(b1.expect.tool_calls).toEqual([{ name: "t1", arguments: '{"a"', id: "" }]);
        expect(out.unreadable).toHaveLength(1);
        expect(out.unreadable[0]?.reason).toMatch(/unknown message helper unknown_helper/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
