// Which decoder actions are OpenAI function calls, read from the family's decoder grammar
// (families/<name>/grammar.ts), so a new family needs no code here. Decided once per action start.
//   - an action kind named by an "action-kind" marker, or an action block's own kind, is a call
//     when its body syntax parses a call (anything but "raw": code such as an interpreter);
//   - a family whose header names the tool in a metadata line (role-metadata-line with an
//     action block) reports the tool name as the kind: any other non-empty kind is a call;
//   - a plainTextToolCall (Llama 3.x custom tools, read from text when tools are given) is a call.
// Unknown family names (and "template") have no calls.
import { FAMILIES, type FormatName, type Grammar, PLAIN_TEXT_CALL_KIND } from "@chatwire/tokenizer";

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

/** One classifier per known family (built once; unknown names are not cached). */
const CLASSIFIERS: ReadonlyMap<string, (kind: string) => boolean> = new Map(
  FAMILIES.map((f) => {
    const g = f.grammar;
    const { calls, code } = kinds(g);
    const byMetadata = g.header.syntax === "role-metadata-line" && g.header.actionBlock !== undefined;
    return [f.name, (kind: string) => calls.has(kind) || (byMetadata && kind !== "" && !code.has(kind))];
  }),
);

export function isToolCallKind(format: FormatName, kind: string): boolean {
  return CLASSIFIERS.get(format)?.(kind) ?? false;
}
