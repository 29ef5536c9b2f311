//! Estimators the families use, public so a conjecture can use them too: the top Lyapunov
//! exponent of a random matrix product with its interval, log-space LRD norms (the
//! [`DiagonalLrdJob`](crate::mc::jobs::DiagonalLrdJob) of `mc`, run by any backend), and rare
//! tail probabilities of `Σ ln(c + γx²)` by importance sampling ([`RareTail`]).

use crate::error::Result;
use crate::math::large_deviation::{Threshold, TiltedProposal};
use crate::math::linalg::Mat;
use crate::math::subexp::LogChi2;
use crate::mc::jobs::TiltedTailJob;
use crate::mc::RunJob;
use crate::mc::{Backend, Stream, StreamKey};
use crate::model::InteractionSsm;
use crate::progress::Progress;
use crate::stats::{betting_interval, mean_interval, ConfidenceInterval};
use serde::{Deserialize, Serialize};
use std::f64::consts::LN_10;

/// The steps discarded before a Lyapunov rate is measured over a horizon: half of it. A rate over
/// n steps carries a deterministic bias ln(c)/n from the start's alignment c with the top
/// direction, which a Student-t interval over replicas does not contain; with a burn-in of a
/// tenth it showed when the top two exponents of a nearly deterministic model were close
/// (`004.sec41`, quick budget, seed 40: 1.1·10⁻⁴ against an interval of ±1.3·10⁻⁵), and
/// discarding half the horizon shrinks it by (λ₂/λ₁)^{0.4T} more. [`lambda_top`] and the LRD
/// paths of `004.sec41` use it alike.
pub fn lyapunov_burn_in(horizon: u64) -> u64 {
    horizon / 2
}

/// λ_top of the interaction model's product ∏ M(x_j), x_j ~ N(0,1) iid, estimated independently of the LRD paths: a
/// different estimator (the Frobenius norm of the whole matrix product, renormalised every 16
/// steps, instead of the norm of one propagated vector), different code (nalgebra on the CPU,
/// not the Monte Carlo backend) and its own streams. Each replica's rate is taken after
/// [`lyapunov_burn_in`]; the interval is Student-t over `replicas` at `conf`.
pub fn lambda_top(model: &InteractionSsm, horizon: u64, replicas: u64, key: StreamKey, conf: f64) -> ConfidenceInterval {
    use rayon::prelude::*;
    let burn_in = lyapunov_burn_in(horizon);
    crate::parallel::enter();
    let rates: Vec<f64> = (0..replicas)
        .into_par_iter()
        .map(|r| {
            let mut stream = Stream::new(key, r);
            let h = model.size();
            let (mut product, mut log_norm, mut at_burn_in) = (Mat::identity(h, h), 0.0, 0.0);
            for step in 1..=horizon {
                product = model.transition(stream.normal()) * product;
                if step % 16 == 0 || step == burn_in || step == horizon {
                    let n = product.norm();
                    log_norm += n.ln();
                    product /= n;
                }
                if step == burn_in {
                    at_burn_in = log_norm;
                }
            }
            (log_norm - at_burn_in) / (horizon - burn_in) as f64
        })
        .collect();
    mean_interval(&rates, conf)
}

/// The draws of an importance-sampling run of `P(Y_t ≥ s)`: Y_t of each sample under the law
/// tilted at the event's saddle point ([`tilted_draws`]), from which [`RareTail`] is computed at
/// any confidence level.
#[derive(Clone, Debug)]
pub struct TiltedDraws {
    /// The event and its saddle point.
    pub event: Threshold,
    /// The rejection sampler used.
    pub proposal: TiltedProposal,
    /// Y_t per sample, in sample order.
    pub sums: Vec<f64>,
}

/// Draws `samples` tilted sums for the event `Y_t ≥ s` of `law` through `backend`: proposals
/// from `Stream::new(key, sample)`, acceptance uniforms from `Stream::new(accept_key, sample)`.
pub fn tilted_draws(
    backend: &dyn Backend,
    law: &LogChi2,
    event: Threshold,
    samples: u64,
    key: StreamKey,
    accept_key: StreamKey,
    progress: &dyn Progress,
) -> Result<TiltedDraws> {
    let proposal = TiltedProposal::new(law, &event.tilted);
    let job = TiltedTailJob {
        c: law.c,
        gamma: law.gamma,
        theta: proposal.theta,
        eta: proposal.eta,
        scale: proposal.scale,
        log_bound: proposal.log_bound,
        t: event.t,
        samples,
        key,
        accept_key,
    };
    let sums = backend.run(&job, progress)?;
    Ok(TiltedDraws { event, proposal, sums })
}

/// `P(Y_t ≥ s)` estimated by importance sampling with an exact-coverage interval, in log10
/// (probabilities far below the smallest f64 are represented).
///
/// Each sample contributes `W = e^{tΛ(θ) − θY_t}·1{Y_t ≥ s}` (Y_t drawn under the tilted law), an
/// unbiased estimate of P; on the event `W ≤ B = e^{tΛ(θ) − θs}`, so `W/B = e^{−θ(Y_t − s)}·1{Y_t ≥ s}`
/// lies in [0, 1] and the betting interval of [`betting_interval`] applies to it (proofs/stability.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RareTail {
    /// Steps t.
    pub t: u64,
    /// The threshold s.
    pub threshold: f64,
    /// The tilt θ (0: plain Monte Carlo).
    pub theta: f64,
    /// log10 of the estimate; None when no sample reached the threshold.
    pub log10_p: Option<f64>,
    /// log10 of the interval's lower end; None when it is 0.
    pub log10_lo: Option<f64>,
    /// log10 of the interval's upper end.
    pub log10_hi: f64,
    /// log10 of the weight bound B (the Cramér–Chernoff bound at θ).
    pub log10_weight_bound: f64,
    /// log10 of the Bahadur–Rao value (None when θ = 0).
    pub log10_bahadur_rao: Option<f64>,
    /// The first-order Bahadur–Rao correction b₁ (P = BR·(1 + b₁/t + O(t⁻²))).
    pub bahadur_rao_b1: f64,
    /// Samples, and how many reached the threshold.
    pub samples: u64,
    /// Samples with Y_t ≥ s.
    pub hits: u64,
    /// Two-sided confidence of the interval.
    pub confidence: f64,
    /// The rejection sampler's acceptance probability.
    pub acceptance: f64,
    /// The estimator's variance per sample relative to P̂² (sample variance of W/B over its mean
    /// squared; None without hits). Plain Monte Carlo's is (1 − P)/P: their ratio is the
    /// variance-reduction factor.
    pub relative_variance: Option<f64>,
}

impl RareTail {
    /// The estimate and its interval from `draws` at `confidence`.
    pub fn new(draws: &TiltedDraws, confidence: f64) -> RareTail {
        let ev = &draws.event;
        let theta = ev.theta();
        let scaled: Vec<f64> = draws.sums.iter().map(|&y| if y >= ev.s { (-theta * (y - ev.s)).exp() } else { 0.0 }).collect();
        let ci = betting_interval(&scaled, confidence);
        let ln_b = ev.log_weight_bound();
        let log10 = |m: f64| (m > 0.0).then(|| (ln_b + m.ln()) / LN_10);
        RareTail {
            t: ev.t,
            threshold: ev.s,
            theta,
            log10_p: log10(ci.estimate),
            log10_lo: log10(ci.lo),
            log10_hi: (ln_b + ci.hi.ln()) / LN_10,
            log10_weight_bound: ln_b / LN_10,
            log10_bahadur_rao: ev.log_bahadur_rao().map(|l| l / LN_10),
            bahadur_rao_b1: if theta > 0.0 { ev.bahadur_rao_b1() } else { 0.0 },
            samples: draws.sums.len() as u64,
            hits: draws.sums.iter().filter(|&&y| y >= ev.s).count() as u64,
            confidence,
            acceptance: draws.proposal.acceptance,
            relative_variance: (ci.estimate > 0.0 && scaled.len() > 1).then(|| {
                let var = scaled.iter().map(|x| (x - ci.estimate).powi(2)).sum::<f64>() / (scaled.len() - 1) as f64;
                var / (ci.estimate * ci.estimate)
            }),
        }
    }

    /// How many plain Monte Carlo samples one importance sample is worth at this P:
    /// `((1 − P̂)/P̂) / relative variance` (None without hits).
    pub fn variance_reduction(&self) -> Option<f64> {
        let p = 10f64.powf(self.log10_p?);
        Some((1.0 - p) / p / self.relative_variance?)
    }

    /// The interval's half-width relative to the estimate, `(hi − lo)/(2P̂)` (None without hits).
    pub fn relative_half_width(&self) -> Option<f64> {
        let p = self.log10_p?;
        let lo = self.log10_lo.map_or(0.0, |l| 10f64.powf(l - p));
        Some(0.5 * (10f64.powf(self.log10_hi - p) - lo))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::linalg::Vector;

    #[test]
    fn importance_sampling_covers_the_exact_one_step_tail() {
        // t = 1: P(ln(c + γX²) ≥ s) = erfc(√((e^s − c)/(2γ))) exactly. 4000 tilted samples at 99.9%
        // must cover it, down to P ≈ 1e−10 and beyond, and plain sampling cannot see it.
        let law = LogChi2::new(0.5, 0.499).unwrap();
        for &s in &[0.5, 2.0, 3.0, 5.0] {
            let event = Threshold::new(&law, 1, s);
            let d = tilted_draws(&crate::mc::CpuBackend, &law, event, 4000, StreamKey::new(3, "is"), StreamKey::new(3, "is/accept"), &crate::progress::Silent)
                .unwrap();
            let est = RareTail::new(&d, 0.999);
            let exact = statrs::function::erf::erfc(((s.exp() - 0.5) / 0.499 / 2.0f64).sqrt()).log10();
            let lo = est.log10_lo.unwrap_or(f64::NEG_INFINITY);
            assert!(lo <= exact && exact <= est.log10_hi, "s = {s}: exact {exact}, interval [{lo}, {}]", est.log10_hi);
            assert!(est.relative_half_width().unwrap() < 0.3, "s = {s}: {:?}", est.relative_half_width());
        }
    }

    #[test]
    fn lambda_top_of_a_scalar_product_is_its_log_mean() {
        // Scalar h_t = (0.5 + 0.25 x²) h_{t−1}: λ_top = E ln(0.5 + 0.25x²), by quadrature
        // −0.36218 (trapezoid quadrature of the normal density on [−12, 12], step 10⁻⁴).
        let m = InteractionSsm {
            abar: Mat::from_element(1, 1, 0.5),
            bbar: Vector::zeros(1),
            g: Vector::from_element(1, 0.5),
            w: Vector::from_element(1, 0.5),
            h0: Vector::zeros(1),
        };
        let ci = lambda_top(&m, 20000, 8, StreamKey::new(1, "lambda-top-test"), 0.999);
        assert!(ci.lo < -0.36218 && -0.36218 < ci.hi && ci.hi - ci.lo < 0.05, "{ci:?}");
    }
}
