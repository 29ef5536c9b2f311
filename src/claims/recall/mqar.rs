//! 000 Theorems 2–4 and Remark 7: explicit one-layer Mamba (no gate), Mamba-2 (no gate) and gated
//! S4D-block weights that solve MQAR, built exactly as in the proofs and run on random instances
//! (κ keys queried once each, queries separated by noise values).
//!
//! * `000.thm2`, `000.thm3`, `000.thm4` (Theorems, construction): the one-hot constructions
//!   (d = κ+|V|, N = κ; d = κ+|V|, N = κ; d = κ|V|, N = 1) predict every query, with the
//!   closed-form logits 3e_j, e_j, 10e_j. Controls: one state slot too few (N = κ−1), the gate removed.
//! * `000.thm2.reduced.printed`, `000.thm4.reduced.printed` (Errata): the reduced-width
//!   constructions as printed (JL codes, the paper's output bias / none).
//! * `000.thm2.reduced`, `000.thm4.reduced` (Theorems): zero-sum ("balanced") distinct codes at the
//!   smallest width that has |V| of them, no bias; controls: the next smaller width (codes repeat).
//! * `000.thm3.reduced.printed` (Erratum): Mamba-2 with JL codes through the proof's ReLU convs.
//! * `000.thm3.reduced` (Theorem, statistical): with linear convs and N = p_k = ⌈16 ln κ⌉ the
//!   per-query error is ≤ 1%; the (κ, N/ln κ) phase diagram is attached. Control: N = ⌈ln κ⌉.
//! * `000.thm3.condition` (Theorem): with non-orthogonal codes, `1 − ε_v > 2mε_k` implies a correct
//!   answer (a deterministic sufficient condition). Control: the condition without the key term.
//! * `000.rem7` (Theorem): the adversarial input [k₁ v₁ k₂ v … k_κ v] with ⟨k_i, k₁⟩ = ε defeats the
//!   Mamba-2 retrieval iff ε(κ−1) > 1. Control: the boundary εκ > 1.
//! * `000.rem3.printed` (Erratum, reading): Remark 3's "N = log κ < κ" as a comparison of two
//!   constructions that answer every instance: with key codes of any width p < κ/2 an adversarial
//!   instance defeats the Mamba-2 retrieval (the codes' Gram matrix forces Σ_j |⟨k_j, k_i⟩| > 1
//!   for some key i), while Theorem 2's Mamba with N = κ answers every instance (`000.thm2`).

use super::codes::{balanced, balanced_width, rademacher};
use super::constructions::{cases, cases_to_large, code_book_content, instance_content, Case, QueryMargin, QUERY_MARGIN_FORMULA};
use crate::claim::custom;
use crate::claim::statistical::{judge_tail_bounds, TailCell};
use crate::claim::{construction, property, Claim, Comparison, ErrorKind, Eval, Figure, HeatMap, Kind, Paper, Relation, Series, Sizes, Style, ALPHA};
use crate::claim::{Scale, Tolerance};
use crate::constructions::mqar::{correct_margin, one_hot_codes, thm2_onehot, thm2_reduced, thm3_codes, thm3_onehot, thm4, Bias, Construction};
use crate::mc::StreamKey;
use crate::model::mixer::Activation;
use crate::tasks::mqar::{MqarInstance, MqarSpec, QueryPlacement, Token};
use nalgebra::DVector;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// Exact logits: the target's logit is `peak`, every other 0, at every query.
fn closed_form(c: &Construction, inst: &MqarInstance, peak: f64) -> Eval {
    let err =
        c.query_logits(inst).iter().map(|(z, v)| (0..z.len()).map(|l| (z[l] - if l == *v { peak } else { 0.0 }).abs()).fold(0.0, f64::max)).fold(0.0, f64::max);
    Eval::close(err, Scale(peak), Tolerance::relative(1e-12)).min(c.margin(inst, peak))
}

/// The logits Theorem 2's step-1 construction computes at a query t, exactly (App. C.1). Column m
/// of the state holds, in its value part, e_n for every pair (k_m, v_n) written before t — the
/// prefix pair (k_m, v_{j(m)}) and, outside eq 47, the noise after an earlier query of k_m
/// (`rewrites`); a query of k_i reads C_t = 3e_i, plus e_l when it directly follows a key k_l
/// (eq 64–66, `neighbour`; 5e_i when the key before is k_i itself). So the logits are
/// 3·col(i) + [x_{t−1} = k_l]·col(l), or 5·col(i) after k_i.
fn thm2_step1_logits(inst: &MqarInstance, values: usize, t: usize, neighbour: bool, rewrites: bool) -> DVector<f64> {
    let column = |m: usize| {
        let mut col = DVector::zeros(values);
        for s in 0..t - 1 {
            if let (Token::Key(k), Token::Value(n)) = (inst.tokens[s], inst.tokens[s + 1]) {
                if k == m && (rewrites || s + 1 < 2 * inst.spec.keys) {
                    col[n] += 1.0;
                }
            }
        }
        col
    };
    let Token::Key(i) = inst.tokens[t] else { unreachable!("a query is a key") };
    match (neighbour, inst.tokens[t - 1]) {
        // ReLU(c₀·2e_i + c₁·2e_i − 1) = 5e_i: the same key twice in a row.
        (true, Token::Key(l)) if l == i => column(i) * 5.0,
        (true, Token::Key(l)) => column(i) * 3.0 + column(l),
        _ => column(i) * 3.0,
    }
}

/// Theorem 2, step 1, against [`thm2_step1_logits`] at every query (1e−12 of the peak 3), and every
/// query answered unless `rewrites` predicts otherwise.
fn thm2_exact(c: &Case, neighbour: bool, rewrites: bool) -> Eval {
    let (inst, _) = c.instance();
    let positions: Vec<usize> = inst.queries().map(|(t, _)| t).collect();
    let err = thm2_onehot(c.keys, c.values, c.keys)
        .query_logits(&inst)
        .iter()
        .zip(&positions)
        .map(|((z, _), &t)| (z - thm2_step1_logits(&inst, c.values, t, neighbour, rewrites)).amax())
        .fold(0.0, f64::max);
    Eval::close(err, Scale(3.0), Tolerance::relative(1e-12))
}

/// Theorem 3's JL key and value codes (`p_k`, `p_v` wide) for a case, with its instance.
fn thm3_jl_codes(case: &Case, pk: usize, pv: usize) -> (MqarInstance, Vec<DVector<f64>>, Vec<DVector<f64>>) {
    let (inst, mut s) = case.instance();
    let ck = rademacher(&mut s, case.keys, pk);
    let cv = rademacher(&mut s, case.values, pv);
    (inst, ck, cv)
}

/// Theorem 3 with JL codes: `(p_k, p_v)` and the activation of the convs.
fn thm3_jl(case: &Case, pk: usize, pv: usize, act: Activation) -> (Construction, MqarInstance) {
    let (inst, ck, cv) = thm3_jl_codes(case, pk, pv);
    (thm3_codes(&ck, &cv, act), inst)
}

/// The printed reduced constructions' code widths: Theorem 2's p, Theorem 3's (p_k, p_v),
/// Theorem 4's p.
fn thm2_printed_width(c: &Case) -> usize {
    super::jl::jl_dimension(c.values, 0.5, 0.5, 1.0)
}
fn thm3_printed_widths(c: &Case) -> (usize, usize) {
    ((16.0 * (c.keys as f64).ln()).ceil() as usize + 2, super::jl::jl_dimension(c.values, 0.5, 0.5, 1.0))
}
fn thm4_printed_width(c: &Case) -> usize {
    super::jl::jl_dimension(c.values + 1, 0.5, 0.5, 1.0)
}

/// The concrete instance behind a case with Rademacher value codes of width `p` (Theorems 2
/// and 4 as printed draw them right after the instance).
fn value_code_content(c: &Case, p: usize) -> serde_json::Value {
    let (inst, mut s) = c.instance();
    instance_content(&inst, &[("value_codes", &rademacher(&mut s, c.values, p))])
}

/// The concrete instance behind a case whose codes are one-hot (nothing drawn but the tokens).
fn token_content(c: &Case) -> serde_json::Value {
    instance_content(&c.instance().0, &[])
}

/// The concrete instance behind a case run with the balanced codes of width `p`.
fn balanced_content(c: &Case, p: usize) -> serde_json::Value {
    instance_content(&c.instance().0, &[("value_codes", &balanced(c.values, p))])
}

/// The smaller width of the reduced constructions' controls (codes repeat).
fn narrower(values: usize) -> usize {
    balanced_width(values).saturating_sub(2).max(2)
}

const QUERY_SIDES: (&str, &str) = ("the target value's logit at the worst query", "the largest other logit at that query");

/// The (κ, C = N/ln κ) grid of the Mamba-2 phase diagram, |V| = 128, p_v = ⌈8 ln 128⌉, T = 100.
const PHASE_KEYS: [usize; 4] = [4, 8, 16, 24];
const PHASE_C: [f64; 5] = [1.0, 2.0, 4.0, 8.0, 16.0];

fn thm3_statistical(c_const: f64) -> impl crate::claim::Check {
    custom(Kind::Statistical, move |ctx| {
        // The judged cells are sized in queries (κ per instance): at the standard budget 4000 per
        // κ give the exact test a power of 0.905 against a 2% error rate (twice the claimed 1%);
        // the quick budget's 400 detect 5% (power 0.90), not 2% (0.016).
        let queries: u64 = ctx.size("queries", Sizes::new(400, 4000, 20_000));
        // The phase diagram is descriptive: fewer instances per (κ, C).
        let phase_instances = ctx.size("phase instances", Sizes::new(8, 40, 200));
        let pv = (8.0 * 128f64.ln()).ceil() as usize;
        let run_cell = |kappa: usize, c: f64, salt: u64, instances: u64| -> (u64, u64) {
            let pk = (c * (kappa as f64).ln()).ceil() as usize;
            (0..instances).fold((0, 0), |(ok, n), i| {
                let seed = StreamKey::new(ctx.seed, &format!("{}/{kappa}/{salt}/{i}", ctx.stream_label)).as_u64();
                let case = Case { keys: kappa, values: 128, extra: 100 - 4 * kappa, seed, placement: QueryPlacement::Separated };
                let (con, inst) = thm3_jl(&case, pk, pv, Activation::Identity);
                let (a, b) = con.accuracy(&inst);
                (ok + a, n + b)
            })
        };
        let cells: Vec<TailCell> = PHASE_KEYS
            .iter()
            .map(|&kappa| {
                let (ok, n) = run_cell(kappa, c_const, 0, queries.div_ceil(kappa as u64));
                TailCell { label: format!("κ = {kappa}, N = ⌈{c_const} ln κ⌉"), exceedances: n - ok, trials: n, bound: 0.01 }
            })
            .collect();
        let grid: Vec<Vec<f64>> = PHASE_C
            .iter()
            .map(|&c| {
                PHASE_KEYS
                    .iter()
                    .map(|&kappa| {
                        let (ok, n) = run_cell(kappa, c, 1, phase_instances);
                        ok as f64 / n as f64
                    })
                    .collect()
            })
            .collect();
        let fig = Figure::new("phase_kappa_n", "Mamba-2 (Theorem 3, JL codes, linear convs): accuracy over κ and N = ⌈C ln κ⌉", "κ", "C = N / ln κ")
            .heat(HeatMap { x: PHASE_KEYS.iter().map(|&k| k as f64).collect(), y: PHASE_C.to_vec(), values: grid, label: "query accuracy".into(), range: None })
            .with(Series::new("paper's empirical threshold N = 4 ln κ (Fig. A.3)", Style::Dashed, vec![[2.0, 4.0], [26.0, 4.0]]).color(1))
            .with(Series::new("checked here: N = ⌈16 ln κ⌉", Style::Dashed, vec![[2.0, 16.0], [26.0, 16.0]]).color(2))
            .caption(
                "|V| = 128, p_v = ⌈8 ln 128⌉ = 39, T = 100, queries separated by noise. \"N = O(log κ)\" holds with a constant near 16; \
                      below C ≈ 4 the interference of the other keys (ε_k·(2κ−2)) breaks retrieval, as in the paper's Fig. A.3.",
            );
        let mut out = judge_tail_bounds(cells, ALPHA);
        out.cases = PHASE_KEYS.iter().map(|&kappa| queries.div_ceil(kappa as u64)).sum();
        Ok(out.detail("queries_per_cell", queries).detail("phase_instances_per_cell", phase_instances).detail("value_code_width", pv).figures([fig]))
    })
}

/// A Theorem 3 instance with near-orthogonal keys `k_i ∝ e_i + η g_i` (g_i standard normal / √κ)
/// and Rademacher value codes of width `pv`, for the deterministic retrieval condition.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PerturbedCase {
    /// The MQAR instance.
    pub case: Case,
    /// Key perturbation η.
    pub eta: f64,
    /// Value code width p_v.
    pub pv: usize,
}

/// proofs/recall.md, Theorem 3 retrieval condition: with ε_k, ε_v the key and value coherences and m the number of
/// positions s ≤ t whose predecessor is another key, `1 − ε_v > factor·m·ε_k` implies a correct
/// answer at t (factor = 2 is the bound; smaller factors are the negative control).
/// The instance, its unit keys k_i ∝ e_i + ηg_i and its Rademacher value codes.
fn perturbed_codes(pc: &PerturbedCase) -> (MqarInstance, Vec<DVector<f64>>, Vec<DVector<f64>>) {
    let (inst, mut s) = pc.case.instance();
    let kappa = pc.case.keys;
    let keys: Vec<DVector<f64>> = (0..kappa)
        .map(|i| {
            let v = DVector::from_fn(kappa, |a, _| f64::from(a == i) + pc.eta * s.normal() / (kappa as f64).sqrt());
            let n = v.norm();
            v / n
        })
        .collect();
    let values = rademacher(&mut s, pc.case.values, pc.pv);
    (inst, keys, values)
}

/// The concrete instance behind a perturbed case: tokens, key and value codes.
fn perturbed_content(pc: &PerturbedCase) -> serde_json::Value {
    let (inst, keys, values) = perturbed_codes(pc);
    instance_content(&inst, &[("key_codes", &keys), ("value_codes", &values)])
}

fn condition_margin(pc: &PerturbedCase, factor: f64) -> Eval {
    let (inst, keys, values) = perturbed_codes(pc);
    let (eps_k, eps_v) = (crate::math::linalg::coherence(&keys), crate::math::linalg::coherence(&values));
    let con = thm3_codes(&keys, &values, Activation::Identity);
    let queries: Vec<usize> = inst.queries().map(|(t, _)| t).collect();
    let worst = con
        .query_logits(&inst)
        .iter()
        .zip(&queries)
        .filter(|(_, &t)| {
            let Token::Key(i) = inst.tokens[t] else { return false };
            let m = (1..=t).filter(|&s| matches!(inst.tokens[s - 1], Token::Key(j) if j != i)).count();
            // 1e−9: coherences are computed in floating point (identical codes give ε_v = 1 ± 2e−16).
            1.0 - eps_v > factor * m as f64 * eps_k + 1e-9
        })
        .map(|((z, v), _)| (correct_margin(z, *v), z[*v]))
        .min_by(|a, b| a.0.total_cmp(&b.0));
    match worst {
        None => Eval::Reject("no query meets the condition"),
        Some((m, target)) => Eval::Compared(Comparison::custom(target, target - m, Relation::AtLeast, m - 1e-12, QUERY_MARGIN_FORMULA)),
    }
}

fn perturbed_cases() -> impl Strategy<Value = PerturbedCase> {
    (cases(6, 16), 0usize..=100, 4usize..=48).prop_map(|(case, eta, pv)| PerturbedCase { case, eta: eta as f64 / 100.0, pv })
}

/// Remark 7's adversarial instance: keys with ⟨k_i, k₁⟩ = ε (unit norms), values orthonormal,
/// `[k₁ v₁ k₂ v … k_κ v, noise, k₁]`; returns the margin of the correct answer v₁.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Adversary {
    /// κ.
    pub keys: usize,
    /// ε.
    pub eps: f64,
}

/// An adversarial instance over κ keys and the values 0 (the target), 1 (the wrong answer) and 2
/// (noise): `tokens` ends with the query, whose answer is value 0.
fn adversarial_instance(keys: usize, tokens: Vec<Token>) -> MqarInstance {
    let mut targets = vec![None; tokens.len()];
    *targets.last_mut().expect("non-empty") = Some(0);
    let spec = MqarSpec { keys, values: 3, len: tokens.len(), placement: QueryPlacement::Anywhere };
    MqarInstance { spec, tokens, targets }
}

fn adversarial_margin(a: &Adversary) -> f64 {
    let (kappa, eps) = (a.keys, a.eps);
    // k₁ = e₀, k_i = ε e₀ + √(1−ε²) e_i.
    let ck: Vec<DVector<f64>> = (0..kappa)
        .map(|i| {
            DVector::from_fn(kappa, |r, _| {
                if i == 0 {
                    f64::from(r == 0)
                } else if r == 0 {
                    eps
                } else if r == i {
                    (1.0 - eps * eps).sqrt()
                } else {
                    0.0
                }
            })
        })
        .collect();
    let cv = one_hot_codes(3); // v₁ = 0, v = 1, noise = 2
    let con = thm3_codes(&ck, &cv, Activation::Identity);
    let mut tokens = vec![Token::Key(0), Token::Value(0)];
    for i in 1..kappa {
        tokens.extend([Token::Key(i), Token::Value(1)]);
    }
    tokens.extend([Token::Value(2), Token::Key(0)]);
    let inst = adversarial_instance(kappa, tokens);
    let (z, v) = con.query_logits(&inst).pop().expect("one query");
    correct_margin(&z, v)
}

fn rem7_margin(a: &Adversary, boundary_kappa: f64) -> Eval {
    let predicted_fail = a.eps * (a.keys as f64 - boundary_kappa) > 1.0;
    let m = adversarial_margin(a);
    if (a.eps * (a.keys as f64 - boundary_kappa) - 1.0).abs() < 1e-9 {
        return Eval::Reject("on the boundary");
    }
    // Agreement of the sign of the answer margin with the prediction: the sides are that margin
    // and 0, the relation the predicted one (a wrong answer predicted: margin < 0).
    let agrees = (m < 0.0) == predicted_fail;
    let relation = if predicted_fail { Relation::AtMost } else { Relation::AtLeast };
    let signed = if agrees { m.abs().max(1e-12) } else { -m.abs().max(1e-12) };
    Eval::Compared(Comparison::custom(m, 0.0, relation, signed, REM7_MARGIN_FORMULA))
}

/// Remark 7's instances at quick, standard and deep: the off-by-one control differs from the
/// claim on 95 of the 2277 (κ, ε) cells, so at 400 it goes undetected with probability
/// (1 − 95/2277)^400 < 4·10⁻⁸ (at 100, the quick budget's former size, 1.4%: seed 1234 missed it).
const REM7_CASES: [u64; 3] = [400, 400, 4000];

/// What Remark 7's sides are.
const REM7_SIDES: (&str, &str) = ("the answer margin z_{v₁} − max_{l≠v₁} z_l at the final query", "0 (the predicted sign)");

/// How [`rem7_margin`] is computed.
const REM7_MARGIN_FORMULA: &str =
    "±max(|lhs|, 1e−12): + when the sign of the answer margin lhs = z_{v₁} − max_{l≠v₁} z_l agrees with the prediction (wrong iff ε(κ − 1) > 1), − otherwise";

/// Accuracy over (κ, p) of a reduced construction with balanced codes (p below the smallest
/// width repeats codes), |V| = 128, with the boundary p = balanced_width(|V|).
fn width_figure(name: &str, title: &str, d_of: &'static str, build: impl Fn(usize, &[DVector<f64>]) -> Construction) -> Figure {
    let (values, keys, widths) = (128usize, [2usize, 4, 8, 12], [4usize, 6, 8, 10, 12]);
    let grid: Vec<Vec<f64>> = widths
        .iter()
        .map(|&p| {
            let codes = balanced(values, p);
            keys.iter()
                .map(|&kappa| {
                    let con = build(kappa, &codes);
                    let (ok, n) = (0..6u64).fold((0, 0), |(ok, n), seed| {
                        let (inst, _) = Case { keys: kappa, values, extra: 40, seed, placement: QueryPlacement::Separated }.instance();
                        let (a, b) = con.accuracy(&inst);
                        (ok + a, n + b)
                    });
                    ok as f64 / n as f64
                })
                .collect()
        })
        .collect();
    let pmin = balanced_width(values) as f64;
    Figure::new(name, title, "κ", &format!("code width p ({d_of})"))
        .heat(HeatMap {
            x: keys.iter().map(|&k| k as f64).collect(),
            y: widths.iter().map(|&p| p as f64).collect(),
            values: grid,
            label: "query accuracy".into(),
            range: None,
        })
        .with(
            Series::new(
                format!("smallest width with |V| = 128 distinct balanced codes, p = {pmin}"),
                Style::Dashed,
                vec![[1.0, pmin - 1.0], [13.0, pmin - 1.0]],
            )
            .color(1),
        )
        .caption(
            "Accuracy is 1 exactly where the value codes are distinct (p ≥ 10 for |V| = 128: C(10,5) = 252) and falls below it, where codes repeat; \
                  the dimension needed grows like log|V| and does not depend on κ beyond the key dimensions.",
        )
}

/// Accuracy of Theorem 2's one-hot construction over (κ, N): keys without a state slot are lost,
/// so accuracy is min(N, κ)/κ — the paper's "Mamba fails for N < κ" (Fig. A.3) as a phase diagram.
fn slots_figure() -> Figure {
    let (keys, slots) = ([2usize, 4, 6, 8, 10], [1usize, 2, 4, 6, 8, 10]);
    let grid: Vec<Vec<f64>> = slots
        .iter()
        .map(|&n| {
            keys.iter()
                .map(|&kappa| {
                    let con = thm2_onehot(kappa, 16, n.min(kappa + 1));
                    let (ok, total) = (0..4u64).fold((0, 0), |(ok, t), seed| {
                        let (a, b) = con.accuracy(&Case { keys: kappa, values: 16, extra: 20, seed, placement: QueryPlacement::Separated }.instance().0);
                        (ok + a, t + b)
                    });
                    ok as f64 / total as f64
                })
                .collect()
        })
        .collect();
    Figure::new("phase_kappa_n", "Theorem 2 (one-hot, |V| = 16): accuracy over κ and the state size N", "κ", "N")
        .heat(HeatMap {
            x: keys.iter().map(|&k| k as f64).collect(),
            y: slots.iter().map(|&n| n as f64).collect(),
            values: grid,
            label: "query accuracy".into(),
            range: None,
        })
        .with(Series::new("the theorem's N = κ", Style::Dashed, vec![[1.0, 1.0], [11.0, 11.0]]).color(1))
        .caption("Each key needs its own state column: above the diagonal N ≥ κ every query is answered, below it the keys without a column are lost.")
}

/// Printed and corrected reduced constructions side by side: accuracy against |V| (κ = 4).
fn printed_vs_corrected(name: &str, title: &str, printed: impl Fn(&Case) -> Construction, corrected: impl Fn(&Case) -> Construction) -> Figure {
    let sizes = [4usize, 8, 16, 32, 64];
    let acc = |build: &dyn Fn(&Case) -> Construction| -> Vec<[f64; 2]> {
        sizes
            .iter()
            .map(|&v| {
                let (ok, n) = (0..8u64).fold((0, 0), |(ok, n), seed| {
                    let case = Case { keys: 4, values: v, extra: 30, seed, placement: QueryPlacement::Separated };
                    let (a, b) = build(&case).accuracy(&case.instance().0);
                    (ok + a, n + b)
                });
                [v as f64, ok as f64 / n as f64]
            })
            .collect()
    };
    Figure::new(name, title, "|V|", "query accuracy (κ = 4, 8 instances)")
        .with(Series::new("as printed", Style::Line, acc(&printed)).color(1))
        .with(Series::new("corrected (balanced codes, no bias)", Style::Line, acc(&corrected)).color(2))
        .caption("The printed reduced-width construction fails at every |V|; the corrected one answers every query.")
}

/// Small MQAR cases: κ ≤ 8, |V| ≤ 16.
fn cases_small() -> impl Strategy<Value = Case> {
    cases(8, 16)
}

// Every construction is also run large (κ ≤ 64, |V| ≤ 1024, one draw in five) and, where the
// paper's argument covers it, with adjacent queries (eq 64–66; half of the draws).

/// κ ≤ 8, |V| ≤ 16 (one draw in five up to κ = 64, |V| = 1024), queries separated by noise.
fn cases_separated() -> impl Strategy<Value = Case> {
    cases_to_large(8, 16, usize::MAX, false)
}

/// As [`cases_separated`], with queries anywhere (adjacent ones included).
fn cases_adjacent() -> impl Strategy<Value = Case> {
    cases_to_large(8, 16, usize::MAX, true)
}

/// As [`cases_separated`], with keys queried more than once.
fn repeated() -> impl Strategy<Value = Case> {
    cases_to_large(8, 16, usize::MAX, false).prop_map(|c| Case { placement: QueryPlacement::Repeated, ..c })
}

/// Remark 7's adversaries: κ ≤ 24 keys, ε ∈ {0.01, …, 0.99}.
fn adversaries() -> impl Strategy<Value = Adversary> {
    (2usize..=24, 1usize..=99).prop_map(|(keys, e)| Adversary { keys, eps: e as f64 / 100.0 })
}

/// Cases for the S4D construction: κ ≤ 6, |V| ≤ 12.
fn cases_s4d() -> impl Strategy<Value = Case> {
    cases(6, 12)
}

/// `000.thm2` (theorem): Theorem 2 (§5); proof, step 1 (App. C.1, eq 53–66).
fn claim_thm2() -> Claim {
    Claim::theorem(
        "000.thm2",
        super::FAMILY,
        "One-layer Mamba without gate, d = κ + |V|, N = κ: keys 2e_i, values e_{κ+j}, conv ReLU(x_{t−1} + 2x_t − 1), Λ = 0, Δ = 1, \
             B = C = [I_κ | 0], W_o rows e_{κ+l}: on random MQAR instances (2 ≤ κ ≤ 8, 2 ≤ |V| ≤ 16; one draw in five up to κ = 64, |V| = 1024; \
             queries separated by noise) every query's logits are exactly 3e_{j(i)} (1e−12), so the argmax is the target.",
        construction([40, 200, 2000], cases_separated(), |c: &Case| {
            let (inst, _) = c.instance();
            closed_form(&thm2_onehot(c.keys, c.values, c.keys), &inst, 3.0)
        })
        .illustrate(|_| vec![slots_figure()]),
    )
    .source(
        Paper::InputSelectivity,
        "Theorem 2 (§5); proof, step 1 (App. C.1, eq 53–66)",
        "There exists a 1-layer Mamba model without gating that solves MQAR with κ pairs using embedding size d = O(κ + log|V|), and state size N = κ.",
    )
    .control(
        "one state slot too few, N = κ − 1",
        construction([40, 200, 2000], cases_separated(), |c: &Case| {
            let (inst, _) = c.instance();
            thm2_onehot(c.keys, c.values, c.keys - 1).margin(&inst, 3.0)
        })
        .sides(QUERY_SIDES.0, QUERY_SIDES.1)
        .expand(token_content),
    )
}

/// `000.thm2.adjacent` (theorem): Theorem 2, step 1, the adjacent-key case (App. C.1, eq 64–66).
fn claim_thm2_adjacent() -> Claim {
    Claim::theorem(
        "000.thm2.adjacent",
        super::FAMILY,
        "Theorem 2, step 1 (as 000.thm2) when a query may directly follow another key (eq 64–66): at a query of k_i after k_l the conv \
             gives C_t = (c₀k − b)e_l + (c₁k − b)e_i = e_l + 3e_i, so the logits are exactly 3e_{j(i)} + e_{j(l)} (3e_{j(i)} after a noise value; \
             1e−12) and the argmax is still the target because c₀ < c₁. Queries anywhere in the query region, 2 ≤ κ ≤ 8, 2 ≤ |V| ≤ 16, one draw \
             in five up to κ = 64, |V| = 1024.",
        construction([40, 200, 2000], cases_to_large(8, 16, usize::MAX, false).prop_map(|c| Case { placement: QueryPlacement::Anywhere, ..c }), |c: &Case| {
            thm2_exact(c, true, false).min(thm2_onehot(c.keys, c.values, c.keys).margin(&c.instance().0, 3.0))
        }),
    )
    .source(
        Paper::InputSelectivity,
        "Theorem 2, step 1, the adjacent-key case (App. C.1, eq 64–66)",
        "There is an edge case to this construction, which occurs when, at retrieval time, two keys appear adjacent to each other in a key-key pair (k_i, k_l) \
         […] However, with the correct parameter choice, we can have the query information dominate the noise, and still recover the desired solution. \
         […] (c₀k − b) ≪ (c₁k − b) ⟸ c₀ ≪ c₁, which is already satisfied by the parameter choice Equation 56.",
    )
    .control(
        "the separated-query closed form 3e_{j(i)} demanded at adjacent queries too",
        construction([40, 200, 2000], cases_to_large(8, 16, usize::MAX, false).prop_map(|c| Case { placement: QueryPlacement::Anywhere, ..c }), |c: &Case| {
            thm2_exact(c, false, false)
        })
        .sides("the largest |logit − closed form| at a query", "1e−12·3")
        .expand(token_content),
    )
}

/// `000.thm2.repeated` (theorem): MQAR, App. C.1 eq (47): the queries are 'shuffled queries (=keys)', k_{i_1} … k_{i_κ}.
fn claim_thm2_repeated() -> Claim {
    Claim::theorem(
            "000.thm2.repeated",
            super::FAMILY,
            "Outside the task of eq (47), where the queries are the κ keys shuffled (each once): if a key is queried again, Theorem 2's step-1 \
             construction (as 000.thm2) gives at a query of k_i exactly 3(e_{j(i)} + Σ_n e_n), n over the noise values that followed its earlier \
             queries, plus col(l) when it follows a key k_l (5·col(i) right after k_i) (1e−12): a repeated query ties with that noise and is answered wrongly unless the noise \
             equals the target. Queried keys drawn with replacement, queries anywhere, 2 ≤ κ ≤ 8, 2 ≤ |V| ≤ 16, one draw in five up to κ = 64, |V| = 1024.",
            construction([40, 200, 2000], repeated(), |c: &Case| thm2_exact(c, true, true)).sides("the largest |logit − closed form| at a query", "1e−12·3").expand(token_content),
        )
        .source(Paper::InputSelectivity, "MQAR, App. C.1 eq (47): the queries are 'shuffled queries (=keys)', k_{i_1} … k_{i_κ}", "x = [k₁ v₁ … k_κ v_κ | v× … k_{i₁} v× … k_{i_κ} v× …]")
        .correction("A scope statement, not an erratum: eq (47) queries each key once, and the construction is exact there (000.thm2); a key queried twice reads the noise written into its column after the first query.")
        .control("the eq-47 column contents (the prefix value only) demanded at repeated queries too", construction([40, 200, 2000], repeated(), |c: &Case| thm2_exact(c, true, false)).sides("the largest |logit − closed form| at a query", "1e−12·3").expand(token_content))
}

/// `000.thm2.reduced.printed` (erratum): Theorem 2, step 2 (eq 67–72).
fn claim_thm2_reduced_printed() -> Claim {
    Claim::erratum(
            "000.thm2.reduced.printed",
            super::FAMILY,
            "Theorem 2, step 2 as printed: values [0; M_v e_j + 2·1] with Rademacher codes M_v (p = ⌈16 ln(2|V|)⌉, JL at ε = δ = ½), keys 10e_i, \
             conv ReLU(x_{t−1} + 10x_t − 3), W_o = [0 | M_vᵀ], output bias b_o = −(c₀k − b) W_o s with s = (c₁β − b)[0|1]: every query answered.",
            construction([40, 200, 2000], cases_small(), |c: &Case| {
                let (inst, mut s) = c.instance();
                thm2_reduced(c.keys, &rademacher(&mut s, c.values, thm2_printed_width(c)), Bias::Printed).margin(&inst, 1.0)
            })
            .sides(QUERY_SIDES.0, QUERY_SIDES.1)
            .expand(|c| value_code_content(c, thm2_printed_width(c)))
            .illustrate(|_| {
                vec![printed_vs_corrected(
                    "printed_vs_corrected",
                    "Theorem 2, reduced width: printed vs corrected",
                    |c| thm2_reduced(c.keys, &rademacher(&mut c.instance().1, c.values, thm2_printed_width(c)), Bias::Printed),
                    |c| thm2_reduced(c.keys, &balanced(c.values, balanced_width(c.values)), Bias::None),
                )]
            }),
        )
        .source(
            Paper::InputSelectivity,
            "Theorem 2, step 2 (eq 67–72)",
            "At the query time for key k_i, […] the output y_t […] contains the (scaled) normalized value embedding shifted by a constant vector […] \
             The output layer undoes the shift and classifies based on the normalized value embeddings. […] b_o = −(c₀k − b)W_o s […] \
             W_o y_t + b_o = (c₀k − b)c₁ M_vᵀM_v e_{j(i)}, which yields the maximum at component j(i) since ⟨M_v e_{j(i)}, M_v e_l⟩ ≤ ε for any \
             l ≠ j(i) by JL Lemma.",
        )
        .correction(
            "y_t carries the factor C_t = (c₁k − b)e_i and the query's own write, so the bias must be −(c₁k − b)(c₀k − b)W_o s (97× the printed one); \
                     or use zero-sum codes, for which W_o s = 0 and no bias is needed (000.thm2.reduced).",
        )
        .error(ErrorKind::Construction, "Theorem 2's existence claim (d = O(κ + log|V|), N = κ) survives: zero-sum codes need no bias (000.thm2.reduced). The printed step-2 construction fails: y_t carries the factor (c₁k − b) from C_t and the query's own write, so the printed bias −(c₀k − b)W_o s is 97× too small and the shared offset swamps the code inner products.")
        .holds_instead(&["000.thm2.reduced"])
    .uncertified(crate::claim::Uncertified::FloatingPoint, "the logits are computed in f64 through the construction's convolution, scan and read-out with code entries ±fl(1/√p) (irrational in exact arithmetic) and the printed bias; the construction is not written over Real, so no enclosure. The recorded gap between the two logits is of the order of the logits themselves, their rounding about 10⁻¹³ of them")
}

/// `000.thm2.reduced` (theorem): Theorem 2, step 2, corrected (proofs/recall.md).
fn claim_thm2_reduced() -> Claim {
    Claim::theorem(
        "000.thm2.reduced",
        super::FAMILY,
        "Theorem 2, step 2 corrected: value codes = distinct zero-sum ±1/√p vectors at the smallest even p with C(p, p/2) ≥ |V| \
             (d = κ + p, p = O(log|V|)), no output bias; otherwise as printed. Every query of random MQAR instances (2 ≤ κ ≤ 8, 2 ≤ |V| ≤ 16; one \
             draw in five up to κ = 64, |V| = 1024; half with queries anywhere, so some follow another key) is answered.",
        construction([40, 200, 2000], cases_adjacent(), |c: &Case| {
            let (inst, _) = c.instance();
            thm2_reduced(c.keys, &balanced(c.values, balanced_width(c.values)), Bias::None).margin(&inst, 1.0)
        })
        .illustrate(|_| {
            vec![width_figure("width_thm2", "Theorem 2 reduced (balanced codes): accuracy over κ and code width", "d = κ + p", |k, c| {
                thm2_reduced(k, c, Bias::None)
            })]
        }),
    )
    .source(Paper::InputSelectivity, "Theorem 2, step 2, corrected (proofs/recall.md)", "d = O(κ + log|V|), N = κ.")
    .control(
        "codes of the next smaller even width (codes repeat)",
        construction([40, 200, 2000], cases_adjacent(), |c: &Case| {
            let (inst, _) = c.instance();
            thm2_reduced(c.keys, &balanced(c.values, narrower(c.values)), Bias::None).margin(&inst, 1.0)
        })
        .sides(QUERY_SIDES.0, QUERY_SIDES.1)
        .expand(|c| balanced_content(c, narrower(c.values))),
    )
}

/// `000.thm3` (theorem): Theorem 3 (§5); proof, step 1 (App. C.1, eq 73–77).
fn claim_thm3() -> Claim {
    Claim::theorem(
        "000.thm3",
        super::FAMILY,
        "One-layer Mamba-2 without gate, d = κ + |V|, N = κ: keys e_i, values e_{κ+j}, conv_B a shift, conv_u = conv_C the identity through σ, \
             λ = 0, Δ = 1, B = C = [I_κ | 0], W_o rows e_{κ+l}: every query's logits are exactly e_{j(i)} with σ = ReLU (the proof) and exactly \
             SiLU(1)³·e_{j(i)} with σ = SiLU (Mamba-2's own activation) (1e−12), on random instances (2 ≤ κ ≤ 8, 2 ≤ |V| ≤ 16; one draw in five \
             up to κ = 64, |V| = 1024; half with adjacent queries: the shifted B_t keeps them exact).",
        construction([40, 200, 2000], cases_adjacent(), |c: &Case| {
            let (inst, _) = c.instance();
            let silu1 = Activation::Silu.apply(1.0);
            closed_form(&thm3_onehot(c.keys, c.values, c.keys, Activation::Relu), &inst, 1.0).min(closed_form(
                &thm3_onehot(c.keys, c.values, c.keys, Activation::Silu),
                &inst,
                silu1.powi(3),
            ))
        }),
    )
    .source(
        Paper::InputSelectivity,
        "Theorem 3 (§5); proof, step 1 (App. C.1, eq 73–77)",
        "There exists a 1-layer Mamba-2 model without gating that solves MQAR with κ pairs using embedding size d = O(log κ + log|V|), and state size N = log κ.",
    )
    .control(
        "one state slot too few, N = κ − 1",
        construction([40, 200, 2000], cases_adjacent(), |c: &Case| {
            let (inst, _) = c.instance();
            thm3_onehot(c.keys, c.values, c.keys - 1, Activation::Relu).margin(&inst, 1.0)
        })
        .sides(QUERY_SIDES.0, QUERY_SIDES.1)
        .expand(token_content),
    )
}

/// `000.thm3.reduced.printed` (erratum): Theorem 3, step 2 (App. C.1).
fn claim_thm3_reduced_printed() -> Claim {
    Claim::erratum(
            "000.thm3.reduced.printed",
            super::FAMILY,
            "Theorem 3, step 2 as printed: Rademacher key codes (p_k = ⌈16 ln κ⌉ + 2) and value codes (p_v = ⌈16 ln(2|V|)⌉) through the proof's \
             ReLU convolutions: every query answered.",
            construction([40, 200, 2000], cases_small(), |c: &Case| {
                let (pk, pv) = thm3_printed_widths(c);
                let (con, inst) = thm3_jl(c, pk, pv, Activation::Relu);
                con.margin(&inst, 1.0)
            })
            .sides(QUERY_SIDES.0, QUERY_SIDES.1)
            .expand(|c| {
                let (pk, pv) = thm3_printed_widths(c);
                let (inst, ck, cv) = thm3_jl_codes(c, pk, pv);
                instance_content(&inst, &[("key_codes", &ck), ("value_codes", &cv)])
            }),
        )
        .source(
            Paper::InputSelectivity,
            "Theorem 3, step 2 (App. C.1)",
            "To this end, we apply JL Lemma (c.f. Lem. 4) to construct nearly orthogonal embedding vectors, while keeping the convolution, SSM, and \
             output layers the same as step 1. […] We apply JL lemma separately for the key embedding subspace (with a JL matrix M_k) […] M ≔ M_k ⊕ M_v",
        )
        .correction(
            "JL codes have negative entries, which the convolutions' σ (ReLU in the proof, SiLU in Mamba-2) does not pass: use linear \
                     convolutions (or a small-scale SiLU), and N = p_k must absorb the interference of the other keys (000.thm3.reduced).",
        )
        .error(ErrorKind::Reading, "App. C.1, Theorem 3 step 2: 'keeping the convolution, SSM, and output layers the same as step 1'. Reading checked: the same layers, so the convolutions keep the proof's σ (ReLU), which clips the JL codes' negative entries; retrieval fails. The other reading, the same action ('shifting the attention-keys by one position … while keeping the attention-queries and attention-values unchanged'), is linear convolutions: with N = p_k = ⌈16 ln κ⌉ the error rate is ≤ 1% (000.thm3.reduced).")
        .holds_instead(&["000.thm3.reduced"])
    .uncertified(crate::claim::Uncertified::FloatingPoint, "the logits are computed in f64 through the proof's ReLU convolutions and scan with code entries ±fl(1/√p) (irrational in exact arithmetic); the construction is not written over Real, so no enclosure. The recorded gap between the two logits is of the order of the logits themselves, their rounding about 10⁻¹³ of them")
}

/// `000.thm3.reduced` (theorem): Theorem 3, step 2, with the constant the evidence gives (proofs/recall.md).
fn claim_thm3_reduced() -> Claim {
    Claim::theorem(
        "000.thm3.reduced",
        super::FAMILY,
        "Theorem 3, step 2 with linear convolutions: Rademacher key codes with N = p_k = ⌈16 ln κ⌉ and value codes p_v = ⌈8 ln 128⌉, |V| = 128, \
             T = 100: the per-query error rate is ≤ 1% for κ ∈ {4, 8, 16, 24} (exact one-sided Clopper–Pearson, family-wise α = 1e−4, \
             Bonferroni over the 4 cells; 400 / 4000 / 20000 queries per κ: power against a 2% rate 0.016 / 0.905 / 1.000, against 5% \
             0.90 at the quick budget, reported per cell); the (κ, N/ln κ) phase diagram is attached.",
        thm3_statistical(16.0),
    )
    .source(Paper::InputSelectivity, "Theorem 3, step 2, with the constant the evidence gives (proofs/recall.md)", "d = O(log κ + log|V|), N = O(log κ).")
    .correction("\"N = log κ\" hides the ε dependence: with JL keys the constant is ≈ 16 (C = N/ln κ); C ≤ 4 fails, matching the paper's Fig. A.3.")
    .control("N = ⌈ln κ⌉ (C = 1)", thm3_statistical(1.0))
}

/// `000.thm3.condition` (theorem): Theorem 3, step 2: the retrieval argument (proofs/recall.md).
fn claim_thm3_condition() -> Claim {
    Claim::theorem(
            "000.thm3.condition",
            super::FAMILY,
            "Theorem 3 with non-orthogonal codes and linear convolutions: at every query where 1 − ε_v > 2mε_k (ε_k, ε_v the largest |⟨k_i, k_i'⟩|, \
             |⟨v_l, v_l'⟩|, m the positions s ≤ t preceded by another key), the answer is correct. Keys ∝ e_i + ηg_i (η ≤ 1), Rademacher value codes \
             (4 ≤ p_v ≤ 48), 2 ≤ κ ≤ 6, 2 ≤ |V| ≤ 16.",
            property([300, 1000, 10000], perturbed_cases(), |pc: &PerturbedCase| condition_margin(pc, 2.0))
                .sides(QUERY_SIDES.0, QUERY_SIDES.1)
                .expand(perturbed_content),
        )
        .source(Paper::InputSelectivity, "Theorem 3, step 2 (App. C.1): the retrieval argument (proofs/recall.md)", "At query time, upon encountering k_i, the retrieved output is y_t ∝ v_{j(i)} + ε(Σ_{l≠j(i)} v_l) for ε ≪ 1, in light of the fact that the low-dimensional embeddings are nearly orthogonal by construction. Then, applying the output matrix W_o y_t yields the maximum component at j(i), as desired.")
        .correction("The interference is Σ_s ⟨k(x_{s−1}), k_i⟩⟨v_l, x_s⟩ over the m positions after other keys (up to 2κ − 2), so ε_k must be below ~1/(4κ), not just small.")
        .control("the condition without the key interference, 1 − ε_v > 0", property([300, 1000, 10000], perturbed_cases(), |pc: &PerturbedCase| condition_margin(pc, 0.0)).sides(QUERY_SIDES.0, QUERY_SIDES.1).expand(perturbed_content))
}

/// `000.rem7` (theorem): Remark 7 (App. C.1).
fn claim_rem7() -> Claim {
    Claim::theorem(
        "000.rem7",
        super::FAMILY,
        "Mamba-2 retrieval (linear convs) on [k₁ v₁ k₂ v … k_κ v, noise, k₁] with unit keys, ⟨k_i, k₁⟩ = ε for i ≥ 2, orthonormal values: \
             the answer is wrong exactly when ε(κ − 1) > 1 (2 ≤ κ ≤ 24, ε on a 0.01 grid; the margin is 1 − ε(κ−1)). Power: the control's \
             boundary εκ > 1 differs on 95 of the 2277 (κ, ε) cells (4.2%), so 400 instances miss it with probability (1 − 95/2277)^400 < 4·10⁻⁸.",
        property(REM7_CASES, adversaries(), |a: &Adversary| rem7_margin(a, 1.0)).sides(REM7_SIDES.0, REM7_SIDES.1),
    )
    .source(Paper::InputSelectivity, "Remark 7 (App. C.1)", "For [k₁, v₁, k₂, v, …, k_κ, v] with v₁ ≠ v, the noise ε(κ−1)v can beat v₁ if ε(κ−1) > 1.")
    .control(
        "the boundary εκ > 1 (an off-by-one in the count of interfering keys)",
        property(REM7_CASES, adversaries(), |a: &Adversary| rem7_margin(a, 0.0)).sides(REM7_SIDES.0, REM7_SIDES.1),
    )
}

/// Key codes of width `width` for κ keys (Rademacher, ±1/√p, the construction's own JL draw), and
/// the stream they come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NarrowCodes {
    /// κ.
    pub keys: usize,
    /// p, the key code width and the Mamba-2 state size N (p < κ/2).
    pub width: usize,
    /// The seed of the codes' Philox stream (`StreamKey::new(code_seed, "000.rem3")`).
    pub code_seed: u64,
}

impl NarrowCodes {
    fn codes(&self) -> Vec<DVector<f64>> {
        rademacher(&mut crate::mc::Stream::new(StreamKey::new(self.code_seed, "000.rem3"), 0), self.keys, self.width)
    }

    /// The adversary of Remark 7 generalised to any codes: the query key i with the largest
    /// Σ_{j≠i} |⟨k_j, k_i⟩|, every other key's value chosen against it (value 1 where
    /// ⟨k_j, k_i⟩ > 0, value 0 = k_i's own where it is < 0), k_i's value 0, a noise value 2, then
    /// the query k_i. The instance and the key i.
    fn adversary(&self, codes: &[DVector<f64>]) -> (MqarInstance, usize) {
        let interference = |i: usize| (0..self.keys).filter(|&j| j != i).map(|j| codes[j].dot(&codes[i]).abs()).sum::<f64>();
        let i = (0..self.keys).max_by(|&a, &b| interference(a).total_cmp(&interference(b))).expect("κ ≥ 1");
        let mut tokens = vec![];
        for j in (0..self.keys).filter(|&j| j != i) {
            tokens.extend([Token::Key(j), Token::Value(usize::from(codes[j].dot(&codes[i]) > 0.0))]);
        }
        tokens.extend([Token::Key(i), Token::Value(0), Token::Value(2), Token::Key(i)]);
        (adversarial_instance(self.keys, tokens), i)
    }

    /// The Mamba-2 retrieval (Theorem 3, linear convolutions, one-hot value codes) on the
    /// adversary: the target's logit against the largest other. Each logit sums κ products of
    /// code entries (±1/√p, each rounded), so it errs by at most γ_{2p+2}·κ; the gap at a wrong
    /// answer is at least κ/p − 2 ≥ 1/p.
    fn answers(&self) -> Eval {
        let codes = self.codes();
        let (inst, _) = self.adversary(&codes);
        let (z, v) = thm3_codes(&codes, &one_hot_codes(3), Activation::Identity).query_logits(&inst).pop().expect("one query");
        let other = z.iter().enumerate().filter(|&(l, _)| l != v).map(|(_, &x)| x).fold(f64::NEG_INFINITY, f64::max);
        let rounding = crate::claim::Rounding::gamma(2 * self.width + 2) * self.keys as f64;
        Eval::gt(z[v], other, Scale(1.0), Tolerance::absolute(rounding))
    }
}

/// κ from 8 to 64 and p from ⌈log₂ κ⌉ (Theorem 3's N = log κ) to ⌈κ/2⌉ − 1, the codes' seed
/// uniform.
fn narrow_codes() -> impl Strategy<Value = NarrowCodes> + Clone {
    (8usize..=64)
        .prop_flat_map(|keys| (Just(keys), (keys.next_power_of_two().trailing_zeros() as usize)..keys.div_ceil(2), any::<u64>()))
        .prop_map(|(keys, width, code_seed)| NarrowCodes { keys, width, code_seed })
}

/// The concrete content of a narrow-codes case: the key codes as built (entry and signs), the adversarial
/// tokens, the query key and its interference.
fn narrow_content(c: &NarrowCodes) -> serde_json::Value {
    let codes = c.codes();
    let (inst, i) = c.adversary(&codes);
    let interference: f64 = (0..c.keys).filter(|&j| j != i).map(|j| codes[j].dot(&codes[i]).abs()).sum();
    serde_json::json!({ "key_codes": code_book_content(&codes), "tokens": inst.tokens, "query_key": i, "sum_abs_inner_products": interference })
}

/// `000.rem3.printed` (erratum): Remark 3.
fn claim_rem3_printed() -> Claim {
    Claim::erratum(
        "000.rem3.printed",
        super::FAMILY,
        "Remark 3's comparison with both constructions answering every MQAR instance (as Theorem 2's Mamba with N = κ does, \
         000.thm2): Theorem 3's Mamba-2 retrieval (linear convolutions, one-hot values) with a state N = p below κ — here \
         ⌈log₂ κ⌉ ≤ p < κ/2, Theorem 3's N = log κ included — answers every query, on every choice of its Rademacher key codes \
         (8 ≤ κ ≤ 64).",
        property([60, 300, 3000], narrow_codes(), NarrowCodes::answers).sides("the target's logit at the adversarial query", "the largest other logit").expand(narrow_content),
    )
    .source(
        Paper::InputSelectivity,
        "Remark 3 (with Theorems 2 and 3)",
        "With the results from Thm. 3 and 2, we can infer that the extra convolutions included in the Mamba-2 layer over vanilla Mamba in general allow for a more parameter-efficient solution of MQAR, by noting that d = log κ + log|V| < κ + log|V|, and N = log κ < κ.",
    )
    .correction("The saving holds for the error rate on random instances (000.thm3.reduced: per-query error ≤ 1% at N = ⌈16 ln κ⌉, below κ from κ = 69 on), not for answering every instance: any κ unit key codes in p < κ/2 dimensions have a key i with Σ_{j≠i} ⟨k_j, k_i⟩² ≥ κ/p − 1 > 1, and the adversary that sends the positively aligned keys to one wrong value and the negatively aligned ones to the target's value wins (the paper's own Remark 7 is the one-direction case).")
    .error(
        ErrorKind::Reading,
        "Remark 3 says 'the extra convolutions included in the Mamba-2 layer over vanilla Mamba in general allow for a more parameter-efficient solution of MQAR, by noting that … N = log κ < κ'. Reading checked: both constructions solve MQAR in the same sense, on every instance, as Theorem 2's does (000.thm2). Then it is false: for κ unit codes in p dimensions the Gram matrix G has ‖G‖_F² ≥ κ²/p, so some key i has Σ_{j≠i} |⟨k_j, k_i⟩| ≥ Σ_{j≠i} ⟨k_j, k_i⟩² ≥ κ/p − 1, which exceeds 1 when p < κ/2, and an instance with the positively aligned keys on one wrong value and the others on the target's value makes the retrieval answer wrong (Remark 7 is the case of one direction). The search's witness is one code with its adversarial instance; that every code with p < κ/2 fails, which refutes the existence of such a saving, rests on the Gram argument, checked over random codes by 000.rem3.gram. The other reading, a small error rate on random instances, holds (000.thm3.reduced)",
    )
    .holds_instead(&["000.thm3.reduced", "000.rem3.gram"])
    .uncertified(
        crate::claim::Uncertified::FloatingPoint,
        "the logits are computed in f64 from the code entries ±fl(1/√p); in exact arithmetic each is an integer multiple of 1/p (sums of products of signs), and the recorded gap is at least 1/p against a rounding bound below 10⁻¹³, but no enclosure is computed",
    )
}

impl NarrowCodes {
    /// The Gram argument on these codes, in integers: with the signs s_j ∈ {±1}^p of the codes
    /// (k_j = s_j/√p), c_ij = ⟨s_i, s_j⟩ = p·⟨k_i, k_j⟩. Returns (max_i Σ_{j≠i} c_ij², max_i
    /// Σ_{j≠i} |c_ij|): the argument says the first is at least p²(κ/p − 1) = κp − p² and the
    /// second then exceeds p (Σ|⟨k_j, k_i⟩| > 1) when p < κ/2.
    fn gram_sums(&self) -> (f64, f64) {
        let signs: Vec<Vec<i64>> = self.codes().iter().map(|k| k.iter().map(|&v| if v < 0.0 { -1 } else { 1 }).collect()).collect();
        let c = |i: usize, j: usize| -> i64 { signs[i].iter().zip(&signs[j]).map(|(a, b)| a * b).sum() };
        let sums = (0..self.keys).map(|i| (0..self.keys).filter(|&j| j != i).fold((0i64, 0i64), |(sq, ab), j| (sq + c(i, j).pow(2), ab + c(i, j).abs())));
        let (sq, ab) = sums.fold((0, 0), |(m1, m2), (sq, ab)| (m1.max(sq), m2.max(ab)));
        (sq as f64, ab as f64)
    }
}

/// The Gram step of `000.rem3.printed`'s correction on one code: max_i Σ_{j≠i} c_ij² ≥ κp − p²
/// (exact integers; `factor` multiplies κp, 1 for the argument), and max_i Σ_{j≠i} |c_ij| > p,
/// the interference the adversary needs.
fn gram_argument(c: &NarrowCodes, factor: f64) -> Eval {
    let (p, k) = (c.width as f64, c.keys as f64);
    let (squares, absolute) = c.gram_sums();
    Eval::ge_by(squares, factor * k * p - p * p, Scale(p * p), Tolerance::NONE).min(Eval::gt(absolute, p, Scale(p), Tolerance::NONE))
}

/// `000.rem3.gram` (theorem): the correction's Gram argument, on random codes.
fn claim_rem3_gram() -> Claim {
    Claim::theorem(
        "000.rem3.gram",
        super::FAMILY,
        "The Gram argument behind 000.rem3.printed, on every Rademacher code of κ unit keys in p dimensions (8 ≤ κ ≤ 64, ⌈log₂ κ⌉ ≤ p < κ/2): \
         G = (⟨k_i, k_j⟩) is positive semidefinite of rank ≤ p with trace κ, so ‖G‖_F² ≥ κ²/p and some key i has Σ_{j≠i} ⟨k_j, k_i⟩² ≥ κ/p − 1 \
         (> 1); since |⟨k_j, k_i⟩| ≤ 1 that key also has Σ_{j≠i} |⟨k_j, k_i⟩| > 1, the interference with which Remark 7's adversary wins. \
         Counted exactly in integers (p·⟨k_i, k_j⟩ = ⟨s_i, s_j⟩ for the sign vectors).",
        property([60, 300, 3000], narrow_codes(), |c: &NarrowCodes| gram_argument(c, 1.0))
            .sides("max_i Σ_{j≠i} ⟨s_j, s_i⟩² (and max_i Σ_{j≠i} |⟨s_j, s_i⟩|)", "κp − p² (and p)"),
    )
    .source(crate::claim::Origin::Derived(Paper::InputSelectivity), "proofs/recall.md, Remark 3: the Gram argument", "—")
    .control("the bound 2κ/p − 1 in place of κ/p − 1", property([60, 300, 3000], narrow_codes(), |c: &NarrowCodes| gram_argument(c, 2.0)))
}

/// `000.thm4` (theorem): Theorem 4 (§5); proof, step 1 (App. C.1, eq 81–99).
fn claim_thm4() -> Claim {
    Claim::theorem(
        "000.thm4",
        super::FAMILY,
        "One-layer gated Mamba block with an S4D mixer, d = κ|V|, N = 1: keys 10·1_{block i}, values e_j in every block, conv \
             ReLU(10x_{t−1} + x_t − 100), Λ = 0, Δ = B = C = 1, gate ReLU(x_t), W_o rows [e_lᵀ … e_lᵀ]: every query's logits are exactly \
             10e_{j(i)} (2 ≤ κ ≤ 6, 2 ≤ |V| ≤ 12; one draw in five up to κ = 64 with κ|V| ≤ 4096, the embedding's width; half with adjacent queries).",
        construction([40, 200, 2000], cases_to_large(6, 12, 4096, true), |c: &Case| {
            let (inst, _) = c.instance();
            closed_form(&thm4(c.keys, &one_hot_codes(c.values), 0.0, true), &inst, 10.0)
        }),
    )
    .source(
        Paper::InputSelectivity,
        "Theorem 4 (§5); proof, step 1 (App. C.1, eq 81–99)",
        "There exists a 1-layer Mamba model with an S4D mixer that solves MQAR with κ pairs, using embedding size d = O(κ log|V|), and state size N = 1.",
    )
    .control(
        "the gate removed",
        construction([40, 200, 2000], cases_to_large(6, 12, 4096, true), |c: &Case| {
            let (inst, _) = c.instance();
            thm4(c.keys, &one_hot_codes(c.values), 0.0, false).margin(&inst, 10.0)
        })
        .sides(QUERY_SIDES.0, QUERY_SIDES.1)
        .expand(token_content),
    )
}

/// `000.thm4.reduced.printed` (erratum): Theorem 4, step 2 (eq 102–109).
fn claim_thm4_reduced_printed() -> Claim {
    Claim::erratum(
            "000.thm4.reduced.printed",
            super::FAMILY,
            "Theorem 4, step 2 as printed: values [(Me_j + 1)ᵀ | … ] with Rademacher codes M (p = ⌈16 ln(2(|V|+1))⌉), output rows [(Me_l)ᵀ | …], no bias: \
             every query answered.",
            construction([40, 200, 2000], cases_s4d(), |c: &Case| {
                let (inst, mut s) = c.instance();
                thm4(c.keys, &rademacher(&mut s, c.values, thm4_printed_width(c)), 1.0, true).margin(&inst, 1.0)
            })
            .sides(QUERY_SIDES.0, QUERY_SIDES.1)
            .expand(|c| value_code_content(c, thm4_printed_width(c)))
            .illustrate(|_| {
                vec![printed_vs_corrected(
                    "printed_vs_corrected",
                    "Theorem 4, reduced width: printed vs corrected",
                    |c| thm4(c.keys, &rademacher(&mut c.instance().1, c.values, thm4_printed_width(c)), 1.0, true),
                    |c| thm4(c.keys, &balanced(c.values, balanced_width(c.values)), 1.0, true),
                )]
            }),
        )
        .source(
            Paper::InputSelectivity,
            "Theorem 4, step 2 (eq 102–109)",
            "Having proved the construction with d = O(|V|), we now apply JL Lemma to reduce the embedding dimension and suitably adjust the Mamba \
             architecture weights to ensure the desired output. […] We use JL lemma to identify |V| + 1 almost-orthogonal vectors within a \
             p ∼ O(log(|V| + 1))-dimensional space. […] And finally, after applying the output matrix, we obtain ŷ_t ≈ [ε + εβ, …, 1 + εβ, …, ε + εβ]ᵀ \
             in light of the fact that both (Me_i)ᵀ·Me_j ≈ ε if i ≠ j […] per JL construction, and (Me_i)ᵀ·1 ≤ ε […]",
        )
        .correction(
            "(Me_l)ᵀ1 = √p⟨Me_l, 1/√p⟩ is O(√p ε), not ε, so kβ(Me_l)ᵀ1 dominates: subtract it as an output bias, or use zero-sum codes (000.thm4.reduced).",
        )
        .error(ErrorKind::Construction, "Theorem 4's existence claim (d = O(κ log|V|), N = 1) survives: zero-sum codes need no correction (000.thm4.reduced). The printed step-2 construction fails: (Me_l)ᵀ1 = √p⟨Me_l, 1/√p⟩ is O(√p·ε), not ε, so the term kβ(Me_l)ᵀ1 dominates the logits.")
        .holds_instead(&["000.thm4.reduced"])
    .uncertified(crate::claim::Uncertified::FloatingPoint, "the logits are computed in f64 through the construction's layers with code entries ±fl(1/√p) (irrational in exact arithmetic); the construction is not written over Real, so no enclosure. The recorded gap between the two logits is of the order of the logits themselves, their rounding about 10⁻¹³ of them")
}

/// `000.thm4.reduced` (theorem): Theorem 4, step 2, corrected (proofs/recall.md).
fn claim_thm4_reduced() -> Claim {
    Claim::theorem(
        "000.thm4.reduced",
        super::FAMILY,
        "Theorem 4, step 2 corrected: distinct zero-sum ±1/√p value codes at the smallest even p with C(p, p/2) ≥ |V| (d = κp), β = 1, no bias: \
             every query of random instances (2 ≤ κ ≤ 6, 2 ≤ |V| ≤ 12; one draw in five up to κ = 64, |V| = 1024; half with adjacent queries) is answered.",
        construction([40, 200, 2000], cases_to_large(6, 12, usize::MAX, true), |c: &Case| {
            let (inst, _) = c.instance();
            thm4(c.keys, &balanced(c.values, balanced_width(c.values)), 1.0, true).margin(&inst, 1.0)
        })
        .illustrate(|_| {
            vec![width_figure("width_thm4", "Theorem 4 reduced (balanced codes): accuracy over κ and code width", "d = κp", |k, c| thm4(k, c, 1.0, true))]
        }),
    )
    .source(Paper::InputSelectivity, "Theorem 4, step 2, corrected (proofs/recall.md)", "d = O(κ log|V|), N = 1.")
    .control(
        "codes of the next smaller even width (codes repeat)",
        construction([40, 200, 2000], cases_to_large(6, 12, usize::MAX, true), |c: &Case| {
            let (inst, _) = c.instance();
            thm4(c.keys, &balanced(c.values, narrower(c.values)), 1.0, true).margin(&inst, 1.0)
        })
        .sides(QUERY_SIDES.0, QUERY_SIDES.1)
        .expand(|c| balanced_content(c, narrower(c.values))),
    )
}

/// Registers the MQAR constructions.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_thm2());
    r.add(claim_thm2_adjacent());
    r.add(claim_thm2_repeated());
    r.add(claim_thm2_reduced_printed());
    r.add(claim_thm2_reduced());
    r.add(claim_thm3());
    r.add(claim_thm3_reduced_printed());
    r.add(claim_thm3_reduced());
    r.add(claim_thm3_condition());
    r.add(claim_rem7());
    r.add(claim_rem3_printed());
    r.add(claim_rem3_gram());
    r.add(claim_thm4());
    r.add(claim_thm4_reduced_printed());
    r.add(claim_thm4_reduced());
}
