//! The Ljung–Box portmanteau test of whiteness (Ljung & Box, Biometrika 65, 1978).

use statrs::distribution::{ChiSquared, ContinuousCDF};

/// The Ljung–Box statistic of a series and its asymptotic p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LjungBox {
    /// `Q(h) = T(T + 2) Σ_{k=1}^{h} r_k² / (T − k)`.
    pub q: f64,
    /// `P(χ²_h ≥ Q)`: the p-value under the null of a white series.
    pub p_value: f64,
}

/// Ljung–Box `Q(h)` over lags `1..=lags` of a series whose mean is known to be zero (an
/// optimal predictor's innovations), with the autocorrelations taken about zero,
/// `r_k = Σ_t e_t e_{t+k} / Σ_t e_t²`. For an iid Gaussian series this uncentred `r_k` has mean
/// 0 and variance exactly `(T − k)/(T(T + 2))` (Moran 1948), so `E Q = h` exactly and only the
/// χ²_h tail is asymptotic.
///
/// Panics unless `0 < lags < e.len()`.
pub fn ljung_box(e: &[f64], lags: usize) -> LjungBox {
    let t = e.len();
    assert!(lags > 0 && lags < t, "ljung_box needs 0 < lags < series length");
    let energy: f64 = e.iter().map(|v| v * v).sum();
    let q = (1..=lags)
        .map(|k| {
            let r = e.iter().zip(&e[k..]).map(|(a, b)| a * b).sum::<f64>() / energy;
            r * r / (t - k) as f64
        })
        .sum::<f64>()
        * (t * (t + 2)) as f64;
    let p_value = ChiSquared::new(lags as f64).map_or(f64::NAN, |chi| chi.sf(q));
    LjungBox { q, p_value }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_alternating_series_is_maximally_correlated() {
        // e_t = (−1)^t, T = 10, h = 1: r_1 = −9/10, Q = 10·12·0.81/9 = 10.8.
        let e: Vec<f64> = (0..10).map(|t| if t % 2 == 0 { 1.0 } else { -1.0 }).collect();
        let lb = ljung_box(&e, 1);
        assert!((lb.q - 10.8).abs() < 1e-12);
        assert!(lb.p_value < 0.002);
    }

    #[test]
    fn a_lone_spike_has_no_autocorrelation() {
        let mut e = vec![0.0; 50];
        e[7] = 3.0;
        let lb = ljung_box(&e, 5);
        assert_eq!(lb.q, 0.0);
        assert_eq!(lb.p_value, 1.0);
    }
}
