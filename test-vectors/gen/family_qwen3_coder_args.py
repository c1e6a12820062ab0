"""Qwen3-Coder goldens, server step before the template (a re-implementation, labelled as such in
the golden's `source`): vLLM's chat_utils json.loads the `arguments` of assistant tool calls that
arrive as JSON strings (what OpenAI clients send), because tool-use templates such as this one need
a mapping (`tool_call.arguments|items`). Arguments that are not JSON are left as sent (the template
then fails, as it would in transformers). json.dumps keeps Python's view (1.0 stays a float, big
integers stay exact) for template_render.py, which reads this output.

stdin: {"template": ..., "special": ..., "now": ..., "requests": [...]} -> stdout: the same job.
"""
import json
import sys

job = json.load(sys.stdin)
for req in job["requests"]:
    for m in req.get("messages", []):
        for tc in m.get("tool_calls") or []:
            fn = tc.get("function", {})
            if isinstance(fn.get("arguments"), str):
                try:
                    fn["arguments"] = json.loads(fn["arguments"])
                except ValueError:
                    pass
json.dump(job, sys.stdout, ensure_ascii=False)
