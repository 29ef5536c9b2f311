#!/usr/bin/env python3
"""The cost of a conjecture written in Python against the same conjecture in Rust: evaluations
per second of `zoh_step_contracts` (tests/conjectures.rs) and its Python twin, each timed at the
quick and the deep budget (200 and 20 000 cases) so that the fixed costs (process start, the
registry) cancel: rate = (20 000 − 200) / (t_deep − t_quick), median of 3 rounds.

usage: scripts/python_overhead.py   (in a virtual environment with the ssmcheck wheel installed;
                                     builds the Rust test binary with cargo first)
"""
import math
import os
import platform
import statistics
import subprocess
import time

import ssmcheck
from ssmcheck import strategies as st


@ssmcheck.conjecture(a=st.log_uniform(1e-3, 4.0), delta=st.selective_deltas(1))
def zoh_step_contracts(a, delta):
    """One ZOH step of a stable S4D mode keeps less than the whole state: e^{aΔ} < 1 for a ∈ [−4, −10⁻³], Δ ∈ [10⁻³, 10]."""
    return ssmcheck.lt(math.exp(-a * delta[0]), 1.0)


def python_seconds(budget: str) -> float:
    t = time.perf_counter()
    (r,) = ssmcheck.check(zoh_step_contracts, budget=budget)
    assert r.verdict == "holds", r.summary
    return time.perf_counter() - t


def rust_seconds(budget: str) -> float:
    env = dict(os.environ, SSMCHECK_BUDGET=budget)
    t = time.perf_counter()
    subprocess.run(["cargo", "test", "-q", "--test", "conjectures", "--", "zoh_step_contracts"], env=env, check=True,
                   capture_output=True)
    return time.perf_counter() - t


def rate(seconds) -> float:
    quick = statistics.median(seconds("quick") for _ in range(3))
    deep = statistics.median(seconds("deep") for _ in range(3))
    return (20000 - 200) / (deep - quick)


def main():
    subprocess.run(["cargo", "test", "-q", "--test", "conjectures", "--no-run"], check=True, capture_output=True)
    info = dict(l.split(":", 1) for l in open("/proc/cpuinfo").read().split("\n\n")[0].splitlines() if ":" in l)
    info = {k.strip(): v.strip() for k, v in info.items()}
    vectors = "AVX-512" if "avx512f" in info.get("flags", "") else "AVX2" if "avx2" in info.get("flags", "") else "no AVX2"
    cpu = f"{info.get('model name', platform.processor())} (family {info.get('cpu family')}, model {info.get('model')}, {vectors})"
    py, rs = rate(python_seconds), rate(rust_seconds)
    print(f"CPU: {cpu}")
    print(f"Rust conjecture:   {rs:12.0f} evaluations/s")
    print(f"Python conjecture: {py:12.0f} evaluations/s  ({rs / py:.1f}x slower)")


if __name__ == "__main__":
    main()
