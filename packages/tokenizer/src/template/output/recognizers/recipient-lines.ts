// Messages addressed by a recipient line written as plain text (Functionary v3.2): each message
// of the turn is `MARK` + `RECIPIENT\n` + its body, the recipient a tool's name (the body its
// JSON arguments) or the reader (the body is content); the generation prompt ends with MARK,
// so the model's output starts with a recipient line.
//
//   prompt    …‹<|end_header_id|>›\n\n>>>
//   content   all\nprobe content
//   one call  probe_tool_a\n{"k": "v", "n": 1}
//   two calls probe_tool_a\n{…}>>>probe_tool_b\n{…}
//   both      all\nprobe content>>>probe_tool_a\n{…}
//
// Read from renderings with the arguments as JSON text (as OpenAI clients send them; this
// template concatenates them): MARK is the text between two calls, which the generation prompt
// must end with; the reader's recipient is the line before a turn's content. The grammar: a
// role-metadata-line header whose metadata is the recipient (the reader's name = content, any
// other = a call of that tool, body "json-arguments"), MARK a text marker that starts the next
// message (a "role" move). A recipient the template's own text tells the model to send Python
// code to (Functionary: "When you send a message containing Python code to python") takes the
// code as written (body "raw": the call is {name, arguments: {code}}): the renderings cannot
// show it (the template writes any arguments text as it is), so it is read from that sentence.
import type { Generated, ProbeCall, ProbeContext } from "../context.ts";
import type { Recognizer } from "../part.ts";
import { sameJson } from "./json-values.ts";

const A: ProbeCall = { name: "probe_tool_a", arguments: { k: "v", n: 1 } };
const B: ProbeCall = { name: "probe_tool_b", arguments: { m: [true, null], s: 'x "q"\nz' } };
const CONTENT = "probe content";

/** The rendering's text when it holds no reserved token, else null. */
const plain = (g: Generated | null): string | null =>
  g === null || g.pieces.some((p) => "reserved" in p) ? null : g.text;

/** `text` is JSON whose value is `value` (object key order aside). */
function isJsonOf(text: string, value: unknown): boolean {
  try {
    return sameJson(JSON.parse(text), value);
  } catch {
    return false;
  }
}

/** `NAME\nJSON` of `call`, exactly. */
function isCallText(text: string, call: ProbeCall): boolean {
  const head = `${call.name}\n`;
  return text.startsWith(head) && isJsonOf(text.slice(head.length), call.arguments);
}

/** One line of non-blank characters (a recipient or the mark between messages). */
const word = (s: string): boolean => /^\S+$/u.test(s);

export const recipientLines: Recognizer = {
  name: "recipient-lines",
  recognize(ctx: ProbeContext) {
    const prompt = ctx.prompt();
    const tail = prompt?.pieces[prompt.pieces.length - 1];
    if (tail === undefined || !("text" in tail)) return null;
    const one = plain(ctx.assistant({ calls: [A], argumentsText: true }));
    if (one === null || !isCallText(one, A)) return null;
    const two = plain(ctx.assistant({ calls: [A, B], argumentsText: true }));
    if (two === null || !two.startsWith(one)) return null;
    const rest = two.slice(one.length);
    const at = rest.indexOf(`${B.name}\n`);
    const mark = rest.slice(0, Math.max(at, 0));
    if (at <= 0 || !word(mark) || !isCallText(rest.slice(at), B)) return null;
    // The generation prompt leaves the model where the next message's recipient line starts.
    if (!tail.text.endsWith(mark) || !ctx.source.includes(mark)) return null;
    const content = plain(ctx.assistant({ content: CONTENT }));
    if (content === null || !content.endsWith(`\n${CONTENT}`)) return null;
    const reader = content.slice(0, content.length - CONTENT.length - 1);
    if (!word(reader) || !ctx.source.includes(reader)) return null;
    const both = plain(ctx.assistant({ content: CONTENT, calls: [A], argumentsText: true }));
    if (both !== `${content}${mark}${one}`) return null;
    const code = /Python code to (\w+)\b/u.exec(ctx.source)?.[1];
    const python = code !== undefined && code !== reader;
    return {
      name: `${JSON.stringify(mark)}RECIPIENT lines`,
      markers: {},
      textMarkers: { [mark]: { move: "role", role: "assistant" } },
      header: {
        syntax: "role-metadata-line",
        actionRole: "assistant",
        actionBlock: "tool_calls",
        contentMetadata: [reader],
        ...(python ? { blockByMetadata: { [code]: "code" } } : {}),
      },
      blocks: [
        { name: "tool_calls", emits: "action", body: "json-arguments" },
        ...(python ? [{ name: "code", emits: "action", kind: code, body: "raw" } as const] : []),
      ],
      evidence: [
        `each message starts with the text ${JSON.stringify(mark)} and a recipient line; the generation prompt ends with ${JSON.stringify(mark)}`,
        `a call's recipient is the tool's name and its body the JSON arguments: ${JSON.stringify(one)}`,
        `content is addressed to ${JSON.stringify(reader)}: ${JSON.stringify(content)}`,
        "two calls, and content before a call, are messages one after another",
        ...(python
          ? [`the template sends Python code to ${JSON.stringify(code)}: its messages are code`]
          : []),
      ],
    };
  },
};
