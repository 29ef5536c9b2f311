//! The claim engine: what a claim is ([`Claim`], [`ClaimMeta`], [`Status`], [`Kind`]), how it
//! is judged (the [`property`](mod@property), [`statistical`] and [`rate`] judges), what a judgement says
//! ([`Verdict`], [`Outcome`], evidence [`Figure`]s), and how claims are listed and run
//! ([`Registry`], [`run_claims`]).
//!
//! The engine knows no family: families live in `crate::claims` and use this module, and the
//! registry of every shipped claim is `crate::claims::registry()`.

/// The family-wise significance level of every statistical and rate judgement in the suite
/// (Bonferroni-corrected over each claim's cells). Strict, so that a refuted theorem is strong
/// evidence at any seed; the negative controls show the checks keep their power at this level.
pub const ALPHA: f64 = 1e-4;

pub mod budget;
pub mod certificate;
pub mod check;
pub mod comparison;
pub mod eval;
pub mod evidence;
pub mod experiment;
pub mod instance;
pub mod kind;
pub mod meta;
pub mod property;
pub mod rate;
pub mod registry;
pub mod replay;
pub mod results;
pub mod rounding;
pub mod runner;
pub mod search;
pub mod source;
pub mod statistical;
pub mod tables;
pub mod tolerance;
pub mod trial;
pub mod verdict;

pub use budget::{Budget, Context, SizeRow, Sizes};
pub use certificate::{Certificate, Uncertified};
pub use check::{custom, Check};
pub use comparison::{Comparison, Enclosure, HypothesisStanding, Relation, Side, Standing, Violation};
pub use eval::Eval;
pub use evidence::{Figure, FigureKind, HeatMap, Series, Style, Table};
pub use kind::Kind;
pub use meta::{Claim, ClaimMeta, ConjectureOptions, Control, ErrorKind, ErrorReport, Family, Status};
pub use property::{construction, property, property_in, Property, Search};
pub use registry::Registry;
pub use replay::Replay;
pub use results::{CheckResult, ClaimResult, ControlResult, RunBackends, RunResults, SCHEMA_VERSION};
pub use rounding::Rounding;
pub(crate) use runner::milliseconds;
pub use runner::{check, run_claim, run_claim_on, run_claims, RunConfig, RunSettings};
pub use search::Phase;
pub use source::{Origin, Paper, Source};
pub use tolerance::{Scale, Tolerance};
pub use trial::Trial;
pub use verdict::{Outcome, Verdict, VerdictKind, Witness};
