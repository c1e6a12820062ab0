"""Writes test-vectors/templates-extra/requests-random.json: seeded random chat requests for the
templates-extra suite (beside the hand-written requests.json). Each is a plausible conversation:
an optional system (or developer) message, user/assistant turns (sometimes out of order, which many
templates refuse with raise_exception), assistant tool calls with object or JSON-string arguments
and their tool results, reasoning_content, add_generation_prompt either way, sometimes
enable_thinking; texts drawn from ASCII words, CJK, emoji (incl. ZWJ and skin tones), whitespace
runs (\\t, \\r\\n, U+3000, U+00A0, U+2028), quotes/backslashes, Jinja syntax and other formats'
reserved strings. Deterministic (random.Random(SEED)); rerun to regenerate.

Usage: python3 test-vectors/gen/templates_extra_random.py [COUNT]   (default 40)
"""
import json
import os
import random
import sys

SEED = 20261201
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "templates-extra", "requests-random.json")

UNITS = [
    "hello", "world", "the", "answer", "is", "42", "Paris", "ok", "?", "!", ".", ",", " ", "  ", "\n", "\n\n",
    "\t", "\r\n", "\u3000", "\u00a0", "\u2028", "你好", "世界", "天気", "한국어", "😀", "👍🏽", "👨‍👩‍👧", "é", "ß",
    '"', "'", "\\", "{{ x }}", "{% if %}", "{#", "<|im_end|>", "</s>", "[INST]", "<think>", "</think>",
    "<tool_call>", "<|eot_id|>", "<start_of_turn>", "<｜end▁of▁sentence｜>", "```json", "{\"a\": 1}", "&amp;", "<b>",
]
TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "description": "Get the weather for a city.",
                                      "parameters": {"type": "object", "properties": {"city": {"type": "string"},
                                                     "days": {"type": "integer"}}, "required": ["city"]}}},
    {"type": "function", "function": {"name": "search", "description": "Search the web.",
                                      "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}},
]


def text(r, lo=1, hi=8):
    return "".join(r.choice(UNITS) for _ in range(r.randint(lo, hi)))


def request(r, n):
    msgs = []
    if r.random() < 0.5:
        msgs.append({"role": "developer" if r.random() < 0.15 else "system", "content": text(r)})
    tools = r.random() < 0.4
    call_no = 0
    for turn in range(r.randint(1, 3)):
        msgs.append({"role": "user", "content": text(r)})
        if tools and r.random() < 0.6:
            calls = []
            for _ in range(r.randint(1, 2)):
                call_no += 1
                fn = r.choice(TOOLS)["function"]["name"]
                args = {"city": text(r, 1, 3)} if fn == "get_weather" else {"q": text(r, 1, 3)}
                if r.random() < 0.3:
                    args["days"] = r.randint(1, 9)
                cid = f"call{n:04d}{call_no:05d}"
                calls.append({"id": cid, "type": "function",
                              "function": {"name": fn, "arguments": json.dumps(args, ensure_ascii=False)
                                           if r.random() < 0.5 else args}})
            a = {"role": "assistant", "content": text(r, 0, 2) if r.random() < 0.3 else "", "tool_calls": calls}
            if r.random() < 0.3:
                a["reasoning_content"] = text(r)
            msgs.append(a)
            for c in calls:
                msgs.append({"role": "tool", "tool_call_id": c["id"], "name": c["function"]["name"], "content": text(r)})
            if r.random() < 0.7:
                msgs.append({"role": "assistant", "content": text(r)})
        elif turn < 2 or r.random() < 0.5:
            a = {"role": "assistant", "content": text(r)}
            if r.random() < 0.25:
                a["reasoning_content"] = text(r)
            msgs.append(a)
    if r.random() < 0.7 and msgs[-1]["role"] == "assistant":
        msgs.pop() if len(msgs) > 1 and msgs[-1].get("tool_calls") is None else None
    if r.random() < 0.08 and len(msgs) > 2:
        i = r.randrange(len(msgs) - 1)
        msgs[i], msgs[i + 1] = msgs[i + 1], msgs[i]
    req = {"messages": msgs}
    if tools:
        req["tools"] = TOOLS
    if r.random() < 0.3:
        req["add_generation_prompt"] = msgs[-1]["role"] != "assistant" and r.random() < 0.5
    if r.random() < 0.2:
        req["chat_template_kwargs"] = {"enable_thinking": r.random() < 0.5}
    return req


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    r = random.Random(SEED)
    reqs = [{"name": f"random-{i:02d}", "request": request(r, i)} for i in range(count)]
    doc = {"about": f"Seeded random chat requests (gen/templates_extra_random.py, seed {SEED}).", "requests": reqs}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{count} requests -> {OUT}")


main()
