"""The Llama 3.x goldens' reference rendering: template_render.py (transformers' jinja2
environment) after one server step the Llama 3.1+ templates need, re-implemented and labelled:
vLLM's chat_utils._postprocess_messages, which json.loads every string `arguments` of an
assistant message's tool_calls ("tool call arguments in assistant-role messages with tool_calls
need to be dicts not JSON str"), so `tool_call.arguments | tojson` writes the object, not a
quoted string. Python json.loads keeps what JS cannot (1.0 vs 1, big integers, key order, the
last value of a repeated key at its first position).

stdin/stdout: the job and result of template_render.py (requests form).
Run with /usr/bin/python3 (python3-jinja2).
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True


def loads_arguments(request):
    for m in request.get("messages", []):
        if m.get("role") == "assistant" and isinstance(m.get("tool_calls"), list):
            for tc in m["tool_calls"]:
                fn = tc.get("function", {})
                if isinstance(fn.get("arguments"), str):
                    fn["arguments"] = json.loads(fn["arguments"])
    return request


def main():
    job = json.load(sys.stdin)
    job["requests"] = [loads_arguments(r) for r in job["requests"]]
    here = os.path.dirname(os.path.abspath(__file__))
    r = subprocess.run(
        [sys.executable, os.path.join(here, "template_render.py")],
        input=json.dumps(job, ensure_ascii=False),
        capture_output=True,
        text=True,
        check=False,
    )
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.exit(r.returncode)
    sys.stdout.write(r.stdout)


main()
