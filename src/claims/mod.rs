//! The claim families. Each module registers its claims; `register_all` lists the families.

use crate::claim::{Paper, Registry};

pub mod copy;
pub mod cot;
pub mod decay;
pub mod haar;
pub mod realization;
pub mod recall;
pub mod stability;

/// Seed 004 (the papers' short names, as the families cite them).
pub const PAPER_004: Paper = Paper::RethinkingLrd;
/// Seed 000.
pub const PAPER_000: Paper = Paper::InputSelectivity;
/// Seed 002.
pub const PAPER_002: Paper = Paper::AssociativeRecall;
/// Seed 003.
pub const PAPER_003: Paper = Paper::FreeLunch;
/// Seed 001.
pub const PAPER_001: Paper = Paper::Bmojo;

/// Every shipped claim of every family, in report order.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    register_all(&mut r);
    r
}

/// Registers every claim of every family.
pub fn register_all(r: &mut Registry) {
    decay::register(r);
    stability::register(r);
    haar::register(r);
    recall::register(r);
    copy::register(r);
    cot::register(r);
    realization::register(r);
}
