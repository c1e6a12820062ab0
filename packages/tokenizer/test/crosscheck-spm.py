#!/usr/bin/python3
# The reference side of crosscheck-sentencepiece.test.ts: Google SentencePiece (C++, through
# its Python binding) answering JSON lines on stdin, one JSON line on stdout per request.
#
#   {"op": "load", "name": N, "path": P, "neutral": [ids]}  -> {"pieces": n, "version": v}
#       loads P twice: as stored, and as a copy whose pieces `neutral` are retyped CONTROL
#       (what test-vectors/gen/sentencepiece_vectors.py calls "neutralized"; UNKNOWN and
#       CONTROL pieces stay as they are)
#   {"op": "save_neutral", "name": N, "path": Q}           -> {} (writes the neutral copy to Q)
#   {"op": "encode", "name": N, "neutral": b, "texts": [s]} -> {"ids": [[id]]}
#   {"op": "decode", "name": N, "neutral": b, "ids": [[id]]} -> {"texts": [s]}
#
# Any failure is answered as {"error": "..."}; the process ends at end of input.
import json
import sys

import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2 as pb2

UNKNOWN, CONTROL = 2, 3

models = {}


def load(req):
    with open(req["path"], "rb") as f:
        data = f.read()
    proto = pb2.ModelProto()
    proto.ParseFromString(data)
    neutral = pb2.ModelProto()
    neutral.CopyFrom(proto)
    for i in req["neutral"]:
        if neutral.pieces[i].type not in (CONTROL, UNKNOWN):
            neutral.pieces[i].type = CONTROL
    neutral_bytes = neutral.SerializeToString()
    models[req["name"]] = {
        False: spm.SentencePieceProcessor(model_proto=data),
        True: spm.SentencePieceProcessor(model_proto=neutral_bytes),
        "neutral_bytes": neutral_bytes,
    }
    return {"pieces": len(proto.pieces), "version": spm.__version__}


def handle(req):
    op = req["op"]
    if op == "load":
        return load(req)
    model = models[req["name"]]
    if op == "save_neutral":
        with open(req["path"], "wb") as f:
            f.write(model["neutral_bytes"])
        return {}
    sp = model[bool(req["neutral"])]
    if op == "encode":
        return {"ids": [sp.encode(t) for t in req["texts"]]}
    if op == "decode":
        return {"texts": [sp.decode(ids) for ids in req["ids"]]}
    raise ValueError(f"unknown op {op!r}")


def main():
    for line in sys.stdin.buffer:
        try:
            reply = handle(json.loads(line.decode("utf-8")))
        except Exception as e:  # reported to the test, which fails with it
            reply = {"error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(reply, ensure_ascii=True) + "\n")
        sys.stdout.flush()


main()
