// Which decoder actions are OpenAI function calls, read from the format's decoder grammar
// (families/<name>/grammar.ts, or any Grammar), so a new format needs no code here. Decided once
// per action start.
//   - an action kind named by an "action-kind" marker, or an action block's own kind, is a call
//     when its body syntax parses a call (anything but "raw": code such as an interpreter);
//   - a format whose header names the tool in a metadata line (role-metadata-line with an
//     action block) reports the tool name as the kind: any other non-empty kind is a call;
//   - a plainTextToolCall (Llama 3.x custom tools, read from text when tools are given) is a call.
// Unknown family names (and "template" without a grammar) have no calls.
import {
  type BodySyntax,
  FAMILIES,
  type FormatName,
  type Grammar,
  PLAIN_TEXT_CALL_KIND,
} from "@chatwire/tokenizer";

function kinds(g: Grammar): { calls: Set<string>; code: Set<string> } {
  const calls = new Set<string>();
  const code = new Set<string>();
  for (const m of Object.values(g.markers))
    if (m?.move === "action-kind") ((m.body ?? "raw") === "raw" ? code : calls).add(m.kind);
  for (const b of g.blocks ?? []) {
    if (b.emits !== "action" || b.kindFromMarker === true) continue;
    ((b.body ?? "raw") === "raw" ? code : calls).add(b.kind ?? b.name);
  }
  if (g.plainTextToolCall !== undefined) calls.add(PLAIN_TEXT_CALL_KIND);
  return { calls, code };
}

const CLASSIFIERS = new WeakMap<Grammar, (kind: string) => boolean>();

/** The call classifier of a grammar (built once per grammar object). */
export function toolCallKinds(g: Grammar): (kind: string) => boolean {
  let f = CLASSIFIERS.get(g);
  if (f === undefined) {
    const { calls, code } = kinds(g);
    const byMetadata = g.header.syntax === "role-metadata-line" && g.header.actionBlock !== undefined;
    f = (kind: string) => calls.has(kind) || (byMetadata && kind !== "" && !code.has(kind));
    CLASSIFIERS.set(g, f);
  }
  return f;
}

/** The grammar of a known family name, else undefined. */
export function familyGrammar(format: FormatName): Grammar | undefined {
  return FAMILIES.find((f) => f.name === format)?.grammar;
}

export function isToolCallKind(format: FormatName, kind: string): boolean {
  const g = familyGrammar(format);
  return g !== undefined && toolCallKinds(g)(kind);
}

/** Body syntaxes whose call is converted to JSON at its end (not JSON as the model writes it). */
const CONVERTED_AT_END: ReadonlySet<BodySyntax> = new Set(["python-call"]);

/**
 * Whether a format's calls can stream their arguments as they arrive: no call body of the
 * grammar is converted at the end (ChatGLM3's Python tool_call(...) is). Unknown grammar: yes.
 */
export function streamsCallArguments(g: Grammar | undefined): boolean {
  if (g === undefined) return true;
  const bodies: (BodySyntax | undefined)[] = [g.plainTextToolCall];
  for (const m of Object.values(g.markers)) if (m?.move === "action-kind") bodies.push(m.body);
  for (const b of g.blocks ?? []) if (b.emits === "action") bodies.push(b.body);
  return !bodies.some((b) => b !== undefined && CONVERTED_AT_END.has(b));
}
