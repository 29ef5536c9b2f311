//! The Mamba chain-of-thought machine of 003 Theorem 3 (App. A.3), with the repairs its proof
//! needs (`proofs/cot.md`): it reads the tokens of a two-string dynamic program
//! ([`crate::model::dp`]) and generates every DP cell and the answer, using only the gadgets of
//! Lemmas 1–5 ([`crate::model::gadgets`], SiLU blocks) and exact COPY (Theorem 2's SSM, A = 0,
//! Δ = 1), with an integer rounding after each block.
//!
//! Per token x_t = [e^input, e^state = (i, j), e^dp, e^sep (2), t]:
//! 1. **Keys**: the one-hot e_t of the position from SiLU hats
//!    `(1/λ)[SiLU(λ(t−k+1)) − 2SiLU(λ(t−k)) + SiLU(λ(t−k−1))]`, k = 1…T (3T units; repair ii).
//! 2. **Separator COPY, content-keyed** (repair i): H_sep += e^sep·t, a 2-entry state.
//! 3. **Positional COPY**: H += e_t·[e^input, e^dp]ᵀ, a T × 2 state (Theorem 2 with b = e_t).
//! 4. From the second separator on, the next token: n from the separators (Lemma 3); the next
//!    cell (i′, j′) and whether the current cell is the last (Lemmas 4, 5, 1); the positions of
//!    s⁽¹⁾_{i′}, s⁽²⁾_{j′} and of the cells above, left and diagonal, fixed by the layout
//!    (repair iii), with γ = 0 for a missing cell; COPY reads with c = e_p; the transition by
//!    Lemma 2 blocks for max/min and Lemma 4 select; the boundary values by select.
//!
//! Every block's output is rounded to the nearest integer (repair iv): the gadgets' errors stay
//! below ¼ for λ ≥ ln(32T) + 4 ([`CotMachine::lambda_for`]).

use super::gadgets::{select_relu, Comparison, Indicator, Mlp, Multiplier, Precision};
use super::mixer::Activation;
use crate::math::softplus::silu;
use crate::model::dp::{cot_len, CotToken, DpProblem};
use serde::{Deserialize, Serialize};

/// The machine for one DP problem and one maximum length T (the model is fixed for T: gap v of
/// the proof, so its state is O(T) at every step).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CotMachine {
    /// The DP it solves.
    pub problem: DpProblem,
    /// T: the longest chain of thought it serves (input, cells, answer).
    pub max_len: usize,
    /// λ of the SiLU blocks (selects, Lemma 2 blocks, indicators).
    pub lambda: f64,
    /// λ of the positional hats (the same as `lambda` in the construction).
    pub hat_lambda: f64,
    /// The numbers it computes with.
    pub precision: Precision,
}

/// What a run produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transcript {
    /// The generated tokens (cells and answer), after the second separator.
    pub generated: Vec<CotToken>,
    /// The state entries the machine carries (separator state + positional COPY state).
    pub state_size: usize,
    /// Multiply–adds and activations of each generation step.
    pub step_flops: Vec<u64>,
}

/// One token's embedding.
#[derive(Clone, Copy, Debug, Default)]
struct Embedding {
    input: f64,
    state: (f64, f64),
    dp: f64,
    sep: [f64; 2],
    t: f64,
}

/// The positional one-hot e_t ∈ ℝ^T of a scalar t: Lemma 2's SiLU block for the ReLU hats
/// `ReLU(t−k+1) − 2ReLU(t−k) + ReLU(t−k−1)`, k = 1…T (3T units), evaluated unit by unit (its
/// W_3 is block-diagonal, so a step costs O(T), not the dense O(T²)). At integer t the entries
/// are within 2e^{−λ} of the one-hot (≤ δ(z−1) + 2δ(z) + δ(z+1) at offset z, δ(u) = |u|/(e^{λ|u|}+1)).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hats {
    /// T.
    pub len: usize,
    /// λ.
    pub lambda: f64,
}

impl Hats {
    /// The ReLU MLP the hats approximate (dense; for tests and small T).
    pub fn relu_mlp(&self) -> Mlp {
        let t_len = self.len;
        let w2: Vec<Vec<f64>> = (1..=t_len).flat_map(|k| [-1.0, 0.0, 1.0].map(|o| vec![1.0, -(k as f64) - o])).collect();
        let w3 = (0..t_len).map(|k| (0..3 * t_len).map(|u| if u / 3 == k { [1.0, -2.0, 1.0][u % 3] } else { 0.0 }).collect()).collect();
        Mlp { b2: vec![0.0; 3 * t_len], w2, w3, activation: Activation::Relu }
    }
    /// e_t, every operation rounded to `p`.
    pub fn eval(&self, t: f64, p: Precision) -> Vec<f64> {
        let l = self.lambda;
        let unit = |z: f64| p.round(p.round(silu(p.round(l * z))) / l);
        (1..=self.len)
            .map(|k| {
                let z = p.round(t - k as f64);
                let (u0, u1, u2) = (unit(p.round(z + 1.0)), unit(z), unit(p.round(z - 1.0)));
                p.round(p.round(u0 - p.round(2.0 * u1)) + u2)
            })
            .collect()
    }
    /// Multiply–adds and activations of one evaluation: per unit a subtraction, a scaling, the
    /// activation and the division; then 3 terms per entry.
    pub fn flops(&self) -> u64 {
        (3 * 4 + 3) * self.len as u64
    }
}

/// The ReLU MLPs of the transitions, as inputs → hidden → output (before Lemma 2's scaling).
fn relu(w2: Vec<Vec<f64>>, w3: Vec<f64>) -> Mlp {
    Mlp { b2: vec![0.0; w2.len()], w2, w3: vec![w3], activation: Activation::Relu }
}

impl CotMachine {
    /// The λ that keeps every gadget's error below ¼ up to length T. A hat entry at integer
    /// offset z errs by at most δ(z−1) + 2δ(z) + δ(z+1), δ(u) = |u|/(e^{λ|u|} + 1), so a read of
    /// values ≤ 2T + 2 errs by at most (2T + 2)·8Σ_{u≥1} u e^{−λu} ≈ 16T·e^{−λ}; the other
    /// gadgets by at most 2W₀(1/e)/λ. λ = ln(32T) + 4 = ln(32e⁴T) covers both.
    pub fn lambda_for(max_len: usize) -> f64 {
        (32.0 * max_len as f64).ln() + 4.0
    }

    /// The machine for strings of lengths n₁, n₂ at the λ of [`CotMachine::lambda_for`], in f64.
    pub fn new(problem: DpProblem, n1: usize, n2: usize) -> Self {
        let max_len = cot_len(n1, n2);
        let lambda = Self::lambda_for(max_len);
        CotMachine { problem, max_len, lambda, hat_lambda: lambda, precision: Precision::F64 }
    }

    /// State entries: 2 for the separators, 2T for the positional COPY (input and DP channels).
    pub fn state_size(&self) -> usize {
        2 + 2 * self.max_len
    }

    /// Runs the machine on the strings a, b (symbols ≥ 1) and returns what it generated.
    pub fn run(&self, a: &[usize], b: &[usize]) -> Transcript {
        let p = self.precision;
        let (t_len, lambda) = (self.max_len, self.lambda);
        let big = 2.0 * t_len as f64 + 2.0;
        // Gadgets, built once: hats (3 ReLU units per position, Lemma 2 scaled), select on values
        // (M = 2T + 2) and on flags (M = 1), both with α = ½ and t = flag − ½.
        let hats = Hats { len: t_len, lambda: self.hat_lambda };
        let select_value = select_relu(1, big, 0.5).silu_scaled(lambda);
        let select_flag = select_relu(1, 1.0, 0.5).silu_scaled(lambda);
        let indicator = Indicator { shift: 0.5, alpha: 0.5, lambda, multiplier: Multiplier::tight(1.0 + 1.0 / lambda, 1.0 / 16.0) };
        let product = Multiplier::tight(1.0 + 1.0 / lambda, 1.0 / 16.0).mlp();
        let max = relu(vec![vec![1.0, -1.0], vec![0.0, 1.0], vec![0.0, -1.0]], vec![1.0, 1.0, -1.0]).silu_scaled(lambda);
        let min_plus_one = relu(vec![vec![1.0, -1.0, 0.0], vec![1.0, 0.0, 1.0], vec![-1.0, 0.0, -1.0]], vec![-1.0, 1.0, -1.0]).silu_scaled(lambda);
        let min_with = relu(vec![vec![1.0, -1.0, -1.0], vec![1.0, 0.0, 0.0], vec![-1.0, 0.0, 0.0]], vec![-1.0, 1.0, -1.0]).silu_scaled(lambda);
        let int = |x: f64| p.round(x.round());
        let sel = |x: f64, y: f64, flag: f64| int(select_value.forward_in(&[x, y, p.round(flag - 0.5)], p)[0]);
        let above = |x: f64, threshold: f64| int(select_flag.forward_in(&[1.0, 0.0, p.round(x - threshold)], p)[0]);

        let mut tokens: Vec<Embedding> = vec![];
        let mut t = 0usize;
        for (k, s) in [a, b].iter().enumerate() {
            for &sym in s.iter() {
                tokens.push(Embedding { input: sym as f64, ..Default::default() });
            }
            let mut sep = [0.0; 2];
            sep[k] = 1.0;
            tokens.push(Embedding { sep, ..Default::default() });
        }
        let mut h_sep = [0.0f64; 2];
        let mut h = vec![[0.0f64; 2]; t_len];
        let mut generated = vec![];
        let mut step_flops = vec![];
        let hat_flops = hats.flops();
        let read = |h: &[[f64; 2]], pos: f64| -> [f64; 2] {
            let c = hats.eval(pos, p);
            let mut y = [0.0; 2];
            for (cn, hn) in c.iter().zip(h) {
                for k in 0..2 {
                    y[k] = p.round(y[k] + p.round(cn * hn[k]));
                }
            }
            y
        };
        while t < tokens.len() && t < t_len {
            let mut x = tokens[t];
            x.t = (t + 1) as f64;
            // 1–3: keys and the two COPY states.
            let key = hats.eval(x.t, p);
            for (hk, sk) in h_sep.iter_mut().zip(x.sep) {
                *hk = p.round(*hk + p.round(sk * x.t));
            }
            for (hn, kn) in h.iter_mut().zip(&key) {
                hn[0] = p.round(hn[0] + p.round(kn * x.input));
                hn[1] = p.round(hn[1] + p.round(kn * x.dp));
            }
            let mut flops = hat_flops + 4 + 4 * t_len as u64;
            t += 1;
            if t < a.len() + b.len() + 2 {
                continue;
            }
            // 4: n (Lemma 3: exact linear maps; here the identity differences of the separators).
            let (t1, t2) = (int(h_sep[0]), int(h_sep[1]));
            let (n1, n2) = (int(t1 - 1.0), int(t2 - t1 - 1.0));
            // The current cell; the second separator stands for (1, 0).
            let (i, j) = (int(x.state.0 + x.sep[1]), x.state.1);
            let wrap = above(j, n2 - 0.5);
            let i_next = int(i + wrap);
            let j_next = sel(1.0, j + 1.0, wrap);
            let last = {
                let (ri, rj) = (above(i, n1 - 0.5), above(j, n2 - 0.5));
                int(product.forward_in(&[ri, rj], p)[0])
            };
            flops += 5 * select_flag.flops() + select_value.flops() + product.flops();
            if last > 0.5 {
                generated.push(CotToken::Answer { value: x.dp as i64 });
                step_flops.push(flops);
                break;
            }
            // Positions (layout: the next cell sits at t + 1), γ = 0 where a cell is missing.
            let has_up = above(i_next, 1.5);
            let has_left = above(j_next, 1.5);
            let pos_up = sel(x.t + 1.0 - n2, 0.0, has_up);
            let pos_left = sel(x.t, 0.0, has_left);
            let pos_diag = sel(sel(x.t - n2, 0.0, has_left), 0.0, has_up);
            let sym_a = int(read(&h, i_next)[0]);
            let sym_b = int(read(&h, t1 + j_next)[0]);
            let w = self.problem.boundary_weight() as f64;
            let up = sel(int(read(&h, pos_up)[1]), w * (i_next - 1.0 + j_next), has_up);
            let left = sel(int(read(&h, pos_left)[1]), w * (i_next + j_next - 1.0), has_left);
            let diag_b = w * (i_next + j_next - 2.0);
            let diag = sel(sel(int(read(&h, pos_diag)[1]), diag_b, has_left), diag_b, has_up);
            let differ = int(indicator.eval(sym_a, sym_b, Comparison::NotEqual, p));
            let value = match self.problem {
                DpProblem::Lcs => {
                    let m = int(max.forward_in(&[up, left], p)[0]);
                    sel(diag + 1.0, m, 1.0 - differ)
                }
                DpProblem::EditDistance => {
                    let m1 = int(min_plus_one.forward_in(&[up, left, 1.0], p)[0]);
                    int(min_with.forward_in(&[m1, diag, differ], p)[0])
                }
                // max(diag + 1 − 2·differ, max(up, left) − 1): the same max unit twice, its inputs
                // affine in the cells (Lemma 3).
                DpProblem::Alignment => {
                    let m = int(max.forward_in(&[up, left], p)[0]);
                    int(max.forward_in(&[diag + 1.0 - 2.0 * differ, m - 1.0], p)[0])
                }
            };
            flops += 5 * (hat_flops + 4 * t_len as u64) + 7 * select_value.flops() + 2 * select_flag.flops() + indicator.flops(Comparison::NotEqual);
            flops += max.flops() + min_plus_one.flops() + min_with.flops();
            step_flops.push(flops);
            generated.push(CotToken::Cell { i: i_next.max(0.0) as usize, j: j_next.max(0.0) as usize, value: value as i64 });
            tokens.push(Embedding { state: (i_next, j_next), dp: value, ..Default::default() });
        }
        Transcript { generated, state_size: self.state_size(), step_flops }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kitten_sitting_is_solved_exactly() {
        let enc = |s: &str| s.bytes().map(|c| (c - b'a' + 1) as usize).collect::<Vec<_>>();
        let (a, b) = (enc("kitten"), enc("sitting"));
        for problem in DpProblem::ALL {
            let run = CotMachine::new(problem, a.len(), b.len()).run(&a, &b);
            let want = problem.chain_of_thought(&a, &b);
            assert_eq!(run.generated, want[a.len() + b.len() + 2..].to_vec(), "{problem:?}");
        }
    }

    #[test]
    fn the_hats_are_lemma_2s_block_of_the_relu_hats() {
        let hats = Hats { len: 6, lambda: 9.0 };
        let dense = hats.relu_mlp().silu_scaled(9.0);
        for t in [0.0, 1.0, 3.0, 6.0, 2.5] {
            let (a, b) = (hats.eval(t, Precision::F64), dense.forward(&[t, 1.0]));
            assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-12), "t = {t}: {a:?} vs {b:?}");
        }
        let e3 = hats.eval(3.0, Precision::F64);
        assert!(e3.iter().enumerate().all(|(k, v)| (v - if k == 2 { 1.0 } else { 0.0 }).abs() < 2.0 * (-9.0f64).exp()), "{e3:?}");
    }
}
