//! The stability family: the interaction-term SSM of 004 §4, its special case of §4.2, and every
//! step of the paper's stability argument (Theorem 2, Lemma 1, Theorem 4, the §4.2 narrative,
//! Figure 2), printed and corrected. Proofs and corrections: `proofs/stability.md`.

use crate::claim::{Family, Registry};
use crate::error::Result;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

pub mod figure2;
pub mod lemma1;
pub mod sharp;
pub mod stationarity;
pub mod theorem4;
pub mod thm2;

/// The stability family: The interaction-term model's stability and tail bounds (004 Thm 2, 4, Lem 1).
pub const FAMILY: Family = Family::new("stability");

/// Registers the stability claims.
pub fn register(r: &mut Registry) {
    thm2::register(r);
    lemma1::register(r);
    theorem4::register(r);
    sharp::register(r);
    stationarity::register(r);
    figure2::register(r);
}

/// A process-wide memo of values by key.
type Memo<T> = OnceLock<Mutex<HashMap<String, Arc<T>>>>;

/// A memo shared by the claims and their controls (they judge the same draws and ask for the
/// same constants), keyed by what determines the value (seed, budget, backend and job for Monte
/// Carlo draws; the parameters for a computed constant). Two claims running at the same time may
/// both compute a missing value; they compute the same one.
fn memo<T: Send + Sync + 'static>(cache: &'static Memo<T>, id: String, make: impl FnOnce() -> Result<T>) -> Result<Arc<T>> {
    let cache = cache.get_or_init(Default::default);
    if let Some(hit) = cache.lock().expect("cache lock").get(&id) {
        return Ok(hit.clone());
    }
    let out = Arc::new(make()?);
    cache.lock().expect("cache lock").insert(id, out.clone());
    Ok(out)
}
