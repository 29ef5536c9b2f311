//! The one-layer mixers of 000 Table 2 (eq 14a–g), written as in the paper so that its
//! constructions can be run exactly: a short causal convolution (kernel 2), the selective SSM of
//! Mamba (S6), single-head Mamba-2, S4D, and Mamba-Δᵀ (eq 15/117), an optional gate, and a linear
//! readout with argmax. f64 throughout; h₀ = 0 and x₀ = 0 (left zero padding).
//!
//! | kind | Δ | recurrence `h_t[a,n]` |
//! |---|---|---|
//! | `Mamba` | Δ ∈ ℝ^d from x̂ | `e^{Λ[a,n]Δ[a]} h + Δ[a] x̂[a] B[n]` |
//! | `Mamba2` | Δ ∈ ℝ from x | `e^{λΔ} h + Δ x̂[a] B[n]` (B, C from their own convs) |
//! | `S4d` | Δ constant | `e^{Λ[a,n]Δ} h + Δ x̂[a] B[n]` (B, C constant) |
//! | `DeltaT` | Δ ∈ ℝ^N from x̂ | `e^{Λ[a,n]Δ[n]} h + x̂[a] B[n]` |
//!
//! and `y_t = h_t C_t`, plus Mamba's skip `D ⊙ x̂_t` when one is present, gated
//! `ỹ_t = σ(W_g x_t) ⊙ (y_t + D ⊙ x̂_t)` when a gate is present. Differences from a real Mamba
//! block (in/out projections, kernel 4, dt rank) are the paper's, not ours; 000's constructions
//! have no D skip (`skip: None`).

use super::selective_scan::{selective_scan, ScanInputs};
use crate::error::{Error, Result};
use crate::math::softplus::softplus;
use nalgebra::{DMatrix, DVector};

/// A pointwise nonlinearity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum Activation {
    /// z.
    Identity,
    /// max(z, 0) (the proofs).
    Relu,
    /// z·sigmoid(z) (Mamba).
    Silu,
}

impl Activation {
    /// σ(z).
    pub fn apply(self, z: f64) -> f64 {
        match self {
            Activation::Identity => z,
            Activation::Relu => z.max(0.0),
            Activation::Silu => crate::math::softplus::silu(z),
        }
    }
}

/// Depthwise causal convolution of kernel size 2: `x̂_t = σ(c₀ ⊙ x_{t−1} + c₁ ⊙ x_t − b)`.
#[derive(Clone, Debug)]
pub struct ShortConv {
    /// Weight on x_{t−1}.
    pub c0: DVector<f64>,
    /// Weight on x_t.
    pub c1: DVector<f64>,
    /// Bias b (subtracted).
    pub bias: DVector<f64>,
    /// σ.
    pub act: Activation,
}

impl ShortConv {
    /// The same scalars in every channel.
    pub fn uniform(d: usize, c0: f64, c1: f64, bias: f64, act: Activation) -> Self {
        ShortConv { c0: DVector::from_element(d, c0), c1: DVector::from_element(d, c1), bias: DVector::from_element(d, bias), act }
    }

    /// `x̂_t` from `x_{t−1}` (zero at t = 1) and `x_t`.
    pub fn apply(&self, prev: &DVector<f64>, cur: &DVector<f64>) -> DVector<f64> {
        DVector::from_fn(cur.len(), |a, _| self.act.apply(self.c0[a] * prev[a] + self.c1[a] * cur[a] - self.bias[a]))
    }
}

/// The step size Δ.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum StepSize {
    /// The same Δ at every step (S4D, and the MQAR proofs' Δ = 1).
    Constant(f64),
    /// `Δ = softplus(W z + b)`, z = x̂ (Mamba, Mamba-Δᵀ) or x (Mamba-2, one row).
    Softplus {
        /// W.
        w: DMatrix<f64>,
        /// b.
        b: DVector<f64>,
    },
}

/// How B_t (or C_t) is made.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Projection {
    /// A constant vector (S4D).
    Constant(DVector<f64>),
    /// `W x̂` (N × d).
    Linear(DMatrix<f64>),
}

impl Projection {
    fn of(&self, z: &DVector<f64>) -> DVector<f64> {
        match self {
            Projection::Constant(v) => v.clone(),
            Projection::Linear(w) => w * z,
        }
    }
}

/// The mixer families of 000 Table 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum MixerKind {
    /// Mamba (S6): Δ per channel.
    Mamba,
    /// Single-head Mamba-2: scalar Δ from x_t, B and C from their own convolutions.
    Mamba2,
    /// S4D: constant Δ, B, C.
    S4d,
    /// Mamba-Δᵀ: Δ per state slot, no Δ in the input term.
    DeltaT,
}

/// The gate `σ(W_g x_t)`.
#[derive(Clone, Debug)]
pub struct Gate {
    /// W_g (d × d).
    pub w: GateWeights,
    /// σ.
    pub act: Activation,
}

/// The gate's weights W_g.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum GateWeights {
    /// W_g = I (Theorem 4's gate ReLU(x_t)), applied without a d × d product.
    Identity,
    /// A dense d × d matrix.
    Dense(DMatrix<f64>),
}

impl GateWeights {
    /// `W_g x`.
    pub fn apply(&self, x: &DVector<f64>) -> DVector<f64> {
        match self {
            GateWeights::Identity => x.clone(),
            GateWeights::Dense(w) => w * x,
        }
    }
}

/// One step's inputs to the recurrence: x̂_t, Δ_t (d or N entries), B_t and C_t.
type Step = (DVector<f64>, DVector<f64>, DVector<f64>, DVector<f64>);

/// One mixer layer.
#[derive(Clone, Debug)]
pub struct Mixer {
    /// Which recurrence.
    pub kind: MixerKind,
    /// The convolution producing x̂ (Mamba-2: conv_u).
    pub conv: ShortConv,
    /// Mamba-2 only: conv_B and conv_C (None elsewhere).
    pub conv_bc: Option<(ShortConv, ShortConv)>,
    /// Λ (d × N); Mamba-2 uses Λ\[0,0\] as its scalar λ.
    pub lambda: DMatrix<f64>,
    /// Δ.
    pub delta: StepSize,
    /// B_t.
    pub b: Projection,
    /// C_t.
    pub c: Projection,
    /// Mamba's skip D (d entries): `y_t + D ⊙ x̂_t` before the gate; None: no skip (000's
    /// Table 2 and its constructions).
    pub skip: Option<DVector<f64>>,
    /// The gate, if any ("without gating" = None).
    pub gate: Option<Gate>,
}

/// The readout: logits `W_o ỹ + b_o`, prediction by argmax.
#[derive(Clone, Debug)]
pub struct Readout {
    /// W_o (classes × d).
    pub w: DMatrix<f64>,
    /// b_o.
    pub b: DVector<f64>,
}

impl Readout {
    /// Logits of one output.
    pub fn logits(&self, y: &DVector<f64>) -> DVector<f64> {
        &self.w * y + &self.b
    }
}

/// `(argmax, top − second)` of a logit vector (ties: the first index, margin 0).
pub fn argmax_margin(z: &DVector<f64>) -> (usize, f64) {
    let (mut best, mut second) = (0, f64::NEG_INFINITY);
    for i in 1..z.len() {
        if z[i] > z[best] {
            second = z[best];
            best = i;
        } else if z[i] > second {
            second = z[i];
        }
    }
    (best, z[best] - second)
}

impl Mixer {
    /// Rejects inconsistent shapes.
    pub fn validate(&self) -> Result<()> {
        let (d, n) = self.lambda.shape();
        let bad = |what: &str| Err(Error::InvalidParameter(format!("mixer: {what} does not match d = {d}, N = {n}")));
        if self.conv.c0.len() != d {
            return bad("the convolution");
        }
        for p in [&self.b, &self.c] {
            let ok = match p {
                Projection::Constant(v) => v.len() == n,
                Projection::Linear(w) => w.shape() == (n, d),
            };
            if !ok {
                return bad("B or C");
            }
        }
        if let StepSize::Softplus { w, b } = &self.delta {
            let rows = match self.kind {
                MixerKind::Mamba => d,
                MixerKind::Mamba2 => 1,
                MixerKind::DeltaT => n,
                MixerKind::S4d => return bad("an input-dependent Δ (S4D has a constant one)"),
            };
            if w.shape() != (rows, d) || b.len() != rows {
                return bad("W_Δ");
            }
        }
        if (self.kind == MixerKind::Mamba2) != self.conv_bc.is_some() {
            return bad("conv_B/conv_C (Mamba-2 only)");
        }
        if self.skip.as_ref().is_some_and(|s| s.len() != d) {
            return bad("the skip D");
        }
        Ok(())
    }

    /// The outputs ỹ_1..ỹ_T for inputs x_1..x_T. Mamba, Mamba-2 and S4D share the recurrence
    /// `h[a,n] ← e^{Λ[a,n]Δ[a]} h + Δ[a] x̂[a] B[n]` and run through the engine's
    /// [`selective_scan`] (the W4 benchmark's loop); Mamba-Δᵀ
    /// (Δ per state slot, no Δ in the input term) has its own loop.
    ///
    /// # Panics
    /// On a mixer that [`Mixer::validate`] rejects, or non-finite inputs or weights.
    pub fn forward(&self, xs: &[DVector<f64>]) -> Vec<DVector<f64>> {
        let (d, n) = self.lambda.shape();
        let zero = DVector::zeros(d);
        let prev = |t: usize| if t == 0 { &zero } else { &xs[t - 1] };
        // Per step: x̂, Δ (d or N entries), B_t, C_t.
        let steps: Vec<Step> = (0..xs.len())
            .map(|t| {
                let (p, x) = (prev(t), &xs[t]);
                let xh = self.conv.apply(p, x);
                let (bz, cz) = match &self.conv_bc {
                    Some((cb, cc)) => (cb.apply(p, x), cc.apply(p, x)),
                    None => (xh.clone(), xh.clone()),
                };
                let width = if self.kind == MixerKind::DeltaT { n } else { d };
                let delta = match &self.delta {
                    StepSize::Constant(c) => DVector::from_element(width, *c),
                    StepSize::Softplus { w, b } if self.kind == MixerKind::Mamba2 => DVector::from_element(width, softplus((w * x + b)[0])),
                    StepSize::Softplus { w, b } => (w * &xh + b).map(softplus),
                };
                (xh, delta, self.b.of(&bz), self.c.of(&cz))
            })
            .collect();
        let mut ys = match self.kind {
            MixerKind::DeltaT => self.delta_t_scan(&steps),
            _ => self.channel_scan(&steps),
        };
        if let Some(skip) = &self.skip {
            for (y, step) in ys.iter_mut().zip(&steps) {
                *y += skip.component_mul(&step.0);
            }
        }
        if let Some(g) = &self.gate {
            for (y, x) in ys.iter_mut().zip(xs) {
                y.component_mul_assign(&g.w.apply(x).map(|z| g.act.apply(z)));
            }
        }
        ys
    }

    /// Mamba / Mamba-2 / S4D through `selective_scan` (Δ given directly).
    fn channel_scan(&self, steps: &[Step]) -> Vec<DVector<f64>> {
        let (d, n) = self.lambda.shape();
        let len = steps.len();
        let rows = |f: &dyn Fn(&Step) -> &DVector<f64>| -> Vec<f64> { steps.iter().flat_map(|s| f(s).iter().copied()).collect() };
        let (u, delta, b, c) = (rows(&|s| &s.0), rows(&|s| &s.1), rows(&|s| &s.2), rows(&|s| &s.3));
        let a: Vec<f64> = (0..n * d).map(|i| if self.kind == MixerKind::Mamba2 { self.lambda[(0, 0)] } else { self.lambda[(i % d, i / d)] }).collect();
        let inputs = ScanInputs { d, n, len, delta: &delta, delta_softplus: false, a: &a, b: &b, c: &c, u: &u };
        let mut y = vec![0.0; len * d];
        selective_scan(&inputs, &mut y).expect("shapes fixed by validate()");
        y.chunks_exact(d).map(DVector::from_row_slice).collect()
    }

    /// Mamba-Δᵀ: `h[a,n] ← e^{Λ[a,n]Δ[n]} h + x̂[a] B[n]`, `y = h C`.
    fn delta_t_scan(&self, steps: &[Step]) -> Vec<DVector<f64>> {
        let (d, n) = self.lambda.shape();
        let mut h = DMatrix::<f64>::zeros(d, n);
        steps
            .iter()
            .map(|(xh, delta, bt, ct)| {
                for a in 0..d {
                    for s in 0..n {
                        h[(a, s)] = (self.lambda[(a, s)] * delta[s]).exp() * h[(a, s)] + xh[a] * bt[s];
                    }
                }
                &h * ct
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s4d_with_zero_lambda_is_a_running_sum_and_the_gate_multiplies() {
        let d = 2;
        let m = Mixer {
            kind: MixerKind::S4d,
            conv: ShortConv::uniform(d, 0.0, 1.0, 0.0, Activation::Identity),
            conv_bc: None,
            lambda: DMatrix::zeros(d, 1),
            delta: StepSize::Constant(1.0),
            b: Projection::Constant(DVector::from_element(1, 1.0)),
            c: Projection::Constant(DVector::from_element(1, 1.0)),
            skip: None,
            gate: Some(Gate { w: GateWeights::Dense(DMatrix::identity(d, d)), act: Activation::Identity }),
        };
        m.validate().unwrap();
        let xs = vec![DVector::from_vec(vec![1.0, 2.0]), DVector::from_vec(vec![3.0, -1.0])];
        let y = m.forward(&xs);
        assert_eq!(y[1], DVector::from_vec(vec![3.0 * 4.0, -1.0]));
        // The skip adds D ⊙ x̂_t before the gate: (4 + 0.5·3)·3 and (1 − 2·(−1))·(−1).
        let skipped = Mixer { skip: Some(DVector::from_vec(vec![0.5, -2.0])), ..m.clone() };
        assert_eq!(skipped.forward(&xs)[1], DVector::from_vec(vec![(4.0 + 1.5) * 3.0, -(1.0 + 2.0)]));
        assert!(Mixer { skip: Some(DVector::zeros(3)), ..m }.validate().is_err());
        assert_eq!(argmax_margin(&DVector::from_vec(vec![1.0, 5.0, 2.0])), (1, 3.0));
    }
}
