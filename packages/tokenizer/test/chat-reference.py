# Renders chat templates the way transformers' apply_chat_template does (jinja2 sandbox with
# trim_blocks/lstrip_blocks and the transformers `tojson` = json.dumps(ensure_ascii=False)).
# stdin: {"template": str, "contexts": [ {...}, ... ]}; stdout: JSON list of rendered strings.
# Used by the chat test suites as the reference renderer (run with /usr/bin/python3).
import json
import sys

from jinja2.sandbox import ImmutableSandboxedEnvironment


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def main():
    job = json.load(sys.stdin)
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    env.filters["tojson"] = tojson
    tpl = env.from_string(job["template"])
    json.dump([tpl.render(**ctx) for ctx in job["contexts"]], sys.stdout, ensure_ascii=False)


main()
