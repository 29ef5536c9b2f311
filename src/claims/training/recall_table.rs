//! 002 App. A, Table 1: on the paper's MQAR (Algorithm 1: the *latest* value of each key is
//! asked), a one-layer Mamba answers 99–100% of the queries at T = 128, 256, 512 and κ = 1, 4,
//! while Transformers without positional encoding "struggle" (a one-layer TF with a
//! convolution: 21–56%).
//!
//! * `002.table1` (Experiment): 002's simplified Mamba ([`crate::train::recall`], N = κ) and
//!   the one-layer attention baseline with the same pair input and no position
//!   ([`AttentionInput::Pair`], width d = 2|V|, the Mamba's channel count) trained on Algorithm 1's
//!   sequences (n_ε = 3; |V| = 8 for κ = 1, 12 for κ = 4) at the cells that fit a CPU. Reproduced
//!   when in every cell every Mamba run's held-out query accuracy is ≥ 0.9 (learned, as in
//!   `002.fig5`) and every TF run's ≤ 0.75 (struggles: the paper's best TF-with-conv cell is 56%),
//!   each decided by a Hoeffding interval at family-wise α = 10⁻⁴ (Bonferroni over the runs); not
//!   reproduced when an interval lies wholly on the wrong side. The paper's numbers are set
//!   beside each cell, not judged: the simplified Mamba's κ = 4 accuracy stays near 0.97, under
//!   the paper's 99–100% (also seen in `002.fig6`). Control: shuffled targets.

use crate::claim::{custom, Claim, Comparison, Figure, Kind, Outcome, Paper, Relation, Series, Sizes, Style, Verdict, ALPHA};
use crate::stats::hoeffding_half_width;
use crate::train::adam::AdamConfig;
use crate::train::attention::{AttentionClassifier, AttentionInput, AttentionShape};
use crate::train::fit::{RunKeys, Targets};
use crate::train::recall::{fit_recall, held_out_accuracies, recall_batch, RecallData, RecallFit, RecallMamba, RecallShape, Trainable};
use rayon::prelude::*;

/// Held-out query accuracy that counts as learned (the Mamba row), and as struggling (the TF).
const LEARNED: f64 = 0.9;
const STRUGGLES: f64 = 0.75;
/// Algorithm 1's maximum noise length (002 §3.1's probing run).
const MAX_NOISE: usize = 3;
/// The Adam learning rate (constant), as for 002's figures.
const LR: f64 = 0.02;

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

/// One trained run.
struct Run {
    row: Row,
    cell: Cell,
    seed: u64,
    accuracy: f64,
    interval: [f64; 2],
    loss: Vec<f64>,
}

impl Run {
    /// Signed distance of the interval from the row's side of its threshold (negative: lost).
    fn margin(&self) -> f64 {
        match self.row {
            Row::Mamba => self.interval[0] - LEARNED,
            Row::Tf => STRUGGLES - self.interval[1],
        }
    }

    /// The interval lies wholly on the wrong side.
    fn lost(&self) -> bool {
        match self.row {
            Row::Mamba => self.interval[1] < LEARNED,
            Row::Tf => self.interval[0] > STRUGGLES,
        }
    }
}

fn row(r: &Run) -> serde_json::Value {
    let paper = r.cell.paper().map(|(m, tf)| if r.row == Row::Mamba { m } else { tf } / 100.0);
    serde_json::json!({ "model": r.row.name(), "T": r.cell.len, "keys": r.cell.keys, "vocabulary": r.cell.shape().vocab, "seed": r.seed,
        "held_out_query_accuracy": r.accuracy, "interval": r.interval, "first_loss": r.loss[0], "last_loss": r.loss[r.loss.len() - 1], "paper_accuracy": paper })
}

fn train(ctx: &crate::claim::Context, row: Row, cell: Cell, cfg: &RecallFit, test_size: usize, seed: u64, half: f64) -> crate::error::Result<Run> {
    let keys = RunKeys::from_parts(|part| ctx.key(&format!("{row:?}/T{}k{}/{seed}/{part}", cell.len, cell.keys)));
    let shape = cell.shape();
    let held_out = recall_batch(shape, cfg, keys.test, 0, test_size)?;
    let (loss, accuracies) = match row {
        Row::Mamba => {
            let model = RecallMamba::init(shape, keys.init, Trainable::All)?;
            (fit_recall(&model, shape, cfg, &keys)?, held_out_accuracies(&model, &held_out)?)
        }
        Row::Tf => {
            let model = AttentionClassifier::init(AttentionShape { vocab: shape.vocab, d: shape.channels(), input: AttentionInput::Pair }, keys.init)?;
            (fit_recall(&model, shape, cfg, &keys)?, held_out_accuracies(&model, &held_out)?)
        }
    };
    ctx.progress.advance(1);
    let accuracy = accuracies.iter().sum::<f64>() / accuracies.len().max(1) as f64;
    Ok(Run { row, cell, seed, accuracy, interval: [(accuracy - half).max(0.0), (accuracy + half).min(1.0)], loss })
}

/// The mean held-out query accuracy of a row's runs at a cell (`None`: not trained).
fn mean_accuracy(runs: &[Run], row: Row, cell: Cell) -> Option<f64> {
    let a: Vec<f64> = runs.iter().filter(|r| r.row == row && r.cell == cell).map(|r| r.accuracy).collect();
    (!a.is_empty()).then(|| a.iter().sum::<f64>() / a.len() as f64)
}

/// Held-out query accuracy against T, per row and κ (mean over seeds), with the paper's.
fn table_figure(cells: &[Cell], runs: &[Run]) -> Figure {
    let mut fig =
        Figure::new("accuracy_against_length", "MQAR query accuracy against T: 002 Table 1 at small scale beside the paper's", "T", "held-out query accuracy");
    let mut i = 0;
    for row in [Row::Mamba, Row::Tf] {
        for keys in [1, 4] {
            let here: Vec<&Cell> = cells.iter().filter(|c| c.keys == keys).collect();
            let ours: Vec<[f64; 2]> = here.iter().filter_map(|&&c| mean_accuracy(runs, row, c).map(|a| [c.len as f64, a])).collect();
            if ours.is_empty() {
                continue;
            }
            let paper: Vec<[f64; 2]> =
                here.iter().filter_map(|c| c.paper().map(|(m, tf)| [c.len as f64, if row == Row::Mamba { m } else { tf } / 100.0])).collect();
            // A line needs two lengths (deep); one length (quick, standard) is drawn as a point.
            let style = if ours.len() > 1 { Style::Line } else { Style::Points };
            fig = fig.with(Series::new(format!("{}, κ = {keys}: here", row.name()), style, ours).color(i));
            if !paper.is_empty() {
                fig = fig.with(Series::new(format!("{}, κ = {keys}: paper", row.name()), Style::Crosses, paper).color(i));
            }
            i += 1;
        }
    }
    fig.caption(format!(
        "Means over seeds. Reproduced when every Mamba run is ≥ {LEARNED} and every TF run ≤ {STRUGGLES}. Without a position the attention head sees every \
         (key, value) pair of a queried key alike and cannot prefer the latest, which the Mamba's decaying state does."
    ))
}

fn table_check(targets: Targets) -> impl crate::claim::Check {
    custom(Kind::Training, move |ctx| {
        let seeds: u64 = ctx.size("training runs (seeds) per cell and model", Sizes::new(1, 1, 2));
        let lens: Vec<usize> = ctx.size("sequence lengths T", Sizes::new(vec![64], vec![128], vec![128, 256, 512]));
        let steps: usize = ctx.size("Adam steps of 16 sequences", Sizes::new(600, 600, 1000));
        let test_size: usize = ctx.size("held-out sequences per run", Sizes::new(4000, 4000, 6000));
        let cells: Vec<Cell> = lens.iter().flat_map(|&len| [1, 4].map(|keys| Cell { len, keys })).collect();
        let runs_total = 2 * cells.len() * seeds as usize;
        let half = hoeffding_half_width(test_size, 1.0, ALPHA / runs_total as f64);
        ctx.progress.expect(runs_total as u64);
        let cfg = |len| RecallFit {
            len,
            data: RecallData::Latest { max_noise: MAX_NOISE },
            steps,
            batch: 16,
            adam: AdamConfig { lr: LR, ..Default::default() },
            targets,
        };
        let train_row = |row: Row| -> crate::error::Result<Vec<Run>> {
            let jobs: Vec<(Cell, u64)> = cells.iter().flat_map(|&c| (0..seeds).map(move |s| (c, s))).collect();
            crate::parallel::enter();
            jobs.into_par_iter().map(|(cell, seed)| train(ctx, row, cell, &cfg(cell.len), test_size, seed, half)).collect()
        };
        // The Mamba row first: if it does not learn, the experiment is not reproduced whatever
        // the TF does, and the TF is not trained.
        let mut runs = train_row(Row::Mamba)?;
        if !runs.iter().any(Run::lost) {
            runs.extend(train_row(Row::Tf)?);
        }
        let summary_cells: Vec<String> = cells
            .iter()
            .map(|&c| {
                let mean = |row: Row| mean_accuracy(&runs, row, c).map_or("not trained".to_string(), |a| format!("{a:.3}"));
                let paper = |pick: fn((f64, f64)) -> f64| c.paper().map_or("no such cell".to_string(), |p| format!("{}%", pick(p)));
                format!("T = {} κ = {}: Mamba {} (paper {}), TF {} (paper {})", c.len, c.keys, mean(Row::Mamba), paper(|p| p.0), mean(Row::Tf), paper(|p| p.1))
            })
            .collect();
        let summary =
            format!("held-out query accuracy, mean of {seeds} seed(s) ± {half:.3} (Hoeffding, family-wise α = {ALPHA:e}): {}", summary_cells.join("; "));
        let worst = runs.iter().min_by(|a, b| a.margin().total_cmp(&b.margin())).expect("at least one run");
        let verdict = if worst.lost() {
            let (threshold, relation, limit, lhs_is, rhs_is) = match worst.row {
                Row::Mamba => (LEARNED, Relation::AtLeast, worst.interval[1], "the Mamba's held-out query accuracy, upper limit", "0.9: learned"),
                Row::Tf => (STRUGGLES, Relation::AtMost, worst.interval[0], "the TF's held-out query accuracy, lower limit", "0.75: struggles"),
            };
            let signed = if relation == Relation::AtLeast { limit - threshold } else { threshold - limit };
            let violation =
                Comparison::custom(limit, threshold, relation, signed, "distance of the interval's near end from the threshold").named(lhs_is, rhs_is);
            Verdict::Refuted {
                counterexample: row(worst),
                violation,
                margin: signed,
                summary: format!("{} at T = {}, κ = {}; {summary}", worst.row.name(), worst.cell.len, worst.cell.keys),
            }
        } else if worst.margin() >= 0.0 {
            Verdict::Holds { evidence: summary }
        } else {
            Verdict::Inconclusive { why: format!("an interval straddles its threshold; {summary}") }
        };
        let losses = runs.iter().filter(|r| r.seed == 0).map(|r| (format!("{}, T = {}, κ = {}", r.row.name(), r.cell.len, r.cell.keys), &r.loss[..]));
        let curves = super::loss_figure("Training loss (seed 0), 002 Table 1 at small scale", losses, 8, steps)
            .caption("Cross-entropy at the queries, means over windows of steps; the dashed line is ln 8, a uniform guess over κ = 1's vocabulary.");
        Ok(Outcome::new(verdict, (runs.len() * test_size) as u64, Some(worst.margin()))
            .detail("runs", runs.iter().map(row).collect::<Vec<_>>())
            .detail(
                "setting",
                serde_json::json!({ "task": "Algorithm 1 (latest association), n_ε = 3", "vocabulary": "8 for κ = 1 (K = {0}), 12 for κ = 4", "T": lens, "keys": [1, 4],
                    "mamba": "002's simplified Mamba: one-hot pair input, N = κ, learned W_Δ, b_Δ, Λ, W_B, W_C, read-out [−I I]",
                    "tf": "one causal softmax-attention head of width 2|V| on the learned pair embedding E′[x_{t−1}] + E[x_t], no position, linear read-out",
                    "steps": steps, "batch": 16, "learning_rate": LR, "loss": "cross-entropy at the queries", "held_out_sequences": test_size, "targets": format!("{targets:?}") }),
            )
            .detail("paper_setting", "Table 1: T ∈ {128, 256, 512}, κ ∈ {1, 4}; models 'of similar model sizes'; |V|, n_ε, training and seeds not given")
            .detail("paper_numbers", "1-layer Mamba (conv) 100, 100, 100, 99, 100, 99; 1-layer TF (conv) 34, 56, 26, 42, 21, 36 (%; T = 128, 256, 512 × κ = 1, 4)")
            .detail("criterion", format!("reproduced: every Mamba run ≥ {LEARNED} and every TF run ≤ {STRUGGLES} (held-out query accuracy, Hoeffding intervals); the paper's numbers are reported beside, not judged"))
            .detail("confidence", format!("Hoeffding ± {half:.4} per run, family-wise α = {ALPHA:e}, Bonferroni over {runs_total} runs"))
            .detail(
                "power",
                format!(
                    "a Mamba run is decided as learned at a measured accuracy ≥ {:.3} and as not at < {:.3}; a TF run as struggling at ≤ {:.3} and as not at > {:.3}",
                    LEARNED + half,
                    LEARNED - half,
                    STRUGGLES - half,
                    STRUGGLES + half
                ),
            )
            .figures([table_figure(&cells, &runs), curves]))
    })
}

/// `002.table1` (experiment): App. A, Table 1's 1-layer rows at small scale.
fn claim() -> Claim {
    Claim::experiment(
        "002.table1",
        super::FAMILY,
        "On Algorithm 1's MQAR (the latest value of a key is asked; n_ε = 3, |V| = 8 for κ = 1 and 12 for κ = 4), at T = 64 / 128 / {128, 256, 512} (quick / \
         standard / deep) and κ ∈ {1, 4}, trained by Adam (lr 0.02, 600 / 600 / 1000 steps of 16 fresh sequences, the loss at the queries) from 1 / 1 / 2 seeds: \
         every run of 002's one-layer simplified Mamba (N = κ) reaches held-out query accuracy ≥ 0.9, and every run of a one-layer attention head on the same \
         pair input without a position (width 2|V|) stays ≤ 0.75 (Hoeffding intervals over 4000 / 4000 / 6000 held-out sequences, family-wise α = 1e−4).",
        table_check(Targets::Task),
    )
    .source(
        Paper::AssociativeRecall,
        "App. A, Table 1 (1-layer Mamba 99–100%; 1-layer TF with conv. 21–56%)",
        "We observe that Mamba (top row) and 2-layer Transformer with convolution layer and RoPE (bottom row) perform similarly, whereas Transformers without RoPE (second, third row) struggle to solve the task.",
    )
    .correction(
        "At a small scale (quick: T = 64, below the paper's smallest T); the 2-layer TF rows are not rerun; the paper's 99–100% are reported beside, not \
         judged: the simplified Mamba stays near 0.97 at κ = 4 (proofs/training.md).",
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

    fn run(row: Row, interval: [f64; 2]) -> Run {
        Run { row, cell: Cell { len: 128, keys: 1 }, seed: 0, accuracy: 0.5 * (interval[0] + interval[1]), interval, loss: vec![1.0] }
    }

    #[test]
    fn each_row_has_its_side() {
        assert!(run(Row::Mamba, [0.92, 1.0]).margin() > 0.0);
        assert!(run(Row::Mamba, [0.8, 0.89]).lost());
        assert!(!run(Row::Mamba, [0.85, 0.95]).lost() && run(Row::Mamba, [0.85, 0.95]).margin() < 0.0);
        assert!(run(Row::Tf, [0.4, 0.5]).margin() > 0.0);
        assert!(run(Row::Tf, [0.76, 0.86]).lost());
        assert!(!run(Row::Tf, [0.7, 0.8]).lost() && run(Row::Tf, [0.7, 0.8]).margin() < 0.0);
    }

    #[test]
    fn the_paper_has_every_deep_cell() {
        for len in [128, 256, 512] {
            for keys in [1, 4] {
                assert!(Cell { len, keys }.paper().is_some());
            }
        }
        assert_eq!(Cell { len: 256, keys: 4 }.paper(), Some((99.0, 42.0)));
        assert_eq!(Cell { len: 64, keys: 1 }.paper(), None);
    }
}
