//! The training family: the papers' experiments with trained models, rerun at a small scale
//! on the CPU ([`crate::train`]), each an [`Experiment`](crate::claim::Status::Experiment) whose
//! verdict is *reproduced* or *not reproduced at this scale* — never an erratum of the paper;
//! and what a paper's text says of its own printed experiment tables, checked cell by cell
//! (`printed`: property claims over the printed numbers, which can be errata).
//! Settings, criteria and what was scaled down: `proofs/training.md`.

use crate::claim::experiment::{Criterion, Replicates};
use crate::claim::{Family, Figure, Registry, Series, Style};

pub(crate) mod copy_examples;
pub(crate) mod copy_left;
pub(crate) mod decays;
pub(crate) mod induction_heads;
pub(crate) mod keep_fifth;
pub(crate) mod mqar_sizes;
pub(crate) mod mqar_states;
pub(crate) mod printed;
pub(crate) mod readout;
pub(crate) mod recall_gate;
pub(crate) mod recall_spikes;
pub(crate) mod recall_table;

/// The negative control of the recall experiments that train on shuffled targets
/// ([`Targets::Shuffled`](crate::train::fit::Targets::Shuffled)), as their claims name it.
const SHUFFLED_TARGETS: &str = "targets shuffled (independent uniform value tokens at the queries: nothing is learnable)";

/// The training family: the papers' trained-model experiments at small scale.
pub const FAMILY: Family = Family::new("training");

/// Registers the training claims.
pub fn register(r: &mut Registry) {
    keep_fifth::register(r);
    printed::register(r);
    decays::register(r);
    induction_heads::register(r);
    mqar_states::register(r);
    mqar_sizes::register(r);
    recall_gate::register(r);
    recall_spikes::register(r);
    readout::register(r);
    recall_table::register(r);
    copy_examples::register(r);
    copy_left::register(r);
}

/// The training-loss figure: each run's loss per step (means over windows, at most 200 points)
/// and the loss of a uniform guess over `vocab` tokens, ln |V|.
fn loss_figure<'a>(title: &str, runs: impl IntoIterator<Item = (String, &'a [f64])>, vocab: usize, steps: usize) -> Figure {
    let mut fig = Figure::new("training_loss", title, "Adam step", "cross-entropy (nats)");
    for (i, (name, loss)) in runs.into_iter().enumerate() {
        let every = (loss.len() / 200).max(1);
        let points = loss.chunks(every).enumerate().map(|(j, c)| [(j * every) as f64, c.iter().sum::<f64>() / c.len() as f64]).collect();
        fig = fig.with(Series::new(name, Style::Line, points).color(i));
    }
    let chance = (vocab as f64).ln();
    fig.with(Series::new("ln |V| (uniform guess)", Style::Dashed, vec![[0.0, chance], [steps as f64, chance]]))
}

/// Each judged metric's value at every seed (circles, one colour per criterion) and its
/// criterion's threshold (dashed, the same colour): the picture of a [`crate::claim::experiment::judge`]
/// decision. The metrics should share a scale (fractions, accuracies).
fn criteria_figure(title: &str, judged: &Replicates, criteria: &[Criterion]) -> Figure {
    let mut fig = Figure::new("per_seed_metrics", title, "seed", "metric");
    let last = judged.seeds.iter().copied().max().unwrap_or(0).max(1) as f64;
    for (i, c) in criteria.iter().enumerate() {
        let points = judged.seeds.iter().zip(judged.values(c.metric)).map(|(&s, &v)| [s as f64, v]).collect();
        fig = fig.with(Series::new(c.metric, Style::Points, points).color(i)).with(
            Series::new(format!("{} {} {}", c.metric, c.side.symbol(), c.threshold), Style::Dashed, vec![[0.0, c.threshold], [last, c.threshold]]).color(i),
        );
    }
    fig
}

/// Held-out query accuracy at which a recall model counts as having learned the task: an error
/// at most ten times the largest the paper's one-layer Mamba shows (99%, 002 App. A Table 1),
/// 1 − 10 · (1 − 0.99). `002.fig5`, `002.fig6`, `002.fig7` and `002.table1` judge by it.
const RECALL_LEARNED: f64 = 0.9;

/// The criterion that `metric`'s mean over seeds is at least [`RECALL_LEARNED`], for a claim
/// that reads a property `reading` a model that has learned recall.
fn recall_learned(metric: &'static str, reading: &str) -> Criterion {
    Criterion::new(
        metric,
        crate::claim::experiment::Direction::AtLeast,
        RECALL_LEARNED,
        format!(
            "{reading} a model that has learned recall: the paper's one-layer Mamba answers ≥ 99% (App. A Table 1), an error at most ten times its \
             largest (1%) counts as learned"
        ),
    )
}
