//! A conjecture's negative control (`#[with(control = …)]`): the mutant runs over the same
//! strategies with the conjecture's options (whatever their order), and a conjecture that holds
//! agrees only when its control is refuted at the same sample size.

use ssmcheck::claim::{run_claim, Budget, RunConfig, VerdictKind};
use ssmcheck::mc::CpuBackend;
use ssmcheck::prelude::*;

ssmcheck::conjecture! {
    /// If x ≤ ½ then x² ≤ ¼ on [0, 1]; control: the bound lowered to 0.2.
    #[with(control = ("¼ lowered to 0.2", Eval::le(x * x, 0.2, Tolerance::NONE)), given = ("x ≤ ½", *x <= 0.5), cases = [150, 150, 150])]
    fn square_of_a_half(x in strategy::real(0.0, 1.0)) {
        Eval::le(x * x, 0.25, Tolerance::NONE)
    }
}

ssmcheck::conjecture! {
    /// x² ≤ 1 on [0, 1], with a control that is no mutant (x² ≤ 2 holds too).
    #[with(control = ("1 raised to 2", Eval::le(x * x, 2.0, Tolerance::NONE)))]
    fn square_at_most_one(x in strategy::real(0.0, 1.0)) {
        Eval::le(x * x, 1.0, Tolerance::NONE)
    }
}

fn cfg() -> RunConfig<'static> {
    RunConfig { seed: 1, budget: Budget::Quick, backend: &CpuBackend, progress: false, parallel: false }
}

#[test]
fn a_control_refuted_at_the_same_size_makes_a_holding_conjecture_agree() {
    let claim = square_of_a_half();
    assert!(claim.control.is_some());
    let r = run_claim(&claim, &cfg());
    assert_eq!(r.result.verdict, VerdictKind::Holds);
    let control = r.control.as_ref().expect("the control ran");
    assert!(control.detected && control.mutation == "¼ lowered to 0.2");
    // The hypothesis and the cases given after the control apply to it too.
    assert_eq!((r.result.cases, control.result.cases), (150, 150));
    assert!(r.agrees, "{:?}", r.disagreement);
}

#[test]
fn a_control_that_is_not_refuted_is_a_disagreement() {
    let r = run_claim(&square_at_most_one(), &cfg());
    assert_eq!(r.result.verdict, VerdictKind::Holds);
    assert!(!r.agrees);
    assert!(r.disagreement.as_deref().is_some_and(|d| d.contains("negative control '1 raised to 2' not refuted")), "{:?}", r.disagreement);
}
