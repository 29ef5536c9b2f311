//! Your own conjectures: add a claim here and it appears in `cargo test`, `ssmcheck list`
//! and the report (see the README's worked example).

use crate::claim::Registry;

/// Registers the user conjectures.
pub fn register(_r: &mut Registry) {}
