#!/usr/bin/env bash
# The checks only a GPU machine can run, in one pass sized for a short lease:
#   1. the machine: GPU, driver, CPU, and the NVRTC the CUDA backend loads;
#   2. agreement: every family with a Monte Carlo kernel (decay, stability, realization) at the
#      standard budget, seed 1, on `--backend cuda` and `--backend cpu`, results JSON compared
#      field by field (scripts/json_unchanged.py, ignoring only the recorded backend and each claim's time); then the
#      same at the quick budget for more seeds;
#   3. the deep budget: each Monte Carlo claim alone on the GPU (and on the CPU where time is
#      left), timed, its JSON compared where both finish;
#   4. where target/oracle was staged (scripts/gpu_oracle_stage.sh) and the machine has torch and
#      Triton: scripts/gpu_oracle.py, mamba-ssm's Triton kernels on the reference fixture, with
#      float32 products in TF32 and in IEEE (oracle-*.json; about a minute, after BUDGET_S).
# Everything goes to OUT_DIR (default gpu-check/): a log per run, the JSON files, and
# summary.tsv (what, backend, seconds, exit status). Stops starting new runs after BUDGET_S.
#
# usage: scripts/gpu_check.sh [OUT_DIR]    (SSMCHECK_BIN: the binary, built with --features cuda;
#                                           BUDGET_S: seconds of runs to start, default 420;
#                                           FAMILIES, QUICK_SEEDS, DEEP_CLAIMS, DEEP_BACKENDS:
#                                           space-separated lists that narrow a follow-up run)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${SSMCHECK_BIN:-$here/target/release/ssmcheck}
out=${1:-gpu-check}
budget=${BUDGET_S:-420}
families=${FAMILIES:-decay stability realization}
quick_seeds=${QUICK_SEEDS:-2 7 1234}
deep_backends=${DEEP_BACKENDS:-cuda cpu}
mkdir -p "$out"
start=$(date +%s)
summary="$out/summary.tsv"
printf 'what\tbackend\tseconds\texit\n' >"$summary"

left() { echo $((budget - ($(date +%s) - start))); }

# run NAME BACKEND LIMIT ARGS…: one timed run of the binary, its output in NAME-BACKEND.log.
run() {
  local name=$1 backend=$2 limit=$3
  shift 3
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout "$limit" "$bin" "$@" --backend "$backend" --json "$out/$name-$backend.json" >"$out/$name-$backend.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  printf '%s\t%s\t%.1f\t%s\n' "$name" "$backend" "$(awk "BEGIN { print $t1 - $t0 }")" "$rc" | tee -a "$summary"
  return $rc
}

# same NAME: the CPU's and the GPU's JSON agree in every field but the backend.
same() {
  if [ -f "$out/$1-cpu.json" ] && [ -f "$out/$1-cuda.json" ]; then
    if python3 "$here/scripts/json_unchanged.py" "$out/$1-cpu.json" "$out/$1-cuda.json" --ignore backend >"$out/$1-diff.txt" 2>&1; then
      echo "AGREE    $1"
    else
      echo "DIFFER   $1 ($(tail -1 "$out/$1-diff.txt"))"
      head -5 "$out/$1-diff.txt"
    fi
  fi
}

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader
lscpu | grep -E '^Model name|^CPU\(s\)'
grep -q avx512f /proc/cpuinfo && echo "AVX-512: yes" || echo "AVX-512: no"
# NVRTC: cudarc loads `libnvrtc.so` or `libnvrtc.so.12` by name. Else take any NVRTC of the
# machine (the CUDA toolkit's, a Python wheel's `libnvrtc.so.13`) through a link of that name.
nvrtc=$(ldconfig -p | grep -oE '/[^ ]*libnvrtc\.so(\.12)?$' | head -1)
if [ -z "$nvrtc" ]; then
  nvrtc=$( (ldconfig -p | grep -oE '/[^ ]*libnvrtc\.so[.0-9]*$'; find /usr/local /opt /usr/lib -name 'libnvrtc.so*' 2>/dev/null) | grep -v alt | sort | head -1)
  if [ -n "$nvrtc" ]; then
    mkdir -p /tmp/nvrtc-link && ln -sf "$nvrtc" /tmp/nvrtc-link/libnvrtc.so
    export LD_LIBRARY_PATH="/tmp/nvrtc-link:$(dirname "$nvrtc")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
fi
echo "NVRTC: ${nvrtc:-not found}"

echo "== smoke: one kernel claim on the GPU"
if ! run smoke cuda 120 check 004.sec41 --budget quick --seed 1; then
  cat "$out/smoke-cuda.log"
  echo "the CUDA backend does not run; stopping"
  exit 1
fi

echo "== agreement at the standard budget, seed 1"
for family in $families; do
  for backend in cuda cpu; do
    run "$family-standard-1" "$backend" 200 check --family "$family" --budget standard --seed 1
  done
  same "$family-standard-1"
done

echo "== agreement at the quick budget, more seeds"
for seed in $quick_seeds; do
  for family in $families; do
    [ "$(left)" -gt 60 ] || break 2
    for backend in cuda cpu; do
      run "$family-quick-$seed" "$backend" 100 check --family "$family" --budget quick --seed "$seed"
    done
    same "$family-quick-$seed"
  done
done

echo "== the deep budget, one Monte Carlo claim at a time"
claims=${DEEP_CLAIMS:-"004.cor1.cumulative 004.sec41 004.sec41.mean 001.c21.needle 004.fig2 004.kesten 004.stability.paper 004.stability.l1 004.stability.as 004.thm4 004.thm4.sharp 004.thm4.intermediate 004.thm4.appendix 004.thm4.appendix.enlarged"}
for backend in $deep_backends; do
  for id in $claims; do
    l=$(left)
    [ "$l" -gt 20 ] || { echo "out of time before $id on $backend"; break 2; }
    run "$id-deep-1" "$backend" $((l < 240 ? l : 240)) check "$id" --budget deep --seed 1
    [ "$backend" = cpu ] && same "$id-deep-1"
  done
done

oracle=$here/target/oracle
if [ -d "$oracle" ] && python3 -c "import torch, triton" 2>/dev/null; then
  echo "== second oracle: mamba-ssm's Triton kernels on the reference fixture (TF32, then IEEE)"
  src=$(ls -d "$oracle"/mamba-ssm-* | head -1)
  for precision in tf32 ieee; do
    PYTHONPATH="$oracle/site" MAMBA_DETERMINISTIC=1 TRITON_F32_DEFAULT=$precision timeout 150 \
      python3 "$here/scripts/gpu_oracle.py" "$src" "$here/tests/fixtures/mamba_reference.json" \
      "$out/oracle-$precision.json" 2>"$out/oracle-$precision.err" || tail -3 "$out/oracle-$precision.err"
  done
fi

echo "== summary"
cat "$summary"
