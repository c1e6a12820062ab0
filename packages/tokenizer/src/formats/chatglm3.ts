// ChatGLM3 chat encoding (docs/formats.md "ChatGLM3"; the vendor's build_single_message):
//
//   ‹[gMASK]› ‹sop›  then per message  ‹<|ROLE|>› enc(METADATA + "\n") enc(CONTENT)
//   generation prompt  ‹<|assistant|>›
//
// The two enc calls are SEPARATE (each gets SentencePiece's dummy prefix). A system message's
// `tools` extend its content: CONTENT + "\n" + json.dumps(tools, indent=4, ensure_ascii=False).
import type { ChatBuilder } from "./builder.ts";
import type { ChatFormat } from "./format.ts";
import { pyJsonDumps } from "./py-json.ts";
import { CHATGLM3_IDS } from "./reserved.ts";
import {
  checkKeys,
  checkOneLine,
  checkRequest,
  checkRole,
  invalid,
  optionalString,
  requireString,
} from "./schema.ts";

const ROLES = ["system", "user", "assistant", "observation"] as const;
const KEYS = ["role", "content", "metadata", "tools"];
const ROLE_IDS: Readonly<Record<string, number>> = {
  system: CHATGLM3_IDS.system,
  user: CHATGLM3_IDS.user,
  assistant: CHATGLM3_IDS.assistant,
  observation: CHATGLM3_IDS.observation,
};

interface Message {
  readonly role: string;
  readonly content: string;
  readonly metadata: string;
  readonly tools: readonly unknown[] | undefined;
}

function parse(request: unknown): { messages: Message[]; addGenerationPrompt: boolean } {
  const req = checkRequest(request, []);
  const messages: Message[] = [];
  req.messages.forEach((m, i) => {
    checkKeys(m, i, KEYS);
    const role = checkRole(m, i, ROLES);
    const content = requireString(m, i, "content");
    const metadata = optionalString(m, i, "metadata") ?? "";
    checkOneLine(metadata, i, "metadata");
    const tools = m.tools;
    if (tools !== undefined) {
      if (role !== "system")
        throw invalid("only a system message may carry tools", { message: i, field: "tools" });
      if (!Array.isArray(tools)) throw invalid("must be an array", { message: i, field: "tools" });
    }
    const prev = messages[i - 1];
    if (role === "system" && i !== 0)
      throw invalid("a system message may only come first", { message: i, field: "role" });
    if (role === "user" && prev?.role === "user")
      throw invalid("two user messages in a row", { message: i, field: "role" });
    if (
      role === "observation" &&
      !(
        prev !== undefined &&
        (prev.role === "observation" || (prev.role === "assistant" && prev.metadata !== ""))
      )
    ) {
      throw invalid("an observation must follow an assistant tool or code call (non-empty metadata)", {
        message: i,
        field: "role",
      });
    }
    messages.push({ role, content, metadata, tools: tools as readonly unknown[] | undefined });
  });
  return { messages, addGenerationPrompt: req.addGenerationPrompt };
}

export const chatglm3: ChatFormat = {
  name: "chatglm3",
  render(request, b: ChatBuilder) {
    const { messages, addGenerationPrompt } = parse(request);
    b.reserved(CHATGLM3_IDS.gmask, null, "marker");
    b.reserved(CHATGLM3_IDS.sop, null, "marker");
    messages.forEach((m, i) => {
      b.reserved(ROLE_IDS[m.role] as number, i, "marker");
      b.caller(m.metadata, i, "metadata");
      b.text("\n", i, "metadata");
      b.cut();
      b.caller(m.content, i, "content");
      if (m.tools !== undefined) {
        b.text("\n", i, "template");
        b.caller(pyJsonDumps(m.tools, 4), i, "tools");
      }
      b.cut();
    });
    if (addGenerationPrompt) b.reserved(CHATGLM3_IDS.assistant, null, "marker");
  },
};
