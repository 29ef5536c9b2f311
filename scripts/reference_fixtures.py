#!/usr/bin/env python3
"""Writes tests/fixtures/mamba_reference.json: outputs of state-spaces/mamba's reference
implementations on small seeded inputs, which tests/integration/reference.rs compares with the
suite's own S6 scan.

  - selective_scan_ref (mamba_ssm/ops/selective_scan_interface.py), float32, real A, variable
    B and C of shape (batch, N, L), with and without delta_softplus / delta_bias / D / z;
  - ssd_minimal_discrete (mamba_ssm/modules/ssd_minimal.py), float64, called as Mamba-2 calls
    it: X = x * dt, A = a * dt.

Both modules import CUDA/Triton kernels at the top (selective_scan_cuda, triton's layer norm and
chunked scan), which a CPU machine lacks; instead of stubbing those imports, the three reference
functions (selective_scan_ref, segsum, ssd_minimal_discrete) are taken from the installed
package's source with `ast` and executed alone with torch, torch.nn.functional and einops — the
same code, none of the kernels. Run through scripts/reference_fixtures.sh, which installs torch
and mamba-ssm into a throwaway virtual environment (about 5 GB; CI never runs it).
"""
import ast
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F
from einops import rearrange, repeat

WANTED = {"selective_scan_ref", "segsum", "ssd_minimal_discrete"}


def reference_functions():
    """The reference functions, executed from the installed mamba_ssm's source."""
    root = os.path.dirname(importlib.util.find_spec("mamba_ssm").origin)
    namespace = {"torch": torch, "F": F, "rearrange": rearrange, "repeat": repeat}
    sources = {}
    for rel in ("ops/selective_scan_interface.py", "modules/ssd_minimal.py"):
        path = os.path.join(root, rel)
        text = open(path, encoding="utf-8").read()
        sources[rel] = hashlib.sha256(text.encode()).hexdigest()
        tree = ast.parse(text)
        funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in WANTED]
        exec(compile(ast.Module(body=funcs, type_ignores=[]), path, "exec"), namespace)
    missing = WANTED - namespace.keys()
    if missing:
        sys.exit(f"error: mamba_ssm's source has no {', '.join(sorted(missing))}")
    return namespace, sources


def listed(t):
    return t.detach().cpu().double().numpy().ravel().tolist()


def s6_case(ref, name, rng, batch, dim, n, length, softplus, extras):
    """One selective_scan_ref call in float32; every input and the output, flattened row-major."""
    f32 = lambda a: torch.tensor(np.asarray(a, dtype=np.float32))
    u = f32(rng.standard_normal((batch, dim, length)))
    if softplus:
        delta = f32(rng.standard_normal((batch, dim, length)))
        delta[0, 0, 0] = 25.0  # above torch's softplus threshold 20, where it returns x itself
    else:
        delta = f32(rng.uniform(0.05, 0.5, (batch, dim, length)))
    a = f32(-rng.uniform(0.2, 2.0, (dim, n)))
    b = f32(rng.standard_normal((batch, n, length)))
    c = f32(rng.standard_normal((batch, n, length)))
    kw = {"delta_softplus": softplus}
    case = {"name": name, "dtype": "float32", "batch": batch, "dim": dim, "dstate": n, "length": length, "delta_softplus": softplus,
            "u": listed(u), "delta": listed(delta), "A": listed(a), "B": listed(b), "C": listed(c)}
    if extras:
        kw["delta_bias"] = f32(rng.standard_normal(dim) * 0.5)
        kw["D"] = f32(rng.standard_normal(dim))
        kw["z"] = f32(rng.standard_normal((batch, dim, length)))
        case.update({"delta_bias": listed(kw["delta_bias"]), "D": listed(kw["D"]), "z": listed(kw["z"])})
    out = ref["selective_scan_ref"](u, delta, a, b, c, **kw)
    case["out"] = listed(out)
    return case


def ssd_case(ref, name, rng, batch, length, heads, p, n, block):
    """One ssd_minimal_discrete call in float64, with Mamba-2's X = x·dt, A = a·dt."""
    f64 = lambda a: torch.tensor(np.asarray(a, dtype=np.float64))
    x = f64(rng.standard_normal((batch, length, heads, p)))
    dt = f64(rng.uniform(0.05, 0.8, (batch, length, heads)))
    a = f64(-rng.uniform(0.3, 2.0, heads))
    b = f64(rng.standard_normal((batch, length, heads, n)))
    c = f64(rng.standard_normal((batch, length, heads, n)))
    y, _ = ref["ssd_minimal_discrete"](x * dt.unsqueeze(-1), a * dt, b, c, block)
    return {"name": name, "dtype": "float64", "batch": batch, "length": length, "heads": heads, "head_dim": p, "dstate": n, "block_len": block,
            "x": listed(x), "dt": listed(dt), "a": listed(a), "B": listed(b), "C": listed(c), "y": listed(y)}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/mamba_reference.json"
    ref, sources = reference_functions()
    rng = np.random.default_rng(20261126)
    fixture = {
        "generator": "scripts/reference_fixtures.py (numpy default_rng(20261126))",
        "mamba_ssm": importlib.metadata.version("mamba-ssm"),
        "torch": torch.__version__,
        "sources_sha256": sources,
        "selective_scan_ref": [
            s6_case(ref, "given delta", rng, 2, 3, 4, 9, False, False),
            s6_case(ref, "softplus, delta_bias, D, z", rng, 2, 3, 4, 9, True, True),
            s6_case(ref, "Mamba's N = 16, L = 64", rng, 1, 4, 16, 64, False, False),
        ],
        "ssd_minimal_discrete": [
            ssd_case(ref, "two heads, blocks of 4", rng, 2, 12, 2, 3, 4, 4),
            ssd_case(ref, "one head, L = 32, blocks of 8", rng, 1, 32, 1, 5, 8, 8),
        ],
    }
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(fixture, f)
        f.write("\n")
    os.replace(tmp, out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
