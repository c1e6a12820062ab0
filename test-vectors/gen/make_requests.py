"""Writes test-vectors/requests.json: OpenAI / Hugging Face shaped chat requests (the shared
INPUT table of the *.request.json goldens). Edit the requests here, then run:

    /usr/bin/python3 test-vectors/gen/make_requests.py && npx biome format --write test-vectors/requests.json
    node test-vectors/generate.js

Each entry: {"name", "formats" (the families it is rendered for), "request"}. Benign text only;
every request is valid for the families listed (ChatGLM3: system first, no two user messages in a
row, a tool result right after a call; keyword-argument names are identifiers).
"""
import json
import os

ALL = ["internlm2", "chatglm3", "qwen3"]

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name, e.g. 北京"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["city"],
        },
    },
}
TIME = {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}
NAKED = {"type": "function", "function": {"name": "ping"}}


def call(cid, name, args):
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}


def u(content):
    return {"role": "user", "content": content}


def a(content):
    return {"role": "assistant", "content": content}


def s(content):
    return {"role": "system", "content": content}


U = u("What's the weather in Paris?")

REQUESTS = [
    ("content_null_object_args", ALL, {
        "messages": [
            s("You are a helpful assistant."),
            U,
            {"role": "assistant", "content": None,
             "tool_calls": [call("call_abc123", "get_weather", {"city": "Paris", "unit": "celsius"})]},
            {"role": "tool", "tool_call_id": "call_abc123", "content": "{\"temperature\": 22, \"sky\": \"clear\"}"},
        ],
        "tools": [WEATHER],
    }),
    ("string_args_as_sent", ALL, {
        "messages": [
            U,
            {"role": "assistant", "content": None, "refusal": None,
             "tool_calls": [call("call_1", "get_weather",
                                 "{\"city\": \"北京\", \"days\": 3, \"ratio\": 1.0, \"big\": 12345678901234567890, "
                                 "\"tags\": [\"a\", true, null], \"nested\": {\"k\": -0.5e-7}}")]},
            {"role": "tool", "tool_call_id": "call_1", "name": "get_weather", "content": "晴, 25 °C"},
        ],
        "tools": [WEATHER],
    }),
    ("string_args_spacing", ["internlm2", "chatglm3", "qwen3"], {
        "messages": [
            U,
            {"role": "assistant", "content": "",
             "tool_calls": [call("c", "get_weather", "{\n  \"city\":\"Paris\" ,\"unit\":\"celsius\"}")]},
            {"role": "tool", "tool_call_id": "c", "content": "22"},
            a("It is 22 °C in Paris."),
            u("Thanks!"),
        ],
        "tools": [WEATHER],
    }),
    ("parallel_calls", ALL, {
        "messages": [
            s("Use tools when useful."),
            u("Weather in Paris and the time in Tokyo?"),
            {"role": "assistant", "content": "Let me check both.",
             "tool_calls": [call("call_1", "get_weather", {"city": "Paris"}),
                            call("call_2", "get_time", "{\"tz\": \"Asia/Tokyo\"}")]},
            {"role": "tool", "tool_call_id": "call_1", "content": "{\"temperature\": 22}"},
            {"role": "tool", "tool_call_id": "call_2", "content": "{\"time\": \"18:05\"}"},
        ],
        "tools": [WEATHER, TIME],
    }),
    ("tool_roundtrip_answered", ALL, {
        "messages": [
            U,
            {"role": "assistant", "content": None, "tool_calls": [call("x1", "get_weather", {"city": "Paris"})]},
            {"role": "tool", "tool_call_id": "x1", "content": "{\"temperature\": 22}"},
            a("It is 22 °C and clear in Paris."),
        ],
        "tools": [WEATHER, NAKED],
        "add_generation_prompt": False,
    }),
    ("text_parts", ALL, {
        "messages": [
            {"role": "system", "content": [{"type": "text", "text": "You are terse."}]},
            {"role": "user", "content": [{"type": "text", "text": "First line."},
                                          {"type": "text", "text": "Second line, 你好."}]},
            {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]},
            {"role": "user", "content": [{"type": "text", "text": "Summarize."}]},
        ],
    }),
    ("tool_result_parts", ALL, {
        "messages": [
            U,
            {"role": "assistant", "tool_calls": [call("t1", "get_weather", {"city": "Paris"})]},
            {"role": "tool", "tool_call_id": "t1", "content": [{"type": "text", "text": "{\"temperature\": 22}"}]},
        ],
        "tools": [WEATHER],
    }),
    ("developer_role", ALL, {
        "messages": [{"role": "developer", "content": "Answer in French."}, u("Hello!")],
    }),
    ("developer_with_tools", ALL, {
        "messages": [{"role": "developer", "content": "Call tools when needed."}, u("Time in Tokyo?")],
        "tools": [TIME],
    }),
    ("tools_without_system", ALL, {
        "messages": [u("Weather in Oslo?")],
        "tools": [WEATHER],
    }),
    ("reasoning_content", ALL, {
        "messages": [
            u("2+2?"),
            {"role": "assistant", "content": "4", "reasoning_content": "Simple arithmetic."},
            u("And 3+3?"),
            {"role": "assistant", "content": "6", "reasoning_content": "\nAdd three and three.\n"},
        ],
        "add_generation_prompt": False,
    }),
    ("reasoning_alias", ALL, {
        "messages": [
            u("Capital of France?"),
            {"role": "assistant", "content": "Paris.", "reasoning": "Well known."},
        ],
        "add_generation_prompt": False,
    }),
    ("reasoning_then_call", ALL, {
        "messages": [
            U,
            {"role": "assistant", "content": "", "reasoning_content": "I should call the tool.",
             "tool_calls": [call("r1", "get_weather", {"city": "Paris"})]},
            {"role": "tool", "tool_call_id": "r1", "content": "{\"temperature\": 22}"},
        ],
        "tools": [WEATHER],
    }),
    ("prefill_assistant", ALL, {
        "messages": [u("Write a haiku about rain."), a("Soft rain on the roof")],
        "continue_final_message": True,
    }),
    ("prefill_trailing_space", ALL, {
        "messages": [u("Continue: once upon a"), a("Once upon a ")],
        "continue_final_message": True,
        "add_generation_prompt": False,
    }),
    ("prefill_leading_and_trailing_space", ALL, {
        "messages": [u("Go on."), a(" It was  ")],
        "continue_final_message": True,
    }),
    ("prefill_after_tool", ALL, {
        "messages": [
            U,
            {"role": "assistant", "content": None, "tool_calls": [call("p1", "get_weather", {"city": "Paris"})]},
            {"role": "tool", "tool_call_id": "p1", "content": "{\"temperature\": 22}"},
            a("The temperature is"),
        ],
        "tools": [WEATHER],
        "continue_final_message": True,
    }),
    ("prefill_user", ALL, {
        "messages": [u("Please complete this sentence")],
        "continue_final_message": True,
    }),
    ("thinking_disabled_kwargs", ALL, {
        "messages": [u("Hi")],
        "chat_template_kwargs": {"enable_thinking": False, "date_string": "26 Jul 2024"},
    }),
    ("names_are_ignored_or_headers", ALL, {
        "messages": [
            s("Group chat."),
            {"role": "user", "name": "alice", "content": "Hi all"},
            {"role": "assistant", "name": "bot", "content": "Hello Alice."},
            {"role": "user", "name": "bob", "content": "Hi"},
        ],
    }),
    # Exactly what packages/tokenizer/test/openai-types.test.ts builds with the `openai` SDK types.
    ("openai_sdk_typed", ALL, {
        "messages": [
            {"role": "developer", "content": [{"type": "text", "text": "You are a weather bot."}]},
            {"role": "user", "content": [{"type": "text", "text": "Weather in Paris and Tokyo?"}], "name": "alice"},
            {"role": "assistant", "content": None, "refusal": None,
             "tool_calls": [call("call_p", "get_weather", "{\"city\": \"Paris\"}"),
                            call("call_t", "get_weather", "{\"city\": \"Tokyo\", \"unit\": \"celsius\"}")]},
            {"role": "tool", "tool_call_id": "call_p", "content": "{\"temperature\": 22}"},
            {"role": "tool", "tool_call_id": "call_t", "content": [{"type": "text", "text": "{\"temperature\": 18}"}]},
            a("Paris 22 °C, Tokyo 18 °C."),
            u("Thanks."),
        ],
        "tools": [WEATHER],
    }),
    ("native_internlm2_action_and_openai", ["internlm2"], {
        "messages": [
            u("Plot x^2."),
            {"role": "assistant", "content": "Sure.",
             "action": {"kind": "interpreter", "text": "\n```python\nprint(1)\n```"}},
            {"role": "environment", "name": "interpreter", "content": "1"},
            {"role": "assistant", "content": None, "tool_calls": [call("a", "get_weather", {"city": "Paris"})]},
            {"role": "tool", "tool_call_id": "a", "content": "{\"temperature\": 22}"},
        ],
        "tools": [WEATHER],
    }),
    ("native_chatglm3_metadata_and_openai", ["chatglm3"], {
        "messages": [
            s("You can run Python."),
            u("Compute 2**10."),
            {"role": "assistant", "metadata": "interpreter", "content": "```python\nprint(2**10)\n```"},
            {"role": "observation", "content": "```result\n1024\n```"},
            {"role": "assistant", "content": None, "tool_calls": [call("b", "get_weather", {"city": "Paris"})]},
            {"role": "tool", "tool_call_id": "b", "content": "{\"temperature\": 22}"},
        ],
    }),
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..", "requests.json")
    doc = {"requests": [{"name": n, "formats": f, "request": r} for n, f, r in REQUESTS]}
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, ensure_ascii=False, indent=2)
        fh.write("\n")
    print(f"requests.json: {len(REQUESTS)} requests")


main()
