//! 000 Figure 1 (§4.1): the learned decays `e^{−λΔ_t}` of Mamba models that solved Keep n-th.
//! Lemma 2 predicts that a model which must carry x_n to the end of a longer sequence pushes its
//! decays toward 1 as T grows (left panel); selectivity lets Mamba keep them low before n and
//! near 1 from n on (right panel).
//!
//! * `000.fig1` (Experiment): Mamba+PE trained on Keep Fifth (|V| = 16, d = N = 8, as
//!   `000.table1`) at a smaller and a larger T, the decays `e^{Λ[a,n]Δ_t[a]}` computed on held-out
//!   sequences (every t, a, n). Per held-out sequence: the fraction of its decays above 0.95,
//!   overall and at positions before n and from n on. Reproduced when every run solves the task
//!   (held-out accuracy ≥ 0.9) and, with Hoeffding intervals over held-out sequences at
//!   family-wise α = 10⁻⁴ (Bonferroni over the intervals), (left) for every seed the fraction above
//!   0.95 at the larger T lies above the one at the smaller T, and (right) in every run the
//!   fraction above 0.95 from n on exceeds the one before n. Not reproduced when a run does not
//!   solve the task or an interval lies wholly on the wrong side; inconclusive otherwise.
//!   Control: the same check with both predictions reversed (larger T: fewer decays near 1;
//!   before n: more), which the measured effect must refute.

use super::hoeffding;
use crate::claim::{custom, Claim, Comparison, Figure, Kind, Outcome, Paper, Relation, Series, Sizes, Style, Verdict, Violation, ALPHA};
use crate::claims::{memo, Memo};
use crate::error::Result;
use crate::model::mixer::MixerKind;
use crate::tasks::keep_nth::KeepNth;
use crate::train::adam::AdamConfig;
use crate::train::classifier::{ClassifierShape, SsmClassifier};
use crate::train::fit::{fit, FitConfig, RunKeys, Targets};
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};

/// The small-scale setting of `000.table1`: |V| = 16, n = 5, d = N = 8.
const VOCAB: usize = 16;
const KEEP: usize = 5;
const D: usize = 8;
const N: usize = 8;
/// A decay counts as "near 1" above this and "near 0" below 1 − this (the paper's bins).
const NEAR_ONE: f64 = 0.95;
/// Held-out accuracy that counts as solving the task.
const SOLVES: f64 = 0.9;

/// Which way the check expects the effects to go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prediction {
    /// The paper's: more decays near 1 at the larger T, and from n on than before n.
    Paper,
    /// Both reversed (the control).
    Reversed,
}

/// One trained run's statistics on its held-out sequences.
struct Run {
    t_len: usize,
    seed: u64,
    accuracy: f64,
    /// Per held-out sequence: the fraction of its decays above 0.95, overall, before n, from n on.
    near_one: Vec<[f64; 3]>,
    /// Per position t (0-based): the fractions of decays above 0.95 and below 0.05 over the
    /// held-out sequences and every (a, n).
    by_position: Vec<[f64; 2]>,
}

impl Run {
    fn mean(&self, k: usize) -> f64 {
        self.near_one.iter().map(|r| r[k]).sum::<f64>() / self.near_one.len() as f64
    }
    /// Mean over sequences of (from n on − before n), in [−1, 1].
    fn selective_gap(&self) -> f64 {
        self.near_one.iter().map(|r| r[2] - r[1]).sum::<f64>() / self.near_one.len() as f64
    }
}

/// Trains one Mamba+PE run at length `t_len` and measures its decays.
fn train_run(ctx: &crate::claim::Context, t_len: usize, seed: u64, steps: usize, test_size: usize) -> Result<Run> {
    let task = KeepNth::new(VOCAB, t_len, KEEP)?;
    let cfg = FitConfig { steps, batch: 16, adam: AdamConfig { lr: 0.03, ..Default::default() }, min_lr: 1e-4, test_size };
    let keys = RunKeys::from_parts(|part| ctx.key(&format!("T{t_len}/{seed}/{part}")));
    let model = SsmClassifier::init(ClassifierShape { kind: MixerKind::Mamba, vocab: VOCAB, d: D, n: N, position: true }, keys.init)?;
    let log = fit(&model, &task, &cfg, &keys, Targets::Task)?;
    let held_out = task.batch(keys.test, 0, test_size);
    let decays = model
        .decays(&held_out.tokens)
        .and_then(|t| t.flatten_all())
        .and_then(|t| t.to_vec1::<f64>())
        .map_err(|e| crate::train::candle_error("reading the decays", e))?;
    let (near_one, by_position) = fractions(&decays, t_len, D * N);
    Ok(Run { t_len, seed, accuracy: log.test_accuracy, near_one, by_position })
}

/// From the decays of held-out sequences (sequence-major, then t, then the `per_t` entries of a
/// step): per sequence the fractions above 0.95 overall, at t < n and at t ≥ n (1-based t, n =
/// [`KEEP`]); per position the fractions above 0.95 and below 0.05 over every sequence.
fn fractions(decays: &[f64], t_len: usize, per_t: usize) -> (Vec<[f64; 3]>, Vec<[f64; 2]>) {
    let sequences = decays.len() / (t_len * per_t);
    let mut by_position = vec![[0.0; 2]; t_len];
    let before = (KEEP - 1) * per_t;
    let near_one = decays
        .chunks_exact(t_len * per_t)
        .map(|seq| {
            let mut counts = [0usize; 3];
            for (t, step) in seq.chunks_exact(per_t).enumerate() {
                let high = step.iter().filter(|&&v| v > NEAR_ONE).count();
                by_position[t][0] += high as f64;
                by_position[t][1] += step.iter().filter(|&&v| v < 1.0 - NEAR_ONE).count() as f64;
                counts[0] += high;
                counts[if t + 1 < KEEP { 1 } else { 2 }] += high;
            }
            [counts[0] as f64 / (t_len * per_t) as f64, counts[1] as f64 / before as f64, counts[2] as f64 / (t_len * per_t - before) as f64]
        })
        .collect();
    for p in &mut by_position {
        p.iter_mut().for_each(|v| *v /= (sequences * per_t) as f64);
    }
    (near_one, by_position)
}

fn decays_check(prediction: Prediction) -> impl crate::claim::Check {
    custom(Kind::Training, move |ctx| {
        let lengths: Vec<usize> = ctx.size("sequence lengths T", Sizes::new(vec![10, 20], vec![10, 20], vec![10, 20, 30, 40]));
        let seeds: u64 = ctx.size("training runs per T (seeds)", Sizes::new(1, 1, 3));
        let steps: usize = ctx.size("Adam steps per run (16 sequences each)", Sizes::new(3000, 3000, 6000));
        let test_size: usize = ctx.size("held-out sequences per run", Sizes::new(1000, 2000, 4000));
        let jobs: Vec<(usize, u64)> = lengths.iter().flat_map(|&t| (0..seeds).map(move |s| (t, s))).collect();
        ctx.progress.expect(jobs.len() as u64);
        crate::parallel::enter();
        // The control judges the same runs: trained once per process (same streams and sizes).
        static RUNS: Memo<Run> = OnceLock::new();
        let runs: Vec<Arc<Run>> = jobs
            .into_par_iter()
            .map(|(t, s)| {
                let run = memo(&RUNS, format!("{}/{t}/{s}/{steps}/{test_size}", ctx.key("runs").as_u64()), || train_run(ctx, t, s, steps, test_size));
                ctx.progress.advance(1);
                run
            })
            .collect::<Result<_>>()?;
        // Intervals: per run, its accuracy, its overall fraction and its selective gap.
        let intervals = 3 * runs.len();
        let half = hoeffding(test_size, ALPHA / intervals as f64);
        let (t_min, t_max) = (lengths[0], lengths[lengths.len() - 1]);
        let find = |t: usize, s: u64| -> &Run { runs.iter().find(|r| r.t_len == t && r.seed == s).expect("every (T, seed) was trained") };
        let sign = if prediction == Prediction::Paper { 1.0 } else { -1.0 };
        let row = |r: &Run| {
            serde_json::json!({ "T": r.t_len, "seed": r.seed, "held_out_accuracy": r.accuracy, "near_one": r.mean(0), "near_one_before_n": r.mean(1),
                "near_one_from_n": r.mean(2), "interval_half_width": half })
        };
        // Signed margins (positive: the prediction holds with room; an interval's distance), and
        // each failure with its margin, what failed, the violated relation and the runs involved.
        let mut failures: Vec<(f64, String, Violation, serde_json::Value)> = Vec::new();
        let mut margins: Vec<f64> = Vec::new();
        for r in &runs {
            let m = r.accuracy + half - SOLVES;
            if r.accuracy - half < SOLVES {
                margins.push(r.accuracy - half - SOLVES);
            }
            if m < 0.0 {
                let c = Comparison::custom(r.accuracy + half, SOLVES, Relation::AtLeast, m, "upper Hoeffding limit − 0.9")
                    .named(&format!("held-out accuracy at T = {}, seed {}, upper limit", r.t_len, r.seed), "0.9: solves the task");
                failures.push((m, format!("the run at T = {}, seed {} did not solve Keep Fifth", r.t_len, r.seed), c, row(r)));
            }
            // Right panel: the gap (from n on − before n) in [−1, 1], Hoeffding for a range of 2.
            let gap = sign * r.selective_gap();
            margins.push(gap - 2.0 * half);
            if gap + 2.0 * half < 0.0 {
                let c = Comparison::custom(gap + 2.0 * half, 0.0, Relation::AtLeast, gap + 2.0 * half, "upper Hoeffding limit of the signed gap")
                    .named(&format!("fraction near 1 from n on − before n at T = {}, seed {} (signed by the prediction)", r.t_len, r.seed), "0");
                failures.push((gap + 2.0 * half, format!("at T = {}, seed {}, decays near 1 are not more frequent from n on", r.t_len, r.seed), c, row(r)));
            }
        }
        for s in 0..seeds {
            let (small, large) = (find(t_min, s), find(t_max, s));
            // Left panel: the two runs' intervals apart, in the predicted order.
            let diff = sign * (large.mean(0) - small.mean(0));
            margins.push(diff - 2.0 * half);
            if diff + 2.0 * half < 0.0 {
                let c =
                    Comparison::custom(diff + 2.0 * half, 0.0, Relation::AtLeast, diff + 2.0 * half, "distance of the intervals (signed by the prediction)")
                        .named(&format!("fraction near 1 at T = {t_max} − at T = {t_min}, seed {s}"), "0");
                failures.push((
                    diff + 2.0 * half,
                    format!("seed {s}: no more decays near 1 at T = {t_max} than at T = {t_min}"),
                    c,
                    serde_json::json!([row(small), row(large)]),
                ));
            }
        }
        let summary = format!(
            "fraction of decays above {NEAR_ONE} (mean over held-out sequences, ± {half:.3}): {}",
            runs.iter()
                .map(|r| format!(
                    "T = {} seed {}: {:.3} (before n {:.3}, from n {:.3}; accuracy {:.3})",
                    r.t_len,
                    r.seed,
                    r.mean(0),
                    r.mean(1),
                    r.mean(2),
                    r.accuracy
                ))
                .collect::<Vec<_>>()
                .join("; ")
        );
        let margin = margins.iter().copied().fold(f64::INFINITY, f64::min);
        let verdict = match failures.into_iter().min_by(|a, b| a.0.total_cmp(&b.0)) {
            Some((m, why, violation, counterexample)) => Verdict::Refuted { counterexample, violation, margin: m, summary: format!("{why}; {summary}") },
            None if margin >= 0.0 => Verdict::Holds { evidence: summary },
            None => Verdict::Inconclusive { why: format!("an interval straddles its threshold; {summary}") },
        };
        let mut against_t =
            Figure::new("decays_against_T", "Learned decays e^{−λΔ_t} near 1 against T (Mamba+PE, Keep Fifth)", "sequence length T", "proportion of decays");
        for s in 0..seeds {
            let pts = |k: usize| lengths.iter().map(|&t| [t as f64, find(t, s).mean(k)]).collect::<Vec<_>>();
            against_t = against_t.with(Series::new(format!("> {NEAR_ONE}, seed {s}"), Style::Line, pts(0)).color(s as usize));
        }
        let last = find(t_max, 0);
        let position = |k: usize| last.by_position.iter().enumerate().map(|(t, p)| [(t + 1) as f64, p[k]]).collect::<Vec<_>>();
        let against_step = Figure::new(
            "decays_against_t",
            &format!("Learned decays against the timestep t (T = {t_max}, seed 0)"),
            "timestep t",
            "proportion of decays",
        )
        .with(Series::new(format!("> {NEAR_ONE}"), Style::Line, position(0)).color(0))
        .with(Series::new(format!("< {:.2}", 1.0 - NEAR_ONE), Style::Line, position(1)).color(1))
        .with(Series::new("n = 5", Style::Dashed, vec![[KEEP as f64, 0.0], [KEEP as f64, 1.0]]))
        .caption(
            "Averaged over held-out sequences and every channel and state. The paper's right panel: Mamba's decays mostly 0 before n and mostly 1 from n on.",
        );
        Ok(Outcome::new(verdict, (runs.len() * test_size) as u64, Some(margin))
            .detail("runs", runs.iter().map(|r| row(r)).collect::<Vec<_>>())
            .detail("by_position_at_largest_T", last.by_position.iter().map(|p| serde_json::json!({ "near_one": p[0], "near_zero": p[1] })).collect::<Vec<_>>())
            .detail("setting", serde_json::json!({ "task": "Keep Fifth", "T": lengths, "vocabulary": VOCAB, "n": KEEP, "d": D, "N": N, "model": "Mamba+PE (as 000.table1)", "steps": steps, "batch": 16, "held_out_sequences": test_size }))
            .detail("paper_setting", "Keep n-th, T from 10 to 50 (Fig. 1), same setup as Table 1 (|V| = 128, d = 32, N = 8); histograms of e^{−λΔ_t} in bins > 0.95 and < 0.05")
            .detail("criterion", format!("every run solves the task (accuracy ≥ {SOLVES}); per seed the fraction of decays > {NEAR_ONE} at T = {t_max} above that at T = {t_min}; per run the fraction > {NEAR_ONE} from n on above that before n; all by disjoint Hoeffding intervals"))
            .detail("confidence", format!("Hoeffding ± {half:.4} per mean of per-sequence values in [0, 1] (± {:.4} for a difference in [−1, 1]), family-wise α = {ALPHA:e}, Bonferroni over {intervals} intervals", 2.0 * half))
            .detail("power", format!("an effect is resolved when the measured difference exceeds {:.3} (twice the half-width): smaller true effects come out inconclusive", 2.0 * half))
            .detail("prediction", format!("{prediction:?}"))
            .figures([against_t, against_step]))
    })
}

/// `000.fig1` (experiment): §4.1 Figure 1 at small scale.
fn claim_fig1() -> Claim {
    Claim::experiment(
        "000.fig1",
        super::FAMILY,
        "Mamba+PE trained on Keep Fifth (|V| = 16, n = 5, d = N = 8, as 000.table1) at T ∈ {10, 20} (quick, standard; 1 seed) / {10, 20, 30, 40} (deep; 3 seeds): \
         every run solves the task (held-out accuracy ≥ 0.9); the fraction of learned decays e^{−λΔ_t} above 0.95 on held-out sequences is larger at the largest \
         T than at the smallest (each seed), and larger from position n on than before n (each run); Hoeffding intervals over held-out sequences at family-wise α = 1e−4.",
        decays_check(Prediction::Paper),
    )
    .source(
        Paper::InputSelectivity,
        "§4.1, Figure 1 (histograms of e^{−λΔ_t} on test inputs, bins > 0.95 and < 0.05, against T and against the timestep)",
        "the Mamba model must push e^{−λΔ_t} → 1 as T increases, as implied by Lem. 2, to retain information throughout the sequence … e^{−λΔ_t} is mostly 0 before timestep n … and mostly 1 from timestep n onwards",
    )
    .correction("Scaled down from the paper's setting (proofs/training.md); the S4D panels are not rerun (S4D does not solve Keep Fifth at this scale: 000.table1).")
    .control("both predictions reversed (fewer decays near 1 at the larger T, and from n on)", decays_check(Prediction::Reversed))
}

/// Registers the claim.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_fig1());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two sequences of T = 6 with two entries per step: the first forgets before n = 5 (decays
    /// 0.01) and keeps from n on (0.99); the second is 0.5 throughout except one 0.99 at t = 1.
    #[test]
    fn fractions_count_each_side_of_n() {
        let first: Vec<f64> = (1..=6).flat_map(|t| if t < KEEP { [0.01, 0.01] } else { [0.99, 0.99] }).collect();
        let mut second = vec![0.5; 12];
        second[0] = 0.99;
        let (seqs, positions) = fractions(&[first, second].concat(), 6, 2);
        assert_eq!(seqs[0], [4.0 / 12.0, 0.0, 1.0]);
        assert_eq!(seqs[1], [1.0 / 12.0, 1.0 / 8.0, 0.0]);
        assert_eq!(positions[0], [0.25, 0.5]);
        assert_eq!(positions[4], [0.5, 0.0]);
        assert_eq!(positions[5], [0.5, 0.0]);
    }
}
