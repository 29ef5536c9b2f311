//! 000 Lemma 4 (Johnson–Lindenstrauss, Rademacher): with p = ⌈4 ln(d/δ)/ε²⌉ and M ∈ ℝ^{p×d}
//! with i.i.d. entries ±1/√p, `max_{i≠j} |⟨Me_i, Me_j⟩| ≤ ε` fails with probability at most δ²
//! (Hoeffding + a union bound over the pairs), and ‖Me_i‖ = 1.
//!
//! Columns are kept as bit vectors: `⟨Me_i, Me_j⟩ = (p − 2·popcount(b_i ⊕ b_j))/p` exactly, and
//! `‖Me_i‖² = p/p = 1` exactly, so the only randomness is the matrix.

use crate::claim::custom;
use crate::claim::statistical::{judge_tail_bounds, TailCell};
use crate::claim::{Claim, Family, Kind, ALPHA};
use crate::claims::PAPER_000;
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
            let used = if (i % words) + 1 == words && p % 64 != 0 { p % 64 } else { 64 };
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

    /// `max_{i≠j} |⟨Me_i, Me_j⟩|` over the first `d` columns.
    pub fn coherence(&self, d: usize) -> f64 {
        (0..d).flat_map(|i| (0..i).map(move |j| (i, j))).map(|(i, j)| self.inner(i, j).abs()).fold(0.0, f64::max)
    }
}

/// The lemma's dimension p = ⌈4 ln(d/δ)/ε²⌉ (divided by `shrink` for the control).
pub fn jl_dimension(d: usize, eps: f64, delta: f64, shrink: f64) -> usize {
    ((4.0 * (d as f64 / delta).ln() / (eps * eps)) / shrink).ceil().max(1.0) as usize
}

/// (d, ε, δ) cells: from d = 16 to d = 1024.
const CELLS: [(usize, f64, f64); 4] = [(16, 0.49, 0.95), (64, 0.25, 0.5), (256, 0.3, 0.3), (1024, 0.45, 0.8)];

fn jl_check(shrink: f64) -> impl crate::claim::Check {
    custom(Kind::Statistical, move |ctx| {
        let trials = ctx.budget.pick(60, 400, 4000);
        let mut cells = vec![];
        let mut worst = vec![];
        for (c, &(d, eps, delta)) in CELLS.iter().enumerate() {
            let p = jl_dimension(d, eps, delta, shrink);
            let mut s = Stream::new(ctx.key("matrices"), c as u64);
            let (mut failures, mut max_coherence) = (0u64, 0.0f64);
            for _ in 0..trials {
                let m = RademacherColumns::sample(&mut s, p, d);
                let coh = m.coherence(d);
                max_coherence = max_coherence.max(coh);
                failures += u64::from(coh > eps);
            }
            cells.push(TailCell { label: format!("d = {d}, ε = {eps}, δ = {delta}, p = {p}"), exceedances: failures, trials, bound: delta * delta });
            worst.push(serde_json::json!({"d": d, "eps": eps, "delta": delta, "p": p, "largest_coherence_seen": max_coherence}));
        }
        let mut out = judge_tail_bounds(cells, ALPHA);
        out.cases = trials * CELLS.len() as u64;
        Ok(out.detail("matrices_per_cell", trials).detail("cells", worst).detail("column_norms", "‖Me_i‖² = p/p = 1 exactly (bit representation)"))
    })
}

/// Registers Lemma 4.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(
        Claim::theorem(
            "000.lem4",
            Family::Recall,
            "For M ∈ ℝ^{p×d} with i.i.d. entries ±1/√p and p = ⌈4 ln(d/δ)/ε²⌉: P(max_{i≠j} |⟨Me_i, Me_j⟩| > ε) ≤ δ², and ‖Me_i‖ = 1 exactly; \
             in 4 (d, ε, δ) cells from (16, 0.49, 0.95) to (1024, 0.45, 0.8) (Clopper–Pearson, family-wise α = 1e−4, Bonferroni over cells).",
            jl_check(1.0),
        )
        .source(PAPER_000, "Lemma 4 (App. C, eq 49–51)", "Given the standard basis {e_1..e_d} and ε ∈ (0, 0.5), there is M: ℝ^d → ℝ^p with p = O(ε^{−2} log d) and M_ij i.i.d. (1/√p)·Unif{±1} such that |⟨Me_i, Me_j⟩| ≤ ε for all pairs (‖Me_i‖ ≈ 1).")
        .correction("\"All pairs\" means i ≠ j; ‖Me_i‖ = 1 exactly, not approximately; the union bound is loose, so the measured failure rate stays below δ².")
        .control("p sixteen times smaller, ⌈ln(d/δ)/(4ε²)⌉", jl_check(16.0)),
    );
}
