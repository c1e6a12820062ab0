"""Goldens for the templates-extra differential suite (packages/tokenizer/test/template-extra.test.ts).

For every template of test-vectors/templates-extra/manifest.json (real chat templates; SOURCES.md
there says where each comes from and why the files are not committed), every request of
test-vectors/templates-extra/requests.json and requests-random.json (gen/templates_extra_random.py)
is rendered by gen/template_render.py: Python jinja2 in
transformers' environment (ImmutableSandboxedEnvironment(trim_blocks, lstrip_blocks, loopcontrols),
transformers' tojson, raise_exception, strftime_now on a fixed clock), the template's config tokens
(bos_token, eos_token, ...) as variables, the server-layer request mapping of gen/request_common.py.
Nothing here comes from chatwire.

Written: test-vectors/golden/templates-extra.json, per template and request either
  {"sha256": hex of the UTF-8 rendering, "chars": its length in UTF-16 units}  or
  {"error": "<Python exception type>: <message>"}   (TemplateError = the template's raise_exception),
and the full renderings to test-vectors/templates-extra/local/goldens/<id>.ref.txt (JSON) (not committed; the
test prints the first difference from them when present).

Usage: /usr/bin/python3 test-vectors/gen/templates_extra.py [TEMPLATES_DIR]
  TEMPLATES_DIR default: $CHATWIRE_TEMPLATES_EXTRA, else ../shared/templates-extra, else
  test-vectors/templates-extra/local. Every file's sha256 must equal the manifest's.
"""
import hashlib
import json
import os
import subprocess
import sys

import jinja2

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.dirname(HERE)
ROOT = os.path.dirname(VECTORS)
NOW = "2024-07-26T10:00:00"


def templates_dir():
    if len(sys.argv) > 1:
        return sys.argv[1]
    for d in (os.environ.get("CHATWIRE_TEMPLATES_EXTRA"), os.path.join(ROOT, "..", "shared", "templates-extra"),
              os.path.join(VECTORS, "templates-extra", "local")):
        if d and os.path.isdir(d):
            return d
    sys.exit("no templates-extra directory (see test-vectors/templates-extra/SOURCES.md)")


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


def main():
    manifest = json.load(open(os.path.join(VECTORS, "templates-extra", "manifest.json"), encoding="utf-8"))
    requests = [r for name in ("requests.json", "requests-random.json")
                for r in json.load(open(os.path.join(VECTORS, "templates-extra", name), encoding="utf-8"))["requests"]]
    src = templates_dir()
    full_dir = os.path.join(VECTORS, "templates-extra", "local", "goldens")
    os.makedirs(full_dir, exist_ok=True)
    out = {}
    for t in manifest["templates"]:
        raw = open(os.path.join(src, t["file"]), "rb").read()
        if hashlib.sha256(raw).hexdigest() != t["sha256"]:
            sys.exit(f"{t['file']}: sha256 differs from the manifest")
        job = {"template": raw.decode("utf-8"), "special": t["special"], "now": NOW,
               "requests": [r["request"] for r in requests]}
        r = subprocess.run([sys.executable, os.path.join(HERE, "template_render.py")], input=json.dumps(job),
                           capture_output=True, text=True, check=False)
        if r.returncode != 0:
            # The template does not even compile in jinja2: one error for every request.
            results = [{"error": r.stderr.strip().splitlines()[-1]}] * len(requests)
        else:
            results = json.loads(r.stdout)
        full = {}
        golden = {}
        for req, res in zip(requests, results):
            if "text" in res:
                golden[req["name"]] = {"sha256": hashlib.sha256(res["text"].encode("utf-8")).hexdigest(),
                                       "chars": utf16_len(res["text"])}
            else:
                golden[req["name"]] = {"error": res["error"]}
            full[req["name"]] = res
        out[t["id"]] = golden
        json.dump(full, open(os.path.join(full_dir, t["id"] + ".ref.txt"), "w", encoding="utf-8"), ensure_ascii=False, indent=1)
    doc = {
        "source": {
            "renderer": f"Python jinja2 {jinja2.__version__} ImmutableSandboxedEnvironment(trim_blocks, lstrip_blocks, "
                        f"loopcontrols) with transformers' tojson/raise_exception/strftime_now (fixed clock {NOW}) "
                        "(gen/template_render.py)",
            "request_mapping": "re-implemented server layer (gen/request_common.py), labelled",
            "templates": "test-vectors/templates-extra/manifest.json",
            "requests": "test-vectors/templates-extra/requests.json + requests-random.json",
        },
        "now": NOW,
        "goldens": out,
    }
    path = os.path.join(VECTORS, "golden", "templates-extra.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=0, sort_keys=False)
        f.write("\n")
    n_err = sum(1 for g in out.values() for v in g.values() if "error" in v)
    print(f"{len(out)} templates x {len(requests)} requests: {n_err} errors -> {path}")


main()
