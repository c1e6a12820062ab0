"""DeepSeek V3 / R1 golden generator, Python side (used by family_deepseek.js). Two modes:

  map: stdin {"special": {...}, "requests": [request, ...]} -> stdout [context, ...]
       An OpenAI-shaped chat request mapped to the variables DeepSeek's templates read. This is
       a RE-IMPLEMENTED server layer, labelled in the golden files' `source`:
       - request_common.normalize (vLLM content normalization, developer -> system, reasoning ->
         reasoning_content), then, because DeepSeek's templates need it:
       - an assistant message with tool_calls gets content None when its content is empty (what
         the OpenAI API sends: `"content": null`; V3's template renders the calls only when
         `message['content'] is none`), and no `tool_calls` key when it has none (R1's template
         tests `'tool_calls' in message`);
       - object arguments become json.dumps(arguments, ensure_ascii=False) (what transformers'
         `tojson` writes; the templates concatenate the arguments as a string, and a dict there is
         a TypeError); string arguments stay as sent; a missing call `type` becomes "function".
       - `tools` is not passed: neither template reads it.
  cut: stdin [{"text": rendered, "final": content}, ...] -> stdout [{"text"} | {"error"}, ...]
       transformers' continue_final_message cut (request_common.continue_final, verbatim).
Run with /usr/bin/python3.
"""
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from request_common import continue_final, normalize  # noqa: E402


def map_request(req, special):
    n = normalize(req)
    msgs = []
    for m in n["messages"]:
        out = {"role": m["role"], "content": m["content"]}
        if "reasoning_content" in m:
            out["reasoning_content"] = m["reasoning_content"]
        calls = m.get("tool_calls") or []
        if m["role"] == "assistant" and calls:
            if out["content"] == "":
                out["content"] = None
            out["tool_calls"] = [
                {
                    "type": c.get("type", "function"),
                    "function": {
                        "name": c["function"]["name"],
                        "arguments": c["function"]["arguments"]
                        if isinstance(c["function"]["arguments"], str)
                        else json.dumps(c["function"]["arguments"], ensure_ascii=False),
                    },
                }
                for c in calls
            ]
        msgs.append(out)
    ctx = dict(special)
    ctx.update(n["kwargs"])
    ctx.update(messages=msgs, add_generation_prompt=n["add_generation_prompt"])
    return ctx


def main():
    mode = sys.argv[1]
    job = json.load(sys.stdin)
    if mode == "map":
        out = [map_request(r, job["special"]) for r in job["requests"]]
    elif mode == "cut":
        out = []
        for j in job:
            try:
                out.append({"text": continue_final(j["text"], j["final"])})
            except Exception as e:  # noqa: BLE001 - recorded as the reference's error
                out.append({"error": f"{type(e).__name__}: {e}"})
    else:
        raise SystemExit(f"unknown mode {mode}")
    json.dump(out, sys.stdout, ensure_ascii=False)


main()
