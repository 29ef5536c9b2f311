//! The two sides of a judged relation: what a refutation records besides the instance, so a
//! reader can recompute the violation from the results JSON alone (both sides as numbers, the
//! tolerances, the margin and the formula that produced it).

use super::tolerance::{Scale, Tolerance};
use crate::math::Interval;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The relation a claim asserts between its two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
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

/// One side of a relation as a claim computed it: a floating-point value (its rounding is the
/// claim's to bound with a [`Tolerance`]), or an [`Interval`] that encloses the exact value.
/// `f64` and `Interval` convert into it, so the helpers of [`Eval`](super::Eval) take either.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    /// A value computed in floating point, with no bound on its error.
    Float(f64),
    /// An enclosure of the exact value ([`Interval::exact`] for a value known exactly).
    Enclosed(Interval),
}

impl Side {
    /// The value a floating-point computation reports (an enclosure's midpoint).
    pub fn value(self) -> f64 {
        match self {
            Side::Float(x) => x,
            Side::Enclosed(i) => i.mid(),
        }
    }
    /// The enclosure, if the side carries one.
    pub fn enclosure(self) -> Option<Interval> {
        match self {
            Side::Float(_) => None,
            Side::Enclosed(i) => Some(i),
        }
    }
    /// The side as an interval (a float taken as the exact value it represents).
    fn interval(self) -> Interval {
        match self {
            Side::Float(x) => Interval::exact(x),
            Side::Enclosed(i) => i,
        }
    }
}

impl From<f64> for Side {
    fn from(x: f64) -> Side {
        Side::Float(x)
    }
}

impl From<Interval> for Side {
    fn from(i: Interval) -> Side {
        Side::Enclosed(i)
    }
}

/// The enclosures of a comparison whose sides (one or both) carry one, the relation's exact gap
/// computed from them in interval arithmetic (`rhs − lhs` for `≤`, `lhs − rhs` for `≥`), and the
/// tolerance the statement allows, apart: the relation holds when gap + tolerance is ≥ 0 (> 0
/// for a strict one). A sum entirely below 0 (≤ 0 for a strict relation) decides a violation for
/// every real value in the enclosures; one that straddles 0 is a tie.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Enclosure {
    /// The left side's enclosure (`None`: computed in floating point, taken as exact here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lhs: Option<Interval>,
    /// The right side's enclosure (`None`: computed in floating point, taken as exact here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rhs: Option<Interval>,
    /// The relation's exact gap: `rhs − lhs` for `≤` and `<`, `lhs − rhs` for `≥` and `>` (for
    /// `|got − want| ≤ allowance`, the allowance minus the error).
    pub gap: Interval,
    /// The tolerance the relation allows beyond the gap (`atol + rtol·max(|lhs|, |rhs|)`,
    /// enclosed); zero, and left out of the JSON, when it allows none.
    #[serde(default = "no_tolerance", skip_serializing_if = "is_no_tolerance")]
    pub tolerance: Interval,
}

/// The tolerance of a relation that allows none (serde's default for a missing field).
pub(super) fn no_tolerance() -> Interval {
    Interval::exact(0.0)
}

/// Whether a tolerance allows nothing (then the JSON leaves it out).
pub(super) fn is_no_tolerance(i: &Interval) -> bool {
    i.lo == 0.0 && i.hi == 0.0
}

impl Enclosure {
    fn of(lhs: Side, rhs: Side, gap: impl Fn(Interval, Interval) -> Interval, tolerance: impl Fn(Interval, Interval) -> Interval) -> Option<Enclosure> {
        if lhs.enclosure().is_none() && rhs.enclosure().is_none() {
            return None;
        }
        let (a, b) = (lhs.interval(), rhs.interval());
        Some(Enclosure { lhs: lhs.enclosure(), rhs: rhs.enclosure(), gap: gap(a, b), tolerance: tolerance(a, b) })
    }
    /// What the enclosures decide: the sign of gap + tolerance (a NaN decides nothing: a tie).
    pub fn decide(&self, relation: Relation) -> Standing {
        let g = self.gap + self.tolerance;
        if g.is_nan() {
            Standing::Tie
        } else if relation.is_strict() {
            if g.lo > 0.0 {
                Standing::Holds
            } else if g.hi <= 0.0 {
                Standing::Violated
            } else {
                Standing::Tie
            }
        } else if g.lo >= 0.0 {
            Standing::Holds
        } else if g.hi < 0.0 {
            Standing::Violated
        } else {
            Standing::Tie
        }
    }
    /// Whether both sides carry an enclosure (only then is a decided violation a certificate).
    pub fn both_sides(&self) -> bool {
        self.lhs.is_some() && self.rhs.is_some()
    }
}

/// `lhs ∈ …, rhs ∈ …, gap ∈ …`, a side without an enclosure shown as a float.
impl fmt::Display for Enclosure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |i: Option<Interval>| i.map_or("a float".to_string(), |i| i.to_string());
        write!(f, "lhs ∈ {}, rhs ∈ {}, gap ∈ {}", side(self.lhs), side(self.rhs), self.gap)?;
        if !is_no_tolerance(&self.tolerance) {
            write!(f, ", tolerance ∈ {}", self.tolerance)?;
        }
        Ok(())
    }
}

/// A judged comparison: both sides, the relation, and the signed margin with its formula
/// (negative: violated). `Copy`, so evaluations stay cheap; the claim names the sides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// The left side (an enclosure's midpoint).
    pub lhs: f64,
    /// The right side (an enclosure's midpoint).
    pub rhs: f64,
    /// What must hold.
    pub relation: Relation,
    /// The signed, scale-aware margin (negative: violated), from the sides' values; it guides
    /// the search, while the enclosures, when present, decide.
    pub margin: f64,
    /// How `margin` is computed from the sides.
    pub margin_formula: &'static str,
    /// The rounding band on the margin's scale: within it the sides tie ([`Standing::Tie`]).
    pub band: f64,
    /// The sides' enclosures and the relation's gap, when a side carries one.
    pub enclosure: Option<Enclosure>,
}

/// The margin formula of [`Comparison::at_most`].
pub const AT_MOST_FORMULA: &str = "(rhs − lhs + atol + rtol·max(|lhs|, |rhs|)) / (|lhs| + |rhs| + atol); 1 when both sides are 0";
/// The margin formula of [`Comparison::within`].
pub const WITHIN_FORMULA: &str = "1 − lhs/rhs (rhs = rtol·scale + atol); exact equality demanded when rhs = 0 (margin f64::MIN on any error)";
/// The margin formula of [`Comparison::strict`].
pub const STRICT_FORMULA: &str = "(rhs − lhs)/scale for lhs < rhs, (lhs − rhs)/scale for lhs > rhs; a tie within rounding/scale of 0";
/// The margin formula of [`Comparison::linear`] for `≤`.
pub const LE_BY_FORMULA: &str = "(rhs − lhs + tolerance) / scale";
/// The margin formula of [`Comparison::linear`] for `≥`.
pub const GE_BY_FORMULA: &str = "(lhs − rhs + tolerance) / scale";

impl Comparison {
    /// `lhs ≤ rhs` on a relative scale with relative and absolute tolerance; with enclosures,
    /// the gap `rhs − lhs + atol + rtol·max(|lhs|, |rhs|)` decides.
    pub fn at_most(lhs: impl Into<Side>, rhs: impl Into<Side>, tol: Tolerance) -> Comparison {
        let (l, r) = (lhs.into(), rhs.into());
        let (lhs, rhs) = (l.value(), r.value());
        let (rtol, atol) = (tol.relative, tol.absolute);
        let scale = lhs.abs().max(rhs.abs());
        let denom = lhs.abs() + rhs.abs() + atol;
        let margin = if denom == 0.0 {
            1.0
        } else if denom.is_infinite() {
            // An infinite side: equal sides hold at 0, else the order decides (±1, the ends of
            // the relative scale); an infinite tolerance allows anything.
            if atol.is_infinite() || rtol.is_infinite() {
                1.0
            } else {
                exact_gap(rhs, lhs).signum() * f64::from(u8::from(lhs != rhs))
            }
        } else {
            finite((rhs - lhs + atol + rtol * scale) / denom)
        };
        let enclosure = Enclosure::of(l, r, |a, b| b - a, |a, b| a.abs().max(b.abs()) * rtol + atol);
        Comparison { lhs, rhs, relation: Relation::AtMost, margin, margin_formula: AT_MOST_FORMULA, band: 0.0, enclosure }
    }
    /// `lhs ≤ rhs` ([`Relation::AtMost`]) or `lhs ≥ rhs` ([`Relation::AtLeast`]) with a margin
    /// linear in the gap: `(rhs − lhs + tolerance)/scale` for `≤`, the tolerance taken at the
    /// larger side's magnitude.
    pub fn linear(lhs: impl Into<Side>, rhs: impl Into<Side>, relation: Relation, scale: Scale, tol: Tolerance) -> Comparison {
        let (l, r) = (lhs.into(), rhs.into());
        let (lhs, rhs) = (l.value(), r.value());
        let t = tol.at(lhs.abs().max(rhs.abs()));
        let (gap, formula, enclosure) = match relation {
            Relation::AtMost => {
                (exact_gap(rhs, lhs), LE_BY_FORMULA, Enclosure::of(l, r, |a, b| b - a, |a, b| a.abs().max(b.abs()) * tol.relative + tol.absolute))
            }
            Relation::AtLeast => {
                (exact_gap(lhs, rhs), GE_BY_FORMULA, Enclosure::of(l, r, |a, b| a - b, |a, b| a.abs().max(b.abs()) * tol.relative + tol.absolute))
            }
            _ => panic!("Comparison::linear takes AtMost or AtLeast"),
        };
        Comparison { lhs, rhs, relation, margin: linear_margin(gap, t, scale.divisor()), margin_formula: formula, band: 0.0, enclosure }
    }
    /// `err ≤ rtol·scale + atol` (the sides are the error and the tolerance); with an enclosed
    /// error, the gap `rtol·scale + atol − err` decides (the scale taken as exact).
    pub fn within(err: impl Into<Side>, scale: Scale, tol: Tolerance) -> Comparison {
        let e = err.into();
        let err = e.value();
        let t = tol.at(scale.0);
        let margin = if t == 0.0 {
            // Exact equality demanded: any error violates it (finite, so JSON can carry it).
            if err == 0.0 {
                1.0
            } else {
                f64::MIN
            }
        } else if t.is_infinite() {
            // An infinite allowance: a finite error holds fully, an infinite one at the edge.
            if err.is_infinite() {
                0.0
            } else {
                1.0
            }
        } else {
            finite(1.0 - err / t)
        };
        // The tolerance is a stated number (the scale as given), so with an enclosed error it is
        // an exact side: the enclosures decide whether the error exceeds it in exact arithmetic.
        let allowed = || Interval::exact(scale.0) * tol.relative + tol.absolute;
        let tol_side = if matches!(e, Side::Enclosed(_)) { Side::Enclosed(allowed()) } else { Side::Float(t) };
        let enclosure = Enclosure::of(e, tol_side, |a, _| allowed() - a, |_, _| no_tolerance());
        Comparison { lhs: err, rhs: t, relation: Relation::Within, margin, margin_formula: WITHIN_FORMULA, band: 0.0, enclosure }
    }
    /// A comparison whose margin a claim computes itself, with its formula.
    pub fn custom(lhs: f64, rhs: f64, relation: Relation, margin: f64, margin_formula: &'static str) -> Comparison {
        Comparison { lhs, rhs, relation, margin, margin_formula, band: 0.0, enclosure: None }
    }
    /// A strict relation (`relation` is [`Relation::Below`] or [`Relation::Above`]) with a
    /// margin linear in the gap: `(rhs − lhs)/scale` for `<`. `rounding` is the error the
    /// computed gap can carry, taken at the larger side's magnitude (none when the sides are
    /// computed exactly or enclosed); a gap within it is a [`Standing::Tie`].
    pub fn strict(lhs: impl Into<Side>, rhs: impl Into<Side>, relation: Relation, scale: Scale, rounding: Tolerance) -> Comparison {
        assert!(relation.is_strict(), "Comparison::strict takes Below or Above");
        let (l, r) = (lhs.into(), rhs.into());
        let (lhs, rhs) = (l.value(), r.value());
        let scale = scale.divisor();
        let below = relation == Relation::Below;
        let gap = if below { exact_gap(rhs, lhs) } else { exact_gap(lhs, rhs) };
        let band = finite(rounding.at(lhs.abs().max(rhs.abs())).abs() / scale);
        let enclosure = Enclosure::of(l, r, |a, b| if below { b - a } else { a - b }, |_, _| no_tolerance());
        Comparison { lhs, rhs, relation, margin: linear_margin(gap, 0.0, scale), margin_formula: STRICT_FORMULA, band, enclosure }
    }
    /// Where this comparison stands: a margin below −band violates; within the band, a strict
    /// relation (or any relation with a band) ties; above it, it holds. A non-strict relation
    /// without a band holds at margin 0. With enclosures, they decide (a stated rounding band
    /// can still turn their violation into a tie).
    pub fn standing(&self) -> Standing {
        standing(self.margin, self.band, self.relation, self.enclosure.as_ref())
    }
    /// Whether this comparison refutes the claim: a violation, or a tie of an exactly computed
    /// strict relation (equality violates `<`).
    pub fn refutes(&self) -> bool {
        refutes(self.standing(), self.relation, self.band, self.enclosure.as_ref())
    }
    /// What the margin's f64 subtraction of the sides drops: the low part of the exact gap
    /// (`rhs − lhs` for `≤`, `<` and within, `lhs − rhs` for `≥`, `>`), by TwoSum, so the exact
    /// gap is the rounded one plus this. Where one side is a constant and the other varies far
    /// below its ulp (a gate σ(β(L − c)) ≈ 10⁻³⁰ against ½), the margins are equal and this still
    /// orders the instances: the search breaks ties by it. 0 for an infinite side.
    pub fn residual(&self) -> f64 {
        let (a, b) = match self.relation {
            Relation::AtLeast | Relation::Above => (self.lhs, -self.rhs),
            _ => (self.rhs, -self.lhs),
        };
        let s = a + b;
        let bb = s - a;
        let lo = (a - (s - bb)) + (b - bb);
        if lo.is_finite() {
            lo
        } else {
            0.0
        }
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
            enclosure: self.enclosure.map(Box::new),
            hypothesis: None,
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
    /// The sides' enclosures and the relation's gap, when a side was computed as one (boxed:
    /// a refutation record stays small without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enclosure: Option<Box<Enclosure>>,
    /// For a conditional statement, whether its hypothesis is known to hold at the instance in
    /// exact arithmetic (`None`: the statement is unconditional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hypothesis: Option<Box<HypothesisStanding>>,
}

/// Whether a conditional statement's hypothesis holds at a refuting instance in exact arithmetic:
/// the relation's certificate says the conclusion fails there, which refutes the statement only
/// if the instance satisfies the hypothesis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
#[non_exhaustive]
pub enum HypothesisStanding {
    /// Re-evaluated on enclosures ([`Property::certify_given`](super::Property::certify_given)),
    /// it holds for every real value in them.
    Certified {
        /// The hypothesis's sides and gap.
        enclosure: Enclosure,
    },
    /// Judged in floating point only, or its enclosures do not decide it.
    NotCertified {
        /// Which hypothesis, and why.
        detail: String,
    },
}

impl Violation {
    /// Whether the recorded relation refutes the claim ([`Comparison::refutes`]).
    pub fn refutes(&self) -> bool {
        let e = self.enclosure.as_deref();
        refutes(standing(self.margin, self.tie_band, self.relation, e), self.relation, self.tie_band, e)
    }
}

fn standing(m: f64, band: f64, relation: Relation, enclosure: Option<&Enclosure>) -> Standing {
    let float = if m.is_nan() {
        Standing::Nan
    } else if m < -band {
        Standing::Violated
    } else if (relation.is_strict() || band > 0.0) && m <= band {
        Standing::Tie
    } else {
        Standing::Holds
    };
    match enclosure.map(|e| e.decide(relation)) {
        None => float,
        Some(Standing::Violated) if band > 0.0 && float != Standing::Violated => Standing::Tie,
        Some(decided) => decided,
    }
}

fn refutes(standing: Standing, relation: Relation, band: f64, enclosure: Option<&Enclosure>) -> bool {
    match standing {
        Standing::Violated => true,
        Standing::Tie => enclosure.is_none() && relation.is_strict() && band == 0.0,
        _ => false,
    }
}

/// `a − b`, but 0 when the sides are equal (so equal infinities tie instead of giving NaN).
fn exact_gap(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else {
        a - b
    }
}

/// `x` clamped to the finite range (NaN stays NaN): a margin JSON can carry.
fn finite(x: f64) -> f64 {
    x.clamp(f64::MIN, f64::MAX)
}

/// `(gap + tolerance)/scale`, finite: an infinite gap (an infinite side against a finite
/// one) is the largest margin of its sign, whatever the tolerance.
fn linear_margin(gap: f64, tolerance: f64, scale: f64) -> f64 {
    if gap.is_infinite() {
        gap.signum() * f64::MAX
    } else {
        finite((gap + tolerance) / scale)
    }
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::{Scale, Tolerance};

    /// The residual is the exact gap's low part: a gate of 10⁻³⁰ against ½ has the same margin
    /// as one of 10⁻⁴⁰, and residuals −10⁻³⁰ and −10⁻⁴⁰ that order them (for `≥` the sign turns);
    /// an exactly computed gap leaves 0, and so does an infinite side.
    #[test]
    fn the_residual_keeps_what_the_margin_rounds_away() {
        let le = |lhs: f64| Comparison::linear(lhs, 0.5, Relation::AtMost, Scale(1.0), Tolerance::NONE);
        let (a, b) = (le(1e-30), le(1e-40));
        assert_eq!(a.margin, b.margin);
        assert_eq!((a.residual(), b.residual()), (-1e-30, -1e-40));
        let ge = Comparison::linear(0.5, 1e-30, Relation::AtLeast, Scale(1.0), Tolerance::NONE);
        assert_eq!(ge.residual(), -1e-30);
        assert_eq!(le(0.25).residual(), 0.0);
        assert_eq!(le(f64::INFINITY).residual(), 0.0);
    }

    /// Every relation is defined wherever its sides are numbers, infinities and signed zeros
    /// included: the margin is never NaN, always finite, and its sign is the exact order.
    #[test]
    fn relations_at_zeros_and_infinities_are_never_nan_and_keep_the_order() {
        use proptest::prelude::*;
        let special =
            prop_oneof![Just(0.0), Just(-0.0), Just(f64::INFINITY), Just(f64::NEG_INFINITY), Just(f64::MAX), Just(f64::MIN_POSITIVE), Just(1.0), -1e3..1e3f64];
        let tol = prop_oneof![Just(Tolerance::NONE), Just(Tolerance::absolute(1e-12)), Just(Tolerance::relative(1e-9))];
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        runner
            .run(&(special.clone(), special, tol, 0.0..10.0f64), |(a, b, tol, s)| {
                let exact = tol == Tolerance::NONE;
                for c in [Comparison::at_most(a, b, tol), Comparison::linear(a, b, Relation::AtMost, Scale(s), tol)] {
                    prop_assert!(c.margin.is_finite(), "{a} ≤ {b} ({tol:?}): margin {}", c.margin);
                    if exact {
                        prop_assert_eq!(c.standing() == Standing::Violated, a > b, "{} ≤ {}: {:?}", a, b, c);
                    }
                }
                let ge = Comparison::linear(a, b, Relation::AtLeast, Scale(s), tol);
                prop_assert!(ge.margin.is_finite());
                if exact {
                    prop_assert_eq!(ge.standing() == Standing::Violated, a < b);
                }
                for (c, holds) in
                    [(Comparison::strict(a, b, Relation::Below, Scale(s), tol), a < b), (Comparison::strict(a, b, Relation::Above, Scale(s), tol), a > b)]
                {
                    prop_assert!(c.margin.is_finite() && c.band.is_finite());
                    if exact {
                        prop_assert_eq!(c.refutes(), !holds, "{} vs {}: {:?}", a, b, c);
                    }
                }
                let w = Comparison::within(a.abs(), Scale(b.abs()), tol);
                prop_assert!(w.margin.is_finite(), "within({a}, {b}): {}", w.margin);
                Ok(())
            })
            .unwrap();
        // The cases once NaN: 0 = 0 and equal infinities hold (at the edge), inf ≤ finite fails.
        assert_eq!(Comparison::at_most(f64::INFINITY, f64::INFINITY, Tolerance::NONE).margin, 0.0);
        assert_eq!(Comparison::at_most(f64::INFINITY, 1.0, Tolerance::NONE).margin, -1.0);
        assert_eq!(Comparison::at_most(1.0, f64::INFINITY, Tolerance::relative(1e-9)).margin, 1.0);
        assert_eq!(Comparison::linear(0.0, 0.0, Relation::AtMost, Scale(0.0), Tolerance::NONE).margin, 0.0);
        assert!(Comparison::strict(f64::INFINITY, f64::INFINITY, Relation::Below, Scale(1.0), Tolerance::NONE).refutes());
    }

    #[test]
    fn at_most_margin_is_signed_and_scale_aware() {
        assert!(Comparison::at_most(1.0, 2.0, Tolerance::NONE).margin > 0.0);
        let c = Comparison::at_most(3.0, 1.0, Tolerance::NONE);
        assert_eq!(c.margin, -0.5);
        assert_eq!((c.lhs, c.rhs), (3.0, 1.0));
        // Scale-free: multiplying both sides by 10⁶ leaves the margin unchanged.
        assert_eq!(Comparison::at_most(3e6, 1e6, Tolerance::NONE).margin, -0.5);
        assert_eq!(Comparison::at_most(0.0, 0.0, Tolerance::NONE).margin, 1.0);
    }

    #[test]
    fn at_most_tolerances_enter_the_margin_as_documented() {
        // (rhs − lhs + atol + rtol·max(|lhs|, |rhs|)) / (|lhs| + |rhs| + atol), exactly.
        let c = Comparison::at_most(3.0, 1.0, Tolerance::relative(0.25).plus_absolute(0.5));
        assert_eq!(c.margin, (1.0 - 3.0 + 0.5 + 0.25 * 3.0) / (3.0 + 1.0 + 0.5));
        // Negative sides: the scale and denominator use absolute values.
        let c = Comparison::at_most(-1.0, -3.0, Tolerance::relative(0.5));
        assert_eq!(c.margin, (-3.0 + 1.0 + 0.5 * 3.0) / 4.0);
        // A relative tolerance turns a small excess into a pass.
        assert!(Comparison::at_most(1.0 + 1e-10, 1.0, Tolerance::relative(1e-9)).margin > 0.0);
        assert!(Comparison::at_most(1.0 + 1e-8, 1.0, Tolerance::relative(1e-9)).margin < 0.0);
        assert_eq!(Comparison::at_most(0.0, 0.0, Tolerance::NONE).relation, Relation::AtMost);
    }

    #[test]
    fn within_margin_is_one_minus_error_over_tolerance() {
        // tol = rtol·scale + atol = 0.1·4 + 0.2 = 0.6.
        let c = Comparison::within(0.3, Scale(4.0), Tolerance::relative(0.1).plus_absolute(0.2));
        assert!((c.margin - 0.5).abs() < 1e-15 && (c.rhs - 0.6).abs() < 1e-15 && c.lhs == 0.3);
        assert!(Comparison::within(0.9, Scale(4.0), Tolerance::relative(0.1).plus_absolute(0.2)).margin < 0.0);
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
        let c = Comparison::strict(1.0, 3.0, Relation::Below, Scale(4.0), Tolerance::NONE);
        assert_eq!((c.margin, c.standing()), (0.5, Standing::Holds));
        // Exact equality of an exactly computed strict relation refutes it, as a tie.
        let tie = Comparison::strict(2.0, 2.0, Relation::Below, Scale(4.0), Tolerance::NONE);
        assert_eq!(tie.standing(), Standing::Tie);
        assert!(tie.refutes());
        // Within the rounding band: a tie that cannot be decided, not a refutation.
        let near = Comparison::strict(2.0 + 1e-13, 2.0, Relation::Below, Scale(1.0), Tolerance::absolute(1e-12));
        assert_eq!(near.standing(), Standing::Tie);
        assert!(!near.refutes());
        let beyond = Comparison::strict(2.0 + 1e-11, 2.0, Relation::Below, Scale(1.0), Tolerance::absolute(1e-12));
        assert_eq!(beyond.standing(), Standing::Violated);
        assert!(beyond.refutes());
        let above = Comparison::strict(1.0, 3.0, Relation::Above, Scale(1.0), Tolerance::NONE);
        assert_eq!((above.margin, above.standing()), (-2.0, Standing::Violated));
        // A non-strict relation holds at margin 0.
        assert_eq!(Comparison::at_most(1.0, 1.0, Tolerance::NONE).standing(), Standing::Holds);
        assert_eq!(Comparison::custom(0.0, 0.0, Relation::AtLeast, f64::NAN, "").standing(), Standing::Nan);
    }

    #[test]
    fn within_demands_exact_equality_at_zero_tolerance() {
        assert_eq!(Comparison::within(0.0, Scale(1.0), Tolerance::NONE).margin, 1.0);
        assert_eq!(Comparison::within(1e-300, Scale(1.0), Tolerance::NONE).margin, f64::MIN);
        assert_eq!(Comparison::within(0.5, Scale(1.0), Tolerance::relative(1.0)).margin, 0.5);
    }
}
