#!/usr/bin/env bash
# The Slurm test (run by .ci/run): a one-node Slurm cluster on this machine (Debian's munge,
# slurmctld and slurmd, started here as root), the quick budget of every family but training as
# an array of 4 shards with a dependent merge job; one task is cancelled, the merge refuses the run naming
# it and writes nothing, the task is rerun alone with a new merge, and the merged JSON is
# compared with the single-process JSON (byte for byte but for each claim's time). Skipped
# with a message where the packages cannot be installed;
# under CI=true that is a failure. Stops the daemons it started, by their process ids.
#
#   scripts/slurm/test.sh [SSMCHECK_BINARY] [--scaling]
# --scaling also times the array with N = 1, 2, 4 against the single process;
# SSMCHECK_SLURM_BUDGET=standard runs that budget instead of quick.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/debug/ssmcheck}
scaling=${2:-}
budget=${SSMCHECK_SLURM_BUDGET:-quick}
skip() {
  if [ "${CI:-}" = "true" ]; then echo "slurm test: FAILED: $1" >&2; exit 1; fi
  echo "slurm test: skipped: $1"; exit 0
}
[ -x "$bin" ] || { echo "slurm test: no binary at $bin (cargo build first)" >&2; exit 2; }
export SSMCHECK_BIN
SSMCHECK_BIN=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
[ "$(id -u)" = 0 ] || skip "needs root to start munged, slurmctld and slurmd"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmctld slurmd slurm-client munge; } >/dev/null 2>&1 \
    || skip "cannot install Debian's slurmctld, slurmd, slurm-client and munge"
fi

tmp=$(mktemp -d /tmp/ssmcheck-slurm.XXXXXX)
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ $status -ne 0 ]; then
    echo "slurm test: FAILED; daemon logs:" >&2
    tail -n 20 "$tmp"/*.log >&2 2>/dev/null || true
  fi
  rm -rf "$tmp"
  exit $status
}
trap cleanup EXIT INT TERM

# munged with its own socket, key and pid file.
key=/etc/munge/munge.key
if [ ! -s "$key" ]; then
  mkdir -p /etc/munge
  dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
  chown munge:munge "$key" 2>/dev/null || true
  chmod 400 "$key"
fi
/usr/sbin/munged --foreground --force --socket="$tmp/munge.socket" --key-file="$key" \
  --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed" 2>>"$tmp/munged.log" &
pids+=($!)

# A one-node cluster: this machine, as `slurmd -C` describes it.
node=$(/usr/sbin/slurmd -C | head -n 1)
host=$(hostname -s)
mkdir -p "$tmp/state" "$tmp/spool"
cat > "$tmp/slurm.conf" <<CONF
ClusterName=ssmcheck-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
MinJobAge=3600
$node NodeAddr=127.0.0.1
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
for _ in $(seq 50); do [ -S "$tmp/munge.socket" ] && break; sleep 0.1; done
/usr/sbin/slurmctld -D -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
/usr/sbin/slurmd -D -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
for i in $(seq 120); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  [ "$state" = "idle" ] && break
  [ "$i" = 120 ] && { echo "slurm test: the node did not come up (state '$state')" >&2; exit 1; }
  sleep 0.5
done
echo "slurm test: one-node cluster up ($(sinfo -h -o '%n, %c CPUs'))"

job_state() { scontrol show job "$1" -o 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -n 1 | cut -d= -f2; }
wait_job() { # waits until every task of job $1 has ended
  local s
  while true; do
    s=$(scontrol show job "$1" -o 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort -u | tr '\n' ' ')
    case "$s" in *PENDING*|*RUNNING*|*CONFIGURING*|*COMPLETING*|"") sleep 1 ;; *) break ;; esac
  done
}
# Every claim of the quick budget that takes under a second (src/shard/costs.tsv; a claim not
# measured there counts as cheap), outside the training family: every family and kind of check,
# split claims among them, without the few long ones (a trained experiment is never split, and a
# long claim travels through a shard, the merge and a rerun as a short one does; this test runs the
# quick budget two and a quarter times with the debug binary).
mapfile -t ids < <("$SSMCHECK_BIN" list | awk -F'\t' 'NR == FNR { if ($1 !~ /^#/) cost[$1] = $2; next }
  { split($0, f, " +"); if (f[2] != "training" && (!(f[1] in cost) || cost[f[1]] < 1.0)) print f[1] }' src/shard/costs.tsv -)
[ "${#ids[@]}" -gt 100 ] || { echo "slurm test: 'ssmcheck list' gave ${#ids[@]} short claims outside the training family" >&2; exit 1; }
submit() { # DIR N -> "array merge"
  scripts/slurm/submit.sh "$1" "$2" "${ids[@]}" --budget "$budget" --backend cpu | sed -E 's/^array ([0-9]+).*merge ([0-9]+);.*/\1 \2/'
}
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

t0=$(now)
"$SSMCHECK_BIN" check "${ids[@]}" --budget "$budget" --backend cpu --json "$tmp/single.json" >/dev/null || true
single_s=$(elapsed "$t0")

# Whether two results files are the same run: equal text once each claim's time (a measurement,
# not a result) is set aside.
same_run() {
  python3 - "$1" "$2" <<'PY'
import json, sys
def text(path):
    with open(path) as f:
        doc = json.load(f)
    for claim in doc["claims"]:
        claim.pop("seconds")
    return json.dumps(doc, sort_keys=True)
sys.exit(0 if text(sys.argv[1]) == text(sys.argv[2]) else 1)
PY
}
echo "slurm test: single process ($budget budget): ${single_s} s"

# Clean arrays (with --scaling only: in CI the array below, with its cancelled task, is the
# array of 4 whose merge is compared).
counts=()
[ "$scaling" = "--scaling" ] && counts=(1 2 4)
for n in "${counts[@]}"; do
  t0=$(now)
  read -r array merge <<<"$(submit "$tmp/run$n" "$n")"
  wait_job "$array"; wait_job "$merge"
  [ "$(job_state "$merge")" = COMPLETED ] || { echo "slurm test: merge job $merge ended $(job_state "$merge")" >&2; cat "$tmp/run$n"/*.out >&2; exit 1; }
  same_run "$tmp/run$n/all.json" "$tmp/single.json" || { echo "slurm test: the merged JSON of $n shards differs from the single run's" >&2; exit 1; }
  [ -f "$tmp/run$n/report/index.html" ] || { echo "slurm test: no report" >&2; exit 1; }
  echo "slurm test: array of $n: ${n} parts merged to the single run's JSON (times aside), in $(elapsed "$t0") s"
done

# An array of 4 in which a task dies: task 2 is cancelled at once; the merge job refuses the
# run, naming shard 2/4, and writes nothing; task 2 rerun alone and a new merge give the single
# run's JSON.
dir="$tmp/kill"
t0=$(now)
read -r array merge <<<"$(submit "$dir" 4)"
scancel "${array}_2"
wait_job "$array"; wait_job "$merge"
[ "$(job_state "$merge")" = FAILED ] || { echo "slurm test: the merge without part 2 ended $(job_state "$merge")" >&2; exit 1; }
grep -q "no part for shard 2/4" "$dir"/ssmcheck-merge-"$merge".out || { echo "slurm test: the merge did not name shard 2/4:" >&2; cat "$dir"/ssmcheck-merge-"$merge".out >&2; exit 1; }
[ ! -f "$dir/all.json" ] || { echo "slurm test: a refused merge wrote all.json" >&2; exit 1; }
read -r array merge <<<"$(scripts/slurm/submit.sh "$dir" --rerun 2 | sed -E 's/^array ([0-9]+).*merge ([0-9]+);.*/\1 \2/')"
wait_job "$array"; wait_job "$merge"
[ "$(job_state "$merge")" = COMPLETED ] || { echo "slurm test: the merge after the rerun ended $(job_state "$merge")" >&2; cat "$dir"/*.out >&2; exit 1; }
same_run "$dir/all.json" "$tmp/single.json" || { echo "slurm test: the merge after the rerun differs from the single run" >&2; exit 1; }
echo "slurm test: array of 4, task 2 cancelled: the merge named shard 2/4; task 2 rerun alone, 4 parts merged to the single run's JSON, times aside ($(elapsed "$t0") s)"
echo "slurm test: passed"
