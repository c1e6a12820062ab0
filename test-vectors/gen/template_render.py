"""Renders chat requests (or raw template contexts) with any chat_template the way transformers'
apply_chat_template(tokenize=False) does: jinja2 ImmutableSandboxedEnvironment(trim_blocks=True,
lstrip_blocks=True, extensions=[loopcontrols]) with transformers' `tojson` filter and the
`raise_exception` / `strftime_now` globals; the config's special tokens as variables; the request
mapped as request_common.normalize does for this template (template_shape); then the
continue_final_message cut (request_common.continue_final). strftime_now uses a fixed clock
(`now`, ISO text) so goldens are reproducible.

stdin: {"template": str, "special": {name: str}, "now": "2024-07-26T10:00:00",
        "requests": [request, ...]}            -> stdout: [{"text": str} | {"error": str}, ...]
   optional: "reasoning_as": "thinking" (the template's name for reasoning_content: gpt-oss),
             "loads_arguments": true (string tool-call arguments json.loads'ed, as vLLM's
             chat_utils does before any template sees them; a re-implementation, labelled)
   or: {"template": str, "contexts": [dict, ...], "now": ...}   (raw variables, no request mapping)
Run with /usr/bin/python3 (python3-jinja2).
"""
import json
import os
import sys
from datetime import datetime

import jinja2.ext
from jinja2.exceptions import TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from request_common import continue_final, normalize, template_shape  # noqa: E402


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


class AssistantTracker(jinja2.ext.Extension):
    """transformers' {% generation %} extension (chat_template_utils.py), re-implemented: the block
    renders its body unchanged (transformers also records the span for assistant masks)."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_render", []), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def raise_exception(message):
    raise TemplateError(message)


def final_text(content, shape):
    """The final message's text for the continue_final_message cut: transformers takes the last
    text part when the template is given a list, else the text the template is given."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if shape["content_list"]:
        return content[-1]["text"] if content else ""
    return "\n".join(p["text"] for p in content)


def main():
    job = json.load(sys.stdin)
    now = datetime.fromisoformat(job.get("now", "2024-07-26T10:00:00"))
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[AssistantTracker, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: now.strftime(fmt)
    tpl = env.from_string(job["template"])
    out = []
    if "contexts" in job:
        for ctx in job["contexts"]:
            try:
                out.append({"text": tpl.render(**ctx)})
            except Exception as e:  # noqa: BLE001 - the test compares error kinds
                out.append({"error": f"{type(e).__name__}: {e}"})
        json.dump(out, sys.stdout, ensure_ascii=False)
        return
    shape = template_shape(job["template"], env)
    for req in job["requests"]:
        n = normalize(req, shape)
        for m in n["messages"]:
            if job.get("reasoning_as") and "reasoning_content" in m:
                m[job["reasoning_as"]] = m.pop("reasoning_content")
            if job.get("loads_arguments"):
                for tc in m.get("tool_calls") or []:
                    fn = tc.get("function") or {}
                    if isinstance(fn.get("arguments"), str):
                        try:
                            fn["arguments"] = json.loads(fn["arguments"])
                        except ValueError:
                            pass
        ctx = dict(job.get("special", {}))
        ctx.update(n["kwargs"])
        ctx.update(messages=n["messages"], add_generation_prompt=n["add_generation_prompt"])
        if n["tools"]:
            ctx["tools"] = n["tools"]
        try:
            rendered = tpl.render(**ctx)
            if n["continue_final_message"]:
                rendered = continue_final(rendered, final_text(req["messages"][-1].get("content"), shape))
            out.append({"text": rendered})
        except Exception as e:  # noqa: BLE001
            out.append({"error": f"{type(e).__name__}: {e}"})
    json.dump(out, sys.stdout, ensure_ascii=False)


main()
