//! Mamba-2's state-space duality (SSD; Dao & Gu 2024, "Transformers are SSMs", §§3–6): one head
//! with a scalar decay per step, in its three forms.
//!
//! - **Recurrence**: `H_t = e^{a_t} H_{t−1} + B_t x_tᵀ` (H is N × P), `y_t = H_tᵀ C_t`, with
//!   `a_t = Δ_t·A ≤ 0` the log-decay ([`Ssd::scan`], through [`diagonal_scan`]).
//! - **Matrix**: `y = M x` with the 1-semiseparable `M[t][s] = (C_t · B_s)·e^{a_{s+1} + … + a_t}`
//!   for s ≤ t, 0 above the diagonal ([`Ssd::matrix`]): masked attention with a decay mask.
//! - **Chunked** ([`Ssd::chunked`], the algorithm of state-spaces/mamba's `ssd_minimal`): the
//!   matrix form inside chunks of Q steps, each chunk's final state, a scan over chunks, and the
//!   states' contribution to the next chunk's outputs. Any T (the last chunk may be short).
//!
//! Written over [`Real`], so the three forms run on enclosures, where they must hold the same
//! exact value. Multi-head SSD is one [`Ssd`] per head.

use super::scan::diagonal_scan;
use crate::math::Real;

/// One SSD head: inputs `x` (T × P), log-decays `a_t ≤ 0` (T), `B` and `C` (T × N).
#[derive(Clone, Debug, PartialEq)]
pub struct Ssd<R> {
    /// Inputs x_t (row t − 1), P channels each.
    pub x: Vec<Vec<R>>,
    /// Log-decays a_t = Δ_t·A (the decay is e^{a_t}).
    pub log_decay: Vec<R>,
    /// Input projections B_t (N each).
    pub b: Vec<Vec<R>>,
    /// Output projections C_t (N each).
    pub c: Vec<Vec<R>>,
}

impl<R: Real> Ssd<R> {
    /// A head; panics unless `x`, `log_decay`, `b`, `c` have one row per step, `b` and `c` rows
    /// of one length N and `x` rows of one length P.
    pub fn new(x: Vec<Vec<R>>, log_decay: Vec<R>, b: Vec<Vec<R>>, c: Vec<Vec<R>>) -> Ssd<R> {
        let t = x.len();
        assert!(log_decay.len() == t && b.len() == t && c.len() == t, "Ssd: x, log_decay, B and C need one row per step ({t})");
        let n = b.first().map_or(0, Vec::len);
        assert!(b.iter().chain(&c).all(|r| r.len() == n), "Ssd: every B_t and C_t has the state size N = {n}");
        let p = x.first().map_or(0, Vec::len);
        assert!(x.iter().all(|r| r.len() == p), "Ssd: every x_t has P = {p} channels");
        Ssd { x, log_decay, b, c }
    }
    /// The number of steps T.
    pub fn len(&self) -> usize {
        self.x.len()
    }
    /// Whether there are no steps.
    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }
    fn state_size(&self) -> usize {
        self.b.first().map_or(0, Vec::len)
    }
    fn channels(&self) -> usize {
        self.x.first().map_or(0, Vec::len)
    }
    /// `e^{a_{s+1} + … + a_t}` (1 at s = t): the decay from step s to step t (0-based, s ≤ t).
    fn decay(&self, s: usize, t: usize) -> R {
        (s + 1..=t).fold(R::zero(), |acc, k| acc + self.log_decay[k]).exp()
    }
    fn dot(u: &[R], v: &[R]) -> R {
        u.iter().zip(v).fold(R::zero(), |s, (&a, &b)| s + a * b)
    }

    /// The outputs y_1..y_T (T × P) by the recurrence on the N × P state.
    pub fn scan(&self) -> Vec<Vec<R>> {
        let (n, p) = (self.state_size(), self.channels());
        let decays: Vec<Vec<R>> = self.log_decay.iter().map(|&a| vec![a.exp(); n * p]).collect();
        let inputs: Vec<Vec<R>> = self.b.iter().zip(&self.x).map(|(b, x)| b.iter().flat_map(|&bi| x.iter().map(move |&xj| bi * xj)).collect()).collect();
        diagonal_scan(&vec![R::zero(); n * p], &decays, &inputs)
            .iter()
            .zip(&self.c)
            .map(|(h, c)| (0..p).map(|j| (0..n).fold(R::zero(), |s, i| s + h[i * p + j] * c[i])).collect())
            .collect()
    }

    /// The T × T semiseparable matrix M (lower triangular, row t − 1 for output t).
    pub fn matrix(&self) -> Vec<Vec<R>> {
        let t_len = self.len();
        (0..t_len).map(|t| (0..t_len).map(|s| if s <= t { Ssd::dot(&self.c[t], &self.b[s]) * self.decay(s, t) } else { R::zero() }).collect()).collect()
    }

    /// The outputs as `M x`.
    pub fn by_matrix(&self) -> Vec<Vec<R>> {
        let p = self.channels();
        self.matrix().iter().map(|row| (0..p).map(|j| row.iter().zip(&self.x).fold(R::zero(), |s, (&m, x)| s + m * x[j])).collect()).collect()
    }

    /// The outputs by the chunked algorithm with chunks of `chunk` steps (≥ 1).
    pub fn chunked(&self, chunk: usize) -> Vec<Vec<R>> {
        assert!(chunk >= 1, "Ssd::chunked: a chunk has at least one step");
        let (t_len, n, p) = (self.len(), self.state_size(), self.channels());
        let mut y = vec![vec![R::zero(); p]; t_len];
        // The state at the end of the previous chunk (N × P, row-major).
        let mut carried = vec![R::zero(); n * p];
        for start in (0..t_len).step_by(chunk) {
            let end = (start + chunk).min(t_len);
            for (t, yt) in y.iter_mut().enumerate().take(end).skip(start) {
                // 1. Inside the chunk: the diagonal block of M times x.
                for s in start..=t {
                    let m = Ssd::dot(&self.c[t], &self.b[s]) * self.decay(s, t);
                    yt.iter_mut().zip(&self.x[s]).for_each(|(y, &xs)| *y += m * xs);
                }
                // 4. The carried state's contribution, decayed from the chunk's start to t.
                let into = self.decay(start, t) * self.log_decay[start].exp();
                for (j, yt) in yt.iter_mut().enumerate() {
                    *yt += into * (0..n).fold(R::zero(), |s, i| s + self.c[t][i] * carried[i * p + j]);
                }
            }
            // 2. The chunk's own final state, and 3. the scan over chunks.
            let whole = self.decay(start, end - 1) * self.log_decay[start].exp();
            for i in 0..n {
                for j in 0..p {
                    let own = (start..end).fold(R::zero(), |acc, s| acc + self.decay(s, end - 1) * self.b[s][i] * self.x[s][j]);
                    carried[i * p + j] = whole * carried[i * p + j] + own;
                }
            }
        }
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Interval;

    /// A fixed head with T = 11, N = 3, P = 2 (decays e^{a} between 0.5 and 1).
    fn head() -> Ssd<f64> {
        let f = |k: usize| ((k * 2_654_435_761) % 1000) as f64 / 1000.0;
        let t_len = 11;
        Ssd::new(
            (0..t_len).map(|t| vec![f(3 * t) - 0.5, f(3 * t + 1) * 2.0 - 1.0]).collect(),
            (0..t_len).map(|t| -0.7 * f(7 * t + 2)).collect(),
            (0..t_len).map(|t| (0..3).map(|i| f(11 * t + i) - 0.5).collect()).collect(),
            (0..t_len).map(|t| (0..3).map(|i| f(13 * t + i + 5) - 0.5).collect()).collect(),
        )
    }

    fn enclosed(h: &Ssd<f64>) -> Ssd<Interval> {
        let iv = |m: &Vec<Vec<f64>>| m.iter().map(|r| r.iter().map(|&x| Interval::exact(x)).collect()).collect();
        Ssd::new(iv(&h.x), h.log_decay.iter().map(|&a| Interval::exact(a)).collect(), iv(&h.b), iv(&h.c))
    }

    /// The three forms on enclosures: each output's enclosures from the scan, the matrix and the
    /// chunked algorithm at every chunk size meet (they hold one exact value) and are narrow; in
    /// f64 they agree to the rounding of sums of T·N products of size ≤ 1 (γ_{2TN}·T·N).
    #[test]
    fn the_scan_the_semiseparable_matrix_and_the_chunked_algorithm_agree() {
        let h = head();
        let hi = enclosed(&h);
        let scan = hi.scan();
        let tol = 2.0 * (11 * 3) as f64 * f64::EPSILON * (11 * 3) as f64;
        for form in std::iter::once(hi.by_matrix()).chain((1..=12).map(|q| hi.chunked(q))) {
            for (a, b) in scan.iter().flatten().zip(form.iter().flatten()) {
                assert!(a.intersect(*b).is_some() && b.width() < 1e-13, "{a} vs {b}");
            }
        }
        for q in [1, 3, 4, 11] {
            for (a, b) in h.scan().iter().flatten().zip(h.chunked(q).iter().flatten()) {
                assert!((a - b).abs() <= tol, "Q = {q}: {a} vs {b}");
            }
        }
        // M is lower triangular with M[t][t] = C_t·B_t.
        let m = h.matrix();
        assert!(m[2][5] == 0.0 && (m[4][4] - Ssd::dot(&h.c[4], &h.b[4])).abs() < 1e-16);
    }

    /// SSD is Mamba's selective scan with one decay shared by the channels and the modes: with
    /// A_{c,n} = A, Δ_{t,c} = Δ_t, the suite's [`selective_scan`](crate::model::selective_scan)
    /// of u equals the head with a_t = Δ_t·A and x_t = Δ_t·u_t (sums of T·N terms of size ≤ 1:
    /// tolerance T·N·10⁻¹⁵).
    #[test]
    fn ssd_is_the_selective_scan_with_a_shared_decay() {
        use crate::model::{selective_scan, ScanInputs};
        let h = head();
        let (t_len, n, p) = (11, 3, 2);
        let a = -1.3;
        let deltas: Vec<f64> = h.log_decay.iter().map(|&l| l / a).collect();
        let u: Vec<f64> = h.x.iter().zip(&deltas).flat_map(|(x, &d)| x.iter().map(move |&v| v / d)).collect();
        let ssd = Ssd::new(
            u.chunks(p).zip(&deltas).map(|(r, &d)| r.iter().map(|&v| v * d).collect()).collect(),
            deltas.iter().map(|&d| d * a).collect(),
            h.b.clone(),
            h.c.clone(),
        );
        let delta: Vec<f64> = deltas.iter().flat_map(|&d| [d, d]).collect();
        let (b, c): (Vec<f64>, Vec<f64>) = (h.b.concat(), h.c.concat());
        let inp = ScanInputs { d: p, n, len: t_len, delta: &delta, delta_softplus: false, a: &vec![a; n * p], b: &b, c: &c, u: &u };
        let mut y = vec![0.0; t_len * p];
        selective_scan(&inp, &mut y).unwrap();
        for (got, want) in ssd.scan().iter().flatten().zip(&y) {
            assert!((got - want).abs() < (t_len * n) as f64 * 1e-15, "{got} vs {want}");
        }
    }

    /// Control: the comparison sees what a chunked algorithm that drops the decay into a chunk
    /// (e^{a_start} taken as 1) would compute: the outputs of the head with that one decay set
    /// to 1, set against the true scan, differ by far more than the rounding.
    #[test]
    fn a_chunk_boundary_without_its_decay_is_caught() {
        let h = head();
        let mut wrong = h.clone();
        wrong.log_decay[4] = 0.0;
        let (good, bad) = (h.chunked(4), wrong.chunked(4));
        let scan = h.scan();
        assert!(scan.iter().flatten().zip(good.iter().flatten()).all(|(a, b)| (a - b).abs() < 1e-12));
        assert!(scan.iter().flatten().zip(bad.iter().flatten()).any(|(a, b)| (a - b).abs() > 1e-3));
    }
}
