//! The recall family: how large a one-layer Mamba, Mamba-2 or S4D block must be to solve
//! multi-query associative recall and induction heads (000 Lemma 3–4, Theorems 2–4, Remark 7),
//! and what one gradient step of 002's simplified Mamba learns (002 Lemma 1), and the random-initialisation remark of 002 §2.2.
//! Proofs and corrections: `proofs/recall.md`.

use crate::claim::{Family, Registry};

pub(crate) mod codes;
pub(crate) mod constructions;
pub(crate) mod gradient;
pub(crate) mod induction;
pub(crate) mod jl;
pub(crate) mod mqar;
pub(crate) mod random_embedding;

/// The recall family: MQAR and induction-head constructions (000 Thm 2–4, Lem 3–4; 002).
pub const FAMILY: Family = Family::new("recall");

/// Registers the recall claims.
pub fn register(r: &mut Registry) {
    jl::register(r);
    mqar::register(r);
    induction::register(r);
    gradient::register(r);
    random_embedding::register(r);
}
