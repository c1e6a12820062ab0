#!/usr/bin/env python3
"""Extract llama.cpp's own parse expectations from tests/test-chat.cpp into JSON golden vectors.

Usage: python3 test-vectors/gen/peer_parse_llamacpp.py TEST_CHAT_CPP [OUT] [--revision=SHA] [--repository=OWNER/NAME]
(OUT default: test-vectors/peer-parse/llamacpp.json). Python 3 stdlib only.

test-chat.cpp states every parse case as a builder chain on a tester bound to one template:

    auto tst = peg_tester("models/templates/X.jinja", detailed_debug);
    tst.test("model output").tools({ special_function_tool }).expect(message_assist_call).run();

This script reads that C++ subset: string literals (escapes, raw strings, adjacent
concatenation), the file's `static common_chat_tool NAME{...}` tools, its `common_chat_msg`
constants and helper calls (simple_assist_msg and friends, evaluated as the C++ helpers do),
`for (... X : { "a.jinja", ... })` loops and the LFM2 helper function that run one tester
body over several templates. A chain it cannot read is recorded under `unreadable` with the
reason, never guessed. Nothing here parses model output: expectations are the file's own.
"""

import hashlib
import json
import re
import sys

# --- C++ tokens -------------------------------------------------------------------------

TOKEN = re.compile(
    r"""
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<raw>R"(?P<delim>[^()\\\s]{0,16})\()
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<chr>'(?:[^'\\\n]|\\.)')
  | (?P<num>-?\d+(?:\.\d+)?)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<op>[{}()\[\],;.=&<>:*+!|-])
    """,
    re.X | re.S,
)

SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "?": "?"}


def unescape(body):
    """A C++ narrow string literal body -> str (the file is UTF-8; \\x and \\u escapes as bytes/code points)."""
    out = bytearray()
    i = 0
    raw = body.encode("utf-8")
    while i < len(raw):
        c = raw[i]
        if c != 0x5C:
            out.append(c)
            i += 1
            continue
        e = chr(raw[i + 1])
        if e == "x":
            m = re.match(rb"[0-9a-fA-F]+", raw[i + 2 :])
            out.append(int(m.group(0), 16) & 0xFF)
            i += 2 + len(m.group(0))
        elif e in ("u", "U"):
            n = 4 if e == "u" else 8
            out += chr(int(raw[i + 2 : i + 2 + n], 16)).encode("utf-8")
            i += 2 + n
        elif e in SIMPLE_ESCAPES:
            out += SIMPLE_ESCAPES[e].encode("utf-8")
            i += 2
        else:
            raise ValueError("unknown escape \\" + e)
    return out.decode("utf-8")


def tokenize(src):
    toks = []
    pos = 0
    while pos < len(src):
        m = TOKEN.match(src, pos)
        if not m:
            toks.append(("op", src[pos], pos))
            pos += 1
            continue
        kind = m.lastgroup if m.lastgroup != "delim" else "raw"
        if m.group("raw"):
            end = src.index(")" + m.group("delim") + '"', m.end())
            toks.append(("strlit", src[m.end() : end], pos))
            pos = end + len(m.group("delim")) + 2
            continue
        if kind == "str":
            toks.append(("strlit", unescape(m.group(0)[1:-1]), pos))
        elif kind != "ws":
            toks.append((kind, m.group(0), pos))
        pos = m.end()
    return toks


# --- expressions -------------------------------------------------------------------------


class Unreadable(Exception):
    pass


class Parser:
    def __init__(self, toks, i=0):
        self.t = toks
        self.i = i

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else ("eof", "", -1)

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise Unreadable("expected %r, got %r" % (value, tok[1]))
        self.i += 1
        return tok

    def items(self, close):
        """Comma-separated expressions up to `close` (taken; a trailing comma is allowed)."""
        out = []
        while self.peek()[1] != close:
            out.append(self.expr())
            if self.peek()[1] == ",":
                self.take()
        self.take(close)
        return out

    def expr(self):
        """string | number | id | id(args) | std::string(...) | { list } ; returns a tagged tuple."""
        kind, val, _ = self.peek()
        if kind == "strlit":
            s = ""
            while self.peek()[0] == "strlit":
                s += self.take()[1]
            return ("str", s)
        if kind == "num":
            self.take()
            return ("num", float(val) if "." in val else int(val))
        if val == "{":
            self.take()
            return ("list", self.items("}"))
        if kind == "id":
            self.take()
            if self.peek()[1] == "(":
                self.take()
                return ("call", val, self.items(")"))
            return ("id", val)
        raise Unreadable("unexpected token %r" % val)


# --- the file's values ---------------------------------------------------------------------


def items_of(e, what):
    """The elements of a `{ ... }` expression; Unreadable naming `what` for anything else."""
    if e[0] != "list":
        raise Unreadable(what + " not a list")
    return e[1]


def assist(content="", reasoning="", name="", arguments="", call_id=""):
    """simple_assist_msg: a call is added when the name or the id is non-empty."""
    calls = [{"name": name, "arguments": arguments, "id": call_id}] if name or call_id else []
    return {"content": content, "reasoning_content": reasoning, "tool_calls": calls}


class Env:
    def __init__(self, toks):
        self.tools = {}
        self.msgs = {}
        self.locals = {}  # `auto x = ...;` inside the test function: name -> expression (latest wins)
        self.toks = toks
        self.read_tools()
        self.read_msgs()

    def read_tools(self):
        t = self.toks
        for i in range(len(t) - 3):
            if t[i][1] == "common_chat_tool" and t[i + 1][0] == "id" and t[i + 2][1] == "{":
                p = Parser(t, i + 2)
                fields = p.expr()[1]
                name, desc, params = (f[1] for f in fields)
                self.tools[t[i + 1][1]] = {"name": name, "description": desc, "parameters": json.loads(params)}

    def read_msgs(self):
        t = self.toks
        for i in range(len(t) - 4):
            if t[i][1] == "common_chat_msg" and t[i + 1][0] == "id" and t[i + 2][1] == "=":
                try:
                    self.msgs[t[i + 1][1]] = self.msg(Parser(t, i + 3).expr())
                except Unreadable:
                    pass

    def resolve(self, e):
        return self.locals[e[1]] if e[0] == "id" and e[1] in self.locals else e

    def string(self, e):
        e = self.resolve(e)
        if e[0] == "str":
            return e[1]
        if e[0] == "call" and e[1] == "std::string" and len(e[2]) == 1:
            return self.string(e[2][0])
        raise Unreadable("not a string: %r" % (e,))

    def msg(self, e):
        e = self.resolve(e)
        if e[0] == "id" and e[1] in self.msgs:
            return json.loads(json.dumps(self.msgs[e[1]]))
        if e[0] != "call":
            raise Unreadable("not a message: %r" % (e,))
        name, args = e[1], e[2]
        s = lambda k: self.string(args[k])
        if name == "simple_assist_msg":
            return assist(*[self.string(a) for a in args])
        if name == "message_with_tool_calls":
            return assist("", "", s(0), s(1))
        if name == "message_with_tool_calls_and_reasoning":
            return assist("", s(2), s(0), s(1))
        if name == "message_with_content_and_tool_call":
            return assist(s(0), "", s(1), s(2))
        if name == "message_with_reasoning_and_tool_call":
            return assist("", s(0), s(1), s(2))
        if name == "message_with_reasoning_content_and_multiple_tool_calls":
            calls = [{"name": self.string(c[1][0]), "arguments": self.string(c[1][1]), "id": ""} for c in args[2][1]]
            return {"content": s(1), "reasoning_content": s(0), "tool_calls": calls}
        raise Unreadable("unknown message helper " + name)

    def calls(self, e):
        """expect_tool_calls({ { name, args, id }, ... }): common_chat_tool_call aggregates."""
        out = []
        for c in items_of(e, "tool calls"):
            if c[0] != "list" or not 2 <= len(c[1]) <= 3:
                raise Unreadable("tool call not {name, args[, id]}")
            f = c[1]
            call_id = self.string(f[2]) if len(f) == 3 and f[2][0] != "list" else ""
            out.append({"name": self.string(f[0]), "arguments": self.string(f[1]), "id": call_id})
        return out

    def tool_list(self, e):
        out = []
        for x in items_of(e, "tools"):
            if x[0] == "id" and x[1] in self.tools:
                out.append(self.tools[x[1]])
            elif x[0] == "list" and len(x[1]) == 3:
                name, desc, params = (self.string(f) for f in x[1])
                out.append({"name": name, "description": desc, "parameters": json.loads(params)})
            else:
                raise Unreadable("unknown tool %r" % (x,))
        return out

    def message_list(self, e):
        return [self.list_message(x) for x in items_of(e, "messages")]

    def list_message(self, x):
        if x[0] == "id" and x[1] == "message_user":
            return {"role": "user", "content": "Hey there!"}
        return {"role": "assistant", **self.msg(x)}


ENUMS = {
    "COMMON_REASONING_FORMAT_AUTO": "auto",
    "COMMON_REASONING_FORMAT_DEEPSEEK": "deepseek",
    "COMMON_REASONING_FORMAT_NONE": "none",
    "COMMON_CHAT_CONTINUATION_CONTENT": "content",
    "COMMON_CHAT_CONTINUATION_REASONING": "reasoning",
    "COMMON_CHAT_CONTINUATION_NONE": "none",
    "COMMON_CHAT_TOOL_CHOICE_REQUIRED": "required",
    "COMMON_CHAT_TOOL_CHOICE_AUTO": "auto",
    "COMMON_CHAT_TOOL_CHOICE_NONE": "none",
}


def value(e):
    if e[0] == "id" and e[1] in ("true", "false"):
        return e[1] == "true"
    if e[0] == "id" and e[1] in ENUMS:
        return ENUMS[e[1]]
    if e[0] in ("str", "num"):
        return e[1]
    raise Unreadable("not a value: %r" % (e,))


def read_chain(env, p):
    """After `VAR . test (`: the chain up to `.run()`. Returns (case, end index)."""
    p.take("(")
    inp = env.string(p.expr())
    p.take(")")
    case = {
        "input": inp,
        "params": {},
        "tools": [],
        "is_partial": False,
        "expect": {"content": "", "reasoning_content": "", "tool_calls": []},
    }
    while True:
        p.take(".")
        method = p.take()[1]
        p.take("(")
        args = p.items(")")
        if method == "run":
            return case
        if method == "expect":
            case["expect"] = env.msg(args[0])
        elif method == "expect_content":
            case["expect"]["content"] = env.string(args[0])
        elif method == "expect_reasoning":
            case["expect"]["reasoning_content"] = env.string(args[0])
        elif method == "expect_tool_calls":
            case["expect"]["tool_calls"] = env.calls(args[0])
        elif method == "tools":
            case["tools"] = env.tool_list(args[0])
        elif method == "messages":
            case["params"]["messages"] = env.message_list(args[0])
        elif method == "is_partial":
            case["is_partial"] = value(args[0])
        elif method == "expect_reconstruction":
            case["params"]["expect_reconstruction"] = value(args[0]) if args else True
        elif method == "json_schema":
            case["params"]["json_schema"] = json.loads(env.string(args[0]))
        elif method in ("reasoning_format", "enable_thinking", "parallel_tool_calls", "add_generation_prompt", "continue_final_message", "tool_choice"):
            case["params"][method] = value(args[0])
        else:
            raise Unreadable("unknown builder method " + method)


def string_list_before(toks, i, var):
    """The `{ "a", "b" }` of the nearest `for (... var : { ... })` before token i."""
    for j in range(i, 1, -1):
        if toks[j][1] == var and toks[j + 1][1] == ":" and toks[j + 2][1] == "{":
            e = Parser(toks, j + 2).expr()
            return [x[1] for x in e[1]]
    raise Unreadable("no loop list for " + var)


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in argv if a.startswith("--") and "=" in a)
    path = args[0]
    out = args[1] if len(args) > 1 else "test-vectors/peer-parse/llamacpp.json"
    data = open(path, "rb").read()
    src = data.decode("utf-8")
    toks = tokenize(src)
    env = Env(toks)
    line_of = lambda pos: src.count("\n", 0, pos) + 1

    # A helper function taking the template path (test_lfm2_parser): its call sites' loop lists.
    helper_paths = {}
    for i in range(len(toks) - 6):
        if toks[i][1] == "static" and toks[i + 1][1] == "void" and toks[i + 3][1] == "(":
            fname = toks[i + 2][1]
            close = next(k for k in range(i + 3, len(toks)) if toks[k][1] == ")")
            if "template_path" not in (x[1] for x in toks[i + 3 : close]):
                continue
            for j in range(len(toks) - 3):
                if toks[j][1] == fname and toks[j + 1][1] == "(" and toks[j + 2][0] == "id" and toks[j - 1][1] != "void":
                    helper_paths[fname] = string_list_before(toks, j, toks[j + 2][1])

    testers = {}  # var -> list of template paths (the latest declaration wins, as scopes are sequential)
    current_fn = None
    cases, unreadable = [], []
    i = 0
    while i < len(toks):
        kind, val, pos = toks[i]
        if val == "static" and toks[i + 1][1] == "void" and toks[i + 3][1] == "(":
            current_fn = toks[i + 2][1]
        if val == "peg_tester" and toks[i + 1][1] == "(" and toks[i - 1][1] == "=":
            var = toks[i - 2][1]
            arg = toks[i + 2]
            if arg[0] == "strlit":
                testers[var] = [arg[1]]
            elif arg[1] == "template_path" and current_fn in helper_paths:
                testers[var] = helper_paths[current_fn]
            else:
                testers[var] = string_list_before(toks, i, arg[1])
        if kind == "id" and toks[i + 1][1] == "=" and toks[i - 1][1] in ("auto", "*", "std::string", "common_chat_msg") and toks[i + 2][1] != "peg_tester":
            try:
                env.locals[val] = Parser(toks, i + 2).expr()
            except Unreadable:
                env.locals.pop(val, None)
        if kind == "id" and val in testers and toks[i + 1][1] == "." and toks[i + 2][1] == "test" and toks[i + 3][1] == "(":
            p = Parser(toks, i + 3)
            try:
                case = read_chain(env, p)
                for tpl in testers[val]:
                    cases.append({"template": tpl, "line": line_of(pos), **json.loads(json.dumps(case))})
                i = p.i
                continue
            except (Unreadable, IndexError, ValueError) as err:
                unreadable.append({"line": line_of(pos), "templates": testers[val], "reason": str(err)})
        i += 1

    # Names: template stem + index within that template, stable while the file's order is.
    seen = {}
    for c in cases:
        stem = c["template"].rsplit("/", 1)[-1].removesuffix(".jinja")
        seen[stem] = seen.get(stem, 0) + 1
        c["name"] = "%s#%d" % (stem, seen[stem])
    doc = {
        "source": {
            "repository": opts.get("repository", "Raudbjorn/ggml-llama.cpp"),
            "mirror_of": "ggml-org/llama.cpp",
            "revision": opts.get("revision", ""),
            "path": "tests/test-chat.cpp",
            "sha256": hashlib.sha256(data).hexdigest(),
            "licence": "MIT",
            "generator": "test-vectors/gen/peer_parse_llamacpp.py",
        },
        "comparison": "llama.cpp assert_msg_equals(expected, actual, ignore_whitespace_differences=true): "
        "content and reasoning_content compared after string_strip (leading/trailing whitespace); tool calls "
        "in order, name and id exact, arguments compared as JSON values (renormalize_json: arguments that are "
        "not valid JSON compare as the empty string)",
        "cases": [{k: c[k] for k in ("name", "template", "line", "input", "tools", "params", "is_partial", "expect")} for c in cases],
        "unreadable": unreadable,
    }
    with open(out, "w", encoding="utf-8") as f:
        f.write("{\n")
        f.write('  "source": %s,\n' % json.dumps(doc["source"], ensure_ascii=False))
        f.write('  "comparison": %s,\n' % json.dumps(doc["comparison"]))
        f.write('  "cases": [\n%s\n  ],\n' % ",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in doc["cases"]))
        f.write('  "unreadable": [%s]\n' % ",\n    ".join(json.dumps(u) for u in unreadable))
        f.write("}\n")
    print("%d cases over %d templates, %d unreadable -> %s" % (len(cases), len(seen), len(unreadable), out), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
