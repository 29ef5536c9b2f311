//! What a check is: the [`Check`] trait (of a [`Kind`]), and [`custom`] for a check written as a
//! closure.

use super::budget::Context;
use super::kind::Kind;
use super::replay::{not_replayable, rejudge_cell, Replay};
use super::verdict::Outcome;
use crate::error::Result;

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
