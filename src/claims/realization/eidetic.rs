//! 001 §3.1: Mamba's "interleaved convolutional layers … retrieve some of the eidetic
//! functionality lost with the diagonal dynamics".
//!
//! Eidetic (lossless) memory of the recent past, made exact: the **exact-recall window** of a
//! layer at time T is the largest k such that each of u_T, u_{T−1}, …, u_{T−k+1} is a linear
//! function of what the layer holds at T (its states and its skip path), for every input history
//! of length T. It is decided over the rationals: e_{T−l} lies in the row space of the linear map
//! from the history to those numbers.
//!
//! * `001.sec31.conv` (Theorem): C channels, each a causal convolution of width w (kernels
//!   spanning ℝ^w) feeding a diagonal SSM with N states, recall the last w inputs exactly; the same
//!   diagonal SSMs on the raw input recall only u_T (through the skip), whatever their poles, once
//!   T ≥ C·N + 2 (the decayed older inputs span every direction the state can hold). Control: a
//!   shift register (nilpotent, not diagonal) in place of the diagonal dynamics recalls N inputs
//!   on the raw input, refuting "only u_T" wherever N ≥ 2.

use crate::claim::{property, Claim, Eval, Paper, Scale, Tolerance};
use crate::math::exact::{exact, rank, Exact};
use crate::math::Interval;
use crate::strategy::grid_matrix;
use num_traits::{One, Zero};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A layer of C channels: a causal convolution of width w per channel feeding N states.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ConvSsm {
    /// K_{c,l}: channel c's tap on u_{t−l}, l = 0..w−1.
    pub kernels: Vec<Vec<f64>>,
    /// a_{c,n}: channel c's diagonal poles.
    pub poles: Vec<Vec<f64>>,
    /// b_{c,n}: channel c's input weights.
    pub b: Vec<Vec<f64>>,
}

/// The state's dynamics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dynamics {
    /// Diagonal: x_{t,n} = a_n x_{t−1,n} + b_n u′_t (Mamba's).
    Diagonal,
    /// A shift register: x_{t,0} = u′_t, x_{t,n} = x_{t−1,n−1} (nilpotent; the control).
    Shift,
}

impl ConvSsm {
    /// The width w.
    pub fn width(&self) -> usize {
        self.kernels[0].len()
    }
    /// The history length T = w + C·N + 4, long enough for the older inputs to span the state.
    pub fn history(&self) -> usize {
        self.width() + self.poles.len() * self.poles[0].len() + 4
    }
    /// The rows of the linear map from u_1..u_T to what the layer holds at T: each channel's
    /// convolution output (the skip path) and its N states; `convolution = false` feeds every
    /// channel the raw input instead (the kernel [1]).
    fn held(&self, convolution: bool, dynamics: Dynamics) -> Vec<Vec<Exact>> {
        let t = self.history();
        let mut rows = vec![];
        for (c, kernel) in self.kernels.iter().enumerate() {
            let kernel: Vec<Exact> = if convolution { kernel.iter().map(|&k| exact(k)).collect() } else { vec![Exact::one()] };
            // The convolution output u′_T as a row over u_1..u_T (position s at index s − 1).
            let conv_at = |lag: usize| -> Vec<Exact> {
                let mut row = vec![Exact::zero(); t];
                for (l, k) in kernel.iter().enumerate() {
                    if lag + l < t {
                        row[t - 1 - lag - l] += k;
                    }
                }
                row
            };
            rows.push(conv_at(0));
            for (n, (&a, &b)) in self.poles[c].iter().zip(&self.b[c]).enumerate() {
                rows.push(match dynamics {
                    // x_{T,n} = Σ_{m≥0} a^m b u′_{T−m}.
                    Dynamics::Diagonal => {
                        let (a, b) = (exact(a), exact(b));
                        let mut row = vec![Exact::zero(); t];
                        let mut power = b;
                        for m in 0..t {
                            for (x, y) in row.iter_mut().zip(conv_at(m)) {
                                *x += &power * y;
                            }
                            power *= &a;
                        }
                        row
                    }
                    // x_{T,n} = u′_{T−n}.
                    Dynamics::Shift => conv_at(n),
                });
            }
        }
        rows
    }
    /// The exact-recall window: the largest k with u_T, …, u_{T−k+1} each in the row space.
    pub fn recall_window(&self, convolution: bool, dynamics: Dynamics) -> usize {
        let rows = self.held(convolution, dynamics);
        let t = self.history();
        let base = rank(&rows);
        (0..t)
            .take_while(|&lag| {
                let mut with = rows.clone();
                with.push((0..t).map(|s| if s == t - 1 - lag { Exact::one() } else { Exact::zero() }).collect());
                rank(&with) == base
            })
            .count()
    }
    /// Whether the kernels span ℝ^w (rank of the C×w kernel matrix).
    pub fn kernels_span(&self) -> bool {
        rank(&self.kernels.iter().map(|r| r.iter().map(|&k| exact(k)).collect()).collect::<Vec<_>>()) == self.width()
    }
}

/// Windows with and without the convolution against w and 1 (exact counts).
fn recalls(c: &ConvSsm, dynamics: Dynamics) -> Eval {
    let count = |k: usize| Interval::exact(k as f64);
    let with = Eval::ge_by(count(c.recall_window(true, Dynamics::Diagonal)), count(c.width()), Scale(1.0), Tolerance::NONE);
    let alone = Eval::le_by(count(c.recall_window(false, dynamics)), count(1), Scale(1.0), Tolerance::NONE);
    with.and(alone)
}

/// C ∈ 1..=4 channels, w ∈ 1..=C, N ∈ 1..=3; kernels on a 1/4 grid in [−1, 1], poles on a 1/8 grid
/// in [−7/8, 7/8] (0 and repeated poles included), b on a 1/4 grid in [−1, 1].
fn layers() -> impl Strategy<Value = ConvSsm> + Clone {
    (1..=4usize, 1..=3usize)
        .prop_flat_map(|(channels, states)| (1..=channels, Just((channels, states))))
        .prop_flat_map(|(w, (channels, states))| {
            (grid_matrix(channels, w, -1.0, 1.0, 0.25), grid_matrix(channels, states, -0.875, 0.875, 0.125), grid_matrix(channels, states, -1.0, 1.0, 0.25))
        })
        .prop_map(|(kernels, poles, b)| ConvSsm { kernels, poles, b })
}

/// `001.sec31.conv` (theorem): §3.1.
fn claim_conv() -> Claim {
    Claim::theorem(
        "001.sec31.conv",
        super::FAMILY,
        "The convolution gives back eidetic recall that diagonal dynamics lose: C ≤ 4 channels, each a causal convolution of width \
         w ≤ C (kernels spanning ℝ^w) feeding a diagonal SSM with N ≤ 3 states, recall u_T, …, u_{T−w+1} exactly (each a linear function \
         of the states and skip outputs at T; exact ranks over the rationals, T = w + CN + 4); the same diagonal SSMs on the raw input \
         recall only u_T, whatever their poles.",
        property([100, 1000, 10000], layers(), |c: &ConvSsm| recalls(c, Dynamics::Diagonal))
            .given("the kernels span ℝ^w (exact rank)", |c| if c.kernels_span() { 1.0 } else { -1.0 })
            .sides("exact-recall windows (with the convolution; without it)", "w; 1"),
    )
    .source(
        Paper::Bmojo,
        "§3.1 (after eq 4)",
        "A Mamba model is obtained by stacking diagonal Mamba layers, hence insufficient to realize even a simple oscillator without resorting to (numerically slow) complex algebra. […] However, crucial to its implementation are interleaved convolutional layers that retrieve some of the eidetic functionality lost with the diagonal dynamics.",
    )
    .correction("Read exactly: a width-w convolution restores an exact-recall window of w; diagonal dynamics alone have a window of 1 (proofs/realization.md).")
    .control(
        "a shift register (nilpotent, not diagonal) in place of the diagonal dynamics without the convolution",
        property([100, 1000, 10000], layers(), |c: &ConvSsm| recalls(c, Dynamics::Shift)).given("the kernels span ℝ^w (exact rank)", |c| if c.kernels_span() { 1.0 } else { -1.0 }),
    )
}

/// Registers the §3.1 claim.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_conv());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_of_a_two_channel_layer() {
        // Kernels [1, 0] and [1, 1] span ℝ²: u_T = u′_{T,0} and u_{T−1} = u′_{T,1} − u′_{T,0}.
        let c =
            ConvSsm { kernels: vec![vec![1.0, 0.0], vec![1.0, 1.0]], poles: vec![vec![0.5, -0.25], vec![0.0, 0.75]], b: vec![vec![1.0, 1.0], vec![0.5, -1.0]] };
        assert!(c.kernels_span());
        assert_eq!(c.recall_window(true, Dynamics::Diagonal), 2);
        assert_eq!(c.recall_window(false, Dynamics::Diagonal), 1);
        // Shift registers of 2 states on the raw input hold u_T and u_{T−1}.
        assert_eq!(c.recall_window(false, Dynamics::Shift), 2);
        assert!(!recalls(&c, Dynamics::Diagonal).refutes());
        assert!(recalls(&c, Dynamics::Shift).refutes());
    }
}
