//! The haar family: S6 builds Haar wavelets from time-thresholded basis functions, and the
//! approximation rates that follow (000 Theorem 1, Proposition 1, Corollaries 1–2, Remark 1).
//! Proofs and corrections: `proofs/haar.md`.

use crate::claim::Registry;

pub mod keep_nth;
pub mod rates;
pub mod theorem1;

/// Registers the haar claims.
pub fn register(r: &mut Registry) {
    theorem1::register(r);
    keep_nth::register(r);
    rates::register(r);
}
