#!/bin/sh
# Trains the two tiny SentencePiece models committed in test-vectors/models/ with Google's
# spm_train (BPE, byte_fallback, split_digits). Run by hand only when the models must change:
# they are committed, and ../generate.js only re-runs encode/decode on them.
#   sh test-vectors/gen/train_tiny.sh [SEEDS_DIR] [DOCS_DIR]
# Corpus: the vendor format articles (../shared/seeds/*.txt, Chinese) + the wire spec docs
# (../shared/docs/*.md, English) + this directory's inputs.json texts, in sorted file order.
# Training is single-threaded with no sampling/shuffling, so it is deterministic for a given
# spm_train version (0.1.97 produced the committed files).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SEEDS=${1:-$ROOT/../shared/seeds}
DOCS=${2:-$ROOT/../shared/docs}
OUT=$HERE/../models
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

for f in $(ls "$SEEDS"/*.txt | sort) $(ls "$DOCS"/*.md | sort); do cat "$f"; echo; done > "$TMP/corpus.txt"
/usr/bin/python3 -c '
import json, sys
for item in json.load(open(sys.argv[1], encoding="utf-8"))["inputs"]:
    t = item["text"]
    if not item["name"].startswith(("special_", "reserved_")) and "\0" not in t:
        print(t)
' "$HERE/../inputs.json" >> "$TMP/corpus.txt"

COMMON="--input=corpus.txt --model_type=bpe --vocab_size=1200 --byte_fallback=true --split_digits=true
 --character_coverage=0.995 --normalization_rule_name=identity --remove_extra_whitespaces=false
 --num_threads=1 --input_sentence_size=0 --shuffle_input_sentence=false --max_sentence_length=100000
 --minloglevel=1"

cd "$TMP"  # relative paths: trainer_spec (saved in the model) must not hold the temp dir name
# tiny-ilm: InternLM2-like. The LAST 6 user-defined pieces stand in for the reserved ids.
spm_train $COMMON --model_prefix=tiny-ilm --add_dummy_prefix=false \
  --user_defined_symbols='Ｅ,ｚ,——,……,[UNUSED_TOKEN_0],[UNUSED_TOKEN_1],[UNUSED_TOKEN_2],[UNUSED_TOKEN_3],[UNUSED_TOKEN_4],[UNUSED_TOKEN_5]'
# tiny-glm: ChatGLM3-like.
spm_train $COMMON --model_prefix=tiny-glm --add_dummy_prefix=true --allow_whitespace_only_pieces=true

cp "$TMP/tiny-ilm.model" "$TMP/tiny-glm.model" "$OUT/"
/usr/bin/python3 -c '
import json, sys
import sentencepiece as spm
sp = spm.SentencePieceProcessor(model_file=sys.argv[1])
names = ["<|plugin|>", "<|interpreter|>", "<|action_end|>", "<|action_start|>", "<|im_end|>", "<|im_start|>"]
reserved = {n: sp.piece_to_id(f"[UNUSED_TOKEN_{i}]") for i, n in enumerate(names)}
doc = {"model": "tiny-ilm.model", "note": "USER_DEFINED pieces [UNUSED_TOKEN_0..5] stand in for InternLM2 92538..92543 (same order)", "reserved": reserved}
open(sys.argv[2], "w").write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
' "$OUT/tiny-ilm.model" "$OUT/tiny-ilm.json"
ls -l "$OUT"
