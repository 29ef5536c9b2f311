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
//! use ssmcheck::claim::{run_claims, Budget, RunConfig, VerdictKind};
//! use ssmcheck::mc::CpuBackend;
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
#[cfg(feature = "families")]
pub mod claims;
#[cfg(feature = "cli")]
pub mod cli;
pub mod constructions;
pub mod error;
pub mod estimate;
pub mod harness;
pub mod kit;
pub mod math;
pub mod mc;
pub mod model;
pub mod parallel;
pub mod progress;
pub mod report;
pub mod shard;
pub mod stats;
pub mod strategy;
pub mod tasks;
#[cfg(feature = "train")]
pub mod train;

/// What a conjecture needs, in 15 names: the statement's parts ([`Eval`](claim::Eval),
/// [`Tolerance`](claim::Tolerance), [`Scale`](claim::Scale), [`Rounding`](claim::Rounding),
/// [`Interval`](math::Interval), [`Real`](math::Real)), its instances ([`strategy`], proptest's
/// [`Strategy`](proptest::strategy::Strategy) for `prop_map`, [`Sizes`](claim::Sizes) and the
/// run's [`Trial`](claim::Trial)), its options ([`Search`](claim::Search),
/// [`VerdictKind`](claim::VerdictKind), [`Family`](claim::Family)), and the builder route
/// ([`property`](claim::property()) to a [`Claim`](claim::Claim)). Everything else by path:
/// the engine in [`claim`], the models in [`model`], the kit in [`kit`], backends in [`mc`].
pub mod prelude {
    pub use crate::claim::{property, Claim, Eval, Family, Rounding, Scale, Search, Sizes, Tolerance, Trial, VerdictKind};
    pub use crate::math::{Interval, Real};
    pub use crate::strategy;
    pub use proptest::strategy::Strategy;
}

/// A conjecture as short as a `proptest!` block: a documented function whose arguments are
/// drawn from strategies and whose body returns an [`Eval`](claim::Eval). It expands to a
/// function returning the [`Claim`](claim::Claim) (by default id `user.<name>`, family
/// [`Family::USER`](claim::Family::USER), the doc comment as its statement, 200 / 2000 / 20000
/// instances at the quick / standard / deep budgets); each argument is a reference to its drawn
/// value, and a counterexample records the arguments by name.
///
/// ```
/// use ssmcheck::prelude::*;
///
/// ssmcheck::conjecture! {
///     /// The ZOH factor e^{aΔ} of a stable mode is below 1 (both sides enclosed: no tolerance).
///     fn zoh_contracts(a in strategy::log_uniform(1e-3, 4.0), delta in strategy::log_uniform(1e-3, 10.0)) {
///         Eval::lt((Interval::exact(-a) * Interval::exact(*delta)).exp(), Interval::exact(1.0), Scale(1.0), Tolerance::NONE)
///     }
/// }
///
/// ssmcheck::claim::check(&zoh_contracts()).assert_holds();
/// ```
///
/// Everything else a conjecture can say goes in one `#[with(…)]` line before `fn`, each key at
/// most once, in any order:
/// - `given = ("what P is", condition)`: a conditional statement "if P then Q", with P a `bool`
///   expression of the arguments (strict or not, integer conditions such as `p % 4 == 1`): instances
///   outside P are counted apart and the search samples P's edge ([`Property::given`](claim::Property::given));
///   a refutation is certified only if P is known to hold at the instance in exact arithmetic:
///   write `given_exact = (…)` for a condition decided exactly (integers, comparisons of exact
///   values), or add `certify_given = relation` with P's sides as enclosures
///   ([`Property::certify_given`](claim::Property::certify_given));
/// - `cases = [quick, standard, deep]`, `search = Search::Off`;
/// - `sides = ("what lhs is", "what rhs is")` for the refutation's record;
/// - `id = "mine.name"`, `family = Family::new("mine")`, `source = ("whose", "where")`;
/// - `expect = VerdictKind::Holds` (or `Refuted`): `cargo test` fails on another verdict;
/// - `control = ("what is mutated", mutated)`: a negative control, `mutated` an `Eval` of the same
///   arguments stating a mutant of the conjecture (a constant tightened, a term dropped). It runs
///   over the same strategies with the same options, and when the conjecture holds it must refute
///   the mutant at the same sample size, or the claim disagrees (as a theorem's control): evidence
///   that the check can fail.
///
/// A Monte Carlo statement takes the run's [`Trial`](claim::Trial) as its first parameter,
/// `trial: &Trial` (seed, budget, named sizes and streams keyed by the instance):
///
/// ```
/// use ssmcheck::prelude::*;
///
/// ssmcheck::conjecture! {
///     /// If λ + γ < 1, the sample mean of λ + γx² (x ~ N(0, 1)) is below 1 + 4 standard errors.
///     #[with(given = ("λ + γ < 1", l + g < 1.0), cases = [20, 100, 1000], id = "mine.mean", expect = VerdictKind::Holds)]
///     fn mean_multiplier(trial: &Trial, l in strategy::real(0.0, 1.0), g in strategy::real(0.0, 1.0)) {
///         let n = trial.size("paths", Sizes::new(400, 2000, 20_000));
///         let m: Vec<f64> = (0..n).map(|i| l + g * trial.stream("x", i).normal().powi(2)).collect();
///         let mean = m.iter().sum::<f64>() / n as f64;
///         let se = (m.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n * (n - 1)) as f64).sqrt();
///         Eval::le(mean, 1.0 + 4.0 * se, Tolerance::NONE)
///     }
/// }
///
/// assert_eq!(mean_multiplier().meta.id, "mine.mean");
/// ssmcheck::claim::check(&mean_multiplier()).assert_agrees();
/// ```
#[macro_export]
macro_rules! conjecture {
    ($(#[doc = $doc:literal])+ #[with($($opts:tt)*)] fn $name:ident($($params:tt)*) $body:block) => {
        $crate::conjecture!(@build [$($doc)+] [$($opts)*] $name ($($params)*) $body);
    };
    ($(#[doc = $doc:literal])+ fn $name:ident($($params:tt)*) $body:block) => {
        $crate::conjecture!(@build [$($doc)+] [] $name ($($params)*) $body);
    };
    (@build [$($doc:literal)+] $opts:tt $name:ident ($trial:ident : &Trial, $($arg:ident in $strategy:expr),+ $(,)?) $body:block) => {
        $(#[doc = $doc])+
        pub fn $name() -> $crate::claim::Claim {
            let property = $crate::claim::property_in([200, 2000, 20000], ($($strategy,)+), |$trial: &$crate::claim::Trial, ($($arg,)+)| $body);
            $crate::conjecture!(@finish property [$($doc)+] $opts $name [$($arg)+] [trial $trial ($($strategy,)+)])
        }
    };
    (@build [$($doc:literal)+] $opts:tt $name:ident ($($arg:ident in $strategy:expr),+ $(,)?) $body:block) => {
        $(#[doc = $doc])+
        pub fn $name() -> $crate::claim::Claim {
            let property = $crate::claim::property([200, 2000, 20000], ($($strategy,)+), |($($arg,)+)| $body);
            $crate::conjecture!(@finish property [$($doc)+] $opts $name [$($arg)+] [plain ($($strategy,)+)])
        }
    };
    (@finish $p:ident [$($doc:literal)+] [$($opts:tt)*] $name:ident $args:tt $make:tt) => {{
        let statement = [$($doc),+].iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
        #[allow(unused_mut)]
        let mut meta = $crate::claim::ConjectureOptions::new(concat!("user.", stringify!($name)), ("user", concat!(file!(), ":", line!())));
        $crate::conjecture!(@names $p $args);
        $crate::conjecture!(@opts $p meta $args $($opts)*);
        $crate::conjecture!(@control meta $args $make [$($opts)*] $($opts)*);
        meta.claim(&statement, $p)
    }};
    // The negative control: the mutated statement over the same strategies, with every option
    // the conjecture has (hypothesis, cases, search, sides), so it is the same check.
    (@control $m:ident $args:tt $make:tt $all:tt $(,)?) => {};
    (@control $m:ident [$($arg:ident)+] $make:tt [$($all:tt)*] control = ($what:expr, $mutant:expr) $(, $($rest:tt)*)?) => {
        let control = $crate::conjecture!(@mutant $make [$($arg)+] $mutant);
        $crate::conjecture!(@names control [$($arg)+]);
        #[allow(unused_mut)]
        let mut options = $crate::claim::ConjectureOptions::new("", ("", ""));
        $crate::conjecture!(@opts control options [$($arg)+] $($all)*);
        $m.control = Some($crate::claim::Control { mutation: $what.to_string(), check: Box::new(control) });
    };
    (@control $m:ident $args:tt $make:tt $all:tt $key:ident = $v:expr $(, $($rest:tt)*)?) => {
        $crate::conjecture!(@control $m $args $make $all $($($rest)*)?);
    };
    (@mutant [plain ($($strategy:expr,)+)] [$($arg:ident)+] $mutant:expr) => {
        $crate::claim::property([200, 2000, 20000], ($($strategy,)+), |($($arg,)+)| $mutant)
    };
    (@mutant [trial $trial:ident ($($strategy:expr,)+)] [$($arg:ident)+] $mutant:expr) => {
        $crate::claim::property_in([200, 2000, 20000], ($($strategy,)+), |$trial: &$crate::claim::Trial, ($($arg,)+)| $mutant)
    };
    // The counterexample names its arguments.
    (@names $p:ident [$($arg:ident)+]) => {
        let $p = $p.expand(|($($arg,)+)| $crate::serde_json::json!({ $(stringify!($arg): $arg),+ }));
    };
    // The `#[with(…)]` options, one at a time (the control is built after them, by `@control`).
    (@opts $p:ident $m:ident $args:tt $(,)?) => {};
    (@opts $p:ident $m:ident $args:tt control = ($what:expr, $mutant:expr) $(, $($rest:tt)*)?) => {
        $crate::conjecture!(@opts $p $m $args $($($rest)*)?);
    };
    (@opts $p:ident $m:ident [$($arg:ident)+] given = ($what:expr, $cond:expr) $(, $($rest:tt)*)?) => {
        let $p = $p.given($what, |($($arg,)+)| if $cond { 1.0 } else { -1.0 });
        $crate::conjecture!(@opts $p $m [$($arg)+] $($($rest)*)?);
    };
    (@opts $p:ident $m:ident [$($arg:ident)+] given_exact = ($what:expr, $cond:expr) $(, $($rest:tt)*)?) => {
        let $p = $p.given($what, |($($arg,)+)| if $cond { 1.0 } else { -1.0 }).certify_given(|($($arg,)+)| $crate::claim::Eval::holds_exactly($cond));
        $crate::conjecture!(@opts $p $m [$($arg)+] $($($rest)*)?);
    };
    (@opts $p:ident $m:ident [$($arg:ident)+] certify_given = $e:expr $(, $($rest:tt)*)?) => {
        let $p = $p.certify_given(|($($arg,)+)| $e);
        $crate::conjecture!(@opts $p $m [$($arg)+] $($($rest)*)?);
    };
    (@opts $p:ident $m:ident $args:tt sides = ($l:expr, $r:expr) $(, $($rest:tt)*)?) => {
        let $p = $p.sides($l, $r);
        $crate::conjecture!(@opts $p $m $args $($($rest)*)?);
    };
    (@opts $p:ident $m:ident $args:tt source = ($who:expr, $at:expr) $(, $($rest:tt)*)?) => {
        $m.source = ($who.to_string(), $at.to_string());
        $crate::conjecture!(@opts $p $m $args $($($rest)*)?);
    };
    (@opts $p:ident $m:ident $args:tt cases = $v:expr $(, $($rest:tt)*)?) => {
        let $p = $p.cases($v);
        $crate::conjecture!(@opts $p $m $args $($($rest)*)?);
    };
    (@opts $p:ident $m:ident $args:tt search = $v:expr $(, $($rest:tt)*)?) => {
        let $p = $p.search($v);
        $crate::conjecture!(@opts $p $m $args $($($rest)*)?);
    };
    (@opts $p:ident $m:ident $args:tt id = $v:expr $(, $($rest:tt)*)?) => {
        $m.id = $v.to_string();
        $crate::conjecture!(@opts $p $m $args $($($rest)*)?);
    };
    (@opts $p:ident $m:ident $args:tt family = $v:expr $(, $($rest:tt)*)?) => {
        $m.family = $v;
        $crate::conjecture!(@opts $p $m $args $($($rest)*)?);
    };
    (@opts $p:ident $m:ident $args:tt expect = $v:expr $(, $($rest:tt)*)?) => {
        $m.expect = Some($v);
        $crate::conjecture!(@opts $p $m $args $($($rest)*)?);
    };
}

#[doc(hidden)]
pub use serde_json;
