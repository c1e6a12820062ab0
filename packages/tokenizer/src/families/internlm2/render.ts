// InternLM2 chat encoding (docs/formats.md "InternLM2"):
//
//   ‹s› then per message  ‹im_start› "ROLE[ name=NAME]\nCONTENT" [ACTIONS] ‹im_end› "\n"
//   ACTION = ‹action_start› ‹plugin|interpreter› "TEXT" ‹action_end›
//   generation prompt     ‹im_start› "assistant\n"
//
// The header and the content are ONE text run (one enc call), as the HF tokenizer sees them.
// NAME "plugin" / "interpreter" is the reserved token itself; any other NAME is header text.
//
// The OpenAI fields, as lmdeploy's InternLM2 template (messages2prompt) renders them:
// - `tools` -> a system message `name=‹plugin›` holding json.dumps([{"description", "name",
//   "parameters"}, ...]) (lmdeploy's Function.model_dump(): that key order, null when absent),
//   inserted after the first message when it is a system message, else first;
// - assistant `tool_calls` -> per call ‹action_start› ‹plugin› "\n{"name": N, "parameters": ARGS}"
//   ‹action_end› after the content; ARGS = json.dumps(arguments), a JSON-string argument parsed
//   first (json.loads) with Python's number and key semantics;
// - role `tool` -> `environment name=‹plugin›` (chat_format.md; lmdeploy writes a bare
//   `environment` header there).
// The native `action.text` is written verbatim (exact replay of what the model generated).

import type { ChatSink } from "../../chat/sink.ts";
import { pyJsonDumps, pyJsonString } from "../../py/json.ts";
import { PyJsonError, parsePyJson, pyValueJson } from "../../py/value.ts";
import {
  type FamilyProfile,
  type NMessage,
  type NToolCall,
  normalizeRequest,
  prefillKeep,
} from "../../request/normalize.ts";
import { checkOneLine, invalid } from "../../request/schema.ts";
import { imEndLine, imStartLine } from "../chatml.ts";
import type { TokenIds } from "../definition.ts";
import type { InternLM2Key } from "./tokens.ts";

const PROFILE: FamilyProfile = {
  family: "internlm2",
  nativeRoles: ["environment"],
  nativeFields: ["action"],
};
/** A header NAME that is the reserved token itself. */
const NAME_TOKENS: ReadonlyMap<string, InternLM2Key> = new Map([
  ["plugin", "plugin"],
  ["interpreter", "interpreter"],
]);

/** ARGS of a tool call as lmdeploy writes it: json.dumps of the (parsed) arguments. */
function argumentsJson(tc: NToolCall, i: number, j: number): string {
  if (typeof tc.arguments !== "string") return pyJsonDumps(tc.arguments);
  try {
    return pyValueJson(parsePyJson(tc.arguments));
  } catch (e) {
    if (!(e instanceof PyJsonError)) throw e;
    throw invalid(`must be JSON (InternLM2 re-serializes it): ${e.message}`, {
      message: i,
      field: `tool_calls[${j}].function.arguments`,
    });
  }
}

interface Rendered {
  /** The caller message index, or null for the message made from `tools`. */
  readonly owner: number | null;
  readonly role: string;
  readonly name: string | undefined;
  readonly message: NMessage | undefined;
  readonly toolsJson: string | undefined;
}

/** The messages in render order (the tools message inserted); `last` = the message to leave open, or -1. */
function plan(request: unknown): { list: Rendered[]; agp: boolean; last: number } {
  const req = normalizeRequest(request, PROFILE);
  const list: Rendered[] = req.messages.map((m) => {
    const i = m.index;
    if (m.action !== undefined && m.toolCalls.length > 0)
      throw invalid("give action or tool_calls, not both", { message: i, field: "tool_calls" });
    if (m.role === "tool")
      return { owner: i, role: "environment", name: "plugin", message: m, toolsJson: undefined };
    if (m.name !== undefined) {
      if (m.name.length === 0) throw invalid("must not be empty", { message: i, field: "name" });
      checkOneLine(m.name, i, "name");
    }
    return { owner: i, role: m.role, name: m.name, message: m, toolsJson: undefined };
  });
  if (req.tools.length > 0) {
    const functions = req.tools.map((t) => ({
      description: t.description ?? null,
      name: t.name,
      parameters: t.parameters ?? null,
    }));
    const at = list[0]?.role === "system" ? 1 : 0;
    list.splice(at, 0, {
      owner: null,
      role: "system",
      name: "plugin",
      message: undefined,
      toolsJson: pyJsonDumps(functions),
    });
  }
  return {
    list,
    agp: req.addGenerationPrompt,
    last: req.continueFinalMessage ? req.messages.length - 1 : -1,
  };
}

/** Validates `request` and renders it into `b` with the verified IDs of the loaded files. */
export function renderInternLM2(request: unknown, b: ChatSink, ids: TokenIds<InternLM2Key>): void {
  const { list, agp, last } = plan(request);
  b.reserved(ids.bos, null, "marker");
  for (const r of list) {
    const i = r.owner;
    b.reserved(ids.imStart, i, "marker");
    b.text(r.role, i, "role");
    if (r.name !== undefined) {
      b.text(" name=", i, "template");
      const nameKey = NAME_TOKENS.get(r.name);
      if (nameKey !== undefined) b.reserved(ids[nameKey], i, "name");
      else b.caller(r.name, i, "name");
    }
    b.text("\n", i, "template");
    const m = r.message;
    if (m === undefined) {
      b.caller(r.toolsJson ?? "", null, "tools");
    } else {
      if (i === last) {
        const keep = prefillKeep(m.content, m.content);
        if (keep !== undefined) {
          b.caller(keep, i, "content");
          return;
        }
      }
      b.caller(m.content, i, "content");
      if (m.action !== undefined) {
        b.reserved(ids.actionStart, i, "action");
        b.reserved(m.action.kind === "plugin" ? ids.plugin : ids.interpreter, i, "action");
        b.caller(m.action.text, i, "action", { field: "action.text" });
        b.reserved(ids.actionEnd, i, "action");
      }
      m.toolCalls.forEach((tc, j) => {
        const args = argumentsJson(tc, m.index, j);
        b.reserved(ids.actionStart, i, "action");
        b.reserved(ids.plugin, i, "action");
        b.text('\n{"name": "', i, "template");
        // the name JSON-escaped (json.dumps); the quotes are template text
        b.caller(pyJsonString(tc.name).slice(1, -1), i, "tool_calls", {
          field: `tool_calls[${j}].function.name`,
        });
        b.text('", "parameters": ', i, "template");
        b.caller(args, i, "tool_calls", { field: `tool_calls[${j}].function.arguments` });
        b.text("}", i, "template");
        b.reserved(ids.actionEnd, i, "action");
      });
    }
    imEndLine(b, ids.imEnd, i);
  }
  if (agp) {
    imStartLine(b, ids.imStart, null, "assistant");
  }
}
