"""Renders normalized chat requests with Qwen3's own chat_template the way transformers'
apply_chat_template(tokenize=False) does: jinja2 ImmutableSandboxedEnvironment(trim_blocks=True,
lstrip_blocks=True) with transformers' `tojson` filter and `raise_exception` / `strftime_now`
globals; then the continue_final_message cut (request_common.continue_final).

stdin: {"template": str, "requests": [request, ...]}; stdout: JSON list of rendered strings.
Run with /usr/bin/python3 (python3-jinja2).
"""
import json
import os
import sys
from datetime import datetime

from jinja2.exceptions import TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from request_common import continue_final, normalize  # noqa: E402


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def raise_exception(message):
    raise TemplateError(message)


def strftime_now(fmt):
    return datetime.now().strftime(fmt)


def main():
    job = json.load(sys.stdin)
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    tpl = env.from_string(job["template"])
    out = []
    for req in job["requests"]:
        n = normalize(req)
        ctx = dict(n["kwargs"])
        ctx.update(messages=n["messages"], add_generation_prompt=n["add_generation_prompt"])
        if n["tools"]:
            ctx["tools"] = n["tools"]
        rendered = tpl.render(**ctx)
        if n["continue_final_message"]:
            rendered = continue_final(rendered, n["messages"][-1]["content"])
        out.append(rendered)
    json.dump(out, sys.stdout, ensure_ascii=False)


main()
