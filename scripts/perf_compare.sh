#!/usr/bin/env bash
# Times `ssmcheck bench` against the numpy and C references of ../shared/perf in the same
# run_all.sh rounds, checks the summaries against the C reference (1e-9 relative) and measures
# each workload's peak memory with /usr/bin/time -v.
#
# usage: scripts/perf_compare.sh [--reps 3] [--only w1,w2,w3,w4] [--perf DIR]
#   --perf DIR: the reference workloads (default ../shared/perf next to this checkout).
# Writes target/perf/ (a copy of the references, their results/ and baselines.md) and prints
# the summary table. Needs python3 with venv, gcc with OpenMP; numpy is installed into
# target/perf-venv on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
REPS=3
ONLY="w1,w2,w3,w4"
PERF_SRC="$ROOT/../shared/perf"
while [ $# -gt 0 ]; do
    case "$1" in
        --reps) REPS="$2"; shift 2 ;;
        --only) ONLY="$2"; shift 2 ;;
        --perf) PERF_SRC="$2"; shift 2 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
[ -x "$PERF_SRC/run_all.sh" ] || { echo "error: no reference workloads at $PERF_SRC (use --perf DIR)" >&2; exit 2; }

cargo build --release --quiet
BIN="$ROOT/target/release/ssmcheck"
VENV="$ROOT/target/perf-venv"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import numpy" 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet numpy
fi

WORK="$ROOT/target/perf"
rm -rf "$WORK" && cp -r "$PERF_SRC" "$WORK" && chmod -R u+w "$WORK"
EXTRA="$WORK/extra.txt"
: > "$EXTRA"
for w in w1 w2 w3 w4; do
    echo "$w $BIN bench $w --threads 1" >> "$EXTRA"
    echo "$w $BIN bench $w --threads 2" >> "$EXTRA"
done
(cd "$WORK" && PYTHON="$VENV/bin/python" ./run_all.sh --reps "$REPS" --only "$ONLY" --extra "$EXTRA")

echo "== summaries: ssmcheck vs the C reference (same portable inputs)"
"$VENV/bin/python" - "$WORK/results/latest.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
def values(r):
    out = {}
    for part in ("summary", "checksum"):
        for k, v in r.get(part, {}).items():
            out[k] = v if isinstance(v, list) else [v]
    return out
worst_all = 0.0
for w in ("decay", "tail", "lyapunov", "scan"):
    c = [r for r in rows if r["workload"] == w and r["impl"] == "c"]
    rust = [r for r in rows if r["workload"] == w and r["impl"] == "rust"]
    if not c or not rust:
        continue
    cv, rv = values(c[-1]), values(rust[-1])
    for k in sorted(cv):
        if k not in rv:
            continue
        rel = max(abs(a - b) / max(abs(b), 1e-300) for a, b in zip(rv[k], cv[k]))
        if k in c[-1]["summary"]:
            worst_all = max(worst_all, rel)
        print(f"  {w:9} {k:16} rel. diff {rel:.2e}")
print(f"  largest relative difference of a summary value: {worst_all:.2e} ({'ok' if worst_all <= 1e-9 else 'ABOVE 1e-9'})")
PY

echo "== peak memory (/usr/bin/time -v, 2 threads)"
for w in w1 w2 w3 w4; do
    [[ ",$ONLY," == *",$w,"* ]] || continue
    kb=$( { /usr/bin/time -v "$BIN" bench "$w" --threads 2 > /dev/null; } 2>&1 | awk -F': ' '/Maximum resident set size/ {print $2}')
    echo "  $w: $((kb / 1024)) MiB"
done
echo "full table: $WORK/baselines.md"
