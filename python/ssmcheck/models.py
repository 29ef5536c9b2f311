"""The verified models as numpy functions: the Rust code the claims check, called on arrays."""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from . import _ssmcheck

#: An array of f64, as every model returns.
Array = npt.NDArray[np.float64]


def _flat(x: npt.ArrayLike, shape: Tuple[int, ...], name: str) -> List[float]:
    a = np.asarray(x, dtype=float)
    if a.shape != shape:
        raise ValueError(f"{name}: shape {a.shape}, expected {shape}")
    out: List[float] = a.ravel().tolist()
    return out


def _floats(x: Iterable[Any]) -> List[float]:
    return [float(v) for v in x]


def selective_scan(u: npt.ArrayLike, delta: npt.ArrayLike, A: npt.ArrayLike, B: npt.ArrayLike, C: npt.ArrayLike,
                   delta_softplus: bool = False) -> Array:
    """Mamba's S6 selective scan (Gu & Dao 2023, Alg. 2; ZOH for Ā, Euler for B̄):
    h_t = exp(Δ_t A) h_{t−1} + Δ_t B_t u_t, y_t = C_t h_t, h_0 = 0.

    u, delta: (L, d); A: (d, N) (negative for a stable scan); B, C: (L, N). Returns y (L, d).
    Δ = softplus(delta) when `delta_softplus` (mamba_ssm's `delta_softplus=True`)."""
    u_ = np.asarray(u, dtype=float)
    if u_.ndim != 2:
        raise ValueError("u: (L, d)")
    length, d = u_.shape
    A_ = np.asarray(A, dtype=float)
    if A_.ndim != 2 or A_.shape[0] != d:
        raise ValueError(f"A: (d, N) with d = {d}")
    n = A_.shape[1]
    y = _ssmcheck.selective_scan(d, n, length, _flat(delta, (length, d), "delta"), _floats(A_.T.ravel()), _flat(B, (length, n), "B"),
                                 _flat(C, (length, n), "C"), _floats(u_.ravel()), bool(delta_softplus))
    return np.asarray(y, dtype=float).reshape(length, d)


def lrd_eq10(a: Iterable[float], b_bias: Iterable[float], b_weight: Iterable[float], x: Iterable[float], t: int, k: int, *,
             w: Optional[float] = None, bias: float = 0.0, delta: float = 1.0, zoh: bool = True) -> Array:
    """004 eq (10): LRD(t+k, t) = (∏_{j=t+1}^{t+k} Ā_j) B̄_t for a diagonal SSM on one input
    channel, Δ_t = softplus(w·x_t + bias) (selective) or the fixed `delta` when w is None,
    B_t = b_bias + b_weight·x_t; times 1-based. Returns the N-vector."""
    return np.asarray(_ssmcheck.lrd_eq10(_floats(a), _floats(b_bias), _floats(b_weight), None if w is None else float(w), float(bias),
                                         float(delta), bool(zoh), _floats(x), int(t), int(k)), dtype=float)


def interaction_states(A: npt.ArrayLike, B: Iterable[float], delta: float, G: Iterable[float], W: Iterable[float],
                       x: Iterable[float]) -> Array:
    """004 §4 eq (13), the interaction-term SSM at fixed step Δ (ZOH), h_0 = 0:
    h_t = Ā h_{t−1} + B̄ x_t + (h_{t−1}ᵀ W x_t)(G x_t). Returns the states h_1…h_T, (T, H)."""
    A_ = np.asarray(A, dtype=float)
    h = A_.shape[0]
    out = _ssmcheck.interaction_states([_floats(row) for row in A_], _floats(B), float(delta), _floats(G), _floats(W), _floats(x))
    return np.asarray(out, dtype=float).reshape(-1, h)


def ssd(x: npt.ArrayLike, dt: npt.ArrayLike, a: npt.ArrayLike, B: npt.ArrayLike, C: npt.ArrayLike) -> Array:
    """Mamba-2's SSD (state space duality; Dao & Gu 2024), one group of B, C shared by the heads:
    per head h, h_t = e^{a_h dt_{t,h}} h_{t−1} + dt_{t,h} B_t x_{t,h}ᵀ, y_{t,h} = h_tᵀ C_t — the
    scan of `selective_scan` with a scalar decay per head (mamba_ssm's `ssd_minimal_discrete`
    with X = x·dt and A = a·dt; tests/integration/reference.rs checks that equivalence).

    x: (L, H, P); dt: (L, H), positive; a: (H,), negative; B, C: (L, N). Returns y (L, H, P)."""
    x_ = np.asarray(x, dtype=float)
    if x_.ndim != 3:
        raise ValueError("x: (L, H, P)")
    length, heads, p = x_.shape
    dt_ = np.asarray(dt, dtype=float)
    a_ = np.asarray(a, dtype=float)
    if dt_.shape != (length, heads) or a_.shape != (heads,):
        raise ValueError(f"dt: (L, H) = ({length}, {heads}); a: (H,) = ({heads},)")
    n = np.asarray(B).shape[1]
    ys = [selective_scan(x_[:, h, :], np.repeat(dt_[:, h:h + 1], p, axis=1), np.full((p, n), a_[h]), B, C) for h in range(heads)]
    return np.stack(ys, axis=1)


def mqar_instance(keys: int, values: int, length: int, seed: int = 1, index: int = 0) -> Dict[str, Any]:
    """A random MQAR sequence (000 eq 47 layout: κ key–value pairs, then the queries separated by
    noise), instance `index` of `seed`: {'tokens': [{'Key': i} | {'Value': j}, …], 'targets':
    [value or None, …], 'spec': …}, the same draw the recall claims make."""
    from . import _seed
    out: Dict[str, Any] = json.loads(_ssmcheck.mqar_instance(int(keys), int(values), int(length), _seed(seed), _seed(index)))
    return out


def mqar_construction(instance: Dict[str, Any], theorem: int = 2, slots: Optional[int] = None, activation: str = "relu") -> Dict[str, Any]:
    """One of 000's one-hot MQAR constructions (App. C.1), as the claims `000.thm2`, `000.thm3`
    and `000.thm4` build them, on an MQAR instance: Theorem 2 (Mamba), 3 (Mamba-2, `activation`
    'relu' or 'silu' in its convolutions) or 4 (the gated S4D block). Returns its weights (key and
    value embeddings, readout W and b, as numpy arrays) and the logits at each query with the
    target. `slots`: the state size N (κ by default; not used by Theorem 4)."""
    if activation not in ("relu", "silu"):
        raise ValueError("activation: 'relu' or 'silu'")
    keys = instance["spec"]["keys"]
    out: Dict[str, Any] = json.loads(_ssmcheck.mqar_construction(json.dumps(instance), int(theorem), int(keys if slots is None else slots), activation == "silu"))
    for k in ("key_embeddings", "value_embeddings", "readout_w", "readout_b"):
        out[k] = np.asarray(out[k], dtype=float)
    for q in out["queries"]:
        q["logits"] = np.asarray(q["logits"], dtype=float)
    return out


def induction_lemma3(tokens: Iterable[int], vocab: int, slots: Optional[int] = None, w: float = 60.0, shift: float = 0.5) -> Dict[str, Any]:
    """000 Lemma 3's induction-head layer (the construction the `000.lem3` claims check; the
    shifted Δ = softplus(w([I|0]x̂ − shift)) of the correction, shift = 0 for the printed one) on
    a sequence of token ids: {'logits': (T, vocab) array, 'targets': [the token that followed the
    last earlier occurrence of the current one, or None]}. `slots`: state slots (vocab by default)."""
    out: Dict[str, Any] = json.loads(_ssmcheck.induction_lemma3([int(t) for t in tokens], int(vocab), int(vocab if slots is None else slots), float(w),
                                                float(shift)))
    out["logits"] = np.asarray(out["logits"], dtype=float)
    return out


def copy_theorem2(x: npt.ArrayLike, pos: Iterable[int]) -> Dict[str, Array]:
    """003 Theorem 2's exact COPY construction (App. A.2; checked by `003.thm2`): a Mamba block
    with A = 0, Δ = 1, B_i = e_i, C_i = e_pos(i) and the gate off, whose SSM outputs y_i = x_pos(i).
    x: (N, d) values; pos: N positions, 0-based, pos[i] ≤ i. Returns {'ssm', 'block', 'target'}
    as (N, d) arrays (the SSM outputs, the block's through the gate, and x_pos(i))."""
    x_ = np.asarray(x, dtype=float)
    if x_.ndim != 2:
        raise ValueError("x: (N, d)")
    out = json.loads(_ssmcheck.copy_theorem2([_floats(row) for row in x_], [int(p) for p in pos]))
    return {k: np.asarray(v, dtype=float) for k, v in out.items()}


#: A complex array (LRU's and S4's parameters and kernels).
ComplexArray = npt.NDArray[np.complex128]


def _parts(z: npt.ArrayLike) -> Tuple[List[float], List[float]]:
    a = np.asarray(z, dtype=complex).ravel()
    return [float(v) for v in a.real], [float(v) for v in a.imag]


def ssd_head(x: npt.ArrayLike, log_decay: npt.ArrayLike, B: npt.ArrayLike, C: npt.ArrayLike, form: str = "scan", chunk: int = 1) -> Array:
    """One Mamba-2 SSD head (Dao & Gu 2024) in one of its three forms, which agree:
    "scan" (H_t = e^{a_t} H_{t−1} + B_t x_tᵀ, y_t = H_tᵀ C_t), "matrix" (y = M x with
    M[t, s] = (C_t·B_s) e^{a_{s+1}+…+a_t}) or "chunked" (state-spaces/mamba's `ssd_minimal`
    algorithm, chunks of `chunk` steps; any L).

    x: (L, P); log_decay: (L,), a_t ≤ 0; B, C: (L, N). Returns y (L, P)."""
    x_ = np.asarray(x, dtype=float)
    if x_.ndim != 2:
        raise ValueError("x: (L, P)")
    length, p = x_.shape
    B_ = np.asarray(B, dtype=float)
    if B_.ndim != 2 or B_.shape[0] != length:
        raise ValueError(f"B: (L, N) with L = {length}")
    n = B_.shape[1]
    y = _ssmcheck.ssd_forms(_floats(x_.ravel()), p, _flat(log_decay, (length,), "log_decay"), _floats(B_.ravel()), _flat(C, (length, n), "C"), n,
                            str(form), int(chunk))
    return np.asarray(y, dtype=float).reshape(length, p)


def ssd_matrix(log_decay: npt.ArrayLike, B: npt.ArrayLike, C: npt.ArrayLike) -> Array:
    """The SSD head's 1-semiseparable matrix M (L, L): M[t, s] = (C_t·B_s) e^{a_{s+1}+…+a_t} for
    s ≤ t, 0 above the diagonal. log_decay: (L,); B, C: (L, N)."""
    B_ = np.asarray(B, dtype=float)
    if B_.ndim != 2:
        raise ValueError("B: (L, N)")
    length, n = B_.shape
    m = _ssmcheck.ssd_matrix(_flat(log_decay, (length,), "log_decay"), _floats(B_.ravel()), _flat(C, (length, n), "C"), n)
    return np.asarray(m, dtype=float).reshape(length, length)


def lru(x: npt.ArrayLike, nu_log: npt.ArrayLike, theta_log: npt.ArrayLike, B: npt.ArrayLike, C: npt.ArrayLike, D: npt.ArrayLike,
        gamma_log: Optional[npt.ArrayLike] = None) -> Array:
    """The Linear Recurrent Unit (Orvieto et al. 2023): λ = exp(−e^ν + i e^θ),
    h_t = λ ⊙ h_{t−1} + γ ⊙ (B x_t), y_t = Re(C h_t) + D ⊙ x_t, with γ = e^{γlog}, normalised
    (γ = √(1 − |λ|²)) when `gamma_log` is None.

    x: (T, H); nu_log, theta_log: (N,); B: (N, H) complex; C: (H, N) complex; D: (H,). Returns y (T, H)."""
    x_ = np.asarray(x, dtype=float)
    if x_.ndim != 2:
        raise ValueError("x: (T, H)")
    t, h = x_.shape
    nu = _floats(np.asarray(nu_log, dtype=float).ravel())
    n = len(nu)
    B_, C_ = np.asarray(B, dtype=complex), np.asarray(C, dtype=complex)
    if B_.shape != (n, h) or C_.shape != (h, n):
        raise ValueError(f"B: (N, H) = ({n}, {h}) and C: (H, N) = ({h}, {n})")
    (br, bi), (cr, ci) = _parts(B_), _parts(C_)
    g = None if gamma_log is None else _flat(gamma_log, (n,), "gamma_log")
    y = _ssmcheck.lru_outputs(_floats(x_.ravel()), nu, _flat(theta_log, (n,), "theta_log"), br, bi, cr, ci, _flat(D, (h,), "D"), g)
    return np.asarray(y, dtype=float).reshape(t, h)


def s4d_lambda(init: str, state_size: int) -> ComplexArray:
    """S4D's initial eigenvalues (Gu et al. 2022), N/2 modes of a state of even size N:
    "lin", λ_n = −½ + iπn; "inv", λ_n = −½ + i(N/π)(N/(2n + 1) − 1)."""
    re, im = _ssmcheck.s4d_lambda(str(init), int(state_size))
    return np.asarray(re, dtype=float) + 1j * np.asarray(im, dtype=float)


def dplr_kernel(Lambda: npt.ArrayLike, B: npt.ArrayLike, C: npt.ArrayLike, delta: float, length: int, P: Optional[npt.ArrayLike] = None,
                rule: str = "bilinear") -> ComplexArray:
    """The convolution kernel K_k = C Ā^k B̄, k < length, of S4's system with A = Λ − P P*
    (P: (N, r) complex, None for S4D) discretised with step `delta` by `rule`: "bilinear"
    (Ā = (I − ΔA/2)⁻¹(I + ΔA/2), any P) or "zoh" (diagonal A only). S4D's real kernel is 2·Re K.
    Lambda, B, C: (N,) complex."""
    lr, li = _parts(Lambda)
    n = len(lr)
    if P is None:
        pr: List[float] = []
        pi: List[float] = []
        rank = 0
    else:
        P_ = np.asarray(P, dtype=complex)
        if P_.ndim != 2 or P_.shape[0] != n:
            raise ValueError(f"P: (N, r) with N = {n}")
        rank = P_.shape[1]
        pr, pi = _parts(P_)
    (br, bi), (cr, ci) = _parts(B), _parts(C)
    re, im = _ssmcheck.dplr_kernel(lr, li, pr, pi, rank, br, bi, cr, ci, float(delta), str(rule), int(length))
    return np.asarray(re, dtype=float) + 1j * np.asarray(im, dtype=float)


def delta_net(keys: npt.ArrayLike, values: npt.ArrayLike, queries: npt.ArrayLike, beta: npt.ArrayLike, gate: Optional[npt.ArrayLike] = None) -> Array:
    """The (gated) delta rule: S_t = α_t S_{t−1}(I − β_t k_t k_tᵀ) + β_t v_t k_tᵀ, o_t = S_t q_t,
    S_0 = 0 (α ≡ 1, DeltaNet, when `gate` is None).

    keys, queries: (T, d_k); values: (T, d_v); beta, gate: (T,). Returns o (T, d_v)."""
    k = np.asarray(keys, dtype=float)
    v = np.asarray(values, dtype=float)
    if k.ndim != 2 or v.ndim != 2 or v.shape[0] != k.shape[0]:
        raise ValueError("keys: (T, d_k) and values: (T, d_v)")
    t, dk = k.shape
    dv = v.shape[1]
    g = [1.0] * t if gate is None else _flat(gate, (t,), "gate")
    o = _ssmcheck.delta_net_outputs(_floats(k.ravel()), _floats(v.ravel()), _flat(queries, (t, dk), "queries"), dk, dv, _flat(beta, (t,), "beta"), g)
    return np.asarray(o, dtype=float).reshape(t, dv)


def diagonal_scan(decays: npt.ArrayLike, inputs: npt.ArrayLike, h0: Optional[npt.ArrayLike] = None) -> npt.NDArray[Any]:
    """The diagonal linear recurrence h_t = a_t ⊙ h_{t−1} + u_t (the state update of S4D, LRU,
    Mamba and gated linear RNNs with the decays a_t given per step), real or complex.

    decays, inputs: (T, N); h0: (N,), zero when None. Returns h_1..h_T (T, N): complex when any
    argument is complex, else real."""
    a = np.asarray(decays)
    u = np.asarray(inputs)
    if a.ndim != 2 or a.shape != u.shape:
        raise ValueError(f"decays and inputs: the same shape (T, N), got {a.shape} and {u.shape}")
    t, n = a.shape
    h = np.zeros(n) if h0 is None else np.asarray(h0)
    if h.shape != (n,):
        raise ValueError(f"h0: shape {h.shape}, expected ({n},)")
    is_complex = any(np.iscomplexobj(x) for x in (a, u, h))
    args = [_floats(part(x).ravel()) for x in (a, u, h) for part in (np.real, np.imag)]
    re, im = _ssmcheck.diagonal_scan_states(*args)
    out = np.asarray(re, dtype=float).reshape(t, n)
    return out + 1j * np.asarray(im, dtype=float).reshape(t, n) if is_complex else out
