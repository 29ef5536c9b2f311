//! Budgets (how hard each check works) and the context a check runs in.

use crate::error::Error;
use crate::mc::{Backend, StreamKey};
use crate::progress::Progress;
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use std::sync::Mutex;

/// How much work each check does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Budget {
    /// `cargo test`: seconds per family.
    Quick,
    /// The report's default: minutes for everything on 2 cores; T up to 10^6 for diagonal A.
    Standard,
    /// Long horizons and many samples (a GPU helps).
    Deep,
}

impl Budget {
    /// Picks the value for this budget.
    pub fn pick<T>(self, quick: T, standard: T, deep: T) -> T {
        match self {
            Budget::Quick => quick,
            Budget::Standard => standard,
            Budget::Deep => deep,
        }
    }
    /// The lowercase name.
    pub fn name(self) -> &'static str {
        self.pick("quick", "standard", "deep")
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Budget {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "quick" => Ok(Budget::Quick),
            "standard" => Ok(Budget::Standard),
            "deep" => Ok(Budget::Deep),
            other => Err(Error::InvalidParameter(format!("unknown budget '{other}' (expected quick, standard or deep)"))),
        }
    }
}

/// A size at each budget (instances, paths, horizons, sweep points): what quick, standard and
/// deep mean for one quantity of one check. A check asks for it through [`Context::size`],
/// which records it, so every claim's results list its sizes at all three budgets
/// ([`ClaimResult::sizes`](super::ClaimResult::sizes), the report's budgets table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes<T> {
    /// At the quick budget (`cargo test`).
    pub quick: T,
    /// At the standard budget (the report's default).
    pub standard: T,
    /// At the deep budget.
    pub deep: T,
}

impl<T> Sizes<T> {
    /// The sizes at quick, standard and deep.
    pub const fn new(quick: T, standard: T, deep: T) -> Self {
        Sizes { quick, standard, deep }
    }
    /// The size at `budget`.
    pub fn at(&self, budget: Budget) -> T
    where
        T: Clone,
    {
        budget.pick(&self.quick, &self.standard, &self.deep).clone()
    }
}

/// One named size of a check at each budget, as recorded (values written as Rust prints them:
/// `2000`, `[1, 10, 100]`, `(1000, 10000)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SizeRow {
    /// What the size counts ("instances", "paths", "horizon", …).
    pub what: String,
    /// At the quick budget.
    pub quick: String,
    /// At the standard budget.
    pub standard: String,
    /// At the deep budget.
    pub deep: String,
}

/// What a check may use: the seed, the budget, the Monte Carlo backend and a progress bar; it
/// records the sizes the check asks for ([`Context::size`]).
pub struct Context<'a> {
    /// The run's seed.
    pub seed: u64,
    /// The budget.
    pub budget: Budget,
    /// The Monte Carlo backend.
    pub backend: &'a dyn Backend,
    /// The claim id the streams are keyed by (a negative control uses its theorem's id, so it
    /// sees the same instances).
    pub stream_label: &'a str,
    /// Progress of the running check (hidden when not on a terminal).
    pub progress: &'a dyn Progress,
    sizes: Mutex<Vec<SizeRow>>,
    /// When a property's draws, search and shrinking stop ([`Context::out_of_time`]).
    deadline: std::time::Instant,
    time_limit: std::time::Duration,
}

/// The wall-clock time a property check may take at `budget` before it stops with an
/// *inconclusive* verdict: 10 minutes at quick, 30 at standard, 4 hours at deep, or
/// `SSMCHECK_TIME_LIMIT` seconds when that is set (an unreadable value is ignored). No shipped
/// claim comes near these (the slowest takes under a minute at standard on 2 cores); they bound
/// a user's strategy or statement that would otherwise run without end.
pub fn time_limit(budget: Budget) -> std::time::Duration {
    let default: u32 = budget.pick(600, 1800, 14_400);
    let secs = std::env::var("SSMCHECK_TIME_LIMIT").ok().and_then(|v| v.trim().parse::<f64>().ok()).filter(|s| s.is_finite() && *s > 0.0);
    std::time::Duration::from_secs_f64(secs.unwrap_or(f64::from(default)))
}

impl<'a> Context<'a> {
    /// The context of one check's run.
    pub fn new(seed: u64, budget: Budget, backend: &'a dyn Backend, stream_label: &'a str, progress: &'a dyn Progress) -> Self {
        let time_limit = time_limit(budget);
        Context { seed, budget, backend, stream_label, progress, sizes: Mutex::new(vec![]), deadline: std::time::Instant::now() + time_limit, time_limit }
    }
    /// The same context with another time limit, counted from now.
    pub fn with_time_limit(mut self, limit: std::time::Duration) -> Self {
        self.time_limit = limit;
        self.deadline = std::time::Instant::now() + limit;
        self
    }
    /// The time this check may take ([`time_limit`]).
    pub fn time_limit(&self) -> std::time::Duration {
        self.time_limit
    }
    /// Whether the check has used its time: a property stops drawing, searching and shrinking.
    pub fn out_of_time(&self) -> bool {
        std::time::Instant::now() >= self.deadline
    }
    /// The size `what` at this run's budget; the check's results list it at every budget. Asking
    /// again for the same `what` (per instance, per cell) records it once.
    pub fn size<T: Clone + std::fmt::Debug>(&self, what: &str, sizes: Sizes<T>) -> T {
        let mut rows = self.sizes.lock().expect("no check panicked holding the size log");
        if !rows.iter().any(|r| r.what == what) {
            let show = |v: &T| format!("{v:?}");
            rows.push(SizeRow { what: what.into(), quick: show(&sizes.quick), standard: show(&sizes.standard), deep: show(&sizes.deep) });
        }
        sizes.at(self.budget)
    }
    /// The sizes the check asked for, sorted by name (so concurrent requests give the same list).
    pub fn sizes(&self) -> Vec<SizeRow> {
        let mut rows = self.sizes.lock().expect("no check panicked holding the size log").clone();
        rows.sort_by(|a, b| a.what.cmp(&b.what));
        rows
    }
    /// The stream key for `part` of this claim.
    pub fn key(&self, part: &str) -> StreamKey {
        StreamKey::new(self.seed, &format!("{}/{}", self.stream_label, part))
    }
    /// 32 seed bytes for proptest's ChaCha RNG, derived from the run seed and the claim.
    pub fn proptest_seed(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (i, chunk) in out.chunks_mut(8).enumerate() {
            let k = self.key(&format!("proptest{i}")).as_u64();
            chunk.copy_from_slice(&k.to_le_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_parses_and_rejects_unknown_names() {
        assert_eq!("deep".parse::<Budget>().unwrap(), Budget::Deep);
        let e = "huge".parse::<Budget>().unwrap_err().to_string();
        assert!(e.contains("huge") && e.contains("quick"));
        assert_eq!(Budget::Standard.pick(1, 2, 3), 2);
    }

    #[test]
    fn a_context_records_each_size_once_at_every_budget() {
        let bar = crate::progress::Silent;
        let ctx = Context::new(1, Budget::Standard, &crate::mc::CpuBackend, "c", &bar);
        assert_eq!(ctx.size("paths", Sizes::new(10u64, 20, 30)), 20);
        assert_eq!(ctx.size("paths", Sizes::new(10u64, 20, 30)), 20);
        assert_eq!(ctx.size("horizons", Sizes::new(vec![1], vec![1, 10], vec![1, 10, 100])), vec![1, 10]);
        let rows = ctx.sizes();
        assert_eq!(rows.iter().map(|r| r.what.as_str()).collect::<Vec<_>>(), ["horizons", "paths"]);
        assert_eq!((rows[1].quick.as_str(), rows[1].standard.as_str(), rows[1].deep.as_str()), ("10", "20", "30"));
        assert_eq!(rows[0].deep, "[1, 10, 100]");
    }
}
