//! Monte Carlo jobs: many independent sample paths of one workload, described as plain data
//! so that every backend (rayon on the CPU, CUDA later) runs the same job on the same streams.
//!
//! Each job fixes the stream layout: path `p` reads the normals of `Stream::new(key, p)` in the
//! order documented on the job.

use super::stream::StreamKey;
use crate::error::{Error, Result};
use crate::model::Discretization;
use serde::{Deserialize, Serialize};

/// Log-spaced record points 1 ≤ k ≤ horizon (always including the horizon).
pub fn log_checkpoints(horizon: u64, count: usize) -> Vec<u64> {
    let mut ks: Vec<u64> = (0..count)
        .map(|i| {
            let f = i as f64 / (count.max(2) - 1) as f64;
            (horizon as f64).powf(f).round().max(1.0) as u64
        })
        .collect();
    ks.push(horizon);
    ks.sort_unstable();
    ks.dedup();
    ks
}

/// The LRD of a diagonal selective SSM, `LRD(t+k,t)_n = e^{a_n S_k} B̄_{t,n}` with
/// `S_k = Σ_{j=t+1}^{t+k} Δ_j` and `Δ_j = softplus(w x_j + b)`, x iid N(0,1), in log space up
/// to a horizon of 10^6 and beyond.
///
/// Stream layout: normal 0 is x_t, normal j is x_{t+j}.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DiagonalLrdJob {
    /// Modes a_n (real, negative).
    pub a: Vec<f64>,
    /// Fixed input vector B.
    pub b: Vec<f64>,
    /// Δ weight.
    pub w: f64,
    /// Δ bias.
    pub bias: f64,
    /// Discretisation of B.
    pub disc: Discretization,
    /// Steps k after t.
    pub horizon: u64,
    /// Independent paths.
    pub paths: u64,
    /// Rate constant r of the bound `log‖LRD(t+k,t)‖ ≤ r·S_k + log‖B̄_t‖` being checked.
    pub claimed_rate: f64,
    /// Number of log-spaced points recorded per path.
    pub checkpoints: usize,
    /// Stream key.
    pub key: StreamKey,
}

/// One path of a [`DiagonalLrdJob`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiagonalLrdPath {
    /// `log‖B̄_t‖₂`.
    pub log_bbar: f64,
    /// Minimum over k of `(bound − log‖LRD‖) / (1 + |r S_k|)`: negative means the bound is violated.
    pub min_margin: f64,
    /// The step at which the minimum was attained.
    pub argmin_k: u64,
    /// `S_K` at the horizon.
    pub s_final: f64,
    /// `log‖LRD(t+K,t)‖₂` at the horizon.
    pub log_lrd_final: f64,
    /// `Σ_{k=1}^{K} log‖LRD(t+k,t)‖₂` (the checksum of the W1 benchmark workload).
    pub sum_log_lrd: f64,
    /// `(k, S_k, log‖LRD(t+k,t)‖)` at the checkpoints.
    pub trace: Vec<(u64, f64, f64)>,
}

/// Largest state size of the interaction loop on the CPU (the path loop's fixed-size arrays).
pub const MAX_INTERACTION_STATE: usize = 64;

/// Products of the interaction model's transitions `M_j = Ā + x_j² G Wᵀ` applied to a vector,
/// renormalised each step, with x iid N(0,1). With `start = Lrd` the vector is the LRD at k=0,
/// `v_0 = B̄ + 2x_t (Wᵀh_{t−1}) G`, so the path is `LRD(t+k,t)`; with `start = Random` it is a
/// Gaussian vector (or with `Ones` a fixed direction) and the growth rate estimates the top
/// Lyapunov exponent.
///
/// Stream layout: `Lrd`: normals 0..t are x_1..x_t, then x_{t+1}, ...; `Random`: normals 0..H
/// are v_0, then x_1, x_2, ...
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct InteractionJob {
    /// Ā, row-major (H×H).
    pub abar: Vec<Vec<f64>>,
    /// B̄.
    pub bbar: Vec<f64>,
    /// G.
    pub g: Vec<f64>,
    /// W.
    pub w: Vec<f64>,
    /// How v_0 is chosen.
    pub start: Start,
    /// Number of products k.
    pub horizon: u64,
    /// Steps after which `log_growth_after_burn_in` starts counting (lets the direction settle
    /// on the top Oseledets direction, removing the O(1/k) bias of the start vector).
    pub burn_in: u64,
    /// Independent paths.
    pub paths: u64,
    /// Number of log-spaced points recorded per path.
    pub checkpoints: usize,
    /// Stream key.
    pub key: StreamKey,
}

/// The start vector of an [`InteractionJob`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Start {
    /// The LRD at k = 0 after a prefix of `t` inputs.
    Lrd {
        /// The differentiated time t (≥ 1).
        t: u64,
    },
    /// A standard Gaussian vector.
    Random,
    /// The direction (1, …, 1)/√H (the W3 benchmark workload's start).
    Ones,
}

/// One path of an [`InteractionJob`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InteractionPath {
    /// `log‖v_0‖`.
    pub log_v0: f64,
    /// `log‖Φ(k) v_0‖ − log‖v_0‖` at the horizon.
    pub log_growth: f64,
    /// `log‖Φ(K) v_0‖ − log‖Φ(burn_in) v_0‖`.
    pub log_growth_after_burn_in: f64,
    /// Steps at which the norm increased.
    pub increases: u64,
    /// `(k, log‖Φ(k) v_0‖)` at the checkpoints.
    pub trace: Vec<(u64, f64)>,
}

/// Sums `Y_t = Σ_{i≤t} ln(c + γ x_i²)`, x iid N(0,1), recorded at increasing times: the
/// log of the product of eigenvalues in 004 Theorem 4 (one sample = one input sequence).
/// Computed as logarithms of products of mantissas with the exponents summed apart, one
/// logarithm per 8 terms of a lane ([`paths::tail_sum_sample`](super::paths::tail_sum_sample)
/// defines the order of every operation and bounds the rounding).
///
/// Stream layout: normal i−1 of sample s is x_i.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TailSumJob {
    /// c = λ_H > 0.
    pub c: f64,
    /// γ > 0.
    pub gamma: f64,
    /// Strictly increasing times t ≥ 1 at which Y_t is recorded.
    pub times: Vec<u64>,
    /// Independent samples.
    pub samples: u64,
    /// Stream key.
    pub key: StreamKey,
}

/// Y_t = Σ_{i≤t} ln(c + γ u_i) with u_i iid from the law of X² tilted by `(c + γu)^θ` (the
/// importance-sampling job of 004 Theorem 4), sampled exactly by rejection
/// ([`TiltedProposal`](crate::math::large_deviation::TiltedProposal)): proposal j is
/// `u = (z_j·z_j)·scale` and is accepted when `ln v_j ≤ (θ·ln(c + γu) − η·u) − log_bound`.
/// Accepted term i (0-based) goes to partial sum i mod 4, and Y_t = (l₀ + l₁) + (l₂ + l₃).
///
/// Stream layout: z_j is normal j of `Stream::new(key, p)`; v_j comes from Philox block ⌊j/2⌋
/// of `Stream::new(accept_key, p)`, words (w₀, w₁) for even j and (w₂, w₃) for odd j
/// ([`Stream::fill_uniform_pairs`](super::Stream::fill_uniform_pairs)). Proposals are read in
/// order until t are accepted.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TiltedTailJob {
    /// c = λ_H > 0.
    pub c: f64,
    /// γ > 0.
    pub gamma: f64,
    /// The tilt θ ≥ 0.
    pub theta: f64,
    /// The proposal's η ∈ [0, ½).
    pub eta: f64,
    /// `1/(1 − 2η)`.
    pub scale: f64,
    /// `ln M`, an upper bound of `θ ln(c + γu) − ηu` over u ≥ 0.
    pub log_bound: f64,
    /// Accepted terms per sample, t ≥ 1.
    pub t: u64,
    /// Independent samples.
    pub samples: u64,
    /// Key of the proposals' normals.
    pub key: StreamKey,
    /// Key of the acceptance uniforms.
    pub accept_key: StreamKey,
}

/// The scalar random-coefficient AR(1) of 004 §4.2, `z_t = m_t z_{t−1} + q x_t` with
/// `m_t = c + γ x_t²`, z_0 = 0, x iid N(0,1): the H-coordinate of the interaction model's
/// special case. Tracked as `z·e^L` with rescaling, so exploding paths do not overflow.
///
/// Stream layout: normal t−1 of path p is x_t.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScalarArJob {
    /// c = λ_H > 0.
    pub c: f64,
    /// γ ≥ 0.
    pub gamma: f64,
    /// q = b_H.
    pub q: f64,
    /// Strictly increasing times t ≥ 1 at which z_t is recorded.
    pub times: Vec<u64>,
    /// Independent paths.
    pub paths: u64,
    /// Stream key.
    pub key: StreamKey,
}

/// One path of a [`ScalarArJob`] at its record times.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScalarArPath {
    /// `ln |z_t|`.
    pub log_abs: Vec<f64>,
    /// `z_t` (±∞ once it no longer fits in f64).
    pub value: Vec<f64>,
}

/// Largest eidetic memory a [`NeedleJob`] takes (the kernel's per-thread arrays).
pub const MAX_NEEDLE_CAPACITY: usize = 16;

/// 001.c21.needle: a needle of amplitude A₀ at t = 0 and `distractors` spikes at
/// `⌊jT/(D + 1)⌋`, j = 1..=D, amplitudes iid U[1, 1.5], zero input elsewhere, through the fading
/// SSM `y_t = ā y_{t−1} + (1 − ā)u_t`; each token's innovation `ε_t = (y_t − y_{t−1})²` (the
/// one-tap predictor, k = 1) is offered to the bounded top-m_e memory
/// ([`crate::model::eidetic::TopMemory`]). Whether the needle (position 0) is held after token
/// L, at each record lag L.
///
/// Stream layout: uniforms 0..=D are A₀ (the needle), A₁, …, A_D, one Philox block each.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NeedleJob {
    /// The fading pole ā ∈ [0, 1).
    pub abar: f64,
    /// m_e, at most [`MAX_NEEDLE_CAPACITY`].
    pub capacity: usize,
    /// D, the number of distractor spikes.
    pub distractors: u64,
    /// T, the last token (at least D + 1, so every spike has its own position).
    pub horizon: u64,
    /// Record lags, strictly increasing, in 1..=T.
    pub lags: Vec<u64>,
    /// Independent paths.
    pub paths: u64,
    /// Stream key.
    pub key: StreamKey,
}

impl NeedleJob {
    /// The position of distractor j (1..=D).
    pub fn position(&self, j: u64) -> u64 {
        j * self.horizon / (self.distractors + 1)
    }
    /// Rejects ā outside [0, 1), a memory over the kernel's limit, T ≤ D or T > 2⁴⁰, bad lags
    /// and zero paths.
    pub fn validate(&self) -> Result<()> {
        let ok = (0.0..1.0).contains(&self.abar)
            && self.capacity <= MAX_NEEDLE_CAPACITY
            && self.horizon > self.distractors
            && self.horizon <= 1 << 40
            && self.paths > 0
            && self.lags.last().is_some_and(|l| *l <= self.horizon);
        if !ok {
            return Err(Error::InvalidParameter(format!("needle job needs 0 ≤ ā < 1, m_e ≤ {MAX_NEEDLE_CAPACITY}, D < T ≤ 2⁴⁰, lags ≤ T, paths ≥ 1")));
        }
        check_times(&self.lags)
    }
}

fn check_times(times: &[u64]) -> Result<()> {
    if times.is_empty() || times[0] == 0 || times.windows(2).any(|w| w[0] >= w[1]) {
        return Err(Error::InvalidParameter("record times must be strictly increasing and ≥ 1".into()));
    }
    Ok(())
}

impl TailSumJob {
    /// Rejects c ≤ 0, γ ≤ 0, NaN, bad times and zero samples.
    pub fn validate(&self) -> Result<()> {
        finite("c, gamma", &[self.c, self.gamma])?;
        if self.c <= 0.0 || self.gamma <= 0.0 || self.samples == 0 {
            return Err(Error::InvalidParameter("tail-sum job needs c > 0, γ > 0, samples ≥ 1".into()));
        }
        check_times(&self.times)
    }
}

impl TiltedTailJob {
    /// Rejects c ≤ 0, γ ≤ 0, θ < 0, η ∉ [0, ½) (η = 0 only with θ = 0), non-finite values, t = 0
    /// and zero samples.
    pub fn validate(&self) -> Result<()> {
        finite("c, gamma, theta, eta, scale, log_bound", &[self.c, self.gamma, self.theta, self.eta, self.scale, self.log_bound])?;
        let ok = self.c > 0.0
            && self.gamma > 0.0
            && self.theta >= 0.0
            && (0.0..0.5).contains(&self.eta)
            && (self.eta > 0.0 || self.theta == 0.0)
            && self.scale >= 1.0
            && self.t >= 1
            && self.samples >= 1;
        if ok {
            Ok(())
        } else {
            Err(Error::InvalidParameter("tilted tail job needs c > 0, γ > 0, θ ≥ 0, 0 ≤ η < ½ (η > 0 when θ > 0), t ≥ 1, samples ≥ 1".into()))
        }
    }
}

impl ScalarArJob {
    /// Rejects c ≤ 0, γ < 0, NaN, bad times and zero paths.
    pub fn validate(&self) -> Result<()> {
        finite("c, gamma, q", &[self.c, self.gamma, self.q])?;
        if self.c <= 0.0 || self.gamma < 0.0 || self.paths == 0 {
            return Err(Error::InvalidParameter("AR(1) job needs c > 0, γ ≥ 0, paths ≥ 1".into()));
        }
        check_times(&self.times)
    }
}

fn finite(name: &str, v: &[f64]) -> Result<()> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!("{name} must be finite")))
    }
}

impl DiagonalLrdJob {
    /// Rejects NaN/inf parameters, empty modes, mismatched sizes and zero paths.
    pub fn validate(&self) -> Result<()> {
        finite("a", &self.a)?;
        finite("b", &self.b)?;
        finite("w, bias, claimed_rate", &[self.w, self.bias, self.claimed_rate])?;
        if self.a.is_empty() || self.a.len() != self.b.len() || self.paths == 0 {
            return Err(Error::InvalidParameter("diagonal LRD job needs H ≥ 1 modes, |b| = H, paths ≥ 1".into()));
        }
        Ok(())
    }
}

impl InteractionJob {
    /// Rejects NaN/inf parameters, mismatched sizes and zero paths.
    pub fn validate(&self) -> Result<()> {
        let h = self.bbar.len();
        for row in &self.abar {
            finite("abar", row)?;
        }
        finite("bbar", &self.bbar)?;
        finite("g", &self.g)?;
        finite("w", &self.w)?;
        let ok = h > 0
            && self.abar.len() == h
            && self.abar.iter().all(|r| r.len() == h)
            && self.g.len() == h
            && self.w.len() == h
            && h <= MAX_INTERACTION_STATE
            && self.paths > 0
            && self.burn_in < self.horizon
            && !matches!(self.start, Start::Lrd { t: 0 });
        if ok {
            Ok(())
        } else {
            Err(Error::InvalidParameter("interaction job needs consistent sizes 1 ≤ H ≤ 64, paths ≥ 1, t ≥ 1, burn_in < horizon".into()))
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn checkpoints_are_log_spaced_and_end_at_the_horizon() {
        let ks = super::log_checkpoints(1_000_000, 7);
        assert_eq!(ks, vec![1, 10, 100, 1000, 10_000, 100_000, 1_000_000]);
        assert_eq!(super::log_checkpoints(1, 5), vec![1]);
    }
}
