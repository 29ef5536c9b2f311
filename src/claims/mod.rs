//! The claim families. Each module registers its claims; `register_all` lists the families.

use crate::claim::Registry;

pub mod copy;
pub mod cot;
pub mod decay;
pub mod haar;
pub mod realization;
pub mod recall;
pub mod stability;
pub mod training;

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
    training::register(r);
}
