//! Large deviations of `Y_t = Σ_{i≤t} ln(c + γx_i²)`, x_i iid N(0,1) (004 Theorem 4): the saddle
//! point θ(a) of a threshold `Y_t ≥ ta`, the rate function `I(a) = θa − Λ(θ)`, the Bahadur–Rao
//! asymptotics with its first correction, and the exact rejection sampler of the tilted law of
//! one term that the importance-sampling estimator draws from (proofs/stability.md, "Rare events").

use super::golden_section_max;
use super::subexp::{LogChi2, Tilted};

impl LogChi2 {
    /// The tilt θ ≥ 0 whose tilted mean `Λ'(θ)` is `a` (the saddle point of `P(Y_t ≥ ta)`), with
    /// the tilted law there; θ = 0 (no tilt) when `a ≤ μ`, where the event is not rare. Newton's
    /// method on the increasing `Λ'`, safeguarded by bisection, to `|Λ'(θ) − a| ≤ 1e−12·max(1, |a|)`.
    pub fn saddle(&self, a: f64) -> Tilted {
        let at_zero = self.tilted(0.0);
        if a <= at_zero.mean {
            return at_zero;
        }
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let mut best = self.tilted(hi);
        while best.mean < a {
            lo = hi;
            hi *= 2.0;
            best = self.tilted(hi);
        }
        let mut theta = hi;
        for _ in 0..200 {
            let gap = a - best.mean;
            if gap.abs() <= 1e-12 * a.abs().max(1.0) {
                break;
            }
            if gap > 0.0 {
                lo = theta;
            } else {
                hi = theta;
            }
            let newton = theta + gap / best.variance;
            theta = if newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
            best = self.tilted(theta);
        }
        best
    }
}

/// A threshold event `Y_t ≥ s` seen through its saddle point: everything the importance sampler
/// and the Bahadur–Rao reference need.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold {
    /// Steps t ≥ 1.
    pub t: u64,
    /// The threshold s on Y_t.
    pub s: f64,
    /// The tilted law of one term at the saddle point θ(s/t) (θ = 0 when s/t ≤ μ).
    pub tilted: Tilted,
}

impl Threshold {
    /// The event `Y_t ≥ s` for the law `law`.
    pub fn new(law: &LogChi2, t: u64, s: f64) -> Self {
        Threshold { t, s, tilted: law.saddle(s / t as f64) }
    }

    /// θ.
    pub fn theta(&self) -> f64 {
        self.tilted.theta
    }

    /// `t·I(s/t) = θs − tΛ(θ)` (0 when θ = 0): the exponential rate of the probability.
    pub fn t_rate(&self) -> f64 {
        let t = self.t as f64;
        if self.theta() == 0.0 {
            0.0
        } else {
            self.theta() * self.s - t * self.tilted.log_mgf
        }
    }

    /// `ln` of the Cramér–Chernoff bound at this θ, `tΛ(θ) − θs = −t·I`: also the largest value
    /// the importance weight `e^{tΛ(θ) − θY_t}` takes on the event (proofs/stability.md).
    pub fn log_weight_bound(&self) -> f64 {
        -self.t_rate()
    }

    /// `ln` of the Bahadur–Rao value `e^{−tI}/(θσ_θ√(2πt))` (σ_θ² = Λ''(θ)); None when θ = 0.
    pub fn log_bahadur_rao(&self) -> Option<f64> {
        let t = self.t as f64;
        let tau = self.theta() * self.tilted.variance.sqrt() * t.sqrt();
        (self.theta() > 0.0).then(|| -self.t_rate() - (tau * (2.0 * std::f64::consts::PI).sqrt()).ln())
    }

    /// The first-order correction of Bahadur–Rao, `P = BR·(1 + b₁/t + O(t⁻²))` with
    /// `b₁ = −1/(θσ)² − κ₃/(2θσ) + κ₄/8 − 5κ₃²/24` (κ₃, κ₄: the tilted skewness and excess
    /// kurtosis; Watson's lemma on the Edgeworth expansion of the tilted sum, proofs/stability.md).
    pub fn bahadur_rao_b1(&self) -> f64 {
        let ts = self.theta() * self.tilted.variance.sqrt();
        let (k3, k4) = (self.tilted.skewness, self.tilted.excess_kurtosis);
        -1.0 / (ts * ts) - k3 / (2.0 * ts) + k4 / 8.0 - 5.0 * k3 * k3 / 24.0
    }
}

/// The exact rejection sampler of the tilted law of `U = X²` (density ∝ (c + γu)^θ u^{−½} e^{−u/2}):
/// propose `U = Z²/(1 − 2η)` (Gamma(½, 2/(1 − 2η)), one normal Z), accept with probability
/// `(c + γU)^θ e^{−ηU}/M`, i.e. when `ln V ≤ θ ln(c + γU) − ηU − ln M` for a uniform V. The ratio
/// is bounded for η > 0: its maximum is at `u* = max(θ/η − c/γ, 0)`. η maximises the acceptance
/// rate `e^{Λ(θ)}√(1 − 2η)/M(η)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TiltedProposal {
    /// θ ≥ 0.
    pub theta: f64,
    /// η ∈ [0, ½) (0 exactly when θ = 0: the proposal is then the law itself).
    pub eta: f64,
    /// `1/(1 − 2η)`: the proposal is `Z²·scale`.
    pub scale: f64,
    /// `ln M`: the log-ratio's maximum plus a margin of 1e−12·(1 + θ|ln(c+γu*)| + ηu*) that covers
    /// its rounding (so V is compared with a true upper bound and the sampler stays exact).
    pub log_bound: f64,
    /// The acceptance probability `e^{Λ(θ)}√(1 − 2η)/M`.
    pub acceptance: f64,
}

impl TiltedProposal {
    /// The best proposal for θ (golden-section search over ln(1 − 2η) ∈ [−40, 0]).
    pub fn new(law: &LogChi2, tilted: &Tilted) -> Self {
        let (c, gamma, theta) = (law.c, law.gamma, tilted.theta);
        // The log-ratio's maximum over u ≥ 0 for a given η > 0, and where it is reached.
        let peak = |eta: f64| {
            let u = (theta / eta - c / gamma).max(0.0);
            (theta * (c + gamma * u).ln() - eta * u, u)
        };
        let log_acceptance = |log_s: f64| {
            let eta = 0.5 * (1.0 - log_s.exp());
            0.5 * log_s - peak(eta).0
        };
        let eta = if theta == 0.0 { 0.0 } else { 0.5 * (1.0 - golden_section_max(log_acceptance, -40.0, -1e-12, 100).exp()) };
        let (log_peak, u_star) = if theta == 0.0 { (0.0, 0.0) } else { peak(eta) };
        let margin = 1e-12 * (1.0 + theta * (c + gamma * u_star).ln().abs() + eta * u_star);
        let log_bound = log_peak + margin;
        let acceptance = (tilted.log_mgf + 0.5 * (1.0 - 2.0 * eta).ln() - log_bound).exp();
        TiltedProposal { theta, eta, scale: 1.0 / (1.0 - 2.0 * eta), log_bound, acceptance }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn law(c: f64, g: f64) -> LogChi2 {
        LogChi2::new(c, g).unwrap()
    }

    #[test]
    fn tilted_moments_are_derivatives_of_the_log_mgf() {
        // Λ'(θ) and Λ''(θ) by central differences of Λ (step 1e−4: truncation ~1e−8·Λ''',
        // quadrature noise ~1e−11/1e−4 = 1e−7 on the first derivative, 1e−3 on the second).
        let y = law(0.5, 0.499);
        for &theta in &[0.0, 0.3, 1.0, 4.0, 30.0] {
            let tl = y.tilted(theta);
            let h = 1e-4;
            let (lp, l0, lm) = (y.log_mgf(theta + h), y.log_mgf(theta), y.log_mgf(theta - h));
            assert!((tl.log_mgf - l0).abs() < 1e-12, "Λ");
            assert!((tl.mean - (lp - lm) / (2.0 * h)).abs() < 1e-6, "Λ' at {theta}: {} vs {}", tl.mean, (lp - lm) / (2.0 * h));
            assert!((tl.variance - (lp - 2.0 * l0 + lm) / (h * h)).abs() < 2e-3 * tl.variance.max(1.0), "Λ'' at {theta}");
        }
        // At θ = 0 the tilted law is the law: its mean and variance are μ and Var Y.
        let t0 = y.tilted(0.0);
        assert!((t0.mean - y.mean()).abs() < 1e-10 && (t0.variance - y.variance()).abs() < 1e-9);
    }

    #[test]
    fn the_saddle_point_solves_the_mean_equation() {
        let y = law(0.5, 0.499);
        for &a in &[0.0, 0.5, 2.0, 9.0] {
            let s = y.saddle(a);
            assert!(s.theta > 0.0 && (s.mean - a).abs() <= 1e-12 * a.abs().max(1.0), "a = {a}: θ = {}, Λ' = {}", s.theta, s.mean);
        }
        assert_eq!(y.saddle(y.mean() - 0.1).theta, 0.0);
    }

    /// The exact one-term tail P(Y ≥ s) = erfc(√((e^s − c)/(2γ))) in log space (erfc's
    /// asymptotic series where erfc underflows).
    fn log_exact_tail(y: &LogChi2, s: f64) -> f64 {
        let v = ((s.exp() - y.c) / y.gamma / 2.0).sqrt();
        let e = statrs::function::erf::erfc(v);
        if e > 1e-280 {
            e.ln()
        } else {
            -v * v - (v * std::f64::consts::PI.sqrt()).ln() + (1.0 - 0.5 / (v * v) + 0.75 / v.powi(4)).ln()
        }
    }

    #[test]
    fn bahadur_rao_at_one_step_is_within_its_first_correction_of_the_exact_tail() {
        // t = 1, where P is exact: the leading value is off by b₁ + O(b₁²); the first-order value
        // BR·(1 + b₁) by much less, and the claim's allowance 2|b₁|/t covers both.
        let y = law(0.5, 0.499);
        for &s in &[3.0, 5.0, 8.0, 10.0] {
            let th = Threshold::new(&y, 1, s);
            let exact = log_exact_tail(&y, s);
            let br = th.log_bahadur_rao().unwrap();
            let b1 = th.bahadur_rao_b1();
            assert!(b1.abs() < 0.5, "b₁ = {b1} at s = {s}");
            assert!((exact - br).abs() <= (1.0 + 2.0 * b1.abs()).ln(), "s = {s}: exact {exact}, BR {br}, b₁ {b1}");
            assert!((exact - br - (1.0 + b1).ln()).abs() < 0.5 * (exact - br).abs().max(1e-3), "s = {s}: the correction helps");
        }
    }

    #[test]
    fn the_proposal_bounds_the_ratio_and_reports_its_acceptance() {
        let y = law(0.5, 0.499);
        for &theta in &[0.0, 0.2, 1.0, 5.0, 100.0, 1e4] {
            let tl = y.tilted(theta);
            let p = TiltedProposal::new(&y, &tl);
            // The log-ratio never exceeds ln M on a fine grid of u.
            for i in 0..20_000 {
                let u = (i as f64 / 1000.0).exp() - 1.0;
                let r = theta * (y.c + y.gamma * u).ln() - p.eta * u;
                assert!(r <= p.log_bound, "θ = {theta}, u = {u}: {r} > {}", p.log_bound);
            }
            assert!(p.acceptance > 0.0 && p.acceptance <= 1.0, "θ = {theta}: acceptance {}", p.acceptance);
            assert!((p.scale - 1.0 / (1.0 - 2.0 * p.eta)).abs() <= 1e-15 * p.scale);
        }
    }
}
