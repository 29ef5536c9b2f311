//! What a check is: the [`Check`] trait, its [`Kind`], and [`custom`] for a check written as a
//! closure.

use super::budget::Context;
use super::replay::{not_replayable, rejudge_cell, Replay};
use super::verdict::Outcome;
use crate::error::Result;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What kind of check judges the claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A predicate with a signed margin over random instances, with shrinking.
    Property,
    /// A Monte Carlo estimate with an exact interval compared with a bound.
    Statistical,
    /// A sweep plus a fitted rate with an interval compared with the predicted rate.
    Rate,
    /// Explicit weights from a proof, built and run on random task instances.
    Construction,
    /// Models trained by gradient descent over several seeds, their held-out scores judged
    /// with exact intervals against a stated criterion (an experiment of a paper).
    Training,
}

impl Kind {
    /// The lowercase name used in JSON and tables.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Property => "property",
            Kind::Statistical => "statistical",
            Kind::Rate => "rate",
            Kind::Construction => "construction",
            Kind::Training => "training",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// A check: runs in a [`Context`] and returns an [`Outcome`].
pub trait Check: Send + Sync {
    /// The kind of check (property, statistical, rate, construction).
    fn kind(&self) -> Kind;
    /// Runs the check.
    fn run(&self, ctx: &Context) -> Result<Outcome>;
    /// Re-evaluates one instance (a counterexample from the results JSON, or a candidate) and
    /// returns both sides of the relation with the margin. Property checks replay any instance
    /// of their strategy; statistical and rate checks re-judge a cell from its recorded numbers.
    /// `ctx` gives the seed and budget a property's [`Trial`](super::Trial) uses.
    fn replay(&self, instance: &serde_json::Value, ctx: &Context) -> Result<Replay> {
        let _ = (instance, ctx);
        Err(not_replayable(&format!("a {} check without a replay", self.kind())))
    }
}

/// A check written as a closure, with its kind.
pub struct FnCheck<F> {
    kind: Kind,
    f: F,
}

/// Wraps a closure as a [`Check`] of the given kind.
pub fn custom<F>(kind: Kind, f: F) -> FnCheck<F>
where
    F: Fn(&Context) -> Result<Outcome> + Send + Sync,
{
    FnCheck { kind, f }
}

impl<F> Check for FnCheck<F>
where
    F: Fn(&Context) -> Result<Outcome> + Send + Sync,
{
    fn kind(&self) -> Kind {
        self.kind
    }
    fn run(&self, ctx: &Context) -> Result<Outcome> {
        (self.f)(ctx)
    }
    /// A cell of a statistical or rate judgement is re-judged from its numbers; other
    /// custom checks measure whole sweeps and cannot replay one instance.
    fn replay(&self, instance: &serde_json::Value, _: &Context) -> Result<Replay> {
        rejudge_cell(instance)
            .map(Replay::Evaluated)
            .ok_or_else(|| not_replayable(&format!("this {} check's counterexample is a summary of a sweep, not a cell with counts or an interval", self.kind)))
    }
}
