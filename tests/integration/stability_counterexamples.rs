//! The stability family's errata, recomputed independently from the JSON: trapezoid
//! quadrature instead of the suite's adaptive Simpson in log space, a separate random generator
//! (SplitMix64 + Box–Muller) instead of Philox, exact binomial tail sums instead of Beta
//! quantiles.

use crate::common::assert_counterexamples_recompute;
use serde_json::Value;

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// E g(X), X ~ N(0,1), by the trapezoid rule on [−40, 40] with 800 001 nodes.
fn normal_mean(g: impl Fn(f64) -> f64) -> f64 {
    let n = 800_000;
    let h = 80.0 / n as f64;
    let pdf = |x: f64| (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
    (0..=n)
        .map(|i| {
            let x = -40.0 + i as f64 * h;
            let w = if i == 0 || i == n { 0.5 } else { 1.0 };
            w * g(x) * pdf(x)
        })
        .sum::<f64>()
        * h
}

/// ln P(Bin(n, p) ≥ k) by summing the terms in log space (`lf[m] = ln m!`).
fn log_binomial_upper(lf: &[f64], n: u64, k: u64, p: f64) -> f64 {
    let (n_, ln_n) = (n as usize, lf[n as usize]);
    let terms: Vec<f64> = (k as usize..=n_).map(|i| ln_n - lf[i] - lf[n_ - i] + i as f64 * p.ln() + (n_ - i) as f64 * (1.0 - p).ln()).collect();
    let m = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    m + terms.iter().map(|t| (t - m).exp()).sum::<f64>().ln()
}

/// The exact one-sided lower confidence bound: the p with P(Bin(n, p) ≥ k) = a.
fn exact_lower(n: u64, k: u64, a: f64) -> f64 {
    let lf: Vec<f64> = std::iter::once(0.0)
        .chain((1..=n).scan(0.0, |acc, i| {
            *acc += (i as f64).ln();
            Some(*acc)
        }))
        .collect();
    let (mut lo, mut hi) = (0.0f64, k as f64 / n as f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if log_binomial_upper(&lf, n, k, mid) < a.ln() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64 + 0.5 / (1u64 << 53) as f64
    }
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.next(), self.next());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

fn label_number(label: &str, key: &str) -> f64 {
    let start = label.find(&format!("{key}=")).unwrap() + key.len() + 1;
    label[start..].split(',').next().unwrap().trim().parse().unwrap()
}

fn lem1_printed(cx: &Value) -> bool {
    let (c, g, nu2, b) = (f(&cx["c"]), f(&cx["gamma"]), f(&cx["nu2"]), f(&cx["b"]));
    let mu = normal_mean(|x| (c + g * x * x).ln());
    let lambda = mu.signum() * (0.5 / b).min(mu.abs() / nu2);
    assert!(lambda.abs() < 1.0 / b);
    normal_mean(|x| (c + g * x * x).powf(lambda)) > (nu2 * lambda * lambda / 2.0).exp() * (1.0 + 1e-9)
}

fn lem1_chi2(cx: &Value) -> bool {
    let (k1, t) = (f(&cx["k1"]), f(&cx["t"]));
    let tail = normal_mean(|x| if x * x >= t { 1.0 } else { 0.0 });
    tail > (-t * t / k1).exp() * (1.0 + 1e-6)
}

fn stability_printed(cx: &Value) -> bool {
    let (c, g) = (f(&cx["lambda_h"]), f(&cx["gamma"]));
    c + g < 1.0 && normal_mean(|x| (c + g * x * x).powi(2)) >= 1.0
}

fn thm4_appendix(cx: &Value) -> bool {
    let label = cx["label"].as_str().unwrap();
    let (c, g, t, z, nu2, b) = ["λ_H", "γ", "t", "z", "ν²", "b"].map(|k| label_number(label, k)).into();
    // The appendix's bound, recomputed from the cell's parameters.
    let bound = if z <= t * nu2 / b { (-z * z / (2.0 * t * nu2)).exp() } else { (-t / (2.0 * b)).exp() };
    // A fresh simulation with another generator, and an exact binomial lower bound at 1e−4.
    let n = 20_000u64;
    let mut rng = SplitMix(2024);
    let threshold = z + t * (c + g).ln();
    let hits = (0..n)
        .filter(|_| {
            (0..t as u64)
                .map(|_| {
                    let x = rng.normal();
                    (c + g * x * x).ln()
                })
                .sum::<f64>()
                >= threshold
        })
        .count() as u64;
    hits > 0 && exact_lower(n, hits, 1e-4) > bound
}

#[test]
fn stability_errata_recompute_to_violations() {
    assert_counterexamples_recompute(&["004.lem1.printed", "004.lem1.chi2", "004.stability.printed", "004.thm4.appendix"], |id, cx| match id {
        "004.lem1.printed" => lem1_printed(cx),
        "004.lem1.chi2" => lem1_chi2(cx),
        "004.stability.printed" => stability_printed(cx),
        "004.thm4.appendix" => thm4_appendix(cx),
        _ => unreachable!(),
    });
}

#[test]
fn the_independent_checks_accept_true_instances() {
    // A point under the L² curve has finite stationary variance; K₁ = 2 makes the χ² step true
    // at t = 1 only if e^{−1/2} ≥ P(X² ≥ 1) = 0.3173: it is (0.6065).
    assert!(!stability_printed(&serde_json::json!({ "lambda_h": 0.5, "gamma": 0.3 })));
    assert!(!lem1_chi2(&serde_json::json!({ "k1": 2.0, "t": 1.0 })));
    // The exact binomial bound agrees with the suite's Clopper–Pearson.
    let cp = ssmcheck::stats::clopper_pearson(5, 20, 0.95);
    assert!((exact_lower(20, 5, 0.025) - cp.lo).abs() < 1e-6);
}
