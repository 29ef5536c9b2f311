#!/usr/bin/env python3
"""Writes tests/fixtures/mamba_reference.json: outputs of state-spaces/mamba's reference
implementations on small seeded inputs, which tests/integration/reference.rs compares with the
suite's own S6 scan.

  - selective_scan_ref (mamba_ssm/ops/selective_scan_interface.py), float32, real A, variable
    B and C of shape (batch, N, L), with and without delta_softplus / delta_bias / D / z;
  - ssd_minimal_discrete (mamba_ssm/modules/ssd_minimal.py), float64, called as Mamba-2 calls
    it: X = x * dt, A = a * dt;
  - mamba_inner_ref (mamba_ssm/ops/selective_scan_interface.py), float32: the whole Mamba block
    after its input projection (causal convolution with SiLU, x_proj, dt_proj, the scan with D
    and the gate, out_proj), its convolution being causal-conv1d's own causal_conv1d_ref and its
    scan selective_scan_ref. Both are wrapped to record what they are given and return, so the
    fixture holds every stage's output (convolved x, the scan's delta, B, C, z and y) beside the
    block's: the Rust test compares each of the suite's stages on the reference's own inputs to
    that stage, each within its own float32 rounding bound;
  - Mamba2.step (mamba_ssm/modules/mamba2.py), float32: Mamba-2's block token by token on its
    pure-torch path (no Triton state update, no causal-conv1d kernel, rmsnorm=False so that the
    gate is y·SiLU(z)), one head, with its in-projection, activations, softplus and
    out-projection wrapped to record every stage (W_in's output, the convolved x, B and C, Δ, y).

The modules import CUDA/Triton kernels at the top (selective_scan_cuda, triton's layer norm and
chunked scan), which a CPU machine lacks; instead of stubbing those imports, the reference
functions (selective_scan_ref, segsum, ssd_minimal_discrete, causal_conv1d_ref, and the Mamba2
class's step method) are taken from the installed package's source with `ast` and executed alone
with torch, torch.nn.functional and einops — the same code, none of the kernels. Run through scripts/reference_fixtures.sh, which installs torch
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

WANTED = {"selective_scan_ref", "segsum", "ssd_minimal_discrete", "mamba_inner_ref", "causal_conv1d_ref"}


def reference_functions():
    """The reference functions, executed from the installed mamba_ssm's source."""
    root = os.path.dirname(importlib.util.find_spec("mamba_ssm").origin)
    conv_root = os.path.dirname(importlib.util.find_spec("causal_conv1d").origin)
    namespace = {"torch": torch, "F": F, "rearrange": rearrange, "repeat": repeat}
    sources = {}
    files = [(root, "ops/selective_scan_interface.py"), (root, "modules/ssd_minimal.py"), (conv_root, "causal_conv1d_interface.py"), (root, "modules/mamba2.py")]
    for base, rel in files:
        path = os.path.join(base, rel)
        text = open(path, encoding="utf-8").read()
        sources[rel] = hashlib.sha256(text.encode()).hexdigest()
        tree = ast.parse(text)
        funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in WANTED]
        # Mamba2.step, a method: executed as a function of an object with the module's attributes.
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Mamba2"):
            for method in (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "step"):
                method.name = "mamba2_step"
                funcs.append(method)
        exec(compile(ast.Module(body=funcs, type_ignores=[]), path, "exec"), namespace)
    missing = (WANTED | {"mamba2_step"}) - namespace.keys()
    if missing:
        sys.exit(f"error: mamba_ssm's source has no {', '.join(sorted(missing))}")
    # The step's pure-torch paths: no Triton state update, no causal-conv1d kernel.
    namespace.update({"selective_state_update": None, "causal_conv1d_update": None})
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


def block_case(ref, name, rng, batch, d_model, n, width, length, mixer):
    """One mamba_inner_ref call in float32 on weights drawn as the Mamba module draws them, with
    every stage's output recorded. mixer "selective" is Mamba's S6; "time_invariant" is Mamba-S4D
    (B and C given as constants, dt_proj's weight zero so that delta = softplus(dt_proj.bias))."""
    f32 = lambda a: torch.tensor(np.asarray(a, dtype=np.float32))
    d_inner, rank = 2 * d_model, -(-d_model // 16)
    unif = lambda bound, shape: f32(rng.uniform(-bound, bound, shape))
    hidden = f32(rng.standard_normal((batch, length, d_model)))
    in_proj = unif(d_model ** -0.5, (2 * d_inner, d_model))
    conv_w, conv_b = unif(width ** -0.5, (d_inner, 1, width)), unif(width ** -0.5, d_inner)
    x_proj = unif(d_inner ** -0.5, (rank + 2 * n, d_inner))
    dt_proj = unif(rank ** -0.5, (d_inner, rank))
    dt = np.maximum(np.exp(rng.uniform(np.log(1e-3), np.log(1e-1), d_inner)), 1e-4)
    dt_bias = f32(dt + np.log(-np.expm1(-dt)))  # the module's inverse softplus
    a_log = f32(np.log(np.tile(np.arange(1, n + 1, dtype=np.float64), (d_inner, 1))) + rng.uniform(-0.3, 0.3, (d_inner, n)))
    d_skip = f32(1.0 + 0.5 * rng.standard_normal(d_inner))
    out_proj = unif(d_inner ** -0.5, (d_model, d_inner))
    given = {}
    if mixer == "time_invariant":
        dt_proj = torch.zeros_like(dt_proj)
        b_vec, c_vec = f32(rng.standard_normal(n)), f32(rng.standard_normal(n))
        given = {"B": b_vec[None, :, None].expand(batch, n, length).contiguous(), "C": c_vec[None, :, None].expand(batch, n, length).contiguous()}
    seen = {}

    def conv(x, weight, bias=None, activation=None):
        out = ref["causal_conv1d_ref"](x, weight, bias, activation=activation)
        seen["conv_in"], seen["conv_out"] = x, out
        return out

    def scan(u, delta, A, B, C, D=None, z=None, delta_bias=None, delta_softplus=False):
        y = ref["selective_scan_ref"](u, delta, A, B, C, D, z=z, delta_bias=delta_bias, delta_softplus=delta_softplus)
        seen.update({"delta": delta, "B": B, "C": C, "z": z, "y": y})
        return y

    ref["mamba_inner_ref"].__globals__.update({"causal_conv1d_fn": conv, "selective_scan_fn": scan})
    xz = rearrange(F.linear(hidden, in_proj), "b l d -> b d l")
    out = ref["mamba_inner_ref"](xz, conv_w, conv_b, x_proj, dt_proj, out_proj, None, -torch.exp(a_log), D=d_skip, delta_bias=dt_bias, delta_softplus=True, **given)
    case = {"name": name, "dtype": "float32", "mixer": mixer, "batch": batch, "d_model": d_model, "d_inner": d_inner, "dstate": n, "dt_rank": rank,
            "conv_width": width, "length": length, "hidden": listed(hidden),
            "weights": {"in_proj.weight": listed(in_proj), "conv1d.weight": listed(conv_w), "conv1d.bias": listed(conv_b),
                        "dt_proj.bias": listed(dt_bias), "A_log": listed(a_log), "D": listed(d_skip), "out_proj.weight": listed(out_proj)},
            "xz": listed(xz), "conv_out": listed(seen["conv_out"]), "delta": listed(seen["delta"]), "B": listed(seen["B"]), "C": listed(seen["C"]),
            "z": listed(seen["z"]), "y": listed(seen["y"]), "out": listed(out)}
    if mixer == "time_invariant":
        case["weights"].update({"B": listed(b_vec), "C": listed(c_vec)})
    else:
        case["weights"].update({"x_proj.weight": listed(x_proj), "dt_proj.weight": listed(dt_proj)})
    return case


def mamba2_case(ref, name, rng, batch, d_model, n, width, length):
    """Mamba2.step in float32, token by token from zero states, one head (headdim = d_inner),
    ngroups 1, rmsnorm=False (the gate y·SiLU(z)), on weights drawn as the Mamba2 module draws
    them (D perturbed from its initial 1 so that the skip is seen), with every stage recorded."""
    f32 = lambda a: torch.tensor(np.asarray(a, dtype=np.float32))
    d_inner = 2 * d_model
    conv_dim = d_inner + 2 * n
    unif = lambda bound, shape: f32(rng.uniform(-bound, bound, shape))
    hidden = f32(rng.standard_normal((batch, length, d_model)))
    in_proj = torch.nn.Linear(d_model, 2 * d_inner + 2 * n + 1, bias=False)
    conv1d = torch.nn.Conv1d(conv_dim, conv_dim, width, groups=conv_dim, padding=width - 1)
    out_proj = torch.nn.Linear(d_inner, d_model, bias=False)
    with torch.no_grad():
        in_proj.weight.copy_(unif(d_model ** -0.5, (2 * d_inner + 2 * n + 1, d_model)))
        conv1d.weight.copy_(unif(width ** -0.5, (conv_dim, 1, width)))
        conv1d.bias.copy_(unif(width ** -0.5, conv_dim))
        out_proj.weight.copy_(unif(d_inner ** -0.5, (d_model, d_inner)))
    dt = np.maximum(np.exp(rng.uniform(np.log(1e-3), np.log(1e-1), 1)), 1e-4)
    dt_bias = f32(dt + np.log(-np.expm1(-dt)))  # the module's inverse softplus
    a_log = f32(np.log(rng.uniform(1.0, 16.0, 1)))  # A_init_range (1, 16)
    d_skip = f32(1.0 + 0.5 * rng.standard_normal(1))
    seen = {"xzbcdt": [], "xbc": [], "delta": [], "y": [], "out": []}

    class Recorded(torch.nn.Module):
        """A module whose outputs (or inputs) are appended to `seen[key]`."""

        def __init__(self, inner, key, record_input=False):
            super().__init__()
            self.inner, self.key, self.record_input = inner, key, record_input

        def forward(self, v):
            out = self.inner(v)
            seen[self.key].append(v if self.record_input else out)
            return out

    class Act(torch.nn.Module):
        """SiLU: its first call in a step is the convolution's (x, B, C), its second the gate's."""

        def __init__(self):
            super().__init__()
            self.calls = 0

        def forward(self, v):
            self.calls += 1
            out = F.silu(v)
            if self.calls % 2 == 1:
                seen["xbc"].append(out)
            return out

    class Functional:
        """torch.nn.functional with softplus recorded (the step's Δ)."""

        def __getattr__(self, name):
            return getattr(F, name)

        def softplus(self, v):
            out = F.softplus(v)
            seen["delta"].append(out)
            return out

    module = type("Mamba2Weights", (), {})()
    module.in_proj = Recorded(in_proj, "xzbcdt")
    module.conv1d, module.act = conv1d, Act()
    module.out_proj = Recorded(torch.nn.Sequential(out_proj), "y", record_input=True)
    module.dt_bias, module.A_log, module.D = dt_bias, a_log, d_skip
    module.d_ssm, module.ngroups, module.nheads, module.d_state, module.headdim, module.rmsnorm = d_inner, 1, 1, n, d_inner, False
    ref["mamba2_step"].__globals__["F"] = Functional()
    conv_state = torch.zeros(batch, conv_dim, width)
    ssm_state = torch.zeros(batch, 1, d_inner, n)
    with torch.no_grad():
        outs = [ref["mamba2_step"](module, hidden[:, t : t + 1], conv_state, ssm_state)[0] for t in range(length)]
    ref["mamba2_step"].__globals__["F"] = F
    stack = lambda key: torch.stack(seen[key], dim=1)  # (batch, L, ...)
    return {"name": name, "dtype": "float32", "batch": batch, "d_model": d_model, "d_inner": d_inner, "dstate": n, "conv_width": width, "length": length,
            "in_proj_rows": "z, x, B, C, dt (Mamba2's order)", "hidden": listed(hidden),
            "weights": {"in_proj.weight": listed(in_proj.weight), "conv1d.weight": listed(conv1d.weight), "conv1d.bias": listed(conv1d.bias),
                        "dt_bias": listed(dt_bias), "A_log": listed(a_log), "D": listed(d_skip), "out_proj.weight": listed(out_proj.weight)},
            "zxbcdt": listed(stack("xzbcdt")), "xBC": listed(stack("xbc")), "delta": listed(stack("delta")), "y": listed(stack("y")),
            "out": listed(torch.cat(outs, dim=1))}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/mamba_reference.json"
    ref, sources = reference_functions()
    rng = np.random.default_rng(20261126)
    fixture = {
        "generator": "scripts/reference_fixtures.py (numpy default_rng(20261126); the Mamba-2 cases default_rng(20261202))",
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
        "mamba_inner_ref": [
            block_case(ref, "Mamba block, d_model 4, N 4, k 4", rng, 2, 4, 4, 4, 12, "selective"),
            block_case(ref, "Mamba block, d_model 20 (rank 2), N 16, k 4, L 32", rng, 1, 20, 16, 4, 32, "selective"),
            block_case(ref, "Mamba-S4D block (time-invariant), d_model 4, N 4, k 3", rng, 2, 4, 4, 3, 12, "time_invariant"),
        ],
    }
    # Drawn from a stream of their own, so that adding them left every earlier case unchanged.
    rng2 = np.random.default_rng(20261202)
    fixture["mamba2_step"] = [
        mamba2_case(ref, "Mamba-2 block, one head, d_model 4, N 4, k 4", rng2, 2, 4, 4, 4, 12),
        mamba2_case(ref, "Mamba-2 block, one head, d_model 6, N 12 (000 Fig. 2's ⌈8 ln 4⌉), k 4, L 24", rng2, 1, 6, 12, 4, 24),
    ]
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(fixture, f)
        f.write("\n")
    os.replace(tmp, out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
