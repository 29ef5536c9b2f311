//! The haar family: S6 builds Haar wavelets from time-thresholded basis functions, and the
//! approximation rates that follow (000 Theorem 1, Proposition 1, Corollaries 1–2, Remarks 1 and 6),
//! and what 000's text says of its own Keep n-th tables (`printed`).
//! Proofs and corrections: `proofs/haar.md`.

use crate::claim::{Family, Registry};

pub(crate) mod keep_nth;
pub(crate) mod printed;
pub(crate) mod rates;
pub(crate) mod remark6;
pub(crate) mod theorem1;

/// The haar family: Haar wavelets from S6 and approximation rates (000 Thm 1, Prop 1, Cor 1–2).
pub const FAMILY: Family = Family::new("haar");

/// Registers the haar claims.
pub fn register(r: &mut Registry) {
    theorem1::register(r);
    keep_nth::register(r);
    printed::register(r);
    rates::register(r);
    remark6::register(r);
}
