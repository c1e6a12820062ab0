#!/usr/bin/python3
"""Golden vectors for the OpenAI-shaped chat requests (test-vectors/requests.json) on InternLM2
and ChatGLM3: the vendors' rendering rules RE-IMPLEMENTED here (labelled in `source`), tokenized
by Google SentencePiece itself. Nothing comes from chatwire.

Usage: /usr/bin/python3 request_vectors.py FIXTURES_DIR OUT_DIR [--models=internlm2,chatglm3]
Writes OUT_DIR/{internlm2,chatglm3}.request.json.
       /usr/bin/python3 request_vectors.py --render   (stdin {"format", "requests"} -> rendered strings)

InternLM2 = lmdeploy's InternLM2 template (lmdeploy/model.py InternLM2Chat7B.messages2prompt):
  tools -> a `system name=<|plugin|>` message holding json.dumps([Function.model_dump()]) (keys
  description, name, parameters; None when absent) after a first system message, else first;
  tool_calls -> "<|action_start|><|plugin|>\\n" + json.dumps({"name", "parameters"}) +
  "<|action_end|>" per call (string arguments json.loads'ed first). Where chatwire follows
  InternLM's chat_format.md instead of lmdeploy (documented in docs/formats.md): a tool result is
  `environment name=<|plugin|>`; `name` on other messages is header text (`user name=file`); no
  default meta_instruction; BOS "<s>" first (HF); generation prompt only with add_generation_prompt.
  Tokenized like HF's slow InternLM2Tokenizer: split on the added-token strings, sp.encode each chunk.
ChatGLM3 = tokenization_chatglm.py build_chat_input / build_single_message: [gMASK] sop, per
  segment role id + sp.encode(metadata + "\\n") + sp.encode(content); system tools append
  "\\n" + json.dumps(tools, indent=4, ensure_ascii=False); top-level tools go to the first system
  message, else to a system message with the vendor's TOOL_PROMPT. A tool call is the segment the
  model writes (PROMPT.md): metadata = name, content "```python\\ntool_call(k=v, ...)\\n```" with
  Python literals (strings double-quoted as json.dumps writes them); every rendered call is checked
  with ast.literal_eval to give back exactly the arguments (the vendor eval()s tool_call(...)).
Both: the request is first normalized as an OpenAI server does (request_common.normalize) and a
continue_final_message request is cut as transformers does (request_common.continue_final), on
the rendered text.
"""
import ast
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
from request_common import continue_final, normalize  # noqa: E402
from sentencepiece_vectors import (  # noqa: E402
    GLM_SPECIAL,
    Model,
    encode_split_on_added,
    load_json,
    sha256_file,
    write_doc,
)

TOOL_PROMPT = "Answer the following questions as best as you can. You have access to the following tools:"


def cut_pieces(pieces, keep):
    """Truncate [(kind, text)] so that the concatenated text is `keep` characters long."""
    out, pos = [], 0
    for kind, text in pieces:
        if pos >= keep:
            break
        if pos + len(text) > keep:
            assert kind == "t", "a cut inside a special token"
            text = text[: keep - pos]
        out.append((kind, text))
        pos += len(text)
    return out


def prefill(pieces, n):
    if not n["continue_final_message"]:
        return pieces
    display = "".join(t for _, t in pieces)
    kept = continue_final(display, n["messages"][-1]["content"])
    return cut_pieces(pieces, len(kept))


# ---------------------------------------------------------------------------- InternLM2


def internlm2_pieces(req):
    n = normalize(req)
    msgs = [dict(m) for m in n["messages"]]
    if n["tools"]:
        functions = [
            {"description": t["function"].get("description"), "name": t["function"]["name"],
             "parameters": t["function"].get("parameters")}
            for t in n["tools"]
        ]
        at = 1 if msgs and msgs[0]["role"] == "system" else 0
        msgs.insert(at, {"role": "system", "name": "plugin", "content": json.dumps(functions, ensure_ascii=False)})
    pieces = [("sp", "<s>")]
    for m in msgs:
        role, name = m["role"], m.get("name")
        if role == "tool":
            role, name = "environment", "plugin"
        content = [("t", m["content"])]
        act = m.get("action")
        if act is not None:
            content += [("sp", "<|action_start|>"), ("sp", f"<|{act['kind']}|>"), ("t", act["text"]),
                        ("sp", "<|action_end|>")]
        for tc in m.get("tool_calls") or []:
            fn = tc["function"]
            params = fn["arguments"]
            if isinstance(params, str):
                params = json.loads(params)
            body = json.dumps({"name": fn["name"], "parameters": params}, ensure_ascii=False)
            content += [("sp", "<|action_start|>"), ("sp", "<|plugin|>"), ("t", "\n" + body), ("sp", "<|action_end|>")]
        head = [("sp", "<|im_start|>"), ("t", role)]
        if name is not None:
            head += [("t", " name="), ("sp", f"<|{name}|>") if name in ("plugin", "interpreter") else ("t", name)]
        pieces += head + [("t", "\n")] + content + [("sp", "<|im_end|>"), ("t", "\n")]
    if n["add_generation_prompt"]:
        pieces += [("sp", "<|im_start|>"), ("t", "assistant\n")]
    return prefill(pieces, n)


def internlm2_vectors(model, fixtures, requests):
    cfg_path = os.path.join(fixtures, "internlm2", "tokenizer_config.json")
    with open(cfg_path, encoding="utf-8") as f:
        cfg = json.load(f)
    added = {v["content"]: int(k) for k, v in cfg["added_tokens_decoder"].items()}
    specials = sorted(added, key=len, reverse=True)

    def tokenize(rendered):
        return encode_split_on_added(model, added, specials, rendered)

    vectors = []
    for r in requests:
        if "internlm2" not in r["formats"]:
            continue
        rendered = "".join(t for _, t in internlm2_pieces(r["request"]))
        vectors.append({"name": r["name"], "request": r["request"], "rendered": rendered, "ids": tokenize(rendered)})
    source = dict(model.source)
    source["chat_template"] = {
        "file": "internlm2/tokenizer_config.json",
        "sha256": sha256_file(cfg_path),
        "renderer": "re-implemented: lmdeploy InternLM2 messages2prompt (tools, tool_calls) + chat_format.md "
        "(environment name=<|plugin|>, header names); gen/request_vectors.py",
        "request_mapping": "re-implemented server layer (gen/request_common.py): vLLM content normalization, "
        "developer -> system, transformers' continue_final_message cut",
        "tokenization": "HF slow InternLM2Tokenizer: split on added_tokens_decoder strings, sp.encode each chunk",
    }
    return source, vectors


# ---------------------------------------------------------------------------- ChatGLM3


def py_literal(v):
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if v is None or isinstance(v, (bool, int, float)):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(py_literal(x) for x in v) + "]"
    return "{" + ", ".join(json.dumps(k, ensure_ascii=False) + ": " + py_literal(x) for k, x in v.items()) + "}"


def tool_call_text(arguments):
    args = json.loads(arguments) if isinstance(arguments, str) else arguments
    kwargs = ", ".join(f"{k}={py_literal(v)}" for k, v in args.items())
    # the vendor eval()s this with tool_call = lambda **kw: kw: it must give back the arguments
    assert ast.literal_eval("{" + ", ".join(f"{json.dumps(k)}: {py_literal(v)}" for k, v in args.items()) + "}") == args
    assert eval(f"tool_call({kwargs})", {"__builtins__": {}, "tool_call": lambda **kw: kw}) == args  # noqa: S307
    return f"```python\ntool_call({kwargs})\n```"


def chatglm3_pieces(req):
    n = normalize(req)
    segs = []  # (role, metadata, content, tools)
    msgs = n["messages"]
    if n["tools"] and (not msgs or msgs[0]["role"] != "system"):
        segs.append(("system", "", TOOL_PROMPT, n["tools"]))
    for i, m in enumerate(msgs):
        role = "observation" if m["role"] == "tool" else m["role"]
        tools = m.get("tools")
        if i == 0 and role == "system" and n["tools"]:
            tools = n["tools"]
        calls = m.get("tool_calls") or []
        if not calls or m["content"]:
            segs.append((role, m.get("metadata", ""), m["content"], tools))
        for tc in calls:
            segs.append(("assistant", tc["function"]["name"], tool_call_text(tc["function"]["arguments"]), None))
    pieces = [("sp", "[gMASK]"), ("sp", "sop")]
    for role, metadata, content, tools in segs:
        if tools is not None:
            content = content + "\n" + json.dumps(tools, indent=4, ensure_ascii=False)
        pieces += [("sp", f"<|{role}|>"), ("t", f"{metadata}\n"), ("t", content)]
    if n["add_generation_prompt"]:
        pieces.append(("sp", "<|assistant|>"))
    return prefill(pieces, n)


def chatglm3_vectors(model, requests):
    vectors = []
    for r in requests:
        if "chatglm3" not in r["formats"]:
            continue
        pieces = chatglm3_pieces(r["request"])
        ids = []
        for kind, text in pieces:
            ids += [GLM_SPECIAL[text]] if kind == "sp" else model.sp.encode(text)
        rendered = "".join(t for _, t in pieces)
        vectors.append({"name": r["name"], "request": r["request"], "rendered": rendered, "ids": ids})
    source = dict(model.source)
    source["chat_template"] = {
        "renderer": "re-implemented: tokenization_chatglm.py (THUDM/chatglm3-6b) build_chat_input/build_single_message; "
        "tool calls as PROMPT.md writes them (tool_call(k=v) with Python literals, checked by ast/eval); "
        "gen/request_vectors.py",
        "request_mapping": "re-implemented server layer (gen/request_common.py): vLLM content normalization, "
        "developer -> system, transformers' continue_final_message cut",
        "tokenization": "[gMASK] sop + per segment: role id + sp.encode(metadata + '\\n') + sp.encode(content)",
    }
    return source, vectors


def render_only():
    """--render: stdin {"format": "internlm2"|"chatglm3", "requests": [...]}, stdout the rendered
    strings (JSON list), for tests that compare chatwire against these rules on random requests."""
    job = json.load(sys.stdin)
    pieces = internlm2_pieces if job["format"] == "internlm2" else chatglm3_pieces
    json.dump(["".join(t for _, t in pieces(r)) for r in job["requests"]], sys.stdout, ensure_ascii=False)
    return 0


def main(argv):
    if argv == ["--render"]:
        return render_only()
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    fixtures, out_dir = args
    wanted = {"internlm2", "chatglm3"}
    for a in argv:
        if a.startswith("--models="):
            wanted &= set(a.split("=", 1)[1].split(","))
    os.makedirs(out_dir, exist_ok=True)
    requests = load_json("requests.json")["requests"]
    if "internlm2" in wanted:
        path = os.path.join(fixtures, "internlm2", "tokenizer.model")
        model = Model("internlm2", path, "internlm2/tokenizer.model", [0, 1, 2] + list(range(92538, 92544)))
        source, vectors = internlm2_vectors(model, fixtures, requests)
        write_doc(os.path.join(out_dir, "internlm2.request.json"), {"model": "internlm2", "source": source}, vectors)
        print("request_vectors: wrote internlm2", file=sys.stderr)
    if "chatglm3" in wanted:
        path = os.path.join(fixtures, "chatglm3", "tokenizer.model")
        model = Model("chatglm3", path, "chatglm3/tokenizer.model", [0, 1, 2])
        source, vectors = chatglm3_vectors(model, requests)
        write_doc(os.path.join(out_dir, "chatglm3.request.json"), {"model": "chatglm3", "source": source}, vectors)
        print("request_vectors: wrote chatglm3", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
