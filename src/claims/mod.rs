//! The claim families. Each module registers its claims; `register_all` lists the families.

use crate::claim::Registry;

pub mod conjectures;
pub mod strategies;
pub mod decay;

/// Registers every claim of every family.
pub fn register_all(r: &mut Registry) {
    decay::register(r);
    conjectures::register(r);
}
