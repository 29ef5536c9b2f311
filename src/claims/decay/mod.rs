//! The decay family.
use crate::claim::Registry;
/// Registers the decay claims.
pub fn register(_r: &mut Registry) {}
