//! The realization family: 001 (B'MOJO) — attention, Mamba and hybrids as realizations of one
//! system. Canonical forms and their conversions (`canonical`), the attention side
//! (`attention`), Mamba's scan (`mamba`) and the exact recall its convolution restores
//! (`eidetic`), innovation selection and eidetic memory
//! (`memory`), a toy associative recall task for it (`mqar`), the Kalman predictor's white
//! innovations (`whiteness`), the suite-added stability of input-varying companions
//! (`stability`), and Table 2's printed comparisons (`tables`).
//! Proofs, corrections and the catalogue of every statement: `proofs/realization.md`. Models:
//! [`crate::model::companion`], [`crate::model::lti`], [`crate::model::bmojo`],
//! [`crate::model::linear_attention`], [`crate::model::eidetic`].

use crate::claim::{Family, Registry};

pub(crate) mod attention;
pub(crate) mod canonical;
pub(crate) mod causal;
pub(crate) mod eidetic;
pub(crate) mod mamba;
pub(crate) mod memory;
pub(crate) mod mqar;
pub(crate) mod stability;
pub(crate) mod tables;
pub(crate) mod whiteness;

/// The realization family: B'MOJO realizations (001).
pub const FAMILY: Family = Family::new("realization");

/// Registers the realization claims.
pub fn register(r: &mut Registry) {
    canonical::register(r);
    causal::register(r);
    attention::register(r);
    mamba::register(r);
    eidetic::register(r);
    memory::register(r);
    mqar::register(r);
    stability::register(r);
    tables::register(r);
    whiteness::register(r);
}
