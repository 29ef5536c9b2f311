#!/usr/bin/env python3
"""A second oracle on a GPU: state-spaces/mamba's fused Triton kernels on the inputs of
tests/fixtures/mamba_reference.json, compared with that fixture's reference outputs.

tests/integration/reference.rs holds the suite's S6 scan and SSD to the fixture's outputs
(`selective_scan_ref` in float32, `ssd_minimal_discrete` in float64) within derived rounding
bounds. This script closes the other side of the triangle on the kernels Mamba actually runs on a
GPU: `selective_state_update` (Mamba's one-step S6 kernel, stepped over the sequence) and
`mamba_chunk_scan_combined` (Mamba-2's chunked SSD), both Triton. If they agree with the
reference to their own precision, the suite's models agree with the field's GPU kernels too.

Mamba-2's chunked kernel does its matrix products with tl.dot, which on float32 inputs uses TF32
(10-bit mantissa) unless TRITON_F32_DEFAULT=ieee (run it both ways to separate the kernel's
precision from a disagreement); with float64 inputs it did not compile (Triton 3.6, H200), which
the output reports as "not run" with the compiler's first line.

Each comparison has a control that the same measure must separate from rounding: the S6 kernel
with the step-size convention flipped (softplus applied or not), the SSD with Δ one step late.

mamba_ssm's package __init__ imports its CUDA extension, which is not built; the Triton modules
are imported on their own through a bare package object pointing at the source (no stub of the
extension, none of its code runs). Needs torch, triton and einops on the GPU machine; the
mamba_ssm source comes from its PyPI sdist (scripts/gpu_oracle_stage.sh).

usage: MAMBA_DETERMINISTIC=1 python3 scripts/gpu_oracle.py MAMBA_SSM_SRC [FIXTURE] [OUT.json]
       (MAMBA_SSM_SRC: the directory that holds mamba_ssm/; MAMBA_DETERMINISTIC=1 makes the
        kernels take one configuration each instead of autotuning)
"""
import json
import os
import sys
import types

import numpy as np
import torch


def import_triton_kernels(src):
    """mamba_ssm's two Triton entry points, without running the package's __init__."""
    package = types.ModuleType("mamba_ssm")
    package.__path__ = [os.path.join(src, "mamba_ssm")]
    sys.modules["mamba_ssm"] = package
    from mamba_ssm.ops.triton.selective_state_update import selective_state_update
    from mamba_ssm.ops.triton.ssd_combined import mamba_chunk_scan_combined
    return selective_state_update, mamba_chunk_scan_combined


def tensor(case, key, shape, dtype):
    return torch.tensor(np.asarray(case[key], dtype=np.float64).reshape(shape), dtype=dtype, device="cuda")


def s6_triton(step, case, flip_softplus=False):
    """selective_scan_ref's output, by the one-step kernel over t = 0 … L−1, in float32."""
    b, d, n, length = case["batch"], case["dim"], case["dstate"], case["length"]
    f = torch.float32
    u, delta = tensor(case, "u", (b, d, length), f), tensor(case, "delta", (b, d, length), f)
    a = tensor(case, "A", (d, n), f)
    bb, cc = tensor(case, "B", (b, n, length), f), tensor(case, "C", (b, n, length), f)
    extras = "D" in case
    # mamba_ssm 2.3.2's launcher reads D's and dt_bias's strides even when they are None, so a
    # case without them passes zeros: δ + 0 and y + u·0 are exact, the same numbers.
    zeros = torch.zeros(d, dtype=f, device="cuda")
    dd = tensor(case, "D", (d,), f) if extras else zeros
    bias = tensor(case, "delta_bias", (d,), f) if extras else zeros
    z = tensor(case, "z", (b, d, length), f) if extras else None
    softplus = case["delta_softplus"] != flip_softplus
    state = torch.zeros(b, d, n, dtype=f, device="cuda")
    out = torch.empty(b, d, length, dtype=f, device="cuda")
    for t in range(length):
        out[:, :, t] = step(state, u[:, :, t].contiguous(), delta[:, :, t].contiguous(), a,
                            bb[:, :, t].contiguous(), cc[:, :, t].contiguous(), D=dd,
                            z=None if z is None else z[:, :, t].contiguous(), dt_bias=bias,
                            dt_softplus=softplus)
    return out


def ssd_triton(combined, case, dtype, shift_dt=False):
    """ssd_minimal_discrete's y as Mamba-2 computes it: the chunked kernel with X = x, Δ = dt."""
    b, length, h, p, n = case["batch"], case["length"], case["heads"], case["head_dim"], case["dstate"]
    x = tensor(case, "x", (b, length, h, p), dtype)
    dt = tensor(case, "dt", (b, length, h), dtype)
    if shift_dt:
        dt = torch.roll(dt, 1, dims=1)
    a = tensor(case, "a", (h,), dtype)
    bb, cc = tensor(case, "B", (b, length, h, n), dtype), tensor(case, "C", (b, length, h, n), dtype)
    return combined(x, dt, a, bb, cc, chunk_size=16)


def compare(ours, case, key, shape):
    """max |kernel − reference| and the same over max |reference|."""
    ref = np.asarray(case[key], dtype=np.float64).reshape(shape)
    got = ours.detach().double().cpu().numpy().reshape(shape)
    err = float(np.max(np.abs(got - ref)))
    return err, err / float(np.max(np.abs(ref)))


def main():
    src = sys.argv[1]
    fixture_path = sys.argv[2] if len(sys.argv) > 2 else "tests/fixtures/mamba_reference.json"
    out_path = sys.argv[3] if len(sys.argv) > 3 else None
    fixture = json.load(open(fixture_path, encoding="utf-8"))
    step, combined = import_triton_kernels(src)
    rows = []
    for case in fixture["selective_scan_ref"]:
        shape = (case["batch"], case["dim"], case["length"])
        try:
            err, rel = compare(s6_triton(step, case), case, "out", shape)
            _, control = compare(s6_triton(step, case, flip_softplus=True), case, "out", shape)
        except Exception as e:  # a launcher that refuses these inputs: say so and go on
            rows.append({"kernel": "selective_state_update", "case": case["name"], "dtype": "float32",
                         "error": f"{type(e).__name__}: {e}"[:300]})
            continue
        rows.append({"kernel": "selective_state_update", "case": case["name"], "dtype": "float32",
                     "max_abs": err, "max_rel": rel, "control_max_rel": control})
    for case in fixture["ssd_minimal_discrete"]:
        shape = (case["batch"], case["length"], case["heads"], case["head_dim"])
        for dtype in (torch.float32, torch.float64):
            try:
                err, rel = compare(ssd_triton(combined, case, dtype), case, "y", shape)
                _, control = compare(ssd_triton(combined, case, dtype, shift_dt=True), case, "y", shape)
            except Exception as e:  # a dtype the kernels do not compile for: say so and go on
                rows.append({"kernel": "mamba_chunk_scan_combined", "case": case["name"],
                             "dtype": str(dtype).removeprefix("torch."), "error": f"{type(e).__name__}: {e}"[:300]})
                continue
            rows.append({"kernel": "mamba_chunk_scan_combined", "case": case["name"],
                         "dtype": str(dtype).removeprefix("torch."), "max_abs": err, "max_rel": rel,
                         "control_max_rel": control})
    machine = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
               "triton": __import__("triton").__version__,
               "mamba_ssm_source": os.path.basename(os.path.normpath(src)),
               # tl.dot on float32 inputs rounds them to TF32 unless this says "ieee"
               "TRITON_F32_DEFAULT": os.environ.get("TRITON_F32_DEFAULT", "unset (tf32)"),
               "fixture_mamba_ssm": fixture["mamba_ssm"]}
    print(json.dumps(machine))
    for r in rows:
        if "error" in r:
            print(f"{r['kernel']:26} {r['dtype']:8} {r['case']:32} not run: {r['error']}")
        else:
            print(f"{r['kernel']:26} {r['dtype']:8} {r['case']:32} max|Δ| {r['max_abs']:.3e}  "
                  f"rel {r['max_rel']:.3e}  control rel {r['control_max_rel']:.3e}")
    if out_path:
        with open(out_path, "w", encoding="utf-8") as f:
            json.dump({"machine": machine, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
