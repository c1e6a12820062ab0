// tool_choice "required" / named honoured by PREFILL, without constrained decoding: the
// assistant turn starts with the format's call opening, appended to the prompt IDs, and the
// same IDs are fed to the decoder before the engine's (docs/openai.md "tool_choice").
//
// The opening is the format's data (Grammar.callOpening of the family, over the verified IDs of
// the loaded files; or an opening already resolved to IDs, e.g. templateCallOpening(tok) of a
// template format): reserved parts are IDs placed here, the name and the text around it go
// through the ordinary encoder (encodeText never yields a reserved ID, so a tool named
// "<|im_end|>" stays text). Adjacent text and name parts are encoded as one string, so the name
// tokenizes as it does inside the rendered call.
//
//   required  the `required` parts; absent (the call opens with the name itself): honoured only
//             with exactly one tool, as that tool named; else a 400 (choosing among several
//             needs constrained decoding)
//   named     the `named` parts, the name spelled as the part says ("json": JSON.stringify;
//             "raw": as is, so a name that is empty, multi-line, holds its delimiter, or is
//             one of `notNames` is a 400)
import type { CallOpening, ChatRequest, Grammar, OpeningPart } from "@chatwire/tokenizer";
import { RequestError } from "./errors.ts";
import type { ToolChoice } from "./tool-choice.ts";

export interface Prefill {
  /** Append to the prompt IDs; push into the decoder before the engine's IDs. */
  readonly ids: readonly number[];
  /** The prefill's text pieces (for the stop-string check). */
  readonly text: string;
}

/** A call opening whose reserved parts are IDs (`{ id }` instead of `{ marker }`). */
export type ResolvedPart = { readonly id: number } | Exclude<OpeningPart, { readonly marker: string }>;
export interface ResolvedCallOpening {
  readonly required?: readonly ResolvedPart[];
  readonly named: readonly ResolvedPart[];
  readonly notNames?: readonly string[];
}

/**
 * What the prefill reads: the text encoder, and either a family (its grammar's callOpening over
 * `tokenIds`; a ChatTokenizer is one) or a `callOpening` already resolved to IDs.
 */
export interface PrefillSource {
  encodeText(text: string): { readonly ids: readonly number[] };
  readonly family?: { readonly grammar: Grammar };
  readonly tokenIds?: Readonly<Record<string, number>>;
  /** Undefined (e.g. templateCallOpening found none): no opening, "required" / named are a 400. */
  readonly callOpening?: ResolvedCallOpening | undefined;
}

const NONE: Prefill = { ids: [], text: "" };

const unsupported = (message: string) =>
  new RequestError("unsupported-parameter", `tool_choice: ${message}`, "tool_choice");

export function toolChoicePrefill(
  source: PrefillSource,
  chat: ChatRequest,
  choice: ToolChoice,
  toolCount: number,
): Prefill | RequestError {
  if (choice.type === "auto" || choice.type === "none") return NONE;
  if (chat.add_generation_prompt === false || chat.continue_final_message === true)
    return unsupported(
      "required / named need an open assistant turn (add_generation_prompt, no continue_final_message)",
    );
  const opening = openingOf(source);
  if (opening === undefined)
    return unsupported(
      "required / named are not supported for this format: it has no call opening to prefill",
    );
  let name = choice.type === "function" ? choice.name : undefined;
  if (name === undefined) {
    const required = opening.required;
    if (required !== undefined) return build(source, required, "");
    if (toolCount !== 1)
      return unsupported(
        '"required" with several tools is not supported for this format: its call opens with the tool\'s name, so choosing one needs constrained decoding; name the function instead',
      );
    name = onlyToolName(chat);
    if (name === undefined) return unsupported('"required" needs a tool with a function name');
  }
  const bad = badName(opening, name);
  if (bad !== undefined) return unsupported(`the tool name cannot open a call in this format (${bad})`);
  return build(source, opening.named, name);
}

/** The format's opening with IDs for its markers; undefined when it has none (or a marker is missing). */
function openingOf(source: PrefillSource): ResolvedCallOpening | undefined {
  if ("callOpening" in source) return source.callOpening;
  const data: CallOpening | undefined = source.family?.grammar.callOpening;
  const ids = source.tokenIds;
  if (data === undefined || ids === undefined) return undefined;
  const resolve = (parts: readonly OpeningPart[]): ResolvedPart[] | undefined => {
    const out: ResolvedPart[] = [];
    for (const p of parts) {
      if (!("marker" in p)) out.push(p);
      else {
        const id = ids[p.marker];
        if (id === undefined) return undefined;
        out.push({ id });
      }
    }
    return out;
  };
  const named = resolve(data.named);
  if (named === undefined) return undefined;
  const required = data.required === undefined ? undefined : resolve(data.required);
  if (data.required !== undefined && required === undefined) return undefined;
  return {
    named,
    ...(required === undefined ? {} : { required }),
    ...(data.notNames === undefined ? {} : { notNames: data.notNames }),
  };
}

/** Why `name` cannot be written where the opening puts it, or undefined when it can. */
function badName(opening: ResolvedCallOpening, name: string): string | undefined {
  if (opening.notNames?.includes(name) === true) return `${JSON.stringify(name)} opens something else`;
  const at = opening.named.findIndex((p) => "name" in p);
  const part = opening.named[at];
  if (part === undefined || !("name" in part) || part.name === "json") return undefined;
  if (name === "") return "empty";
  if (/[\r\n]/.test(name)) return "multi-line";
  const next = opening.named[at + 1];
  const delimiter = next !== undefined && "text" in next ? next.text.charAt(0) : "";
  if (delimiter !== "" && name.includes(delimiter))
    return `it contains ${JSON.stringify(delimiter)}, which ends the name`;
  return undefined;
}

function build(source: PrefillSource, parts: readonly ResolvedPart[], name: string): Prefill {
  const ids: number[] = [];
  let text = "";
  let run = "";
  const flush = (): void => {
    if (run === "") return;
    // A loop, not push(...ids): the name is the caller's, and a long one would overflow the stack.
    for (const id of source.encodeText(run).ids) ids.push(id);
    text += run;
    run = "";
  };
  for (const p of parts) {
    if ("id" in p) {
      flush();
      ids.push(p.id);
    } else if ("text" in p) run += p.text;
    else run += p.name === "json" ? JSON.stringify(name) : name;
  }
  flush();
  return { ids, text };
}

function onlyToolName(chat: ChatRequest): string | undefined {
  const t = chat.tools?.[0] as { function?: { name?: unknown } } | undefined;
  const n = t?.function?.name;
  return typeof n === "string" ? n : undefined;
}
