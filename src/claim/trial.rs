//! What one evaluation of a property may use besides its instance: the run's seed, budget and
//! backend, and random streams keyed by (seed, claim, instance).

use super::budget::{Budget, Context, Sizes};
use crate::mc::{Backend, Stream, StreamKey};

/// The run context handed to an evaluation ([`property_in`](super::property_in)): a Monte
/// Carlo estimate inside a property takes its horizon from the budget, its backend from the
/// run, and its draws from [`Trial::stream`], so the same seed gives the same estimate for the
/// same instance — in the random phase, in the search, in shrinking and in `ssmcheck replay`.
pub struct Trial<'a> {
    /// The run's seed.
    pub seed: u64,
    /// The run's budget.
    pub budget: Budget,
    /// The Monte Carlo backend.
    pub backend: &'a dyn Backend,
    ctx: &'a Context<'a>,
    instance: &'a dyn Fn() -> String,
}

impl<'a> Trial<'a> {
    /// The trial of the instance that `instance` serialises (lazily: only a trial that asks
    /// for a stream serialises its instance).
    pub fn new(ctx: &'a Context<'a>, instance: &'a dyn Fn() -> String) -> Self {
        Trial { seed: ctx.seed, budget: ctx.budget, backend: ctx.backend, ctx, instance }
    }
    /// The stream key for `part` of this instance: keyed by the seed, the claim and the
    /// instance's own value, so shrinking or replaying the instance redraws the same numbers.
    pub fn key(&self, part: &str) -> StreamKey {
        StreamKey::new(self.seed, &format!("{}/instance/{}/{}", self.ctx.stream_label, (self.instance)(), part))
    }
    /// Draw number `index` of `part`: a Philox stream (normals, uniforms, and
    /// `rand_core::RngCore` for any `rand_distr` distribution).
    pub fn stream(&self, part: &str, index: u64) -> Stream {
        Stream::new(self.key(part), index)
    }
    /// The size `what` at this run's budget (sample sizes, horizons), listed with the claim's
    /// results at every budget ([`Context::size`]).
    pub fn size<T: Clone + std::fmt::Debug>(&self, what: &str, sizes: Sizes<T>) -> T {
        self.ctx.size(what, sizes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::CpuBackend;
    use crate::progress::Silent;

    #[test]
    fn streams_are_keyed_by_seed_claim_and_instance() {
        let bar = Silent;
        let ctx = Context::new(3, Budget::Standard, &CpuBackend, "c", &bar);
        let (a, b) = (|| "1".to_string(), || "2".to_string());
        let (ta, tb) = (Trial::new(&ctx, &a), Trial::new(&ctx, &b));
        assert_eq!(ta.stream("x", 0).normal(), Trial::new(&ctx, &a).stream("x", 0).normal());
        assert_ne!(ta.stream("x", 0).normal(), tb.stream("x", 0).normal());
        assert_ne!(ta.stream("x", 0).normal(), ta.stream("y", 0).normal());
        assert_eq!(ta.size("n", Sizes::new(1, 2, 3)), 2);
        assert_eq!(ctx.sizes().len(), 1);
    }
}
