// The call opening of a template format (a model known only by its chat template), derived
// from the template itself by rendering, for toolChoicePrefill (./prefill.ts). Render the
// assistant turn of one call of a tool with a sentinel name, twice with different arguments
// (none, one key), and read:
//   before the name   the opening, exactly as the template writes it (markers are the reserved
//                     strings of the rendering, as IDs; the rest is text)
//   after the name    the text both renderings share up to where the arguments begin, cut
//                     after its last whitespace, ":" or ">" (so it ends before the arguments'
//                     first token: `", "arguments":`, `>\n`, "\n```json\n"), trailing spaces
//                     dropped (a space belongs to the next token in the pre-tokenisation)
// A name inside a JSON string (the character before it is `"`) is spelled "json" and the
// quotes move into the name part. "required" is the opening cut the same way (`<tool_call>\n`,
// `<tool_call>\n{"name":`), or absent when nothing comes before the name. Templates that render
// no call, or not one whose name and arguments can be found, have no opening (a 400).
import { type ChatRequest, type TemplateTokenizer, TokenizerError } from "@chatwire/tokenizer";
import type { ResolvedCallOpening, ResolvedPart } from "./prefill.ts";

const NAME = "probe_function_name";
const KEY = "probe_argument_key";
const USER = { role: "user", content: "probe user" } as const;
const tool = { type: "function", function: { name: NAME, parameters: { type: "object" } } } as const;

function call(args: string): object {
  return {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_0", type: "function", function: { name: NAME, arguments: args } }],
  };
}

/** The rendered assistant turn after the generation prompt, or undefined. */
function turn(tok: TemplateTokenizer, assistant: object): string | undefined {
  try {
    const base = { tools: [tool] };
    const prompt = tok.renderChat({ ...base, messages: [USER], add_generation_prompt: true } as ChatRequest);
    const full = tok.renderChat({
      ...base,
      messages: [USER, assistant],
      add_generation_prompt: false,
    } as ChatRequest);
    return full.startsWith(prompt) ? full.slice(prompt.length) : undefined;
  } catch (e) {
    if (TokenizerError.isInstance(e)) return undefined;
    throw e;
  }
}

/** `text` up to and including its last whitespace, ":" or ">", trailing spaces dropped. */
function cutToBoundary(text: string): string {
  let end = text.length;
  while (end > 0 && !/[\s:>]/.test(text.charAt(end - 1))) end--;
  return text.slice(0, end).replace(/ +$/, "");
}

/** Text -> parts: each reserved string of the rendering becomes its ID. */
function parts(tok: TemplateTokenizer, text: string): ResolvedPart[] {
  const out: ResolvedPart[] = [];
  let at = 0;
  for (const m of tok.scanner.scan(text)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    out.push({ id: m.id });
    at = m.index + m.token.length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

export function templateCallOpening(tok: TemplateTokenizer): ResolvedCallOpening | undefined {
  const empty = turn(tok, call("{}"));
  const keyed = turn(tok, call(`{"${KEY}": 1}`));
  if (empty === undefined || keyed === undefined) return undefined;
  const at = empty.indexOf(NAME);
  if (at < 0 || keyed.indexOf(NAME) !== at || empty.slice(0, at) !== keyed.slice(0, at)) return undefined;
  const restA = empty.slice(at + NAME.length);
  const restB = keyed.slice(at + NAME.length);
  if (!restB.includes(KEY)) return undefined;
  let shared = 0;
  while (shared < restA.length && restA[shared] === restB[shared]) shared++;
  let before = empty.slice(0, at);
  let after = cutToBoundary(restB.slice(0, shared));
  const json = before.endsWith('"') && after.startsWith('"');
  if (json) {
    before = before.slice(0, -1);
    after = after.slice(1);
  }
  const required = cutToBoundary(before);
  const named: ResolvedPart[] = [
    ...parts(tok, before),
    { name: json ? "json" : "raw" },
    ...(after === "" ? [] : parts(tok, after)),
  ];
  return required === "" ? { named } : { required: parts(tok, required), named };
}
