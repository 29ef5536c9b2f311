#!/usr/bin/env bash
# Measures each claim's wall time (claim + negative control, CPU backend) at the quick and
# standard budgets, one process per claim, and writes the cost table the shard planner reads:
#   scripts/measure_costs.sh [SSMCHECK_BINARY] > src/shard/costs.tsv
# Columns: id, quick seconds, standard seconds (the deep budget is estimated from standard).
# Rerun after adding or changing a claim; a claim missing from the table costs the median.
set -euo pipefail
bin=${1:-target/release/ssmcheck}
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$bin" check "$1" --budget "$2" --backend cpu >/dev/null 2>&1 || true # a disagreement still costs its time
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}
echo -e "# id\tquick_s\tstandard_s\t(measured by scripts/measure_costs.sh on $(nproc) cores)"
"$bin" list | awk '{print $1}' | while read -r id; do
  printf '%s\t%.3f\t%.3f\n' "$id" "$(seconds "$id" quick)" "$(seconds "$id" standard)"
done
