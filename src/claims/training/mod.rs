//! The training family: the papers' experiments with trained models, rerun at a small scale
//! on the CPU ([`crate::train`]), each an [`Experiment`](crate::claim::Status::Experiment) whose
//! verdict is *reproduced* or *not reproduced at this scale* — never an erratum of the paper;
//! and what a paper's text says of its own printed experiment tables, checked cell by cell
//! (`printed`: property claims over the printed numbers, which can be errata).
//! Settings, criteria and what was scaled down: `proofs/training.md`.

use crate::claim::{Family, Figure, Registry, Series, Style};

pub(crate) mod copy_examples;
pub(crate) mod decays;
pub(crate) mod induction_heads;
pub(crate) mod keep_fifth;
pub(crate) mod mqar_states;
pub(crate) mod printed;
pub(crate) mod readout;
pub(crate) mod recall_gate;
pub(crate) mod recall_spikes;
pub(crate) mod recall_table;

/// The training family: the papers' trained-model experiments at small scale.
pub const FAMILY: Family = Family::new("training");

/// Registers the training claims.
pub fn register(r: &mut Registry) {
    keep_fifth::register(r);
    printed::register(r);
    decays::register(r);
    induction_heads::register(r);
    mqar_states::register(r);
    recall_gate::register(r);
    recall_spikes::register(r);
    readout::register(r);
    recall_table::register(r);
    copy_examples::register(r);
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
