//! 003 Theorem 2 / Theorem 6: exact COPY with state size N.
//!
//! Construction (App. A.2): input x̃_i = [x_i; e_i; e_pos(i)] ∈ ℝ^{d+2N}, gate off (W_2 = 0,
//! b_2 = k·1 with SiLU(k) = 1, W_1 = W_3 = I), d_h = N, A = 0, W_b = \[0, I, 0\] (b_i = e_i),
//! W_c = \[0, 0, I\] (c_i = e_pos(i)), W_Δ = ln(e − 1) on the e_i columns (Δ = softplus(ln(e−1)) = 1; the f64 nearest ln(e−1)
//! whose softplus is exactly 1),
//! skip 0. Then H_i = Σ_{j≤i} e_j v_jᵀ and y_i = v_pos(i).
//!
//! * `003.thm2` (Theorem, construction): bit-exact at the SSM output, within 1.5·2⁻⁵² relative
//!   through the gate; the full block for N ≤ 48, the dense state's content channels for
//!   N ≤ 4096, a sparse state beyond (to 10⁶).
//! * `003.thm2.size` (Erratum, reading) and `003.thm2.nonzeros` (Theorem): "size O(N)" against the
//!   dense and the nonzero state of the construction.

use crate::claim::rate::{judge_rates, RateCell};
use crate::claim::{construction, custom, Claim, ErrorKind, Eval, Figure, Kind, Paper, Series, Style, ALPHA};
use crate::claim::{Scale, Tolerance};
use crate::constructions::copy::{augmented, gate_band, unit_delta, CopyValues, ExactCopy};
use crate::model::vector_ssm::DenseState;
use crate::stats::{bonferroni, ols};
use crate::strategy::log_uniform;
use proptest::prelude::*;

fn exact(c: &ExactCopy) -> Eval {
    let run = c.run();
    let mut mismatches = 0u64;
    let mut worst = 0.0f64;
    for ((t, s), b) in run.target.iter().zip(&run.ssm).zip(&run.block) {
        for k in 0..t.len() {
            // Equal as IEEE values (+0 and −0 are the same value: 0 + (−0) = +0 in the state).
            mismatches += u64::from(s[k] != t[k]);
            worst = worst.max((b[k] - t[k]).abs() / gate_band(t[k]));
        }
    }
    Eval::le_by(mismatches as f64, 0.0, Scale(1.0), Tolerance::NONE).min(Eval::le(worst, 1.0, Tolerance::NONE))
}

fn first_mismatch(c: &ExactCopy) -> serde_json::Value {
    let run = c.run();
    let (xs, _) = c.inputs();
    let found = run.target.iter().zip(&run.ssm).enumerate().find(|(_, (t, s))| t != s);
    serde_json::json!({
        "channels": xs[0].len(),
        "delta": unit_delta(),
        "first_mismatch": found.map(|(i, (t, s))| serde_json::json!({
            "i": i + 1, "pos": run.pos[i] + 1, "x_pos": xs[run.pos[i]], "v_pos": t, "y_ssm": s, "y_block": run.block[i],
        })),
    })
}

fn exact_copies(a: f64) -> impl Strategy<Value = ExactCopy> + Clone {
    let values = prop_oneof![
        (2usize..=26).prop_map(|alphabet| CopyValues::Task { alphabet }),
        (1usize..=8, log_uniform(1e-3, 1e3)).prop_map(|(channels, amplitude)| CopyValues::Random { channels, amplitude })
    ];
    (log_uniform(1.0, 1e6), values, any::<u64>()).prop_map(move |(n, values, values_seed)| {
        let len = match values {
            CopyValues::Task { .. } => (n as usize).max(4),
            CopyValues::Random { .. } => n as usize,
        };
        ExactCopy { len, values, values_seed, a }
    })
}

/// The construction's sizes at N: the dense state d_h·d_inner = N(d+2N), its nonzeros after N
/// steps N(d+2) (each row holds v_j, e_j and e_pos(j)), and the dense parameter count: W_1, W_2,
/// W_3 and W_Δ are (d+2N)² each, W_b, W_c and A are N × (d+2N), plus b_1, b_2 and the skip.
pub fn sizes(n: usize, d: usize) -> (f64, f64, f64) {
    let w = (d + 2 * n) as f64;
    let (n, d) = (n as f64, d as f64);
    (n * w, n * (d + 2.0), 4.0 * w * w + 3.0 * n * w + 3.0 * w)
}

/// Counts the nonzero state entries of the full block after N steps of a random run.
fn counted_nonzeros(n: usize, d: usize) -> usize {
    let c = ExactCopy { len: n, values: CopyValues::Random { channels: d, amplitude: 1.0 }, values_seed: 7, a: 0.0 };
    let (xs, pos) = c.inputs();
    let xs: Vec<Vec<f64>> = xs.into_iter().map(|x| x.into_iter().map(|v| if v == 0.0 || v.abs() < 1e-200 { 0.5 } else { v }).collect()).collect();
    let block = c.block(n, d);
    let mut state = DenseState::new(n, d + 2 * n);
    for tilde in augmented(&xs, &pos) {
        state.advance(&block.ssm.a, &block.ssm.skip, &block.ssm.step(&tilde));
    }
    state.h.iter().flatten().filter(|v| **v != 0.0).count()
}

fn size_check(dense: bool, predicted: f64) -> impl crate::claim::Check {
    custom(Kind::Rate, move |_ctx| {
        let d = 4;
        // N = 16 … 256 at every budget: the counts are exact, so more N only adds curvature.
        let ns: Vec<usize> = (4..=8).map(|e| 1usize << e).collect();
        let level = bonferroni(ALPHA, 1);
        let x: Vec<f64> = ns.iter().map(|&n| (n as f64).ln()).collect();
        let counts: Vec<f64> =
            ns.iter().map(|&n| if dense { sizes(n, d).0 } else { counted_nonzeros(n.min(256), d) as f64 * n as f64 / n.min(256) as f64 }).collect();
        let y: Vec<f64> = counts.iter().map(|c| c.ln()).collect();
        let fit = ols(&x, &y, 1.0 - level).expect("distinct N");
        let (what, label) = if dense { ("dense state entries N(d+2N)", "dense") } else { ("nonzero state entries (counted)", "nonzero") };
        let cell = RateCell {
            label: format!("kind={label}, d={d}, n_min={}, n_max={}", ns[0], ns[ns.len() - 1]),
            measured: fit.slope,
            predicted,
            slack: 0.0,
            at_most: dense,
        };
        let fig = Figure::new("state-size", "Theorem 2's state against N (d = 4)", "log10 N", "log10 entries")
            .with(Series::new("dense state N(d+2N)", Style::Points, ns.iter().map(|&n| [(n as f64).log10(), sizes(n, d).0.log10()]).collect()).color(0))
            .with(Series::new("nonzero state N(d+2)", Style::Points, ns.iter().map(|&n| [(n as f64).log10(), sizes(n, d).1.log10()]).collect()).color(1))
            .with(Series::new("dense parameters", Style::Dashed, ns.iter().map(|&n| [(n as f64).log10(), sizes(n, d).2.log10()]).collect()).color(2))
            .with(Series::new("state dimension d_h = N", Style::Line, ns.iter().map(|&n| [(n as f64).log10(), (n as f64).log10()]).collect()).color(3))
            .caption(format!("Fitted slope of the {what}: {:.3} [{:.3}, {:.3}]. The state dimension d_h = N and the nonzeros are linear in N; the dense state and the dense parameters are quadratic.", fit.slope.estimate, fit.slope.lo, fit.slope.hi));
        let correction = format!("least-squares slope interval at 1 − α, α = {ALPHA} (one cell); exact counts, so the interval only reflects curvature");
        Ok(judge_rates(vec![cell], &correction).figures([fig]))
    })
}

const PRINTED: &str = "Given sequence x_1, x_2, …, x_N ∈ [−M, M]^d, there exists a Mamba block with size O(N) that can perform the defined COPY operation, that is, y_i = o_i for any i ∈ [N]. Moreover, the l_∞ norm of the Mamba block parameters is upper bounded by O(ploy(M, N)) [sic: poly].";

/// `003.thm2` (theorem): Theorem 2 / Theorem 6 (App. A.2).
fn claim_thm2() -> Claim {
    Claim::theorem(
        "003.thm2",
        super::FAMILY,
        "Theorem 2's construction (x̃_i = [x_i; e_i; e_pos(i)], d_h = N, A = 0, b_i = e_i, c_i = e_pos(i), Δ = softplus(W_Δ) = 1 with W_Δ ≈ ln(e−1), \
             gate off) copies exactly: H_iᵀc_i = v_pos(i) as IEEE values at every position, and the gated block is within \
             1.5·2⁻⁵²|v| (SiLU(k) = 1 + 2⁻⁵²). Values: the copy task (one-hot tokens) or reals with ±M, ±0 and subnormals, \
             pos(i) ≤ i; N up to 48 through the full block, 4096 with the dense state (N²d ≤ 10⁸), 10⁶ with the sparse state.",
        construction([30, 60, 600], exact_copies(0.0), exact).expand(first_mismatch),
    )
    .source(Paper::FreeLunch, "§4.2, Theorem 2 (Theorem 6 and its proof, App. A.2)", PRINTED)
    .control("A = −10⁻³ in place of 0 (the state forgets)", construction([30, 60, 600], exact_copies(-1e-3), exact).expand(first_mismatch))
}

/// `003.thm2.size` (erratum): Theorem 2 / Theorem 6; App. A.2 ('the model size we need is O(Nd)').
fn claim_thm2_size() -> Claim {
    Claim::erratum(
            "003.thm2.size",
            super::FAMILY,
            "'A Mamba block of size O(N)', read as the construction's dense state d_h × d_inner (the memory a dense Mamba layer \
             allocates): the least-squares slope of its log size on log N (N = 16…256, d = 4) is at most 1.",
            size_check(true, 1.0),
        )
        .source(Paper::FreeLunch, "§4.2, Theorem 2 (Theorem 6; App. A.2: 'the model size we need is O(Nd)')", PRINTED)
        .correction("Dense, the state is N(d + 2N) = Θ(N²) and W_b, W_c are N × (d + 2N) each; O(N) (O(Nd)) counts the state dimension d_h = N or the nonzeros N(d + 2): 003.thm2.nonzeros.")
        .error(
            ErrorKind::Reading,
            "Theorem 2: 'there exists a Mamba block of size O(N)' (App. A.2: 'the model size we need is O(Nd)'). Reading checked: size as the dense state d_h × d_inner = N(d + 2N) (and the dense W_b, W_c, W_1, W_3), which grows like N² because the positional one-hots e_i, e_pos(i) are channels that also carry state: fitted slope ≈ 2. Under the other reading, the state dimension d_h = N or the nonzero entries N(d + 2), the size is linear: 003.thm2.nonzeros. That is the paper's own counting: A.2 stores the one-hots sparsely ('we only need to use two indices p_i = i and p_pos(i) = pos(i) to store them thus the total size to store all indices is O(N)', and 'W_b, W_c are also sparse'), and under it the statement holds; only the dense allocation of a Mamba layer grows like N².",
        )
        .holds_instead(&["003.thm2.nonzeros"])
}

/// `003.thm2.nonzeros` (theorem): Theorem 2, App. A.2 ('the model size we need is O(Nd)').
fn claim_thm2_nonzeros() -> Claim {
    Claim::theorem(
        "003.thm2.nonzeros",
        super::FAMILY,
        "Read as the nonzero state (counted after N steps of the full block), the construction's size is linear: the slope \
             of log nonzeros on log N is 1 (N = 16…256, d = 4).",
        size_check(false, 1.0),
    )
    .source(Paper::FreeLunch, "§4.2, Theorem 2 (App. A.2: 'the model size we need is O(Nd)')", PRINTED)
    .control("a quadratic size (slope 2)", size_check(false, 2.0))
}

/// Registers the Theorem 2 claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_thm2());
    r.add(claim_thm2_size());
    r.add(claim_thm2_nonzeros());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constructions::copy::delta_weight;

    #[test]
    fn the_three_tiers_copy_exactly_and_softplus_gives_delta_one() {
        assert_eq!(unit_delta(), 1.0, "softplus(W_Δ) is exactly 1 in f64");
        assert!((delta_weight() - (std::f64::consts::E - 1.0).ln()).abs() < 1e-15);
        for len in [5, 40, 300, 5000] {
            let c = ExactCopy { len, values: CopyValues::Random { channels: 3, amplitude: 2.0 }, values_seed: 3, a: 0.0 };
            assert!(exact(&c).margin().unwrap() >= 0.0, "N = {len}");
            let forgetful = ExactCopy { a: -1e-3, ..c };
            assert!(exact(&forgetful).refutes(), "N = {len}: forgetting breaks exactness");
        }
    }

    #[test]
    fn nonzeros_are_n_times_d_plus_two() {
        assert_eq!(counted_nonzeros(16, 4), 16 * 6);
    }
}
