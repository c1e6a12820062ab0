// Layout the template writes around a tool-call wrapper, read from a rendering with content
// before the call: the "\n"s between the content and the wrapper's open are the template's (it
// strips the content and adds them), so the decoder drops them from the content (NewlineRules
// beforeOpen "all", as for the native Qwen3-Coder grammar); one "\n" between the wrapper's close
// and the end of turn is the template's too (afterClose "one-before-end").
import type { NewlineRules } from "../../../families/grammar.ts";
import type { ProbeCall, ProbeContext } from "../context.ts";

const CONTENT = "probe answer";

export function callLayout(
  ctx: ProbeContext,
  call: ProbeCall,
  open: string,
  close: string,
): NewlineRules | undefined {
  const g = ctx.assistant({ content: CONTENT, calls: [call] });
  if (g === null) return undefined;
  const from = g.text.indexOf(CONTENT);
  if (from < 0) return undefined;
  const at = g.text.indexOf(open, from + CONTENT.length);
  const end = g.text.lastIndexOf(close);
  if (at < 0 || end < at) return undefined;
  const before = /^\n+$/u.test(g.text.slice(from + CONTENT.length, at));
  const after = g.text.slice(end + close.length) === "\n";
  if (!before && !after) return undefined;
  return {
    ...(before ? { beforeOpen: "all" as const } : {}),
    ...(after ? { afterClose: "one-before-end" as const } : {}),
  };
}

/** The evidence line for a layout. */
export function layoutEvidence(rules: NewlineRules | undefined, open: string, close: string): string[] {
  const out: string[] = [];
  if (rules?.beforeOpen === "all")
    out.push(`only "\\n"s stand between content and ${open}: dropped from the content`);
  if (rules?.afterClose === "one-before-end")
    out.push(`one "\\n" follows ${close} at the end of the turn: dropped there`);
  return out;
}
