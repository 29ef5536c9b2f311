//! Is LRD monotone in the lag? 004 §3.2 (attention) and Fig. 1 (the interaction model against
//! the SSM), judged on enclosures: an increase counts only when the interval of ‖LRD(τ+1, t)‖
//! lies wholly above that of ‖LRD(τ, t)‖, so rounding can neither make nor hide one.
//!
//! * `004.fig1.ssm` (Theorem): for a symmetric Ā with spectrum in (0, 1) (a symmetric A ≤ 0 with
//!   a fixed Δ, the SSM of Fig. 1), ‖Ā^{k+1}B̄‖₂ ≤ ‖Ā^k B̄‖₂ for every B̄ and k. Control: the same
//!   spectrum made non-normal (transient growth).
//! * `004.fig1.interaction` (Theorem, existence): in Fig. 1's simulation setting (x_j iid N(0, 1),
//!   A with non-positive eigenvalues, fixed Δ, random B, G, W), the interaction model's
//!   ‖LRD(t+k, t)‖₂ increases at some lag k ≤ 100: a witness with both sides enclosed, and the
//!   frequency of such draws with its Clopper–Pearson interval. Control: G = 0 (the SSM).
//! * `004.sec32.attention` (Theorem, existence): one causal softmax-attention layer's
//!   ‖LRD(τ, t)‖_F (Eq. 12's Jacobian, by dual numbers over intervals) increases with τ for some
//!   weights and inputs. Control: β = 0 (uniform weights, LRD = W_V/τ).

use crate::claim::{custom, Check, Claim, Comparison, Context, Kind, Outcome, Paper, Relation, Sizes, Verdict, ALPHA};
use crate::claim::{property, Eval, Tolerance};
use crate::math::interval::{exact_rows, matmul, matvec, norm2};
use crate::math::linalg::{mat_from_rows, mat_to_rows, Mat};
use crate::math::{derivative, Dual, Interval};
use crate::mc::Stream;
use crate::model::Attention;
use crate::stats::clopper_pearson;
use crate::strategy::{grid, grid_matrix, grid_vec};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

fn exact_vec(v: &[f64]) -> Vec<Interval> {
    v.iter().map(|&x| Interval::exact(x)).collect()
}

/// The first index k at which a sequence of enclosed norms certainly increases: `norms[k + 1]`
/// lies wholly above `norms[k]`.
fn first_certain_increase(norms: &[Interval]) -> Option<usize> {
    norms.windows(2).position(|w| w[0].certainly_lt(w[1]))
}

// ---------------------------------------------------------------------------------------------
// 004.fig1.ssm

/// Lags checked by `004.fig1.ssm`: k = 0..=SSM_LAGS.
const SSM_LAGS: usize = 30;

/// An SSM of Fig. 1 with a symmetric transition `Ā = Q diag(e^{−Δλ}) Qᵀ` (Q from the QR of a
/// grid matrix, so orthogonal to rounding; the product is symmetric for any Q, with
/// ‖Ā‖₂ ≤ ‖Q‖₂² e^{−Δ min λ} < 1 since min λ·Δ ≥ 1/256 and ‖Q‖₂² − 1 is of order 10⁻¹⁵), and an
/// optional strictly upper triangular part `U` in the basis Q (the control: same spectrum,
/// non-normal).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SymmetricSsm {
    /// Q (H×H), rows: the eigenvectors.
    pub q: Vec<Vec<f64>>,
    /// The rates λ_i > 0 (A = −Q diag(λ) Qᵀ).
    pub rates: Vec<f64>,
    /// The fixed step Δ.
    pub delta: f64,
    /// B̄ (any vector: LRD(t+k, t) = Ā^k B̄).
    pub bbar: Vec<f64>,
    /// The strictly upper triangular entry of the control's U (0 for the theorem).
    pub upper: f64,
}

impl SymmetricSsm {
    /// Ā = Q (diag(e^{−Δλ}) + U) Qᵀ, enclosed (exact for the given Q, λ, Δ).
    fn abar(&self) -> Vec<Vec<Interval>> {
        let h = self.rates.len();
        let q = exact_rows(&self.q);
        let mut core = vec![vec![Interval::exact(0.0); h]; h];
        for (i, row) in core.iter_mut().enumerate() {
            row[i] = (Interval::exact(-self.delta) * Interval::exact(self.rates[i])).exp();
            for cell in row.iter_mut().skip(i + 1) {
                *cell = Interval::exact(self.upper);
            }
        }
        let qt: Vec<Vec<Interval>> = (0..h).map(|j| q.iter().map(|row| row[j]).collect()).collect();
        matmul(&matmul(&q, &core), &qt)
    }

    /// ‖Ā^k B̄‖₂ for k = 0..=SSM_LAGS, enclosed.
    fn lrd_norms(&self) -> Vec<Interval> {
        let abar = self.abar();
        let mut v = exact_vec(&self.bbar);
        let mut out = vec![norm2(&v)];
        for _ in 0..SSM_LAGS {
            v = matvec(&abar, &v);
            out.push(norm2(&v));
        }
        out
    }

    /// `‖Ā^{k+1}B̄‖₂ ≤ ‖Ā^k B̄‖₂` at the first certain increase, else at the step whose midpoints
    /// grow most (a tie where the enclosures overlap).
    fn monotone(&self) -> Eval {
        let norms = self.lrd_norms();
        let growth = |k: usize| norms[k + 1].mid() / norms[k].mid();
        let k = first_certain_increase(&norms).unwrap_or_else(|| (0..SSM_LAGS).max_by(|&a, &b| growth(a).total_cmp(&growth(b))).unwrap_or(0));
        Eval::le(norms[k + 1], norms[k], Tolerance::NONE)
    }
}

/// Symmetric SSMs from the public generators: H ∈ {2, 3, 4}, Q from a grid matrix (+3I), rates on
/// a 1/16 grid in [1/16, 2], Δ on a 1/16 grid in [1/16, 1], B̄ on a 1/8 grid in [−2, 2].
fn symmetric_ssms(upper: f64) -> impl Strategy<Value = SymmetricSsm> + Clone {
    (2usize..=4)
        .prop_flat_map(|h| (grid_matrix(h, h, -2.0, 2.0, 0.25), grid_vec(h, 0.0625, 2.0, 0.0625), grid(0.0625, 1.0, 0.0625), grid_vec(h, -2.0, 2.0, 0.125)))
        .prop_map(move |(m, rates, delta, bbar)| {
            let h = rates.len();
            let q = (mat_from_rows(&m) + Mat::identity(h, h) * 3.0).qr().q();
            SymmetricSsm { q: mat_to_rows(&q), rates, delta, bbar, upper }
        })
}

/// Cases of `004.fig1.ssm` per budget.
const SSM_CASES: [u64; 3] = [300, 1000, 4000];

/// `004.fig1.ssm` (theorem): the SSM side of Fig. 1.
fn claim_fig1_ssm() -> Claim {
    Claim::theorem(
        "004.fig1.ssm",
        super::FAMILY,
        "For an SSM with a symmetric Ā = Q diag(e^{−Δλ}) Qᵀ (A = −Q diag(λ) Qᵀ ≤ 0, λ_i ≥ 1/16, fixed Δ ≥ 1/16), the LRD norm \
         ‖LRD(t+k, t)‖₂ = ‖Ā^k B̄‖₂ never increases in k (k ≤ 30), for every B̄: ‖Ā‖₂ < 1. H ≤ 4; norms enclosed in interval \
         arithmetic, so only a certain increase refutes.",
        property(SSM_CASES, symmetric_ssms(0.0), SymmetricSsm::monotone).sides("‖Ā^{k+1}B̄‖₂ (enclosed)", "‖Ā^k B̄‖₂ (enclosed)"),
    )
    .source(
        Paper::RethinkingLrd,
        "§4.1, Fig. 1 (the SSM/Mamba curve)",
        "The plot shows that the LRD in Mamba/SSM has a near-zero LRD after the time gap of k ≥ 5",
    )
    .control(
        "the same spectrum made non-normal: Ā = Q(diag(e^{−Δλ}) + U)Qᵀ, U strictly upper triangular with entries 2",
        property(SSM_CASES, symmetric_ssms(2.0), SymmetricSsm::monotone).sides("‖Ā^{k+1}B̄‖₂ (enclosed)", "‖Ā^k B̄‖₂ (enclosed)"),
    )
}

// ---------------------------------------------------------------------------------------------
// 004.fig1.interaction

/// Fig. 1's lags k = 1..=100, measured at t = 10.
const FIG1_LAGS: usize = 100;
const FIG1_T: usize = 10;
/// The state size of the Fig. 1 draws.
const FIG1_H: usize = 4;

/// One draw of Fig. 1's simulation: an interaction model (13) with symmetric A ≤ 0 and fixed Δ,
/// and inputs x_1..x_{t+100}; h_0 = 0.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Fig1Draw {
    /// Ā = Q diag(e^{−Δλ}) Qᵀ as computed (rows): the model is this matrix.
    pub abar: Vec<Vec<f64>>,
    /// B̄.
    pub bbar: Vec<f64>,
    /// G.
    pub g: Vec<f64>,
    /// W.
    pub w: Vec<f64>,
    /// x_1..x_{t+100}.
    pub x: Vec<f64>,
    /// The differentiated time t.
    pub t: usize,
}

impl Fig1Draw {
    /// A draw: Q random orthogonal, λ ~ U(0.1, 1), Δ = 1/2, B̄ ~ N(0, 1), G, W ~ N(0, 0.3²)
    /// (zero when `interaction` is false), x_j ~ N(0, 1).
    fn draw(stream: &mut Stream, interaction: bool) -> Fig1Draw {
        let h = FIG1_H;
        let q = Mat::from_fn(h, h, |_, _| stream.normal()).qr().q();
        let d = Mat::from_diagonal(&crate::math::linalg::Vector::from_fn(h, |_, _| (-0.5 * (0.1 + 0.9 * stream.uniform())).exp()));
        let abar = mat_to_rows(&(&q * d * q.transpose()));
        let bbar = (0..h).map(|_| stream.normal()).collect();
        let scale = if interaction { 0.3 } else { 0.0 };
        let g = (0..h).map(|_| scale * stream.normal()).collect();
        let w = (0..h).map(|_| scale * stream.normal()).collect();
        let x = (0..FIG1_T + FIG1_LAGS).map(|_| stream.normal()).collect();
        Fig1Draw { abar, bbar, g, w, x, t: FIG1_T }
    }

    /// ‖LRD(t+k, t)‖₂ for k = 1..=100, enclosed, by Theorem 3's compact form
    /// `M_{t+k}⋯M_{t+1}[B̄ + 2x_t (Wᵀh_{t−1}) G]` with `M_j = Ā + x_j² G Wᵀ` (`004.thm3.corrected`
    /// checks it against the derivative).
    fn lrd_norms(&self) -> Vec<Interval> {
        let h = self.bbar.len();
        let (abar, bbar, g, w) = (exact_rows(&self.abar), exact_vec(&self.bbar), exact_vec(&self.g), exact_vec(&self.w));
        let step = |x: f64, v: &[Interval]| -> Vec<Interval> {
            let x2 = Interval::exact(x).square();
            let wv = w.iter().zip(v).fold(Interval::exact(0.0), |acc, (&a, &b)| acc + a * b);
            matvec(&abar, v).into_iter().zip(&g).map(|(av, &gi)| av + x2 * wv * gi).collect()
        };
        let mut state = vec![Interval::exact(0.0); h];
        for &x in &self.x[..self.t - 1] {
            state = step(x, &state).into_iter().zip(&bbar).map(|(s, &b)| s + b * Interval::exact(x)).collect();
        }
        let xt = Interval::exact(self.x[self.t - 1]);
        let wh = w.iter().zip(&state).fold(Interval::exact(0.0), |acc, (&a, &b)| acc + a * b);
        let mut v: Vec<Interval> = bbar.iter().zip(&g).map(|(&b, &gi)| b + Interval::exact(2.0) * xt * wh * gi).collect();
        (self.t..self.t + FIG1_LAGS)
            .map(|j| {
                v = step(self.x[j], &v);
                norm2(&v)
            })
            .collect()
    }
}

/// Draws of each existence claim (`004.fig1.interaction`, `004.sec32.attention`) per budget.
fn existence_draws(ctx: &Context) -> u64 {
    ctx.size("draws", Sizes::new(60, 200, 1000))
}

/// The existence judgement shared by `004.fig1.interaction` and `004.sec32.attention`: `found`
/// of `n` draws showed a certain increase; the first is the witness.
fn judge_existence(found: u64, n: u64, witness: Option<serde_json::Value>, what: &str, sides: (&str, &str)) -> Outcome {
    let ci = clopper_pearson(found, n, 1.0 - ALPHA);
    match witness {
        Some(w) => {
            let evidence = format!(
                "{found} of {n} draws show a certain increase of {what} (frequency {:.3}, Clopper–Pearson {:.3}–{:.3} at confidence 1 − {ALPHA:.0e}); first witness at lag {}",
                found as f64 / n as f64,
                ci.lo,
                ci.hi,
                w["lag"]
            );
            Outcome::new(Verdict::Holds { evidence }, n, Some(found as f64 / n as f64))
                .detail("witness", w)
                .detail("frequency", serde_json::json!({ "found": found, "draws": n, "interval": ci }))
        }
        None => {
            let comparison = Comparison::custom(0.0, 1.0, Relation::AtLeast, -1.0, "found − 1");
            Outcome::new(
                Verdict::Refuted {
                    counterexample: serde_json::json!({ "draws": n, "found": 0, "frequency_upper": ci.hi }),
                    violation: comparison.named(sides.0, sides.1),
                    margin: -1.0,
                    summary: format!("no certain increase of {what} in {n} draws (frequency ≤ {:.3} at confidence 1 − {ALPHA:.0e})", ci.hi),
                },
                n,
                Some(-1.0),
            )
        }
    }
}

/// Draws [`existence_draws`] instances from the stream `key` and counts those whose enclosed norms
/// certainly increase somewhere: `(found, draws, the first such draw's witness)`.
fn search_increases<D>(
    ctx: &Context,
    key: &str,
    draw: impl Fn(&mut Stream) -> D,
    norms: impl Fn(&D) -> Vec<Interval>,
    witness: impl Fn(u64, usize, &D, &[Interval]) -> serde_json::Value,
) -> (u64, u64, Option<serde_json::Value>) {
    let n = existence_draws(ctx);
    let mut stream = Stream::new(ctx.key(key), 0);
    let mut found = 0;
    let mut first = None;
    for i in 0..n {
        let d = draw(&mut stream);
        let norms = norms(&d);
        if let Some(k) = first_certain_increase(&norms) {
            found += 1;
            first = first.or_else(|| Some(witness(i, k, &d, &norms)));
        }
    }
    (found, n, first)
}

fn fig1_check(interaction: bool) -> impl Check {
    custom(Kind::Property, move |ctx| {
        let (found, n, witness) = search_increases(
            ctx,
            "fig1",
            |s| Fig1Draw::draw(s, interaction),
            Fig1Draw::lrd_norms,
            |i, k, d, norms| {
                // Lags are 1-based: norms[k] is ‖LRD(t+k+1, t)‖.
                serde_json::json!({ "draw": i, "lag": k + 1, "lrd_norm_at_lag": norms[k], "lrd_norm_at_next_lag": norms[k + 1], "model": d })
            },
        );
        Ok(judge_existence(found, n, witness, "‖LRD(t+k, t)‖₂ in k", ("draws with a certain increase of ‖LRD(t+k, t)‖₂", "1 (a witness)")))
    })
}

/// `004.fig1.interaction` (theorem, existence): Fig. 1's non-monotone curve.
fn claim_fig1_interaction() -> Claim {
    Claim::theorem(
        "004.fig1.interaction",
        super::FAMILY,
        "In Fig. 1's simulation setting (H = 4, A = −Q diag(λ) Qᵀ with λ ~ U(0.1, 1), fixed Δ = 1/2, B̄ ~ N(0, I), G, W ~ N(0, 0.3² I), \
         x_j iid N(0, 1), h_0 = 0, t = 10), the interaction model's ‖LRD(t+k, t)‖₂ is not monotone in k ≤ 100: some draw shows a certain \
         increase (both norms enclosed), with the frequency of such draws and its Clopper–Pearson interval at 1 − 10⁻⁴ \
         (60 / 200 / 1000 draws).",
        fig1_check(true),
    )
    .source(
        Paper::RethinkingLrd,
        "§4.1, Fig. 1",
        "the LRD in the new formulation does not monotonically decay, but instead a high LRD may occur at a large time gap of k = 44 when the interaction between the input and the previous hidden states is high",
    )
    .control("G = W = 0 (the SSM of the same draws)", fig1_check(false))
}

// ---------------------------------------------------------------------------------------------
// 004.sec32.attention

/// The attention draws: d = d_k = H = 2, T = 12, causal, t = 2.
const ATTN_T: usize = 12;
const ATTN_D: usize = 2;
const ATTN_AT: usize = 2;

/// One causal attention layer and its inputs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AttentionDraw {
    /// W_Q, rows.
    pub wq: Vec<Vec<f64>>,
    /// W_K, rows.
    pub wk: Vec<Vec<f64>>,
    /// W_V, rows.
    pub wv: Vec<Vec<f64>>,
    /// β (1/√d_k, or 0 for the control).
    pub beta: f64,
    /// x_1..x_T, rows.
    pub x: Vec<Vec<f64>>,
    /// The differentiated time t.
    pub t: usize,
}

impl AttentionDraw {
    /// Weights and inputs iid N(0, 1); β = 1/√d_k, or 0 when `scores` is false.
    fn draw(stream: &mut Stream, scores: bool) -> AttentionDraw {
        let mut m = |r: usize, c: usize| -> Vec<Vec<f64>> { (0..r).map(|_| (0..c).map(|_| stream.normal()).collect()).collect() };
        let (wq, wk, wv, x) = (m(ATTN_D, ATTN_D), m(ATTN_D, ATTN_D), m(ATTN_D, ATTN_D), m(ATTN_T, ATTN_D));
        AttentionDraw { wq, wk, wv, beta: if scores { 1.0 / (ATTN_D as f64).sqrt() } else { 0.0 }, x, t: ATTN_AT }
    }

    /// ‖dh_τ/dx_t‖_F for τ = t..=T, enclosed: dual numbers over intervals, one input coordinate at
    /// a time.
    fn lrd_norms(&self) -> Vec<Interval> {
        let layer = Attention { wq: mat_from_rows(&self.wq), wk: mat_from_rows(&self.wk), wv: mat_from_rows(&self.wv), beta: self.beta, causal: true };
        let flat: Vec<Interval> = self.x.iter().flatten().map(|&v| Interval::exact(v)).collect();
        (self.t..=ATTN_T)
            .map(|tau| {
                let columns: Vec<Vec<Interval>> = (0..ATTN_D)
                    .map(|c| {
                        derivative(&flat, (self.t - 1) * ATTN_D + c, |xs: &[Dual<Interval>]| {
                            let rows: Vec<Vec<Dual<Interval>>> = xs.chunks(ATTN_D).map(<[_]>::to_vec).collect();
                            layer.hidden(&rows, tau)
                        })
                    })
                    .collect();
                norm2(&columns.concat())
            })
            .collect()
    }
}

fn attention_check(scores: bool) -> impl Check {
    custom(Kind::Property, move |ctx| {
        let (found, n, witness) = search_increases(
            ctx,
            "attention",
            |s| AttentionDraw::draw(s, scores),
            AttentionDraw::lrd_norms,
            |i, k, d, norms| serde_json::json!({ "draw": i, "lag": k, "tau": d.t + k, "lrd_norm_at_tau": norms[k], "lrd_norm_at_next_tau": norms[k + 1], "layer": d }),
        );
        Ok(judge_existence(found, n, witness, "‖LRD(τ, t)‖_F in τ", ("draws with a certain increase of ‖LRD(τ, t)‖_F", "1 (a witness)")))
    })
}

/// `004.sec32.attention` (theorem, existence): §3.2's remark on Theorem 1.
fn claim_sec32_attention() -> Claim {
    Claim::theorem(
        "004.sec32.attention",
        super::FAMILY,
        "One causal softmax-attention layer's LRD can increase with the lag: for some weights and inputs, \
         ‖LRD(τ+1, t)‖_F > ‖LRD(τ, t)‖_F (Eq. 12's Jacobian dh_τ/dx_t). Draws: d = d_k = H = 2, T = 12, t = 2, W_Q, W_K, W_V and \
         x_i iid N(0, 1), β = 1/√d_k; Jacobians by dual numbers over intervals, so an increase counts only when certain; \
         frequency with its Clopper–Pearson interval at 1 − 10⁻⁴ (60 / 200 / 1000 draws).",
        attention_check(true),
    )
    .source(
        Paper::RethinkingLrd,
        "§3.2, after Theorem 1",
        "the second component w(t,t+k+1)W_V for the t+k+1-th hidden state will be much larger than w(t,t+k)W_V for the t+k-th hidden state on the right-hand side, which may eventually leads to a larger LRD_transformer(t+k+1,t) than LRD_transformer(t+k,t)",
    )
    .control("β = 0: uniform weights w(i, τ) = 1/τ, so LRD(τ, t) = W_V/τ", attention_check(false))
}

/// Registers the monotonicity claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_fig1_ssm());
    r.add(claim_fig1_interaction());
    r.add(claim_sec32_attention());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symmetric_contraction_never_increases_and_a_non_normal_one_can() {
        // Q = I, rates 1/16 and 2, Δ = 1: a contraction; with U = 2 above the diagonal the
        // second coordinate feeds the first and the norm grows at the first step.
        let ssm = SymmetricSsm { q: vec![vec![1.0, 0.0], vec![0.0, 1.0]], rates: vec![0.0625, 2.0], delta: 1.0, bbar: vec![0.0, 1.0], upper: 0.0 };
        assert!(first_certain_increase(&ssm.lrd_norms()).is_none());
        let skew = SymmetricSsm { upper: 2.0, ..ssm };
        let norms = skew.lrd_norms();
        // ‖(0, 1)‖ = 1, then ‖(2, e^{−2})‖ ≈ 2.03.
        assert_eq!(first_certain_increase(&norms), Some(0));
        assert!(norms[0].contains(1.0) && norms[1].contains((4.0 + (-4.0f64).exp()).sqrt()));
    }

    #[test]
    fn uniform_attention_decays_like_one_over_tau() {
        let mut stream = Stream::new(crate::mc::StreamKey([1, 2]), 0);
        let draw = AttentionDraw::draw(&mut stream, false);
        let norms = draw.lrd_norms();
        let wv: f64 = draw.wv.iter().flatten().map(|v| v * v).sum::<f64>().sqrt();
        for (i, n) in norms.iter().enumerate() {
            let tau = (draw.t + i) as f64;
            assert!(n.contains(wv / tau), "τ = {tau}: {n:?} against {}", wv / tau);
            assert!(n.width() < 1e-12);
        }
    }

    #[test]
    fn the_compact_form_norms_enclose_the_dual_number_derivative() {
        // The enclosure of ‖LRD(t+1, t)‖ contains the derivative of the f64 recursion.
        let mut stream = Stream::new(crate::mc::StreamKey([3, 4]), 0);
        let draw = Fig1Draw::draw(&mut stream, true);
        let m = crate::model::InteractionSsm {
            abar: mat_from_rows(&draw.abar),
            bbar: crate::math::linalg::Vector::from_vec(draw.bbar.clone()),
            g: crate::math::linalg::Vector::from_vec(draw.g.clone()),
            w: crate::math::linalg::Vector::from_vec(draw.w.clone()),
            h0: crate::math::linalg::Vector::zeros(FIG1_H),
        };
        let norms = draw.lrd_norms();
        for k in [1usize, 5, 20] {
            let d = derivative(&draw.x[..draw.t + k], draw.t - 1, |x| m.states(x).pop().unwrap());
            let exact = d.iter().map(|v| v * v).sum::<f64>().sqrt();
            let n = norms[k - 1];
            assert!((exact - n.mid()).abs() <= 1e-12 * exact + n.width(), "k = {k}: {exact} against {n:?}");
        }
    }
}
