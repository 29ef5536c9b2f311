//! The two-sample Kolmogorov–Smirnov test (asymptotic p-value with Stephens' small-sample
//! correction).

/// `(D, p)`: the KS statistic `sup |F_a − F_b|` and its asymptotic p-value.
pub fn ks_two_sample(a: &[f64], b: &[f64]) -> (f64, f64) {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let (mut i, mut j, mut d) = (0, 0, 0.0f64);
    while i < a.len() && j < b.len() {
        let x = a[i].min(b[j]);
        while i < a.len() && a[i] <= x {
            i += 1;
        }
        while j < b.len() && b[j] <= x {
            j += 1;
        }
        d = d.max((i as f64 / na - j as f64 / nb).abs());
    }
    let ne = (na * nb / (na + nb)).sqrt();
    (d, kolmogorov_survival((ne + 0.12 + 0.11 / ne) * d))
}

/// `P(K > λ) = 2 Σ_{k≥1} (−1)^{k−1} e^{−2k²λ²}` for the Kolmogorov distribution.
pub fn kolmogorov_survival(lambda: f64) -> f64 {
    if lambda < 0.2 {
        return 1.0;
    }
    let s: f64 = (1..=100)
        .map(|k| {
            let kf = k as f64;
            (if k % 2 == 1 { 2.0 } else { -2.0 }) * (-2.0 * kf * kf * lambda * lambda).exp()
        })
        .sum();
    s.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kolmogorov_reference_values() {
        // Reference: the Kolmogorov distribution's 5% and 1% critical values 1.3581 and 1.6276.
        assert!((kolmogorov_survival(1.3581) - 0.05).abs() < 1e-4);
        assert!((kolmogorov_survival(1.6276) - 0.01).abs() < 1e-4);
    }

    #[test]
    fn the_series_alternates_and_small_samples_use_stephens_correction() {
        // P(K > 0.5) = 0.9639452 and P(K > 0.8) = 0.5441424 need the alternating terms
        // (computed independently in Python from the same series).
        assert!((kolmogorov_survival(0.5) - 0.963_945_243_7).abs() < 1e-9);
        assert!((kolmogorov_survival(0.8) - 0.544_142_411_6).abs() < 1e-9);
        assert_eq!(kolmogorov_survival(0.1), 1.0);
        // a = {1, 2, 3}, b = {2.5, 4, 5, 6}: D = 3/4, n_e = √(12/7), p = Q((n_e + 0.12 + 0.11/n_e)·D).
        let (d, p) = ks_two_sample(&[3.0, 1.0, 2.0], &[6.0, 2.5, 5.0, 4.0]);
        assert!((d - 0.75).abs() < 1e-15 && (p - 0.152_026_339_8).abs() < 1e-9, "D = {d}, p = {p}");
    }

    #[test]
    fn same_law_accepts_shifted_law_rejects() {
        let a: Vec<f64> = (0..2000).map(|i| (i as f64 + 0.5) / 2000.0).collect();
        let b: Vec<f64> = (0..1500).map(|i| (i as f64 + 0.25) / 1500.0).collect();
        assert!(ks_two_sample(&a, &b).1 > 0.5);
        let c: Vec<f64> = b.iter().map(|x| x + 0.1).collect();
        let (d, p) = ks_two_sample(&a, &c);
        assert!((d - 0.1).abs() < 0.01 && p < 1e-6);
    }
}
