//! Which shard does what: a fixed function of the selection, the budget and the shard count,
//! so every task of an array and the merge compute the same plan without talking.
//!
//! Split claims ([`Claim::split`]) run on every shard, each doing 1/N of their paths. The other
//! claims go whole to one shard each, balanced by estimated cost: in decreasing order of cost
//! (ties in selection order), each to the shard with the least estimated work so far (ties: the
//! lowest index), after every shard is charged 1/N of each split claim (longest processing time
//! first; within 4/3 of the best possible balance for these estimates).
//!
//! The estimates are wall-clock seconds of each claim with its negative control on the CPU,
//! measured one process per claim by `scripts/measure_costs.sh` and committed in
//! `src/shard/costs.tsv`; the deep budget is estimated as [`DEEP_OVER_STANDARD`] times the
//! standard one, and a claim missing from the table (a user's conjecture, or a new claim) costs
//! the table's median at that budget. Estimates only balance the shards; they never change a
//! result.

use crate::claim::{Budget, Claim};

/// The measured costs, a cache (`scripts/measure_costs.sh` writes it; a claim it lacks costs the
/// median): `id \t quick seconds \t standard seconds` per line, `#` comments.
const COSTS: &str = include_str!("costs.tsv");

/// The deep budget's cost estimate over the standard one's (horizons and path counts grow about
/// tenfold from standard to deep in the Monte Carlo claims that dominate the total).
pub const DEEP_OVER_STANDARD: f64 = 10.0;

/// The floor of an estimate, seconds (a claim is never free: process and instance set-up).
const MIN_COST: f64 = 1e-3;

/// Where a claim runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Assignment {
    /// Wholly on this shard.
    Whole(u32),
    /// On every shard, each computing its range of the paths.
    Split,
}

/// The plan of a sharded run: one assignment per selected claim, in selection order.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The claims' ids, in selection order.
    pub ids: Vec<String>,
    /// Each claim's assignment.
    pub assignments: Vec<Assignment>,
    /// Each shard's estimated work, seconds.
    pub load: Vec<f64>,
}

impl Plan {
    /// The plan for `claims` (in selection order) at `budget` over `count` shards.
    pub fn new(claims: &[&Claim], budget: Budget, count: u32) -> Plan {
        let costs: Vec<f64> = claims.iter().map(|c| estimated_cost(&c.meta.id, budget)).collect();
        let mut load = vec![0.0; count as usize];
        let mut assignments = vec![Assignment::Split; claims.len()];
        for (c, cost) in claims.iter().zip(&costs) {
            if c.split {
                load.iter_mut().for_each(|l| *l += cost / f64::from(count));
            }
        }
        let mut whole: Vec<usize> = (0..claims.len()).filter(|&i| !claims[i].split).collect();
        whole.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]).then(a.cmp(&b)));
        for i in whole {
            let shard = (0..load.len()).min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b))).unwrap_or(0);
            load[shard] += costs[i];
            assignments[i] = Assignment::Whole(shard as u32);
        }
        Plan { ids: claims.iter().map(|c| c.meta.id.clone()).collect(), assignments, load }
    }

    /// The assignment of the claim with this id.
    pub fn of(&self, id: &str) -> Option<Assignment> {
        self.ids.iter().position(|i| i == id).map(|p| self.assignments[p])
    }
}

/// The estimated wall-clock seconds of claim `id` (with its control) at `budget`.
pub fn estimated_cost(id: &str, budget: Budget) -> f64 {
    let column = |quick: f64, standard: f64| match budget {
        Budget::Quick => quick,
        Budget::Standard => standard,
        Budget::Deep => standard * DEEP_OVER_STANDARD,
    };
    let table = table();
    let cost = match table.iter().find(|(i, _, _)| *i == id) {
        Some(&(_, q, s)) => column(q, s),
        None => {
            let mut all: Vec<f64> = table.iter().map(|&(_, q, s)| column(q, s)).collect();
            all.sort_by(f64::total_cmp);
            all.get(all.len() / 2).copied().unwrap_or(1.0)
        }
    };
    cost.max(MIN_COST)
}

/// The rows of the cost table.
fn table() -> Vec<(&'static str, f64, f64)> {
    COSTS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?, f.next()?.parse().ok()?, f.next()?.parse().ok()?))
        })
        .collect()
}

// Both tests place the shipped claims.
#[cfg(all(test, feature = "families"))]
mod tests {
    use super::*;

    #[test]
    fn the_cost_cache_is_well_formed_and_names_only_shipped_claims() {
        // The table is a cache of measurements: a claim it lacks (a new one, a user's) costs the
        // median, so adding a claim does not touch it; a row it has must be well formed, unique
        // and name a shipped claim (rerun scripts/measure_costs.sh after renaming one).
        let registry = crate::claims::registry();
        let rows = table();
        assert_eq!(rows.len(), COSTS.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).count(), "a malformed row");
        for (id, _, _) in &rows {
            assert!(registry.get(id).is_ok(), "{id}: a cost for a claim that does not exist (rerun scripts/measure_costs.sh)");
            assert_eq!(rows.iter().filter(|(i, _, _)| i == id).count(), 1, "{id} twice");
        }
        let median = estimated_cost("a claim not measured yet", Budget::Standard);
        assert!(median > 0.0 && median < rows.iter().map(|r| r.2).fold(0.0, f64::max));
    }

    #[test]
    fn every_claim_is_placed_and_the_load_is_balanced() {
        let registry = crate::claims::registry();
        let claims: Vec<&Claim> = registry.iter().collect();
        for count in [1u32, 2, 4, 7] {
            let plan = Plan::new(&claims, Budget::Standard, count);
            assert_eq!(plan, Plan::new(&claims, Budget::Standard, count), "the plan is a function of its inputs");
            for (c, a) in claims.iter().zip(&plan.assignments) {
                match a {
                    Assignment::Split => assert!(c.split),
                    Assignment::Whole(s) => assert!(!c.split && *s < count),
                }
            }
            // Longest processing time first: no shard exceeds the mean by more than the largest whole claim.
            let mean = plan.load.iter().sum::<f64>() / f64::from(count);
            let largest = claims.iter().filter(|c| !c.split).map(|c| estimated_cost(&c.meta.id, Budget::Standard)).fold(0.0, f64::max);
            assert!(plan.load.iter().all(|&l| l <= mean + largest + 1e-9), "{count}: {:?}", plan.load);
        }
    }
}
