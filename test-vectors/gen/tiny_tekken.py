"""The small tekken files of mistral-common's own tests, as tekken.json files
(test-vectors/models/tiny-tekken-*.json). A re-implementation, labelled as such, of its
tests/test_tekken.py quick_vocab([b"a", b"b", b"c", b"f", b"de"]) and
get_special_tokens(version, add_think=...): the 256 byte tokens (the extra tokens lie past
vocab_size - num_special_tokens = 256 and are cut off by the Tekkenizer), pattern ".+",
default_vocab_size 356, 100 special tokens (the rest filled by the loader as <SPECIAL_N>).

Usage: /usr/bin/python3 test-vectors/gen/tiny_tekken.py [OUT_DIR]   (writes the four files;
OUT_DIR defaults to test-vectors/models)
"""
import base64
import json
import os
import sys

DEPRECATED = [
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]",
    "[IMG_END]", "[PREFIX]", "[MIDDLE]", "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
]


def special_tokens(version, think):
    special = list(DEPRECATED)
    if version == 7:
        return special
    special += [f"<SPECIAL_{i}>" for i in range(len(special), 24)]
    special += [f"<SPCECIAL_{i}>" for i in range(len(special), 32)]
    special += ["[ARGS]", "[CALL_ID]"]
    if version >= 13 and think:
        special += ["<SPCECIAL_34>", "[THINK]", "[/THINK]"]
    return special


def tekken(version, think):
    vocab = [
        {"rank": i, "token_bytes": base64.b64encode(bytes([i])).decode(), "token_str": chr(i)}
        for i in range(256)
    ]
    return {
        "config": {
            "pattern": ".+",
            "default_vocab_size": 356,
            "default_num_special_tokens": 100,
            "version": f"v{version}",
        },
        "vocab": vocab,
        "special_tokens": [
            {"rank": r, "token_str": s, "is_control": True} for r, s in enumerate(special_tokens(version, think))
        ],
    }


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models")
    for name, version, think in [("v7", 7, False), ("v11", 11, False), ("v13", 13, False), ("v13-think", 13, True)]:
        with open(os.path.join(out, f"tiny-tekken-{name}.json"), "w", encoding="utf-8") as f:
            json.dump(tekken(version, think), f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")


if __name__ == "__main__":
    main()
