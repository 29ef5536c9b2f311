//! The property judge: a layer over proptest strategies and value trees.
//!
//! A property maps an instance to an [`Eval`]: a comparison of two sides with a signed margin
//! (negative: violated), a bare margin, or a rejection (assumptions not met — distinct from
//! failure). The judge
//! 1. draws instances from proptest's ChaCha RNG, each seeded by (seed, claim, instance), and
//!    counts strict violations and ties apart (the violation rate, with its Clopper–Pearson
//!    interval, is estimated on these random draws only);
//! 2. at the standard and deep budgets, when nothing was refuted, searches
//!    ([`Search::Targeted`], on by default): boundary-biased draws, the edge of a conditional
//!    statement's hypothesis ([`Property::given`]), and a climb toward negative margin from the
//!    lowest-margin instances, all through the strategy's choice sequence (`search`), so every
//!    searched instance is one the strategy generates;
//! 3. shrinks the worst strict violation (an exact tie of a strict relation if there is none):
//!    its choices toward short dyadics, then its value tree with proptest's simplify/complicate,
//!    and records it with both sides of its relation and how it was found; when nothing fails,
//!    it keeps the instance closest to the boundary.
//!
//! [`construction`] is the same judge for a proof's explicit weights, reported as an accuracy.

mod judge;
mod shrink;
#[cfg(test)]
mod tests;

use super::budget::Context;
use super::check::Check;
use super::eval::Eval;
use super::evidence::Figure;
use super::instance::Instance;
use super::kind::Kind;
use super::replay::Replay;
use super::search;
use super::trial::Trial;
use super::verdict::Outcome;
use crate::error::Result;
use proptest::strategy::{SBoxedStrategy, Strategy, ValueTree};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::marker::PhantomData;

type Judged = Box<dyn Fn(&Trial, &Instance) -> Eval + Send + Sync>;
type Illustrate = Box<dyn Fn(&Instance) -> Vec<Figure> + Send + Sync>;
type Expand = Box<dyn Fn(&Instance) -> serde_json::Value + Send + Sync>;
type Hypothesis = Box<dyn Fn(&Instance) -> f64 + Send + Sync>;
type Certify = Box<dyn Fn(&Instance) -> Eval + Send + Sync>;
/// The value tree of a drawn instance (proptest's, boxed).
type Tree = Box<dyn ValueTree<Value = Instance>>;

/// How a property's instance is evaluated: with or without the run's [`Trial`].
pub trait Evaluate<V>: Send + Sync {
    /// Evaluates one instance.
    fn evaluate(&self, trial: &Trial, value: &V) -> Eval;
}

/// An evaluation that needs only the instance ([`property`]).
pub struct Plain<F>(F);

impl<V, F: Fn(&V) -> Eval + Send + Sync> Evaluate<V> for Plain<F> {
    fn evaluate(&self, _: &Trial, value: &V) -> Eval {
        (self.0)(value)
    }
}

/// An evaluation that uses the run's seed, budget, backend or keyed streams ([`property_in`]).
pub struct WithTrial<F>(F);

impl<V, F: Fn(&Trial, &V) -> Eval + Send + Sync> Evaluate<V> for WithTrial<F> {
    fn evaluate(&self, trial: &Trial, value: &V) -> Eval {
        (self.0)(trial, value)
    }
}

/// A property check over instances drawn from a proptest strategy `S`, evaluated by `E`.
///
/// The types are the builder's: they let [`Property::given`], [`Property::certify`] and the
/// rest take closures over the strategy's own values. The judge behind it works on
/// [`Instance`]s, so its search and shrinking are compiled once for all claims.
pub struct Property<S, E> {
    judge: Judge,
    typed: PhantomData<fn() -> (S, E)>,
}

/// The judge of a property, over type-erased instances.
struct Judge {
    cases: [u64; 3],
    strategy: SBoxedStrategy<Instance>,
    eval: Judged,
    /// Reads a drawn value back from its JSON (for `replay` and figures of the closest instance).
    decode: fn(serde_json::Value) -> serde_json::Result<Instance>,
    max_shrink_iters: u32,
    illustrate: Option<Illustrate>,
    expand: Option<Expand>,
    given: Option<(String, Hypothesis)>,
    sides: Option<(String, String)>,
    certify: Option<Certify>,
    certify_given: Option<Certify>,
    search: Search,
    kind: Kind,
    /// The strategy's type, shortened (named when its draws cannot be replayed).
    strategy_name: String,
}

/// Whether a property searches beyond its random sample, and with how many evaluations.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Search {
    /// Random instances only.
    Off,
    /// After the random phase, at the standard and deep budgets: boundary-biased draws,
    /// instances at a hypothesis's edge, and a climb from the lowest margins, with `fraction`
    /// of the random phase's evaluations (the default, 0.5).
    Targeted {
        /// The search's evaluations as a fraction of the random phase's.
        fraction: f64,
    },
}

/// A property check: `cases` instances at the quick, standard and deep budgets, drawn from
/// `strategy` and judged by `eval`.
pub fn property<S, F>(cases: [u64; 3], strategy: S, eval: F) -> Property<S, Plain<F>>
where
    S: Strategy + Send + Sync + 'static,
    S::Value: Serialize + DeserializeOwned + Debug,
    F: Fn(&S::Value) -> Eval + Send + Sync + 'static,
{
    Property::new(cases, strategy, Plain(eval))
}

impl<S, E> Property<S, E>
where
    S: Strategy + Send + Sync + 'static,
    S::Value: Serialize + DeserializeOwned + Debug,
    E: Evaluate<S::Value> + 'static,
{
    /// A property with the defaults: 2048 shrink steps, the targeted search at half the random
    /// phase's evaluations.
    fn new(cases: [u64; 3], strategy: S, eval: E) -> Self {
        let search = Search::Targeted { fraction: 0.5 };
        let judge = Judge {
            cases,
            strategy: strategy.prop_map(Instance::new).sboxed(),
            eval: Box::new(move |trial, value| eval.evaluate(trial, value.get())),
            decode: Instance::from_json::<S::Value>,
            max_shrink_iters: 2048,
            illustrate: None,
            expand: None,
            given: None,
            sides: None,
            certify: None,
            certify_given: None,
            search,
            kind: Kind::Property,
            strategy_name: search::strategy_name::<S>(),
        };
        Property { judge, typed: PhantomData }
    }
}

/// A property check whose evaluation gets the run's [`Trial`] (seed, budget, backend, streams
/// keyed by the instance): for a Monte Carlo estimate inside a property.
pub fn property_in<S, F>(cases: [u64; 3], strategy: S, eval: F) -> Property<S, WithTrial<F>>
where
    S: Strategy + Send + Sync + 'static,
    S::Value: Serialize + DeserializeOwned + Debug,
    F: Fn(&Trial, &S::Value) -> Eval + Send + Sync + 'static,
{
    Property::new(cases, strategy, WithTrial(eval))
}

/// A construction check: the explicit weights of a proof, built and run on random task instances
/// drawn from `strategy`; `eval` gives an instance's worst answer margin (target against the best
/// other output, a tie counting as wrong). Judged by exact accuracy: the construction must answer
/// every instance, the accuracy is reported with its exact (Clopper–Pearson) interval, and a
/// wrong answer is shrunk to the smallest failing instance like a property's counterexample.
/// Constructions are run on random instances only (their accuracy is the claim).
pub fn construction<S, F>(cases: [u64; 3], strategy: S, eval: F) -> Property<S, Plain<F>>
where
    S: Strategy + Send + Sync + 'static,
    S::Value: Serialize + DeserializeOwned + Debug,
    F: Fn(&S::Value) -> Eval + Send + Sync + 'static,
{
    let mut p = property(cases, strategy, eval);
    (p.judge.kind, p.judge.search) = (Kind::Construction, Search::Off);
    p
}

impl<S: Strategy, E> Property<S, E>
where
    S::Value: 'static,
{
    /// Figures drawn from the counterexample (or, when the claim holds, from the instance
    /// closest to violating it).
    pub fn illustrate(mut self, f: impl Fn(&S::Value) -> Vec<Figure> + Send + Sync + 'static) -> Self {
        self.judge.illustrate = Some(Box::new(move |v| f(v.get())));
        self
    }
    /// The concrete instance behind a drawn value, for values that only parametrise it (a
    /// generator seed, sizes): `f` returns a JSON object whose fields are added to the
    /// counterexample (the instance's keys, codes, tokens...), so it can be recomputed without
    /// the generator.
    pub fn expand(mut self, f: impl Fn(&S::Value) -> serde_json::Value + Send + Sync + 'static) -> Self {
        self.judge.expand = Some(Box::new(move |v| f(v.get())));
        self
    }
    /// A conditional statement "if P then Q": `hypothesis` is P's signed margin (≥ 0: P holds),
    /// `what` says what P is. Instances outside P are counted apart (not failures, not cases);
    /// the search bisects from them to instances inside, so P's edge — where conditional
    /// statements tend to fail — is sampled, not only what rejection leaves.
    pub fn given(mut self, what: &str, hypothesis: impl Fn(&S::Value) -> f64 + Send + Sync + 'static) -> Self {
        self.judge.given = Some((what.into(), Box::new(move |v| hypothesis(v.get()))));
        self
    }
    /// Re-evaluates a refuting instance with enclosures, for a check that computes in floating
    /// point: `f` states the same relation with its sides as [`Interval`](crate::math::Interval)s
    /// (the models are generic over [`Real`](crate::math::Real), so they run on enclosures), and
    /// a refutation is certified when the enclosures decide it too. Called on the shrunk
    /// counterexample and the most violating instance only, so its cost does not matter.
    pub fn certify(mut self, f: impl Fn(&S::Value) -> Eval + Send + Sync + 'static) -> Self {
        self.judge.certify = Some(Box::new(move |v| f(v.get())));
        self
    }
    /// The hypothesis of a conditional statement ([`Property::given`]) as a relation on
    /// enclosures, for certificates: a refutation is certified only when the conclusion's
    /// violation is and the hypothesis holds for every real value in these enclosures (the search
    /// judged it in floating point, and it bisects toward the hypothesis's edge, where rounding
    /// can put an instance on the wrong side). Without it, a conditional statement's refutation
    /// is not certified (reason `hypothesis`).
    pub fn certify_given(mut self, f: impl Fn(&S::Value) -> Eval + Send + Sync + 'static) -> Self {
        self.judge.certify_given = Some(Box::new(move |v| f(v.get())));
        self
    }
}

impl<S, E> Property<S, E> {
    /// Names the two sides of the compared relation (what `lhs` and `rhs` of [`Eval::le`] or
    /// the error and tolerance of [`Eval::close`] are), for the refutation's record.
    pub fn sides(mut self, lhs_is: &str, rhs_is: &str) -> Self {
        self.judge.sides = Some((lhs_is.into(), rhs_is.into()));
        self
    }
    /// Sets the number of random instances at the quick, standard and deep budgets.
    pub fn cases(mut self, cases: [u64; 3]) -> Self {
        self.judge.cases = cases;
        self
    }
    /// Sets the search ([`Search::Off`] for random instances only).
    pub fn search(mut self, search: Search) -> Self {
        self.judge.search = search;
        self
    }
}

impl<S, E> Check for Property<S, E> {
    fn kind(&self) -> Kind {
        self.judge.kind
    }

    fn replay(&self, instance: &serde_json::Value, ctx: &Context) -> Result<Replay> {
        self.judge.replay(instance, ctx)
    }

    fn run(&self, ctx: &Context) -> Result<Outcome> {
        self.judge.run(ctx)
    }
}
