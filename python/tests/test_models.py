"""The numpy models agree with independent numpy recurrences of the same formulas."""

import numpy as np
import numpy.typing as npt
import pytest

from ssmcheck import models
from ssmcheck.models import Array


def _softplus(x: npt.ArrayLike) -> Array:
    return np.logaddexp(0.0, x)


def test_selective_scan_is_the_s6_recurrence() -> None:
    rng = np.random.default_rng(1)
    L, d, N = 12, 3, 4
    u, delta = rng.normal(size=(L, d)), rng.normal(size=(L, d))
    A = -np.exp(rng.normal(size=(d, N)))
    B, C = rng.normal(size=(L, N)), rng.normal(size=(L, N))
    y = models.selective_scan(u, delta, A, B, C, delta_softplus=True)
    h = np.zeros((d, N))
    ref = np.zeros((L, d))
    for t in range(L):
        dt = _softplus(delta[t])[:, None]
        h = np.exp(dt * A) * h + dt * B[t][None, :] * u[t][:, None]
        ref[t] = h @ C[t]
    # Each output is a sum of N products of terms with a few roundings each: a relative error
    # of a few tens of ulps of the largest term; 1e-12 of the scale is well above that.
    assert np.max(np.abs(y - ref)) <= 1e-12 * np.max(np.abs(ref))
    # The check can fail: a scan with A doubled differs.
    assert np.max(np.abs(models.selective_scan(u, delta, 2 * A, B, C, delta_softplus=True) - ref)) > 1e-3


def test_lrd_eq10_is_the_product_of_decays_times_bbar() -> None:
    a = np.array([-0.5, -1.5])
    x = np.array([0.3, -1.0, 0.7, 0.2])
    w, bias = 1.2, -0.4
    lrd = models.lrd_eq10(a, [1.0, 0.5], [0.0, 0.0], x, t=1, k=3, w=w, bias=bias, zoh=False)
    dts = _softplus(w * x + bias)
    ref = np.exp(a * dts[1:].sum()) * dts[0] * np.array([1.0, 0.5])
    assert np.allclose(lrd, ref, rtol=1e-13, atol=0)


def test_interaction_states_follow_eq13() -> None:
    A = np.array([[-1.0, 0.2], [0.0, -0.5]])
    B, G, W = np.array([1.0, 0.5]), np.array([0.1, -0.2]), np.array([0.3, 0.4])
    x = np.array([0.5, -1.0, 2.0])
    hs = models.interaction_states(A, B, 0.1, G, W, x)
    assert hs.shape == (3, 2)
    # eq (13) with the model's own Ā, B̄ (ZOH by scipy-free series): compare consecutive steps.
    from numpy.linalg import matrix_power

    M = 0.1 * A
    abar = sum(matrix_power(M, k) / np.prod(range(1, k + 1)) for k in range(25))
    bbar = sum(matrix_power(M, k) / np.prod(range(1, k + 2)) for k in range(25)) @ (0.1 * B)
    h = np.zeros(2)
    for t, xt in enumerate(x):
        h = abar @ h + bbar * xt + (h @ W * xt) * (G * xt)
        assert np.allclose(hs[t], h, rtol=1e-12, atol=1e-15)


def test_ssd_is_the_scalar_decay_recurrence() -> None:
    rng = np.random.default_rng(2)
    L, H, P, N = 10, 2, 3, 4
    x = rng.normal(size=(L, H, P))
    dt = np.exp(rng.normal(size=(L, H)) - 1)
    a = -np.exp(rng.normal(size=H))
    B, C = rng.normal(size=(L, N)), rng.normal(size=(L, N))
    y = models.ssd(x, dt, a, B, C)
    for h in range(H):
        state = np.zeros((P, N))
        for t in range(L):
            state = np.exp(a[h] * dt[t, h]) * state + dt[t, h] * np.outer(x[t, h], B[t])
            ref = state @ C[t]
            assert np.allclose(y[t, h], ref, rtol=1e-12, atol=1e-14 * np.abs(state).max())


def test_the_mqar_constructions_answer_every_query() -> None:
    inst = models.mqar_instance(keys=4, values=6, length=24, seed=3)
    assert sum(t is not None for t in inst["targets"]) == 4
    for theorem, activation in [(2, "relu"), (3, "relu"), (3, "silu"), (4, "relu")]:
        out = models.mqar_construction(inst, theorem=theorem, activation=activation)
        assert len(out["queries"]) == 4 and out["readout_w"].shape[0] == 6
        for q in out["queries"]:
            assert int(np.argmax(q["logits"])) == q["target"], (theorem, activation)
    assert models.mqar_construction(inst, theorem=2)["key_embeddings"].shape == (4, 10)
    # The check can fail: with a state too small for the keys (N = 1) some query is answered wrong.
    small = models.mqar_construction(inst, theorem=2, slots=1)
    assert any(int(np.argmax(q["logits"])) != q["target"] for q in small["queries"])


def test_lemma3s_induction_head_recalls_what_followed() -> None:
    tokens = [0, 3, 1, 2, 0]  # the last 0 was followed by 3
    out = models.induction_lemma3(tokens, vocab=4)
    assert out["targets"][-1] == 3
    for z, target in zip(out["logits"], out["targets"]):
        if target is not None:
            assert int(np.argmax(z)) == target
    # The check can fail: reading a different token's slot gives a different answer.
    assert int(np.argmax(models.induction_lemma3([0, 3, 1, 2, 1], vocab=4)["logits"][-1])) == 2


def test_the_copy_construction_copies_exactly() -> None:
    rng = np.random.default_rng(4)
    for n in (6, 60):  # the full block, and the sparse state beyond 48
        x = rng.normal(size=(n, 3))
        pos = [int(rng.integers(0, i + 1)) for i in range(n)]
        out = models.copy_theorem2(x, pos)
        assert np.array_equal(out["ssm"], x[pos])  # bit-exact, as 003.thm2 checks
        assert np.array_equal(out["target"], x[pos])
        # Through the gate SiLU(k) ≈ 1: within a few ulps.
        assert np.max(np.abs(out["block"] - x[pos])) <= 4 * np.finfo(float).eps * np.max(np.abs(x))
    # The check can fail: an off-by-one reading of pos is not what the construction returns.
    shifted = [max(p - 1, 0) for p in pos]
    assert not np.array_equal(out["ssm"], x[shifted])
    with pytest.raises(ValueError, match="after position"):
        models.copy_theorem2(x[:3], [0, 2, 1])


def test_ssd_head_forms_agree_with_a_numpy_recurrence() -> None:
    rng = np.random.default_rng(5)
    L, P, N = 11, 2, 3
    x, B, C = rng.normal(size=(L, P)), rng.normal(size=(L, N)), rng.normal(size=(L, N))
    a = -np.exp(rng.normal(size=L) - 1)
    state, ref = np.zeros((N, P)), np.zeros((L, P))
    for t in range(L):
        state = np.exp(a[t]) * state + np.outer(B[t], x[t])
        ref[t] = state.T @ C[t]
    scale = np.abs(ref).max()
    for form, chunk in [("scan", 1), ("matrix", 1), ("chunked", 1), ("chunked", 4), ("chunked", 20)]:
        assert np.allclose(models.ssd_head(x, a, B, C, form, chunk), ref, rtol=0, atol=1e-12 * scale), (form, chunk)
    M = models.ssd_matrix(a, B, C)
    assert np.allclose(M @ x, ref, rtol=0, atol=1e-12 * scale) and M[2, 5] == 0.0
    with pytest.raises(ValueError, match="form 'fast'"):
        models.ssd_head(x, a, B, C, "fast")


def test_lru_is_the_normalised_complex_recurrence() -> None:
    rng = np.random.default_rng(6)
    T, H, N = 9, 2, 3
    x = rng.normal(size=(T, H))
    nu, theta = np.log(-0.5 * np.log(rng.uniform(0.2, 0.9, size=N))), np.log(rng.uniform(0.1, 3.0, size=N))
    B = rng.normal(size=(N, H)) + 1j * rng.normal(size=(N, H))
    C = rng.normal(size=(H, N)) + 1j * rng.normal(size=(H, N))
    D = rng.normal(size=H)
    lam = np.exp(-np.exp(nu) + 1j * np.exp(theta))
    gamma = np.sqrt(1 - np.abs(lam) ** 2)
    h, ref = np.zeros(N, dtype=complex), np.zeros((T, H))
    for t in range(T):
        h = lam * h + gamma * (B @ x[t])
        ref[t] = (C @ h).real + D * x[t]
    assert np.allclose(models.lru(x, nu, theta, B, C, D), ref, rtol=1e-12, atol=1e-12)
    unnormalised = models.lru(x, nu, theta, B, C, D, gamma_log=np.zeros(N))
    assert not np.allclose(unnormalised, ref, rtol=1e-6)


def test_dplr_kernels_agree_with_numpy_linear_algebra() -> None:
    lam = models.s4d_lambda("inv", 8)
    assert np.allclose(lam.imag, 8 / np.pi * (8 / (2 * np.arange(4) + 1) - 1)) and np.all(lam.real == -0.5)
    assert np.allclose(models.s4d_lambda("lin", 8).imag, np.pi * np.arange(4))
    rng = np.random.default_rng(7)
    P = rng.normal(size=(4, 1)) + 1j * rng.normal(size=(4, 1))
    B, C = rng.normal(size=4) + 0j, rng.normal(size=4) + 1j * rng.normal(size=4)
    A = np.diag(lam) - P @ P.conj().T
    d = 0.1
    inv = np.linalg.inv(np.eye(4) - d / 2 * A)
    Ab, Bb = inv @ (np.eye(4) + d / 2 * A), inv @ (d * B)
    ref = np.array([C @ np.linalg.matrix_power(Ab, k) @ Bb for k in range(12)])
    assert np.allclose(models.dplr_kernel(lam, B, C, d, 12, P=P), ref, rtol=1e-12, atol=1e-13)
    zoh = models.dplr_kernel(lam, B, C, d, 12, rule="zoh")
    e = np.exp(d * lam)
    assert np.allclose(zoh, [np.sum(C * e ** k * (e - 1) / lam * B) for k in range(12)], rtol=1e-12, atol=1e-13)
    with pytest.raises(ValueError, match="ZOH"):
        models.dplr_kernel(lam, B, C, d, 12, P=P, rule="zoh")


def test_the_delta_rule_is_its_matrix_recurrence() -> None:
    rng = np.random.default_rng(8)
    T, dk, dv = 7, 4, 3
    k = rng.normal(size=(T, dk))
    k /= np.linalg.norm(k, axis=1, keepdims=True)
    v, q = rng.normal(size=(T, dv)), rng.normal(size=(T, dk))
    beta, gate = rng.uniform(size=T), rng.uniform(0.5, 1.0, size=T)
    S, ref = np.zeros((dv, dk)), np.zeros((T, dv))
    for t in range(T):
        S = gate[t] * S @ (np.eye(dk) - beta[t] * np.outer(k[t], k[t])) + beta[t] * np.outer(v[t], k[t])
        ref[t] = S @ q[t]
    assert np.allclose(models.delta_net(k, v, q, beta, gate), ref, rtol=1e-12, atol=1e-13)
    assert not np.allclose(models.delta_net(k, v, q, beta), ref, rtol=1e-6)


def test_the_diagonal_scan_is_its_unrolled_sum_real_and_complex() -> None:
    rng = np.random.default_rng(3)
    t, n = 12, 4
    for dtype in (float, complex):
        a = rng.uniform(-1, 1, (t, n)).astype(dtype)
        u = rng.standard_normal((t, n)).astype(dtype)
        h0 = rng.standard_normal(n).astype(dtype)
        if dtype is complex:
            a = a * np.exp(1j * rng.uniform(0, np.pi, (t, n)))
        h = models.diagonal_scan(a, u, h0)
        # The unrolled sum h_t = (∏ a) h0 + Σ_s (∏_{k>s} a_k) u_s, in numpy.
        ref = np.array([np.prod(a[: s + 1], axis=0) * h0 + sum(np.prod(a[j + 1 : s + 1], axis=0) * u[j] for j in range(s + 1)) for s in range(t)])
        assert np.iscomplexobj(h) == (dtype is complex)
        # Two orders of the same sums of products, entries of order 1 to 10: their rounding is
        # about T²·u·10 ≈ 3·10⁻¹³ at most; 10⁻¹² leaves a factor of three.
        np.testing.assert_allclose(h, ref, rtol=1e-12, atol=1e-12)
        # The control: a scan one step behind (the decays shifted) is not it.
        assert not np.allclose(models.diagonal_scan(np.roll(a, 1, axis=0), u, h0), ref, rtol=1e-6)
    assert np.all(models.diagonal_scan(np.ones((3, 2)), np.ones((3, 2))) == [[1, 1], [2, 2], [3, 3]])
    with pytest.raises(ValueError, match="same shape"):
        models.diagonal_scan(np.ones((3, 2)), np.ones((2, 2)))
