//! 003 §4.2, after Theorem 1: how the right-hand side of (7) — the score the theorem asks of
//! pos(i) — moves with a_max,<, a_min,> and L.
//!
//! `R = (1 − ε′/2)/α_pos + (δ/2)·(a_max,</(1 − a_max,<) + Σ_{k=1}^{L−1} (1/a_min,>)^k)`; (7) is
//! satisfied more easily when R is smaller. a/(1 − a) grows with a, and each (1/a)^k shrinks as a
//! grows, while the sum gains terms as L grows.
//!
//! * `003.thm1.easier.printed` (Erratum, typo): "when a_min,> and L are smaller and a_max,< is
//!   larger, (7) will be satisfied more easily" — two of the three directions are reversed (the
//!   paper's next sentences give the right ones); read as the three changes together, it fails
//!   too.
//! * `003.thm1.easier` (Theorem): R does not grow when a_max,< is smaller, a_min,> larger or L
//!   smaller. Control: a_min,> smaller.
//!
//! R is evaluated in interval arithmetic ([`Interval`]), so a refutation is certified and a
//! change too small to separate the enclosures is a tie, never a violation.

use crate::claim::{property, Claim, ErrorKind, Eval, Paper, Scale, Tolerance};
use crate::math::Interval;
use crate::strategy::grid;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// The parameters of (7)'s right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Condition7 {
    /// a_max,< (the largest decay before pos(i)), in (0, 1).
    pub a_max: f64,
    /// a_min,> (the smallest decay after pos(i)), in (0, 1).
    pub a_min: f64,
    /// L, the largest distance between the copied position and the query (≥ 1).
    pub window: u32,
    /// δ of Assumption 1.
    pub delta: f64,
    /// ε′ = ε/(M‖Δ‖∞).
    pub eps_rel: f64,
    /// α_pos(i) = ∏_{k=pos+1}^{i} a_k, in (0, 1].
    pub alpha_pos: f64,
}

impl Condition7 {
    /// R, enclosed: `(1 − ε′/2)/α_pos + (δ/2)(a_max/(1 − a_max) + Σ_{k=1}^{L−1} (1/a_min)^k)`.
    pub fn required_score(&self) -> Interval {
        let x = Interval::exact;
        let one = x(1.0);
        let ratio = one / x(self.a_min);
        let (mut power, mut sum) = (one, x(0.0));
        for _ in 1..self.window {
            power *= ratio;
            sum += power;
        }
        let before = x(self.a_max) / (one - x(self.a_max));
        (one - x(self.eps_rel) * 0.5) / x(self.alpha_pos) + x(self.delta) * 0.5 * (before + sum)
    }
}

/// One parameter moved in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Change {
    /// a_min,> made smaller.
    SmallerAMin,
    /// a_min,> made larger.
    LargerAMin,
    /// L made smaller.
    SmallerWindow,
    /// a_max,< made larger.
    LargerAMax,
    /// a_max,< made smaller.
    SmallerAMax,
    /// The printed sentence's three changes at once: a_min,> and L smaller, a_max,< larger.
    PrintedTogether,
}

/// A condition and the same condition with one parameter moved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moved {
    /// The condition before the change.
    pub before: Condition7,
    /// Which parameter moved, and which way.
    pub change: Change,
    /// The condition after it.
    pub after: Condition7,
}

/// A condition on grids (decays on 1/64 in [1/64, 63/64], L ≤ 24, δ and ε′ on 1/64 in (0, 1),
/// α_pos on 1/64 in (0, 1]) and one of `changes` by one to sixteen grid steps (or L by 1 to L − 1).
fn moved(changes: &'static [Change]) -> impl Strategy<Value = Moved> + Clone {
    let inside = || grid(1.0 / 64.0, 63.0 / 64.0, 1.0 / 64.0);
    (inside(), inside(), 2u32..=24, inside(), inside(), grid(1.0 / 64.0, 1.0, 1.0 / 64.0), 0..changes.len(), 1u32..=16).prop_map(
        move |(a_max, a_min, window, delta, eps_rel, alpha_pos, c, steps)| {
            let before = Condition7 { a_max, a_min, window, delta, eps_rel, alpha_pos };
            let step = f64::from(steps) / 64.0;
            let clamp = |a: f64| a.clamp(1.0 / 64.0, 63.0 / 64.0);
            let shorter = window - 1 - (steps - 1) % (window - 1);
            let change = changes[c];
            let after = match change {
                Change::SmallerAMin => Condition7 { a_min: clamp(a_min - step), ..before },
                Change::LargerAMin => Condition7 { a_min: clamp(a_min + step), ..before },
                Change::SmallerWindow => Condition7 { window: shorter, ..before },
                Change::LargerAMax => Condition7 { a_max: clamp(a_max + step), ..before },
                Change::SmallerAMax => Condition7 { a_max: clamp(a_max - step), ..before },
                Change::PrintedTogether => Condition7 { a_min: clamp(a_min - step), window: shorter, a_max: clamp(a_max + step), ..before },
            };
            Moved { before, change, after }
        },
    )
}

/// "(7) is satisfied at least as easily after the change": R after ≤ R before, enclosed.
fn no_harder(m: &Moved) -> Eval {
    Eval::le_by(m.after.required_score(), m.before.required_score(), Scale(m.before.required_score().mid()), Tolerance::NONE)
}

const SIDES: (&str, &str) = ("R after the change (enclosed)", "R before it (enclosed)");

/// `003.thm1.easier.printed` (erratum): §4.2, after Theorem 1.
fn claim_easier_printed() -> Claim {
    Claim::erratum(
        "003.thm1.easier.printed",
        super::FAMILY,
        "(7) is satisfied at least as easily — its right-hand side R = (1 − ε′/2)/α_pos + (δ/2)(a_max,</(1 − a_max,<) + \
         ((1/a_min,>)^{L−1} − 1)/(1 − a_min,>)) does not grow — when a_min,> is made smaller, L smaller or a_max,< larger, \
         one at a time or all three together (grids: decays on 1/64, L ≤ 24, δ, ε′, α_pos on 1/64; R in interval arithmetic).",
        property([300, 3000, 30000], moved(&[Change::SmallerAMin, Change::SmallerWindow, Change::LargerAMax, Change::PrintedTogether]), no_harder).sides(SIDES.0, SIDES.1),
    )
    .source(Paper::FreeLunch, "§4.2, after Theorem 1", "In addition, when a_min,> and L are smaller and a_max,< is larger, the aforementioned condition (7) will be satisfied more easily.")
    .correction("(7) is satisfied more easily when a_max,< is smaller, a_min,> larger and L smaller (003.thm1.easier), as the paper's next sentences say.")
    .error(
        ErrorKind::Typo,
        "§4.2 says 'when a_min,> and L are smaller and a_max,< is larger, the aforementioned condition (7) will be satisfied more easily', but (7)'s right-hand side grows with a_max,< (a/(1 − a)) and shrinks as a_min,> grows (each (1/a)^k), so two of the three directions are reversed; L is right. Read as the three changes made together, it fails too (L smaller drops the largest term of the sum, but a_min,> smaller can raise the rest by more). The next sentences of the same paragraph state the right ones ('a_max,< is smaller', 'a_min,> should be as large as possible'), so the first sentence is a slip, checked as 003.thm1.easier.",
    )
    .holds_instead(&["003.thm1.easier"])
}

/// `003.thm1.easier` (theorem): §4.2, after Theorem 1, the directions corrected.
fn claim_easier() -> Claim {
    Claim::theorem(
        "003.thm1.easier",
        super::FAMILY,
        "(7)'s right-hand side R = (1 − ε′/2)/α_pos + (δ/2)(a_max,</(1 − a_max,<) + ((1/a_min,>)^{L−1} − 1)/(1 − a_min,>)) does \
         not grow when a_max,< is made smaller, a_min,> larger or L smaller (grids: decays on 1/64, L ≤ 24, δ, ε′, α_pos on 1/64; \
         R in interval arithmetic).",
        property([300, 3000, 30000], moved(&[Change::SmallerAMax, Change::LargerAMin, Change::SmallerWindow]), no_harder).sides(SIDES.0, SIDES.1),
    )
    .source(Paper::FreeLunch, "§4.2, after Theorem 1 (the paragraph's later sentences)", "the terms before pos(i) should be forgotten sufficiently (a_max,< is smaller) … the forgetting coefficient after pos(i) should not be too small (correspondingly, a_min,> should be as large as possible)")
    .control("a_min,> made smaller", property([300, 3000, 30000], moved(&[Change::SmallerAMax, Change::SmallerAMin, Change::SmallerWindow]), no_harder).sides(SIDES.0, SIDES.1))
}

/// Registers 003.thm1.easier.printed and 003.thm1.easier.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_easier_printed());
    r.add(claim_easier());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_enclosed_right_hand_side_is_the_closed_form() {
        let c = Condition7 { a_max: 0.5, a_min: 0.25, window: 3, delta: 0.5, eps_rel: 0.5, alpha_pos: 0.5 };
        // (1 − 1/4)/(1/2) + (1/4)(1 + 4 + 16) = 1.5 + 5.25.
        let r = c.required_score();
        assert!(r.lo <= 6.75 && 6.75 <= r.hi && r.hi - r.lo < 1e-14, "{r:?}");
    }

    /// The sentence read as its three changes at once (a_min,> 1/2 → 1/16, L 3 → 2, a_max,< 1/2 →
    /// 33/64): R rises from 3.25 to 1.5 + (1/4)(33/31 + 16) ≈ 5.77.
    #[test]
    fn the_three_printed_changes_together_can_make_7_harder() {
        let before = Condition7 { a_max: 0.5, a_min: 0.5, window: 3, delta: 0.5, eps_rel: 0.5, alpha_pos: 0.5 };
        let after = Condition7 { a_max: 33.0 / 64.0, a_min: 1.0 / 16.0, window: 2, ..before };
        assert!(no_harder(&Moved { before, change: Change::PrintedTogether, after }).refutes());
    }
}
