//! Your own conjectures: add a claim here and it appears in `cargo test`, `ssmcheck list`
//! and the report. The example below is the README's worked example.

use crate::claim::{property, Claim, Eval, Family, Registry};
use crate::claims::strategies::{grid, grid_vec};
use crate::model::{DeltaRule, DiagonalSsm, Discretization};

/// Registers the user conjectures.
pub fn register(r: &mut Registry) {
    r.add(
        Claim::conjecture(
            "user.s6.monotone",
            Family::Decay,
            "For S6 with one stable mode a < 0, B = 1, Δ = softplus(x), |LRD(1+k, 1)| is non-increasing in k ≤ 19.",
            property([200, 2000, 20000], (grid(-2.0, -0.0625, 0.0625), grid_vec(20, -3.0, 3.0, 0.0625)), |(a, x): &(f64, Vec<f64>)| {
                let delta = DeltaRule::Selective { w: 1.0, b: 0.0 };
                let m = DiagonalSsm { a: vec![*a], b_bias: vec![1.0], b_weight: vec![0.0], delta, disc: Discretization::Zoh };
                let lrd: Vec<f64> = (0..20).map(|k| m.lrd_eq10(x, 1, k)[0].abs()).collect();
                lrd.windows(2).map(|p| Eval::le(p[1], p[0], 1e-12, 0.0)).fold(Eval::Margin(1.0), Eval::min)
            }),
        )
        .source("user (README example)", "a conjecture of yours", "|LRD| of a one-mode S6 never increases."),
    );
}
