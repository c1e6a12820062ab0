#!/usr/bin/python3
"""Golden vectors for the SentencePiece models, produced by Google SentencePiece itself.

Usage: /usr/bin/python3 sentencepiece_vectors.py FIXTURES_DIR OUT_DIR [--models a,b,...]

Models: internlm2, chatglm3 (need FIXTURES_DIR/{internlm2,chatglm3}/tokenizer.model),
tiny-ilm, tiny-glm (the committed test-vectors/models/*.model). A model whose file is
missing is skipped with a message on stderr (exit status stays 0).

Everything written here comes from the reference: sp.encode / sp.decode of the
sentencepiece Python binding (Google C++), on the original ModelProto or on a copy whose
reserved pieces were retyped to CONTROL ("neutralized"). Nothing comes from chatwire.
Output is deterministic: fixed key order, a seeded PRNG (mulberry32), one vector per line.
"""

import hashlib
import json
import os
import sys

import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2 as pb2

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS_DIR = os.path.dirname(HERE)

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6

# ---------------------------------------------------------------------------- helpers


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def jdump(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def write_doc(path, head, vectors):
    """Top-level keys pretty, one vector per line: diffs show which vector changed."""
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {jdump(key)}: {jdump(value)},")
    lines.append('  "vectors": [')
    for i, v in enumerate(vectors):
        lines.append("    " + jdump(v) + ("," if i + 1 < len(vectors) else ""))
    lines.append("  ]")
    lines.append("}")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


class Rng:
    """mulberry32: tiny, seeded, identical in qwen3_vectors.js."""

    def __init__(self, seed):
        self.a = seed & 0xFFFFFFFF

    def next_u32(self):
        self.a = (self.a + 0x6D2B79F5) & 0xFFFFFFFF
        t = self.a
        t = ((t ^ (t >> 15)) * (t | 1)) & 0xFFFFFFFF
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & 0xFFFFFFFF)) & 0xFFFFFFFF
        return (t ^ (t >> 14)) & 0xFFFFFFFF

    def below(self, n):
        return self.next_u32() % n

    def between(self, lo, hi):  # inclusive
        return lo + self.below(hi - lo + 1)

    def pick(self, seq):
        return seq[self.below(len(seq))]


def load_json(name):
    with open(os.path.join(VECTORS_DIR, name), encoding="utf-8") as f:
        return json.load(f)


# ---------------------------------------------------------------------------- model setup


class Model:
    def __init__(self, name, path, rel, reserved_ids):
        self.name = name
        with open(path, "rb") as f:
            data = f.read()
        self.proto = pb2.ModelProto()
        self.proto.ParseFromString(data)
        self.sp = spm.SentencePieceProcessor(model_proto=data)
        self.reserved_ids = sorted(reserved_ids)
        # Decode vectors never contain the retyped pieces (0/1/2 are ordinary CONTROL/UNKNOWN).
        self.excluded = set(self.reserved_ids) - {0, 1, 2}
        neutral = pb2.ModelProto()
        neutral.CopyFrom(self.proto)
        for i in self.reserved_ids:
            if neutral.pieces[i].type not in (CONTROL, UNKNOWN):  # 0/1/2 stay as they are
                neutral.pieces[i].type = CONTROL
        self.neutral = spm.SentencePieceProcessor(model_proto=neutral.SerializeToString())
        self.source = {
            "tool": "sentencepiece (Google C++, Python binding)",
            "version": spm.__version__,
            "file": rel,
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        self.size = self.sp.get_piece_size()
        types = [p.type for p in self.proto.pieces]
        self.byte_base = next(i for i, t in enumerate(types) if t == BYTE)
        reserved = self.excluded
        self.ordinary = [i for i, t in enumerate(types) if t in (NORMAL, USER_DEFINED) and i not in reserved]
        self.space_first = [i for i in self.ordinary if self.proto.pieces[i].piece.startswith("\u2581")]
        self.space_only = [i for i in self.ordinary if set(self.proto.pieces[i].piece) == {"\u2581"}]
        self.newline = [i for i in self.ordinary if "\n" in self.proto.pieces[i].piece]
        self.controls = [i for i, t in enumerate(types) if t in (CONTROL, UNKNOWN) and i not in reserved]

    def byte_id(self, b):
        return self.byte_base + b


# ---------------------------------------------------------------------------- text vectors


def text_vectors(model, inputs):
    out = []
    for item in inputs:
        text = item["text"]
        ids = model.sp.encode(text)
        pieces = model.sp.encode(text, out_type=str)
        nids = model.neutral.encode(text)
        npieces = model.neutral.encode(text, out_type=str)
        out.append(
            {
                "name": item["name"],
                "text": text,
                "ids": ids,
                "pieces": pieces,
                "decoded": model.sp.decode(ids),
                "neutralized_ids": nids,
                "neutralized_pieces": npieces,
            }
        )
    return out


# ---------------------------------------------------------------------------- decode vectors

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "decode_pieces.json"), encoding="utf-8") as _f:
    _PIECES = json.load(_f)
VALID_CHARS = _PIECES["valid_chars"]
INVALID_BYTE_SEQS = _PIECES["invalid_byte_seqs"]

CATEGORIES = [
    "valid_bytes",
    "truncated_bytes",
    "invalid_bytes",
    "space_first",
    "control_then_space",
    "byte_then_space",
    "unk",
    "ordinary",
    "whitespace",
    "cut_encoding",
    "cut_encoding",
    "mixed",
]


def pinned_decode_vectors(model):
    """Hand-picked edge cases, named, before the random ones (README lists what they show)."""
    B = model.byte_id
    sp_space = model.sp.piece_to_id("\u2581")
    sp_2space = model.sp.piece_to_id("\u2581\u2581")
    two_spaces = [sp_2space] if sp_2space != 0 else [sp_space, sp_space]
    # Pieces of "▁world": one piece in the real models, several in the tiny ones.
    world_id = model.sp.piece_to_id("\u2581world")
    if world_id != 0:
        world = [world_id]
    else:
        world = model.sp.encode("world" if model.proto.normalizer_spec.add_dummy_prefix else " world")
    pins = [
        ("space_alone", [sp_space]),
        ("space_then_newline", [sp_space, B(0x0A)]),
        ("space_then_word", [sp_space] + world),
        ("two_space_then_word", two_spaces + world),
        ("word_first", world),
        ("word_twice", world + world),
        ("bos_eos_then_word", [1, 2] + world),
        ("eos_then_space", [2, sp_space] + world),
        ("unk_then_word", [0] + world),
        ("unk_alone", [0]),
        ("bos_alone", [1]),
        ("eos_alone", [2]),
        ("byte_space_then_word", [B(0x20)] + world),
        ("byte_a_then_word", [B(0x41)] + world),
        ("byte_e4_then_word", [B(0xE4)] + world),
        ("bytes_e4_bd", [B(0xE4), B(0xBD)]),
        ("bytes_e4_bd_a0", [B(0xE4), B(0xBD), B(0xA0)]),
        ("bytes_c0_80", [B(0xC0), B(0x80)]),
        ("bytes_c1_bf", [B(0xC1), B(0xBF)]),
        ("bytes_e0_80_80", [B(0xE0), B(0x80), B(0x80)]),
        ("bytes_ed_a0_80", [B(0xED), B(0xA0), B(0x80)]),
        ("bytes_f4_90_80_80", [B(0xF4), B(0x90), B(0x80), B(0x80)]),
        ("bytes_f5", [B(0xF5)]),
        ("bytes_ff", [B(0xFF)]),
        ("bytes_lone_continuation", [B(0x80)]),
        ("bytes_e4_41_a0", [B(0xE4), B(0x41), B(0xA0)]),
        ("bytes_emoji", [B(0xF0), B(0x9F), B(0x98), B(0x80)]),
        ("bytes_emoji_truncated_then_word", [B(0xF0), B(0x9F), B(0x98)] + world),
        ("bytes_nul", [B(0x00)]),
        ("eos_between_bytes", [B(0xE4), 2, B(0xBD), B(0xA0)]),
    ]
    out = []
    for name, ids in pins:
        assert all(0 <= x < model.size and x not in model.excluded for x in ids), (name, ids)
        out.append({"name": f"{model.name}_pin_{name}", "ids": ids, "decoded": model.sp.decode(ids)})
    return out


def decode_vectors(model, inputs, count=300, seed=0x5EED):
    rng = Rng(seed ^ sum(ord(c) for c in model.name))
    encodings = [model.neutral.encode(item["text"]) for item in inputs]
    encodings = [e for e in encodings if e]

    def bytes_of_char():
        return list(rng.pick(VALID_CHARS).encode("utf-8"))

    def byte_ids(bs):
        return [model.byte_id(b) for b in bs]

    def filler(n):
        return [rng.pick(model.ordinary) for _ in range(n)]

    vectors = pinned_decode_vectors(model)
    for i in range(count):
        cat = CATEGORIES[i % len(CATEGORIES)]
        ids = []
        if cat == "valid_bytes":
            for _ in range(rng.between(1, 5)):
                ids += byte_ids(bytes_of_char())
                if rng.below(3) == 0:
                    ids += filler(1)
        elif cat == "truncated_bytes":
            bs = bytes_of_char()
            while len(bs) < 2:
                bs = bytes_of_char()
            cut = rng.between(1, len(bs) - 1)
            pre = filler(rng.below(3))
            tail = rng.below(3)
            ids = pre + byte_ids(bs[:cut])
            if tail == 1:
                ids += filler(rng.between(1, 3))
            elif tail == 2:
                ids += byte_ids(bytes_of_char())
        elif cat == "invalid_bytes":
            for _ in range(rng.between(1, 3)):
                if rng.below(2) == 0:
                    ids += filler(1)
                ids += byte_ids(rng.pick(INVALID_BYTE_SEQS))
        elif cat == "space_first":
            ids = [rng.pick(model.space_first)] + filler(rng.below(4))
        elif cat == "control_then_space":
            ids = [rng.pick(model.controls) for _ in range(rng.between(1, 2))]
            ids += [rng.pick(model.space_first)] + filler(rng.below(3))
        elif cat == "byte_then_space":
            first = rng.below(3)
            if first == 0:
                ids = byte_ids([rng.between(0x20, 0x7E)])
            elif first == 1:
                ids = byte_ids(bytes_of_char())
            else:
                ids = byte_ids(rng.pick(INVALID_BYTE_SEQS))
            ids += [rng.pick(model.space_first)] + filler(rng.below(3))
        elif cat == "unk":
            ids = [0]
            if rng.below(2) == 0:
                ids = filler(rng.below(3)) + ids
            ids += [rng.pick(model.space_first)]
            if rng.below(2) == 0:
                ids += [0, 0]
        elif cat == "ordinary":
            ids = filler(rng.between(1, 40))
        elif cat == "whitespace":
            pool = model.space_only + model.newline + byte_ids([0x20, 0x0A, 0x09, 0x0D])
            ids = [rng.pick(pool) for _ in range(rng.between(1, 8))]
            if rng.below(2) == 0:
                ids += filler(rng.between(1, 3))
        elif cat == "cut_encoding":
            enc = rng.pick(encodings)
            start = rng.below(len(enc))
            length = rng.between(1, min(40, len(enc) - start))
            ids = enc[start : start + length]
        elif cat == "mixed":
            pool = model.ordinary
            for _ in range(rng.between(1, 20)):
                r = rng.below(10)
                if r < 5:
                    ids.append(rng.pick(pool))
                elif r < 7:
                    ids.append(model.byte_id(rng.below(256)))
                elif r < 8:
                    ids.append(rng.pick(model.controls))
                else:
                    ids.append(rng.pick(model.space_first))
        ids = ids[:40]
        assert ids and all(0 <= x < model.size and x not in model.excluded for x in ids), (cat, ids)
        vectors.append({"name": f"{model.name}_{i:03d}_{cat}", "ids": ids, "decoded": model.sp.decode(ids)})
    return vectors


# ---------------------------------------------------------------------------- chat vectors


def encode_split_on_added(model, added, specials, rendered):
    """HF's slow InternLM2Tokenizer: split on the added-token strings (`specials`, longest
    first), each one its ID from `added`, sp.encode each chunk between them."""
    ids, i, start = [], 0, 0
    while i < len(rendered):
        hit = next((s for s in specials if rendered.startswith(s, i)), None)
        if hit is None:
            i += 1
            continue
        if i > start:
            ids += model.sp.encode(rendered[start:i])
        ids.append(added[hit])
        i += len(hit)
        start = i
    if start < len(rendered):
        ids += model.sp.encode(rendered[start:])
    return ids


def internlm2_chat(model, fixtures, conversations):
    """The vendor text format rendered with the special token strings, then tokenized like
    HF's slow InternLM2Tokenizer: split on the added-token strings, sp.encode each chunk."""
    import jinja2

    cfg_path = os.path.join(fixtures, "internlm2", "tokenizer_config.json")
    with open(cfg_path, encoding="utf-8") as f:
        cfg = json.load(f)
    added = {v["content"]: int(k) for k, v in cfg["added_tokens_decoder"].items()}
    template = jinja2.Environment().from_string(cfg["chat_template"])
    specials = sorted(added, key=len, reverse=True)

    def render(req):
        out = ["<s>"]
        for m in req["messages"]:
            head = m["role"]
            name = m.get("name")
            if name is not None:
                head += " name=" + (f"<|{name}|>" if name in ("plugin", "interpreter") else name)
            body = m["content"]
            act = m.get("action")
            if act is not None:
                body += "<|action_start|>" + f"<|{act['kind']}|>" + act["text"] + "<|action_end|>"
            out.append("<|im_start|>" + head + "\n" + body + "<|im_end|>\n")
        if req.get("add_generation_prompt", True):
            out.append("<|im_start|>assistant\n")
        rendered = "".join(out)
        plain = all(set(m) <= {"role", "content"} for m in req["messages"])
        if plain:
            ref = template.render(
                messages=req["messages"], bos_token="<s>", add_generation_prompt=req.get("add_generation_prompt", True)
            )
            assert ref == rendered, (ref, rendered)
        return rendered

    def tokenize(rendered):
        return encode_split_on_added(model, added, specials, rendered)

    vectors = []
    for c in conversations:
        if c["format"] != "internlm2":
            continue
        rendered = render(c["request"])
        ids = tokenize(rendered)
        vectors.append({"name": c["name"], "request": c["request"], "rendered": rendered, "ids": ids})
    source = dict(model.source)
    source["chat_template"] = {
        "file": "internlm2/tokenizer_config.json",
        "sha256": sha256_file(cfg_path),
        "renderer": f"jinja2 {jinja2.__version__} for plain messages; name/action per formats.md",
        "tokenization": "HF slow InternLM2Tokenizer: split on added_tokens_decoder strings, sp.encode each chunk",
    }
    return source, vectors


GLM_SPECIAL = {
    "[MASK]": 64789,
    "[gMASK]": 64790,
    "[sMASK]": 64791,
    "sop": 64792,
    "eop": 64793,
    "<|system|>": 64794,
    "<|user|>": 64795,
    "<|assistant|>": 64796,
    "<|observation|>": 64797,
}


def chatglm3_chat(model, conversations):
    """tokenization_chatglm.py (THUDM/chatglm3-6b): build_single_message + build_chat_input."""
    vectors = []
    for c in conversations:
        if c["format"] != "chatglm3":
            continue
        req = c["request"]
        ids = [GLM_SPECIAL["[gMASK]"], GLM_SPECIAL["sop"]]
        rendered = "[gMASK]sop"
        for m in req["messages"]:
            content = m["content"]
            if m["role"] == "system" and m.get("tools") is not None:
                content = content + "\n" + json.dumps(m["tools"], indent=4, ensure_ascii=False)
            metadata = m.get("metadata", "")
            role_tok = f"<|{m['role']}|>"
            ids += [GLM_SPECIAL[role_tok]] + model.sp.encode(f"{metadata}\n") + model.sp.encode(content)
            rendered += role_tok + f"{metadata}\n" + content
        if req.get("add_generation_prompt", True):
            ids.append(GLM_SPECIAL["<|assistant|>"])
            rendered += "<|assistant|>"
        vectors.append({"name": c["name"], "request": req, "rendered": rendered, "ids": ids})
    source = dict(model.source)
    source["chat_template"] = {
        "renderer": "tokenization_chatglm.py (THUDM/chatglm3-6b) build_chat_input/build_single_message logic",
        "tokenization": "[gMASK] sop + per message: role id + sp.encode(metadata + '\\n') + sp.encode(content)",
    }
    return source, vectors


# ---------------------------------------------------------------------------- main


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    fixtures, out_dir = args
    wanted = None
    for a in argv:
        if a.startswith("--models="):
            wanted = set(a.split("=", 1)[1].split(","))
    os.makedirs(out_dir, exist_ok=True)
    inputs = load_json("inputs.json")["inputs"]
    conversations = load_json("conversations.json")["conversations"]
    tiny_ilm_reserved = []
    sidecar = os.path.join(VECTORS_DIR, "models", "tiny-ilm.json")
    if os.path.exists(sidecar):
        with open(sidecar, encoding="utf-8") as f:
            tiny_ilm_reserved = sorted(json.load(f)["reserved"].values())

    specs = [
        ("internlm2", os.path.join(fixtures, "internlm2", "tokenizer.model"), "internlm2/tokenizer.model",
         [0, 1, 2] + list(range(92538, 92544))),
        ("chatglm3", os.path.join(fixtures, "chatglm3", "tokenizer.model"), "chatglm3/tokenizer.model", [0, 1, 2]),
        ("tiny-ilm", os.path.join(VECTORS_DIR, "models", "tiny-ilm.model"), "test-vectors/models/tiny-ilm.model",
         [0, 1, 2] + tiny_ilm_reserved),
        ("tiny-glm", os.path.join(VECTORS_DIR, "models", "tiny-glm.model"), "test-vectors/models/tiny-glm.model",
         [0, 1, 2]),
    ]
    for name, path, rel, reserved in specs:
        if wanted is not None and name not in wanted:
            continue
        if not os.path.exists(path):
            print(f"sentencepiece_vectors: skip {name}: {path} not found", file=sys.stderr)
            continue
        model = Model(name, path, rel, reserved)
        # The three always-special ids are listed too; they are CONTROL/UNKNOWN already.
        head = {"model": name, "source": model.source, "reserved_ids": model.reserved_ids}
        write_doc(os.path.join(out_dir, f"{name}.text.json"), head, text_vectors(model, inputs))
        write_doc(
            os.path.join(out_dir, f"{name}.decode.json"),
            {"model": name, "source": model.source},
            decode_vectors(model, inputs),
        )
        if name == "internlm2":
            source, vectors = internlm2_chat(model, fixtures, conversations)
            write_doc(os.path.join(out_dir, f"{name}.chat.json"), {"model": name, "source": source}, vectors)
        elif name == "chatglm3":
            source, vectors = chatglm3_chat(model, conversations)
            write_doc(os.path.join(out_dir, f"{name}.chat.json"), {"model": name, "source": source}, vectors)
        print(f"sentencepiece_vectors: wrote {name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
