//! Numerical building blocks shared by the models and the checks: a scalar trait with
//! forward-mode dual numbers (exact derivatives), softplus, dense linear algebra helpers
//! (matrix exponential, logarithmic norm, spectral quantities) and 1-D quadrature.
//!
//! Nothing here knows about claims; it is a library a reader can use on its own.

#[cfg(target_arch = "x86_64")]
pub mod avx2;
pub mod complex;
pub mod dilog;
pub mod dual;
pub mod eigen;
pub mod exact;
pub mod field;
pub mod haar;
pub mod interval;
pub mod isa;
pub mod large_deviation;
pub mod linalg;
pub mod nu_enclosure;
pub mod quadrature;
pub mod real;
pub mod softplus;
pub mod subexp;
pub mod taylor;
pub mod vecmath;

pub use complex::{Complex, ComplexInterval};
pub use dual::{central_difference, derivative, Dual};
pub use field::Field;
pub use interval::Interval;
pub use real::Real;

/// `e^x`, the same value as `x.exp()` (its result rounds to +0 below x ≈ −745.13, so x < −746
/// returns +0 without the call): libm's underflow path, which sets `errno`, costs about a
/// hundred normal calls, and sums of decays e^{−λt} over long sequences take it often.
pub fn exp_or_zero(x: f64) -> f64 {
    if x < -746.0 {
        0.0
    } else {
        x.exp()
    }
}

/// `log(exp(a) + exp(b))` without overflow.
pub fn logaddexp(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let m = a.max(b);
    m + ((a - m).exp() + (b - m).exp()).ln()
}

/// `log Σ exp(v_i)` without overflow; `-inf` for an empty slice.
pub fn logsumexp(v: &[f64]) -> f64 {
    let m = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if m == f64::NEG_INFINITY || m.is_infinite() {
        return m;
    }
    m + v.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

/// The maximiser of a unimodal `f` on [lo, hi] by `iters` steps of golden-section search: the
/// midpoint of the final bracket (it shrinks by 0.618 per step).
pub fn golden_section_max(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64, iters: usize) -> f64 {
    let phi = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..iters {
        let (m1, m2) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
        if f(m1) > f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_or_zero_is_exp() {
        for x in [-1e300, -800.0, -746.0, -745.5, -745.13, -745.0, -744.4, -700.0, -1.0, 0.0, 1.0, 709.0, f64::NEG_INFINITY] {
            assert_eq!(exp_or_zero(x).to_bits(), x.exp().to_bits(), "{x}");
        }
        assert!(exp_or_zero(f64::NAN).is_nan());
    }

    #[test]
    fn logsumexp_matches_direct_sum_and_survives_underflow() {
        let v = [0.1, -2.0, 1.5];
        let direct = v.iter().map(|x: &f64| x.exp()).sum::<f64>().ln();
        assert!((logsumexp(&v) - direct).abs() < 1e-14);
        // exp(-1e6) underflows to 0 in f64; the log-space sum must not.
        let w = [-1e6, -1e6 + 2f64.ln()];
        assert!((logsumexp(&w) - (-1e6 + 3f64.ln())).abs() < 1e-9);
        assert!((logaddexp(-1e6, -1e6) - (-1e6 + 2f64.ln())).abs() < 1e-9);
    }
}
