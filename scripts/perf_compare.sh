#!/usr/bin/env bash
# Times `ssmcheck bench` against the numpy and C reference workloads of benches/reference (same
# portable generator, same sizes) in interleaved rounds, checks every summary against the C
# reference (1e-9 relative) and measures each workload's peak memory with /usr/bin/time -v.
#
# usage: scripts/perf_compare.sh [--reps 3] [--repeat 5] [--only w1,w2,w3,w4] [--quick] [--isa native|avx2] [--against DIR]
#   --repeat R: each C and ssmcheck run repeats its workload R times in one process and reports
#     the median (so that a workload of a fraction of a second holds still); numpy runs once.
#   --quick: small sizes and one thread count (a smoke run; the timings mean nothing).
#   --isa avx2: measure as on a CPU without AVX-512, on one that has it: ssmcheck and the C
#     reference are both compiled for x86-64-v3 (AVX2 + FMA, no AVX-512) instead of -march=native,
#     and ssmcheck's hand-vectorised loops run their AVX2 path (SSMCHECK_ISA=avx2). numpy is
#     not run then (its kernels choose their instruction set at run time, so its numbers would
#     be the native run's).
#   --against DIR: another C implementation of the workloads to hold benches/reference/reference.c
#     against (DIR holds w1_decay.c, w2_tail.c, w3_lyapunov.c and w4_scan.c, each printing the same
#     JSON line at the same default sizes, such as an external harness's): built with the same
#     flags, run in the same rounds at the same thread counts as impl "c-other", its summaries
#     checked against C like the others'. Its row's ratio is the other C over reference.c: at most
#     1.00x means reference.c is at least as fast.
# Prints the CPU model and its vector extensions first, and every ssmcheck line records the
# instruction set its loops used (params.isa).
# Needs python3 (venv) and gcc with OpenMP; numpy is installed into target/perf-venv on first use.
# Writes target/perf/results-<isa>.jsonl and prints the table (benches/reference/compare.py).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
REPS=3
REPEAT=5
ONLY="w1,w2,w3,w4"
QUICK=""
ISA="native"
AGAINST=""
while [ $# -gt 0 ]; do
    case "$1" in
        --reps) REPS="$2"; shift 2 ;;
        --repeat) REPEAT="$2"; shift 2 ;;
        --only) ONLY="$2"; shift 2 ;;
        --quick) QUICK="--quick"; shift ;;
        --isa) ISA="$2"; shift 2 ;;
        --against) AGAINST="$2"; shift 2 ;;
        *) echo "error: unknown argument '$1' (expected --reps N, --repeat R, --only LIST, --quick, --isa native|avx2, --against DIR)" >&2; exit 2 ;;
    esac
done

case "$ISA" in
    native | avx2) ;;
    *) echo "error: --isa must be native or avx2, not '$ISA'" >&2; exit 2 ;;
esac

WORK="$ROOT/target/perf"
mkdir -p "$WORK"
CPU_MODEL=$(awk -F': ' '/^model name/ {m=$2} /^cpu family/ {f=$2} /^model\t/ {n=$2} END {print m " (family " f ", model " n ")"}' /proc/cpuinfo 2>/dev/null || true)
CPU_VECTOR=$(grep -m1 -o -w -E 'avx512f|avx512dq|avx512vl|avx512bw|avx2|fma' /proc/cpuinfo 2>/dev/null | sort -u | tr '\n' ' ' || true)
echo "== CPU: ${CPU_MODEL:-unknown}; vector extensions: ${CPU_VECTOR:-unknown}; $(nproc) cores; measuring --isa $ISA"
if [ "$ISA" = avx2 ]; then
    # A build of its own for x86-64-v3, kept apart from the native one.
    RUSTFLAGS="-C target-cpu=x86-64-v3" CARGO_TARGET_DIR="$ROOT/target/perf-avx2" cargo build --release --quiet
    BIN="$ROOT/target/perf-avx2/release/ssmcheck"
    MARCH="x86-64-v3"
    export SSMCHECK_ISA=avx2
else
    cargo build --release --quiet
    BIN="$ROOT/target/release/ssmcheck"
    MARCH="native"
fi
gcc -O3 -march="$MARCH" -ffast-math -fopenmp benches/reference/reference.c -o "$WORK/reference-$ISA" -lm
declare -A OTHER=()
if [ -n "$AGAINST" ]; then
    for w in w1:w1_decay w2:w2_tail w3:w3_lyapunov w4:w4_scan; do
        src="$AGAINST/${w#*:}.c"
        [ -f "$src" ] || { echo "error: --against $AGAINST has no ${w#*:}.c" >&2; exit 2; }
        gcc -O3 -march="$MARCH" -ffast-math -fopenmp -I"$AGAINST" "$src" -o "$WORK/other-${w%%:*}-$ISA" -lm
        OTHER[${w%%:*}]="$WORK/other-${w%%:*}-$ISA"
    done
fi
VENV="$ROOT/target/perf-venv"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import numpy" 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check numpy
fi
PY="$VENV/bin/python"
OUT="$WORK/results-$ISA.jsonl"
: > "$OUT"

THREADS="1 2"
[ -n "$QUICK" ] && THREADS="2"
want() { [[ ",$ONLY," == *",$1,"* ]]; }
# run CMD...: keep the command's JSON line and echo a short progress line. With IMPL set, the
# line's impl is renamed to it (the --against programs also call themselves "c").
run() {
    local line
    line=$("$@" < /dev/null | grep '^{' | tail -n 1) || true
    if [ -z "$line" ]; then echo "FAILED (no JSON line): $*" >&2; return 1; fi
    if [ -n "${IMPL:-}" ]; then line=$("$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); r["impl"]=sys.argv[2]; print(json.dumps(r))' "$line" "$IMPL"); fi
    echo "$line" >> "$OUT"
    "$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); print("  %-9s %-6s thr=%-2s wall=%.4fs" % (r["workload"], r["impl"], r["params"]["threads"], r["wall_s"]))' "$line"
}
for round in $(seq 1 "$REPS"); do
    echo "== round $round/$REPS"
    for w in w1 w2 w3 w4; do
        want "$w" || continue
        for t in $THREADS; do
            # numpy's W3/W4 loops are sequential in time: one thread only.
            if [ "$ISA" = native ] && { [ "$t" = 1 ] || [ "$w" = w1 ] || [ "$w" = w2 ] || [ -n "$QUICK" ]; }; then
                run "$PY" benches/reference/reference.py "$w" --threads "$t" $QUICK
            fi
            run env OMP_NUM_THREADS="$t" "$WORK/reference-$ISA" "$w" $QUICK --repeat "$REPEAT"
            if [ -n "${OTHER[$w]:-}" ] && [ -z "$QUICK" ]; then IMPL=c-other run env OMP_NUM_THREADS="$t" "${OTHER[$w]}"; fi
            run "$BIN" bench "$w" --threads "$t" $QUICK --repeat "$REPEAT"
        done
    done
done
echo "== throughput (median over rounds) and agreement with the C reference"
"$PY" benches/reference/compare.py "$OUT"

if [ -z "$QUICK" ] && [ -x /usr/bin/time ]; then
    echo "== peak memory of ssmcheck bench (/usr/bin/time -v, 2 threads)"
    for w in w1 w2 w3 w4; do
        want "$w" || continue
        kb=$( { /usr/bin/time -v "$BIN" bench "$w" --threads 2 > /dev/null; } 2>&1 | awk -F': ' '/Maximum resident set size/ {print $2}')
        echo "  $w: $((kb / 1024)) MiB"
    done
fi
