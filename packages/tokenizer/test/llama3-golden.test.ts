// The Llama 3.x renderers (src/families/llama3/render.ts) against the goldens of
// test-vectors/gen/family_llama3.js (Python jinja2 renders of the vendor templates, HF Rust
// tokenizers IDs), on the Llama 3.0 package vocabulary and the DERIVED Llama 3.1 one:
//   - benign requests: our IDs equal the reference IDs, our text rendering equals the reference
//     rendering, and a request the template rejects is refused (invalid-conversation);
//   - adversarial requests (every added-token string of either vocabulary inserted into every
//     caller string): our text rendering equals the reference rendering (sha256), our IDs decode
//     to it, and the reserved IDs are exactly those of the benign twin (the naive
//     render-then-tokenize pipeline forges thousands: naive_forged_total in the goldens).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { errorOf } from "./error-support.ts";
import {
  decodeShow,
  encode,
  type FamilyName,
  golden,
  insertToken,
  renderText,
  type VocabName,
  vocab,
} from "./llama3-support.ts";

const sha = (s: string): string => createHash("sha256").update(s).digest("hex").slice(0, 32);

const FAMILY_NAMES: FamilyName[] = ["llama3", "llama31"];
const VOCABS: VocabName[] = ["3.0", "3.1-derived"];

describe.each(FAMILY_NAMES)("%s: goldens of the vendor template", (family) => {
  const g = golden(family);

  it("has the vectors the generator wrote", () => {
    expect(g.family).toBe(family);
    expect(g.vectors.length).toBeGreaterThan(15);
    expect(g.vectors.every((b) => b.ids !== undefined && b.error === undefined)).toBe(true);
    expect(g.errors.every((b) => b.error !== undefined && b.ids === undefined)).toBe(true);
    expect(g.adversarial.length).toBeGreaterThan(200);
  });

  describe.each(VOCABS)("vocabulary %s", (vname) => {
    const v = vocab(vname);
    it.each([...g.vectors, ...g.errors].map((b) => [b.name, b] as const))("%s", (_name, b) => {
      if (b.error !== undefined) {
        expect(errorOf(() => encode(family, v, b.request)).type).toBe("invalid-conversation");
        return;
      }
      const want = vname === "3.1-derived" && b.ids31 !== undefined ? b.ids31 : b.ids;
      const got = encode(family, v, b.request);
      expect(renderText(family, v, b.request)).toBe(b.rendered);
      expect(decodeShow(v, got.ids)).toBe(b.rendered);
      expect(got.ids).toEqual(want);
    });

    it("adversarial: the reference rendering, with the benign twin's reserved IDs only", () => {
      const reservedOf = (ids: readonly number[]) => ids.filter((id) => v.names.has(id));
      let checked = 0;
      for (const a of g.adversarial) {
        const twin = g.vectors.find((b) => b.name === a.base);
        if (twin?.ids === undefined) throw new Error(`no benign twin ${a.base}`);
        const req = insertToken(twin.request, a.token);
        expect(sha(JSON.stringify(req)), `${a.base} + ${a.token}: request`).toBe(a.requestSha);
        if (a.error !== undefined) {
          expect(errorOf(() => encode(family, v, req)).type).toBe("invalid-conversation");
          continue;
        }
        const text = renderText(family, v, req);
        expect(sha(text), `${a.base} + ${a.token}: rendering`).toBe(a.renderedSha);
        const enc = encode(family, v, req);
        expect(sha(decodeShow(v, enc.ids)), `${a.base} + ${a.token}: decoded IDs`).toBe(a.renderedSha);
        expect(reservedOf(enc.ids), `${a.base} + ${a.token}: reserved IDs`).toEqual(reservedOf(twin.ids));
        checked++;
      }
      expect(checked).toBe(g.adversarial.length);
    });
  });
});
