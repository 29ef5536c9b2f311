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

use super::budget::{Budget, Context, Sizes};
use super::check::{Check, Kind};
use super::comparison::{HypothesisStanding, Relation, Standing, Violation};
use super::eval::Eval;
use super::evidence::Figure;
use super::instance::Instance;
use super::replay::Replay;
use super::search::{self, Choices, Phase};
use super::trial::Trial;
use super::verdict::{Outcome, Verdict, Witness};
use crate::error::Result;
use crate::mc::Stream;
use crate::stats::clopper_pearson;
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
            strategy_name: short_type_name(std::any::type_name::<S>()),
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

/// One evaluated instance with the choices that produced it.
struct Found {
    value: Instance,
    choices: Choices,
    eval: Eval,
    phase: Phase,
    /// The evaluation (counted within its phase) that found it.
    at: u64,
}

/// Orders evaluations: strict violations first (most negative margin first), then refuting
/// ties, then the rest by margin.
fn rank(e: &Eval) -> (u8, f64) {
    let m = e.margin().unwrap_or(f64::INFINITY);
    match e.standing() {
        Some(Standing::Violated) => (0, m),
        Some(Standing::Tie) if e.refutes() => (1, m),
        _ => (2, m),
    }
}

fn better(a: &Eval, b: &Option<Found>) -> bool {
    b.as_ref().is_none_or(|f| rank(a) < rank(&f.eval))
}

/// The lowest-margin instances kept as the climb's starting points.
const POOL: usize = 4;

/// What the random phase counted.
#[derive(Default)]
struct Tally {
    cases: u64,
    rejected: u64,
    outside_hypothesis: u64,
    violations: u64,
    ties: u64,
    nan: u64,
}

impl Judge {
    /// The evaluation of one value (`Reject` when it is outside the hypothesis).
    fn evaluate(&self, ctx: &Context, value: &Instance) -> Eval {
        // A NaN hypothesis margin counts as outside.
        if !self.inside(value) {
            return Eval::Reject("outside the hypothesis");
        }
        let json = || value.to_json_text();
        (self.eval)(&Trial::new(ctx, &json), value)
    }

    /// Whether `value` meets the hypothesis (always, without one; never, when its margin is NaN).
    fn inside(&self, value: &Instance) -> bool {
        self.given.as_ref().is_none_or(|(_, h)| h(value) >= 0.0)
    }

    /// The 32 seed bytes of instance `i`: keyed by (seed, claim, instance), so an instance
    /// does not depend on the ones before it.
    fn instance_seed(ctx: &Context, i: u64) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (j, chunk) in out.chunks_mut(8).enumerate() {
            chunk.copy_from_slice(&ctx.key(&format!("instance{i}/{j}")).as_u64().to_le_bytes());
        }
        out
    }

    /// Shrinks a refuting instance. A random draw shrinks its own value tree (`drawn`); a
    /// searched instance first shrinks its choices toward short dyadics (clearing low bits of
    /// each of the first 64 words, at most 128 evaluations), then the value tree they rebuild with proptest's simplify/complicate. Returns the
    /// simplest refuting value, its evaluation and the number of shrink steps.
    fn shrink(&self, ctx: &Context, found: Found, drawn: Option<Tree>) -> (Instance, Eval, u32) {
        let Found { mut value, mut choices, mut eval, .. } = found;
        let mut steps = 0u32;
        if let Some(tree) = drawn {
            return self.shrink_tree(ctx, tree, value, eval, 0);
        }
        let budget = 128u32;
        // The first 64 words (the leading parameters; later ones are proptest's to shrink).
        'words: for i in 0..search::word_count(&choices).min(64) {
            for bits in [32, 24, 16, 8] {
                if steps >= budget || ctx.out_of_time() {
                    break 'words;
                }
                let Some(c) = search::shorten(&choices, i, bits) else { continue };
                let Some(tree) = search::replay(&self.strategy, &c) else { continue };
                steps += 1;
                let v = tree.current();
                let e = self.evaluate(ctx, &v);
                if e.refutes() && rank(&e).0 <= rank(&eval).0 {
                    (value, choices, eval) = (v, c, e);
                    break;
                }
            }
        }
        match search::replay_to_shrink(&self.strategy, &choices) {
            Some(tree) => self.shrink_tree(ctx, tree, value, eval, steps),
            None => (value, eval, steps),
        }
    }

    /// Proptest's simplify/complicate on a refuting value tree, keeping refutations of the same
    /// class (a strict violation stays strict).
    fn shrink_tree(&self, ctx: &Context, mut tree: Tree, mut value: Instance, mut eval: Eval, steps: u32) -> (Instance, Eval, u32) {
        if !tree.simplify() {
            return (value, eval, steps);
        }
        let class = rank(&eval).0;
        let mut tree_steps = 0;
        while tree_steps < self.max_shrink_iters && !ctx.out_of_time() {
            tree_steps += 1;
            let candidate = tree.current();
            let e = self.evaluate(ctx, &candidate);
            if e.refutes() && rank(&e).0 <= class {
                (value, eval) = (candidate, e);
                if !tree.simplify() {
                    break;
                }
            } else if !tree.complicate() {
                break;
            }
        }
        (value, eval, steps + tree_steps)
    }

    /// The evaluation's comparison with its sides named: by [`Property::sides`], else by what
    /// the relation makes them.
    fn violation(&self, eval: &Eval) -> Violation {
        let c = eval.comparison().expect("an evaluated instance has a comparison");
        let (lhs_is, rhs_is) = self.side_names(c.relation);
        c.named(lhs_is, rhs_is)
    }

    /// The violated relation at a refuting instance, with the enclosures of the
    /// [certifying](Property::certify) re-evaluation when there is one (of the same relation).
    fn refuted_relation(&self, value: &Instance, eval: &Eval) -> Violation {
        let mut v = self.violation(eval);
        if v.enclosure.is_none() {
            if let Some(c) = self.certify.as_ref().and_then(|f| f(value).comparison()).filter(|c| c.relation == v.relation) {
                v.enclosure = c.enclosure.map(Box::new);
            }
        }
        v.hypothesis = self.given.as_ref().map(|(what, _)| Box::new(self.hypothesis_standing(what, value)));
        v
    }

    /// Whether the hypothesis `what` holds at `value` in exact arithmetic, by its
    /// [enclosed form](Property::certify_given).
    fn hypothesis_standing(&self, what: &str, value: &Instance) -> HypothesisStanding {
        let Some(f) = &self.certify_given else {
            return HypothesisStanding::NotCertified { detail: format!("the hypothesis \"{what}\" was judged in floating point (no enclosed form)") };
        };
        match f(value).comparison().and_then(|c| c.enclosure.filter(|e| e.both_sides()).map(|e| (c.relation, e))) {
            Some((relation, e)) if e.decide(relation) == Standing::Holds => HypothesisStanding::Certified { enclosure: e },
            Some((_, e)) => HypothesisStanding::NotCertified { detail: format!("the hypothesis \"{what}\" is not decided by its enclosures ({e})") },
            None => HypothesisStanding::NotCertified { detail: format!("the hypothesis \"{what}\" has no enclosure on both sides") },
        }
    }

    /// What the two sides are: by [`Property::sides`], else by what the relation makes them.
    fn side_names(&self, relation: Relation) -> (&str, &str) {
        match (&self.sides, relation) {
            (Some((l, r)), _) => (l.as_str(), r.as_str()),
            (None, Relation::Within) => ("the error |got − want|", "the tolerance rtol·scale + atol"),
            (None, _) => ("left side of the inequality in the statement", "right side of the inequality in the statement"),
        }
    }

    /// The drawn value as JSON, with the fields of its expansion added.
    fn counterexample(&self, value: &Instance) -> Result<serde_json::Value> {
        let mut json = value.to_json()?;
        if let Some(expand) = &self.expand {
            match (&mut json, expand(value)) {
                (serde_json::Value::Object(into), serde_json::Value::Object(extra)) => into.extend(extra),
                (_, extra) => json = serde_json::json!({ "drawn": json, "instance": extra }),
            }
        }
        Ok(json)
    }

    /// Evaluates the value that `choices` encode (`None` when the strategy cannot build one
    /// from them or the value is rejected).
    fn try_choices(&self, ctx: &Context, st: &mut SearchState, choices: Choices, phase: Phase) -> Option<Found> {
        st.attempts += 1;
        let value = search::replay(&self.strategy, &choices)?.current();
        let eval = self.evaluate(ctx, &value);
        eval.margin()?;
        st.used[phase as usize - 1] += 1;
        ctx.progress.advance(1);
        Some(Found { value, choices, eval, phase, at: st.used.iter().sum() })
    }

    /// Fresh draws biased to the domain's edges; the lowest margins join the pool.
    fn boundary_phase(&self, ctx: &Context, st: &mut SearchState, budget: u64, len: usize) -> Option<Found> {
        while st.used[0] < budget && st.more(ctx) {
            let choices = search::boundary(len, &mut st.stream);
            let Some(f) = self.try_choices(ctx, st, choices, Phase::Boundary) else { continue };
            if f.eval.refutes() {
                return Some(f);
            }
            st.offer(f);
        }
        None
    }

    /// Instances at the hypothesis's edge: from each random instance outside it, bisect (24
    /// halvings, on the hypothesis alone) toward a random instance inside it (pairs taken in
    /// turn, so the edge points spread along the boundary), and evaluate the point just inside.
    fn edge_phase(&self, ctx: &Context, st: &mut SearchState, budget: u64, outside: &[Choices], inside: &[Choices]) -> Option<Found> {
        if self.given.is_none() || outside.is_empty() || inside.is_empty() {
            return None;
        }
        let mut k = 0usize;
        while st.used[1] < budget && st.more(ctx) {
            let (from, to) = (&outside[k % outside.len()], inside[(k / outside.len() + k) % inside.len()].clone());
            k += 1;
            let (mut lo, mut hi) = (0.0, 1.0);
            for _ in 0..24 {
                let t = 0.5 * (lo + hi);
                let inside = search::replay(&self.strategy, &search::between(from, &to, t)).is_some_and(|tree| self.inside(&tree.current()));
                if inside {
                    hi = t;
                } else {
                    lo = t;
                }
            }
            let Some(f) = self.try_choices(ctx, st, search::between(from, &to, hi), Phase::Edge) else { continue };
            if f.eval.refutes() {
                return Some(f);
            }
            st.offer(f);
        }
        None
    }

    /// A (1+1)-evolution strategy per pool instance, in turn: mutate its choices with a step
    /// of `2^σ` (σ in bits, from 16), keep the mutant when its margin is no larger, and adapt σ
    /// by the 1/5 rule (+1 on success, −¼ on failure).
    fn climb(&self, ctx: &Context, st: &mut SearchState, budget: u64) -> Option<Found> {
        let mut chains: Vec<(Found, f64)> = std::mem::take(&mut st.pool).into_iter().map(|f| (f, 16.0)).collect();
        let mut k = 0usize;
        while !chains.is_empty() && st.used.iter().sum::<u64>() < budget && st.more(ctx) {
            let i = k % chains.len();
            k += 1;
            let candidate = search::mutate(&chains[i].0.choices, chains[i].1, &mut st.stream);
            let Some(f) = self.try_choices(ctx, st, candidate, Phase::Targeted) else { continue };
            if f.eval.refutes() {
                return Some(f);
            }
            let chain = &mut chains[i];
            if rank(&f.eval) <= rank(&chain.0.eval) {
                chain.0 = f;
                chain.1 = (chain.1 + 1.0).min(31.0);
            } else {
                chain.1 = (chain.1 - 0.25).max(0.0);
            }
        }
        None
    }

    /// The targeted phases, after a random phase that refuted nothing, with `budget`
    /// evaluations: a quarter on boundary draws, an eighth at the hypothesis's edge, the rest
    /// climbing. Stops at the first refuting instance; returns it and the search's record.
    fn targeted(&self, ctx: &Context, budget: u64, pool: Vec<Found>, edge: &EdgeSeeds, len: usize) -> (Option<Found>, serde_json::Value) {
        // The replay must reproduce what was drawn, or the search would judge other instances.
        if let Some(f) = pool.first() {
            let same = search::replay(&self.strategy, &f.choices).is_some_and(|t| t.current().to_json().ok() == f.value.to_json().ok());
            if !same {
                return (
                    None,
                    serde_json::json!({ "evaluations": 0, "unavailable": "the strategy's draws cannot be rebuilt from their bytes (it forks its RNG)" }),
                );
            }
        }
        let mut st = SearchState { used: [0; 3], attempts: 0, max_attempts: 8 * budget + 64, stream: Stream::new(ctx.key("search"), 0), pool };
        let found = self
            .boundary_phase(ctx, &mut st, budget / 4, len)
            .or_else(|| self.edge_phase(ctx, &mut st, budget / 8, &edge.outside, &edge.inside))
            .or_else(|| self.climb(ctx, &mut st, budget));
        let mut record = serde_json::json!({
            "evaluations": st.used.iter().sum::<u64>(),
            "boundary": st.used[0],
            "edge": st.used[1],
            "targeted": st.used[2],
        });
        if found.is_none() && ctx.out_of_time() {
            record["stopped"] = serde_json::json!(format!("at the time limit of {:.0} s", ctx.time_limit().as_secs_f64()));
        }
        (found, record)
    }

    /// Why the search cannot replay this strategy's draws (`forks`: how often one draw forked
    /// its RNG, `usize::MAX` when its bytes could not be aligned with its seed's stream).
    fn unreplayable(&self, forks: usize) -> String {
        let why = if forks == usize::MAX {
            "a draw's bytes could not be aligned with its seed's stream (a read of part of a word)".to_string()
        } else {
            format!("a draw forked its RNG {forks} times (prop_oneof! once per arm before the one it picks, prop_flat_map once), which leaves a replay of its bytes too few to read")
        };
        format!("the targeted search is off for the strategy {}: {why}; draw unions with ssmcheck::strategy::one_of, which does not fork", self.strategy_name)
    }
}

/// A type name without its module paths (`proptest::collection::VecStrategy<…>` →
/// `VecStrategy<…>`), at most 160 characters.
fn short_type_name(full: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for ch in full.chars() {
        if ch.is_alphanumeric() || ch == '_' || ch == ':' {
            word.push(ch);
        } else {
            out.push_str(word.rsplit("::").next().unwrap_or(""));
            word.clear();
            out.push(ch);
        }
    }
    out.push_str(word.rsplit("::").next().unwrap_or(""));
    if out.chars().count() > 160 {
        out = out.chars().take(159).collect::<String>() + "…";
    }
    out
}

/// Random instances on either side of a hypothesis (up to 16 each), the ends of the segments
/// the edge phase bisects.
#[derive(Default)]
struct EdgeSeeds {
    outside: Vec<Choices>,
    inside: Vec<Choices>,
}

/// The search's running state: evaluations per phase (boundary, edge, targeted), attempts
/// (including choices that built no value), its random stream and the pool of lowest margins.
struct SearchState {
    used: [u64; 3],
    attempts: u64,
    max_attempts: u64,
    stream: Stream,
    pool: Vec<Found>,
}

impl SearchState {
    /// Whether the search may make another attempt: under its attempt cap and time limit.
    fn more(&self, ctx: &Context) -> bool {
        self.attempts < self.max_attempts && !ctx.out_of_time()
    }

    fn offer(&mut self, f: Found) {
        offer(&mut self.pool, f);
    }
}

/// Keeps `f` in `pool` if it is among the [`POOL`] lowest margins (never a NaN).
fn offer(pool: &mut Vec<Found>, f: Found) {
    if f.eval.standing() == Some(Standing::Nan) || (pool.len() >= POOL && rank(&f.eval) >= rank(&pool[POOL - 1].eval)) {
        return;
    }
    pool.push(f);
    pool.sort_by(|a, b| rank(&a.eval).partial_cmp(&rank(&b.eval)).unwrap_or(std::cmp::Ordering::Equal));
    pool.truncate(POOL);
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

impl Judge {
    fn replay(&self, instance: &serde_json::Value, ctx: &Context) -> Result<Replay> {
        // An expanded counterexample that is not an object wraps the drawn value.
        let drawn = instance.get("drawn").filter(|_| self.expand.is_some()).unwrap_or(instance);
        let value = (self.decode)(drawn.clone())?;
        // The instance is rebuilt from the drawn parameters: a recorded expansion (tokens,
        // codes) must be what they generate, or the replay would silently judge another one.
        if let Some(expand) = &self.expand {
            let generated = expand(&value);
            let recorded = instance.get("instance").unwrap_or(instance);
            if let (Some(g), Some(r)) = (generated.as_object(), recorded.as_object()) {
                if let Some(field) = g.keys().find(|k| r.get(*k).is_some_and(|v| v != &g[*k])) {
                    return Err(crate::error::Error::InvalidParameter(format!(
                        "the counterexample's '{field}' differs from what its drawn parameters generate; this claim rebuilds its instance from them (edit those instead)"
                    )));
                }
            }
        }
        Ok(match self.evaluate(ctx, &value) {
            Eval::Reject(why) => Replay::Rejected(why),
            eval if eval.refutes() => Replay::Evaluated(self.refuted_relation(&value, &eval)),
            eval => Replay::Evaluated(self.violation(&eval)),
        })
    }

    fn run(&self, ctx: &Context) -> Result<Outcome> {
        let n = ctx.size("instances", Sizes::new(self.cases[0], self.cases[1], self.cases[2]));
        let extra = match self.search {
            Search::Targeted { fraction } if ctx.budget != Budget::Quick => (n as f64 * fraction).ceil() as u64,
            _ => 0,
        };
        ctx.progress.expect(n + extra);
        let max_rejects = 20 * n + 1000;
        let mut t = Tally::default();
        let mut pool: Vec<Found> = vec![];
        let mut worst: Option<Found> = None;
        let mut worst_tree: Option<Tree> = None;
        let mut edge = EdgeSeeds::default();
        let mut max_len = 0usize;
        // Whether every random draw can be replayed from its bytes (else the forks of the
        // first that cannot, `usize::MAX` when its bytes could not be aligned).
        let mut replay: std::result::Result<(), usize> = Ok(());
        let mut i = 0u64;
        let mut stopped = false;
        while t.cases < n && t.rejected <= max_rejects {
            if ctx.out_of_time() {
                stopped = true;
                break;
            }
            let seed = Self::instance_seed(ctx, i);
            i += 1;
            let Some((tree, choices)) = search::record(&self.strategy, &seed) else {
                t.rejected += 1;
                continue;
            };
            max_len = max_len.max(choices.0.len());
            if extra > 0 && replay.is_ok() {
                replay = match search::fork_offsets(&seed, &choices) {
                    Some(forks) if !search::replay_runs_dry(choices.0.len(), &forks) => Ok(()),
                    forks => Err(forks.map_or(usize::MAX, |f| f.len())),
                };
            }
            let value = tree.current();
            let eval = self.evaluate(ctx, &value);
            let Some(standing) = eval.standing() else {
                t.rejected += 1;
                if !self.inside(&value) {
                    t.outside_hypothesis += 1;
                    if edge.outside.len() < 16 {
                        edge.outside.push(choices);
                    }
                }
                continue;
            };
            if self.given.is_some() && edge.inside.len() < 16 {
                edge.inside.push(choices.clone());
            }
            t.cases += 1;
            ctx.progress.advance(1);
            match standing {
                Standing::Nan => t.nan += 1,
                Standing::Violated => t.violations += 1,
                Standing::Tie => t.ties += 1,
                Standing::Holds => {}
            }
            let found = Found { value, choices, eval, phase: Phase::Random, at: t.cases };
            if eval.refutes() {
                if better(&eval, &worst) {
                    worst = Some(found);
                    worst_tree = Some(tree);
                }
            } else {
                offer(&mut pool, found);
            }
        }
        let closest = pool.first().map(|f| (f.value.to_json().unwrap_or_default(), f.eval.margin().unwrap_or(f64::NAN), f.phase));
        let mut search_record = None;
        if worst.is_none() && extra > 0 && t.nan == 0 && !pool.is_empty() && !stopped {
            if let Err(forks) = replay {
                search_record = Some(serde_json::json!({ "evaluations": 0, "unavailable": self.unreplayable(forks) }));
            } else {
                let (found, record) = self.targeted(ctx, extra, pool, &edge, max_len);
                worst = found;
                search_record = Some(record);
            }
        }
        let rate = (t.cases > 0).then(|| clopper_pearson(t.violations, t.cases, 0.95));
        let construction = self.kind == Kind::Construction;
        let base = |verdict, margin| {
            let mut out = Outcome::new(verdict, t.cases, margin)
                .detail("cases", t.cases)
                .detail("rejected", t.rejected)
                .detail("violations", t.violations)
                .detail("ties", t.ties)
                .detail("violation_rate_95", rate);
            if let Some((what, _)) = &self.given {
                out = out.detail("hypothesis", what).detail("outside_hypothesis", t.outside_hypothesis);
            }
            if let Some(record) = &search_record {
                out = out.detail("search", record);
            }
            // A construction's accuracy: instances answered exactly, with its 95% interval.
            if construction && t.cases > 0 {
                out.detail("instances_answered", t.cases - t.violations).detail("accuracy_95", clopper_pearson(t.cases - t.violations, t.cases, 0.95))
            } else {
                out
            }
        };
        if let Some(found) = worst {
            let (phase, at) = (found.phase, found.at);
            let seen = (found.eval.margin(), self.counterexample(&found.value)?, self.refuted_relation(&found.value, &found.eval));
            let (value, eval, steps) = self.shrink(ctx, found, worst_tree);
            let figures = self.illustrate.as_ref().map(|f| f(&value)).unwrap_or_default();
            let violation = self.refuted_relation(&value, &eval);
            // The most violating instance seen, when shrinking gave up margin for simplicity.
            let most_violating = (seen.0 < eval.margin()).then_some(Witness { instance: seen.1, violation: seen.2, certificate: None });
            let margin = violation.margin;
            let what = if eval.standing() == Some(Standing::Tie) { "an exact tie of the strict relation" } else { "a strict violation" };
            let how = match phase {
                Phase::Random => format!("violated by {} of {} instances{} (worst at #{at})", t.violations, t.cases, ties_note(t.ties)),
                p => format!("none of {} random instances violated it{}; found by the {} search after {at} evaluations", t.cases, ties_note(t.ties), p.name()),
            };
            let summary = format!("{how}; {what}, shrunk in {steps} steps to margin {margin:.3e}");
            let verdict = Verdict::Refuted { counterexample: self.counterexample(&value)?, violation, margin, summary };
            let mut out = base(verdict, Some(margin)).detail("shrink_steps", steps).detail("found_by", phase.name()).figures(figures);
            out.most_violating = most_violating;
            return Ok(out);
        }
        if t.nan > 0 {
            let why = format!("{} of {} instances gave a NaN margin (numerical failure)", t.nan, t.cases);
            return Ok(base(Verdict::Inconclusive { why }, None));
        }
        if stopped {
            let why = format!(
                "stopped at the time limit of {:.0} s after {} of {n} instances (strategy {}; SSMCHECK_TIME_LIMIT sets the limit)",
                ctx.time_limit().as_secs_f64(),
                t.cases,
                self.strategy_name
            );
            return Ok(base(Verdict::Inconclusive { why }, None));
        }
        if t.cases == 0 {
            return Ok(base(Verdict::Vacuous { rejected: t.rejected }, None));
        }
        let Some((instance, m, phase)) = closest else { unreachable!("cases > 0 and nothing refuted or NaN") };
        if t.cases < n {
            let why = format!("only {} of {n} instances met the assumptions ({} rejected)", t.cases, t.rejected);
            return Ok(base(Verdict::Inconclusive { why }, Some(m)));
        }
        let figures = match (&self.illustrate, (self.decode)(instance.clone())) {
            (Some(f), Ok(v)) => f(&v),
            _ => vec![],
        };
        let searched = search_record.as_ref().and_then(|r| r["evaluations"].as_u64()).map(|e| format!(", nor {e} searched")).unwrap_or_default();
        let evidence = if construction {
            format!("answered all {} task instances exactly; smallest answer margin {m:.3e}", t.cases)
        } else {
            format!("{} instances{searched}, none violated{}; smallest margin {m:.3e}", t.cases, ties_note(t.ties))
        };
        Ok(base(Verdict::Holds { evidence }, Some(m)).detail("closest_instance", instance).detail("closest_found_by", phase.name()).figures(figures))
    }
}

fn ties_note(ties: u64) -> String {
    if ties == 0 {
        String::new()
    } else {
        format!(" ({ties} ties within rounding, counted apart)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::Budget;
    use crate::claim::{Scale, Tolerance};
    use crate::mc::CpuBackend;
    use crate::progress::Silent;
    use proptest::strategy::Strategy;

    const BAR: Silent = Silent;

    fn ctx() -> Context<'static> {
        Context::new(1, Budget::Quick, &CpuBackend, "test", &BAR)
    }

    fn run<C: Check>(c: &C, seed: u64) -> Outcome {
        let bar = Silent;
        let ctx = Context::new(seed, Budget::Quick, &CpuBackend, "test", &bar);
        c.run(&ctx).unwrap()
    }

    #[test]
    fn a_false_property_is_refuted_and_shrunk_to_the_boundary() {
        // "x² ≤ 50 for x = i/100, i in [0, 10000)": false; the minimal counterexample is 7.08.
        // (Integers shrink well; proptest does not shrink f64 ranges, so instances use grids.)
        let p = property([200, 200, 200], (0i64..10_000).prop_map(|i| i as f64 / 100.0), |&x| Eval::le(x * x, 50.0, Tolerance::NONE));
        let out = run(&p, 1);
        let Verdict::Refuted { counterexample, margin, .. } = &out.verdict else { panic!("{:?}", out.verdict) };
        let x = counterexample.as_f64().unwrap();
        assert_eq!(x, 7.08, "shrunk to {x}");
        assert!(*margin < 0.0);
    }

    #[test]
    fn a_true_property_holds_with_its_closest_instance() {
        let p = property([100, 100, 100], -5.0..5.0f64, |&x| Eval::le(0.0, x * x, Tolerance::absolute(1e-12)));
        let out = run(&p, 2);
        assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Holds);
        assert_eq!(out.cases, 100);
    }

    #[test]
    fn rejections_are_not_failures_and_all_rejected_is_vacuous() {
        let p = property([50, 50, 50], 0.0..1.0f64, |_| Eval::Reject("never applies"));
        assert_eq!(run(&p, 3).verdict.tag(), crate::claim::VerdictKind::Vacuous);
    }

    #[test]
    fn a_zero_margin_holds() {
        // Margin exactly 0 is the boundary of the relation: satisfied, not violated.
        let p = property([20, 20, 20], 0.0..1.0f64, |_| Eval::Margin(0.0));
        assert_eq!(run(&p, 4).verdict.tag(), crate::claim::VerdictKind::Holds);
    }

    #[test]
    fn shrinking_takes_steps_and_says_how_many() {
        let p = property([200, 200, 200], (0i64..10_000).prop_map(|i| i as f64 / 100.0), |&x| Eval::le(x * x, 50.0, Tolerance::NONE));
        let summary = run(&p, 1).verdict.summary();
        let steps: u32 = summary.split("shrunk in ").nth(1).and_then(|r| r.split(' ').next()).and_then(|n| n.parse().ok()).expect("steps in the summary");
        assert!(steps > 1 && steps <= 2048, "{summary}");
    }

    #[test]
    fn rejections_are_counted_up_to_the_limit() {
        // n = 50 cases: the run gives up after 20n + 1000 rejections, recording 20n + 1001.
        let p = property([50, 50, 50], 0.0..1.0f64, |_| Eval::Reject("never applies"));
        assert_eq!(run(&p, 3).details["rejected"], serde_json::json!(2001));
        // A strategy that cannot produce a value counts as rejections too.
        let p = property([50, 50, 50], (0i64..10).prop_filter("never", |_| false), |_| Eval::Margin(1.0));
        let out = run(&p, 3);
        assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Vacuous);
        assert_eq!(out.details["rejected"], serde_json::json!(2001));
    }

    #[test]
    fn construction_is_a_construction_and_replay_reports_rejections() {
        let c = construction([10, 10, 10], 0.0..1.0f64, |&x| if x < 0.5 { Eval::Reject("below a half") } else { Eval::Margin(1.0) });
        assert_eq!(c.kind(), Kind::Construction);
        assert_eq!(property([10, 10, 10], 0.0..1.0f64, |_| Eval::Margin(1.0)).kind(), Kind::Property);
        assert!(matches!(c.replay(&serde_json::json!(0.25), &ctx()).unwrap(), Replay::Rejected("below a half")));
        assert!(matches!(c.replay(&serde_json::json!(0.75), &ctx()).unwrap(), Replay::Evaluated(_)));
    }

    #[test]
    fn replay_refuses_an_expansion_its_parameters_do_not_generate() {
        let p = property([10, 10, 10], 0i64..10, |&x| Eval::le(x as f64, 5.0, Tolerance::NONE)).expand(|&x| serde_json::json!({ "square": x * x }));
        let ok = serde_json::json!({ "drawn": 3, "instance": { "square": 9 } });
        assert!(p.replay(&ok, &ctx()).is_ok());
        let tampered = serde_json::json!({ "drawn": 3, "instance": { "square": 10 } });
        assert!(p.replay(&tampered, &ctx()).is_err());
    }

    fn run_at(c: &impl Check, seed: u64, budget: Budget) -> Outcome {
        let bar = Silent;
        c.run(&Context::new(seed, budget, &CpuBackend, "test", &bar)).unwrap()
    }

    /// The strategy shapes that once made the search spin forever (a replay of a forking draw
    /// reads zeros, which a rejection sampler never accepts) finish at every budget: a vector
    /// of proptest unions (nested, with a range whose size is not a power of two), a filter,
    /// and a size drawn by `prop_flat_map`.
    #[test]
    fn forking_strategies_finish_at_every_budget_and_say_why_the_search_is_off() {
        let inner = proptest::prop_oneof![4 => 0i64..1000, 1 => proptest::strategy::Just(0i64), 1 => (0i64..999).prop_map(|i| 999 - i)];
        let nested = proptest::prop_oneof![inner.clone(), inner.prop_map(|x| x / 3)];
        let strategy =
            (2usize..=24).prop_flat_map(move |n| proptest::collection::vec(nested.clone(), n)).prop_filter("not all zero", |v| v.iter().any(|&x| x != 0));
        let p = property([60, 60, 60], strategy, |v: &Vec<i64>| Eval::le(v.iter().sum::<i64>() as f64, 24_000.0, Tolerance::NONE));
        for budget in [Budget::Quick, Budget::Standard, Budget::Deep] {
            let out = run_at(&p, 1, budget);
            assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Holds, "{budget:?}: {:?}", out.verdict);
            if budget != Budget::Quick {
                let why = out.details["search"]["unavailable"].as_str().unwrap_or_default();
                assert!(why.contains("forked its RNG") && why.contains("one_of"), "{why}");
            }
        }
        // Over the suite's fork-free union the same shape is searched: every evaluation the
        // budget gives it is made.
        let corner = crate::strategy::edge_biased(0.0, 1.0);
        let p = property([200, 200, 200], proptest::collection::vec(corner, 24), |v: &Vec<f64>| Eval::le(v.iter().sum::<f64>(), 24.0, Tolerance::NONE));
        let out = run_at(&p, 1, Budget::Standard);
        assert!(out.details["search"].get("unavailable").is_none(), "{}", out.details["search"]);
        assert_eq!(out.details["search"]["evaluations"], 100, "{}", out.details["search"]);
    }

    #[test]
    fn a_property_past_its_time_limit_ends_inconclusive_and_names_its_strategy() {
        let slow = property([1000, 1000, 1000], 0i64..10, |&x| {
            std::thread::sleep(std::time::Duration::from_millis(2));
            Eval::le(x as f64, 100.0, Tolerance::NONE)
        });
        let bar = Silent;
        let ctx = Context::new(1, Budget::Standard, &CpuBackend, "test", &bar).with_time_limit(std::time::Duration::from_millis(100));
        let out = slow.run(&ctx).unwrap();
        let Verdict::Inconclusive { why } = &out.verdict else { panic!("{:?}", out.verdict) };
        assert!(why.contains("time limit") && why.contains("Range<i64>"), "{why}");
        assert!(out.cases < 1000);
        // A refutation found before the limit stands.
        let false_and_slow = property([1000, 1000, 1000], 0i64..10, |&x| {
            std::thread::sleep(std::time::Duration::from_millis(2));
            Eval::le(x as f64, -1.0, Tolerance::NONE)
        });
        let ctx = Context::new(1, Budget::Standard, &CpuBackend, "test", &bar).with_time_limit(std::time::Duration::from_millis(100));
        assert_eq!(false_and_slow.run(&ctx).unwrap().verdict.tag(), crate::claim::VerdictKind::Refuted);
    }

    #[test]
    fn type_names_lose_their_paths() {
        assert_eq!(
            short_type_name("proptest::collection::VecStrategy<alloc::vec::Vec<f64>, ssmcheck::strategy::OneOf<f64>>"),
            "VecStrategy<Vec<f64>, OneOf<f64>>"
        );
    }

    #[test]
    fn the_search_finds_a_thin_corner_and_says_how() {
        // "x ≤ 1 − 10⁻⁵ on [0, 1]": violated on 10⁻⁵ of the grid; 200 random draws miss it.
        let p = property([200, 200, 200], crate::strategy::real(0.0, 1.0), |x| Eval::le_by(*x, 1.0 - 1e-5, Scale(1.0), Tolerance::NONE));
        assert_eq!(run(&p, 1).verdict.tag(), crate::claim::VerdictKind::Holds, "quick: random only");
        let out = run_at(&p, 1, Budget::Standard);
        assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Refuted, "{:?}", out.verdict);
        assert_ne!(out.details["found_by"], serde_json::json!("random"));
        assert!(out.details["search"]["evaluations"].as_u64().unwrap() <= 100);
        // Off: random instances only, at any budget.
        let off = property([200, 200, 200], crate::strategy::real(0.0, 1.0), |x| Eval::le_by(*x, 1.0 - 1e-5, Scale(1.0), Tolerance::NONE)).search(Search::Off);
        assert_eq!(run_at(&off, 1, Budget::Standard).verdict.tag(), crate::claim::VerdictKind::Holds);
    }

    #[test]
    fn ties_are_counted_apart_and_the_worst_strict_violation_is_shown() {
        // x < 5 on the integers 0..10 with a rounding band of 0.5: x = 5 ties (not a refutation),
        // x > 5 violates; the counterexample shrinks within the strict violations to 6.
        let p = property([300, 300, 300], 0i64..10, |&x| Eval::lt(x as f64, 5.0, Scale(1.0), Tolerance::absolute(0.5)));
        let out = run(&p, 2);
        assert!(out.details["ties"].as_u64().unwrap() > 0 && out.details["violations"].as_u64().unwrap() > 0);
        let Verdict::Refuted { counterexample, violation, .. } = &out.verdict else { panic!("{:?}", out.verdict) };
        assert_eq!((counterexample.as_i64(), violation.lhs), (Some(6), 6.0));
        // Ties alone do not refute a relation computed with rounding.
        let ties_only = property([100, 100, 100], 0i64..6, |&x| Eval::lt(x as f64, 5.0, Scale(1.0), Tolerance::absolute(0.5)));
        assert_eq!(run(&ties_only, 2).verdict.tag(), crate::claim::VerdictKind::Holds);
        // An exactly computed strict relation is refuted by equality, shown as a tie.
        let exact = property([100, 100, 100], 0i64..6, |&x| Eval::lt(x as f64, 5.0, Scale(1.0), Tolerance::NONE));
        assert!(run(&exact, 2).verdict.summary().contains("exact tie"));
    }

    #[test]
    fn a_hypothesis_is_counted_apart_and_its_edge_is_searched() {
        // "if x + y ≤ 1 then x·y < 0.249" on [0, 1]²: false only where x + y ≥ 0.998 and
        // |x − y| ≤ 0.063, a sliver of area ~10⁻⁴ at the hypothesis's edge.
        let p = property([1000, 1000, 1000], (crate::strategy::real(0.0, 1.0), crate::strategy::real(0.0, 1.0)), |(x, y)| {
            Eval::lt(x * y, 0.249, Scale(1.0), Tolerance::NONE)
        })
        .given("x + y ≤ 1", |(x, y)| 1.0 - x - y);
        let out = run_at(&p, 3, Budget::Standard);
        assert!(out.details["outside_hypothesis"].as_u64().unwrap() > 300);
        assert_eq!(out.details["hypothesis"], serde_json::json!("x + y ≤ 1"));
        assert_eq!(out.verdict.tag(), crate::claim::VerdictKind::Refuted, "{:?}", out.verdict);
        assert!(matches!(p.replay(&serde_json::json!([0.9, 0.9]), &ctx()).unwrap(), Replay::Rejected(_)));
    }

    #[test]
    fn a_certificate_of_a_conditional_statement_needs_its_hypothesis_enclosed() {
        use crate::claim::{Certificate, Uncertified};
        use crate::math::Interval;
        // "if n is odd then n < 5" on 0..10, both sides exact: the conclusion's violation is
        // certified, the statement's refutation only when the hypothesis is too.
        let statement = || {
            property([200, 200, 200], 0i64..10, |&n| Eval::lt(Interval::exact(n as f64), Interval::exact(5.0), Scale(1.0), Tolerance::NONE))
                .given("n odd", |&n| if n % 2 == 1 { 1.0 } else { -1.0 })
        };
        let certificate = |p: &Property<_, _>| {
            let Verdict::Refuted { violation, .. } = run(p, 1).verdict else { panic!("not refuted") };
            Certificate::of(crate::claim::Kind::Property, Some(&violation), None)
        };
        let floats = certificate(&statement());
        assert!(matches!(&floats, Certificate::NotCertified { reason: Uncertified::Hypothesis, .. }), "{floats}");
        assert!(floats.to_string().contains("\"n odd\" was judged in floating point"), "{floats}");
        let exact = certificate(&statement().certify_given(|&n| Eval::holds_exactly(n % 2 == 1)));
        assert!(exact.is_certified(), "{exact}");
        // An enclosed hypothesis that does not hold certainly (an overlap) does not certify.
        let overlapping = certificate(&statement().certify_given(|_| Eval::ge_by(Interval::new(-1.0, 1.0), Interval::exact(0.0), Scale(1.0), Tolerance::NONE)));
        assert!(matches!(overlapping, Certificate::NotCertified { reason: Uncertified::Hypothesis, .. }), "{overlapping}");
    }

    #[test]
    fn same_seed_same_outcome() {
        let p = property([100, 100, 100], 0.0..100.0f64, |&x| Eval::le(x, 90.0, Tolerance::NONE));
        assert_eq!(run(&p, 9), run(&p, 9));
    }
}
