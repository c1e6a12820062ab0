# Google SentencePiece (C++, Debian python3-sentencepiece) helper for the bench.
# Reads one JSON request on stdin, writes one JSON answer on stdout.
#   {"op": "encode", "model": PATH, "texts": [...]}        -> {"ids": [[...], ...]}
#   {"op": "pieces", "model": PATH}                        -> {"pieces": [...]}
#   {"op": "bench_encode", "model": PATH, "corpus": FILE, "rounds": N, "warmup": W}
#       -> timings measured HERE, inside this process, on the same corpus file the JS
#          encoders read: median of N rounds (after W warmup rounds) of encoding every doc
#          with sp.encode(doc) (out_type=int, no BOS/EOS). Also load time and RSS growth.
import json
import resource
import statistics
import sys
import time


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main():
    req = json.load(sys.stdin)
    import sentencepiece as spm

    before = rss_kb()
    c0 = time.process_time_ns()
    t0 = time.perf_counter_ns()
    sp = spm.SentencePieceProcessor(model_file=req["model"])
    load_ns = time.perf_counter_ns() - t0
    # The first encode right after load: lazy structures (if any) are built here.
    t1 = time.perf_counter_ns()
    first_ids = sp.encode("Hello, world! 你好，世界。 first encode after load")
    first_encode_ns = time.perf_counter_ns() - t1
    # The first decoded token (one id back to text), as every JS row's cold start.
    t2 = time.perf_counter_ns()
    sink_text = sp.decode([first_ids[0]])
    first_decode_ns = time.perf_counter_ns() - t2
    # CPU time of the whole cold-start interval (every thread of this process), as ours reports.
    cold_cpu_ns = time.process_time_ns() - c0
    after = rss_kb()
    cold_start = {
        "load_ms": load_ns / 1e6,
        "first_encode_ms": first_encode_ns / 1e6,
        "first_decode_ms": first_decode_ns / 1e6,
        "cold_start_ms": (load_ns + first_encode_ns + first_decode_ns) / 1e6,
        "cold_start_cpu_ms": cold_cpu_ns / 1e6,
        "decoded_len": len(sink_text),
    }
    op = req["op"]
    if op == "cold":
        # Only the cold start (the cold-start harness, bench/src/cold-start.ts).
        out = cold_start
    elif op == "encode":
        out = {"ids": [sp.encode(t) for t in req["texts"]]}
    elif op == "pieces":
        out = {"pieces": [sp.id_to_piece(i) for i in range(sp.get_piece_size())]}
    elif op == "bench_encode":
        with open(req["corpus"], encoding="utf-8") as f:
            parts = json.load(f)
        # chars = UTF-16 code units, exactly JS string .length, so rates compare with the JS runs.
        part_chars = [sum(len(d.encode("utf-16-le")) // 2 for d in docs) for docs in parts]
        times = []
        rates = []
        sink = 0
        for i in range(req["warmup"] + req["rounds"]):
            docs = parts[i]  # round i encodes part i, as every JS encoder does
            t = time.perf_counter_ns()
            for d in docs:
                sink += len(sp.encode(d))
            el = time.perf_counter_ns() - t
            if i >= req["warmup"]:
                times.append(el)
                rates.append(part_chars[i] / (el / 1e9))
        cold_rates = []
        if req.get("cold"):
            with open(req["cold"], encoding="utf-8") as f:
                cold = json.load(f)
            for i in range(req["warmup"] + req["rounds"]):
                docs = cold[i]
                chars = sum(len(d.encode("utf-16-le")) // 2 for d in docs)
                t = time.perf_counter_ns()
                for d in docs:
                    sink += len(sp.encode(d))
                el = time.perf_counter_ns() - t
                if i >= req["warmup"]:
                    cold_rates.append(chars / (el / 1e9))
        out = {
            "chars_per_round": part_chars[req["warmup"] : req["warmup"] + req["rounds"]],
            "tokens_total": sink,
            "rounds_ns": times,
            "chars_per_s": statistics.median(rates),
            "rates": rates,
            "cold_rates": cold_rates,
            "cold_chars_per_s": statistics.median(cold_rates) if cold_rates else None,
            **cold_start,
            "load_rss_kb": after - before,
            "version": spm.__version__,
        }
    else:
        raise SystemExit("unknown op " + op)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


main()
