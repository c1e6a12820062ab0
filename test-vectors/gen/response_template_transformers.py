#!/usr/bin/env python3
"""Extract HF transformers' own response_template parse expectations into JSON golden vectors.

Usage: python3 test-vectors/gen/response_template_transformers.py TEST_CHAT_PARSING_PY [OUT]
           [--revision=SHA] [--read=DESCRIPTION]
(OUT default: test-vectors/response-template/transformers.json). Python 3 stdlib only.

transformers' tests/utils/test_chat_parsing.py states each parse case as a test method:

    def test_x(self):
        model_out = ("..." "...")                       # the model output
        prefix = "..."                                   # optional: the chat prefix
        template_spec = {...}                            # optional: a local template
        self.assertEqual(parse_response(model_out, NAME, prefix=P)[SUB]?, EXPECTED)

This script reads the file with Python's own parser (ast) and evaluates only literals: the
module-level `*_template = {...}` dicts, the method's `model_out` / `prefix` / `template_spec`
locals and the expected value. Methods of another shape (tokenizer round trips, streaming,
errors) are skipped and listed with the reason. Nothing here parses model output: the
expectations are the file's own.
"""

import ast
import hashlib
import json
import sys


def literal(node, env):
    """A literal expression, names resolved through env (module templates, locals)."""
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        raise ValueError(f"unknown name {node.id}")
    return ast.literal_eval(node)


def parse_call(node):
    """parse_response(model_out, TEMPLATE, prefix=P) optionally subscripted: (call, [keys])."""
    keys = []
    while isinstance(node, ast.Subscript):
        keys.insert(0, ast.literal_eval(node.slice))
        node = node.value
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "parse_response"):
        return None, keys
    return node, keys


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in argv if a.startswith("--") and "=" in a)
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    src_path = args[0]
    out_path = args[1] if len(args) > 1 else "test-vectors/response-template/transformers.json"
    data = open(src_path, "rb").read()
    tree = ast.parse(data.decode("utf-8"))
    templates = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name.endswith("_template"):
                templates[name] = ast.literal_eval(node.value)
    cases, skipped = [], []
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")):
            env = dict(templates)
            found = None
            why = "no self.assertEqual(parse_response(...), ...)"
            for stmt in fn.body:
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    try:
                        env[stmt.targets[0].id] = literal(stmt.value, env)
                    except (ValueError, SyntaxError):
                        pass  # not a literal (a tokenizer, a parser object): unused by the cases read
                    continue
                if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
                    continue
                call = stmt.value
                if not (isinstance(call.func, ast.Attribute) and call.func.attr == "assertEqual" and len(call.args) == 2):
                    continue
                pr, keys = parse_call(call.args[0])
                if pr is None:
                    why = "asserts something other than parse_response(...)"
                    continue
                if found is not None:
                    why = "more than one parse_response assertion"
                    found = None
                    break
                try:
                    text = literal(pr.args[0], env)
                    template_name = pr.args[1].id if isinstance(pr.args[1], ast.Name) else None
                    template = literal(pr.args[1], env)
                    kw = {k.arg: literal(k.value, env) for k in pr.keywords}
                    expect = literal(call.args[1], env)
                except (ValueError, SyntaxError, AttributeError, IndexError) as e:
                    why = f"not literal: {e}"
                    continue
                if set(kw) - {"prefix"}:
                    why = f"keywords {sorted(set(kw) - {'prefix'})}"
                    continue
                found = {
                    "name": fn.name,
                    "line": fn.lineno,
                    "template": template_name if template_name in templates else f"{fn.name}:{template_name}",
                    "input": text,
                    "prefix": kw.get("prefix"),
                    "select": keys,
                    "expect": expect,
                }
                if found["template"] not in templates:
                    templates[found["template"]] = template
            if found is not None:
                cases.append(found)
            else:
                skipped.append({"name": fn.name, "line": fn.lineno, "reason": why})
    out = {
        "source": {
            "repository": "huggingface/transformers",
            "revision": opts.get("revision", ""),
            "path": "tests/utils/test_chat_parsing.py",
            "read": opts.get("read", "the whole file"),
            "sha256": hashlib.sha256(data).hexdigest(),
            "licence": "Apache-2.0",
            "generator": "test-vectors/gen/response_template_transformers.py",
        },
        "comparison": "parse_response(input, template, prefix=prefix) == expect (after the `select` keys); "
        "text fields are the parser's stripped text, tool_calls [{type, function: {name, arguments}}]",
        "templates": templates,
        "cases": cases,
        "skipped": skipped,
    }
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=2)
        f.write("\n")
    print(f"{len(cases)} cases, {len(skipped)} methods skipped, {len(templates)} templates -> {out_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
