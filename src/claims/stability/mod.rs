//! The stability family: the interaction-term SSM of 004 §4, its special case of §4.2, and every
//! step of the paper's stability argument (Theorem 2, Lemma 1, Theorem 4, the §4.2 narrative,
//! Figure 2), printed and corrected. Proofs and corrections: `proofs/stability.md`.

use crate::claim::{Family, Registry};

pub(crate) mod figure2;
pub(crate) mod lemma1;
pub(crate) mod sharp;
pub(crate) mod special_case;
pub(crate) mod stationarity;
pub(crate) mod theorem4;
pub(crate) mod thm2;

/// The stability family: The interaction-term model's stability and tail bounds (004 Thm 2, 4, Lem 1).
pub const FAMILY: Family = Family::new("stability");

/// Registers the stability claims.
pub fn register(r: &mut Registry) {
    thm2::register(r);
    special_case::register(r);
    lemma1::register(r);
    theorem4::register(r);
    sharp::register(r);
    stationarity::register(r);
    figure2::register(r);
}
