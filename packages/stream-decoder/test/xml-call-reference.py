"""Reference for test/xml-call.test.ts: the typing rules of vLLM's Qwen3CoderToolParser
(_convert_param_value, vllm/tool_parsers/qwen3coder_tool_parser.py @ 0b13f933b50e), re-implemented
here in a few lines, labelled as such, so that the conversions themselves are Python's own: int(),
float(), json.loads, ast.literal_eval and json.dumps(ensure_ascii=False).

stdin: [{"value": str, "type": str | null}]  (type null: the property has no "type")
stdout: [{"json": str} | {"error": str}]     (error: the conversion or json.dumps raised)
"""
import ast
import json
import sys


def convert(value, ptype):
    if value.lower() == "null":
        return None
    t = "string" if ptype is None else str(ptype).strip().lower()
    if t in ["string", "str", "text", "varchar", "char", "enum"]:
        return value
    if t.startswith(("int", "uint", "long", "short", "unsigned")):
        try:
            return int(value)
        except (ValueError, TypeError):
            return value
    if t.startswith(("num", "float")):
        try:
            f = float(value)
            return f if f - int(f) != 0 else int(f)
        except (ValueError, TypeError):
            return value
    if t in ["boolean", "bool", "binary"]:
        return value.lower() == "true"
    if t in ["object", "array", "arr"] or t.startswith(("dict", "list")):
        try:
            return json.loads(value)
        except (json.JSONDecodeError, TypeError, ValueError):
            pass
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError):
        return value


out = []
for case in json.load(sys.stdin):
    try:
        out.append({"json": json.dumps(convert(case["value"], case["type"]), ensure_ascii=False)})
    except Exception as e:  # noqa: BLE001 - the test compares outcomes
        out.append({"error": type(e).__name__})
json.dump(out, sys.stdout, ensure_ascii=False)
