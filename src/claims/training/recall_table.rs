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
//! * `002.table1.two_layer` (Experiment): the table's two-layer rows, "2-layer TF w/ RoPE"
//!   (with the convolution) and "2-layer TF" (without either), as [`TransformerLm`]s (two
//!   pre-norm layers, d_model 16, two heads, a GELU MLP ×4; RoPE and a width-4 convolution, or
//!   neither), each trained twice per seed and cell (the better run counts: the time to leave
//!   the loss plateau has a long tail). Per seed and κ: the RoPE model's accuracy at its worst
//!   length and the plain one's at its best; the first's mean ≥ 0.9 (the table's "perform
//!   similarly" to the Mamba, whose criterion it takes), the second's ≤ 0.705 (the midpoint of
//!   that row's best cell, 42%, and the Mamba's worst, 99%). Positive control: the built
//!   mechanism in the RoPE model's place, the untrained plain model in its own. Negative
//!   control: shuffled targets.

use crate::claim::experiment::{self, ControlRun, Criterion, Direction, PaperNumber, Replicates};
use crate::claim::{custom, Claim, Figure, Kind, Paper, Series, Sizes, Style};
use crate::train::attention::{AttentionClassifier, AttentionInput, AttentionShape};
use crate::train::fit::{Classifier, RunKeys, Targets};
use crate::train::recall::{fit_recall, held_out_accuracies, recall_batch, slot_memory, RecallData, RecallFit, RecallMamba, RecallShape, Trainable};
use crate::train::transformer::{Position, TransformerLm, TransformerShape};
use rayon::prelude::*;

/// The paper's one-layer Mamba's lowest accuracy in Table 1 (99%), and its TF's (conv, no PE)
/// highest (56%).
const PAPER_MAMBA_LOWEST: f64 = 0.99;
const PAPER_TF_HIGHEST: f64 = 0.56;
/// The highest accuracy of Table 1's "2-layer TF" (no conv, no RoPE): 42%.
const PAPER_TF2_HIGHEST: f64 = 0.42;
/// Held-out query accuracy that counts as learned: an error at most ten times the paper's
/// largest Mamba error, 1 − 10 · (1 − 0.99).
const LEARNED: f64 = super::RECALL_LEARNED;
/// Held-out query accuracy under which a model struggles: the midpoint of the paper's best TF
/// cell and its worst Mamba cell, nearer the TF.
const STRUGGLES: f64 = 0.5 * (PAPER_MAMBA_LOWEST + PAPER_TF_HIGHEST);
/// The same for the two-layer TF without RoPE: the midpoint of its best cell and the Mamba's
/// worst.
const STRUGGLES_TWO_LAYER: f64 = 0.5 * (PAPER_MAMBA_LOWEST + PAPER_TF2_HIGHEST);
/// Algorithm 1's maximum noise length (002 §3.1's probing run).
const MAX_NOISE: usize = 3;
/// The two κ of Table 1.
const KAPPAS: [usize; 2] = [1, 4];

/// A row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    /// 002's simplified Mamba, N = κ.
    Mamba,
    /// One causal attention head on the pair (previous, current token), no position.
    Tf,
    /// Two Transformer layers, no convolution, no position.
    Tf2,
    /// Two Transformer layers with RoPE and a short convolution.
    Tf2Rope,
}

impl Row {
    fn name(self) -> &'static str {
        match self {
            Row::Mamba => "1-layer Mamba",
            Row::Tf => "1-layer TF (conv, no PE)",
            Row::Tf2 => "2-layer TF (no conv, no PE)",
            Row::Tf2Rope => "2-layer TF w/ RoPE (conv)",
        }
    }

    /// Whether the paper has this row learn the task (judged at its worst length) or struggle
    /// (judged at its best).
    fn learns(self) -> bool {
        matches!(self, Row::Mamba | Row::Tf2Rope)
    }

    /// The per-seed metric of this row at κ: a learning row's worst length, a struggling row's
    /// best.
    fn metric(self, keys: usize) -> &'static str {
        match (self, keys) {
            (Row::Mamba, 1) => "mamba_worst_length_accuracy_kappa_1",
            (Row::Mamba, _) => "mamba_worst_length_accuracy_kappa_4",
            (Row::Tf, 1) => "tf_best_length_accuracy_kappa_1",
            (Row::Tf, _) => "tf_best_length_accuracy_kappa_4",
            (Row::Tf2Rope, 1) => "rope_tf_worst_length_accuracy_kappa_1",
            (Row::Tf2Rope, _) => "rope_tf_worst_length_accuracy_kappa_4",
            (Row::Tf2, 1) => "plain_tf_best_length_accuracy_kappa_1",
            (Row::Tf2, _) => "plain_tf_best_length_accuracy_kappa_4",
        }
    }

    /// The paper's accuracies (%) of this row at T = 128, 256, 512 and κ = 1, 4, in the table's
    /// order (T = 128 κ = 1, T = 128 κ = 4, T = 256 …).
    fn paper(self) -> [f64; 6] {
        match self {
            Row::Mamba => [100.0, 100.0, 100.0, 99.0, 100.0, 99.0],
            Row::Tf => [34.0, 56.0, 26.0, 42.0, 21.0, 36.0],
            Row::Tf2 => [30.0, 42.0, 22.0, 21.0, 15.0, 18.0],
            Row::Tf2Rope => [100.0, 100.0, 100.0, 96.0, 77.0, 90.0],
        }
    }

    /// The [`TransformerLm`] of a two-layer row.
    fn transformer(self) -> TransformerShape {
        let (position, conv_width) = if self == Row::Tf2Rope { (Position::Rope, Some(4)) } else { (Position::None, None) };
        TransformerShape { d_model: 16, heads: 2, mlp_ratio: 4, position, conv_width }
    }
}

/// The two parts of Table 1 the suite reruns, one claim each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// The one-layer rows: Mamba and TF (conv, no PE).
    OneLayer,
    /// The two-layer rows: TF w/ RoPE (conv) and TF (no conv).
    TwoLayer,
}

impl Part {
    /// The rows, the learning one first.
    fn rows(self) -> [Row; 2] {
        match self {
            Part::OneLayer => [Row::Mamba, Row::Tf],
            Part::TwoLayer => [Row::Tf2Rope, Row::Tf2],
        }
    }

    /// The struggling row's threshold.
    fn struggles(self) -> f64 {
        match self {
            Part::OneLayer => STRUGGLES,
            Part::TwoLayer => STRUGGLES_TWO_LAYER,
        }
    }

    /// Runs per seed, model and cell, of which the best counts: one for the one-layer models;
    /// two for the Transformers, whose time to leave the loss plateau has a long tail (a run in
    /// five or ten was still on it at the step budget, revision of 2026-11-29 in
    /// proofs/training.md) — the paper's own convention for trained MQAR (000: "best of 7
    /// seeds").
    fn restarts(self) -> usize {
        match self {
            Part::OneLayer => 1,
            Part::TwoLayer => 2,
        }
    }

    /// The Adam learning rate (constant): 002's figures' for the one-layer models; a
    /// Transformer's usual one, which both two-layer models reach their plateau with.
    fn lr(self) -> f64 {
        match self {
            Part::OneLayer => 0.02,
            Part::TwoLayer => 0.01,
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

    /// The paper's Table 1 accuracy (%) of `row` at this cell, if the table has the cell.
    fn paper(self, row: Row) -> Option<f64> {
        let cells = [(128, 1), (128, 4), (256, 1), (256, 4), (512, 1), (512, 4)];
        cells.iter().position(|&c| c == (self.len, self.keys)).map(|i| row.paper()[i])
    }
}

/// The criteria, fixed before the first run of each part's design (proofs/training.md).
fn criteria(part: Part) -> Vec<Criterion> {
    KAPPAS
        .iter()
        .flat_map(|&k| match part {
            Part::OneLayer => [
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
            ],
            Part::TwoLayer => [
                Criterion::new(
                    Row::Tf2Rope.metric(k),
                    Direction::AtLeast,
                    LEARNED,
                    format!(
                        "Table 1's 2-layer TF with RoPE and conv answers 100% at T = 128 and 'performs similarly' to the Mamba; learned at κ = {k}: at \
                         the worst length, the Mamba's criterion (an error at most ten times the Mamba's largest, 1%)"
                    ),
                ),
                Criterion::new(
                    Row::Tf2.metric(k),
                    Direction::AtMost,
                    STRUGGLES_TWO_LAYER,
                    format!(
                        "Table 1's 2-layer TF without conv and RoPE 'struggles' (15–42%); at κ = {k}, at the best length, nearer that row's best cell \
                         (42%) than the Mamba's worst (99%): at most their midpoint"
                    ),
                ),
            ],
        })
        .collect()
}

/// One trained run (and the positive control's model scored on the same held-out sequences).
struct Run {
    row: Row,
    cell: Cell,
    seed: u64,
    /// Which of the seed's restarts (0 for a part with one run per seed and cell).
    restart: usize,
    accuracy: f64,
    anchor: f64,
    loss: Vec<f64>,
}

fn row(r: &Run) -> serde_json::Value {
    let paper = r.cell.paper(r.row).map(|p| p / 100.0);
    let mut out = serde_json::json!({ "model": r.row.name(), "T": r.cell.len, "keys": r.cell.keys, "vocabulary": r.cell.shape().vocab, "seed": r.seed,
        "held_out_query_accuracy": r.accuracy, "positive_control_accuracy": r.anchor, "first_loss": r.loss[0], "last_loss": r.loss[r.loss.len() - 1],
        "paper_accuracy": paper });
    if matches!(r.row, Row::Tf2 | Row::Tf2Rope) {
        out["restart"] = r.restart.into();
    }
    out
}

/// The mean query accuracy of `model` on `held_out`.
fn mean_accuracy(model: &(impl Classifier + ?Sized), held_out: &crate::train::recall::RecallBatch) -> crate::error::Result<f64> {
    let a = held_out_accuracies(model, held_out)?;
    Ok(a.iter().sum::<f64>() / a.len().max(1) as f64)
}

/// Trains one run; scores it and the row's positive-control model (the built mechanism for a
/// learning row, the untrained model for a struggling one) on the same held-out sequences.
fn train(ctx: &crate::claim::Context, row: Row, cell: Cell, cfg: &RecallFit, test_size: usize, (seed, restart): (u64, usize)) -> crate::error::Result<Run> {
    let again = if restart == 0 { String::new() } else { format!("/restart {restart}") };
    let keys = RunKeys::from_parts(|part| ctx.key(&format!("{row:?}/T{}k{}/{seed}{again}/{part}", cell.len, cell.keys)));
    let shape = cell.shape();
    let held_out = recall_batch(shape, cfg, keys.test, 0, test_size)?;
    let fit = |model: &dyn Classifier| -> crate::error::Result<(Vec<f64>, f64, f64)> {
        let anchor = if row.learns() {
            mean_accuracy(&RecallMamba::from_weights(shape, &slot_memory(shape)?, Trainable::All)?, &held_out)?
        } else {
            mean_accuracy(model, &held_out)?
        };
        let loss = fit_recall(model, shape, cfg, &keys)?;
        Ok((loss, mean_accuracy(model, &held_out)?, anchor))
    };
    let (loss, accuracy, anchor) = match row {
        Row::Mamba => fit(&RecallMamba::init(shape, keys.init, Trainable::All)?)?,
        Row::Tf => fit(&AttentionClassifier::init(AttentionShape { vocab: shape.vocab, d: shape.channels(), input: AttentionInput::Pair }, keys.init)?)?,
        Row::Tf2 | Row::Tf2Rope => fit(&TransformerLm::init(row.transformer(), 2, shape.vocab, keys.init)?)?,
    };
    ctx.progress.advance(1);
    Ok(Run { row, cell, seed, restart, accuracy, anchor, loss })
}

/// Per seed, each row's worst (learning row) or best (struggling row) accuracy over the
/// lengths, at each κ: of the trained runs, or (`anchor`) of the positive control's models.
fn replicates(part: Part, configuration: &str, runs: &[Run], seeds: u64, anchor: bool) -> Replicates {
    let mut r = Replicates::new(configuration);
    for seed in 0..seeds {
        let metrics: Vec<(&'static str, f64)> = KAPPAS
            .iter()
            .flat_map(|&k| part.rows().map(|row| (row, k)))
            .map(|(row, k)| {
                // Each cell's best restart, then the row's worst or best cell.
                let of = |x: &Run| if anchor { x.anchor } else { x.accuracy };
                let mine = |x: &&Run| x.seed == seed && x.row == row && x.cell.keys == k;
                let cells: Vec<Cell> = runs.iter().filter(mine).map(|x| x.cell).fold(Vec::new(), |mut v, c| {
                    if !v.contains(&c) {
                        v.push(c);
                    }
                    v
                });
                let values = cells.into_iter().map(|c| runs.iter().filter(mine).filter(|x| x.cell == c).map(of).fold(f64::NEG_INFINITY, f64::max));
                let value = if row.learns() { values.fold(f64::INFINITY, f64::min) } else { values.fold(f64::NEG_INFINITY, f64::max) };
                (row.metric(k), value)
            })
            .collect();
        r.push(seed, &metrics);
    }
    r
}

/// What a part's figures and record say.
struct Words {
    /// The criterion lines' labels: the learning row's, the struggling row's.
    labels: [&'static str; 2],
    caption: &'static str,
    configuration: &'static str,
    positive: &'static str,
    figure: &'static str,
    loss: &'static str,
}

impl Part {
    fn words(self) -> Words {
        match self {
            Part::OneLayer => Words {
                labels: ["Mamba", "TF"],
                caption: "Without a position the attention head sees every (key, value) pair of a queried key alike and cannot prefer the latest, which \
                          the Mamba's decaying state does. The paper's numbers are at T ≥ 128 only.",
                configuration: "simplified Mamba (N = κ) and one attention head on the pair input without position",
                positive: "the write / read / forget mechanism built by hand (N = κ) in the Mamba's place, the attention head at its random start in the \
                           TF's, scored on each run's held-out sequences",
                figure: "002 Table 1: each seed's metrics and the criteria",
                loss: "Training loss (seed 0), 002 Table 1 at small scale",
            },
            Part::TwoLayer => Words {
                labels: ["2-layer TF w/ RoPE", "2-layer TF"],
                caption: "Rotary positions let attention prefer the latest (key, value) pair of a queried key; without positions or a convolution \
                          two layers of attention see the pairs alike. The paper's numbers are at T ≥ 128 only.",
                configuration: "two-layer Transformers (d_model 16, two heads, MLP ×4): RoPE with a width-4 convolution, and neither",
                positive: "the write / read / forget mechanism built by hand (N = κ) in the RoPE model's place, the plain model at its random start in \
                           its own, scored on each run's held-out sequences",
                figure: "002 Table 1, two-layer rows: each seed's metrics and the criteria",
                loss: "Training loss (seed 0), 002 Table 1's two-layer rows at small scale",
            },
        }
    }

    /// The paper's numbers set beside the measurement.
    fn paper_numbers(self) -> Vec<PaperNumber> {
        let source = "002 App. A, Table 1";
        match self {
            Part::OneLayer => vec![
                PaperNumber::value("1-layer Mamba (conv), lowest cell (T = 256 and 512, κ = 4)", PAPER_MAMBA_LOWEST, source),
                PaperNumber::value("1-layer TF with conv, no RoPE, highest cell (T = 128, κ = 4)", PAPER_TF_HIGHEST, source),
                PaperNumber::words(
                    "1-layer Mamba (conv) 100, 100, 100, 99, 100, 99; 1-layer TF (conv) 34, 56, 26, 42, 21, 36 (%; T = 128 × κ = 1, 4, then T = 256, T = 512)",
                    source,
                ),
            ],
            Part::TwoLayer => vec![
                PaperNumber::value("1-layer Mamba (conv), lowest cell (T = 256 and 512, κ = 4)", PAPER_MAMBA_LOWEST, source),
                PaperNumber::value("2-layer TF without conv and RoPE, highest cell (T = 128, κ = 4)", PAPER_TF2_HIGHEST, source),
                PaperNumber::words(
                    "2-layer TF w/ RoPE (conv) 100, 100, 100, 96, 77, 90; 2-layer TF (no conv) 30, 42, 22, 21, 15, 18 (%; T = 128 × κ = 1, 4, then T = 256, \
                     T = 512)",
                    source,
                ),
            ],
        }
    }

    /// The models as the record's setting names them.
    fn models(self) -> serde_json::Value {
        match self {
            Part::OneLayer => serde_json::json!({
                "mamba": "002's simplified Mamba: one-hot pair input, N = κ, learned W_Δ, b_Δ, Λ, W_B, W_C, read-out [−I I]",
                "tf": "one causal softmax-attention head of width 2|V| on the learned pair embedding E′[x_{t−1}] + E[x_t], no position, linear read-out" }),
            Part::TwoLayer => serde_json::json!({
                "rope_tf": "two pre-norm layers (RMSNorm; causal attention with two heads of width 8 and RoPE after a width-4 causal depthwise convolution; \
                            GELU MLP of width 64), d_model 16, learned embedding, untied read-out",
                "plain_tf": "the same without RoPE and without the convolution (no position information but the causal mask)" }),
        }
    }
}

/// Held-out query accuracy against T, per row and κ: each seed (circles), the paper's
/// (crosses) and the two criteria.
fn table_figure(part: Part, cells: &[Cell], runs: &[Run]) -> Figure {
    let mut fig = Figure::new(
        "accuracy_against_length",
        "MQAR query accuracy against T: 002 Table 1 at small scale, each seed, beside the paper's",
        "T",
        "held-out query accuracy",
    );
    let mut i = 0;
    for row in part.rows() {
        for keys in KAPPAS {
            let ours: Vec<[f64; 2]> = runs.iter().filter(|r| r.row == row && r.cell.keys == keys).map(|r| [r.cell.len as f64, r.accuracy]).collect();
            let paper: Vec<[f64; 2]> = cells.iter().filter(|c| c.keys == keys).filter_map(|c| c.paper(row).map(|p| [c.len as f64, p / 100.0])).collect();
            fig = fig.with(Series::new(format!("{}, κ = {keys}: each seed", row.name()), Style::Points, ours).color(i));
            if !paper.is_empty() {
                fig = fig.with(Series::new(format!("{}, κ = {keys}: paper", row.name()), Style::Crosses, paper).color(i));
            }
            i += 1;
        }
    }
    let lens: Vec<f64> = cells.iter().map(|c| c.len as f64).collect();
    let span = [lens.iter().copied().fold(f64::INFINITY, f64::min) * 0.9, lens.iter().copied().fold(0.0, f64::max) * 1.1];
    let (words, struggles) = (part.words(), part.struggles());
    fig.with(Series::new(format!("{}: mean ≥ {LEARNED}", words.labels[0]), Style::Dashed, span.map(|x| [x, LEARNED]).to_vec()))
        .with(Series::new(format!("{}: mean ≤ {struggles}", words.labels[1]), Style::Dashed, span.map(|x| [x, struggles]).to_vec()))
        .caption(words.caption)
}

fn table_check(part: Part, targets: Targets) -> impl crate::claim::Check {
    custom(Kind::Training, move |ctx| {
        let label = match part {
            Part::OneLayer => "seeds (each trains every cell and model once)",
            Part::TwoLayer => "seeds (each trains every cell and model twice; the better run counts)",
        };
        let seeds: u64 = ctx.size(label, Sizes::new(5, 5, 8));
        let (lens, steps) = match part {
            Part::OneLayer => (Sizes::new(vec![64], vec![128], vec![128, 256, 512]), Sizes::new(600, 600, 1000)),
            // Quick as standard but scored on fewer sequences: 300 steps, since at 200 a run in
            // seven was still on the loss plateau (proofs/training.md, 2026-12-01). At T = 64
            // the two models' runs took 280 s of the standard report; the larger scale is deep's.
            Part::TwoLayer => (Sizes::new(vec![32], vec![32], vec![128, 256]), Sizes::new(300, 300, 800)),
        };
        let lens: Vec<usize> = ctx.size("sequence lengths T", lens);
        let steps: usize = ctx.size("Adam steps of 16 sequences", steps);
        let test_size: usize = ctx.size("held-out sequences per run", Sizes::new(1000, 2000, 4000));
        let cells: Vec<Cell> = lens.iter().flat_map(|&len| KAPPAS.map(|keys| Cell { len, keys })).collect();
        let restarts = part.restarts();
        let jobs: Vec<(Row, Cell, (u64, usize))> = part
            .rows()
            .iter()
            .flat_map(|&row| cells.iter().flat_map(move |&c| (0..seeds).flat_map(move |s| (0..restarts).map(move |r| (row, c, (s, r))))))
            .collect();
        ctx.progress.expect(jobs.len() as u64);
        let lr = part.lr();
        let cfg = |len| RecallFit { targets, ..RecallFit::new(len, RecallData::Latest { max_noise: MAX_NOISE }, steps, lr) };
        crate::parallel::enter();
        let runs: Vec<Run> =
            jobs.into_par_iter().map(|(row, cell, seed)| train(ctx, row, cell, &cfg(cell.len), test_size, seed)).collect::<crate::error::Result<_>>()?;
        let words = part.words();
        let configuration =
            format!("{}, T ∈ {lens:?}, {steps} Adam steps of 16{}", words.configuration, if targets == Targets::Shuffled { ", targets shuffled" } else { "" });
        let judged = replicates(part, &configuration, &runs, seeds, false);
        let anchors = match part {
            Part::OneLayer => "built mechanism and untrained head",
            Part::TwoLayer => "built mechanism and untrained plain model",
        };
        let positive =
            ControlRun { what: words.positive.into(), judgement: experiment::judge(&replicates(part, anchors, &runs, seeds, true), &criteria(part)) };
        let losses =
            runs.iter().filter(|r| r.seed == 0 && r.restart == 0).map(|r| (format!("{}, T = {}, κ = {}", r.row.name(), r.cell.len, r.cell.keys), &r.loss[..]));
        let curves = super::loss_figure(words.loss, losses, 8, steps)
            .caption("Cross-entropy at the queries, means over windows of steps; the dashed line is ln 8, a uniform guess over κ = 1's vocabulary.");
        let cases = (runs.len() * test_size) as u64;
        let mut setting = serde_json::json!({ "task": "Algorithm 1 (latest association), n_ε = 3", "vocabulary": "8 for κ = 1 (K = {0}), 12 for κ = 4", "T": lens, "keys": KAPPAS,
            "steps": steps, "batch": 16, "learning_rate": lr, "loss": "cross-entropy at the queries", "held_out_sequences": test_size, "targets": format!("{targets:?}") });
        if let (Some(to), serde_json::Value::Object(models)) = (setting.as_object_mut(), part.models()) {
            to.extend(models);
        }
        let outcome = experiment::decide(experiment::judge(&judged, &criteria(part)), Some(positive), part.paper_numbers(), cases)
            .detail("runs", runs.iter().map(row).collect::<Vec<_>>())
            .detail("per_seed_metrics", &judged)
            .detail("setting", setting)
            .detail("paper_setting", "Table 1: T ∈ {128, 256, 512}, κ ∈ {1, 4}; models 'of similar model sizes'; |V|, n_ε, training and seeds not given");
        Ok(outcome.figures([super::criteria_figure(words.figure, &judged, &criteria(part)), table_figure(part, &cells, &runs), curves]))
    })
}

/// The sentence of Table 1 both claims test.
const TABLE1_QUOTE: &str = "We observe that Mamba (top row) and 2-layer Transformer with convolution layer and RoPE (bottom row) perform similarly, whereas Transformers without RoPE (second, third row) struggle to solve the task.";

/// `002.table1` (experiment): App. A, Table 1's 1-layer rows at small scale.
fn one_layer() -> Claim {
    Claim::experiment(
        "002.table1",
        super::FAMILY,
        "On Algorithm 1's MQAR (the latest value of a key is asked; n_ε = 3, |V| = 8 for κ = 1 and 12 for κ = 4), at T = 64 / 128 / {128, 256, 512} (quick / \
         standard / deep) and κ ∈ {1, 4}, 002's one-layer simplified Mamba (N = κ) and a one-layer attention head on the same pair input without a position \
         (width 2|V|) are each trained once per seed, 5 / 5 / 8 seeds, by Adam (lr 0.02, 600 / 600 / 1000 steps of 16 fresh sequences, the loss at the \
         queries) and scored on 1000 / 2000 / 4000 held-out sequences: over the seeds, at each κ the Mamba's mean accuracy at its worst length is ≥ 0.9 and \
         the attention head's at its best length is ≤ 0.775 (Student-t intervals over seeds, two-sided 0.05, Bonferroni over the four). Positive control: \
         the mechanism built by hand and the untrained head.",
        table_check(Part::OneLayer, Targets::Task),
    )
    .source(Paper::AssociativeRecall, "App. A, Table 1 (1-layer Mamba 99–100%; 1-layer TF with conv. 21–56%)", TABLE1_QUOTE)
    .correction(
        "At a small scale (quick: T = 64, below the paper's smallest T). The Mamba row is 002's simplified Mamba, not the one-layer Mamba block the table \
         ran (a pilot on the block is in proofs/training.md); the 2-layer TF rows are 002.table1.two_layer. The paper's 99–100% are set beside: the \
         simplified Mamba stays near 0.96 at κ = 4.",
    )
    .control(super::SHUFFLED_TARGETS, table_check(Part::OneLayer, Targets::Shuffled))
}

/// `002.table1.two_layer` (experiment): App. A, Table 1's 2-layer rows at small scale.
fn two_layer() -> Claim {
    Claim::experiment(
        "002.table1.two_layer",
        super::FAMILY,
        "On Algorithm 1's MQAR (the latest value of a key is asked; n_ε = 3, |V| = 8 for κ = 1 and 12 for κ = 4), at T = 32 / 32 / {128, 256} (quick / \
         standard / deep) and κ ∈ {1, 4}, two two-layer Transformers (pre-norm, d_model 16, two heads, a GELU MLP ×4) — one with RoPE and a width-4 causal \
         convolution before attention, one with neither — are each trained twice per seed (the better run counts), 5 / 5 / 8 seeds, by Adam (lr 0.01, \
         300 / 300 / 800 steps of 16 fresh sequences, the loss at the queries) and scored on 1000 / 2000 / 4000 held-out sequences: over the seeds, at each \
         κ the RoPE model's mean accuracy at its worst length is ≥ 0.9 and the plain model's at its best length is ≤ 0.705 (Student-t intervals over seeds, two-sided 0.05, \
         Bonferroni over the four). Positive control: the mechanism built by hand in the RoPE model's place and the untrained plain model.",
        table_check(Part::TwoLayer, Targets::Task),
    )
    .source(Paper::AssociativeRecall, "App. A, Table 1 (2-layer TF w/ RoPE 77–100%; 2-layer TF 15–42%)", TABLE1_QUOTE)
    .correction(
        "At a small scale (T = 32 / 32 / {128, 256} against the paper's 128–512; T = 512, where the paper's RoPE model drops to 77%, is not rerun), with \
         d_model 16 (6.8k parameters, against the one-layer Mamba's 'similar' size the paper does not give). The paper does not say where its \
         convolution sits or its width: here a causal depthwise convolution of width 4 (Mamba's) on each attention layer's normalised input.",
    )
    .control(super::SHUFFLED_TARGETS, table_check(Part::TwoLayer, Targets::Shuffled))
}

/// Registers `002.table1` and `002.table1.two_layer`.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(one_layer());
    r.add(two_layer());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paper_has_every_deep_cell() {
        for len in [128, 256, 512] {
            for keys in KAPPAS {
                assert!(Cell { len, keys }.paper(Row::Tf2).is_some());
            }
        }
        assert_eq!((Cell { len: 256, keys: 4 }.paper(Row::Mamba), Cell { len: 256, keys: 4 }.paper(Row::Tf)), (Some(99.0), Some(42.0)));
        assert_eq!(Cell { len: 512, keys: 1 }.paper(Row::Tf2Rope), Some(77.0));
        assert_eq!(Cell { len: 64, keys: 1 }.paper(Row::Mamba), None);
    }

    /// The thresholds follow from the paper's printed extremes.
    #[test]
    fn the_thresholds_come_from_the_papers_numbers() {
        let extreme = |row: Row, lowest: bool| {
            let v = row.paper().into_iter();
            (if lowest { v.fold(f64::INFINITY, f64::min) } else { v.fold(0.0, f64::max) }) / 100.0
        };
        assert_eq!((extreme(Row::Mamba, true), extreme(Row::Tf, false), extreme(Row::Tf2, false)), (PAPER_MAMBA_LOWEST, PAPER_TF_HIGHEST, PAPER_TF2_HIGHEST));
        assert!((LEARNED - (1.0 - 10.0 * (1.0 - PAPER_MAMBA_LOWEST))).abs() < 1e-12);
        assert!((STRUGGLES - 0.775).abs() < 1e-12 && (STRUGGLES_TWO_LAYER - 0.705).abs() < 1e-12);
        // The RoPE model's cells at the lengths rerun (T ≤ 256) all clear the learned line.
        assert!(Row::Tf2Rope.paper()[..4].iter().all(|&p| p / 100.0 >= LEARNED));
    }

    /// Per seed the Mamba's metric is its worst length and the TF's its best.
    #[test]
    fn a_seed_is_judged_at_the_mambas_worst_and_the_tfs_best_length() {
        let run = |row, len, keys, accuracy| Run { row, cell: Cell { len, keys }, seed: 0, restart: 0, accuracy, anchor: 1.0 - accuracy, loss: vec![1.0] };
        let runs: Vec<Run> = KAPPAS
            .iter()
            .flat_map(|&k| [run(Row::Mamba, 128, k, 0.99), run(Row::Mamba, 256, k, 0.95), run(Row::Tf, 128, k, 0.3), run(Row::Tf, 256, k, 0.4)])
            .collect();
        let r = replicates(Part::OneLayer, "test", &runs, 1, false);
        assert_eq!(r.values(Row::Mamba.metric(4)), [0.95]);
        assert_eq!(r.values(Row::Tf.metric(1)), [0.4]);
        let anchors = replicates(Part::OneLayer, "test", &runs, 1, true);
        assert_eq!(anchors.values(Row::Mamba.metric(1)), [1.0 - 0.99]);
    }

    /// With restarts, each cell counts its best run; then the learning row its worst cell.
    #[test]
    fn each_cell_counts_its_best_restart() {
        let run = |row, len, keys, restart, accuracy| Run { row, cell: Cell { len, keys }, seed: 0, restart, accuracy, anchor: 1.0, loss: vec![1.0] };
        let runs: Vec<Run> = KAPPAS
            .iter()
            .flat_map(|&k| {
                [
                    run(Row::Tf2Rope, 128, k, 0, 0.80),
                    run(Row::Tf2Rope, 128, k, 1, 0.99),
                    run(Row::Tf2Rope, 256, k, 0, 0.95),
                    run(Row::Tf2Rope, 256, k, 1, 0.70),
                    run(Row::Tf2, 128, k, 0, 0.3),
                    run(Row::Tf2, 128, k, 1, 0.5),
                ]
            })
            .collect();
        let r = replicates(Part::TwoLayer, "test", &runs, 1, false);
        assert_eq!(r.values(Row::Tf2Rope.metric(4)), [0.95]);
        assert_eq!(r.values(Row::Tf2.metric(1)), [0.5]);
    }
}
