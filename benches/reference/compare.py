#!/usr/bin/env python3
"""Reads the JSON lines of scripts/perf_compare.sh (one per run: numpy, C, ssmcheck) and prints
(1) the throughput table, medians over the rounds, with ssmcheck against C at the same thread
count, and (2) every summary and checksum value of numpy and ssmcheck against the C reference.
Exits 1 when a summary value differs from C by more than 1e-9 relative.

usage: compare.py results.jsonl
"""
import json
import statistics
import sys
from collections import defaultdict

NAMES = {"decay": "W1 decay", "tail": "W2 tail", "lyapunov": "W3 Lyapunov", "scan": "W4 scan"}


def si(x):
    for f, s in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= f:
            return f"{x / f:.3g} {s}"
    return f"{x:.3g}"


def flat(r):
    out = {}
    for part in ("summary", "checksum"):
        for k, v in r.get(part, {}).items():
            out[(part, k)] = v if isinstance(v, list) else [v]
    return out


def rounds(rs, c):
    """The ratio to C round by round (runs are paired in the order they ran, which
    perf_compare.sh interleaves), and its spread (max − min)/median: under 5% is a ratio that
    holds still."""
    if not c or len(c) != len(rs):
        return ""
    per = [x["wall_s"] and c_i["wall_s"] / x["wall_s"] for x, c_i in zip(rs, c)]
    spread = (max(per) - min(per)) / statistics.median(per)
    return f"{min(per):.2f}–{max(per):.2f}× ({100 * spread:.1f}%)"


def main():
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
    runs = defaultdict(list)
    for r in rows:
        runs[(r["workload"], r["impl"], r["params"].get("threads", 1))].append(r)
    print("| workload | unit | impl | threads | runs | median wall s | throughput | vs C (same threads) | ratio per round (spread) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for w in NAMES:
        for (wl, impl, thr), rs in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][2])):
            if wl != w:
                continue
            wall = statistics.median(r["wall_s"] for r in rs)
            tp = rs[0]["work"] / wall
            c = runs.get((w, "c", thr))
            ratio = f"{tp / (c[0]['work'] / statistics.median(x['wall_s'] for x in c)):.2f}×" if c and impl != "c" else ""
            print(f"| {NAMES[w]} | {rs[0]['throughput_unit']} | {impl} | {thr} | {len(rs)} | {wall:.4g} | {si(tp)} | {ratio} | {rounds(rs, c) if impl != 'c' else ''} |")
    print()
    worst = 0.0
    for w in NAMES:
        c = [r for r in rows if r["workload"] == w and r["impl"] == "c"]
        if not c:
            continue
        ref = flat(c[-1])
        for impl in ("numpy", "rust", "c-other"):
            other = [r for r in rows if r["workload"] == w and r["impl"] == impl]
            if not other:
                continue
            got = flat(other[-1])
            for key in sorted(ref):
                if key not in got:
                    continue
                rel = max(abs(a - b) / max(abs(b), 1e-300) for a, b in zip(got[key], ref[key]))
                if key[0] == "summary":
                    worst = max(worst, rel)
                print(f"  {NAMES[w]:12} {impl:6} {key[1]:16} rel. diff from C {rel:.2e}")
    ok = worst <= 1e-9
    print(f"largest relative difference of a summary value from C: {worst:.2e} ({'ok' if ok else 'ABOVE 1e-9'})")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
