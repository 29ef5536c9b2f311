"""The verified models as numpy functions: the Rust code the claims check, called on arrays."""

from __future__ import annotations

from typing import Optional

import numpy as np

from . import _ssmcheck


def _flat(x, shape, name):
    a = np.asarray(x, dtype=float)
    if a.shape != shape:
        raise ValueError(f"{name}: shape {a.shape}, expected {shape}")
    return a.ravel().tolist()


def selective_scan(u, delta, A, B, C, delta_softplus: bool = False) -> np.ndarray:
    """Mamba's S6 selective scan (Gu & Dao 2023, Alg. 2; ZOH for Ā, Euler for B̄):
    h_t = exp(Δ_t A) h_{t−1} + Δ_t B_t u_t, y_t = C_t h_t, h_0 = 0.

    u, delta: (L, d); A: (d, N) (negative for a stable scan); B, C: (L, N). Returns y (L, d).
    Δ = softplus(delta) when `delta_softplus` (mamba_ssm's `delta_softplus=True`)."""
    u = np.asarray(u, dtype=float)
    if u.ndim != 2:
        raise ValueError("u: (L, d)")
    length, d = u.shape
    A = np.asarray(A, dtype=float)
    if A.ndim != 2 or A.shape[0] != d:
        raise ValueError(f"A: (d, N) with d = {d}")
    n = A.shape[1]
    y = _ssmcheck.selective_scan(d, n, length, _flat(delta, (length, d), "delta"), A.T.ravel().tolist(), _flat(B, (length, n), "B"),
                                 _flat(C, (length, n), "C"), u.ravel().tolist(), bool(delta_softplus))
    return np.asarray(y).reshape(length, d)


def lrd_eq10(a, b_bias, b_weight, x, t: int, k: int, *, w: Optional[float] = None, bias: float = 0.0, delta: float = 1.0,
             zoh: bool = True) -> np.ndarray:
    """004 eq (10): LRD(t+k, t) = (∏_{j=t+1}^{t+k} Ā_j) B̄_t for a diagonal SSM on one input
    channel, Δ_t = softplus(w·x_t + bias) (selective) or the fixed `delta` when w is None,
    B_t = b_bias + b_weight·x_t; times 1-based. Returns the N-vector."""
    return np.asarray(_ssmcheck.lrd_eq10(list(map(float, a)), list(map(float, b_bias)), list(map(float, b_weight)),
                                         None if w is None else float(w), float(bias), float(delta), bool(zoh),
                                         list(map(float, x)), int(t), int(k)))


def interaction_states(A, B, delta: float, G, W, x) -> np.ndarray:
    """004 §4 eq (13), the interaction-term SSM at fixed step Δ (ZOH), h_0 = 0:
    h_t = Ā h_{t−1} + B̄ x_t + (h_{t−1}ᵀ W x_t)(G x_t). Returns the states h_1…h_T, (T, H)."""
    A = np.asarray(A, dtype=float)
    h = A.shape[0]
    out = _ssmcheck.interaction_states(A.tolist(), list(map(float, B)), float(delta), list(map(float, G)), list(map(float, W)),
                                       list(map(float, x)))
    return np.asarray(out).reshape(-1, h)


def ssd(x, dt, a, B, C) -> np.ndarray:
    """Mamba-2's SSD (state space duality; Dao & Gu 2024), one group of B, C shared by the heads:
    per head h, h_t = e^{a_h dt_{t,h}} h_{t−1} + dt_{t,h} B_t x_{t,h}ᵀ, y_{t,h} = h_tᵀ C_t — the
    scan of `selective_scan` with a scalar decay per head (mamba_ssm's `ssd_minimal_discrete`
    with X = x·dt and A = a·dt; tests/integration/reference.rs checks that equivalence).

    x: (L, H, P); dt: (L, H), positive; a: (H,), negative; B, C: (L, N). Returns y (L, H, P)."""
    x = np.asarray(x, dtype=float)
    if x.ndim != 3:
        raise ValueError("x: (L, H, P)")
    length, heads, p = x.shape
    dt = np.asarray(dt, dtype=float)
    a = np.asarray(a, dtype=float)
    if dt.shape != (length, heads) or a.shape != (heads,):
        raise ValueError(f"dt: (L, H) = ({length}, {heads}); a: (H,) = ({heads},)")
    n = np.asarray(B).shape[1]
    ys = [selective_scan(x[:, h, :], np.repeat(dt[:, h:h + 1], p, axis=1), np.full((p, n), a[h]), B, C) for h in range(heads)]
    return np.stack(ys, axis=1)


def mqar_instance(keys: int, values: int, length: int, seed: int = 1, index: int = 0) -> dict:
    """A random MQAR sequence (000 eq 47 layout: κ key–value pairs, then the queries separated by
    noise), instance `index` of `seed`: {'tokens': [{'Key': i} | {'Value': j}, …], 'targets':
    [value or None, …], 'spec': …}, the same draw the recall claims make."""
    import json

    from . import _seed
    return json.loads(_ssmcheck.mqar_instance(int(keys), int(values), int(length), _seed(seed), _seed(index)))


def mqar_construction(instance: dict, theorem: int = 2, slots: Optional[int] = None, activation: str = "relu") -> dict:
    """One of 000's one-hot MQAR constructions (App. C.1), as the claims `000.thm2`, `000.thm3`
    and `000.thm4` build them, on an MQAR instance: Theorem 2 (Mamba), 3 (Mamba-2, `activation`
    'relu' or 'silu' in its convolutions) or 4 (the gated S4D block). Returns its weights (key and
    value embeddings, readout W and b, as numpy arrays) and the logits at each query with the
    target. `slots`: the state size N (κ by default; not used by Theorem 4)."""
    import json

    if activation not in ("relu", "silu"):
        raise ValueError("activation: 'relu' or 'silu'")
    keys = instance["spec"]["keys"]
    out = json.loads(_ssmcheck.mqar_construction(json.dumps(instance), int(theorem), int(keys if slots is None else slots), activation == "silu"))
    for k in ("key_embeddings", "value_embeddings", "readout_w", "readout_b"):
        out[k] = np.asarray(out[k], dtype=float)
    for q in out["queries"]:
        q["logits"] = np.asarray(q["logits"], dtype=float)
    return out


def induction_lemma3(tokens, vocab: int, slots: Optional[int] = None, w: float = 60.0, shift: float = 0.5) -> dict:
    """000 Lemma 3's induction-head layer (the construction the `000.lem3` claims check; the
    shifted Δ = softplus(w([I|0]x̂ − shift)) of the correction, shift = 0 for the printed one) on
    a sequence of token ids: {'logits': (T, vocab) array, 'targets': [the token that followed the
    last earlier occurrence of the current one, or None]}. `slots`: state slots (vocab by default)."""
    import json

    out = json.loads(_ssmcheck.induction_lemma3([int(t) for t in tokens], int(vocab), int(vocab if slots is None else slots), float(w),
                                                float(shift)))
    out["logits"] = np.asarray(out["logits"], dtype=float)
    return out


def copy_theorem2(x, pos) -> dict:
    """003 Theorem 2's exact COPY construction (App. A.2; checked by `003.thm2`): a Mamba block
    with A = 0, Δ = 1, B_i = e_i, C_i = e_pos(i) and the gate off, whose SSM outputs y_i = x_pos(i).
    x: (N, d) values; pos: N positions, 0-based, pos[i] ≤ i. Returns {'ssm', 'block', 'target'}
    as (N, d) arrays (the SSM outputs, the block's through the gate, and x_pos(i))."""
    import json

    x = np.asarray(x, dtype=float)
    if x.ndim != 2:
        raise ValueError("x: (N, d)")
    out = json.loads(_ssmcheck.copy_theorem2(x.tolist(), [int(p) for p in pos]))
    return {k: np.asarray(v, dtype=float) for k, v in out.items()}
