//! The cot family: 003's second half — the SiLU gadgets of Lemmas 1–5 (multiplication, ReLU
//! MLPs, linear maps, select, indicators; Remark 1's switch-off) and the Mamba chain-of-thought
//! constructions of Theorems 3 and 4 with Table 1's costs and the precision they need.
//! Proofs, repairs and errata: `proofs/cot.md`. Models: [`crate::model::gadgets`],
//! [`crate::model::cot_machine`], [`crate::model::windowed`]; the DPs: [`crate::model::dp`].

use crate::claim::{Family, Registry};

pub(crate) mod lemmas;
pub(crate) mod multiply;
pub(crate) mod programs;

/// The cot family: Dynamic programming with chain of thought (003 Lem 1–5, Thm 3–4).
pub const FAMILY: Family = Family::new("cot");

/// Registers the cot claims.
pub fn register(r: &mut Registry) {
    multiply::register(r);
    lemmas::register(r);
    programs::register(r);
}
