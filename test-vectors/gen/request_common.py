"""Shared by the *.request.json generators: what an OpenAI-compatible server does to a chat
request BEFORE a template sees it, and transformers' continue_final_message cut. These are
re-implementations, labelled as such in every golden file's `source`:

- normalize(): vLLM's chat_utils (_parse_chat_message_content / _parse_chat_message_content_parts
  with content format "string"): content None -> "", text parts joined with "\\n", `reasoning`
  also given as `reasoning_content`; plus role `developer` -> `system` (none of the three
  families has a developer role: the mapping of docs/formats.md "The chat request"). Tool-call
  arguments are left as sent (transformers' templates get what the caller gives; vLLM would
  json.loads them).
- continue_final(): transformers apply_chat_template(continue_final_message=True), verbatim:
  find final_message.strip() with rindex, keep the trailing spacing only if the rendering kept it.
"""
import copy


def normalize_content(content):
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "\n".join(p["text"] for p in content)


def normalize(request):
    msgs = []
    for m in request["messages"]:
        m = copy.deepcopy(m)
        if m["role"] == "developer":
            m["role"] = "system"
        m["content"] = normalize_content(m.get("content"))
        if m.get("reasoning") is not None:
            m["reasoning_content"] = m.pop("reasoning")
        for k in ("refusal", "audio", "function_call", "reasoning"):
            m.pop(k, None)
        msgs.append(m)
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
