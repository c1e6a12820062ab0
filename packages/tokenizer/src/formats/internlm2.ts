// InternLM2 chat encoding (docs/formats.md "InternLM2"):
//
//   ‹s› then per message  ‹im_start› "ROLE[ name=NAME]\nCONTENT" [ACTION] ‹im_end› "\n"
//   ACTION = ‹action_start› ‹plugin|interpreter› "TEXT" ‹action_end›
//   generation prompt     ‹im_start› "assistant\n"
//
// The header and the content are ONE text run (one enc call), as the HF tokenizer sees them.
// NAME "plugin" / "interpreter" is the reserved token itself; any other NAME is header text.
import type { ChatBuilder } from "./builder.ts";
import type { ChatFormat } from "./format.ts";
import { INTERNLM2_IDS } from "./reserved.ts";
import {
  checkKeys,
  checkOneLine,
  checkRequest,
  checkRole,
  invalid,
  isObject,
  type JsonObject,
  optionalString,
  requireString,
} from "./schema.ts";

const ROLES = ["system", "user", "assistant", "environment"] as const;
const KEYS = ["role", "content", "name", "action"];
const NAME_TOKENS: Readonly<Record<string, number>> = {
  plugin: INTERNLM2_IDS.plugin,
  interpreter: INTERNLM2_IDS.interpreter,
};

interface Action {
  readonly kind: "plugin" | "interpreter";
  readonly text: string;
}

interface Message {
  readonly role: string;
  readonly content: string;
  readonly name: string | undefined;
  readonly action: Action | undefined;
}

function parseAction(m: JsonObject, i: number, role: string): Action | undefined {
  const a = m.action;
  if (a === undefined) return undefined;
  if (role !== "assistant")
    throw invalid("only an assistant message may carry an action", { message: i, field: "action" });
  if (!isObject(a))
    throw invalid('must be {"kind": "plugin"|"interpreter", "text": string}', {
      message: i,
      field: "action",
    });
  for (const key of Object.keys(a)) {
    if (key !== "kind" && key !== "text")
      throw invalid(`unknown field "${key.slice(0, 40)}"`, { message: i, field: `action.${key}` });
  }
  if (a.kind !== "plugin" && a.kind !== "interpreter")
    throw invalid('must be "plugin" or "interpreter"', { message: i, field: "action.kind" });
  if (typeof a.text !== "string") throw invalid("must be a string", { message: i, field: "action.text" });
  return { kind: a.kind, text: a.text };
}

function parse(request: unknown): { messages: Message[]; addGenerationPrompt: boolean } {
  const req = checkRequest(request, []);
  const messages = req.messages.map((m, i): Message => {
    checkKeys(m, i, KEYS);
    const role = checkRole(m, i, ROLES);
    const content = requireString(m, i, "content");
    const name = optionalString(m, i, "name");
    if (name !== undefined) {
      if (name.length === 0) throw invalid("must not be empty", { message: i, field: "name" });
      checkOneLine(name, i, "name");
    }
    return { role, content, name, action: parseAction(m, i, role) };
  });
  return { messages, addGenerationPrompt: req.addGenerationPrompt };
}

export const internlm2: ChatFormat = {
  name: "internlm2",
  render(request, b: ChatBuilder) {
    const { messages, addGenerationPrompt } = parse(request);
    b.reserved(INTERNLM2_IDS.bos, null, "marker");
    messages.forEach((m, i) => {
      b.reserved(INTERNLM2_IDS.imStart, i, "marker");
      b.text(m.role, i, "role");
      if (m.name !== undefined) {
        b.text(" name=", i, "template");
        const nameId = NAME_TOKENS[m.name];
        if (nameId !== undefined) b.reserved(nameId, i, "name");
        else b.caller(m.name, i, "name");
      }
      b.text("\n", i, "template");
      b.caller(m.content, i, "content");
      if (m.action !== undefined) {
        b.reserved(INTERNLM2_IDS.actionStart, i, "action");
        b.reserved(
          m.action.kind === "plugin" ? INTERNLM2_IDS.plugin : INTERNLM2_IDS.interpreter,
          i,
          "action",
        );
        b.caller(m.action.text, i, "action", { field: "action.text" });
        b.reserved(INTERNLM2_IDS.actionEnd, i, "action");
      }
      b.reserved(INTERNLM2_IDS.imEnd, i, "marker");
      b.text("\n", i, "template");
    });
    if (addGenerationPrompt) {
      b.reserved(INTERNLM2_IDS.imStart, null, "marker");
      b.text("assistant", null, "role");
      b.text("\n", null, "template");
    }
  },
};
