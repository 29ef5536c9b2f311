#!/usr/bin/env bash
# Runs every claim at one budget over a range of seeds and lists each claim that disagrees with
# its status at some seed (a theorem not confirmed, a control not refuted, an erratum the search
# missed), with the seeds. A claim must agree at every seed, not only the default:
#   scripts/seed_sweep.sh [FIRST LAST [BUDGET [SSMCHECK_BINARY]]]    (default 1 50 quick)
# JOBS=N runs N seeds at once (each with the threads RAYON_NUM_THREADS allows; results do not
# depend on either). CLAIMS narrows the sweep to some claims, as `ssmcheck check` takes them
# (ids, or `--family NAME`): CLAIMS="003.fig2.trained 003.fig2.left" sweeps those two. KEEP=DIR
# keeps each seed's results JSON as DIR/<budget>-<seed>.json (for the intervals behind a
# verdict). Each seed's line, with its seconds, goes to standard error as it finishes; the
# report goes to standard output at the end; exits 1 when any claim disagrees.
set -euo pipefail
first=${1:-1}
last=${2:-50}
budget=${3:-quick}
bin=${4:-target/release/ssmcheck}
[ -x "$bin" ] || { echo "error: no ssmcheck binary at $bin (cargo build --release)" >&2; exit 2; }
if [ -n "${KEEP:-}" ]; then
  mkdir -p "$KEEP" || { echo "error: cannot create KEEP=$KEEP" >&2; exit 2; }
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# One seed; its disagreements go to standard error at once, so a sweep cut short (a time limit)
# still says what it found.
run_seed() {
  local t0=$SECONDS
  # CLAIMS is split into words on purpose (several ids, or --family NAME).
  # shellcheck disable=SC2086
  "$bin" check ${CLAIMS:-} --budget "$budget" --seed "$1" --json "$dir/$1.json" >/dev/null 2>"$dir/$1.err" || true
  if [ -n "${KEEP:-}" ] && [ -s "$dir/$1.json" ]; then cp "$dir/$1.json" "$KEEP/$budget-$1.json"; fi
  python3 -c 'import json, sys
try:
    bad = [c["id"] for c in json.load(open(sys.argv[1]))["claims"] if not c["agrees"]]
except (OSError, ValueError, KeyError):
    errors = [l.strip() for l in open(sys.argv[4], errors="replace") if l.startswith("error")]
    bad = ["(no results" + (": " + errors[-1] if errors else "") + ")"]
print(f"seed {sys.argv[2]} ({sys.argv[3]} s): " + (("disagree: " + " ".join(bad)) if bad else "every claim agrees"), file=sys.stderr)' "$dir/$1.json" "$1" "$((SECONDS - t0))" "$dir/$1.err"
}
export -f run_seed
export bin budget dir CLAIMS KEEP
seq "$first" "$last" | xargs -P "${JOBS:-1}" -I{} bash -c 'run_seed {}'
for seed in $(seq "$first" "$last"); do
  [ -s "$dir/$seed.json" ] || { echo "error: seed $seed wrote no results" >&2; exit 2; }
done
python3 - "$dir" "$first" "$last" "$budget" <<'PY'
import json, sys, pathlib
d, first, last, budget = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
bad = {}
for seed in range(first, last + 1):
    for c in json.load(open(d / f"{seed}.json"))["claims"]:
        if not c["agrees"]:
            bad.setdefault(c["id"], []).append((seed, c.get("disagreement") or ""))
print(f"{last - first + 1} seeds ({first}–{last}) at the {budget} budget: {len(bad)} claims disagree at some seed")
for cid, hits in sorted(bad.items()):
    print(f"  {cid}: seeds {', '.join(str(s) for s, _ in hits)} — {hits[0][1]}")
sys.exit(1 if bad else 0)
PY
