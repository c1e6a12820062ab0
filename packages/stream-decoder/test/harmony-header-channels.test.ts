// The harmony header parse (src/harmony-header.ts) on the headers llama.cpp's gpt-oss cases
// (test-chat.cpp) give: `<|channel|>commentary to=assistant<|channel|>analysis<|message|>` is the
// analysis channel (reasoning) addressed to the assistant, and `…<|channel|>final` the final one.
import { describe, expect, it } from "vitest";
import { P_CHANNEL, P_CONSTRAIN, P_HEAD, parseHarmonyHeader } from "../src/harmony-header.ts";

describe("harmony header: channels", () => {
  it("a later channel marker names the channel", () => {
    for (const channel of ["analysis", "final"]) {
      const p = parseHarmonyHeader(
        [P_HEAD, P_CHANNEL, P_CHANNEL],
        ["", "commentary to=assistant", channel],
        "assistant",
      );
      expect(p).toEqual({
        role: "assistant",
        name: undefined,
        header: { channel, recipient: "assistant" },
        problems: [],
      });
    }
  });

  it("one channel with a recipient and a content type, as the renderer writes a call", () => {
    const p = parseHarmonyHeader(
      [P_HEAD, P_CHANNEL, P_CONSTRAIN],
      [" to=functions.edit", "commentary ", "json"],
      "assistant",
    );
    expect(p.header).toEqual({
      channel: "commentary",
      recipient: "functions.edit",
      contentType: "<|constrain|>json",
    });
    expect(p.problems).toEqual([]);
  });
});
