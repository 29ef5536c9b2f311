//! What a fixed state cannot copy (derived lower bounds, proofs/copy.md):
//!
//! * `003.lb.rank` (Theorem, LB-3): a positional SSM (keys, decays and queries depend on
//!   positions only) with state d_h < N has G = QKᵀ of rank ≤ d_h, so its worst-case error is
//!   ≥ V (‖G − I‖_∞ ≥ 1) and its relative copy MSE over i.i.d. isotropic values is
//!   ‖G − I‖²_F/N ≥ 1 − d_h/N; least-squares queries and Theorem 2 on d_h slots attain it.
//! * `003.lb.bits` (Theorem, LB-4): any model whose state holds S bits copies N uniform tokens
//!   of an alphabet of K with all correct w.p. ≤ 2^S/K^N and average error P̄ with
//!   h(P̄) + P̄ log₂(K−1) ≥ log₂K − S/N (Fano); a store-m-tokens toy sits above the bound.

use crate::claim::{property, Claim, Eval, Figure, Paper, Rounding, Series, Style};
use crate::claim::{Scale, Tolerance};
use crate::mc::{Stream, StreamKey};
use crate::strategy::log_uniform;
use nalgebra::DMatrix;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A random positional SSM: N content positions with keys b_j ~ N(0, I_{d_h}) and per-state
/// decays a_j\[n\] ~ U(0.5, 1), then queries c^{(p)} ~ N(0, I) for each position p, all from the
/// Philox stream `StreamKey::new(seed, "003.lb.rank")`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionalSsm {
    /// N.
    pub len: usize,
    /// d_h < N.
    pub state: usize,
    /// The stream seed.
    pub seed: u64,
}

impl PositionalSsm {
    /// The effective keys K\[j\]\[n\] = b_j\[n\]·∏_{k>j} a_k\[n\] (decays in the log domain) and the
    /// queries Q\[p\]\[n\].
    pub fn keys_and_queries(&self) -> (DMatrix<f64>, DMatrix<f64>) {
        let (n, dh) = (self.len, self.state);
        let mut s = Stream::new(StreamKey::new(self.seed, "003.lb.rank"), 0);
        let b: Vec<f64> = (0..n * dh).map(|_| s.normal()).collect();
        let log_a: Vec<f64> = (0..n * dh).map(|_| (0.5 + 0.5 * s.uniform()).ln()).collect();
        let mut k = DMatrix::zeros(n, dh);
        let mut acc = vec![0.0f64; dh];
        for j in (0..n).rev() {
            for m in 0..dh {
                k[(j, m)] = b[j * dh + m] * acc[m].exp();
                acc[m] += log_a[j * dh + m];
            }
        }
        let q = DMatrix::from_fn(n, dh, |_, _| s.normal());
        (k, q)
    }
}

/// ‖QKᵀ − I‖²_F / N, via ‖QKᵀ‖²_F = tr((QᵀQ)(KᵀK)) in O(N d_h²), and its rounding scale.
pub fn relative_mse(q: &DMatrix<f64>, k: &DMatrix<f64>) -> (f64, f64) {
    let n = q.nrows() as f64;
    let gram = (q.transpose() * q).component_mul(&(k.transpose() * k)).sum();
    let dots: Vec<f64> = (0..q.nrows()).map(|p| q.row(p).dot(&k.row(p))).collect();
    let trace: f64 = dots.iter().sum();
    // Σ|(QᵀQ)_{ab}(KᵀK)_{ab}| ≤ ‖Q‖²_F‖K‖²_F bounds the terms of the Gram sum.
    let scale = q.norm_squared() * k.norm_squared() + 2.0 * dots.iter().map(|d| d.abs()).sum::<f64>() + n;
    ((gram - 2.0 * trace + n) / n, scale / n)
}

/// max_p Σ_j |(QKᵀ − I)_{pj}| over the rows `rows` (all rows when None): a lower bound on
/// ‖G − I‖_∞, exact with every row.
pub fn inf_norm(q: &DMatrix<f64>, k: &DMatrix<f64>, rows: impl Iterator<Item = usize>) -> f64 {
    rows.map(|p| {
        let g = k * q.row(p).transpose();
        g.iter().enumerate().map(|(j, v)| (v - if j == p { 1.0 } else { 0.0 }).abs()).sum::<f64>()
    })
    .fold(0.0, f64::max)
}

/// The least-squares queries Q = (K⁺)ᵀ, so that G = KK⁺ is the projector on K's columns (NaN
/// entries when the SVD does not converge, which the check counts as a numerical failure).
pub fn least_squares_queries(k: &DMatrix<f64>) -> DMatrix<f64> {
    let Ok(svd) = crate::math::linalg::svd(k) else { return DMatrix::from_element(k.nrows(), k.ncols(), f64::NAN) };
    let cutoff = f64::EPSILON * k.nrows() as f64 * svd.singular_values.max();
    let pinv = svd.pseudo_inverse(cutoff).expect("computed U and V");
    pinv.transpose()
}

fn rank_bound(m: &PositionalSsm, factor: f64) -> Eval {
    let (k, q) = m.keys_and_queries();
    let bound = 1.0 - factor * m.state as f64 / m.len as f64;
    let tol = |scale: f64| Rounding::gamma(2 * m.len * m.state + 8) * scale;
    let (random, sr) = relative_mse(&q, &k);
    let lsq_q = least_squares_queries(&k);
    let (lsq, sl) = relative_mse(&lsq_q, &k);
    // Theorem 2 on d_h slots: G = diag(1 on slots 0..d_h), exactly N − d_h errors of unit variance.
    let slots = (m.len - m.state) as f64 / m.len as f64;
    // ‖G − I‖_∞ on every row when N²d_h ≤ 2·10⁸, else on 256 rows (a lower bound of the norm).
    let rows: Box<dyn Iterator<Item = usize>> =
        if m.len * m.len * m.state <= 200_000_000 { Box::new(0..m.len) } else { Box::new((0..m.len).step_by(m.len / 256)) };
    let worst = inf_norm(&q, &k, rows);
    Eval::ge_by(random, bound, Scale(1.0), Tolerance::absolute(tol(sr)))
        .min(Eval::ge_by(lsq, bound, Scale(1.0), Tolerance::absolute(tol(sl))))
        .min(Eval::ge_by(slots, bound, Scale(1.0), Tolerance::absolute(Rounding::gamma(4))))
        .min(Eval::ge_by(worst, 1.0, Scale(1.0), Tolerance::absolute(tol(worst + 1.0))))
}

fn positional() -> impl Strategy<Value = PositionalSsm> + Clone {
    (log_uniform(2.0, 4096.0), 0.0..1.0f64, any::<u64>()).prop_map(|(n, u, seed)| {
        let len = n as usize;
        let max = (len - 1).min(64) as f64;
        PositionalSsm { len, state: (max.powf(u) as usize).clamp(1, len - 1), seed }
    })
}

/// The COPY bounds figure: relative copy MSE against N for d_h ∈ {4, 16, 64}.
fn bounds_figure() -> Figure {
    let mut fig = Figure::new("copy-bounds", "COPY bounds: relative copy MSE of a positional SSM with state d_h", "log2 N", "relative MSE")
        .caption(
            "Random positional SSMs (dots, mean of 3) and least-squares queries (crosses, the best queries for those keys) against the rank bound \
             1 − d_h/N (LB-3, dashed), on a log axis: random queries lose one to two orders of magnitude more; the optimum sits on the bound \
             (at d_h = 64 the positional keys are ill-conditioned, and the computed optimum strays from it by a few per cent: rounding in the \
             pseudo-inverse). Theorem 2 (d_h = N) copies exactly \
             (MSE 0, below the axis). Any constant state loses the fraction 1 − d_h/N of the content.",
        )
        .log_y();
    for (c, dh) in [4usize, 16, 64].into_iter().enumerate() {
        let ns: Vec<usize> = (3..=12).map(|e| 1usize << e).filter(|&n| n > dh).collect();
        let random: Vec<[f64; 2]> = ns
            .iter()
            .map(|&n| {
                let mean = (0..3).map(|s| {
                    let (k, q) = PositionalSsm { len: n, state: dh, seed: s }.keys_and_queries();
                    relative_mse(&q, &k).0
                });
                [(n as f64).log2(), mean.sum::<f64>() / 3.0]
            })
            .collect();
        let lsq: Vec<[f64; 2]> = ns
            .iter()
            .map(|&n| {
                let (k, _) = PositionalSsm { len: n, state: dh, seed: 0 }.keys_and_queries();
                [(n as f64).log2(), relative_mse(&least_squares_queries(&k), &k).0]
            })
            .collect();
        let bound = ns.iter().map(|&n| [(n as f64).log2(), 1.0 - dh as f64 / n as f64]).collect();
        fig = fig
            .with(Series::new(format!("random, d_h = {dh}"), Style::Points, random).color(c))
            .with(Series::new(format!("least squares, d_h = {dh}"), Style::Crosses, lsq).color(c))
            .with(Series::new(format!("1 − d_h/N, d_h = {dh}"), Style::Dashed, bound).color(c));
    }
    fig
}

/// A copy of N tokens over an alphabet of K by a model with S state bits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BitBudget {
    /// N.
    pub len: usize,
    /// K ≥ 2.
    pub alphabet: usize,
    /// S.
    pub bits: u64,
}

/// h(p) + p·log₂(K − 1).
fn fano_lhs(p: f64, k: usize) -> f64 {
    let h = if p <= 0.0 || p >= 1.0 { 0.0 } else { -p * p.log2() - (1.0 - p) * (1.0 - p).log2() };
    h + p * ((k - 1) as f64).log2()
}

/// The least average error Fano allows: the p ∈ [0, (K−1)/K] with h(p) + p log₂(K−1) =
/// log₂K − S/N (0 when the right side is ≤ 0); the left side increases on that interval.
/// `dilution` divides S/N (1 for the bound; 2 for the negative control).
pub fn fano_bound(b: &BitBudget, dilution: f64) -> f64 {
    let k = b.alphabet;
    let rhs = (k as f64).log2() - b.bits as f64 / (dilution * b.len as f64);
    if rhs <= 0.0 {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0, (k - 1) as f64 / k as f64);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if fano_lhs(mid, k) < rhs {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

impl BitBudget {
    /// Tokens the toy stores exactly: ⌊S/⌈log₂K⌉⌋ (at most N).
    pub fn stored(&self) -> usize {
        ((self.bits / (self.alphabet as f64).log2().ceil() as u64) as usize).min(self.len)
    }
    /// The toy's average error: the unstored tokens are guessed, wrong w.p. (K−1)/K.
    pub fn toy_error(&self) -> f64 {
        (self.len - self.stored()) as f64 / self.len as f64 * (self.alphabet - 1) as f64 / self.alphabet as f64
    }
}

fn bits_eval(b: &BitBudget, factor: f64) -> Eval {
    let k = (b.alphabet as f64).log2();
    // All correct: K^{−(N−m)} ≤ 2^S/K^N, in log₂.
    let all = Eval::le_by(
        -((b.len - b.stored()) as f64) * k,
        b.bits as f64 - b.len as f64 * k,
        Scale(b.len as f64 * k),
        Tolerance::absolute(Rounding::gamma(4) * b.len as f64 * k),
    );
    let fano = fano_bound(b, factor);
    all.min(Eval::ge_by(b.toy_error(), fano, Scale(1.0), Tolerance::absolute(1e-12)))
}

fn budgets() -> impl Strategy<Value = BitBudget> + Clone {
    (log_uniform(1.0, 1e4), 2usize..=64, 0.0..1.3f64).prop_map(|(n, alphabet, frac)| {
        let len = n as usize;
        BitBudget { len, alphabet, bits: (frac * len as f64 * (alphabet as f64).log2()) as u64 }
    })
}

/// The Fano bound against N, from a toy budget to the paper's 135M Mamba.
fn vacuity_figure() -> Figure {
    let k = 26;
    let mut fig = Figure::new("fano", "LB-4: least average copy error with S state bits (K = 26)", "log10 N", "least average error")
        .caption("The 135M Mamba of Fig. 2 (20 layers × 2048 × 16 state numbers at 16 bits ≈ 1.05·10⁷ bits) is bounded away from exact copying only beyond N ≈ 2·10⁶ tokens: at Fig. 2's N ≤ 40 the capacity bound is vacuous, so the figure measures learnability, not capacity.");
    for (c, (label, bits)) in
        [("S = 256 bits", 256u64), ("S = 4096 bits", 4096), ("S = 1.05·10⁷ bits (135M Mamba)", 20 * 2048 * 16 * 16)].into_iter().enumerate()
    {
        let pts =
            (0..=64).map(|e| 10f64.powf(e as f64 / 8.0)).map(|n| [n.log10(), fano_bound(&BitBudget { len: n as usize, alphabet: k, bits }, 1.0)]).collect();
        fig = fig.with(Series::new(label, Style::Line, pts).color(c));
    }
    fig.with(Series::new("Fig. 2's largest N = 40", Style::Dashed, vec![[40f64.log10(), 0.0], [40f64.log10(), 1.0]]).color(3))
}

/// `003.lb.rank` (theorem): proofs/copy.md, LB-3.
fn claim_lb_rank() -> Claim {
    Claim::theorem(
        "003.lb.rank",
        super::FAMILY,
        "LB-3 (derived): a positional SSM with state d_h < N has worst-case copy error ≥ V (‖G − I‖_∞ ≥ 1, on every row \
             when N²d_h ≤ 2·10⁸, else on 256 rows) and relative copy MSE ≥ 1 − d_h/N, for random keys, per-state decays and \
             queries and for least-squares queries; Theorem 2 on d_h slots attains 1 − d_h/N. N up to 4096, d_h ≤ 64.",
        property([20, 100, 400], positional(), |m: &PositionalSsm| rank_bound(m, 1.0)).illustrate(|_| vec![bounds_figure()]),
    )
    .source(crate::claim::Origin::Derived(Paper::FreeLunch), "proofs/copy.md, LB-3", "—")
    .control("the bound 1 − d_h/(2N)", property([20, 100, 400], positional(), |m: &PositionalSsm| rank_bound(m, 0.5)))
}

/// `003.lb.bits` (theorem): proofs/copy.md, LB-4.
fn claim_lb_bits() -> Claim {
    Claim::theorem(
        "003.lb.bits",
        super::FAMILY,
        "LB-4 (derived): with S state bits, P(all N tokens copied) ≤ 2^S/K^N and the average error P̄ satisfies \
             h(P̄) + P̄ log₂(K−1) ≥ log₂K − S/N; checked on the toy that stores ⌊S/⌈log₂K⌉⌋ tokens exactly and guesses the rest \
             (N ≤ 10⁴, 2 ≤ K ≤ 64, S up to 1.3·N log₂K).",
        property([300, 3000, 30000], budgets(), |b: &BitBudget| bits_eval(b, 1.0)).illustrate(|_| vec![vacuity_figure()]),
    )
    .source(crate::claim::Origin::Derived(Paper::FreeLunch), "proofs/copy.md, LB-4", "—")
    .control("S/(2N) in place of S/N (twice the information per token)", property([300, 3000, 30000], budgets(), |b: &BitBudget| bits_eval(b, 2.0)))
}

/// Registers the capacity claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_lb_rank());
    r.add(claim_lb_bits());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_queries_attain_the_rank_bound() {
        // proofs/copy.md, LB-3: at the least-squares queries the relative MSE is 1 − d_h/N.
        for (n, dh) in [(16, 4), (64, 8), (64, 32), (256, 16)] {
            let (k, _) = PositionalSsm { len: n, state: dh, seed: 1 }.keys_and_queries();
            let (mse, _) = relative_mse(&least_squares_queries(&k), &k);
            assert!((mse - (1.0 - dh as f64 / n as f64)).abs() < 1e-9, "N={n}, d_h={dh}: {mse}");
        }
    }

    #[test]
    fn fano_is_zero_when_the_state_holds_everything() {
        assert_eq!(fano_bound(&BitBudget { len: 10, alphabet: 4, bits: 20 }, 1.0), 0.0);
        let b = BitBudget { len: 100, alphabet: 2, bits: 50 };
        let p = fano_bound(&b, 1.0);
        assert!((fano_lhs(p, 2) - 0.5).abs() < 1e-9 && p < b.toy_error());
    }
}
