//! `quickcheck::Arbitrary` for the public model-parameter types (feature `quickcheck`), so a
//! quickcheck user can write `#[quickcheck] fn prop(m: DiagonalSsm) -> bool` over ssmcheck's
//! models. The draws mirror [`strategy`](crate::strategy): stable modes, grid values, ZOH.

use crate::model::{DeltaRule, DiagonalSsm, Discretization};
use quickcheck::{Arbitrary, Gen};

/// A value `i·step` in `[lo, hi]` from quickcheck's generator.
fn grid(g: &mut Gen, lo: f64, hi: f64, step: f64) -> f64 {
    let (a, b) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
    let span = (b - a + 1) as u64;
    (a + (u64::arbitrary(g) % span) as i64) as f64 * step
}

impl Arbitrary for DeltaRule {
    fn arbitrary(g: &mut Gen) -> Self {
        if bool::arbitrary(g) {
            DeltaRule::Fixed { delta: grid(g, 0.0625, 2.0, 0.0625) }
        } else {
            DeltaRule::Selective { w: grid(g, -2.0, 2.0, 0.125), b: grid(g, -4.0, 2.0, 0.125) }
        }
    }
}

impl Arbitrary for Discretization {
    fn arbitrary(g: &mut Gen) -> Self {
        *g.choose(&[Discretization::Zoh, Discretization::Euler]).expect("two choices")
    }
}

/// A diagonal SSM with 1–8 stable modes (`a` on a 1/16 grid in `[−4, −1/16]`), `B` weights on
/// a 1/8 grid in `[−2, 2]`. Shrinks by dropping modes.
impl Arbitrary for DiagonalSsm {
    fn arbitrary(g: &mut Gen) -> Self {
        let n = 1 + usize::arbitrary(g) % 8;
        DiagonalSsm {
            a: (0..n).map(|_| grid(g, -4.0, -0.0625, 0.0625)).collect(),
            b_bias: (0..n).map(|_| grid(g, -2.0, 2.0, 0.125)).collect(),
            b_weight: (0..n).map(|_| grid(g, -2.0, 2.0, 0.125)).collect(),
            delta: DeltaRule::arbitrary(g),
            disc: Discretization::arbitrary(g),
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let me = self.clone();
        Box::new((1..me.a.len()).rev().map(move |n| DiagonalSsm {
            a: me.a[..n].to_vec(),
            b_bias: me.b_bias[..n].to_vec(),
            b_weight: me.b_weight[..n].to_vec(),
            ..me.clone()
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arbitrary_models_are_stable_and_shrink_by_modes() {
        let mut g = Gen::new(10);
        for _ in 0..100 {
            let m = DiagonalSsm::arbitrary(&mut g);
            assert!(m.a.iter().all(|&a| a < 0.0) && m.a.len() == m.b_bias.len());
            assert!(m.shrink().all(|s| s.a.len() < m.a.len()));
        }
    }
}
