//! The training family: the papers' experiments with trained models, rerun at a small scale
//! on the CPU ([`crate::train`]), each an [`Experiment`](crate::claim::Status::Experiment) whose
//! verdict is *reproduced* or *not reproduced at this scale* — never an erratum of the paper.
//! Settings, criteria and what was scaled down: `proofs/training.md`.

use crate::claim::{Family, Registry};

pub mod keep_fifth;

/// The training family: the papers' trained-model experiments at small scale.
pub const FAMILY: Family = Family::new("training");

/// Registers the training claims.
pub fn register(r: &mut Registry) {
    keep_fifth::register(r);
}
