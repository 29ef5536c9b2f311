//! 000 Lemma 4 (Johnson–Lindenstrauss, Rademacher): with p = ⌈4 ln(d/δ)/ε²⌉ and M ∈ ℝ^{p×d}
//! with i.i.d. entries ±1/√p, `max_{i≠j} |⟨Me_i, Me_j⟩| ≤ ε` fails with probability at most δ²
//! (Hoeffding + a union bound over the pairs), and ‖Me_i‖ = 1.
//!
//! Columns are kept as bit vectors: `⟨Me_i, Me_j⟩ = (p − 2·popcount(b_i ⊕ b_j))/p` exactly, so
//! the only randomness is the matrix. That formula and ‖Me_i‖ = 1 are checked, not assumed:
//! every matrix's columns are also materialised as f64 entries ±1/√p, their squared norms summed
//! and a sample of inner products recomputed as dot products.

use crate::claim::custom;
use crate::claim::statistical::{judge_tail_bounds, TailCell};
use crate::claim::{Claim, Comparison, Kind, Paper, Relation, Sizes, Verdict, ALPHA};
use crate::mc::Stream;

/// A random ±1 matrix with `d` columns of `p` bits (bit = 1 ↦ +1/√p).
pub struct RademacherColumns {
    /// Rows p.
    pub p: usize,
    words: usize,
    bits: Vec<u64>,
}

impl RademacherColumns {
    /// Draws the matrix from `s` (two uniforms, 32 bits each, per 64-bit word).
    pub fn sample(s: &mut Stream, p: usize, d: usize) -> Self {
        let words = p.div_ceil(64);
        let mut bits = vec![0u64; words * d];
        for (i, w) in bits.iter_mut().enumerate() {
            let hi = (s.uniform() * 4_294_967_296.0) as u64;
            let lo = (s.uniform() * 4_294_967_296.0) as u64;
            let used = if (i % words) + 1 == words && !p.is_multiple_of(64) { p % 64 } else { 64 };
            *w = ((hi << 32) | lo) & if used == 64 { u64::MAX } else { (1u64 << used) - 1 };
        }
        RademacherColumns { p, words, bits }
    }

    /// `⟨Me_i, Me_j⟩`, exactly.
    pub fn inner(&self, i: usize, j: usize) -> f64 {
        let (a, b) = (&self.bits[i * self.words..(i + 1) * self.words], &self.bits[j * self.words..(j + 1) * self.words]);
        let differ: u32 = a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum();
        (self.p as f64 - 2.0 * differ as f64) / self.p as f64
    }

    /// Column `i` as f64 entries ±1/√p (bit = 1 ↦ +1/√p).
    pub fn column(&self, i: usize) -> Vec<f64> {
        let unit = 1.0 / (self.p as f64).sqrt();
        (0..self.p).map(|r| if self.bits[i * self.words + r / 64] >> (r % 64) & 1 == 1 { unit } else { -unit }).collect()
    }

    /// `max_{i≠j} |⟨Me_i, Me_j⟩|` over the first `d` columns.
    pub fn coherence(&self, d: usize) -> f64 {
        (0..d).flat_map(|i| (0..i).map(move |j| (i, j))).map(|(i, j)| self.inner(i, j).abs()).fold(0.0, f64::max)
    }
}

/// The lemma's dimension p = ⌈4 ln(d/δ)/ε²⌉ (divided by `shrink` for the control).
pub fn jl_dimension(d: usize, eps: f64, delta: f64, shrink: f64) -> usize {
    ((4.0 * (d as f64 / delta).ln() / (eps * eps)) / shrink).ceil().max(1.0) as usize
}

/// (d, ε, δ) cells where the lemma says something: δ ≤ 0.3, so the bound δ² ≤ 0.09, up to d = 1024.
const CELLS: [(usize, f64, f64); 4] = [(16, 0.49, 0.3), (64, 0.3, 0.1), (256, 0.3, 0.05), (1024, 0.4, 0.1)];

/// The float check of one matrix: the largest |‖Me_i‖² − 1| over its columns (summed in f64) and
/// the largest |bit formula − f64 dot product| over 64 column pairs.
fn float_deviations(m: &RademacherColumns, d: usize) -> (f64, f64) {
    let columns: Vec<Vec<f64>> = (0..d).map(|i| m.column(i)).collect();
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let norm = columns.iter().map(|c| (dot(c, c) - 1.0).abs()).fold(0.0, f64::max);
    let pairs = (0..64).map(|k| ((k * 7919) % d, (k * 104_729 + 1) % d)).filter(|(i, j)| i != j);
    let inner = pairs.map(|(i, j)| (m.inner(i, j) - dot(&columns[i], &columns[j])).abs()).fold(0.0, f64::max);
    (norm, inner)
}

fn jl_check(shrink: f64) -> impl crate::claim::Check {
    custom(Kind::Statistical, move |ctx| {
        let trials = ctx.size("trials", Sizes::new(60, 400, 4000));
        let mut cells = vec![];
        let mut worst = vec![];
        // Summing p terms of size 1/p in f64: each addition rounds by ≤ ε/2 relative to a partial
        // sum ≤ 1, so |Σ − 1| ≤ p·ε (the entries' own rounding, (1/√p)² vs 1/p, adds ≤ 2ε per term).
        let (mut float_failure, mut float_worst) = (None, 0.0f64);
        for (c, &(d, eps, delta)) in CELLS.iter().enumerate() {
            let p = jl_dimension(d, eps, delta, shrink);
            let tol = 3.0 * p as f64 * f64::EPSILON;
            let mut s = Stream::new(ctx.key("matrices"), c as u64);
            let (mut failures, mut max_coherence) = (0u64, 0.0f64);
            for trial in 0..trials {
                let m = RademacherColumns::sample(&mut s, p, d);
                let coh = m.coherence(d);
                max_coherence = max_coherence.max(coh);
                failures += u64::from(coh > eps);
                let (norm, inner) = float_deviations(&m, d);
                let dev = norm.max(inner);
                float_worst = float_worst.max(dev / tol);
                if dev > tol && float_failure.is_none() {
                    float_failure = Some(
                        serde_json::json!({"d": d, "p": p, "trial": trial, "largest_norm_deviation": norm, "largest_inner_product_deviation": inner, "tolerance": tol}),
                    );
                }
            }
            cells.push(TailCell { label: format!("d = {d}, ε = {eps}, δ = {delta}, p = {p}"), exceedances: failures, trials, bound: delta * delta });
            worst.push(serde_json::json!({"d": d, "eps": eps, "delta": delta, "p": p, "largest_coherence_seen": max_coherence}));
        }
        let mut out = judge_tail_bounds(cells, ALPHA);
        out.cases = trials * CELLS.len() as u64;
        if let Some(counterexample) = float_failure {
            let violation = Comparison::custom(float_worst, 1.0, Relation::AtMost, 1.0 - float_worst, "1 − deviation/tolerance")
                .named("largest |‖Me_i‖² − 1| or |bit formula − f64 dot| over its tolerance 3pε", "1");
            out.verdict = Verdict::Refuted {
                counterexample,
                violation,
                margin: 1.0 - float_worst,
                summary: "a column norm or inner product disagrees with its f64 recomputation".into(),
            };
        }
        Ok(out
            .detail("matrices_per_cell", trials)
            .detail("largest_coherence", worst)
            .detail("column_norms_and_inner_products", format!("recomputed in f64 for every matrix: largest deviation {float_worst:.3} of the tolerance 3pε")))
    })
}

/// `000.lem4` (theorem): Lemma 4 (App. C, eq 48; proof eq 49–51).
fn claim_lem4() -> Claim {
    Claim::theorem(
            "000.lem4",
            super::FAMILY,
            "For M ∈ ℝ^{p×d} with i.i.d. entries ±1/√p and p = ⌈4 ln(d/δ)/ε²⌉: P(max_{i≠j} |⟨Me_i, Me_j⟩| > ε) ≤ δ², and ‖Me_i‖ = 1 \
             (to 3pε in f64, every column of every matrix); in 4 (d, ε, δ) cells from (16, 0.49, 0.3) to (1024, 0.4, 0.1), δ² ≤ 0.09 \
             (exact Clopper–Pearson, family-wise α = 1e−4, Bonferroni over cells; each cell reports its power at twice its bound).",
            jl_check(1.0),
        )
        .source(Paper::InputSelectivity, "Lemma 4 (App. C, eq 48; proof eq 49–51)", "Given a set of standard bases {e_1, …, e_d} and ε ∈ (0, 0.5), there exists a random projection matrix M: ℝ^d → ℝ^p, p = O(ε^{−2} log d), M_{i,j} ~ i.i.d. (1/√p) Unif{±1}, such that for all pairs (i, j), |⟨Me_i, Me_j⟩| ≤ ε. (48)")
        .correction("\"All pairs\" means i ≠ j; ‖Me_i‖ = 1 exactly, not approximately; the union bound is loose, so the measured failure rate stays below δ².")
        .control("p sixteen times smaller, ⌈ln(d/δ)/(4ε²)⌉", jl_check(16.0))
}

/// Registers Lemma 4.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_lem4());
}
