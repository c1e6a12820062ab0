// Tool names checked through the decoder, one real chat template per body-syntax family (the
// format derived from the template, peer-parse's vocabulary): the same model output is a call
// when the request's tools name it, an action error naming it when they do not, and a call when
// the request gives no tools. One at a time, in bursts and through the reference decoder alike.
import { describe, expect, it } from "vitest";
import { agreedMessage, haveTemplate, loadEntry } from "./derived-format-support.ts";

const T = "models/templates/";
/** formats.json key, its body syntax, and get_weather(city="Paris") as the model writes it. */
const OUTPUTS: ReadonlyArray<readonly [string, string, string]> = [
  [
    `${T}NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja`,
    "json-call",
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
  ],
  [
    `${T}mistralai-Mistral-Nemo-Instruct-2407.jinja`,
    "json-call-list",
    '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "123456789"}]',
  ],
  [
    `${T}Apertus-8B-Instruct.jinja`,
    "json-named-call-list",
    '<|tools_prefix|>[{"get_weather": {"city": "Paris"}}]<|tools_suffix|>',
  ],
  [
    `${T}Mistral-Small-3.2-24B-Instruct-2506.jinja`,
    "name-args",
    '[TOOL_CALLS]get_weather[CALL_ID]123456789[ARGS]{"city": "Paris"}',
  ],
  [
    `${T}Kimi-K2-Instruct.jinja`,
    "call-id-args",
    '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
  ],
  [
    `${T}LFM2.5-Instruct.jinja`,
    "python-call-list",
    '<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>',
  ],
  [
    `${T}google-gemma-4-31B-it.jinja`,
    "marker-quoted-call",
    '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>',
  ],
  [
    `${T}meetkai-functionary-medium-v3.1.jinja`,
    "tag-name-json",
    '<function=get_weather>{"city": "Paris"}</function>',
  ],
  [
    `${T}deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja`,
    "fenced-json-call",
    '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
  ],
  [
    `${T}Qwen3-Coder.jinja`,
    "xml-call",
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>",
  ],
  [
    `${T}MiniMax-M2.jinja`,
    "xml-invoke-list",
    '</think>\n\n<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</minimax:tool_call>',
  ],
  [
    `${T}deepseek-ai-DeepSeek-V3.2.jinja`,
    "dsml-invoke-list",
    '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
  ],
  [
    `${T}GLM-4.6.jinja`,
    "arg-key-value",
    "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
  ],
];

const tool = (name: string) => ({
  type: "function",
  function: { name, parameters: { type: "object", properties: { city: { type: "string" } } } },
});
const CALL = { name: "get_weather", arguments: { city: "Paris" } };
const UNKNOWN_ERROR = 'the call names a tool the request does not give: "get_weather"';
const BURSTS = [3, 1, 7];

describe("tool names checked against the request's tools, through the decoder", () => {
  for (const [key, syntax, output] of OUTPUTS)
    describe.skipIf(!haveTemplate(key))(`${syntax} (${key.slice(T.length)})`, () => {
      it("known name: a call; unknown: the action error; no tools: a call", () => {
        const ids = loadEntry(key).encode(output);
        for (const streamToolCalls of [false, true]) {
          const known = agreedMessage(key, ids, BURSTS, { streamToolCalls, tools: [tool("get_weather")] });
          expect(known.errors).toEqual([]);
          expect(known.calls).toEqual([CALL]);
          const none = agreedMessage(key, ids, BURSTS, { streamToolCalls });
          expect(none.errors).toEqual([]);
          expect(none.calls).toEqual([CALL]);
          const unknown = agreedMessage(key, ids, BURSTS, { streamToolCalls, tools: [tool("get_time")] });
          expect(unknown.calls).toEqual([]);
          expect(unknown.errors).toEqual([UNKNOWN_ERROR]);
          expect(unknown.content).toBe(known.content);
        }
      });
    });
});
