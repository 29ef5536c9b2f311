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
