//! # ssmcheck
//!
//! Executable checks of the theory of Mamba and state-space models. Every formal statement of
//! five papers (the "seeds") is a [`Claim`](claim::Claim): metadata (id, family, source with the
//! statement as printed, status) and a check run over random instances. Statements that are
//! false as printed are registered as `Erratum`s that the search must refute, each paired with
//! the corrected statement as a `Theorem`; every theorem carries a negative control (a mutant
//! the same check must refute), so no check passes because it cannot fail.
//!
//! Data flows one way: strategy → instance → [`model`] → check → [`Verdict`](claim::Verdict) →
//! [`RunResults`](claim::RunResults) (JSON) → [`report`] (HTML + SVG).
//!
//! ```no_run
//! use ssmcheck::prelude::*;
//!
//! let registry = ssmcheck::claims::registry();
//! let claims = registry.select(&["004.cor1.printed".into()], None).unwrap();
//! let cfg = RunConfig { seed: 1, budget: Budget::Quick, backend: &CpuBackend, progress: false, parallel: false };
//! let results = run_claims(&claims, &cfg);
//! assert_eq!(results.claims[0].result.verdict, VerdictKind::Refuted);
//! ```
//!
//! Your own conjectures live in your own test files: [`conjecture!`] (or
//! [`claim::property()`]) over the generators of [`strategy`], judged by [`claim::check()`] or run
//! one test per claim by [`harness::main`]; [`cli::main_with`] gives a crate of conjectures the
//! whole command line. At the standard and deep budgets a property is also searched for
//! counterexamples in the corners random sampling misses ([`claim::search`]).
//!
//! Layers (each usable alone): [`math`], [`stats`], [`model`], [`mc`] know nothing of claims;
//! [`claim`] is the engine; [`claims`] holds the families; [`report`] renders results; [`shard`]
//! splits a run over the tasks of a job array and merges their parts.

#![warn(missing_docs)]

pub mod bench;
pub mod claim;
pub mod claims;
pub mod cli;
pub mod error;
pub mod estimate;
pub mod harness;
pub mod math;
pub mod mc;
pub mod model;
pub mod progress;
pub mod report;
pub mod shard;
pub mod stats;
pub mod strategy;
pub mod tasks;

/// The names most users need: the claim model, the helpers that state a relation, the
/// generators (as `strategy::…`) and the models.
pub mod prelude {
    pub use crate::claim::{
        check, construction, custom, property, property_in, run_claims, Budget, Check, Claim, ClaimResult, Comparison, Context, ErrorKind, Eval, Family,
        Figure, Kind, Outcome, Registry, Rounding, RunConfig, RunResults, Scale, Search, Series, Sizes, Status, Style, Tolerance, Trial, Verdict, VerdictKind,
    };
    pub use crate::claims::registry;
    pub use crate::error::{Error, Result};
    pub use crate::math::Interval;
    pub use crate::mc::{Backend, BackendChoice, CpuBackend, Stream};
    pub use crate::model::{DeltaRule, DenseSsm, DiagonalSsm, Discretization, InteractionSsm};
    pub use crate::strategy;
    pub use proptest::strategy::Strategy;
}

/// A conjecture as short as a `proptest!` block: a documented function whose arguments are
/// drawn from strategies and whose body returns an [`Eval`](claim::Eval). It expands to a
/// function returning the [`Claim`](claim::Claim) (id `user.<name>`, family `User`, the doc
/// comment as its statement, 200 / 2000 / 20000 instances at the quick / standard / deep
/// budgets); each argument is a reference to its drawn value.
///
/// ```
/// use ssmcheck::prelude::*;
///
/// ssmcheck::conjecture! {
///     /// The ZOH factor e^{aΔ} of a stable mode is below 1.
///     fn zoh_contracts(a in strategy::log_uniform(1e-3, 4.0), delta in strategy::log_uniform(1e-3, 10.0)) {
///         Eval::lt((-a * delta).exp(), 1.0, Scale(1.0), Tolerance::absolute(Rounding::value(1.0, 1.0)))
///     }
/// }
///
/// ssmcheck::claim::check(&zoh_contracts()).assert_holds();
/// ```
#[macro_export]
macro_rules! conjecture {
    ($(#[doc = $doc:literal])+ fn $name:ident($($arg:ident in $strategy:expr),+ $(,)?) $body:block) => {
        $(#[doc = $doc])+
        pub fn $name() -> $crate::claim::Claim {
            let statement = [$($doc),+].iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
            $crate::claim::Claim::conjecture(
                concat!("user.", stringify!($name)),
                $crate::claim::Family::USER,
                &statement,
                $crate::claim::property([200, 2000, 20000], ($($strategy,)+), |($($arg,)+)| $body),
            )
            .source("user", concat!(file!(), ":", line!()), &statement)
        }
    };
}
