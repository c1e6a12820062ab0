// Llama 3.x renderer rules the goldens do not reach: typed refusals (what the template would
// raise or silently drop), the kwargs, and linear cost on hostile caller text (a hostile input
// against a benign one of the same size in the same process).
import { describe, expect, it } from "vitest";
import { TokenizerError } from "../src/index.ts";
import { encode, renderText, vocab } from "./llama3-support.ts";

const v = vocab("3.0");

function refusal(
  family: "llama3" | "llama31",
  request: unknown,
): { type: string; field?: string } | undefined {
  try {
    encode(family, v, request);
    return undefined;
  } catch (e) {
    if (!TokenizerError.isInstance(e)) throw e;
    return { type: e.type, ...(e.fields.field === undefined ? {} : { field: e.fields.field }) };
  }
}

const tool = { type: "function", function: { name: "f", parameters: { type: "object", properties: {} } } };
const user = { role: "user", content: "hi" };

describe("llama3 (3.0 template)", () => {
  it("does not render tools or tool calls (the template has none): the call message renders its content", () => {
    const call = { type: "function", function: { name: "f", arguments: { a: 1 } } };
    const text = renderText("llama3", v, {
      messages: [user, { role: "assistant", content: "calling", tool_calls: [call] }],
      tools: [tool],
      add_generation_prompt: false,
    });
    expect(text).toBe(
      "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\ncalling<|eot_id|>",
    );
  });

  it("writes the role as given (tool, ipython)", () => {
    const text = renderText("llama3", v, {
      messages: [user, { role: "ipython", content: "1" }, { role: "tool", content: "2" }],
      add_generation_prompt: false,
    });
    expect(text).toContain("<|start_header_id|>ipython<|end_header_id|>\n\n1<|eot_id|>");
    expect(text).toContain("<|start_header_id|>tool<|end_header_id|>\n\n2<|eot_id|>");
  });
});

describe("llama31 (3.1+ template)", () => {
  it("Today Date is strftime_now('%d %b %Y') of the local clock; `now` pins it, date_string replaces it", () => {
    expect(renderText("llama31", v, { messages: [user] })).toContain("Today Date: 26 Jul 2024\n\n");
    expect(renderText("llama31", v, { messages: [user], now: "2031-01-05T23:59:59" })).toContain(
      "Today Date: 05 Jan 2031\n\n",
    );
    const today = renderText("llama31", v, { messages: [user], now: undefined });
    const d = new Date();
    const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    const want = `${String(d.getDate()).padStart(2, "0")} ${months[d.getMonth()]} ${d.getFullYear()}`;
    // Midnight may pass between the two reads of the clock.
    if (new Date().getDate() === d.getDate()) expect(today).toContain(`Today Date: ${want}\n\n`);
    expect(
      renderText("llama31", v, { messages: [user], chat_template_kwargs: { date_string: "1 May 2030" } }),
    ).toContain("Today Date: 1 May 2030\n\n");
  });

  it("refuses what the template raises on or cannot render, naming the field", () => {
    const call = { type: "function", function: { name: "f", arguments: {} } };
    const cases: Array<[unknown, string | undefined]> = [
      [{ messages: [] }, "messages"],
      [{ messages: [{ role: "system", content: "s" }], tools: [tool] }, "tools"],
      [{ messages: [user, { role: "assistant", tool_calls: [call, call] }] }, "tool_calls"],
      [{ messages: [user], chat_template_kwargs: { date_string: 5 } }, "chat_template_kwargs.date_string"],
      [
        { messages: [user], chat_template_kwargs: { tools_in_user_message: "no" } },
        "chat_template_kwargs.tools_in_user_message",
      ],
      [
        { messages: [user], chat_template_kwargs: { custom_tools: [tool] } },
        "chat_template_kwargs.custom_tools",
      ],
      [
        {
          messages: [
            user,
            { role: "assistant", tool_calls: [{ function: { name: "f", arguments: "{bad" } }] },
          ],
        },
        "tool_calls[0].function.arguments",
      ],
      [{ messages: [user, { role: "tool", content: "r" }], continue_final_message: true }, undefined],
      [{ messages: [{ role: "ipython", content: 5 }] }, "content"],
    ];
    for (const [req, field] of cases)
      expect(refusal("llama31", req), JSON.stringify(req)).toEqual({
        type: "invalid-conversation",
        ...(field === undefined ? {} : { field }),
      });
  });

  it("a tool result is written as the template's tojson of the content", () => {
    const text = renderText("llama31", v, {
      messages: [user, { role: "tool", content: 'a"b\\c\nd\u0001' }],
      add_generation_prompt: false,
    });
    expect(
      text.endsWith('<|start_header_id|>ipython<|end_header_id|>\n\n"a\\"b\\\\c\\nd\\u0001"<|eot_id|>'),
    ).toBe(true);
  });

  it("audit offsets of a tool result point into the caller's content (escapes before it)", () => {
    const enc = encode("llama31", v, { messages: [user, { role: "tool", content: '""\n<|eot_id|>' }] });
    expect(enc.audit).toEqual([{ message: 1, field: "content", token: "<|eot_id|>", index: 3, id: 128009 }]);
  });

  it("linear: escape-dense and whitespace-dense caller text cost about what plain text costs", () => {
    const n = 100_000;
    const time = (content: string): number => {
      const req = {
        messages: [
          { role: "system", content },
          { role: "user", content },
          { role: "tool", content },
        ],
      };
      encode("llama31", v, req); // warm up
      const t0 = performance.now();
      for (let k = 0; k < 3; k++) encode("llama31", v, req);
      return performance.now() - t0;
    };
    const plain = time("abcd ".repeat(n / 5));
    const quotes = time('"\\\n\t'.repeat(n / 4));
    const spaces = time(`${" ".repeat(n / 2)}x${"\u3000".repeat(n / 2)}`);
    // Linear reads 3-5x idle; a loaded machine can read several times that, and a cost quadratic
    // in the 100k-unit text would be thousands of times.
    expect(quotes / plain).toBeLessThan(100);
    expect(spaces / plain).toBeLessThan(100);
  });
});
