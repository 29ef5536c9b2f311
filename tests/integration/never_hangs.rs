//! A search that never hangs: the strategy shapes and the seed that once made a run spin
//! without end now finish with a verdict, each within its budget's time.
//!
//! - `004.cor1.printed` at seed 2024 (quick): its shrinker met a matrix on which nalgebra's
//!   unbounded Schur iteration never returns; the capped decomposition reports non-convergence.
//! - `vec(edge_biased(0, 1), d)`, a user's natural vector in [0, 1]^d with its ends, at the
//!   standard and deep budgets (which search): `prop_oneof!` forked the replay stream until it
//!   read zeros, which a rejection sampler never accepts. `edge_biased` is now a fork-free
//!   [`strategy::one_of`]; a vector of proptest unions is not replayed and the run says so.

use proptest::prelude::*;
use ssmcheck::claim::{Budget, ClaimResult, RunConfig};
use ssmcheck::mc::CpuBackend;
use ssmcheck::prelude::*;

fn run(claim: &Claim, seed: u64, budget: Budget) -> ClaimResult {
    let cfg = RunConfig { seed, budget, backend: &CpuBackend, progress: false, parallel: false };
    ssmcheck::claim::run_claim(claim, &cfg)
}

#[test]
fn cor1_printed_finishes_at_seed_2024() {
    let registry = ssmcheck::claims::registry();
    let result = run(registry.get("004.cor1.printed").unwrap(), 2024, Budget::Quick);
    assert!(result.agrees, "{result}");
    assert!(result.result.is_refuted());
}

/// Three statements over `[0, 1]^12` written as a user writes them: one true, one false on a
/// large set, one false only at the corner where every coordinate is 1.
fn over_the_cube(name: &str, strategy: impl Strategy<Value = Vec<f64>> + Send + Sync + 'static, bound: f64) -> Claim {
    Claim::conjecture(
        name,
        Family::USER,
        "Σ x_i ≤ bound over the cube",
        property([60, 200, 400], strategy, move |x: &Vec<f64>| Eval::le(x.iter().sum::<f64>(), bound, Tolerance::NONE)),
    )
}

#[test]
fn vectors_of_unions_finish_at_every_budget() {
    let fork_free = || proptest::collection::vec(strategy::edge_biased(0.0, 1.0), 12);
    let forking =
        || proptest::collection::vec(prop_oneof![4 => 0.0..1.0f64, 1 => Just(0.0), 1 => Just(1.0), 1 => (1i64..1000).prop_map(|i| 1.0 - 1.0 / i as f64)], 12);
    for budget in [Budget::Standard, Budget::Deep] {
        for (name, claim, refuted) in [
            ("fork-free, true", over_the_cube("user.true", fork_free(), 12.0), false),
            ("fork-free, false", over_the_cube("user.false", fork_free(), 6.0), true),
            ("proptest unions, true", over_the_cube("user.unions", forking(), 12.0), false),
        ] {
            let started = std::time::Instant::now();
            let r = run(&claim, 1, budget);
            assert_eq!(r.result.is_refuted(), refuted, "{name} at {budget:?}: {r}");
            assert!(started.elapsed().as_secs() < 60, "{name} at {budget:?} took {:?}", started.elapsed());
            if name.contains("unions") {
                let why = r.details["search"]["unavailable"].as_str().unwrap_or_default();
                assert!(why.contains("one_of"), "{name}: {}", r.details["search"]);
            }
        }
    }
}
