"""Shared by the *.request.json generators: what an OpenAI-compatible server does to a chat
request BEFORE a template sees it, and transformers' continue_final_message cut. These are
re-implementations, labelled as such in every golden file's `source`:

- template_shape(): what the template reads (docs/formats.md "What a template is given"):
  content_list is vLLM's _detect_content_format (vllm/entrypoints/chat_utils.py, re-implemented
  on jinja2's AST: a loop over `<message var>.content` / ['content'] where the message variable
  loops over `messages` or a name set from it); content_none: a `<x>.content is [not] none` or
  `content is [not] none` test; reasoning_names: which of reasoning_content / reasoning /
  thinking the template names (attribute or string constant), else reasoning_content;
  arguments_mapping: the template applies `items` (filter or method), `is mapping`, or `tojson`
  without an `is string` test, to
  `<x>.arguments` / ['arguments'] or to a name set from one.
- normalize(): vLLM's chat_utils (_parse_chat_message_content / _parse_chat_message_content_parts):
  text parts joined with "\\n" (content format "string") or kept as the list (content_list);
  content None -> "" except on an assistant message with tool calls for a content_none template
  that is not content_list (kept None; vLLM gives "" or [], and [] breaks templates that index
  a list content's [0]); the reasoning (first of reasoning_content / reasoning / thinking) under each of
  the template's reasoning names; the openai SDK's returned-message fields (refusal, audio,
  function_call, parsed, annotations; a call's index and function.parsed_arguments) dropped;
  JSON-string tool-call arguments json.loads'ed for an arguments_mapping template (a JSON object
  only; vLLM does it for every template); plus role `developer` -> `system` (none of the three families has a developer role: the
  mapping of docs/formats.md "The chat request").
- continue_final(): transformers apply_chat_template(continue_final_message=True), verbatim:
  find final_message.strip() with rindex, keep the trailing spacing only if the rendering kept it.
"""
import copy
import json

REASONING_NAMES = ("reasoning_content", "reasoning", "thinking")
DEFAULT_SHAPE = {"content_list": False, "content_none": False, "reasoning_names": ["reasoning_content"],
                 "arguments_mapping": False}


def template_shape(source, env):
    """`env`: the rendering environment (its extensions parse the template's tags)."""
    import jinja2
    import jinja2.nodes as nodes

    try:
        ast = env.parse(source)
    except jinja2.TemplateSyntaxError:
        return DEFAULT_SHAPE

    def is_var(n, name):
        return isinstance(n, nodes.Name) and n.ctx == "load" and n.name == name

    def is_attr(n, name, key):
        if isinstance(n, nodes.Getitem):
            return is_var(n.node, name) and isinstance(n.arg, nodes.Const) and n.arg.value == key
        if isinstance(n, nodes.Getattr):
            return is_var(n.node, name) and n.attr == key
        return False

    def access(n, name, key=None):  # vLLM's _is_var_or_elems_access
        if isinstance(n, nodes.Filter):
            return n.node is not None and access(n.node, name, key)
        if isinstance(n, nodes.Test):
            return access(n.node, name, key)
        if isinstance(n, nodes.Getitem) and isinstance(n.arg, nodes.Slice):
            return access(n.node, name, key)
        return is_attr(n, name, key) if key else is_var(n, name)

    names = ["messages"]
    i = 0
    while i < len(names):
        for a in ast.find_all(nodes.Assign):
            if access(a.node, names[i]) and isinstance(a.target, nodes.Name) and a.target.name not in names:
                names.append(a.target.name)
        i += 1

    def loop_vars(over, key=None):
        out = []
        for f in ast.find_all(nodes.For):
            if isinstance(f.target, nodes.Name) and any(access(f.iter, v, key) for v in over):
                out.append(f.target.name)
        return out

    content_list = len(loop_vars(loop_vars(names), "content")) > 0

    def content_access(n):
        if isinstance(n, nodes.Name):
            return n.name == "content"
        if isinstance(n, nodes.Getattr):
            return n.attr == "content"
        if isinstance(n, nodes.Getitem):
            return isinstance(n.arg, nodes.Const) and n.arg.value == "content"
        return False

    content_none = any(t.name == "none" and content_access(t.node) for t in ast.find_all(nodes.Test))

    def named(r):
        return any(isinstance(c, nodes.Const) and c.value == r for c in ast.find_all(nodes.Const)) or any(
            g.attr == r for g in ast.find_all(nodes.Getattr))

    reasoning = [r for r in REASONING_NAMES if named(r)]

    def arguments_member(n):
        if isinstance(n, nodes.Getattr):
            return n.attr == "arguments"
        if isinstance(n, nodes.Getitem):
            return isinstance(n.arg, nodes.Const) and n.arg.value == "arguments"
        return False

    def arguments_value(n):  # the arguments, or them with a fallback (`or {}`, `| default(...)`)
        if isinstance(n, nodes.Or):
            return arguments_member(n.left)
        if isinstance(n, nodes.Filter):
            return n.node is not None and arguments_member(n.node)
        return arguments_member(n)

    aliases = {a.target.name for a in ast.find_all(nodes.Assign)
               if isinstance(a.target, nodes.Name) and arguments_value(a.node)}

    def args(n):
        return arguments_member(n) or (isinstance(n, nodes.Name) and n.name in aliases)

    # `arguments|tojson` wants the object unless the template writes a string itself (`is string`).
    writes_json = (any(f.name == "tojson" and args(f.node) for f in ast.find_all(nodes.Filter))
                   and not any(t.name == "string" and args(t.node) for t in ast.find_all(nodes.Test)))
    mapping = writes_json or (any(f.name == "items" and args(f.node) for f in ast.find_all(nodes.Filter))
               or any(t.name == "mapping" and args(t.node) for t in ast.find_all(nodes.Test))
               or any(isinstance(c.node, nodes.Getattr) and c.node.attr == "items" and args(c.node.node)
                      for c in ast.find_all(nodes.Call)))
    return {"content_list": content_list, "content_none": content_none,
            "reasoning_names": reasoning or ["reasoning_content"], "arguments_mapping": mapping}


def normalize_content(content, shape=DEFAULT_SHAPE, none_for_null=False):
    if content is None:
        return None if none_for_null else ""
    if isinstance(content, str):
        return content
    if shape["content_list"]:
        return content
    return "\n".join(p["text"] for p in content)


SDK_FIELDS = ("refusal", "audio", "function_call", "parsed", "annotations")


def loads_object(text):
    try:
        v = json.loads(text)
    except ValueError:
        return None
    return v if isinstance(v, dict) else None


def clean_tool_calls(calls, shape):
    out = []
    for c in calls:
        if isinstance(c, dict):
            c = {k: v for k, v in c.items() if k != "index"}
            fn = c.get("function")
            if isinstance(fn, dict):
                fn = {k: v for k, v in fn.items() if k != "parsed_arguments"}
                if shape["arguments_mapping"] and isinstance(fn.get("arguments"), str):
                    parsed = loads_object(fn["arguments"])
                    if parsed is not None:
                        fn["arguments"] = parsed
                c["function"] = fn
        out.append(c)
    return out


def normalize(request, shape=DEFAULT_SHAPE):
    msgs = []
    for m in request["messages"]:
        m = copy.deepcopy(m)
        if m["role"] == "developer":
            m["role"] = "system"
        none_for_null = (shape["content_none"] and not shape["content_list"] and m["role"] == "assistant"
                         and bool(m.get("tool_calls")))
        content = normalize_content(m.get("content"), shape, none_for_null)
        reasoning = next((m[k] for k in REASONING_NAMES if m.get(k) is not None), None)
        out = {}
        placed = False
        for k, v in m.items():
            if k == "content" or k in SDK_FIELDS:
                continue
            if k in REASONING_NAMES:
                if v is not None and not placed:
                    placed = True
                    for r in shape["reasoning_names"]:
                        out[r] = reasoning
                continue
            out[k] = clean_tool_calls(v, shape) if k == "tool_calls" and isinstance(v, list) else v
        out["content"] = content
        msgs.append(out)
    prefill = request.get("continue_final_message", False)
    kwargs = dict(request.get("chat_template_kwargs") or {})
    if "enable_thinking" in request:
        kwargs["enable_thinking"] = request["enable_thinking"]
    return {
        "messages": msgs,
        "tools": request.get("tools") or [],
        "add_generation_prompt": request.get("add_generation_prompt", not prefill),
        "continue_final_message": prefill,
        "kwargs": kwargs,
    }


def continue_final(rendered_chat, final_message):
    """transformers: tokenization_utils_base.apply_chat_template, continue_final_message branch."""
    if final_message.strip() not in rendered_chat:
        raise ValueError("continue_final_message: the final message does not appear in the rendering")
    final_msg_loc = rendered_chat.rindex(final_message.strip())
    if rendered_chat[final_msg_loc : final_msg_loc + len(final_message.lstrip())] == final_message:
        return rendered_chat[: final_msg_loc + len(final_message.lstrip())]
    return rendered_chat[: final_msg_loc + len(final_message.strip())]
