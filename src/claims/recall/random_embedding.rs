//! 002 §2.2, last paragraph: the one-hot embedding and the fixed convolution "correspond (up to
//! rotation) to using embedding and convolution weights fixed at random initialization with
//! infinite width, leading to the desired orthogonality".
//!
//! The simplified model's input at a position is `[e_{x_{t−1}}; e_{x_t}]`, whose Gram matrix over
//! token pairs is `δ_ac + δ_bd`. With random weights of width d, the pair (a, b) becomes
//! `w_a + u_b` (the convolution's two taps applied to a random embedding: 2|V| vectors with iid
//! N(0, 1/d) entries), whose Gram matrix is that of the one-hot form plus the deviation of the
//! 2|V| random vectors' Gram matrix from I. Gram matrices equal ⇔ equal up to an orthogonal map, so
//! "up to rotation at infinite width" is that this deviation vanishes as d → ∞.
//!
//! * `002.sec22.random` (Theorem, rate): Δ(d) = max |G − I| over the 2|V| random vectors decays
//!   like d^{−1/2}: fitted log–log slope −1/2 over d = 64 … 4096, |V| ∈ {4, 16, 64}.
//!   Control: slope −1.

use crate::claim::custom;
use crate::claim::rate::{judge_rates, RateCell};
use crate::claim::{Check, Claim, Kind, Paper, Sizes, ALPHA};
use crate::mc::Stream;
use crate::stats::{bonferroni, mean_interval, ols};

/// Vocabulary sizes |V| of the check.
const VOCABULARIES: [usize; 3] = [4, 16, 64];

/// max_{i,j} |⟨v_i, v_j⟩ − δ_ij| over vectors given as rows.
pub fn gram_deviation(vectors: &[Vec<f64>]) -> f64 {
    let mut worst = 0.0f64;
    for (i, a) in vectors.iter().enumerate() {
        for (j, b) in vectors.iter().enumerate().skip(i) {
            let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
            worst = worst.max((dot - if i == j { 1.0 } else { 0.0 }).abs());
        }
    }
    worst
}

/// The largest deviation of the pair features' Gram matrix, ⟨w_a + u_b, w_c + u_d⟩, from the
/// one-hot form's δ_ac + δ_bd, for `w` (previous-token tap) and `u` (current-token tap): the
/// bound of `proofs/recall.md`'s pair-feature step, checked in a unit test.
#[cfg(test)]
pub fn pair_gram_deviation(w: &[Vec<f64>], u: &[Vec<f64>]) -> f64 {
    let v = w.len();
    let feature = |a: usize, b: usize| -> Vec<f64> { w[a].iter().zip(&u[b]).map(|(x, y)| x + y).collect() };
    let pairs: Vec<(usize, usize, Vec<f64>)> = (0..v).flat_map(|a| (0..v).map(move |b| (a, b))).map(|(a, b)| (a, b, feature(a, b))).collect();
    let mut worst = 0.0f64;
    for (a, b, f) in &pairs {
        for (c, d, g) in &pairs {
            let dot: f64 = f.iter().zip(g).map(|(x, y)| x * y).sum();
            let onehot = f64::from(u8::from(a == c) + u8::from(b == d));
            worst = worst.max((dot - onehot).abs());
        }
    }
    worst
}

/// 2|V| random vectors of width d with iid N(0, 1/d) entries: the two taps' columns.
fn random_taps(s: &mut Stream, vocab: usize, width: usize) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let sd = 1.0 / (width as f64).sqrt();
    let mut draw = || (0..vocab).map(|_| (0..width).map(|_| sd * s.normal()).collect()).collect::<Vec<Vec<f64>>>();
    let w = draw();
    (w, draw())
}

/// Per |V|: instances of random taps at widths d = 64·4^i ≤ 4096 (nested: the first d coordinates
/// of one draw, rescaled), the fitted slope of ln Δ(d) on ln d per instance, against `slope`
/// (± 0.05, Student-t over the instances, Bonferroni over the vocabularies).
fn slope_check(slope: f64) -> impl Check {
    custom(Kind::Rate, move |ctx| {
        let instances = ctx.size("instances", Sizes::new(8, 40, 200));
        let widths: Vec<usize> = (0..4).map(|i| 64usize << (2 * i)).collect();
        let level = bonferroni(ALPHA, VOCABULARIES.len());
        let mut cells = vec![];
        for &vocab in &VOCABULARIES {
            let mut stream = Stream::new(ctx.key(&format!("taps{vocab}")), 0);
            let slopes: Vec<f64> = (0..instances)
                .map(|_| {
                    let (w, u) = random_taps(&mut stream, vocab, *widths.last().expect("widths"));
                    let (lx, ly): (Vec<f64>, Vec<f64>) = widths
                        .iter()
                        .map(|&d| {
                            let rescale = (*widths.last().expect("widths") as f64 / d as f64).sqrt();
                            let cut = |m: &[Vec<f64>]| m.iter().map(|r| r[..d].iter().map(|x| x * rescale).collect()).collect::<Vec<Vec<f64>>>();
                            let all: Vec<Vec<f64>> = cut(&w).into_iter().chain(cut(&u)).collect();
                            ((d as f64).ln(), gram_deviation(&all).ln())
                        })
                        .unzip();
                    ols(&lx, &ly, 0.99).expect("points").slope.estimate
                })
                .collect();
            cells.push(RateCell {
                label: format!("|V| = {vocab}: slope of ln max|G − I| over the 2|V| random vectors on ln d"),
                measured: mean_interval(&slopes, 1.0 - level),
                predicted: slope,
                slack: 0.05,
                at_most: false,
            });
        }
        let mut out = judge_rates(cells, &format!("Student-t over {instances} draws per |V| at 1 − α/{}, α = {ALPHA}; slack 0.05", VOCABULARIES.len()));
        out.cases = (instances * VOCABULARIES.len()) as u64;
        Ok(out.detail("instances_per_vocabulary", instances).detail("widths", &widths))
    })
}

/// `002.sec22.random` (theorem, rate): §2.2, last paragraph.
fn claim_random() -> Claim {
    Claim::theorem(
        "002.sec22.random",
        super::FAMILY,
        "Random embedding and convolution weights approach the one-hot structure up to rotation as the width grows: for the 2|V| \
         columns of the convolution's two taps with iid N(0, 1/d) entries (pair (a, b) ↦ w_a + u_b, whose Gram matrix differs from \
         the one-hot [e_a; e_b]'s δ_ac + δ_bd by at most 4 max|G − I|), max|G − I| decays like d^{−1/2}: fitted log–log slope \
         −1/2 ± 0.05 over d = 64 … 4096 (nested draws), |V| ∈ {4, 16, 64} (8 / 40 / 200 draws per |V|, Student-t, Bonferroni \
         over the 3 at α = 10⁻⁴).",
        slope_check(-0.5),
    )
    .source(
        Paper::AssociativeRecall,
        "§2.2 (last paragraph)",
        "We also remark that the assumed structure of embedding and convolution layers corresponds (up to rotation) to using embedding and convolution weights fixed at random initialization with infinite width, leading to the desired orthogonality",
    )
    .control("slope −1 (a 1/d rate)", slope_check(-1.0))
}

/// Registers the §2.2 claim.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_random());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pair_gram_deviation_is_at_most_four_times_the_vectors_one() {
        let mut s = Stream::new(crate::mc::StreamKey::new(7, "taps"), 0);
        let (w, u) = random_taps(&mut s, 5, 256);
        let all: Vec<Vec<f64>> = w.iter().chain(&u).cloned().collect();
        let (pairs, vectors) = (pair_gram_deviation(&w, &u), gram_deviation(&all));
        assert!(pairs <= 4.0 * vectors + 1e-12 && pairs > 0.0, "{pairs} vs {vectors}");
        // One-hot taps (u_b = e_b, w_a = e_{|V|+a}) have no deviation at all.
        let e = |i: usize| (0..10).map(|k| f64::from(u8::from(k == i))).collect::<Vec<f64>>();
        let (w1, u1): (Vec<_>, Vec<_>) = (0..5).map(|a| (e(5 + a), e(a))).unzip();
        assert_eq!(pair_gram_deviation(&w1, &u1), 0.0);
    }
}
