"""Re-extracts the templates-extra files (test-vectors/templates-extra/manifest.json) byte for byte
from git snapshots of their source repositories, into test-vectors/templates-extra/local/ (git-ignored;
SOURCES.md says why the files are not committed), and checks every SHA-256 against the manifest.

Usage: python3 test-vectors/gen/templates_extra_collect.py OWNER/NAME=GIT_DIR ...
  e.g. google/minja=/path/minja.git openvinotoolkit/openvino.genai=/path/ov.git
       huggingface/huggingface.js=/path/hfjs.git ggml-org/llama.cpp=/path/llama.cpp.git   [--out DIR]
  (any git directory holding the manifest's commit will do: llama.cpp's was a snapshot fork's)
Sources per repository (the manifest's `source`):
- openvinotoolkit/openvino.genai tests/python_tests/data/tokenizer_configs.py: the dict literal returned
  by get_tokenizer_configs(), read with ast.literal_eval (no code runs); `key` = model id, plus
  " chat_template.NAME" for a named-list template.
- google/minja, ggml-org/llama.cpp: the file at the commit.
- huggingface/huggingface.js packages/jinja/test/e2e.test.js: the TEST_CUSTOM_TEMPLATES object's
  chat_template strings are JavaScript template literals; node evaluates the file's constant
  declarations (EXAMPLE_* through TEST_CUSTOM_TEMPLATES, data only) to read them.
"""
import ast
import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.dirname(HERE)


def show(git_dir, commit, path):
    return subprocess.check_output(["git", "-C", git_dir, "show", f"{commit}:{path}"])


def openvino_configs(src):
    tree = ast.parse(src)
    ret = next(n for n in ast.walk(tree) if isinstance(n, ast.Return))
    return ast.literal_eval(ret.value)


def hfjs_templates(src):
    start = src.index("const EXAMPLE_CHAT =")
    end = src.index("const TEST_CUSTOM_FORMATTING")
    js = src[start:end] + (
        "\nprocess.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(TEST_CUSTOM_TEMPLATES)"
        ".map(([k, v]) => [k, v.chat_template]))));\n"
    )
    out = subprocess.run(["node", "--input-type=module", "-"], input=js, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    args = sys.argv[1:]
    out_dir = os.path.join(VECTORS, "templates-extra", "local")
    if "--out" in args:
        i = args.index("--out")
        out_dir = args[i + 1]
        del args[i : i + 2]
    repos = dict(a.split("=", 1) for a in args)
    manifest = json.load(open(os.path.join(VECTORS, "templates-extra", "manifest.json"), encoding="utf-8"))
    os.makedirs(out_dir, exist_ok=True)
    cache = {}
    bad = 0
    for t in manifest["templates"]:
        s = t["source"]
        git_dir = repos.get(s["repo"])
        if git_dir is None:
            sys.exit(f"no git directory given for {s['repo']}")
        ck = (s["repo"], s["commit"], s["path"])
        if ck not in cache:
            raw = show(git_dir, s["commit"], s["path"])
            if s["repo"] == "openvinotoolkit/openvino.genai":
                cache[ck] = openvino_configs(raw.decode("utf-8"))
            elif s["repo"] == "huggingface/huggingface.js":
                cache[ck] = hfjs_templates(raw.decode("utf-8"))
            else:
                cache[ck] = raw
        data = cache[ck]
        if isinstance(data, bytes):
            b = data
        elif s["repo"] == "huggingface/huggingface.js":
            b = data[s["key"].split('"')[1]].encode("utf-8")
        else:
            model, _, name = s["key"].partition(" chat_template.")
            ct = data[model]["chat_template"]
            b = (ct[name] if name else ct).encode("utf-8")
        if hashlib.sha256(b).hexdigest() != t["sha256"]:
            print(f"{t['file']}: sha256 differs", file=sys.stderr)
            bad += 1
            continue
        with open(os.path.join(out_dir, t["file"]), "wb") as f:
            f.write(b)
    print(f"{len(manifest['templates']) - bad} of {len(manifest['templates'])} templates -> {out_dir}")
    sys.exit(1 if bad else 0)


main()
