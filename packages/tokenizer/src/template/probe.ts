// Probe renderings: what a template-only model's generation looks like, found by rendering
// needle conversations through the model's own template and diffing them (docs/templates.md
// "Decoding"). The decoder (@chatwire/stream-decoder compileTemplateDecoderSpec) turns the
// result into its class table; nothing here reads generated text.
//
//   generation prompt  ids([user N1], add_generation_prompt) minus ids([user N1]) (minus a
//                      trailing EOS the template writes without the prompt, as Phi-3's does)
//   end of turn        the first reserved token the template writes after an assistant's content
//   turn starts        reserved tokens between one message's content and the next one's
//   EOS                config eos_token, generation_config.json eos_token_id, the end of turn
//                      (unless a call turn may follow it: Grammar.callTurn)
//   user turn          ids([user N1, assistant N2, user N3]) from after the end of turn to N3
//   output grammar     the reasoning block and the tool-call syntax, derived by the recognizers
//                      of ./output/ from more renderings (./output/derive.ts)
import { TokenizerError } from "../errors.ts";
import type { ChatRequest } from "../request/request.ts";
import { createProbeContext } from "./output/context.ts";
import { type DerivedOutput, deriveOutput } from "./output/derive.ts";
import { undefinedVariables } from "./output/template-variables.ts";
import { specialTokenVars, type TemplateTokenizer } from "./tokenizer.ts";

export interface TemplateProbe {
  /** IDs the generation prompt adds after the last message (e.g. `<|start_header_id|>assistant<|end_header_id|>\n\n`). */
  readonly generationPrompt: readonly number[];
  /** Reserved IDs of the generation prompt (the assistant's turn start). */
  readonly assistantStart: readonly number[];
  /** Reserved IDs that open a user turn after an assistant turn (end of turn excluded). */
  readonly userStart: readonly number[];
  /**
   * IDs that open a user turn after an assistant's end of turn, up to the user's content,
   * leading text (the "\n" a template writes after its end of turn) dropped; [] when the
   * rendering does not split cleanly there.
   */
  readonly userPrompt: readonly number[];
  /** The first reserved ID after an assistant's content (`<|eot_id|>`), or null (ChatGLM3: none). */
  readonly endOfTurn: number | null;
  /** Stop IDs: config eos_token, generation_config.json eos_token_id, endOfTurn (sorted, unique). */
  readonly eosIds: readonly number[];
  /** The output grammar derived from the template: reasoning block, tool-call syntax, evidence. */
  readonly output: DerivedOutput;
  /** The generation prompt ends inside the output grammar's reasoning block (decoding starts in reasoning). */
  readonly startInReasoning: boolean;
  /** Display name per reserved ID. */
  readonly names: ReadonlyMap<number, string>;
}

const N1 = "probe user one";
const N2 = "probe assistant two";
const N3 = "probe user three";

/**
 * Template text between the caller content of message `a` and that of message `b` (b = -1: to
 * the end). Other caller runs (the role name is caller data too) are skipped.
 */
function templateBetween(tok: TemplateTokenizer, request: ChatRequest, a: number, b: number): string {
  const runs = tok.renderProvenance(request);
  let lastA = -1;
  const content = (i: number, m: number): boolean => {
    const r = runs[i];
    return r !== undefined && r.origin === "caller" && r.message === m && r.field === "content";
  };
  for (let i = 0; i < runs.length; i++) if (content(i, a)) lastA = i;
  if (lastA === -1) return "";
  let out = "";
  for (let i = lastA + 1; i < runs.length; i++) {
    const r = runs[i];
    if (r === undefined) break;
    if (r.origin === "caller") {
      if (b !== -1 && content(i, b)) break;
      continue;
    }
    out += r.text;
  }
  return out;
}

function reservedIn(tok: TemplateTokenizer, text: string): number[] {
  return tok.scanner.scan(text).map((m) => m.id);
}

/** The user turn's opening IDs: after the end of turn that follows message 1, up to message 2's content. */
function userPromptIds(tok: TemplateTokenizer, request: ChatRequest, endOfTurn: number | null): number[] {
  if (endOfTurn === null) return [];
  const e = tok.encodeChat(request);
  const contentStart = (m: number): number =>
    e.spans.find((s) => s.message === m && s.field === "content")?.start ?? -1;
  const spanEnd = (m: number): number => {
    let end = -1;
    for (const s of e.spans) if (s.message === m && s.field === "content") end = s.end;
    return end;
  };
  const from = spanEnd(1);
  const to = contentStart(2);
  if (from < 0 || to < 0) return [];
  let k = e.ids.indexOf(endOfTurn, from);
  if (k < 0 || k >= to) return [];
  k++;
  const reservedIds = new Set(tok.reserved.values());
  while (k < to && !reservedIds.has(e.ids[k] as number)) k++;
  return e.ids.slice(k, to);
}

/** Whether `ids` leave the grammar's startBlock open (its last open/close marker is an open). */
function opensStartBlock(output: DerivedOutput, ids: readonly number[]): boolean {
  const start = output.grammar.startBlock;
  if (start === undefined) return false;
  const moves = new Map<number, string>();
  for (const [key, m] of Object.entries(output.grammar.markers)) {
    const id = output.ids[key];
    if (m === undefined || id === undefined || !("block" in m) || m.block !== start) continue;
    moves.set(id, m.move);
  }
  let open = false;
  for (const id of ids) {
    const m = moves.get(id);
    if (m === "block-open") open = true;
    else if (m === "block-close") open = false;
  }
  return open;
}

/**
 * The variables the probe gives every rendering: none when the template renders a request as
 * it is; else each variable it reads that no request defines, as "" (./output/template-variables.ts).
 */
function probeVariables(tok: TemplateTokenizer, user: object): Readonly<Record<string, string>> {
  try {
    tok.encodeChat({ messages: [user], add_generation_prompt: true } as ChatRequest);
    return {};
  } catch {
    const special = [...specialTokenVars(tok.config).keys()];
    const names = new Set<string>();
    for (const source of [tok.templates.default, tok.templates.toolUse ?? ""])
      for (const n of undefinedVariables(source, special)) names.add(n);
    return Object.fromEntries([...names].map((n) => [n, ""]));
  }
}

/** Probes the template; a template that refuses the needle conversations is a typed error. */
export function probeTemplate(tok: TemplateTokenizer): TemplateProbe {
  const user = { role: "user", content: N1 } as const;
  const assistant = { role: "assistant", content: N2 } as const;
  const variables = probeVariables(tok, user);
  const kwargs = Object.keys(variables).length > 0 ? { chat_template_kwargs: variables } : {};
  // add_generation_prompt is explicit: the request mapping defaults it to true, as servers do.
  const render = (messages: ChatRequest["messages"], gp: boolean): ChatRequest =>
    ({ messages, add_generation_prompt: gp, ...kwargs }) as ChatRequest;
  const eos = new Set<number>();
  const eosName = tok.config.eosToken;
  const eosId = eosName === undefined ? undefined : tok.reserved.get(eosName);
  if (eosId !== undefined) eos.add(eosId);
  for (const id of tok.generationEosIds) eos.add(id);
  const a = tok.encodeChat(render([user], false)).ids;
  const b = tok.encodeChat(render([user], true)).ids;
  let k = 0;
  while (k < a.length && a[k] === b[k]) k++;
  // Phi-3's template ends a rendering without the generation prompt with the EOS token
  // (`{% else %}{{ eos_token }}`): the prompt then extends the rendering before that EOS.
  if (k !== a.length && !a.slice(k).every((id) => eos.has(id)))
    throw new TokenizerError(
      "template-error",
      "probe: the generation prompt is not an extension of the conversation's rendering",
    );
  const generationPrompt = b.slice(k);
  const reservedIds = new Set(tok.reserved.values());
  const assistantStart = generationPrompt.filter((id) => reservedIds.has(id));
  const afterAssistant = reservedIn(tok, templateBetween(tok, render([user, assistant], false), 1, -1));
  const endOfTurn = afterAssistant[0] ?? null;
  const threeTurns = render([user, assistant, { role: "user", content: N3 }], false);
  const between = reservedIn(tok, templateBetween(tok, threeTurns, 1, 2));
  const userStart = endOfTurn !== null && between[0] === endOfTurn ? between.slice(1) : between;
  // The files' own EOS IDs: the end of turn joins them unless a call may follow it.
  const filesEos = new Set(eos);
  if (endOfTurn !== null) eos.add(endOfTurn);
  const output = deriveOutput(
    createProbeContext(tok, endOfTurn, variables),
    [...eos].sort((x, y) => x - y),
  );
  // A call written as a turn of its own after the end of turn (Grammar.callTurn): the end of
  // turn is no stop, or the model could never write the call.
  const stops = output.grammar.callTurn === undefined ? eos : filesEos;
  // A grammar whose reasoning has no open marker (Grammar.startText): the prompt's words open it.
  const startText = output.grammar.startText;
  const startInReasoning =
    output.startsInReasoning === true ||
    opensStartBlock(output, generationPrompt) ||
    (startText !== undefined && tok.textModel.decode(generationPrompt).endsWith(startText));
  const names = new Map<number, string>();
  for (const [s, id] of tok.reserved) names.set(id, s);
  return Object.freeze({
    generationPrompt,
    assistantStart,
    userStart,
    userPrompt: userPromptIds(tok, threeTurns, endOfTurn),
    endOfTurn,
    eosIds: [...stops].sort((x, y) => x - y),
    output,
    startInReasoning,
    names,
  });
}
