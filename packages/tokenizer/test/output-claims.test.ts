// Each output-format recognizer claims its own templates of ../shared and no other: the derived
// output name of every shared template over one small vocabulary (./output-claims-support.ts),
// filtered by what the recognizer writes into the name. One row per recognizer; a row is skipped
// when the peer-parse templates it needs are not in ../shared (CHATWIRE_TEMPLATES,
// CHATWIRE_TEMPLATES_EXTRA).
import { describe, expect, it } from "vitest";
import { formats } from "../../../test-vectors/peer-parse/score.ts";
import { claimedBy, entryPresent } from "./output-claims-support.ts";

interface Claim {
  readonly recognizer: string;
  /** The peer-parse entries whose templates the row needs. */
  readonly keys: readonly string[];
  /** What the recognizer writes into a derived output name. */
  readonly fragment: string;
  /** Match "file: name" instead of the file alone. */
  readonly withName?: boolean;
  readonly claimed: readonly string[];
}

const GEMMA4 = [
  "templates-extra/llamacpp-google-gemma-4-31B-it-interleaved.jinja",
  "templates-extra/llamacpp-google-gemma-4-31B-it.jinja",
];

const CLAIMS: readonly Claim[] = [
  {
    recognizer: "call-turn (GigaChat 3.0)",
    keys: ["models/templates/GigaChat3-10B-A1.8B.jinja"],
    fragment: "call turn",
    claimed: ["templates-extra/llamacpp-GigaChat3-10B-A1.8B.jinja"],
  },
  {
    // The minja variant writes a call's arguments by string concatenation (`'>' + arguments`):
    // the probe's arguments are objects, so its renderings are not JSON and it is not claimed.
    recognizer: "function-tag (Functionary v3.1)",
    keys: ["models/templates/meetkai-functionary-medium-v3.1.jinja"],
    fragment: "<function=",
    claimed: ["templates-extra/llamacpp-meetkai-functionary-medium-v3.1.jinja"],
  },
  {
    recognizer: "marker-quoted-call (Gemma 4)",
    keys: ["models/templates/google-gemma-4-31B-it.jinja"],
    fragment: "marker-quoted call",
    claimed: GEMMA4,
  },
  {
    recognizer: "python-call-list (LFM2)",
    keys: Object.entries(formats().templates)
      .filter(([, e]) => e.format === "LFM2")
      .map(([key]) => key),
    fragment: "Python call list",
    claimed: [
      "templates-extra/hfjs-LiquidAI-LFM2.5-VL-450M.jinja",
      "templates-extra/llamacpp-LFM2-8B-A1B.jinja",
      "templates-extra/llamacpp-LFM2.5-8B-A1B.jinja",
      "templates-extra/llamacpp-LFM2.5-Instruct.jinja",
    ],
  },
  {
    recognizer: "reasoning-open-text (Gemma 4)",
    keys: ["models/templates/google-gemma-4-31B-it.jinja"],
    fragment: "<|channel>thought",
    claimed: GEMMA4,
  },
  {
    recognizer: "reasoning-prompt-text (Apriel 1.6)",
    keys: ["models/templates/Apriel-1.6-15b-Thinker-fixed.jinja"],
    fragment: "(opened by the generation prompt)",
    withName: true,
    claimed: [
      'templates-extra/llamacpp-Apriel-1.6-15b-Thinker-fixed.jinja: reasoning …"[BEGIN FINAL RESPONSE]" (opened by the generation prompt); "<tool_calls>" JSON list of calls (name, arguments)',
    ],
  },
  {
    recognizer: "recipient-lines (Functionary v3.2)",
    keys: ["models/templates/meetkai-functionary-medium-v3.2.jinja"],
    fragment: "RECIPIENT lines",
    claimed: ["templates-extra/minja-meetkai-functionary-medium-v3.2.jinja"],
  },
];

describe("each output recognizer claims its own templates of ../shared and no other", () => {
  for (const c of CLAIMS) {
    it.skipIf(!c.keys.every(entryPresent))(c.recognizer, () => {
      expect(claimedBy(c.fragment, c.withName)).toEqual(c.claimed);
    });
  }
});
