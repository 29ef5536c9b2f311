//! The simplified Mamba of 002 in its theory setting (Sec. 4, App. D; proofs/recall.md):
//! one-hot "doubling" embedding and pair-concatenating convolution, so `x̂_i = [e_{x_{i−1}}; e_{x_i}]`
//! (x_{−1} = 0-vector); `Δ_i = W_Δ x̂_i` (no softplus), no forgetting (Λ = 0), N = 1, B = C = 1,
//! so `h_T = Σ_{i=0}^{T} diag(x̂_i) W_Δ x̂_i`; logits `z = h_T[n:] − h_T[:n]` (output `[−I I]`), loss
//! cross-entropy at position T with target x_1.
//!
//! Everything is in terms of the co-occurrence matrix `S = Σ_i x̂_i x̂_iᵀ` (2n × 2n): `h_T[a] =
//! Σ_b W[a,b] S[a,b]` and the per-sample gradient is `∂ℓ/∂W[a,b] = r_a S[a,b]` with
//! `r = [−u; u]`, `u = softmax(z) − e_{x_1}` (002 §1.10(a)). S is kept sparse: the counts of
//! previous tokens, of current tokens, and the bigrams.

use crate::math::Real;

/// The pre-activations a_t, the steps Δ_t and the states h_t of a forward pass.
type Trajectory = (Vec<Vec<f64>>, Vec<Vec<f64>>, Vec<Vec<f64>>);

/// The co-occurrence counts of one sequence x_0..x_T over n tokens.
#[derive(Clone, Debug, PartialEq)]
pub struct Cooccurrence {
    /// n.
    pub n: usize,
    /// `#{i ≥ 1 : x_{i−1} = a}` (the diagonal of S's first block).
    pub prev: Vec<f64>,
    /// `#{i ≥ 0 : x_i = k}` (the diagonal of the last block).
    pub cur: Vec<f64>,
    /// The bigrams `(x_{i−1}, x_i)`, i ≥ 1 (the off-diagonal blocks).
    pub bigrams: Vec<(usize, usize)>,
}

impl Cooccurrence {
    /// The counts of `x`.
    pub fn of(x: &[usize], n: usize) -> Self {
        let mut prev = vec![0.0; n];
        let mut cur = vec![0.0; n];
        for (i, &v) in x.iter().enumerate() {
            cur[v] += 1.0;
            if i >= 1 {
                prev[x[i - 1]] += 1.0;
            }
        }
        Cooccurrence { n, prev, cur, bigrams: x.windows(2).map(|w| (w[0], w[1])).collect() }
    }

    /// `S[a, b]` (dense access, for tests and enumeration).
    pub fn entry(&self, a: usize, b: usize) -> f64 {
        let n = self.n;
        match (a < n, b < n) {
            (true, true) => {
                if a == b {
                    self.prev[a]
                } else {
                    0.0
                }
            }
            (true, false) => self.bigrams.iter().filter(|&&(p, c)| p == a && c == b - n).count() as f64,
            (false, true) => self.bigrams.iter().filter(|&&(p, c)| p == b && c == a - n).count() as f64,
            (false, false) => {
                if a == b {
                    self.cur[a - n]
                } else {
                    0.0
                }
            }
        }
    }

    /// The logits `z_k = h_T[n+k] − h_T[k]` for a weight matrix given entry-wise.
    pub fn logits(&self, w: impl Fn(usize, usize) -> f64) -> Vec<f64> {
        let n = self.n;
        let mut h = vec![0.0; 2 * n];
        for a in 0..n {
            h[a] += w(a, a) * self.prev[a];
            h[n + a] += w(n + a, n + a) * self.cur[a];
        }
        for &(p, c) in &self.bigrams {
            h[p] += w(p, n + c);
            h[n + c] += w(n + c, p);
        }
        (0..n).map(|k| h[n + k] - h[k]).collect()
    }

    /// The per-sample gradient at W = 0 (uniform softmax) for target y, added into a dense
    /// 2n × 2n row-major accumulator with weight `weight`.
    pub fn add_gradient_at_zero(&self, y: usize, weight: f64, acc: &mut [f64]) {
        let n = self.n;
        let u = |k: usize| 1.0 / n as f64 - if k == y { 1.0 } else { 0.0 };
        let r = |a: usize| if a < n { -u(a) } else { u(a - n) };
        let two = 2 * n;
        for a in 0..n {
            acc[a * two + a] += weight * r(a) * self.prev[a];
            acc[(n + a) * two + n + a] += weight * r(n + a) * self.cur[a];
        }
        for &(p, c) in &self.bigrams {
            acc[p * two + n + c] += weight * r(p);
            acc[(n + c) * two + p] += weight * r(n + c);
        }
    }
}

/// The exact population gradient `E[∂ℓ/∂W_Δ[a,b]]` at W_Δ = 0 under 002's theory distribution
/// (n ≥ 3, T ≥ 2), in closed form (proofs/recall.md; rows = output coordinates, columns = input
/// features). With `leading_order`, the T-dependent corrections τ, ρ are dropped (the negative
/// control of `002.lem1.exact`).
pub fn population_gradient(n: usize, t: usize, a: usize, b: usize, leading_order: bool) -> f64 {
    population_gradient_in(n, t, a, b, leading_order)
}

/// [`population_gradient`] in any [`Real`]: on [`Interval`](crate::math::Interval)s, an
/// enclosure of the exact rational (the f64 version is this with `R = f64`, the same operations).
pub fn population_gradient_in<R: Real>(n: usize, t: usize, a: usize, b: usize, leading_order: bool) -> R {
    let one = R::cst(1.0);
    let nf = R::cst(n as f64);
    let m1 = nf - one;
    let (tau, rho) = if leading_order || t == 2 {
        (R::zero(), R::zero())
    } else {
        ((R::cst(t as f64) - R::cst(2.0)) / (nf * m1 * m1), (R::cst(t as f64) - nf - R::cst(2.0)) / (nf * m1 * m1 * m1))
    };
    let value = |i: usize| (1..n).contains(&i);
    match (a, b) {
        (0, 0) => -(one / nf),
        (0, b) if b > n && value(b - n) => -(one / (nf * m1)),
        (a, b) if a == n && b == n => R::cst(2.0) / nf,
        (a, b) if a == n && value(b) => one / (nf * m1),
        (a, b) if value(a) && b == a => one / nf + tau,
        (a, b) if value(a) && b == n => {
            if t == 2 {
                one / nf
            } else {
                one / (nf * m1 * m1)
            }
        }
        (a, b) if value(a) && b > n && value(b - n) => {
            if t == 2 {
                R::zero()
            } else {
                one / (m1 * m1) + rho
            }
        }
        (a, 0) if a > n && value(a - n) => -(one / nf),
        (a, b) if a > n && value(a - n) && b == a => -(one / nf) - tau,
        (a, b) if a > n && value(a - n) && value(b) => {
            if t == 2 {
                R::zero()
            } else {
                -(if b == a - n { one / (m1 * m1) } else { R::zero() }) - rho
            }
        }
        _ => R::zero(),
    }
}

/// Lemma 1 as printed (002 eq 5): one value per row i of `∂L/∂W_Δ[i, j]`, with |V| = n.
pub fn printed_lemma1(n: usize, t: usize, i: usize) -> f64 {
    printed_lemma1_in(n, t, i)
}

/// [`printed_lemma1`] in any [`Real`] (enclosures on intervals).
pub fn printed_lemma1_in<R: Real>(n: usize, t: usize, i: usize) -> R {
    let (one, nf, tf) = (R::cst(1.0), R::cst(n as f64), R::cst(t as f64));
    if i == 0 {
        -(one / tf)
    } else if i == n {
        R::cst(2.0) / tf
    } else if i < n {
        tf / (nf * nf) - one / nf
    } else {
        -(tf / (nf * nf)) + one / nf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_logits_match_the_dense_definition() {
        let x = [0, 2, 1, 2, 0];
        let s = Cooccurrence::of(&x, 3);
        let w = |a: usize, b: usize| (a * 7 + b * 3) as f64 * 0.1 - 1.0;
        // h_T[a] = Σ_i Δ_i[a] x̂_i[a] with x̂_i = [e_{x_{i−1}}; e_{x_i}].
        let mut h = [0.0; 6];
        for i in 0..x.len() {
            let mut xh = [0.0; 6];
            if i >= 1 {
                xh[x[i - 1]] = 1.0;
            }
            xh[3 + x[i]] = 1.0;
            for a in 0..6 {
                let delta: f64 = (0..6).map(|b| w(a, b) * xh[b]).sum();
                h[a] += delta * xh[a];
            }
        }
        let z = s.logits(w);
        for k in 0..3 {
            assert!((z[k] - (h[3 + k] - h[k])).abs() < 1e-12);
        }
        assert_eq!(s.entry(0, 3 + 2), 1.0);
        assert_eq!(s.entry(3 + 2, 0), 1.0);
        assert_eq!(s.entry(3 + 2, 3 + 2), 2.0);
    }
}

/// 002's simplified Mamba as trained in Sec. 3 (|K| = 1): the same embedding, convolution and
/// output `[−I I]`, N = 1, B = C = 1, with `Δ_t = softplus(W x̂_t + b)` and forgetting
/// `Λ = −exp(A_log)` (Mamba's parametrisation), all three learned (002 §1.9).
#[derive(Clone, Debug, PartialEq)]
pub struct SimplifiedMamba {
    /// Vocabulary size n (d = 2n).
    pub n: usize,
    /// W_Δ, 2n × 2n row-major.
    pub w: Vec<f64>,
    /// b_Δ.
    pub b: Vec<f64>,
    /// A_log (Λ = −exp(A_log)).
    pub a_log: Vec<f64>,
}

/// Gradients of [`SimplifiedMamba`]'s parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradients {
    /// ∂L/∂W_Δ.
    pub w: Vec<f64>,
    /// ∂L/∂b_Δ.
    pub b: Vec<f64>,
    /// ∂L/∂A_log.
    pub a_log: Vec<f64>,
}

impl SimplifiedMamba {
    /// W = 0, b = 0, A_log = 0 (Λ = −1).
    pub fn zeros(n: usize) -> Self {
        SimplifiedMamba { n, w: vec![0.0; 4 * n * n], b: vec![0.0; 2 * n], a_log: vec![0.0; 2 * n] }
    }

    /// `a_t = W x̂_t + b` (x̂_t = [e_{x_{t−1}}; e_{x_t}]).
    fn preactivation(&self, x: &[usize], t: usize) -> Vec<f64> {
        let (n, d) = (self.n, 2 * self.n);
        (0..d).map(|i| self.b[i] + self.w[i * d + n + x[t]] + if t >= 1 { self.w[i * d + x[t - 1]] } else { 0.0 }).collect()
    }

    /// The pre-activations a_t, Δ_t and states h_1..h_T (with h_0 = 0 first).
    fn run(&self, x: &[usize]) -> Trajectory {
        let (n, d) = (self.n, 2 * self.n);
        let mut hs = vec![vec![0.0; d]];
        let (mut pre, mut deltas) = (vec![], vec![]);
        for t in 0..x.len() {
            let a = self.preactivation(x, t);
            let delta: Vec<f64> = a.iter().map(|&z| crate::math::softplus::softplus(z)).collect();
            let mut h: Vec<f64> = (0..d).map(|i| (-self.a_log[i].exp() * delta[i]).exp() * hs[t][i]).collect();
            if t >= 1 {
                h[x[t - 1]] += delta[x[t - 1]];
            }
            h[n + x[t]] += delta[n + x[t]];
            hs.push(h);
            pre.push(a);
            deltas.push(delta);
        }
        (pre, deltas, hs)
    }

    /// Δ_t for every t, and the logits z_t = h_t\[n:\] − h_t\[:n\].
    pub fn forward(&self, x: &[usize]) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
        let n = self.n;
        let (_, deltas, hs) = self.run(x);
        (deltas, hs[1..].iter().map(|h| (0..n).map(|k| h[n + k] - h[k]).collect()).collect())
    }

    /// Mean cross-entropy over the positions with a target, and its exact gradient (BPTT,
    /// 002 §1.10(b) with N = 1, B = C = 1).
    pub fn loss_and_gradients(&self, x: &[usize], targets: &[Option<usize>]) -> (f64, Gradients) {
        let (n, d, len) = (self.n, 2 * self.n, x.len());
        let scored = targets.iter().filter(|t| t.is_some()).count().max(1) as f64;
        let (pre, deltas, hs) = self.run(x);
        let lambda: Vec<f64> = self.a_log.iter().map(|a| -a.exp()).collect();
        let mut loss = 0.0;
        let mut g = Gradients { w: vec![0.0; d * d], b: vec![0.0; d], a_log: vec![0.0; d] };
        let mut gh = vec![0.0; d];
        let mut g_lambda = vec![0.0; d];
        for t in (0..len).rev() {
            let h = &hs[t + 1];
            if let Some(y) = targets[t] {
                let z: Vec<f64> = (0..n).map(|k| h[n + k] - h[k]).collect();
                let lse = crate::math::logsumexp(&z);
                loss += (lse - z[y]) / scored;
                for k in 0..n {
                    let gz = ((z[k] - lse).exp() - f64::from(k == y)) / scored;
                    gh[k] -= gz;
                    gh[n + k] += gz;
                }
            }
            let (delta, a) = (&deltas[t], &pre[t]);
            let mut ga = vec![0.0; d];
            for i in 0..d {
                let abar = (lambda[i] * delta[i]).exp();
                let g_abar = gh[i] * hs[t][i];
                let x_hat = f64::from(i == n + x[t] || (t >= 1 && i == x[t - 1]));
                let g_delta = g_abar * abar * lambda[i] + gh[i] * x_hat;
                g_lambda[i] += g_abar * abar * delta[i];
                ga[i] = g_delta * crate::math::softplus::sigmoid(a[i]);
                gh[i] *= abar;
            }
            for (i, &gai) in ga.iter().enumerate() {
                g.b[i] += gai;
                g.w[i * d + n + x[t]] += gai;
                if t >= 1 {
                    g.w[i * d + x[t - 1]] += gai;
                }
            }
        }
        for i in 0..d {
            g.a_log[i] = g_lambda[i] * lambda[i];
        }
        (loss, g)
    }
}

#[cfg(test)]
mod training_tests {
    use super::*;

    /// BPTT against central finite differences (proofs/recall.md (C5)).
    #[test]
    fn gradients_match_finite_differences() {
        let n = 3;
        let mut m = SimplifiedMamba::zeros(n);
        for (i, w) in m.w.iter_mut().enumerate() {
            *w = ((i * 37 % 11) as f64 - 5.0) * 0.13;
        }
        for (i, b) in m.b.iter_mut().enumerate() {
            *b = (i as f64 - 2.5) * 0.2;
        }
        for (i, a) in m.a_log.iter_mut().enumerate() {
            *a = (i as f64 - 3.0) * 0.3;
        }
        let x = [0, 2, 1, 0, 2, 2, 1, 0];
        let targets = [None, None, None, Some(2), None, Some(1), None, Some(2)];
        let (_, g) = m.loss_and_gradients(&x, &targets);
        let loss = |m: &SimplifiedMamba| m.loss_and_gradients(&x, &targets).0;
        let eps = 1e-6;
        let check = |analytic: f64, plus: SimplifiedMamba, minus: SimplifiedMamba| {
            let fd = (loss(&plus) - loss(&minus)) / (2.0 * eps);
            assert!((fd - analytic).abs() <= 1e-6 * (1.0 + fd.abs()), "fd {fd} vs {analytic}");
        };
        for i in 0..m.w.len() {
            let (mut p, mut q) = (m.clone(), m.clone());
            p.w[i] += eps;
            q.w[i] -= eps;
            check(g.w[i], p, q);
        }
        for i in 0..2 * n {
            let (mut p, mut q) = (m.clone(), m.clone());
            p.b[i] += eps;
            q.b[i] -= eps;
            check(g.b[i], p, q);
            let (mut p, mut q) = (m.clone(), m.clone());
            p.a_log[i] += eps;
            q.a_log[i] -= eps;
            check(g.a_log[i], p, q);
        }
    }
}

#[cfg(test)]
mod share_tests {
    use super::population_gradient;

    /// The squared-Frobenius shares behind 002.lem1.printed's correction (proofs/recall.md (C8/C9)):
    /// rows {0, n} carry almost nothing, columns {0, n} about 1/3, the diagonal about 2/3.
    #[test]
    fn the_first_step_does_not_mostly_update_rows_0_and_n() {
        let (n, t) = (1024, 32);
        let d = 2 * n;
        let (mut total, mut rows, mut cols, mut diag) = (0.0, 0.0, 0.0, 0.0);
        for a in 0..d {
            for b in 0..d {
                let g = population_gradient(n, t, a, b, false);
                let g2 = g * g;
                total += g2;
                if a == 0 || a == n {
                    rows += g2;
                }
                if b == 0 || b == n {
                    cols += g2;
                }
                if a == b && a != 0 && a != n {
                    diag += g2;
                }
            }
        }
        assert!(rows / total < 0.01, "row share {}", rows / total);
        assert!((cols / total - 1.0 / 3.0).abs() < 0.02, "column share {}", cols / total);
        assert!((diag / total - 2.0 / 3.0).abs() < 0.02, "diagonal share {}", diag / total);
    }
}
