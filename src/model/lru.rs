//! The Linear Recurrent Unit (Orvieto et al. 2023, "Resurrecting Recurrent Neural Networks for
//! Long Sequences", §3): a complex diagonal recurrence with an exponential parameterisation and
//! a normalisation of its input,
//!
//! `λ_j = exp(−exp(ν_j) + i·exp(θ_j))`, `h_t = λ ⊙ h_{t−1} + γ ⊙ (B x_t)`,
//! `y_t = Re(C h_t) + D ⊙ x_t`,
//!
//! with `γ_j = exp(γlog_j)`, initialised at `√(1 − |λ_j|²)` so that a white input of unit
//! variance gives every mode a stationary variance |B_j x|² (Σ_k |λ|^{2k}(1 − |λ|²) = 1). The
//! initialisation draws λ uniformly on the ring r_min ≤ |λ| ≤ r_max, phases in [0, max_phase]
//! ([`Lru::ring`]). Written over [`Real`]: its outputs run on enclosures and their derivatives
//! in ν, θ, γlog on dual numbers ([`derivative`](crate::math::derivative)).

use super::scan::diagonal_scan;
use crate::math::{Complex, Real};

/// An LRU layer: N complex modes, H input and output channels.
#[derive(Clone, Debug, PartialEq)]
pub struct Lru<R> {
    /// ν_j: the modulus |λ_j| = exp(−exp(ν_j)).
    pub nu_log: Vec<R>,
    /// θ_j: the phase arg λ_j = exp(θ_j).
    pub theta_log: Vec<R>,
    /// γlog_j: the input normalisation γ_j = exp(γlog_j).
    pub gamma_log: Vec<R>,
    /// B (N × H, complex).
    pub b: Vec<Vec<Complex<R>>>,
    /// C (H × N, complex).
    pub c: Vec<Vec<Complex<R>>>,
    /// D (H, the skip).
    pub d: Vec<R>,
}

impl<R: Real> Lru<R> {
    /// The layer with γ normalised: `γlog_j = ln √(1 − |λ_j|²)` (LRU's initialisation).
    pub fn normalised(nu_log: Vec<R>, theta_log: Vec<R>, b: Vec<Vec<Complex<R>>>, c: Vec<Vec<Complex<R>>>, d: Vec<R>) -> Lru<R> {
        let n = nu_log.len();
        assert!(theta_log.len() == n && b.len() == n && c.iter().all(|r| r.len() == n), "Lru: ν, θ, the rows of B and the columns of C number the modes ({n})");
        let h = d.len();
        assert!(b.iter().all(|r| r.len() == h) && c.len() == h, "Lru: B has H = {h} columns and C H rows");
        let gamma_log = nu_log.iter().map(|&nu| ((-(-nu.exp() * 2.0).exp() + 1.0).sqrt()).ln()).collect();
        Lru { nu_log, theta_log, gamma_log, b, c, d }
    }
    /// A single-input single-output layer with γ normalised: B and C all ones, D = 0 (each
    /// mode's own recurrence, summed into one output).
    pub fn siso(nu_log: Vec<R>, theta_log: Vec<R>) -> Lru<R> {
        let n = nu_log.len();
        Lru::normalised(nu_log, theta_log, vec![vec![Complex::one()]; n], vec![vec![Complex::one(); n]], vec![R::zero()])
    }
    /// The eigenvalues λ_j.
    pub fn lambda(&self) -> Vec<Complex<R>> {
        self.nu_log.iter().zip(&self.theta_log).map(|(&nu, &th)| Complex::new(-nu.exp(), th.exp()).exp()).collect()
    }
    /// The states h_1..h_T (N complex each) for inputs `x` (T × H).
    pub fn states(&self, x: &[Vec<R>]) -> Vec<Vec<Complex<R>>> {
        let lambda = self.lambda();
        let gamma: Vec<R> = self.gamma_log.iter().map(|g| g.exp()).collect();
        let inputs: Vec<Vec<Complex<R>>> = x
            .iter()
            .map(|xt| self.b.iter().zip(&gamma).map(|(row, &g)| row.iter().zip(xt).fold(Complex::zero(), |s, (&bij, &xj)| s + bij * xj) * g).collect())
            .collect();
        diagonal_scan(&vec![Complex::zero(); lambda.len()], &vec![lambda; x.len()], &inputs)
    }
    /// The outputs y_1..y_T (H each).
    pub fn outputs(&self, x: &[Vec<R>]) -> Vec<Vec<R>> {
        self.states(x)
            .iter()
            .zip(x)
            .map(|(h, xt)| {
                self.c
                    .iter()
                    .zip(&self.d)
                    .zip(xt)
                    .map(|((row, &dj), &xj)| row.iter().zip(h).fold(Complex::zero(), |s, (&c, &hn)| s + c * hn).re + dj * xj)
                    .collect()
            })
            .collect()
    }
}

impl Lru<f64> {
    /// LRU's initialisation of (ν, θ) from uniforms `u1`, `u2` in [0, 1): `|λ|² = r_min² +
    /// u1·(r_max² − r_min²)` (uniform on the ring's area), `ν = ln(−½ ln|λ|²)`, `θ = ln(max_phase·u2)`.
    pub fn ring(u1: &[f64], u2: &[f64], r_min: f64, r_max: f64, max_phase: f64) -> (Vec<f64>, Vec<f64>) {
        assert!(0.0 < r_min && r_min <= r_max && r_max < 1.0 && max_phase > 0.0, "Lru::ring needs 0 < r_min ≤ r_max < 1 and max_phase > 0");
        let nu = u1.iter().map(|&u| (-0.5 * (u * (r_max * r_max - r_min * r_min) + r_min * r_min).ln()).ln()).collect();
        let theta = u2.iter().map(|&u| (max_phase * u).ln()).collect();
        (nu, theta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{central_difference, derivative, Dual, Interval};

    fn layer() -> Lru<f64> {
        let (nu, theta) = Lru::ring(&[0.1, 0.5, 0.9], &[0.2, 0.6, 0.95], 0.4, 0.99, std::f64::consts::PI / 5.0);
        let b = vec![
            vec![Complex::new(0.3, -0.2), Complex::new(1.0, 0.5)],
            vec![Complex::new(-0.7, 0.1), Complex::new(0.2, 0.2)],
            vec![Complex::new(0.5, 0.5), Complex::new(-0.4, 0.0)],
        ];
        let c = vec![
            vec![Complex::new(1.0, 0.0), Complex::new(0.0, 1.0), Complex::new(0.5, -0.5)],
            vec![Complex::new(-0.3, 0.2), Complex::new(0.8, 0.1), Complex::new(0.0, -1.0)],
        ];
        Lru::normalised(nu, theta, b, c, vec![0.25, -0.5])
    }

    fn inputs(t: usize) -> Vec<Vec<f64>> {
        (0..t).map(|k| vec![((k * 7) % 5) as f64 - 2.0, ((k * 3) % 4) as f64 * 0.5 - 0.75]).collect()
    }

    /// The ring: |λ| ∈ [r_min, r_max], arg λ ≤ max_phase; the normalisation: γ² = 1 − |λ|², so
    /// the impulse response's energy Σ_t |γλ^t|² tends to 1 (to 10⁻¹² after 3000 steps at |λ| ≤
    /// 0.99: the tail is |λ|^{6000} < 10⁻²⁶).
    #[test]
    fn the_ring_initialisation_and_the_normalisation_hold() {
        let l = layer();
        for (z, g) in l.lambda().iter().zip(&l.gamma_log) {
            assert!((0.4 - 1e-15..=0.99 + 1e-15).contains(&z.abs()) && z.im.atan2(z.re) <= std::f64::consts::PI / 5.0 + 1e-15);
            let energy: f64 = (0..3000).map(|t| (z.powi(t) * g.exp()).norm_sqr()).sum();
            assert!((energy - 1.0).abs() < 1e-12, "energy {energy}");
        }
    }

    /// The scan against the convolution it unrolls, `h_t = Σ_{s≤t} λ^{t−s} γ B x_s` (powers by
    /// repeated squaring, an independent computation), and on enclosures.
    #[test]
    fn the_states_equal_the_convolution_and_the_enclosure_holds_them() {
        let l = layer();
        let x = inputs(12);
        let h = l.states(&x);
        let lambda = l.lambda();
        for (t, ht) in h.iter().enumerate() {
            for j in 0..3 {
                let g = l.gamma_log[j].exp();
                let want = (0..=t).fold(Complex::zero(), |s, k| {
                    s + lambda[j].powi((t - k) as u32) * l.b[j].iter().zip(&x[k]).fold(Complex::zero(), |a, (&b, &xv)| a + b * xv) * g
                });
                assert!((ht[j] - want).abs() < 1e-13, "t={t} j={j}");
            }
        }
        let iv = |v: &Vec<f64>| v.iter().map(|&a| Interval::exact(a)).collect::<Vec<_>>();
        let ivc =
            |m: &Vec<Vec<Complex<f64>>>| m.iter().map(|r| r.iter().map(|z| Complex::new(Interval::exact(z.re), Interval::exact(z.im))).collect()).collect();
        let li = Lru { nu_log: iv(&l.nu_log), theta_log: iv(&l.theta_log), gamma_log: iv(&l.gamma_log), b: ivc(&l.b), c: ivc(&l.c), d: iv(&l.d) };
        let xi: Vec<Vec<Interval>> = x.iter().map(iv).collect();
        for (yi, yf) in li.outputs(&xi).iter().flatten().zip(l.outputs(&x).iter().flatten()) {
            assert!(yi.width() < 1e-12 && (yi.mid() - yf).abs() < 1e-12, "{yi} vs {yf}");
        }
    }

    /// ∂y_T/∂ν_j, ∂y_T/∂θ_j by dual numbers against central differences (relative accuracy
    /// ~10⁻⁸ for a step 10⁻⁶: the tolerance is 10⁻⁶ relative); the control, ∂/∂ν_j set against
    /// the difference in θ_j, fails the same comparison.
    #[test]
    fn derivatives_in_the_parameters_match_finite_differences() {
        let l = layer();
        let x = inputs(10);
        let y_last = |params: &[Dual<f64>]| -> Vec<Dual<f64>> {
            let lift = |v: &Vec<f64>| v.iter().map(|&a| Dual::constant(a)).collect::<Vec<_>>();
            let liftc = |m: &Vec<Vec<Complex<f64>>>| m.iter().map(|r| r.iter().map(|z| Complex::cst(z.re, z.im)).collect()).collect();
            let ld = Lru {
                nu_log: params[..3].to_vec(),
                theta_log: params[3..].to_vec(),
                gamma_log: lift(&l.gamma_log),
                b: liftc(&l.b),
                c: liftc(&l.c),
                d: lift(&l.d),
            };
            let xd: Vec<Vec<Dual<f64>>> = x.iter().map(lift).collect();
            ld.outputs(&xd).pop().unwrap()
        };
        let p: Vec<f64> = l.nu_log.iter().chain(&l.theta_log).copied().collect();
        for i in 0..6 {
            let exact = derivative(&p, i, y_last);
            let fd = central_difference(&p, i, |q| y_last(&q.iter().map(|&v| Dual::constant(v)).collect::<Vec<_>>()).iter().map(|d| d.v).collect());
            for (e, f) in exact.iter().zip(&fd) {
                assert!((e - f).abs() <= 1e-6 * (1.0 + e.abs()), "parameter {i}: {e} vs {f}");
            }
        }
        let (exact, swapped) = (
            derivative(&p, 0, y_last),
            central_difference(&p, 3, |q| y_last(&q.iter().map(|&v| Dual::constant(v)).collect::<Vec<_>>()).iter().map(|d| d.v).collect()),
        );
        assert!(exact.iter().zip(&swapped).any(|(e, f)| (e - f).abs() > 1e-6 * (1.0 + e.abs())), "the control is caught");
    }
}
