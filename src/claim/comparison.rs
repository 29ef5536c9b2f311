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
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::AtMost => "lhs ≤ rhs",
            Relation::AtLeast => "lhs ≥ rhs",
            Relation::Within => "|got − want| = lhs ≤ rhs = tolerance",
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
}

/// The margin formula of [`Comparison::at_most`].
pub const AT_MOST_FORMULA: &str = "(rhs − lhs + atol + rtol·max(|lhs|, |rhs|)) / (|lhs| + |rhs| + atol); 1 when both sides are 0";
/// The margin formula of [`Comparison::within`].
pub const WITHIN_FORMULA: &str = "1 − lhs/rhs (rhs = rtol·scale + atol); exact equality demanded when rhs = 0 (margin f64::MIN on any error)";

impl Comparison {
    /// `lhs ≤ rhs` on a relative scale with relative and absolute tolerance.
    pub fn at_most(lhs: f64, rhs: f64, rtol: f64, atol: f64) -> Comparison {
        let scale = lhs.abs().max(rhs.abs());
        let denom = lhs.abs() + rhs.abs() + atol;
        let margin = if denom == 0.0 { 1.0 } else { (rhs - lhs + atol + rtol * scale) / denom };
        Comparison { lhs, rhs, relation: Relation::AtMost, margin, margin_formula: AT_MOST_FORMULA }
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
        Comparison { lhs: err, rhs: tol, relation: Relation::Within, margin, margin_formula: WITHIN_FORMULA }
    }
    /// A comparison whose margin a claim computes itself, with its formula.
    pub fn custom(lhs: f64, rhs: f64, relation: Relation, margin: f64, margin_formula: &'static str) -> Comparison {
        Comparison { lhs, rhs, relation, margin, margin_formula }
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
    fn within_demands_exact_equality_at_zero_tolerance() {
        assert_eq!(Comparison::within(0.0, 1.0, 0.0, 0.0).margin, 1.0);
        assert_eq!(Comparison::within(1e-300, 1.0, 0.0, 0.0).margin, f64::MIN);
        assert_eq!(Comparison::within(0.5, 1.0, 1.0, 0.0).margin, 0.5);
    }
}
