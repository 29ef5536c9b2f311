#!/usr/bin/env bash
# Submits a sharded ssmcheck run to Slurm: an array of N tasks (one shard each) and a merge +
# report job that runs when the array has ended.
#
#   scripts/slurm/submit.sh DIR N [check arguments...] [-- sbatch options...]
#       e.g. scripts/slurm/submit.sh runs/deep-7 16 --budget deep --seed 7 -- --partition=gpu --gres=gpu:1
#   scripts/slurm/submit.sh DIR --rerun I[,J...] [-- sbatch options...]
#       reruns failed tasks alone, then the merge.
#
# DIR gets run.env, part-I.json, all.json and report/. Prints the array and merge job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,10p' "$0" >&2; exit 2; }
[ $# -ge 2 ] || usage
dir=$1; shift
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
sbatch_opts=()
if [ "$1" = "--rerun" ]; then
  tasks=${2:?--rerun needs task indices}; shift 2
  [ -f "$dir/run.env" ] || { echo "submit.sh: $dir/run.env not found: rerun needs the directory of a submitted run" >&2; exit 2; }
else
  n=$1; shift
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: N='$n' is not a positive integer" >&2; exit 2; }
  args=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
  bin=${SSMCHECK_BIN:-$(command -v ssmcheck || echo "$PWD/target/release/ssmcheck")}
  [ -x "$bin" ] || { echo "submit.sh: no ssmcheck binary at $bin (cargo build --release, or set SSMCHECK_BIN)" >&2; exit 2; }
  rm -f "$dir"/part-*.json "$dir/all.json"
  { printf 'SSMCHECK_BIN=%q\nSSMCHECK_SHARDS=%q\nSSMCHECK_ARGS=(' "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" "$n"
    [ ${#args[@]} -eq 0 ] || printf '%q ' "${args[@]}"
    printf ')\n'; } > "$dir/run.env"
  tasks="0-$((n - 1))"
fi
[ "${1:-}" = "--" ] && shift
sbatch_opts=("$@")
array=$(sbatch --parsable --chdir="$dir" --array="$tasks" "${sbatch_opts[@]}" "$here/ssmcheck.sbatch" "$dir")
array=${array%%;*}
merge=$(sbatch --parsable --chdir="$dir" --dependency="afterany:$array" "${sbatch_opts[@]}" "$here/merge.sbatch" "$dir")
merge=${merge%%;*}
echo "array $array (tasks $tasks), merge $merge; watch: squeue -j $array,$merge; results: $dir/all.json, $dir/report/index.html"
