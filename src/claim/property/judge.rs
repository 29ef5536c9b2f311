//! The property judge's run: the random phase, the search when it refuted nothing, the shrunk
//! counterexample or the closest instance, and the replay of one instance.

use super::{Judge, Search, Tree};
use crate::claim::budget::{Budget, Context, Sizes};
use crate::claim::comparison::{HypothesisStanding, Relation, Standing, Violation};
use crate::claim::eval::Eval;
use crate::claim::instance::Instance;
use crate::claim::kind::Kind;
use crate::claim::replay::Replay;
use crate::claim::search::{self, Choices, EdgeSeeds, Found, Objective, Phase};
use crate::claim::trial::Trial;
use crate::claim::verdict::{Outcome, Verdict, Witness};
use crate::error::Result;
use crate::stats::clopper_pearson;
use proptest::strategy::ValueTree;

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

/// The judge as the search's objective: its strategy's choices rebuilt, its evaluation with the
/// hypothesis.
impl Objective for Judge {
    fn rebuild(&self, choices: &Choices) -> Option<Instance> {
        search::replay(&self.strategy, choices).map(|tree| tree.current())
    }

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

    fn conditional(&self) -> bool {
        self.given.is_some()
    }
}

impl Judge {
    /// The 32 seed bytes of instance `i`: keyed by (seed, claim, instance), so an instance
    /// does not depend on the ones before it.
    fn instance_seed(ctx: &Context, i: u64) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (j, chunk) in out.chunks_mut(8).enumerate() {
            chunk.copy_from_slice(&ctx.key(&format!("instance{i}/{j}")).as_u64().to_le_bytes());
        }
        out
    }

    pub(super) fn replay(&self, instance: &serde_json::Value, ctx: &Context) -> Result<Replay> {
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

    pub(super) fn run(&self, ctx: &Context) -> Result<Outcome> {
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
                replay = search::replayable(&seed, &choices);
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
                if search::better(&eval, &worst) {
                    worst = Some(found);
                    worst_tree = Some(tree);
                }
            } else {
                search::offer(&mut pool, found);
            }
        }
        let closest = pool.first().map(|f| (f.value.to_json().unwrap_or_default(), f.eval.margin().unwrap_or(f64::NAN), f.phase));
        let mut search_record = None;
        if worst.is_none() && extra > 0 && t.nan == 0 && !pool.is_empty() && !stopped {
            if let Err(forks) = replay {
                search_record = Some(serde_json::json!({ "evaluations": 0, "unavailable": search::unavailable(&self.strategy_name, forks) }));
            } else {
                let (found, record) = search::targeted(self, ctx, extra, pool, &edge, max_len);
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
            // The search's effort: evaluations up to the refuting one, the random phase's
            // included when the search found it.
            let found_after = if phase == Phase::Random { at } else { t.cases + at };
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
            let mut out =
                base(verdict, Some(margin)).detail("shrink_steps", steps).detail("found_by", phase.name()).detail("found_after", found_after).figures(figures);
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
}

fn ties_note(ties: u64) -> String {
    if ties == 0 {
        String::new()
    } else {
        format!(" ({ties} ties within rounding, counted apart)")
    }
}
