//! The simplified Mamba of 002 in its theory setting (Sec. 4, App. D; catalogue 002 §1.8):
//! one-hot "doubling" embedding and pair-concatenating convolution, so `x̂_i = [e_{x_{i−1}}; e_{x_i}]`
//! (x_{−1} = 0-vector); `Δ_i = W_Δ x̂_i` (no softplus), no forgetting (Λ = 0), N = 1, B = C = 1,
//! so `h_T = Σ_{i=0}^{T} diag(x̂_i) W_Δ x̂_i`; logits `z = h_T[n:] − h_T[:n]` (output `[−I I]`), loss
//! cross-entropy at position T with target x_1.
//!
//! Everything is in terms of the co-occurrence matrix `S = Σ_i x̂_i x̂_iᵀ` (2n × 2n): `h_T[a] =
//! Σ_b W[a,b] S[a,b]` and the per-sample gradient is `∂ℓ/∂W[a,b] = r_a S[a,b]` with
//! `r = [−u; u]`, `u = softmax(z) − e_{x_1}` (002 §1.10(a)). S is kept sparse: the counts of
//! previous tokens, of current tokens, and the bigrams.

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
            (true, true) => if a == b { self.prev[a] } else { 0.0 },
            (true, false) => self.bigrams.iter().filter(|&&(p, c)| p == a && c == b - n).count() as f64,
            (false, true) => self.bigrams.iter().filter(|&&(p, c)| p == b && c == a - n).count() as f64,
            (false, false) => if a == b { self.cur[a - n] } else { 0.0 },
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
/// (n ≥ 3, T ≥ 2), in closed form (catalogue 002 §3.2; rows = output coordinates, columns = input
/// features). With `leading_order`, the T-dependent corrections τ, ρ are dropped (the negative
/// control of `002.lem1.exact`).
pub fn population_gradient(n: usize, t: usize, a: usize, b: usize, leading_order: bool) -> f64 {
    let nf = n as f64;
    let m1 = nf - 1.0;
    let (tau, rho) = if leading_order || t == 2 {
        (0.0, 0.0)
    } else {
        ((t as f64 - 2.0) / (nf * m1 * m1), (t as f64 - nf - 2.0) / (nf * m1 * m1 * m1))
    };
    let value = |i: usize| (1..n).contains(&i);
    match (a, b) {
        (0, 0) => -1.0 / nf,
        (0, b) if b > n && value(b - n) => -1.0 / (nf * m1),
        (a, b) if a == n && b == n => 2.0 / nf,
        (a, b) if a == n && value(b) => 1.0 / (nf * m1),
        (a, b) if value(a) && b == a => 1.0 / nf + tau,
        (a, b) if value(a) && b == n => if t == 2 { 1.0 / nf } else { 1.0 / (nf * m1 * m1) },
        (a, b) if value(a) && b > n && value(b - n) => if t == 2 { 0.0 } else { 1.0 / (m1 * m1) + rho },
        (a, 0) if a > n && value(a - n) => -1.0 / nf,
        (a, b) if a > n && value(a - n) && b == a => -1.0 / nf - tau,
        (a, b) if a > n && value(a - n) && value(b) => {
            if t == 2 {
                0.0
            } else {
                -(if b == a - n { 1.0 / (m1 * m1) } else { 0.0 }) - rho
            }
        }
        _ => 0.0,
    }
}

/// Lemma 1 as printed (002 eq 5): one value per row i of `∂L/∂W_Δ[i, j]`, with |V| = n.
pub fn printed_lemma1(n: usize, t: usize, i: usize) -> f64 {
    let (nf, tf) = (n as f64, t as f64);
    if i == 0 {
        -1.0 / tf
    } else if i == n {
        2.0 / tf
    } else if i < n {
        tf / (nf * nf) - 1.0 / nf
    } else {
        -tf / (nf * nf) + 1.0 / nf
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
