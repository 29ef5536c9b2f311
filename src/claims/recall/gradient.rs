//! 002 (Le Corre, Huang, Bietti): the first gradient step of the simplified Mamba on associative
//! recall (Lemma 1) and what that step computes.
//!
//! * `002.lem1.exact` (Theorem): the population gradient at W_Δ = 0 under the theory
//!   distribution equals the closed form of proofs/recall.md, by exact enumeration of all
//!   (n−1)^{T−1} sequences. Control: the closed form without its T-dependent terms τ, ρ.
//! * `002.lem1.montecarlo` (Theorem, statistical): the same closed form at (|V|, T) far beyond
//!   enumeration, class by class, against Monte Carlo means. Control: the leading-order table.
//! * `002.lem1.printed` (Erratum): Lemma 1's per-row values (∓1/T, 2/T, ±(T/|V|² − 1/|V|)) against
//!   the exact dominant entries, searched over (|V|, T).
//! * `002.onestep` (Theorem, statistical): after one step W = −E[∇L], the prediction at T is x_1
//!   exactly when x_1 is a (weak) mode of x_1..x_{T−1} — disagreement ≤ 2%. Control: the step
//!   the printed Lemma gives.

use crate::claim::custom;
use crate::claim::statistical::{judge_tail_bounds, TailCell};
use crate::claim::{property, Claim, Comparison, ErrorKind, Eval, Figure, HeatMap, Kind, Outcome, Paper, Relation, Series, Sizes, Style, Verdict, ALPHA};
use crate::claim::{Scale, Tolerance};
use crate::math::{Interval, Real};
use crate::mc::Stream;
use crate::model::mixer::argmax_margin;
use crate::model::recall_toy::{population_gradient, population_gradient_in, printed_lemma1, printed_lemma1_in, Cooccurrence};
use crate::stats::mean_interval;
use crate::tasks::associative_recall::{first_value_is_weak_mode, TheoryDistribution};
use nalgebra::DVector;
use proptest::prelude::*;

/// Largest support enumerated exactly.
const MAX_SUPPORT: u64 = 200_000;

/// The enumerated population gradient, dense 2n × 2n row-major.
pub fn enumerated_gradient(d: &TheoryDistribution) -> Vec<f64> {
    let two = 2 * d.n;
    let mut acc = vec![0.0; two * two];
    let w = 1.0 / d.support_size() as f64;
    d.for_each(|x| Cooccurrence::of(x, d.n).add_gradient_at_zero(x[1], w, &mut acc));
    acc
}

fn exact_margin(d: &TheoryDistribution, leading_order: bool) -> Eval {
    if d.support_size() > MAX_SUPPORT {
        return Eval::Reject("support too large to enumerate");
    }
    let two = 2 * d.n;
    let g = enumerated_gradient(d);
    let err = (0..two * two).map(|i| (g[i] - population_gradient(d.n, d.t, i / two, i % two, leading_order)).abs()).fold(0.0, f64::max);
    Eval::close(err, Scale(1.0 / d.n as f64), Tolerance::absolute(1e-12))
}

/// The exact dominant entry of each of Lemma 1's four row cases: (0,0), (n,n), (k,k), (n+k,n+k).
fn dominant_entries(n: usize, t: usize) -> [(usize, f64); 4] {
    [0, n, 1, n + 1].map(|a| (a, population_gradient(n, t, a, a, false)))
}

/// Lemma 1's four row values against the exact dominant entries on enclosures (the exact
/// rationals enclosed): the same relation divided through by |exact| (never 0), so its 25% is an
/// exact number.
fn printed_enclosed(d: &TheoryDistribution) -> Eval {
    [0, d.n, 1, d.n + 1]
        .into_iter()
        .map(|row| {
            let exact: Interval = population_gradient_in(d.n, d.t, row, row, false);
            let printed: Interval = printed_lemma1_in(d.n, d.t, row);
            Eval::close(((printed - exact) / exact).abs(), Scale(1.0), Tolerance::relative(0.25))
        })
        .fold(Eval::Margin(f64::INFINITY), Eval::min)
}

fn printed_margin(d: &TheoryDistribution) -> Eval {
    dominant_entries(d.n, d.t)
        .into_iter()
        .map(|(row, exact)| Eval::close(((printed_lemma1(d.n, d.t, row) - exact) / exact).abs(), Scale(1.0), Tolerance::relative(0.25)))
        .fold(Eval::Margin(f64::INFINITY), Eval::min)
}

/// The eleven classes of entries of the population gradient (all entries of a class have the
/// same expectation by symmetry over the values k, v ≥ 1), with a representative entry each.
const CLASSES: [&str; 11] = ["(0,0)", "(0,n+v)", "(n,n)", "(n,v)", "(k,k)", "(k,n)", "(k,n+v)", "(n+k,0)", "(n+k,n+k)", "(n+k,k)", "(n+k,v≠k)"];

fn representative(n: usize, class: usize) -> (usize, usize) {
    [(0, 0), (0, n + 1), (n, n), (n, 1), (1, 1), (1, n), (1, n + 1), (n + 1, 0), (n + 1, n + 1), (n + 1, 1), (n + 1, 2)][class]
}

/// The per-sample gradient at W = 0 averaged over each class (from the sparse counts).
fn class_averages(s: &Cooccurrence, y: usize) -> [f64; 11] {
    let n = s.n;
    let m1 = (n - 1) as f64;
    let u = |k: usize| 1.0 / n as f64 - f64::from(k == y);
    let mut c = [0.0; 11];
    c[0] = -u(0) * s.prev[0];
    c[2] = u(0) * s.cur[0];
    for k in 1..n {
        c[4] += -u(k) * s.prev[k] / m1;
        c[8] += u(k) * s.cur[k] / m1;
    }
    for &(p, q) in &s.bigrams {
        match (p, q) {
            (0, 0) => {}
            (0, v) => {
                c[1] += -u(0) / m1; // G[0, n+v] += r(0)
                c[7] += u(v) / m1; // G[n+v, 0] += r(n+v)
            }
            (k, 0) => {
                c[3] += u(0) / m1; // G[n, k] += r(n)
                c[5] += -u(k) / m1; // G[k, n] += r(k)
            }
            (k, v) => {
                c[6] += -u(k) / (m1 * m1); // G[k, n+v] += r(k)
                if k == v {
                    c[9] += u(v) / m1; // G[n+v, v] += r(n+v)
                } else {
                    c[10] += u(v) / (m1 * (m1 - 1.0)); // G[n+v, k] += r(n+v)
                }
            }
        }
    }
    c
}

/// (|V|, T) cells of the Monte Carlo check: T > |V|, where enumeration is hopeless and τ, ρ matter.
const MC_CELLS: [(usize, usize); 3] = [(16, 64), (32, 256), (64, 128)];

fn monte_carlo_check(leading_order: bool) -> impl crate::claim::Check {
    custom(Kind::Statistical, move |ctx| {
        let samples = ctx.size("samples", Sizes::new(4000, 40_000, 400_000));
        let tests = MC_CELLS.len() * CLASSES.len();
        let confidence = 1.0 - ALPHA / tests as f64;
        let (mut worst, mut worst_cell, mut rows) = (f64::INFINITY, serde_json::Value::Null, vec![]);
        let mut worst_side = Comparison::custom(f64::NAN, f64::NAN, Relation::AtMost, f64::INFINITY, "");
        for (c, &(n, t)) in MC_CELLS.iter().enumerate() {
            let dist = TheoryDistribution { n, t };
            let mut s = Stream::new(ctx.key("sequences"), c as u64);
            let mut per_class = vec![Vec::with_capacity(samples); CLASSES.len()];
            for _ in 0..samples {
                let x = dist.sample(&mut s);
                for (acc, v) in per_class.iter_mut().zip(class_averages(&Cooccurrence::of(&x, n), x[1])) {
                    acc.push(v);
                }
            }
            for (class, xs) in per_class.iter().enumerate() {
                let (a, b) = representative(n, class);
                let closed = population_gradient(n, t, a, b, leading_order);
                let iv = mean_interval(xs, confidence);
                // Signed margin: distance of the closed form inside the interval, in half-widths.
                let half = 0.5 * (iv.hi - iv.lo) + 1e-12;
                let margin = 1.0 - (closed - iv.estimate).abs() / half;
                let row = serde_json::json!({"V": n, "T": t, "class": CLASSES[class], "closed_form": closed, "mean": iv.estimate, "interval": [iv.lo, iv.hi]});
                if margin < worst {
                    worst = margin;
                    worst_cell = row.clone();
                    let (end, relation) = if closed > iv.estimate { (iv.hi, Relation::AtMost) } else { (iv.lo, Relation::AtLeast) };
                    worst_side = Comparison::custom(
                        closed,
                        end,
                        relation,
                        margin,
                        "1 − |closed form − mean|/(half-width + 1e−12), Student-t interval of the Monte Carlo mean",
                    );
                }
                rows.push(row);
            }
        }
        let verdict = if worst < 0.0 {
            Verdict::Refuted {
                counterexample: worst_cell.clone(),
                violation: worst_side.named("the closed-form population gradient entry", "nearer end of the Monte Carlo mean's interval"),
                margin: worst,
                summary: format!("closed form outside the {:.6} interval of the Monte Carlo mean: {worst_cell}", confidence),
            }
        } else {
            Verdict::Holds {
                evidence: format!(
                    "{tests} class means (|V|, T) ∈ {MC_CELLS:?} contain the closed form at confidence {confidence:.6} each (Bonferroni, family-wise α = 1e−4)"
                ),
            }
        };
        Ok(Outcome::new(verdict, samples as u64 * MC_CELLS.len() as u64, Some(worst))
            .detail("samples_per_cell", samples)
            .detail("confidence_per_test", confidence)
            .detail("correction", "Bonferroni over 3 cells × 11 entry classes; Student-t intervals")
            .detail("classes", rows))
    })
}

/// The first GD step's prediction on one sequence: `(argmax is x_1 uniquely, x_1 is a weak mode)`.
fn one_step_outcome(x: &[usize], n: usize, t: usize, printed: bool) -> (bool, bool) {
    let s = Cooccurrence::of(x, n);
    let z = if printed { s.logits(|a, _| -printed_lemma1(n, t, a)) } else { s.logits(|a, b| -population_gradient(n, t, a, b, false)) };
    let (best, margin) = argmax_margin(&DVector::from_vec(z));
    (best == x[1] && margin > 0.0, first_value_is_weak_mode(x, n))
}

/// (|V|, T) cells of `002.onestep`, from T ≪ |V| to T = 2|V|.
const CELLS: [(usize, usize); 6] = [(8, 16), (32, 8), (64, 64), (128, 16), (1024, 32), (1024, 128)];

fn one_step_check(printed: bool) -> impl crate::claim::Check {
    custom(Kind::Statistical, move |ctx| {
        let samples = ctx.size("samples", Sizes::new(400, 3000, 20_000));
        let mut cells = vec![];
        let mut accuracy = vec![];
        for (c, &(n, t)) in CELLS.iter().enumerate() {
            let dist = TheoryDistribution { n, t };
            let mut s = Stream::new(ctx.key("sequences"), c as u64);
            let (mut disagree, mut correct) = (0u64, 0u64);
            for _ in 0..samples {
                let x = dist.sample(&mut s);
                let (ok, mode) = one_step_outcome(&x, n, t, printed);
                disagree += u64::from(ok != mode);
                correct += u64::from(ok);
            }
            cells.push(TailCell { label: format!("|V| = {n}, T = {t}"), exceedances: disagree, trials: samples, bound: 0.02 });
            accuracy.push((n, t, correct as f64 / samples as f64));
        }
        let birthday = |n: usize, t: usize| (-((t as f64 - 2.0).powi(2)) / (2.0 * (n as f64 - 1.0))).exp();
        let fig = Figure::new("one_step_accuracy", "Accuracy after one gradient step", "exp(−(T−2)²/(2(|V|−1)))", "accuracy")
            .with(Series::new("measured (|V|, T) cells", Style::Points, accuracy.iter().map(|&(n, t, a)| [birthday(n, t), a]).collect()))
            .with(Series::new("accuracy = birthday approximation", Style::Dashed, vec![[0.0, 0.0], [1.0, 1.0]]))
            .caption(
                "Each point is one (|V|, T) cell. The one-step model predicts x_1 iff x_1 is a weak mode, so its accuracy follows \
                      the birthday bound when T ≪ |V| and is far from 1 when T ~ |V|: |V| ≫ T does not suffice, |V| ≫ T² does.",
            );
        let mut out = judge_tail_bounds(cells, ALPHA);
        out.cases = samples * CELLS.len() as u64;
        Ok(out
            .detail("samples_per_cell", samples)
            .detail(
                "accuracy_per_cell",
                accuracy.iter().map(|&(n, t, a)| serde_json::json!({"V": n, "T": t, "accuracy": a, "birthday": birthday(n, t)})).collect::<Vec<_>>(),
            )
            .figures([fig]))
    })
}

/// `n·E[G]` (exact) and n × Lemma 1's value per row, side by side as heat maps (|V| = 6, T = 5).
fn gradient_figures() -> Vec<Figure> {
    let (n, t) = (6usize, 5usize);
    let idx: Vec<f64> = (0..2 * n).map(|i| i as f64).collect();
    let map = |f: &dyn Fn(usize, usize) -> f64| (0..2 * n).map(|a| (0..2 * n).map(|b| n as f64 * f(a, b)).collect()).collect();
    let heat = |values, label: &str| HeatMap { x: idx.clone(), y: idx.clone(), values, label: label.into(), range: Some([-2.0, 2.0]) };
    vec![
        Figure::new(
            "gradient_exact",
            "|V|·E[∂ℓ/∂W_Δ[a,b]] at W_Δ = 0, exact (|V| = 6, T = 5)",
            "column b (input feature)",
            "row a (output coordinate; 0 at the bottom)",
        )
        .heat(heat(map(&|a, b| population_gradient(n, t, a, b, false)), "|V| × entry"))
        .caption(
            "Rows are output coordinates, columns input features (b < |V|: previous token; b ≥ |V|: current token). \
                      Mass sits on both diagonals and the key column, with (k,k) > 0 and (|V|+k,|V|+k) < 0.",
        ),
        Figure::new("gradient_printed", "|V| × Lemma 1 as printed (one value per row)", "column b", "row a")
            .heat(heat(map(&|a, _| printed_lemma1(n, t, a)), "|V| × entry"))
            .caption("The printed Lemma puts one value on every entry of a row, with the scale 1/T instead of 1/|V| and the signs of the value rows flipped."),
    ]
}

/// Shares of ‖E[G]‖_F² held by rows {0, n} (the printed reading) and by columns {0, n} (the other
/// orientation: the input features "previous token is the key" and "current token is the key"),
/// in any [`Real`] (enclosed on intervals).
///
/// By class, not entry by entry: the closed form is invariant under relabelling the values, so
/// an entry's value depends only on its row's and column's kind (0, n, a value k, n + k) and on
/// whether the two value labels coincide. Each class is evaluated once at a representative
/// (values 1 and 2; n ≥ 3) and weighted by its count, 4n² entries in 24 terms.
fn row_and_column_shares<R: Real>(n: usize, t: usize) -> (R, R) {
    let (m, same, differ) = (n - 1, n - 1, (n - 1) * (n - 2));
    let keys = [0, n];
    // (row, column, how many entries) for every class.
    let mut classes: Vec<(usize, usize, usize)> = vec![];
    for a in keys {
        for b in keys {
            classes.push((a, b, 1));
        }
        classes.extend([(a, 1, m), (a, n + 1, m), (1, a, m), (n + 1, a, m)]);
    }
    for (a, shift_b) in [(1, 0), (1, n), (n + 1, 0), (n + 1, n)] {
        let same_label = if a > n { a - n } else { a };
        classes.extend([(a, shift_b + same_label, same), (a, shift_b + same_label + 1, differ)]);
    }
    let (mut total, mut rows, mut cols) = (R::zero(), R::zero(), R::zero());
    for (a, b, count) in classes {
        let g: R = population_gradient_in(n, t, a, b, false);
        let v = g * g * count as f64;
        total += v;
        if keys.contains(&a) {
            rows += v;
        }
        if keys.contains(&b) {
            cols += v;
        }
    }
    (rows / total, cols / total)
}

/// "Mostly rows 0 and |V|", under both orientations: the larger of the two shares against 1/2.
fn rows_margin(d: &TheoryDistribution) -> Eval {
    let (rows, cols): (f64, f64) = row_and_column_shares(d.n, d.t);
    Eval::le(0.5, rows.max(cols), Tolerance::NONE)
}

/// [`rows_margin`] on enclosures: the shares of the exact rationals.
fn rows_enclosed(d: &TheoryDistribution) -> Eval {
    let (rows, cols): (Interval, Interval) = row_and_column_shares(d.n, d.t);
    Eval::le(Interval::exact(0.5), rows.max(cols), Tolerance::NONE)
}

/// After one step W = −E[G], ‖W x̂‖ at a write pair (key, v) over ‖W x̂‖ at a pair (u, v) of values,
/// each averaged over the pairs.
fn alignment_ratio(n: usize, t: usize) -> f64 {
    let norm = |cols: [usize; 2]| (0..2 * n).map(|a| cols.iter().map(|&b| population_gradient(n, t, a, b, false)).sum::<f64>().powi(2)).sum::<f64>().sqrt();
    // The closed form is invariant under relabelling the values, so every write pair (key, v) has
    // the norm of v = 1, and every (u, v) pair of values that of u = v or of u ≠ v; average the
    // latter in closed form over u = v and u ≠ v. O(|V|) instead of O(|V|²).
    let write = norm([0, n + 1]);
    let (same, differ) = (norm([1, n + 1]), norm([1, n + 2]));
    let other = (same + (n - 2) as f64 * differ) / (n - 1) as f64;
    write / other
}

/// `|ratio/√(n/2) − 1 − 3/(4n)| ≤ (10 + T)/n²` (`constant` = 1/2: √(n/2); the control's 1: √n).
fn alignment_margin(d: &TheoryDistribution, constant: f64) -> Eval {
    let n = d.n as f64;
    let predicted = (constant * n).sqrt() * (1.0 + 0.75 / n);
    Eval::close((alignment_ratio(d.n, d.t) - predicted).abs(), Scale(predicted), Tolerance::relative((10.0 + d.t as f64) / (n * n)))
}

fn small_support() -> impl Strategy<Value = TheoryDistribution> {
    (3usize..=7, 2usize..=9).prop_map(|(n, t)| TheoryDistribution { n, t })
}

/// Supports with |V| ∈ [16, 1024], T ∈ [3, 128] and |V| ≥ 8T.
fn wide_support() -> impl Strategy<Value = TheoryDistribution> {
    (16usize..=1024, 3usize..=128).prop_filter("|V| ≥ 8T", |(n, t)| *n >= 8 * *t).prop_map(|(n, t)| TheoryDistribution { n, t })
}

const PRINTED: &str = "∂L/∂W_Δ[i,j] = −1/T if i = 0; 2/T if i = |V|; ≈ T/|V|² − 1/|V| if 0 < i < |V|; ≈ −T/|V|² + 1/|V| if i > |V|. \
                       For |V| ≫ T, we see that one gradient step mostly updates the weights on the 0, |V|-th rows in W_Δ, and thus correctly succeeds at \
                       performing the read and write operations for associative recall.";

/// `002.lem1.exact` (theorem): Lemma 1 (Sec. 4), corrected (proofs/recall.md).
fn claim_lem1_exact() -> Claim {
    Claim::theorem(
        "002.lem1.exact",
        super::FAMILY,
        "Under the theory distribution (x_0 = x_T = key 0, x_1..x_{T−1} i.i.d. uniform on the |V|−1 values, target x_1, Δ = W_Δx̂ \
             without softplus, Λ = 0, output [−I I]) the population gradient at W_Δ = 0 is, with τ = (T−2)/(n(n−1)²), ρ = (T−n−2)/(n(n−1)³), \
             n = |V|: (0,0) = −1/n, (0,n+v) = −1/(n(n−1)), (n,n) = 2/n, (n,v) = 1/(n(n−1)), (k,k) = 1/n + τ, (k,n) = 1/(n(n−1)²), \
             (k,n+v) = 1/(n−1)² + ρ, (n+k,0) = −1/n, (n+k,n+k) = −1/n − τ, (n+k,v) = −δ_kv/(n−1)² − ρ, all others 0 (T = 2: \
             (k,n) = 1/n, (k,n+v) = (n+k,v) = 0). Checked by exact enumeration of all (n−1)^{T−1} sequences, 3 ≤ |V| ≤ 7, 2 ≤ T ≤ 9, \
             to 1e−12 absolute.",
        property([12, 40, 40], small_support(), |d: &TheoryDistribution| exact_margin(d, false)).illustrate(|_| gradient_figures()),
    )
    .source(Paper::AssociativeRecall, "Lemma 1 (Sec. 4), corrected (proofs/recall.md)", PRINTED)
    .correction("Derived from the paper's own Eq. 21 by taking the conditional expectations exactly (proofs/recall.md, Lemma 1).")
    .control(
        "the leading-order table without τ and ρ (the T-dependent corrections)",
        property([12, 40, 40], small_support(), |d: &TheoryDistribution| exact_margin(d, true)),
    )
}

/// `002.lem1.montecarlo` (theorem): Lemma 1 (Sec. 4), corrected (proofs/recall.md, check C6).
fn claim_lem1_montecarlo() -> Claim {
    Claim::theorem(
            "002.lem1.montecarlo",
            super::FAMILY,
            "The same closed form where enumeration is impossible: for (|V|, T) ∈ {(16, 64), (32, 256), (64, 128)} the Monte Carlo mean of each of the \
             11 classes of entries of the per-sample gradient at W_Δ = 0 ((0,0), (0,n+v), (n,n), (n,v), (k,k), (k,n), (k,n+v), (n+k,0), (n+k,n+k), \
             (n+k,k), (n+k,v≠k), averaged over the class) has a Student-t interval containing the closed form (Bonferroni over the 33 tests, family-wise α = 1e−4).",
            monte_carlo_check(false),
        )
        .source(Paper::AssociativeRecall, "Lemma 1 (Sec. 4), corrected (proofs/recall.md, check C6)", PRINTED)
        .correction("As 002.lem1.exact.")
        .control("the leading-order table without τ and ρ", monte_carlo_check(true))
}

/// `002.lem1.printed` (erratum): Lemma 1, eq. (5).
fn claim_lem1_printed() -> Claim {
    Claim::erratum(
            "002.lem1.printed",
            super::FAMILY,
            "Lemma 1's value for each row case (i = 0, i = |V|, 0 < i < |V|, i > |V|) is within 25% of the exact dominant entry of that row \
             (the diagonal (i,i), which is also the dominant entry of column i), for |V| in 3..1024 and T in 2..1024.",
            property([100, 400, 4000], (3usize..=1024, 2usize..=1024).prop_map(|(n, t)| TheoryDistribution { n, t }), printed_margin)
                .sides("|printed − exact|/|exact| of the worst row's dominant entry", "25%")
                .certify(printed_enclosed),
        )
        .source(Paper::AssociativeRecall, "Lemma 1, eq. (5)", PRINTED)
        .correction(
            "Exact (002.lem1.exact): the scale is 1/|V|, not 1/T ((0,0) = −1/|V|, (|V|,|V|) = 2/|V|); the value rows have the opposite signs \
             ((k,k) = +1/|V| + τ > 0, (|V|+k,|V|+k) = −1/|V| − τ); the T/|V|² term cancels exactly; most entries of every row are 0; \
             and the diagonal carries ~2/3 of the squared norm, so the step does not \"mostly update rows 0 and |V|\".",
        )
        .error(ErrorKind::FalseStatement, "The printed population gradient is wrong in scale and sign: the exact one (002.lem1.exact, by enumeration) has scale 1/|V|, not 1/T ((0,0) = −1/|V|, (|V|,|V|) = 2/|V|), the value rows have the opposite signs, and the T/|V|² term cancels.")
        .holds_instead(&["002.lem1.exact"])
}

/// `002.lem1.rows.printed` (erratum): App. D, after Lemma 1's proof (Sec. 4 says it in other words), and App. B.
fn claim_lem1_rows_printed() -> Claim {
    Claim::erratum(
            "002.lem1.rows.printed",
            super::FAMILY,
            "\"For |V| ≫ T, one gradient step mostly updates the weights on the 0, |V|-th rows in W_Δ\": for |V| ≥ 8T (16 ≤ |V| ≤ 1024, T ≥ 3), rows 0 and \
             |V| of the exact step E[G] (002.lem1.exact) hold at least half of its squared Frobenius norm — or, in the other orientation, columns 0 and |V| do.",
            property([20, 60, 400], wide_support(), rows_margin).sides("1/2", "the larger share of ‖E[G]‖_F² in rows {0, |V|} or in columns {0, |V|}").certify(rows_enclosed).expand(|d: &TheoryDistribution| {
                let (rows, cols): (f64, f64) = row_and_column_shares(d.n, d.t);
                serde_json::json!({ "row_share": rows, "column_share": cols })
            }),
        )
        .source(Paper::AssociativeRecall, "App. D, after Lemma 1's proof (Sec. 4 says it in other words), and App. B", "So in the case |V| ≫ T, the first gradient step will mostly modify the rows 0 and |V| in W_Δ, aligning it with the key embedding vector while being orthogonal to the other non-key vectors.")
        .correction("Rows {0, |V|} hold 2.6% (|V| = 64) down to 0.04% (|V| = 4096) of the squared norm, columns {0, |V|} about 1/3; the diagonal holds ~2/3. What holds is the alignment (002.lem1.alignment).")
        .error(ErrorKind::FalseStatement, "'one gradient step mostly updates the weights on the 0, |V|-th rows in W_Δ' is false under both orientations: rows 0 and |V| of the exact step hold at most 2.6% of its squared Frobenius norm (|V| ≥ 64), columns 0 and |V| about 1/3, and the diagonal ~2/3. The sense in which the step aligns W_Δ with the key holds: ‖W x̂‖ at a write pair exceeds that at a value pair by √(|V|/2) (002.lem1.alignment).")
        .holds_instead(&["002.lem1.alignment"])
}

/// `002.lem1.alignment` (theorem): App. D, after Lemma 1's proof.
fn claim_lem1_alignment() -> Claim {
    Claim::theorem(
            "002.lem1.alignment",
            super::FAMILY,
            "What \"aligning W_Δ with the key embedding vector\" means after one step W = −E[G]: the mean ‖W x̂‖ at a write pair (key, v) over \
             the mean at a pair (u, v) of values is √(|V|/2)·(1 + 3/(4|V|)) up to (10 + T)/|V|² relative, for |V| ≥ 8T (16 ≤ |V| ≤ 1024, T ≥ 3; T = 2 has another closed form); exact closed form.",
            property([20, 60, 400], wide_support(), |d: &TheoryDistribution| alignment_margin(d, 0.5)),
        )
        .source(Paper::AssociativeRecall, "App. D, after Lemma 1's proof", "… aligning it with the key embedding vector while being orthogonal to the other non-key vectors.")
        .correction("Derived in proofs/recall.md: the write pair's W x̂ sums column 0 (−1/|V| on n rows) and column |V|+v, which add in row |V|+v (norm² (|V|+2)/|V|²); a value pair's has two orthogonal parts of size ≈ 1/|V| (norm² ≈ 2/|V|²).")
        .control("√|V| (the two columns' overlap ignored)", property([20, 60, 400], wide_support(), |d: &TheoryDistribution| alignment_margin(d, 1.0)))
}

/// `002.onestep` (theorem): Lemma 1 consequence (Sec. 4): "for |V| ≫ T one gradient step succeeds".
fn claim_onestep() -> Claim {
    Claim::theorem(
            "002.onestep",
            super::FAMILY,
            "With W_Δ = −E[∇L] (one population GD step from 0, exact closed form), the argmax of the logits at T equals x_1 (uniquely) \
             if and only if x_1 is a weak mode of x_1..x_{T−1}, on all but at most 2% of sequences, in each of 6 (|V|, T) cells from \
             (32, 8) to (1024, 128) (Clopper–Pearson, family-wise α = 1e−4, Bonferroni over cells). Hence accuracy ≈ \
             exp(−(T−2)²/(2(|V|−1))) for T ≪ |V|.",
            one_step_check(false),
        )
        .source(Paper::AssociativeRecall, "Lemma 1 consequence (Sec. 4): \"for |V| ≫ T one gradient step succeeds\"", "For |V| ≫ T, one gradient step mostly updates the weights on the 0, |V|-th rows in W_Δ, and thus correctly succeeds at performing the read and write operations for associative recall.")
        .correction("One step learns \"2·count + write bonus\": it succeeds iff x_1 is a mode, so it needs |V| ≫ T², not |V| ≫ T (|V| = 1024, T = 128: accuracy ≈ 0.10).")
        .control("the step the printed Lemma gives (one value per row)", one_step_check(true))
}

/// Registers the 002 gradient claims.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_lem1_exact());
    r.add(claim_lem1_montecarlo());
    r.add(claim_lem1_printed());
    r.add(claim_lem1_rows_printed());
    r.add(claim_lem1_alignment());
    r.add(claim_onestep());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shares_by_class_equal_the_entry_by_entry_sums() {
        for n in 3..=10 {
            for t in 2..=8 {
                let (mut total, mut rows, mut cols) = (0.0, 0.0, 0.0);
                for a in 0..2 * n {
                    for b in 0..2 * n {
                        let v = population_gradient(n, t, a, b, false).powi(2);
                        total += v;
                        rows += if a == 0 || a == n { v } else { 0.0 };
                        cols += if b == 0 || b == n { v } else { 0.0 };
                    }
                }
                let (r, c): (f64, f64) = row_and_column_shares(n, t);
                assert!((r - rows / total).abs() < 1e-14 && (c - cols / total).abs() < 1e-14, "n = {n}, t = {t}: {r} {c}");
                // On intervals: narrow, and around the f64 value.
                let (ri, ci): (Interval, Interval) = row_and_column_shares(n, t);
                assert!(ri.width() < 1e-14 && ci.width() < 1e-14 && (ri.mid() - r).abs() < 1e-15 && (ci.mid() - c).abs() < 1e-15, "{ri} {ci}");
            }
        }
    }
}
