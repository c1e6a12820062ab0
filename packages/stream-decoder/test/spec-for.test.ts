// compileDecoderSpecFor: the decoder spec from the LOADED tokenizer's verified registry and its
// family's grammar. The InternVL2 config (internvl2-2b-ft) adds <img> = 92544 and friends after
// the InternLM2 vocabulary: the registry knows them, so the decoder reports a reserved token,
// not an unknown one.
import { readFileSync } from "node:fs";
import { fromFiles } from "@chatwire/tokenizer";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { compileDecoderSpecFor } from "../src/index.ts";
import { run } from "./models.ts";

function internvl2() {
  return fromFiles({
    "tokenizer.model": readFileSync(fixturePath("internlm2/tokenizer.model")),
    "tokenizer_config.json": readFileSync(
      fixturePath("internlm2/internvl2-2b-ft/tokenizer_config.json"),
      "utf8",
    ),
  });
}

describe.skipIf(!haveFixtures())(
  "compileDecoderSpecFor: InternVL2's <img> (the loaded files' registry)",
  () => {
    it("92544 <img> is a reserved token of the registry and is reported as one", () => {
      const tok = internvl2();
      expect(tok.registry.nameById.get(92544)).toBe("<img>");
      expect(tok.family.name).toBe("internlm2");
      const spec = compileDecoderSpecFor(tok);
      const events = run(spec, [92544]);
      const errors = events.filter((e) => e.type === "error");
      expect(errors).toEqual([
        {
          type: "error",
          code: "unexpected-reserved-token",
          token: 92544,
          message: "reserved token <img> (92544) is not valid here",
        },
      ]);
    });
  },
);
