//! The claim families. Each family's module exports its `FAMILY` constant and its `register`
//! function, nothing else: the models, tasks and constructions its claims judge live in
//! [`crate::model`], [`crate::tasks`] and [`crate::constructions`], where a user's conjecture and
//! the Python bindings reach them; [`registry`] and [`register_all`] list every family.

use crate::claim::Registry;
use crate::error::Result;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

pub mod copy;
pub mod cot;
pub mod decay;
pub mod haar;
pub(crate) mod keep_nth_tables;
pub mod realization;
pub mod recall;
pub mod stability;
#[cfg(feature = "train")]
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
    #[cfg(feature = "train")]
    training::register(r);
}

/// A process-wide memo of values by key.
pub(crate) type Memo<T> = OnceLock<Mutex<HashMap<String, Arc<T>>>>;

/// A memo shared by the claims and their controls (they judge the same draws, ask for the same
/// constants or look at the same trained models), keyed by what determines the value (seed,
/// budget, backend and job for Monte Carlo draws; the parameters for a computed constant; the
/// streams and sizes of a training run). Two claims running at the same time may
/// both compute a missing value; they compute the same one.
pub(crate) fn memo<T: Send + Sync + 'static>(cache: &'static Memo<T>, id: String, make: impl FnOnce() -> Result<T>) -> Result<Arc<T>> {
    let cache = cache.get_or_init(Default::default);
    if let Some(hit) = cache.lock().expect("cache lock").get(&id) {
        return Ok(hit.clone());
    }
    let out = Arc::new(make()?);
    cache.lock().expect("cache lock").insert(id, out.clone());
    Ok(out)
}

/// A process-wide memo of values that are computed once, whoever asks first: the others wait.
pub(crate) type Shared<T> = OnceLock<Mutex<HashMap<String, Arc<OnceLock<std::result::Result<Arc<T>, String>>>>>>;

/// Like [`memo`], but two claims asking for the same missing value at the same time compute it
/// once: the first computes, the second waits (two claims that judge the same trained models,
/// which would otherwise train them twice). The value is computed on a thread of its own with a
/// pool of its own, so a waiting rayon worker can neither be asked to run part of it (rayon's
/// work stealing would then wait on itself) nor starve it of workers. Deterministic values only
/// (results never depend on the thread count, so the pool's size does not matter). An error is
/// kept as its message ([`crate::Error::Training`] for every waiter).
pub(crate) fn shared<T: Send + Sync + 'static>(cache: &'static Shared<T>, id: String, make: impl FnOnce() -> Result<T> + Send) -> Result<Arc<T>> {
    let cell = cache.get_or_init(Default::default).lock().expect("cache lock").entry(id).or_default().clone();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    cell.get_or_init(|| {
        std::thread::scope(|s| {
            s.spawn(|| match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => pool.install(make).map(Arc::new).map_err(|e| e.to_string()),
                Err(e) => Err(format!("cannot start a thread pool: {e}")),
            })
            .join()
            .unwrap_or_else(|_| Err("the computation panicked".into()))
        })
    })
    .clone()
    .map_err(|message| crate::error::Error::Training { what: "a shared run".into(), message })
}
