//! 003's gadgets (App. A.3, Lemmas 1–5): two-layer MLPs `f(x) = W_3 σ(W_2 x + b_2)` — the
//! Mamba block of eqs (2)–(3) with its SSM branch switched off (eq 31) — that multiply (Lemma 1,
//! eq 30), approximate ReLU MLPs (Lemma 2), apply linear maps exactly (Lemma 3), select
//! (Lemma 4) and compare integers (Lemma 5). The Theorem 3 and 4 machines
//! ([`crate::model::cot_machine`]) are built from these alone.
//!
//! Every gadget evaluates through a [`Precision`], which rounds each computed number to a given
//! number of significand bits (the `003.precision` conjecture) or leaves it in f64.

use super::mixer::Activation;
use super::vector_ssm::{MambaBlock, VectorSsm, GATE_OFF};
use crate::math::softplus::{sigmoid, silu};
use crate::math::Interval;
use serde::{Deserialize, Serialize};

/// W₀(1/e) = 0.278464…: `max_{w ≥ 0} w/(e^w + 1)`, so `0 ≤ ReLU(z) − SiLU(λz)/λ ≤ W₀(1/e)/λ`
/// (attained at λ|z| = 1 + W₀(1/e), the gate constant).
pub const RELU_GAP: f64 = GATE_OFF - 1.0;

/// The numbers a model computes with: f64, or f64 rounded to `bits` significand bits after every
/// operation (round to nearest, ties away; the exponent range of f64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Precision {
    /// Significand bits, 1..=53 (None: plain f64).
    pub bits: Option<u32>,
}

impl Precision {
    /// Plain f64.
    pub const F64: Precision = Precision { bits: None };

    /// Rounds `x` to the precision: the low 53 − p bits of the significand are rounded off
    /// (to nearest, ties away from zero; a carry moves into the exponent).
    pub fn round(self, x: f64) -> f64 {
        match self.bits {
            Some(p) if p < 53 && x.is_finite() => {
                let drop = 53 - p.max(1);
                let bits = x.to_bits();
                let sign = bits & (1 << 63);
                let magnitude = ((bits & !(1 << 63)) + (1 << (drop - 1))) >> drop << drop;
                f64::from_bits(sign | magnitude)
            }
            _ => x,
        }
    }
}

/// A two-layer MLP `f(x) = W_3 σ(W_2 x + b_2)`: eq (31).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mlp {
    /// W_2 (hidden × input).
    pub w2: Vec<Vec<f64>>,
    /// b_2 (hidden).
    pub b2: Vec<f64>,
    /// W_3 (output × hidden).
    pub w3: Vec<Vec<f64>>,
    /// σ: ReLU for the proofs' MLPs, SiLU for Mamba blocks.
    pub activation: Activation,
}

impl Mlp {
    /// Hidden width.
    pub fn hidden(&self) -> usize {
        self.w2.len()
    }
    /// f(x) in f64.
    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        self.forward_in(x, Precision::F64)
    }
    /// f(x), every product, sum and activation rounded to `p`.
    pub fn forward_in(&self, x: &[f64], p: Precision) -> Vec<f64> {
        let dot = |w: &[f64], v: &[f64], init: f64| w.iter().zip(v).fold(init, |acc, (a, b)| p.round(acc + p.round(p.round(*a) * b)));
        let hidden: Vec<f64> = self.w2.iter().zip(&self.b2).map(|(w, b)| p.round(self.activation.apply(dot(w, x, p.round(*b))))).collect();
        self.w3.iter().map(|w| dot(w, &hidden, 0.0)).collect()
    }
    /// Multiply–adds and activations of one evaluation.
    pub fn flops(&self) -> u64 {
        let inputs = self.w2.first().map_or(0, Vec::len);
        (2 * self.hidden() * inputs + self.hidden() + 2 * self.w3.len() * self.hidden()) as u64
    }
    /// Lemma 2: the SiLU block `(W_3/λ)·SiLU(λ(W_2 x + b_2))` that approximates this ReLU MLP.
    pub fn silu_scaled(&self, lambda: f64) -> Mlp {
        let scale = |m: &[Vec<f64>], s: f64| m.iter().map(|r| r.iter().map(|v| v * s).collect()).collect();
        Mlp { w2: scale(&self.w2, lambda), b2: self.b2.iter().map(|b| b * lambda).collect(), w3: scale(&self.w3, 1.0 / lambda), activation: Activation::Silu }
    }
    /// The tight bound of Lemma 2 for [`Mlp::silu_scaled`]: every output of the ReLU MLP minus
    /// the SiLU block is `Σ_k W_3[r][k]·δ_k` with `δ_k ∈ [0, W₀(1/e)/λ]`, so
    /// `‖f − g‖∞ ≤ W₀(1/e)/λ · max_r max(Σ⁺ W_3[r], Σ⁻ |W_3[r]|)` — attained when W_2 is onto.
    pub fn silu_gap(&self, lambda: f64) -> f64 {
        RELU_GAP / lambda * self.worst_row().map_or(0.0, |w| w.2)
    }
    /// The output row with the largest side max(Σ⁺ W_3\[r\], Σ⁻ |W_3\[r\]|): its index, whether
    /// the positive side is the larger, and that side's sum (None without outputs).
    pub fn worst_row(&self) -> Option<(usize, bool, f64)> {
        self.w3
            .iter()
            .enumerate()
            .map(|(r, row)| {
                let pos: f64 = row.iter().filter(|v| **v > 0.0).sum();
                let neg: f64 = row.iter().filter(|v| **v < 0.0).map(|v| -v).sum();
                (r, pos >= neg, pos.max(neg))
            })
            .max_by(|a, b| a.2.total_cmp(&b.2))
    }
    /// The paper's bound of Lemma 2, `M·d/λ` (eq 35): M the largest |entry| of W_2, b_2 and W_3,
    /// d the hidden width.
    pub fn paper_gap(&self, lambda: f64) -> f64 {
        let m = self.w2.iter().chain(&self.w3).flatten().chain(&self.b2).fold(0.0f64, |a, v| a.max(v.abs()));
        m * self.hidden() as f64 / lambda
    }
    /// Eq (31) as a Mamba block: W_1 = 0 and b_1 = 1 (the SSM input is the constant 1), W_b = 0
    /// (the state stays 0), skip 1, so SSM(1) = cᵀ0 + 1 ⊙ 1 = 1 and the block is
    /// `W_3(1 ⊙ SiLU(W_2 x + b_2))`. Only SiLU MLPs have this form.
    pub fn as_mamba_block(&self) -> MambaBlock {
        let (h, d) = (self.hidden(), self.w2.first().map_or(0, Vec::len));
        MambaBlock {
            w1: vec![vec![0.0; d]; h],
            b1: vec![1.0; h],
            w2: self.w2.clone(),
            b2: self.b2.clone(),
            w3: self.w3.clone(),
            ssm: VectorSsm { a: vec![vec![-1.0; h]], w_b: vec![vec![0.0; h]], w_c: vec![vec![1.0; h]], w_delta: vec![vec![0.0; h]; h], skip: vec![1.0; h] },
        }
    }
}

/// Lemma 1's multiplier, eq (30): `g(a, b) = (λ²/2)[σ((a+b)/λ) + σ((−a−b)/λ) − σ((a−b)/λ) −
/// σ((−a+b)/λ)]`, σ = SiLU: a 4-unit SiLU MLP with W_2 = (1/λ)[\[1,1\],\[−1,−1\],\[1,−1\],\[−1,1\]]
/// and W_3 = (λ²/2)\[1, 1, −1, −1\] (a row: the printed ℝ^{4×1} is transposed).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Multiplier {
    /// λ.
    pub lambda: f64,
}

/// e^x for the f32 evaluations: the f64 exponential rounded to f32, so the f32 model depends
/// only on IEEE operations and a correctly rounded f64 `exp` (a platform's `expf` may differ by
/// an ulp), and an independent script can reproduce it bit for bit.
pub fn exp_f32(x: f32) -> f32 {
    (x as f64).exp() as f32
}

/// SiLU in f32, `z/(1 + e^{−z})`.
pub fn silu_f32(z: f32) -> f32 {
    z / (1.0 + exp_f32(-z))
}

impl Multiplier {
    /// The paper's choice λ = 216M³/(2ε) = 108M³/ε.
    pub fn paper(m: f64, eps: f64) -> Self {
        Multiplier { lambda: 108.0 * m.powi(3) / eps }
    }
    /// The least λ the tight bound allows, M²/√(3ε).
    pub fn tight(m: f64, eps: f64) -> Self {
        Multiplier { lambda: m * m / (3.0 * eps).sqrt() }
    }
    /// The gadget as an MLP.
    pub fn mlp(&self) -> Mlp {
        let l = self.lambda;
        Mlp {
            w2: vec![vec![1.0 / l, 1.0 / l], vec![-1.0 / l, -1.0 / l], vec![1.0 / l, -1.0 / l], vec![-1.0 / l, 1.0 / l]],
            b2: vec![0.0; 4],
            w3: vec![vec![l * l / 2.0, l * l / 2.0, -l * l / 2.0, -l * l / 2.0]],
            activation: Activation::Silu,
        }
    }
    /// The four pre-activations (±a ± b)/λ in the order of eq (30).
    fn args(&self, a: f64, b: f64) -> [f64; 4] {
        let (s, t) = ((a + b) / self.lambda, (a - b) / self.lambda);
        [s, -s, t, -t]
    }
    /// Eq (30) as printed, in f64.
    pub fn eval(&self, a: f64, b: f64) -> f64 {
        let [p, q, r, s] = self.args(a, b).map(silu);
        self.lambda * self.lambda / 2.0 * (p + q - r - s)
    }
    /// Eq (30) as printed, every operation in f32.
    pub fn eval_f32(&self, a: f32, b: f32) -> f32 {
        let l = self.lambda as f32;
        let (s, t) = ((a + b) / l, (a - b) / l);
        l * l / 2.0 * (silu_f32(s) + silu_f32(-s) - silu_f32(t) - silu_f32(-t))
    }
    /// The stable form in f32: σ(u) + σ(−u) = u·tanh(u/2), so g = (λ²/2)(s·tanh(s/2) −
    /// t·tanh(t/2)), s = (a+b)/λ, t = (a−b)/λ, with no cancellation between σ(u) and σ(−u)
    /// (tanh as the f64 one rounded to f32, like [`exp_f32`]).
    pub fn stable_f32(&self, a: f32, b: f32) -> f32 {
        let l = self.lambda as f32;
        let (s, t) = ((a + b) / l, (a - b) / l);
        let tanh = |x: f32| (x as f64).tanh() as f32;
        l * l / 2.0 * (s * tanh(s / 2.0) - t * tanh(t / 2.0))
    }
    /// The largest [`Multiplier::rounding`] over [−M, M]²: Σ|σ(x_k)| ≤ Σ|x_k| ≤ 8M/λ, so
    /// 4Mλ(γ₁₀ + 1.1γ₂) + γ₂M².
    pub fn worst_rounding(&self, m: f64, unit: f64) -> f64 {
        let gamma = |n| gamma_in(n, unit);
        4.0 * m * self.lambda * (gamma(10.0) + 1.1 * gamma(2.0)) + gamma(2.0) * m * m
    }
    /// The paper's error bound for |a|, |b| ≤ M: (λ²/2)·216M³/λ³ = 108M³/λ (needs λ > 2M).
    pub fn paper_bound(&self, m: f64) -> f64 {
        108.0 * m.powi(3) / self.lambda
    }
    /// The tight bound M⁴/(3λ²), valid for every λ > 0: g − ab = −(λ²/2)(r(s) − r(t)) with
    /// r(u) = u²/2 − u·tanh(u/2) ∈ \[0, u⁴/24\] and |s|, |t| ≤ 2M/λ.
    pub fn tight_bound(&self, m: f64) -> f64 {
        m.powi(4) / (3.0 * self.lambda * self.lambda)
    }
    /// The rounding of [`Multiplier::eval`] in a precision with unit roundoff `unit`: each
    /// argument carries 2 roundings, so |σ(x̂) − σ(x)| ≤ 1.1·γ₂|x| (|σ′| ≤ 1.1); each σ̂ is
    /// within γ₅ of σ(x̂) (exp, add, divide, multiply; exp within 2 ulps); the 3 additions and
    /// the product with λ²/2 add γ₅ of Σ|σ̂| — in all
    /// `(λ²/2)·(γ₁₀·Σ|σ(x_k)| + 1.1·γ₂·Σ|x_k|)` plus γ₂ of the result.
    pub fn rounding(&self, a: f64, b: f64, unit: f64) -> f64 {
        let gamma = |n| gamma_in(n, unit);
        let x = self.args(a, b);
        let sig: f64 = x.iter().map(|v| silu(*v).abs()).sum();
        let arg: f64 = x.iter().map(|v| v.abs()).sum();
        self.lambda * self.lambda / 2.0 * (gamma(10.0) * sig + 1.1 * gamma(2.0) * arg) + gamma(2.0) * (a * b).abs()
    }
}

/// γ_n = nu/(1 − nu) for a unit roundoff u (f64 or f32): n successive roundings.
fn gamma_in(n: f64, unit: f64) -> f64 {
    n * unit / (1.0 - n * unit)
}

/// SiLU's third derivative as printed in Lemma 1's proof, with `e^{−2}` in the middle term:
/// `[(x−3)e^{−x} − 4x·e^{−2} + (x+3)e^{−3x}] / (1+e^{−x})⁴`.
pub fn silu_third_printed(x: f64) -> f64 {
    ((x - 3.0) * (-x).exp() - 4.0 * x * (-2.0f64).exp() + (x + 3.0) * (-3.0 * x).exp()) / (1.0 + (-x).exp()).powi(4)
}

/// The same formula with `e^{−2x}`.
pub fn silu_third_corrected(x: f64) -> f64 {
    ((x - 3.0) * (-x).exp() - 4.0 * x * (-2.0 * x).exp() + (x + 3.0) * (-3.0 * x).exp()) / (1.0 + (-x).exp()).powi(4)
}

/// [`silu_third_printed`] (`corrected`: [`silu_third_corrected`]) on an enclosure of x, enclosed
/// (e^{−2} enclosed too, not rounded first).
pub fn silu_third_formula_enclosed(x: Interval, corrected: bool) -> Interval {
    let e = |y: Interval| y.exp();
    let middle = if corrected { e(x * -2.0) } else { e(Interval::exact(-2.0)) };
    ((x + -3.0) * e(-x) - x * 4.0 * middle + (x + 3.0) * e(x * -3.0)) / (e(-x) + 1.0).powi(4)
}

/// [`silu_third`] on an enclosure of x, enclosed (s = 1/(1 + e^{−x})).
pub fn silu_third_enclosed(x: Interval) -> Interval {
    let one = Interval::exact(1.0);
    let s = one / ((-x).exp() + 1.0);
    let d = s * (one - s);
    d * (one - s * 2.0) * 3.0 + x * d * (one - s * 6.0 + s * s * 6.0)
}

/// SiLU's third derivative by the Leibniz rule on x·s(x), s the logistic function, from
/// s′ = s(1−s), s″ = s(1−s)(1−2s), s‴ = s(1−s)(1−6s+6s²): σ‴ = 3s″ + x·s‴. Independent of both
/// printed forms.
pub fn silu_third(x: f64) -> f64 {
    let s = sigmoid(x);
    let d = s * (1.0 - s);
    3.0 * d * (1.0 - 2.0 * s) + x * d * (1.0 - 6.0 * s + 6.0 * s * s)
}

/// Lemma 4's select, `g(x, y, t) = x if t > 0, y if t < 0` on x, y ∈ [−M, M]^d and |t| ≥ α,
/// by the suite's explicit 4d-unit ReLU MLP (`proofs/cot.md`): with s = t/α,
/// `g_k = ½[ReLU(x_k + Ms) − ReLU(−x_k + Ms)] + ½[ReLU(y_k − Ms) − ReLU(−y_k − Ms)]`.
/// Input layout `[x; y; t]`.
pub fn select_relu(d: usize, m: f64, alpha: f64) -> Mlp {
    let k = m / alpha;
    let mut w2 = vec![];
    let mut w3 = vec![vec![0.0; 4 * d]; d];
    for i in 0..d {
        let unit = |xi: f64, yi: f64, t: f64| {
            let mut r = vec![0.0; 2 * d + 1];
            r[i] = xi;
            r[d + i] = yi;
            r[2 * d] = t;
            r
        };
        w2.extend([unit(1.0, 0.0, k), unit(-1.0, 0.0, k), unit(0.0, 1.0, -k), unit(0.0, -1.0, -k)]);
        w3[i][4 * i..4 * i + 4].copy_from_slice(&[0.5, -0.5, 0.5, -0.5]);
    }
    Mlp { b2: vec![0.0; 4 * d], w2, w3, activation: Activation::Relu }
}

/// Lemma 3's exact linear map with SiLU: W_2 = [W; −W], W_3 = [I, −I], since
/// SiLU(u) − SiLU(−u) = u·(s(u) + s(−u)) = u.
pub fn linear_silu(w: &[Vec<f64>]) -> Mlp {
    let d2 = w.len();
    let w2 = w.iter().cloned().chain(w.iter().map(|r| r.iter().map(|v| -v).collect())).collect();
    let w3 = (0..d2)
        .map(|i| {
            (0..2 * d2)
                .map(|j| {
                    if j == i {
                        1.0
                    } else if j == i + d2 {
                        -1.0
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect();
    Mlp { w2, b2: vec![0.0; 2 * d2], w3, activation: Activation::Silu }
}

/// Which comparison an indicator computes (Lemma 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Comparison {
    /// 𝕀\[a > b\].
    Greater,
    /// 𝕀\[a < b\].
    Less,
    /// 𝕀[a ≠ b].
    NotEqual,
}

impl Comparison {
    /// Every comparison.
    pub const ALL: [Comparison; 3] = [Comparison::Greater, Comparison::Less, Comparison::NotEqual];
    /// 𝕀(a, b, ∘) exactly.
    pub fn truth(self, a: f64, b: f64) -> f64 {
        let t = match self {
            Comparison::Greater => a > b,
            Comparison::Less => a < b,
            Comparison::NotEqual => a != b,
        };
        if t {
            1.0
        } else {
            0.0
        }
    }
}

/// Lemma 5's indicators: `𝕀[a > b] = select(1, 0, a − b − shift)` with |t| ≥ α, 𝕀\[a < b\]
/// likewise, and `𝕀[a ≠ b] = 1 − (1 − 𝕀[a>b])(1 − 𝕀[a<b])` as two blocks (8 select units, then
/// Lemma 1's multiplier). The paper's version has shift 0 (false at a = b, `003.lem5.printed`);
/// on integers, shift ½ and α = ½ make it exact up to the gadgets' errors (`003.lem5`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Indicator {
    /// The threshold shift (0 as printed, ½ for integers).
    pub shift: f64,
    /// α of the select gadget.
    pub alpha: f64,
    /// λ of the select gadget's SiLU block (Lemma 2).
    pub lambda: f64,
    /// λ of the multiplier (inputs within [−M_m, M_m], M_m = 1 + the select error).
    pub multiplier: Multiplier,
}

impl Indicator {
    /// The select block on input `[1; 0; t]`.
    fn select(&self) -> Mlp {
        select_relu(1, 1.0, self.alpha).silu_scaled(self.lambda)
    }
    /// 𝕀̂\[a > b\] and 𝕀̂\[a < b\] (block 1's selects).
    fn one_sided(&self, a: f64, b: f64, p: Precision) -> (f64, f64) {
        let s = self.select();
        let gt = s.forward_in(&[1.0, 0.0, p.round(a - b - self.shift)], p)[0];
        let lt = s.forward_in(&[1.0, 0.0, p.round(b - a - self.shift)], p)[0];
        (gt, lt)
    }
    /// 𝕀̂(a, b, ∘).
    pub fn eval(&self, a: f64, b: f64, op: Comparison, p: Precision) -> f64 {
        let (gt, lt) = self.one_sided(a, b, p);
        match op {
            Comparison::Greater => gt,
            Comparison::Less => lt,
            Comparison::NotEqual => {
                let prod = self.multiplier.mlp().forward_in(&[p.round(1.0 - gt), p.round(1.0 - lt)], p)[0];
                p.round(1.0 - prod)
            }
        }
    }
    /// The error bound: e = W₀(1/e)/λ for > and < (Lemma 2 on the select block, whose rows have
    /// Σ⁺ = Σ⁻ = 1), and ε_m + 2e + e² for ≠ with ε_m = M_m⁴/(3λ_m²), M_m = 1 + e.
    pub fn bound(&self, op: Comparison) -> f64 {
        let e = select_relu(1, 1.0, self.alpha).silu_gap(self.lambda);
        match op {
            Comparison::Greater | Comparison::Less => e,
            Comparison::NotEqual => self.multiplier.tight_bound(1.0 + e) + 2.0 * e + e * e,
        }
    }
    /// Flops of one evaluation of `op`.
    pub fn flops(&self, op: Comparison) -> u64 {
        let one = self.select().flops();
        match op {
            Comparison::NotEqual => 2 * one + self.multiplier.mlp().flops(),
            _ => one,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_multiplier_meets_its_tight_bound_and_the_mlp_is_eq_30() {
        let g = Multiplier { lambda: 10.0 };
        let err = (g.eval(1.0, 1.0) - 1.0).abs();
        assert!(err <= g.tight_bound(1.0) && err >= 0.99 * g.tight_bound(1.0), "{err} vs {}", g.tight_bound(1.0));
        assert!((g.mlp().forward(&[0.3, -0.7])[0] - g.eval(0.3, -0.7)).abs() < 1e-12);
    }

    #[test]
    fn third_derivative_forms() {
        for x in [-1.0, -0.3, 0.0, 0.5, 1.0] {
            assert!((silu_third_corrected(x) - silu_third(x)).abs() < 1e-14, "x = {x}");
        }
        assert!((silu_third_printed(0.5) - silu_third(0.5)).abs() > 0.05);
    }

    #[test]
    fn select_is_exact_with_relu_and_halves_at_zero() {
        let s = select_relu(2, 3.0, 0.5);
        assert_eq!(s.forward(&[1.5, -2.0, 0.25, 3.0, 0.7]), vec![1.5, -2.0]);
        assert_eq!(s.forward(&[1.5, -2.0, 0.25, 3.0, -0.5]), vec![0.25, 3.0]);
        assert_eq!(s.forward(&[1.0, 0.0, 0.0, 0.0, 0.0]), vec![0.5, 0.0]);
    }

    #[test]
    fn the_degenerate_block_is_the_mlp() {
        let m = select_relu(1, 1.0, 0.5).silu_scaled(8.0);
        let x = vec![0.7, -0.2, 0.9];
        let block = m.as_mamba_block().forward(&[x.clone(), x.clone()]);
        for y in block {
            assert!((y[0] - m.forward(&x)[0]).abs() < 1e-15);
        }
    }

    #[test]
    fn precision_rounds_to_the_significand() {
        let p = Precision { bits: Some(4) };
        assert_eq!(p.round(17.0), 18.0);
        assert_eq!(p.round(1.05), 1.0);
        assert_eq!(Precision::F64.round(0.1), 0.1);
    }
}
