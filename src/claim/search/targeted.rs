//! The targeted search: after a random phase that refuted nothing, boundary-biased draws, the
//! edge of a conditional statement's hypothesis, and a climb from the lowest margins, all over
//! the strategy's choice sequence ([`Objective`] is what it searches).

use super::{between, boundary, mutate, Choices, Phase};
use crate::claim::budget::Context;
use crate::claim::comparison::Standing;
use crate::claim::eval::Eval;
use crate::claim::instance::Instance;
use crate::mc::Stream;

/// What the targeted search searches: a strategy's choice sequence, mapped to instances and
/// their evaluations (the property judge).
pub(crate) trait Objective {
    /// The instance `choices` encode (`None` when the strategy builds none from them).
    fn rebuild(&self, choices: &Choices) -> Option<Instance>;
    /// An instance's evaluation (a rejection outside the hypothesis).
    fn evaluate(&self, ctx: &Context, value: &Instance) -> Eval;
    /// Whether an instance meets the statement's hypothesis.
    fn inside(&self, value: &Instance) -> bool;
    /// Whether the statement has a hypothesis, whose edge the search samples.
    fn conditional(&self) -> bool;
}

/// One evaluated instance with the choices that produced it.
pub(crate) struct Found {
    pub(crate) value: Instance,
    pub(crate) choices: Choices,
    pub(crate) eval: Eval,
    pub(crate) phase: Phase,
    /// The evaluation (counted within its phase) that found it.
    pub(crate) at: u64,
}

/// Orders evaluations: strict violations first (most negative margin first), then refuting
/// ties, then the rest by margin; equal margins by the gap's low part
/// ([`Comparison::residual`](crate::claim::comparison::Comparison::residual)), which keeps a
/// margin that rounding flattened (a gate far from its threshold) informative.
pub(crate) fn rank(e: &Eval) -> (u8, f64, f64) {
    let m = e.margin().unwrap_or(f64::INFINITY);
    let low = e.comparison().map_or(0.0, |c| c.residual());
    match e.standing() {
        Some(Standing::Violated) => (0, m, low),
        Some(Standing::Tie) if e.refutes() => (1, m, low),
        _ => (2, m, low),
    }
}

/// Whether `a` is a worse violation than the one kept (by class and margin only: among equal
/// violations the first found stays, so the witness does not move with the residual).
pub(crate) fn better(a: &Eval, b: &Option<Found>) -> bool {
    let key = |e: &Eval| {
        let (class, margin, _) = rank(e);
        (class, margin)
    };
    b.as_ref().is_none_or(|f| key(a) < key(&f.eval))
}

/// The lowest-margin instances kept as the climb's starting points.
const POOL: usize = 4;

/// Random instances on either side of a hypothesis (up to 16 each), the ends of the segments
/// the edge phase bisects.
#[derive(Default)]
pub(crate) struct EdgeSeeds {
    pub(crate) outside: Vec<Choices>,
    pub(crate) inside: Vec<Choices>,
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
pub(crate) fn offer(pool: &mut Vec<Found>, f: Found) {
    if f.eval.standing() == Some(Standing::Nan) || (pool.len() >= POOL && rank(&f.eval) >= rank(&pool[POOL - 1].eval)) {
        return;
    }
    pool.push(f);
    pool.sort_by(|a, b| rank(&a.eval).partial_cmp(&rank(&b.eval)).unwrap_or(std::cmp::Ordering::Equal));
    pool.truncate(POOL);
}

/// Why the search cannot replay a strategy's draws (`forks`: how often one draw forked its RNG,
/// `usize::MAX` when its bytes could not be aligned with its seed's stream), naming the strategy.
pub(crate) fn unavailable(strategy: &str, forks: usize) -> String {
    let why = if forks == usize::MAX {
        "a draw's bytes could not be aligned with its seed's stream (a read of part of a word)".to_string()
    } else {
        format!("a draw forked its RNG {forks} times (prop_oneof! once per arm before the one it picks, prop_flat_map once), which leaves a replay of its bytes too few to read")
    };
    format!("the targeted search is off for the strategy {strategy}: {why}; draw unions with ssmcheck::strategy::one_of, which does not fork")
}

/// Evaluates the value that `choices` encode (`None` when the strategy cannot build one
/// from them or the value is rejected).
fn try_choices<O: Objective + ?Sized>(obj: &O, ctx: &Context, st: &mut SearchState, choices: Choices, phase: Phase) -> Option<Found> {
    st.attempts += 1;
    let value = obj.rebuild(&choices)?;
    let eval = obj.evaluate(ctx, &value);
    eval.margin()?;
    st.used[phase as usize - 1] += 1;
    ctx.progress.advance(1);
    Some(Found { value, choices, eval, phase, at: st.used.iter().sum() })
}

/// Fresh draws biased to the domain's edges; the lowest margins join the pool.
fn boundary_phase<O: Objective + ?Sized>(obj: &O, ctx: &Context, st: &mut SearchState, budget: u64, len: usize) -> Option<Found> {
    while st.used[0] < budget && st.more(ctx) {
        let choices = boundary(len, &mut st.stream);
        let Some(f) = try_choices(obj, ctx, st, choices, Phase::Boundary) else { continue };
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
fn edge_phase<O: Objective + ?Sized>(obj: &O, ctx: &Context, st: &mut SearchState, budget: u64, outside: &[Choices], inside: &[Choices]) -> Option<Found> {
    if !obj.conditional() || outside.is_empty() || inside.is_empty() {
        return None;
    }
    let mut k = 0usize;
    while st.used[1] < budget && st.more(ctx) {
        let (from, to) = (&outside[k % outside.len()], inside[(k / outside.len() + k) % inside.len()].clone());
        k += 1;
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..24 {
            let t = 0.5 * (lo + hi);
            let inside = obj.rebuild(&between(from, &to, t)).is_some_and(|v| obj.inside(&v));
            if inside {
                hi = t;
            } else {
                lo = t;
            }
        }
        let Some(f) = try_choices(obj, ctx, st, between(from, &to, hi), Phase::Edge) else { continue };
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
fn climb<O: Objective + ?Sized>(obj: &O, ctx: &Context, st: &mut SearchState, budget: u64) -> Option<Found> {
    let mut chains: Vec<(Found, f64)> = std::mem::take(&mut st.pool).into_iter().map(|f| (f, 16.0)).collect();
    let mut k = 0usize;
    while !chains.is_empty() && st.used.iter().sum::<u64>() < budget && st.more(ctx) {
        let i = k % chains.len();
        k += 1;
        let candidate = mutate(&chains[i].0.choices, chains[i].1, &mut st.stream);
        let Some(f) = try_choices(obj, ctx, st, candidate, Phase::Targeted) else { continue };
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
pub(crate) fn targeted<O: Objective + ?Sized>(
    obj: &O,
    ctx: &Context,
    budget: u64,
    pool: Vec<Found>,
    edge: &EdgeSeeds,
    len: usize,
) -> (Option<Found>, serde_json::Value) {
    // The replay must reproduce what was drawn, or the search would judge other instances.
    if let Some(f) = pool.first() {
        let same = obj.rebuild(&f.choices).is_some_and(|v| v.to_json().ok() == f.value.to_json().ok());
        if !same {
            return (
                None,
                serde_json::json!({ "evaluations": 0, "unavailable": "the strategy's draws cannot be rebuilt from their bytes (it forks its RNG)" }),
            );
        }
    }
    let mut st = SearchState { used: [0; 3], attempts: 0, max_attempts: 8 * budget + 64, stream: Stream::new(ctx.key("search"), 0), pool };
    let found = boundary_phase(obj, ctx, &mut st, budget / 4, len)
        .or_else(|| edge_phase(obj, ctx, &mut st, budget / 8, &edge.outside, &edge.inside))
        .or_else(|| climb(obj, ctx, &mut st, budget));
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
