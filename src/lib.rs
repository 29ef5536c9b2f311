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
//! Layers (each usable alone): [`math`], [`stats`], [`model`], [`mc`] know nothing of claims;
//! [`claim`] is the engine; [`claims`] holds the families; [`report`] renders results.

#![warn(missing_docs)]

pub mod bench;
pub mod claim;
pub mod claims;
pub mod error;
pub mod math;
pub mod mc;
pub mod model;
pub mod progress;
pub mod report;
pub mod stats;
pub mod tasks;

/// The names most users need.
pub mod prelude {
    pub use crate::claim::{
        construction, custom, property, run_claims, Budget, Check, Claim, Comparison, Context, ErrorKind, Eval, Family, Figure, Kind, Outcome, Registry,
        RunConfig, RunResults, Series, Status, Style, Verdict, VerdictKind,
    };
    pub use crate::claims::registry;
    pub use crate::error::{Error, Result};
    pub use crate::mc::{Backend, BackendChoice, CpuBackend};
}
