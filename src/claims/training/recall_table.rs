//! 002 App. A, Table 1: on the paper's MQAR (Algorithm 1: the *latest* value of each key is
//! asked), a one-layer Mamba answers 99–100% of the queries at T = 128, 256, 512 and κ = 1, 4,
//! while Transformers without positional encoding "struggle" (a one-layer TF with a
//! convolution: 21–56%).
//!
//! * `002.table1` (Experiment): 002's simplified Mamba (`crate::train::recall`, N = κ) and the
//!   one-layer attention baseline with the same pair input and no position
//!   ([`AttentionInput::Pair`], width d = 2|V|, the Mamba's channel count), each trained once per
//!   seed on Algorithm 1's sequences (n_ε = 3; |V| = 8 for κ = 1, 12 for κ = 4) at the lengths
//!   that fit a CPU. Per seed and κ two metrics: the Mamba's held-out query accuracy at its worst
//!   length and the TF's at its best. [`experiment::judge`] over the seeds: each Mamba mean
//!   ≥ 0.9 (an error at most ten times the paper's largest, 1%) and each TF mean ≤ 0.775 (nearer
//!   the paper's best TF cell, 56%, than its worst Mamba cell, 99%). Positive control: the
//!   write / read / forget mechanism built by hand ([`slot_memory`]) in the Mamba's place and the
//!   untrained attention head in the TF's. Negative control: shuffled targets.

use crate::claim::experiment::{self, ControlRun, Criterion, Direction, PaperNumber, Replicates};
use crate::claim::{custom, Claim, Figure, Kind, Paper, Series, Sizes, Style};
use crate::train::attention::{AttentionClassifier, AttentionInput, AttentionShape};
use crate::train::fit::{Classifier, RunKeys, Targets};
use crate::train::recall::{fit_recall, held_out_accuracies, recall_batch, slot_memory, RecallData, RecallFit, RecallMamba, RecallShape, Trainable};
use rayon::prelude::*;

/// The paper's one-layer Mamba's lowest accuracy in Table 1 (99%), and its TF's (conv, no PE)
/// highest (56%).
const PAPER_MAMBA_LOWEST: f64 = 0.99;
const PAPER_TF_HIGHEST: f64 = 0.56;
/// Held-out query accuracy that counts as learned: an error at most ten times the paper's
/// largest Mamba error, 1 − 10 · (1 − 0.99).
const LEARNED: f64 = super::RECALL_LEARNED;
/// Held-out query accuracy under which a model struggles: the midpoint of the paper's best TF
/// cell and its worst Mamba cell, nearer the TF.
const STRUGGLES: f64 = 0.5 * (PAPER_MAMBA_LOWEST + PAPER_TF_HIGHEST);
/// Algorithm 1's maximum noise length (002 §3.1's probing run).
const MAX_NOISE: usize = 3;
/// The Adam learning rate (constant), as for 002's figures.
const LR: f64 = 0.02;
/// The two κ of Table 1.
const KAPPAS: [usize; 2] = [1, 4];

/// A row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    /// 002's simplified Mamba, N = κ.
    Mamba,
    /// One causal attention head on the pair (previous, current token), no position.
    Tf,
}

impl Row {
    fn name(self) -> &'static str {
        match self {
            Row::Mamba => "1-layer Mamba",
            Row::Tf => "1-layer TF (conv, no PE)",
        }
    }

    /// The per-seed metric of this row at κ: the Mamba's worst length, the TF's best.
    fn metric(self, keys: usize) -> &'static str {
        match (self, keys) {
            (Row::Mamba, 1) => "mamba_worst_length_accuracy_kappa_1",
            (Row::Mamba, _) => "mamba_worst_length_accuracy_kappa_4",
            (Row::Tf, 1) => "tf_best_length_accuracy_kappa_1",
            (Row::Tf, _) => "tf_best_length_accuracy_kappa_4",
        }
    }
}

/// A cell: sequence length T and keys κ (|V| = 8 for κ = 1, as in 002 §3.1; 12 for κ = 4, as
/// for Fig. 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    len: usize,
    keys: usize,
}

impl Cell {
    fn shape(self) -> RecallShape {
        RecallShape { vocab: if self.keys == 1 { 8 } else { 12 }, keys: self.keys, states: self.keys }
    }

    /// The paper's Table 1 accuracies (%) at this cell: 1-layer Mamba, 1-layer TF with conv.
    fn paper(self) -> Option<(f64, f64)> {
        let table = [(128, 1, 100.0, 34.0), (128, 4, 100.0, 56.0), (256, 1, 100.0, 26.0), (256, 4, 99.0, 42.0), (512, 1, 100.0, 21.0), (512, 4, 99.0, 36.0)];
        table.iter().find(|&&(t, k, ..)| t == self.len && k == self.keys).map(|&(.., m, tf)| (m, tf))
    }
}

/// The criteria, fixed before the first run of this design (proofs/training.md).
fn criteria() -> Vec<Criterion> {
    KAPPAS
        .iter()
        .flat_map(|&k| {
            [
                Criterion::new(
                    Row::Mamba.metric(k),
                    Direction::AtLeast,
                    LEARNED,
                    format!(
                        "Table 1's one-layer Mamba answers 99–100% at every cell; learned at κ = {k}: at the worst length, an error at most ten times the \
                         paper's largest (1%)"
                    ),
                ),
                Criterion::new(
                    Row::Tf.metric(k),
                    Direction::AtMost,
                    STRUGGLES,
                    format!(
                        "Table 1's one-layer TF with conv and no PE 'struggles' (21–56%); at κ = {k}, at the best length, nearer the paper's best TF \
                         cell (56%) than its worst Mamba cell (99%): at most their midpoint"
                    ),
                ),
            ]
        })
        .collect()
}

/// One trained run (and the positive control's model scored on the same held-out sequences).
struct Run {
    row: Row,
    cell: Cell,
    seed: u64,
    accuracy: f64,
    anchor: f64,
    loss: Vec<f64>,
}

fn row(r: &Run) -> serde_json::Value {
    let paper = r.cell.paper().map(|(m, tf)| if r.row == Row::Mamba { m } else { tf } / 100.0);
    serde_json::json!({ "model": r.row.name(), "T": r.cell.len, "keys": r.cell.keys, "vocabulary": r.cell.shape().vocab, "seed": r.seed,
        "held_out_query_accuracy": r.accuracy, "positive_control_accuracy": r.anchor, "first_loss": r.loss[0], "last_loss": r.loss[r.loss.len() - 1],
        "paper_accuracy": paper })
}

/// The mean query accuracy of `model` on `held_out`.
fn mean_accuracy(model: &impl Classifier, held_out: &crate::train::recall::RecallBatch) -> crate::error::Result<f64> {
    let a = held_out_accuracies(model, held_out)?;
    Ok(a.iter().sum::<f64>() / a.len().max(1) as f64)
}

/// Trains one run; scores it and the row's positive-control model (the built mechanism for the
/// Mamba, the untrained head for the TF) on the same held-out sequences.
fn train(ctx: &crate::claim::Context, row: Row, cell: Cell, cfg: &RecallFit, test_size: usize, seed: u64) -> crate::error::Result<Run> {
    let keys = RunKeys::from_parts(|part| ctx.key(&format!("{row:?}/T{}k{}/{seed}/{part}", cell.len, cell.keys)));
    let shape = cell.shape();
    let held_out = recall_batch(shape, cfg, keys.test, 0, test_size)?;
    let (loss, accuracy, anchor) = match row {
        Row::Mamba => {
            let model = RecallMamba::init(shape, keys.init, Trainable::All)?;
            let built = RecallMamba::from_weights(shape, &slot_memory(shape)?, Trainable::All)?;
            (fit_recall(&model, shape, cfg, &keys)?, mean_accuracy(&model, &held_out)?, mean_accuracy(&built, &held_out)?)
        }
        Row::Tf => {
            let model = AttentionClassifier::init(AttentionShape { vocab: shape.vocab, d: shape.channels(), input: AttentionInput::Pair }, keys.init)?;
            let untrained = mean_accuracy(&model, &held_out)?;
            (fit_recall(&model, shape, cfg, &keys)?, mean_accuracy(&model, &held_out)?, untrained)
        }
    };
    ctx.progress.advance(1);
    Ok(Run { row, cell, seed, accuracy, anchor, loss })
}

/// Per seed, each row's worst (Mamba) or best (TF) accuracy over the lengths, at each κ: of the
/// trained runs, or (`anchor`) of the positive control's models.
fn replicates(configuration: &str, runs: &[Run], seeds: u64, anchor: bool) -> Replicates {
    let mut r = Replicates::new(configuration);
    for seed in 0..seeds {
        let metrics: Vec<(&'static str, f64)> = KAPPAS
            .iter()
            .flat_map(|&k| [Row::Mamba, Row::Tf].map(|row| (row, k)))
            .map(|(row, k)| {
                let values = runs.iter().filter(|x| x.seed == seed && x.row == row && x.cell.keys == k).map(|x| if anchor { x.anchor } else { x.accuracy });
                let value = match row {
                    Row::Mamba => values.fold(f64::INFINITY, f64::min),
                    Row::Tf => values.fold(f64::NEG_INFINITY, f64::max),
                };
                (row.metric(k), value)
            })
            .collect();
        r.push(seed, &metrics);
    }
    r
}

/// Held-out query accuracy against T, per row and κ: each seed (circles), the paper's
/// (crosses) and the two criteria.
fn table_figure(cells: &[Cell], runs: &[Run]) -> Figure {
    let mut fig = Figure::new(
        "accuracy_against_length",
        "MQAR query accuracy against T: 002 Table 1 at small scale, each seed, beside the paper's",
        "T",
        "held-out query accuracy",
    );
    let mut i = 0;
    for row in [Row::Mamba, Row::Tf] {
        for keys in KAPPAS {
            let ours: Vec<[f64; 2]> = runs.iter().filter(|r| r.row == row && r.cell.keys == keys).map(|r| [r.cell.len as f64, r.accuracy]).collect();
            let paper: Vec<[f64; 2]> = cells
                .iter()
                .filter(|c| c.keys == keys)
                .filter_map(|c| c.paper().map(|(m, tf)| [c.len as f64, if row == Row::Mamba { m } else { tf } / 100.0]))
                .collect();
            fig = fig.with(Series::new(format!("{}, κ = {keys}: each seed", row.name()), Style::Points, ours).color(i));
            if !paper.is_empty() {
                fig = fig.with(Series::new(format!("{}, κ = {keys}: paper", row.name()), Style::Crosses, paper).color(i));
            }
            i += 1;
        }
    }
    let lens: Vec<f64> = cells.iter().map(|c| c.len as f64).collect();
    let span = [lens.iter().copied().fold(f64::INFINITY, f64::min) * 0.9, lens.iter().copied().fold(0.0, f64::max) * 1.1];
    fig.with(Series::new(format!("Mamba: mean ≥ {LEARNED}"), Style::Dashed, span.map(|x| [x, LEARNED]).to_vec()))
        .with(Series::new(format!("TF: mean ≤ {STRUGGLES}"), Style::Dashed, span.map(|x| [x, STRUGGLES]).to_vec()))
        .caption(
            "Without a position the attention head sees every (key, value) pair of a queried key alike and cannot prefer the latest, which the \
             Mamba's decaying state does. The paper's numbers are at T ≥ 128 only.",
        )
}

fn table_check(targets: Targets) -> impl crate::claim::Check {
    custom(Kind::Training, move |ctx| {
        let seeds: u64 = ctx.size("seeds (each trains every cell and model once)", Sizes::new(5, 5, 8));
        let lens: Vec<usize> = ctx.size("sequence lengths T", Sizes::new(vec![64], vec![128], vec![128, 256, 512]));
        let steps: usize = ctx.size("Adam steps of 16 sequences", Sizes::new(600, 600, 1000));
        let test_size: usize = ctx.size("held-out sequences per run", Sizes::new(1000, 2000, 4000));
        let cells: Vec<Cell> = lens.iter().flat_map(|&len| KAPPAS.map(|keys| Cell { len, keys })).collect();
        let jobs: Vec<(Row, Cell, u64)> =
            [Row::Mamba, Row::Tf].iter().flat_map(|&row| cells.iter().flat_map(move |&c| (0..seeds).map(move |s| (row, c, s)))).collect();
        ctx.progress.expect(jobs.len() as u64);
        let cfg = |len| RecallFit { targets, ..RecallFit::new(len, RecallData::Latest { max_noise: MAX_NOISE }, steps, LR) };
        crate::parallel::enter();
        let runs: Vec<Run> =
            jobs.into_par_iter().map(|(row, cell, seed)| train(ctx, row, cell, &cfg(cell.len), test_size, seed)).collect::<crate::error::Result<_>>()?;
        let configuration = format!(
            "simplified Mamba (N = κ) and one attention head on the pair input without position, T ∈ {lens:?}, {steps} Adam steps of 16{}",
            if targets == Targets::Shuffled { ", targets shuffled" } else { "" }
        );
        let judged = replicates(&configuration, &runs, seeds, false);
        let positive = ControlRun {
            what: "the write / read / forget mechanism built by hand (N = κ) in the Mamba's place, the attention head at its random start in the TF's, \
                   scored on each run's held-out sequences"
                .into(),
            judgement: experiment::judge(&replicates("built mechanism and untrained head", &runs, seeds, true), &criteria()),
        };
        let paper = vec![
            PaperNumber::value("1-layer Mamba (conv), lowest cell (T = 256 and 512, κ = 4)", PAPER_MAMBA_LOWEST, "002 App. A, Table 1"),
            PaperNumber::value("1-layer TF with conv, no RoPE, highest cell (T = 128, κ = 4)", PAPER_TF_HIGHEST, "002 App. A, Table 1"),
            PaperNumber::words(
                "1-layer Mamba (conv) 100, 100, 100, 99, 100, 99; 1-layer TF (conv) 34, 56, 26, 42, 21, 36 (%; T = 128 × κ = 1, 4, then T = 256, T = 512)",
                "002 App. A, Table 1",
            ),
        ];
        let losses = runs.iter().filter(|r| r.seed == 0).map(|r| (format!("{}, T = {}, κ = {}", r.row.name(), r.cell.len, r.cell.keys), &r.loss[..]));
        let curves = super::loss_figure("Training loss (seed 0), 002 Table 1 at small scale", losses, 8, steps)
            .caption("Cross-entropy at the queries, means over windows of steps; the dashed line is ln 8, a uniform guess over κ = 1's vocabulary.");
        let cases = (runs.len() * test_size) as u64;
        let outcome = experiment::decide(experiment::judge(&judged, &criteria()), Some(positive), paper, cases)
            .detail("runs", runs.iter().map(row).collect::<Vec<_>>())
            .detail("per_seed_metrics", &judged)
            .detail(
                "setting",
                serde_json::json!({ "task": "Algorithm 1 (latest association), n_ε = 3", "vocabulary": "8 for κ = 1 (K = {0}), 12 for κ = 4", "T": lens, "keys": KAPPAS,
                    "mamba": "002's simplified Mamba: one-hot pair input, N = κ, learned W_Δ, b_Δ, Λ, W_B, W_C, read-out [−I I]",
                    "tf": "one causal softmax-attention head of width 2|V| on the learned pair embedding E′[x_{t−1}] + E[x_t], no position, linear read-out",
                    "steps": steps, "batch": 16, "learning_rate": LR, "loss": "cross-entropy at the queries", "held_out_sequences": test_size, "targets": format!("{targets:?}") }),
            )
            .detail("paper_setting", "Table 1: T ∈ {128, 256, 512}, κ ∈ {1, 4}; models 'of similar model sizes'; |V|, n_ε, training and seeds not given");
        Ok(outcome.figures([
            super::criteria_figure("002 Table 1: each seed's metrics and the criteria", &judged, &criteria()),
            table_figure(&cells, &runs),
            curves,
        ]))
    })
}

/// `002.table1` (experiment): App. A, Table 1's 1-layer rows at small scale.
fn claim() -> Claim {
    Claim::experiment(
        "002.table1",
        super::FAMILY,
        "On Algorithm 1's MQAR (the latest value of a key is asked; n_ε = 3, |V| = 8 for κ = 1 and 12 for κ = 4), at T = 64 / 128 / {128, 256, 512} (quick / \
         standard / deep) and κ ∈ {1, 4}, 002's one-layer simplified Mamba (N = κ) and a one-layer attention head on the same pair input without a position \
         (width 2|V|) are each trained once per seed, 5 / 5 / 8 seeds, by Adam (lr 0.02, 600 / 600 / 1000 steps of 16 fresh sequences, the loss at the \
         queries) and scored on 1000 / 2000 / 4000 held-out sequences: over the seeds, at each κ the Mamba's mean accuracy at its worst length is ≥ 0.9 and \
         the attention head's at its best length is ≤ 0.775 (Student-t intervals over seeds, two-sided 0.05, Bonferroni over the four). Positive control: \
         the mechanism built by hand and the untrained head.",
        table_check(Targets::Task),
    )
    .source(
        Paper::AssociativeRecall,
        "App. A, Table 1 (1-layer Mamba 99–100%; 1-layer TF with conv. 21–56%)",
        "We observe that Mamba (top row) and 2-layer Transformer with convolution layer and RoPE (bottom row) perform similarly, whereas Transformers without RoPE (second, third row) struggle to solve the task.",
    )
    .correction(
        "At a small scale (quick: T = 64, below the paper's smallest T). The Mamba row is 002's simplified Mamba, not the one-layer Mamba block the table \
         ran (a pilot on the block is in proofs/training.md); the 2-layer TF rows (with and without RoPE) are not rerun. The paper's 99–100% are set beside: \
         the simplified Mamba stays near 0.96 at κ = 4.",
    )
    .control("targets shuffled (independent uniform value tokens at the queries: nothing is learnable)", table_check(Targets::Shuffled))
}

/// Registers `002.table1`.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paper_has_every_deep_cell() {
        for len in [128, 256, 512] {
            for keys in KAPPAS {
                assert!(Cell { len, keys }.paper().is_some());
            }
        }
        assert_eq!(Cell { len: 256, keys: 4 }.paper(), Some((99.0, 42.0)));
        assert_eq!(Cell { len: 64, keys: 1 }.paper(), None);
    }

    /// The thresholds follow from the paper's printed extremes.
    #[test]
    fn the_thresholds_come_from_the_papers_numbers() {
        let paper = [100.0, 100.0, 100.0, 99.0, 100.0, 99.0];
        let tf = [34.0, 56.0, 26.0, 42.0, 21.0, 36.0];
        let lowest = paper.iter().copied().fold(f64::INFINITY, f64::min) / 100.0;
        let highest = tf.iter().copied().fold(0.0, f64::max) / 100.0;
        assert_eq!((lowest, highest), (PAPER_MAMBA_LOWEST, PAPER_TF_HIGHEST));
        assert!((LEARNED - (1.0 - 10.0 * (1.0 - lowest))).abs() < 1e-12);
        assert!((STRUGGLES - 0.775).abs() < 1e-12);
    }

    /// Per seed the Mamba's metric is its worst length and the TF's its best.
    #[test]
    fn a_seed_is_judged_at_the_mambas_worst_and_the_tfs_best_length() {
        let run = |row, len, keys, accuracy| Run { row, cell: Cell { len, keys }, seed: 0, accuracy, anchor: 1.0 - accuracy, loss: vec![1.0] };
        let runs: Vec<Run> = KAPPAS
            .iter()
            .flat_map(|&k| [run(Row::Mamba, 128, k, 0.99), run(Row::Mamba, 256, k, 0.95), run(Row::Tf, 128, k, 0.3), run(Row::Tf, 256, k, 0.4)])
            .collect();
        let r = replicates("test", &runs, 1, false);
        assert_eq!(r.values(Row::Mamba.metric(4)), [0.95]);
        assert_eq!(r.values(Row::Tf.metric(1)), [0.4]);
        let anchors = replicates("test", &runs, 1, true);
        assert_eq!(anchors.values(Row::Mamba.metric(1)), [1.0 - 0.99]);
    }
}
