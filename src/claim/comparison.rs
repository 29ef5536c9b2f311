//! The two sides of a judged relation: what a refutation records besides the instance, so a
//! reader can recompute the violation from the results JSON alone (both sides as numbers, the
//! tolerances, the margin and the formula that produced it).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The relation a claim asserts between its two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// `lhs ≤ rhs`, with the stated tolerances.
    AtMost,
    /// `lhs ≥ rhs`, with the stated tolerances.
    AtLeast,
    /// `lhs = |got − want| ≤ rhs = rtol·scale + atol`.
    Within,
    /// `lhs < rhs` (strict).
    Below,
    /// `lhs > rhs` (strict).
    Above,
}

impl Relation {
    /// Whether equality violates the relation (`<`, `>`).
    pub fn is_strict(self) -> bool {
        matches!(self, Relation::Below | Relation::Above)
    }
}

/// Where one evaluated comparison stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The relation holds (beyond the rounding band, for a strict relation).
    Holds,
    /// The two sides are equal within the rounding band: a strict relation cannot be decided
    /// in floating point there. Counted apart; it refutes only an exactly computed strict
    /// relation (band 0), where equality is a violation.
    Tie,
    /// The relation is violated beyond the rounding band.
    Violated,
    /// The margin is NaN (a numerical failure).
    Nan,
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::AtMost => "lhs ≤ rhs",
            Relation::AtLeast => "lhs ≥ rhs",
            Relation::Within => "|got − want| = lhs ≤ rhs = tolerance",
            Relation::Below => "lhs < rhs",
            Relation::Above => "lhs > rhs",
        })
    }
}

/// A judged comparison: both sides, the relation, and the signed margin with its formula
/// (negative: violated). `Copy`, so evaluations stay cheap; the claim names the sides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// The left side.
    pub lhs: f64,
    /// The right side.
    pub rhs: f64,
    /// What must hold.
    pub relation: Relation,
    /// The signed, scale-aware margin (negative: violated).
    pub margin: f64,
    /// How `margin` is computed from the sides.
    pub margin_formula: &'static str,
    /// The rounding band on the margin's scale: within it the sides tie ([`Standing::Tie`]).
    pub band: f64,
}

/// The margin formula of [`Comparison::at_most`].
pub const AT_MOST_FORMULA: &str = "(rhs − lhs + atol + rtol·max(|lhs|, |rhs|)) / (|lhs| + |rhs| + atol); 1 when both sides are 0";
/// The margin formula of [`Comparison::within`].
pub const WITHIN_FORMULA: &str = "1 − lhs/rhs (rhs = rtol·scale + atol); exact equality demanded when rhs = 0 (margin f64::MIN on any error)";
/// The margin formula of [`Comparison::strict`].
pub const STRICT_FORMULA: &str = "(rhs − lhs)/scale for lhs < rhs, (lhs − rhs)/scale for lhs > rhs; a tie within rounding/scale of 0";

impl Comparison {
    /// `lhs ≤ rhs` on a relative scale with relative and absolute tolerance.
    pub fn at_most(lhs: f64, rhs: f64, rtol: f64, atol: f64) -> Comparison {
        let scale = lhs.abs().max(rhs.abs());
        let denom = lhs.abs() + rhs.abs() + atol;
        let margin = if denom == 0.0 { 1.0 } else { (rhs - lhs + atol + rtol * scale) / denom };
        Comparison { lhs, rhs, relation: Relation::AtMost, margin, margin_formula: AT_MOST_FORMULA, band: 0.0 }
    }
    /// `err ≤ rtol·scale + atol` (the sides are the error and the tolerance).
    pub fn within(err: f64, scale: f64, rtol: f64, atol: f64) -> Comparison {
        let tol = rtol * scale + atol;
        let margin = if tol == 0.0 {
            // Exact equality demanded: any error violates it (finite, so JSON can carry it).
            if err == 0.0 {
                1.0
            } else {
                f64::MIN
            }
        } else {
            1.0 - err / tol
        };
        Comparison { lhs: err, rhs: tol, relation: Relation::Within, margin, margin_formula: WITHIN_FORMULA, band: 0.0 }
    }
    /// A comparison whose margin a claim computes itself, with its formula.
    pub fn custom(lhs: f64, rhs: f64, relation: Relation, margin: f64, margin_formula: &'static str) -> Comparison {
        Comparison { lhs, rhs, relation, margin, margin_formula, band: 0.0 }
    }
    /// A strict relation (`relation` is [`Relation::Below`] or [`Relation::Above`]) with a
    /// margin linear in the gap: `(rhs − lhs)/scale` for `<`. `rounding` is the absolute
    /// rounding error the computed gap can carry (0 when the sides are computed exactly); a gap
    /// within it is a [`Standing::Tie`].
    pub fn strict(lhs: f64, rhs: f64, relation: Relation, scale: f64, rounding: f64) -> Comparison {
        assert!(relation.is_strict(), "Comparison::strict takes Below or Above");
        let scale = if scale > 0.0 { scale } else { 1.0 };
        let gap = if relation == Relation::Below { rhs - lhs } else { lhs - rhs };
        Comparison { lhs, rhs, relation, margin: gap / scale, margin_formula: STRICT_FORMULA, band: rounding.abs() / scale }
    }
    /// Where this comparison stands: a margin below −band violates; within the band, a strict
    /// relation (or any relation with a band) ties; above it, it holds. A non-strict relation
    /// without a band holds at margin 0, as before.
    pub fn standing(&self) -> Standing {
        standing(self.margin, self.band, self.relation)
    }
    /// Whether this comparison refutes the claim: a violation, or a tie of an exactly computed
    /// strict relation (equality violates `<`).
    pub fn refutes(&self) -> bool {
        refutes(self.standing(), self.relation, self.band)
    }
    /// The record of this comparison with its sides named.
    pub fn named(&self, lhs_is: &str, rhs_is: &str) -> Violation {
        Violation {
            relation: self.relation,
            lhs: self.lhs,
            lhs_is: lhs_is.into(),
            rhs: self.rhs,
            rhs_is: rhs_is.into(),
            margin: self.margin,
            margin_formula: self.margin_formula.into(),
            tie_band: self.band,
        }
    }
}

/// The violated (or, for the closest instance, nearly violated) relation as results data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Violation {
    /// What must hold between the sides.
    pub relation: Relation,
    /// The left side's value.
    pub lhs: f64,
    /// What the left side is.
    pub lhs_is: String,
    /// The right side's value.
    pub rhs: f64,
    /// What the right side is.
    pub rhs_is: String,
    /// The signed margin (negative: violated).
    pub margin: f64,
    /// How the margin is computed from the sides.
    pub margin_formula: String,
    /// The rounding band within which the sides tie (0: none; omitted from JSON when 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tie_band: f64,
}

impl Violation {
    /// Whether the recorded relation refutes the claim ([`Comparison::refutes`]).
    pub fn refutes(&self) -> bool {
        refutes(standing(self.margin, self.tie_band, self.relation), self.relation, self.tie_band)
    }
}

fn standing(m: f64, band: f64, relation: Relation) -> Standing {
    if m.is_nan() {
        Standing::Nan
    } else if m < -band {
        Standing::Violated
    } else if (relation.is_strict() || band > 0.0) && m <= band {
        Standing::Tie
    } else {
        Standing::Holds
    }
}

fn refutes(standing: Standing, relation: Relation, band: f64) -> bool {
    match standing {
        Standing::Violated => true,
        Standing::Tie => relation.is_strict() && band == 0.0,
        _ => false,
    }
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_margin_is_signed_and_scale_aware() {
        assert!(Comparison::at_most(1.0, 2.0, 0.0, 0.0).margin > 0.0);
        let c = Comparison::at_most(3.0, 1.0, 0.0, 0.0);
        assert_eq!(c.margin, -0.5);
        assert_eq!((c.lhs, c.rhs), (3.0, 1.0));
        // Scale-free: multiplying both sides by 10⁶ leaves the margin unchanged.
        assert_eq!(Comparison::at_most(3e6, 1e6, 0.0, 0.0).margin, -0.5);
        assert_eq!(Comparison::at_most(0.0, 0.0, 0.0, 0.0).margin, 1.0);
    }

    #[test]
    fn at_most_tolerances_enter_the_margin_as_documented() {
        // (rhs − lhs + atol + rtol·max(|lhs|, |rhs|)) / (|lhs| + |rhs| + atol), exactly.
        let c = Comparison::at_most(3.0, 1.0, 0.25, 0.5);
        assert_eq!(c.margin, (1.0 - 3.0 + 0.5 + 0.25 * 3.0) / (3.0 + 1.0 + 0.5));
        // Negative sides: the scale and denominator use absolute values.
        let c = Comparison::at_most(-1.0, -3.0, 0.5, 0.0);
        assert_eq!(c.margin, (-3.0 + 1.0 + 0.5 * 3.0) / 4.0);
        // A relative tolerance turns a small excess into a pass.
        assert!(Comparison::at_most(1.0 + 1e-10, 1.0, 1e-9, 0.0).margin > 0.0);
        assert!(Comparison::at_most(1.0 + 1e-8, 1.0, 1e-9, 0.0).margin < 0.0);
        assert_eq!(Comparison::at_most(0.0, 0.0, 0.0, 0.0).relation, Relation::AtMost);
    }

    #[test]
    fn within_margin_is_one_minus_error_over_tolerance() {
        // tol = rtol·scale + atol = 0.1·4 + 0.2 = 0.6.
        let c = Comparison::within(0.3, 4.0, 0.1, 0.2);
        assert!((c.margin - 0.5).abs() < 1e-15 && (c.rhs - 0.6).abs() < 1e-15 && c.lhs == 0.3);
        assert!(Comparison::within(0.9, 4.0, 0.1, 0.2).margin < 0.0);
        assert_eq!(c.relation, Relation::Within);
    }

    #[test]
    fn relations_print_what_they_assert() {
        assert_eq!(Relation::AtMost.to_string(), "lhs ≤ rhs");
        assert_eq!(Relation::AtLeast.to_string(), "lhs ≥ rhs");
        assert!(Relation::Within.to_string().contains("tolerance"));
    }

    #[test]
    fn strict_relations_tie_within_their_rounding_band() {
        let c = Comparison::strict(1.0, 3.0, Relation::Below, 4.0, 0.0);
        assert_eq!((c.margin, c.standing()), (0.5, Standing::Holds));
        // Exact equality of an exactly computed strict relation refutes it, as a tie.
        let tie = Comparison::strict(2.0, 2.0, Relation::Below, 4.0, 0.0);
        assert_eq!(tie.standing(), Standing::Tie);
        assert!(tie.refutes());
        // Within the rounding band: a tie that cannot be decided, not a refutation.
        let near = Comparison::strict(2.0 + 1e-13, 2.0, Relation::Below, 1.0, 1e-12);
        assert_eq!(near.standing(), Standing::Tie);
        assert!(!near.refutes());
        let beyond = Comparison::strict(2.0 + 1e-11, 2.0, Relation::Below, 1.0, 1e-12);
        assert_eq!(beyond.standing(), Standing::Violated);
        assert!(beyond.refutes());
        let above = Comparison::strict(1.0, 3.0, Relation::Above, 1.0, 0.0);
        assert_eq!((above.margin, above.standing()), (-2.0, Standing::Violated));
        // A non-strict relation holds at margin 0.
        assert_eq!(Comparison::at_most(1.0, 1.0, 0.0, 0.0).standing(), Standing::Holds);
        assert_eq!(Comparison::custom(0.0, 0.0, Relation::AtLeast, f64::NAN, "").standing(), Standing::Nan);
    }

    #[test]
    fn within_demands_exact_equality_at_zero_tolerance() {
        assert_eq!(Comparison::within(0.0, 1.0, 0.0, 0.0).margin, 1.0);
        assert_eq!(Comparison::within(1e-300, 1.0, 0.0, 0.0).margin, f64::MIN);
        assert_eq!(Comparison::within(0.5, 1.0, 1.0, 0.0).margin, 0.5);
    }
}
