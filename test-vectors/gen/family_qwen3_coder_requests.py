"""Writes test-vectors/families/qwen3-coder.requests.json, the inputs of gen/family_qwen3_coder.js
(hand-written requests, benign text only; edit them here, run this, format the output with
`npx biome format --write test-vectors/families`, then run the generator).

    /usr/bin/python3 test-vectors/gen/family_qwen3_coder_requests.py
"""
import json
import os

W = {"type": "function", "function": {"name": "get_weather", "description": "  Get the weather for a city.\n", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "days": {"type": "integer", "description": "How many days", "minimum": 1, "maximum": 14}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
ALARM = {"type": "function", "function": {"name": "set_alarms", "description": "Set alarms.", "parameters": {"type": "object", "properties": {"times": {"type": "array", "items": {"type": "string"}, "description": "HH:MM times"}, "loud": {"type": "boolean"}, "volume": {"type": "number"}, "label": {"type": ["string", "null"]}, "options": {"type": "object", "properties": {"snooze": {"type": "integer"}, "tone": {"type": "string", "enum": ["bell", "beep"]}}, "additionalProperties": False}}, "required": ["times"], "additionalProperties": False}, "strict": True}}
NESTED = {"type": "function", "function": {"name": "create_event", "description": "Create a calendar event.", "parameters": {"type": "object", "properties": {"event": {"$ref": "#/$defs/Event"}, "attendees": {"type": "array", "items": {"type": "object", "properties": {"email": {"type": "string"}, "optional": {"type": "boolean", "default": False}}}}, "when": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}], "default": None, "title": "When"}, "priority": {"type": "integer", "enum": [1, 2, 3]}, "note": {"description": "free text, no type"}, "flag": True}, "$defs": {"Event": {"type": "object", "properties": {"title": {"type": "string"}}}}, "required": ["event"]}}}
NOPARAMS = {"type": "function", "function": {"name": "now"}}
ODD = {"type": "function", "function": {"name": "odd_schema", "description": "Parameters without properties.", "parameters": {"type": "object"}}}
CJK = {"type": "function", "function": {"name": "搜索", "description": "搜索网页 🔍", "parameters": {"type": "object", "properties": {"查询": {"type": "string", "description": "关键词\t"}, "quotes": {"type": "array", "enum": [["it's", "say \"hi\""], ["a\u00a0b", "zero\u200bwidth", "tab\tnew\nline", "back\\slash"]]}}}}}


def call(name, args, id=None):
    c = {"type": "function", "function": {"name": name, "arguments": args}}
    if id:
        c["id"] = id
    return c


reqs = []


def add(name, **r):
    reqs.append({"name": name, "request": r})


add("single-user", messages=[{"role": "user", "content": "Hello"}])
add("system-multi-turn", messages=[{"role": "system", "content": "You are a coding assistant."}, {"role": "user", "content": "Write hello world in C."}, {"role": "assistant", "content": "```c\n#include <stdio.h>\nint main(void) { puts(\"hello\"); }\n```"}, {"role": "user", "content": "Thanks"}])
add("no-generation-prompt", messages=[{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello! How can I help?"}], add_generation_prompt=False)
add("cjk-emoji-whitespace", messages=[{"role": "system", "content": "  用中文回答。 \n"}, {"role": "user", "content": "你好 😀👍🏽 \u3000\t tabs\r\nCRLF  "}, {"role": "assistant", "content": "  你好！\n\n"}, {"role": "user", "content": "🇫🇷 Ω≈ç√ \u00a0 "}])
add("tools-no-system", tools=[W], messages=[{"role": "user", "content": "Weather in Paris?"}])
add("tools-with-system", tools=[W, NOPARAMS], messages=[{"role": "system", "content": "Use tools when needed."}, {"role": "user", "content": "Weather in Paris for 3 days?"}])
add("tool-call-object-args", tools=[W, ALARM], messages=[
    {"role": "user", "content": "Weather in Paris for 3 days, and alarms at 7 and 8?"},
    {"role": "assistant", "content": "Let me check.", "tool_calls": [call("get_weather", {"city": "Paris", "days": 3, "unit": "celsius"}, "call_1"), call("set_alarms", {"times": ["07:00", "08:00"], "loud": False, "volume": 0.75, "label": None, "options": {"snooze": 5, "tone": "bell"}}, "call_2")]},
    {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp\": 21, \"sky\": \"sunny\"}"},
    {"role": "tool", "tool_call_id": "call_2", "content": "ok"},
    {"role": "assistant", "content": "Sunny, 21°C. Alarms set for 07:00 and 08:00."},
    {"role": "user", "content": "Thanks!"}])
add("tool-call-string-args", tools=[ALARM], messages=[
    {"role": "user", "content": "Alarm at 7, quietly, volume 1.0"},
    {"role": "assistant", "content": None, "tool_calls": [call("set_alarms", "{\"times\": [\"07:00\"], \"loud\": false, \"volume\": 1.0, \"options\": {\"snooze\": 12345678901234567890}}")]},
    {"role": "tool", "content": "done"}])
add("tool-call-no-content-then-generation", tools=[W], messages=[
    {"role": "user", "content": "Weather?"},
    {"role": "assistant", "content": "", "tool_calls": [call("get_weather", {"city": "Zürich"})]},
    {"role": "tool", "content": "cloudy"}])
add("tool-call-no-arguments", tools=[NOPARAMS], messages=[
    {"role": "user", "content": "What time is it?"},
    {"role": "assistant", "tool_calls": [call("now", {})]},
    {"role": "tool", "content": "12:00"},
    {"role": "assistant", "content": "It is noon."}], add_generation_prompt=False)
add("nested-schema-enum-anyof", tools=[NESTED, ODD], messages=[
    {"role": "user", "content": "Create a meeting"},
    {"role": "assistant", "content": "  Creating it now.  ", "tool_calls": [call("create_event", {"event": {"title": "Sync", "tags": ["a", "b"]}, "attendees": [{"email": "a@x.org", "optional": True}, {"email": "b@x.org"}], "when": "2025-01-01T10:00:00Z", "priority": 2, "note": "multi\nline\n\nnote  "})]},
    {"role": "tool", "content": "created"},
    {"role": "user", "content": "And another with odd schema"},
    {"role": "assistant", "tool_calls": [call("odd_schema", {"x": [1, [2, [3]]], "y": -0.5, "z": "1e-7"})]}])
add("cjk-tools", tools=[CJK], messages=[
    {"role": "user", "content": "搜索 Qwen3-Coder"},
    {"role": "assistant", "content": "好的", "tool_calls": [call("搜索", {"查询": "Qwen3-Coder 文档 📄", "quotes": ["it's", "say \"hi\"", "both ' and \"", "\u00e9\u00a0\u200b\u0000\u007f\U0001F600\u0085\u2028"]})]},
    {"role": "tool", "content": "结果：…"}])
add("parallel-calls-multi-turn", tools=[W], messages=[
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Paris and Tokyo"},
    {"role": "assistant", "content": None, "tool_calls": [call("get_weather", {"city": "Paris"}), call("get_weather", {"city": "Tokyo", "days": 2})]},
    {"role": "tool", "content": "rain"},
    {"role": "tool", "content": "sun"},
    {"role": "assistant", "content": "Paris: rain. Tokyo: sun."},
    {"role": "user", "content": "And Rome?"},
    {"role": "assistant", "content": "Checking.", "tool_calls": [call("get_weather", {"city": "Rome"})]},
    {"role": "tool", "content": "clear"}], add_generation_prompt=True)
add("developer-parts-null", messages=[
    {"role": "developer", "content": [{"type": "text", "text": "Part one."}, {"type": "text", "text": "Part two."}]},
    {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
    {"role": "assistant", "content": None},
    {"role": "user", "content": "Again"}])
add("later-system-and-ignored-fields", messages=[
    {"role": "user", "content": "first", "name": "alice"},
    {"role": "system", "content": "A later system message."},
    {"role": "assistant", "content": "ok", "reasoning_content": "not rendered by this template"},
    {"role": "user", "content": "second"}], enable_thinking=False, chat_template_kwargs={"enable_thinking": False})
add("tool-first-in-loop", messages=[
    {"role": "system", "content": "sys"},
    {"role": "tool", "content": "orphan result"},
    {"role": "user", "content": "hi"}])
add("prefill", messages=[{"role": "user", "content": "Write a haiku"}, {"role": "assistant", "content": "Autumn moon"}], continue_final_message=True)
add("prefill-leading-space", messages=[{"role": "user", "content": "Go on"}, {"role": "assistant", "content": "  The answer is "}], continue_final_message=True)
add("empty-tools-list", tools=[], messages=[{"role": "user", "content": "no tools"}])
add("gen-typed-calls", tools=[W, ALARM], messages=[
    {"role": "user", "content": "Weather in Oslo for 2 days in fahrenheit, then a loud alarm at 06:30"},
    {"role": "assistant", "content": "I'll do both.", "tool_calls": [call("get_weather", {"city": "Oslo", "days": 2, "unit": "fahrenheit"}), call("set_alarms", {"times": ["06:30"], "loud": True, "volume": 11.5, "label": "wake up", "options": {"snooze": 10, "tone": "beep"}})]}], add_generation_prompt=False)
add("gen-parallel-no-content", tools=[W], messages=[
    {"role": "user", "content": "Paris and 東京"},
    {"role": "assistant", "content": None, "tool_calls": [call("get_weather", {"city": "Paris"}), call("get_weather", {"city": "東京 🗼", "days": 7})]}], add_generation_prompt=False)
add("gen-code-argument", tools=[{"type": "function", "function": {"name": "write_file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}, "overwrite": {"type": "boolean"}}}}}], messages=[
    {"role": "user", "content": "Write the script"},
    {"role": "assistant", "content": "Writing it.", "tool_calls": [call("write_file", {"path": "src/main.py", "content": "def main():\n    print(\"<parameter=x>\")  # </function> in code\n\n\nif __name__ == \"__main__\":\n    main()\n", "overwrite": False})]}], add_generation_prompt=False)
add("error-string-args-not-json", tools=[W], messages=[{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [call("get_weather", "city=Paris")]}])
add("error-string-args-array", tools=[W], messages=[{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [call("get_weather", "[1, 2]")]}])

doc = {
    "family": "qwen3-coder",
    "note": "Inputs of gen/family_qwen3_coder.js, written by gen/family_qwen3_coder_requests.py (benign text only). error-* requests fail in the reference template and must fail in chatwire.",
    "requests": reqs,
}
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "families", "qwen3-coder.requests.json")
with open(out, "w", encoding="utf-8") as f:
    f.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
print(f"{len(reqs)} requests -> {os.path.normpath(out)}")
