// The harmony header syntax (gpt-oss): the header's parts as the engine collected them (the
// text before any field marker, after a channel marker, after a constrain marker), parsed once
// at the header-end marker, best effort, never failing:
//   ROLE[ to=R] ‹channel›CHANNEL[ to=R][ TYPE] ‹constrain›TYPE ‹message›
// (a message addressed to a function is a call whose content, its arguments, syntax/json-arguments.ts reads).
import { quote40 } from "./model-text.ts";

/** Header part kinds: the text before any marker, after <|channel|>, after <|constrain|>. */
export const P_HEAD = 0;
export const P_CHANNEL = 1;
export const P_CONSTRAIN = 2;

const ROLES: ReadonlySet<string> = new Set(["assistant", "user", "system", "developer", "tool"]);
export const CHANNELS: ReadonlySet<string> = new Set(["analysis", "commentary", "final"]);

export interface ParsedHeader {
  role: string;
  name: string | undefined;
  header: { channel?: string; recipient?: string; contentType?: string };
  problems: string[];
}

/** Best-effort parse of the header parts (kinds + texts); never fails. */
export function parseHarmonyHeader(
  kinds: readonly number[],
  texts: readonly string[],
  presetRole: string | undefined,
): ParsedHeader {
  const out: ParsedHeader = { role: presetRole ?? "", name: undefined, header: {}, problems: [] };
  const h = out.header;
  let roleSeen = presetRole !== undefined;
  const word = (w: string, first: boolean, kind: number): void => {
    if (kind === P_HEAD && !roleSeen) {
      roleSeen = true;
      const colon = w.indexOf(":");
      const r = colon === -1 ? w : w.slice(0, colon);
      if (ROLES.has(r)) {
        out.role = r;
        if (colon !== -1) out.name = w.slice(colon + 1);
      } else {
        // harmony: an author that is not a role is a tool name (functions.X, browser.search).
        out.role = "tool";
        out.name = w;
      }
      return;
    }
    if (w.startsWith("to=")) {
      if (h.recipient === undefined) h.recipient = w.slice(3);
      else out.problems.push(`a second recipient ${quote40(w)}`);
      return;
    }
    if (kind === P_CHANNEL && first) {
      // A later channel marker names the channel (the peers read gpt-oss's
      // `<|channel|>commentary to=assistant<|channel|>analysis` as the analysis channel).
      h.channel = w;
      return;
    }
    if (kind === P_CONSTRAIN && first) {
      if (h.contentType === undefined) h.contentType = `<|constrain|>${w}`;
      else out.problems.push(`a second content type ${quote40(w)}`);
      return;
    }
    if (h.contentType === undefined) h.contentType = w;
    else out.problems.push(`unexpected ${quote40(w)}`);
  };
  for (let k = 0; k < kinds.length; k++) {
    const kind = kinds[k] as number;
    const words = (texts[k] as string).split(/\s+/).filter((w) => w !== "");
    if (kind === P_CHANNEL && words.length === 0) out.problems.push("<|channel|> without a channel name");
    if (kind === P_CONSTRAIN && words.length === 0) out.problems.push("<|constrain|> without a type");
    for (let i = 0; i < words.length; i++) word(words[i] as string, i === 0, kind);
  }
  if (out.role === "") out.problems.push("no role");
  return out;
}
