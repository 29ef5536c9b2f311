//! The copy family: 003's COPY bounds — Theorem 1 (constant size, exponential scores) as
//! printed and corrected (and in the normal case of §4.1, decays per state), Theorem 2 (exact copy with state N), the unrolled form (5)/(6), and
//! the derived lower bounds that bracket them (score, distance, rank, bits).
//! Proofs and corrections: `proofs/copy.md`. Models: [`crate::model::vector_ssm`]; COPY,
//! Assumption 1 and the copy task: [`crate::tasks::copy`].

use crate::claim::{Family, Registry};

pub(crate) mod capacity;
pub(crate) mod condition;
pub(crate) mod distance;
pub(crate) mod experiments;
pub(crate) mod normal;
pub(crate) mod theorem1;
pub(crate) mod theorem2;
pub(crate) mod unrolled;

/// The copy family: COPY bounds (003 Thm 1–2).
pub const FAMILY: Family = Family::new("copy");

/// Registers the copy claims.
pub fn register(r: &mut Registry) {
    unrolled::register(r);
    theorem1::register(r);
    normal::register(r);
    condition::register(r);
    distance::register(r);
    theorem2::register(r);
    capacity::register(r);
    experiments::register(r);
}
