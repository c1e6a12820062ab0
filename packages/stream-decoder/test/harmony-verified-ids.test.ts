import type { ChatTokenizer } from "@chatwire/tokenizer";
import { beforeAll, describe, expect, it } from "vitest";
import { compileDecoderSpecFor, type DecoderEvent, type DecoderSpec } from "../src/index.ts";
import { gptOssTokenizer, run } from "./models.ts";

let tok: ChatTokenizer;

const decode = (spec: DecoderSpec, ids: readonly number[]): DecoderEvent[] =>
  run(spec, ids, { streamToolCalls: true });

/** Token IDs of a conversation written as parts: a marker key or text. */
function idsOf(
  parts: readonly (string | { readonly k: string })[],
  keys: Readonly<Record<string, number>>,
): number[] {
  const out: number[] = [];
  for (const p of parts) {
    if (typeof p === "string") out.push(...tok.textModel.encode(p));
    else out.push(keys[p.k] as number);
  }
  return out;
}

const CONVERSATION = [
  { k: "channel" },
  "analysis",
  { k: "message" },
  "Need weather.",
  { k: "end" },
  { k: "start" },
  "assistant to=functions.get_weather",
  { k: "channel" },
  "commentary ",
  { k: "constrain" },
  "json",
  { k: "message" },
  '{"city": "Paris"}',
  { k: "call" },
] as const;

describe("harmony decodes with the verified IDs of the loaded files", () => {
  beforeAll(() => {
    tok = gptOssTokenizer();
  });

  it("permuted marker IDs decode by the permutation", () => {
    const ids = tok.tokenIds as Readonly<Record<string, number>>;
    const permuted: Record<string, number> = {
      ...ids,
      channel: ids.message as number,
      message: ids.channel as number,
      start: ids.end as number,
      end: ids.start as number,
    };
    const spec = compileDecoderSpecFor(tok);
    const swapped = compileDecoderSpecFor({ ...tok, tokenIds: permuted });
    const expected = decode(spec, idsOf(CONVERSATION, ids));
    // The conversation decodes as intended with the files' own IDs.
    expect(expected).toContainEqual({
      type: "action_end",
      kind: "tool_call",
      raw: '{"city": "Paris"}',
      call: { name: "get_weather", arguments: { city: "Paris" } },
    });
    expect(
      expected
        .filter((e) => e.type === "reasoning")
        .map((e) => ("text" in e ? e.text : ""))
        .join(""),
    ).toEqual("Need weather.");
    expect(expected.some((e) => e.type === "error")).toBe(false);
    expect(decode(swapped, idsOf(CONVERSATION, permuted))).toEqual(expected);
    // The original IDs under the permuted spec are no longer this conversation.
    expect(decode(swapped, idsOf(CONVERSATION, ids))).not.toEqual(expected);
  });
});
