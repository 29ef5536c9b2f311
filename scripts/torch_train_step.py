#!/usr/bin/env python3
"""Times one training step of 000.table1's Mamba + PE classifier in PyTorch on the CPU, for the
README's comparison with `cargo bench --bench monte_carlo -- train_step` (same shapes: batch 16,
T = 20, |V| = 16, d = N = 8, one thread). float32, the reference scan's own precision (the suite
trains in f64); the S6 scan is state-spaces/mamba's selective_scan_ref, taken from the installed
mamba-ssm as scripts/reference_fixtures.py does.

usage: target/reference-venv/bin/python scripts/torch_train_step.py   (after scripts/reference_fixtures.sh)
"""
import time

import torch
import torch.nn.functional as F

from reference_fixtures import reference_functions

torch.set_num_threads(1)
torch.manual_seed(0)
ref, _ = reference_functions()
scan = ref["selective_scan_ref"]
B, T, V, D, N = 16, 20, 16, 8, 8
dt = torch.float32  # selective_scan_ref computes in float32 (it casts u and delta, not A)
emb = torch.randn(V, D - 1, dtype=dt, requires_grad=True)
w_delta = (torch.randn(D, D, dtype=dt) * 0.1 / D**0.5).requires_grad_()
b_delta = torch.full((D,), -3.0, dtype=dt, requires_grad=True)
w_b = (torch.randn(N, D, dtype=dt) / D**0.5).requires_grad_()
w_c = (torch.randn(N, D, dtype=dt) / D**0.5).requires_grad_()
log_neg_a = torch.log(torch.arange(1, N + 1, dtype=dt)).repeat(D, 1).requires_grad_()
w_o = (torch.randn(V, D, dtype=dt) / D**0.5).requires_grad_()
b_o = torch.zeros(V, dtype=dt, requires_grad=True)
params = [emb, w_delta, b_delta, w_b, w_c, log_neg_a, w_o, b_o]
opt = torch.optim.Adam(params, lr=0.03)
pos = torch.arange(1, T + 1, dtype=dt)


def step(tokens):
    x = torch.cat([emb[tokens], pos.expand(B, T).unsqueeze(-1)], -1)  # (B, T, D)
    delta = F.softplus(x @ w_delta.T + b_delta)  # (B, T, D)
    bm, cm = x @ w_b.T, x @ w_c.T  # (B, T, N)
    y = scan(x.transpose(1, 2), delta.transpose(1, 2), -torch.exp(log_neg_a), bm.transpose(1, 2), cm.transpose(1, 2))
    logits = y.transpose(1, 2) @ w_o.T + b_o  # (B, T, V)
    loss = F.cross_entropy(logits[:, 4:].reshape(-1, V), tokens[:, 4].repeat_interleave(T - 4))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


tokens = torch.randint(0, V, (B, T))
for _ in range(20):
    step(tokens)
n = 200
start = time.perf_counter()
for _ in range(n):
    step(tokens)
per = (time.perf_counter() - start) / n
print(f"torch {torch.__version__}, one thread: {per * 1e3:.3f} ms per step, {B * T / per / 1e3:.1f} k tokens/s")
