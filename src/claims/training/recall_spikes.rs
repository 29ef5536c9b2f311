//! 002 Sec. 3, "Case |K| > 1", Figures 5 and 6: in the simplified Mamba trained on
//! latest-association recall with N = |K| and learned B(x̂_t), C(x̂_t), B spikes where a new
//! key–value pair is written, (x_{t−1}, x_t) = (k, v), and C spikes where a key is queried,
//! (x_{t−1}, x_t) = (x, k).
//!
//! * `002.fig5` (|K| = 2, |V| = 8) and `002.fig6` (|K| = 4, |V| = 12) (Experiments): the model of
//!   `crate::train::recall` trained once per seed at a small scale, then probed on held-out
//!   sequences. In a sequence, *B spikes at writes* when the median ‖B(x̂_t)‖ over its write
//!   positions is at least twice the median over its other positions, and *C spikes at reads*
//!   likewise for ‖C(x̂_t)‖ at the positions whose token is a key. Per seed three metrics: the
//!   held-out query accuracy and the fractions of held-out sequences with each spike.
//!   [`experiment::judge`] over the seeds: mean accuracy ≥ 0.9 (the figures probe a model that
//!   has learned the task), each mean spike fraction > ½. Positive control: the write / read /
//!   forget mechanism built by hand ([`slot_memory`]). Negative control: the same training with
//!   W_B and W_C frozen at their random start.

use crate::claim::experiment::{self, ControlRun, Criterion, Direction, PaperNumber, Replicates};
use crate::claim::{custom, Claim, Figure, HeatMap, Kind, Paper, Sizes};
use crate::stats::median;
use crate::train::fit::RunKeys;
use crate::train::recall::{
    fit_recall, held_out_accuracies, pair_projection, recall_batch, slot_memory, RecallBatch, RecallData, RecallFit, RecallMamba, RecallShape, RecallWeights,
    Trainable,
};
use rayon::prelude::*;

/// Held-out query accuracy that counts as having learned the task.
const LEARNED: f64 = super::RECALL_LEARNED;
/// In a sequence, a spike: the median norm at the named positions at least this many times the
/// median at the others.
const SPIKE_RATIO: f64 = 2.0;
/// The fraction of held-out sequences that must show each spike ("more than half").
const MOST: f64 = 0.5;
/// Algorithm 1's maximum noise length n_ε (002 Sec. 3 uses 3).
const MAX_NOISE: usize = 3;
/// The Adam learning rate (constant).
const LR: f64 = 0.02;

/// What a position's input pair is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PairKind {
    /// (key, value): a new association is written.
    Write,
    /// (anything, key): a key is read (queried when it was paired before).
    Read,
    /// (value, value).
    Noise,
}

/// The kind of the pair (x_{t−1}, x_t), t ≥ 1, with keys 0..keys−1.
fn pair_kind(x: &[usize], t: usize, keys: usize) -> PairKind {
    match (x[t - 1] < keys, x[t] < keys) {
        (_, true) => PairKind::Read,
        (true, false) => PairKind::Write,
        (false, false) => PairKind::Noise,
    }
}

/// ‖W x̂_t‖ with x̂_t = [e_{x_{t−1}}; e_{x_t}] (W is N × 2n).
fn pair_norm(w: &nalgebra::DMatrix<f64>, n: usize, prev: usize, cur: usize) -> f64 {
    pair_projection(w, n, Some(prev), cur).iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// Median norm at the positions of `kind` over the median at the others (t ≥ 1); NaN when
/// either set is empty.
fn spike_ratio(w: &nalgebra::DMatrix<f64>, x: &[usize], keys: usize, n: usize, kind: PairKind) -> f64 {
    let (mut at, mut rest) = (Vec::new(), Vec::new());
    for t in 1..x.len() {
        let v = pair_norm(w, n, x[t - 1], x[t]);
        if pair_kind(x, t, keys) == kind {
            at.push(v);
        } else {
            rest.push(v);
        }
    }
    median(&at) / median(&rest)
}

/// Cosine of two vectors (0 when one is zero).
fn cosine(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let d = norm(a) * norm(b);
    if d > 0.0 {
        dot / d
    } else {
        0.0
    }
}

/// Key addressing (reported, not judged; the paper does not state it): for each key k, the
/// mean B over writes (k, v) and the mean C over reads (u, k), both over all values and all
/// non-key u; returns the cosine for each key and the largest cosine between different keys.
fn addressing(w: &RecallWeights, shape: RecallShape) -> (Vec<f64>, f64) {
    let (n, keys) = (shape.vocab, shape.keys);
    let mean = |m: &nalgebra::DMatrix<f64>, pairs: &[(usize, usize)]| -> Vec<f64> {
        let projections: Vec<Vec<f64>> = pairs.iter().map(|&(p, c)| pair_projection(m, n, Some(p), c)).collect();
        (0..m.nrows()).map(|s| projections.iter().map(|v| v[s]).sum::<f64>() / pairs.len() as f64).collect()
    };
    let writes: Vec<Vec<f64>> = (0..keys).map(|k| mean(&w.w_b, &(keys..n).map(|v| (k, v)).collect::<Vec<_>>())).collect();
    let reads: Vec<Vec<f64>> = (0..keys).map(|k| mean(&w.w_c, &(keys..n).map(|u| (u, k)).collect::<Vec<_>>())).collect();
    let same = (0..keys).map(|k| cosine(&writes[k], &reads[k])).collect();
    let cross = (0..keys)
        .flat_map(|k| (0..keys).filter(move |&j| j != k).map(move |j| (k, j)))
        .map(|(k, j)| cosine(&writes[k], &reads[j]))
        .fold(f64::NEG_INFINITY, f64::max);
    (same, cross)
}

/// One figure's setting: the paper's |K| and our vocabulary.
#[derive(Clone, Copy, Debug)]
struct Setting {
    figure: &'static str,
    shape: RecallShape,
    /// Adam steps at the quick, standard and deep budgets (|K| = 4 learns more slowly).
    steps: [usize; 3],
}

/// The judged metrics, as [`Replicates`] names them.
const ACCURACY: &str = "held_out_query_accuracy";
const B_SPIKES: &str = "b_spike_fraction";
const C_SPIKES: &str = "c_spike_fraction";

/// The criteria, fixed before the first run (proofs/training.md).
fn criteria() -> Vec<Criterion> {
    let spike = |metric, what: &str| {
        Criterion::new(
            metric,
            Direction::Above,
            MOST,
            format!(
                "'we empirically observe the spikes in {what}': the spike (median norm at those positions ≥ {SPIKE_RATIO}× the median elsewhere) in more \
                 than half of the held-out sequences"
            ),
        )
    };
    vec![
        super::recall_learned(ACCURACY, "the figures probe"),
        spike(B_SPIKES, "B(x̂_t) upon encountering new key-value pairs"),
        spike(C_SPIKES, "C(x̂_t) upon query"),
    ]
}

/// What a model shows on held-out sequences.
struct Probe {
    /// Mean over held-out sequences of the fraction of queries answered right.
    accuracy: f64,
    /// Held-out sequences behind the three statistics (those with a query, a write, a read).
    scored: [usize; 3],
    /// Fractions of held-out sequences with the B and the C spike.
    b_spikes: f64,
    c_spikes: f64,
    /// Medians over sequences of the two ratios.
    b_ratio: f64,
    c_ratio: f64,
}

/// Probes `model` (whose weights are `weights`) on `held_out`.
fn probe(model: &RecallMamba, weights: &RecallWeights, held_out: &RecallBatch) -> crate::error::Result<Probe> {
    let (n, k) = (model.shape.vocab, model.shape.keys);
    let accuracies = held_out_accuracies(model, held_out)?;
    let tokens = &held_out.0;
    let mut b: Vec<f64> = tokens.iter().map(|x| spike_ratio(&weights.w_b, x, k, n, PairKind::Write)).collect();
    let mut c: Vec<f64> = tokens.iter().map(|x| spike_ratio(&weights.w_c, x, k, n, PairKind::Read)).collect();
    // A sequence without a query, or without positions of the kind (a NaN ratio), says nothing
    // of that statistic and is left out of it (with T ≥ 32 none was measured to be).
    b.retain(|v| !v.is_nan());
    c.retain(|v| !v.is_nan());
    let scored = [accuracies.len(), b.len(), c.len()];
    if scored.contains(&0) {
        return Err(crate::error::Error::InvalidParameter(format!("no held-out sequence has a query, a write and a read (T = {})", tokens[0].len())));
    }
    // A zero median elsewhere under a positive one at the named positions is a spike (ratio ∞).
    let fraction = |r: &[f64]| r.iter().filter(|&&v| v >= SPIKE_RATIO).count() as f64 / r.len() as f64;
    Ok(Probe {
        accuracy: accuracies.iter().sum::<f64>() / scored[0] as f64,
        scored,
        b_spikes: fraction(&b),
        c_spikes: fraction(&c),
        b_ratio: median(&b),
        c_ratio: median(&c),
    })
}

/// One trained and probed run, with the hand-built mechanism probed on the same sequences.
struct Run {
    seed: u64,
    loss: Vec<f64>,
    probe: Probe,
    built: Probe,
    addressing: (Vec<f64>, f64),
    weights: RecallWeights,
}

/// Trains and probes one seed's run, and probes `built` on the same held-out sequences.
fn run(
    ctx: &crate::claim::Context,
    setting: Setting,
    cfg: &RecallFit,
    test_size: usize,
    trainable: Trainable,
    built: &(RecallMamba, RecallWeights),
    seed: u64,
) -> crate::error::Result<Run> {
    let keys = RunKeys::from_parts(|part| ctx.key(&format!("{seed}/{part}")));
    let model = RecallMamba::init(setting.shape, keys.init, trainable)?;
    let loss = fit_recall(&model, model.shape, cfg, &keys)?;
    let weights = model.weights()?;
    let held_out = recall_batch(setting.shape, cfg, keys.test, 0, test_size)?;
    let probed = probe(&model, &weights, &held_out)?;
    let anchor = probe(&built.0, &built.1, &held_out)?;
    ctx.progress.advance(1);
    Ok(Run { seed, loss, probe: probed, built: anchor, addressing: addressing(&weights, setting.shape), weights })
}

/// Each seed's three metrics, of the trained runs or of the built mechanism.
fn replicates<'a>(configuration: &str, probes: impl Iterator<Item = (u64, &'a Probe)>) -> Replicates {
    let mut r = Replicates::new(configuration);
    for (seed, p) in probes {
        r.push(seed, &[(ACCURACY, p.accuracy), (B_SPIKES, p.b_spikes), (C_SPIKES, p.c_spikes)]);
    }
    r
}

fn row(r: &Run) -> serde_json::Value {
    let p = &r.probe;
    serde_json::json!({
        "seed": r.seed, "held_out_sequences_with_a_query_a_write_a_read": p.scored, "held_out_query_accuracy": p.accuracy, "b_spike_fraction": p.b_spikes, "c_spike_fraction": p.c_spikes,
        "median_b_ratio_write_vs_other": p.b_ratio, "median_c_ratio_read_vs_other": p.c_ratio,
        "first_loss": r.loss[0], "last_loss": r.loss[r.loss.len() - 1],
        "cosine_mean_b_write_vs_mean_c_read_per_key": r.addressing.0, "largest_cosine_between_different_keys": r.addressing.1,
        "built_mechanism": { "held_out_query_accuracy": r.built.accuracy, "b_spike_fraction": r.built.b_spikes, "c_spike_fraction": r.built.c_spikes },
    })
}

/// |B(x̂_t)| or |C(x̂_t)| component by component over the first `window` positions of a
/// sequence: `values[s][t]`.
fn components(w: &nalgebra::DMatrix<f64>, x: &[usize], n: usize, window: usize) -> Vec<Vec<f64>> {
    let by_position: Vec<Vec<f64>> = (0..window.min(x.len())).map(|t| pair_projection(w, n, t.checked_sub(1).map(|p| x[p]), x[t])).collect();
    (0..w.nrows()).map(|s| by_position.iter().map(|v| v[s].abs()).collect()).collect()
}

fn spikes_check(setting: Setting, trainable: Trainable) -> impl crate::claim::Check {
    custom(Kind::Training, move |ctx| {
        let seeds: u64 = ctx.size("training runs (seeds)", SEEDS);
        let [quick, standard, deep] = setting.steps;
        let (len, steps): (usize, usize) = ctx.size("(sequence length T, Adam steps of 16 sequences)", Sizes::new((64, quick), (64, standard), (128, deep)));
        let test_size: usize = ctx.size("held-out sequences per run", Sizes::new(2000, 4000, 10000));
        let cfg = RecallFit::new(len, RecallData::Latest { max_noise: MAX_NOISE }, steps, LR);
        let mechanism = slot_memory(setting.shape)?;
        let built = (RecallMamba::from_weights(setting.shape, &mechanism, Trainable::All)?, mechanism);
        ctx.progress.expect(seeds);
        // Runs in parallel, each on one thread.
        crate::parallel::enter();
        let runs: Vec<Run> =
            (0..seeds).into_par_iter().map(|seed| run(ctx, setting, &cfg, test_size, trainable, &built, seed)).collect::<crate::error::Result<_>>()?;
        let configuration = format!(
            "simplified Mamba, |K| = {}, |V| = {}, N = {}, T = {len}, {steps} Adam steps of 16{}",
            setting.shape.keys,
            setting.shape.vocab,
            setting.shape.states,
            if trainable == Trainable::FrozenProjections { ", W_B and W_C frozen at their random start" } else { "" }
        );
        let judged = replicates(&configuration, runs.iter().map(|r| (r.seed, &r.probe)));
        let positive = ControlRun {
            what: format!(
                "the write / read / forget mechanism built by hand (B = e_k at a write to key k, C = e_k at a read of k, Δ = 1 on the value channels at \
                 writes and 0 elsewhere, forgetting factor {} per write), probed on each seed's held-out sequences",
                crate::train::recall::SLOT_MEMORY_FORGETTING
            ),
            judgement: experiment::judge(&replicates("built mechanism", runs.iter().map(|r| (r.seed, &r.built))), &criteria()),
        };
        let paper = vec![
            PaperNumber::words(
                "We empirically observe the spikes in B(x̂_t) upon encountering new key-value pairs (i.e. when (x_{t−1}, x_t) = (k, v)) and C(x̂_t) upon query",
                format!("002 Sec. 3, Case |K| > 1, {}", setting.figure),
            ),
            PaperNumber::value("1-layer Mamba on MQAR, κ = 4, T = 256 and 512: held-out accuracy (the lowest it prints)", 0.99, "002 App. A, Table 1"),
        ];
        let cases = (runs.len() * test_size) as u64;
        let first = &runs[0];
        let probe_tokens = recall_batch(setting.shape, &cfg, ctx.key("probe"), 0, 1)?.0.remove(0);
        let window = 40;
        let n = setting.shape.vocab;
        let heat = |name: &str, w: &nalgebra::DMatrix<f64>, what: &str, caption: &str| {
            let values = components(w, &probe_tokens, n, window);
            let top = values.iter().flatten().fold(0.0f64, |m, &v| m.max(v));
            Figure::new(name, &format!("|{what}(x̂_t)| by component over a held-out sequence, seed {}", first.seed), "position t", "component s")
                .heat(HeatMap {
                    x: (0..window).map(|t| t as f64).collect(),
                    y: (0..w.nrows()).map(|s| s as f64).collect(),
                    values,
                    label: format!("|{what}_s|"),
                    range: Some([0.0, top.max(1e-12)]),
                })
                .caption(format!(
                    "{caption} Tokens: {}.",
                    probe_tokens[..window].iter().map(|&v| if v < setting.shape.keys { format!("k{v}") } else { format!("{v}") }).collect::<Vec<_>>().join(" ")
                ))
        };
        let writes: Vec<usize> = (1..window).filter(|&t| pair_kind(&probe_tokens, t, setting.shape.keys) == PairKind::Write).collect();
        let reads: Vec<usize> = (1..window).filter(|&t| pair_kind(&probe_tokens, t, setting.shape.keys) == PairKind::Read).collect();
        let b_fig = heat("b_components", &first.weights.w_b, "B", &format!("Write positions (key, value): {writes:?}."));
        let c_fig = heat("c_components", &first.weights.w_c, "C", &format!("Read positions (·, key): {reads:?}."));
        let title = format!("Training loss at the queries, 002 {} at small scale", setting.figure);
        let curves =
            super::loss_figure(&title, runs.iter().map(|r| (format!("seed {}", r.seed), &r.loss[..])), n, steps).caption("Means over windows of steps.");
        let per_seed = super::criteria_figure(&format!("002 {}: each seed's metrics and the criteria", setting.figure), &judged, &criteria())
            .caption("The accuracy must reach its line, each spike fraction exceed ½, in the mean over seeds (Student-t intervals).");
        let outcome = experiment::decide(experiment::judge(&judged, &criteria()), Some(positive), paper, cases)
            .detail("runs", runs.iter().map(row).collect::<Vec<_>>())
            .detail("per_seed_metrics", &judged)
            .detail(
                "setting",
                serde_json::json!({ "vocabulary": n, "keys": setting.shape.keys, "N": setting.shape.keys, "d": 2 * n, "T": len, "max_noise": MAX_NOISE, "steps": steps, "batch": 16,
                    "learning_rate": LR, "loss": "cross-entropy at the query positions only", "held_out_sequences": test_size, "trained": format!("{trainable:?}") }),
            )
            .detail("paper_setting", "not given (|V|, T, n_ε, optimiser and steps are not stated for Figs. 5 and 6); Table 1 trains at T ∈ {128, 256, 512}");
        Ok(outcome.figures([per_seed, b_fig, c_fig, curves]))
    })
}

/// Seeds (one training run each) at the quick, standard and deep budgets.
const SEEDS: Sizes<u64> = Sizes::new(5, 5, 8);

fn claim(setting: Setting, id: &str, locus: &str) -> Claim {
    let RecallShape { vocab, keys, .. } = setting.shape;
    Claim::experiment(
        id,
        super::FAMILY,
        &format!(
            "002's simplified Mamba with |K| = {keys} keys, |V| = {vocab}, N = {keys}, learned W_Δ, b_Δ, Λ = −exp(θ), B = W_B x̂ and C = W_C x̂ (fixed pair embedding and W_o = [−I I]), \
             trained once per seed, 3 / 5 / 8 seeds (quick / standard / deep), by Adam (lr {LR}, batches of 16 fresh sequences of Algorithm 1, n_ε = 3, T = 64 / 64 / 128, \
             {} / {} / {} steps, loss at the queries), each probed on 2000 / 4000 / 10000 held-out sequences: over the seeds, the mean held-out query accuracy is ≥ {LEARNED}, \
             and the mean fraction of held-out sequences in which the median ‖B(x̂_t)‖ at write pairs (key, value) is ≥ {SPIKE_RATIO}× its median at the other positions \
             is > ½, and likewise for ‖C(x̂_t)‖ at read pairs (·, key) (Student-t intervals over seeds, two-sided 0.05, Bonferroni over the three). \
             Positive control: the mechanism built by hand.",
            setting.steps[0],
            setting.steps[1],
            setting.steps[2]
        ),
        spikes_check(setting, Trainable::All),
    )
    .source(
        Paper::AssociativeRecall,
        locus,
        "We empirically observe the spikes in B(x̂_t) upon encountering new key-value pairs (i.e. when (x_{t−1}, x_t) = (k, v)) and C(x̂_t) upon query (i.e., when (x_{t−1}, x_t) = (x, k))",
    )
    .correction("The paper gives no setting for these figures and no quantitative criterion; both are ours (proofs/training.md).")
    .control("W_B and W_C frozen at their random start (B and C cannot learn where to spike)", spikes_check(setting, Trainable::FrozenProjections))
}

/// Registers `002.fig5` and `002.fig6`.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim(
        Setting { figure: "Fig. 5", shape: RecallShape { vocab: 8, keys: 2, states: 2 }, steps: [2000, 2000, 2000] },
        "002.fig5",
        "Sec. 3, Case |K| > 1, Fig. 5 (|K| = 2)",
    ));
    r.add(claim(
        Setting { figure: "Fig. 6", shape: RecallShape { vocab: 12, keys: 4, states: 4 }, steps: [600, 600, 4000] },
        "002.fig6",
        "Sec. 3, Case |K| > 1, Fig. 6 (|K| = 4)",
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_classified_by_where_the_key_is() {
        // keys 0, 1: x = [2, 0, 3, 1, 1, 4, 5]
        let x = [2, 0, 3, 1, 1, 4, 5];
        let kinds: Vec<PairKind> = (1..x.len()).map(|t| pair_kind(&x, t, 2)).collect();
        use PairKind::*;
        assert_eq!(kinds, [Read, Write, Read, Read, Write, Noise]);
    }

    /// The hand-built mechanism, the positive control, meets every criterion on every seed's
    /// held-out sequences (here: three seeds' worth at T = 64), at |K| = 2 and 4.
    #[test]
    fn the_built_mechanism_has_the_spikes() {
        for shape in [RecallShape { vocab: 8, keys: 2, states: 2 }, RecallShape { vocab: 12, keys: 4, states: 4 }] {
            let weights = slot_memory(shape).unwrap();
            let model = RecallMamba::from_weights(shape, &weights, Trainable::All).unwrap();
            let cfg = RecallFit::new(64, RecallData::Latest { max_noise: MAX_NOISE }, 0, LR);
            let probes: Vec<Probe> = (0..3)
                .map(|seed| probe(&model, &weights, &recall_batch(shape, &cfg, crate::mc::StreamKey::new(seed, "built"), 0, 200).unwrap()).unwrap())
                .collect();
            let judged = experiment::judge(&replicates("built", probes.iter().enumerate().map(|(s, p)| (s as u64, p))), &criteria());
            assert!(judged.reproduced(), "|K| = {}: {}", shape.keys, judged.summary());
            assert!(probes.iter().all(|p| p.accuracy == 1.0 && p.b_spikes == 1.0 && p.c_spikes == 1.0));
        }
    }

    #[test]
    fn a_spike_is_a_ratio_of_medians() {
        // N = 1, n = 3, keys {0}: B(x̂) = w[prev] + w[3 + cur].
        let w = nalgebra::DMatrix::from_row_slice(1, 6, &[4.0, 0.0, 0.0, 0.0, 0.5, 0.5]);
        // x = [1, 0, 2, 1, 2]: pairs (1,0) read, (0,2) write: 4.5, (2,1) noise: 0.5, (1,2) noise: 0.5.
        let r = spike_ratio(&w, &[1, 0, 2, 1, 2], 1, 3, PairKind::Write);
        // Others: read (1, 0) → 0, noise 0.5, 0.5: median 0.5; writes: 4.5.
        assert_eq!(r, 9.0);
    }
}
