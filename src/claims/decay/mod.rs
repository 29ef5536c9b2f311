//! The decay family: exponential decay of the long-range dependency (LRD) of SSMs and Mamba,
//! and its absence in attention (004 Eq 7 and 10, Corollary 1, Theorems 1 and 3, §4.1; 000 Lemma 1,
//! Lemma 2 and the attention sensitivity of App. B). Proofs and corrections: `proofs/decay.md`.

use crate::claim::{Family, Registry};

pub(crate) mod attention;
pub(crate) mod corollary1;
pub(crate) mod eq10;
pub(crate) mod eq7;
pub(crate) mod interaction;
pub(crate) mod monotone;
pub(crate) mod overview;
pub(crate) mod sensitivity;

/// The decay family: Exponential decay of the long-range dependency (LRD) of SSMs and Mamba, and its absence in attention (004 Eq 10, Cor 1, Thm 1, 3, §4.1; 000 Lem 1–2).
pub const FAMILY: Family = Family::new("decay");

/// Registers the decay claims.
pub fn register(r: &mut Registry) {
    eq7::register(r);
    eq10::register(r);
    corollary1::register(r);
    attention::register(r);
    interaction::register(r);
    monotone::register(r);
    sensitivity::register(r);
}
