//! A confidence interval for the mean of bounded variables by betting (Waudby-Smith & Ramdas,
//! "Estimating means of bounded random variables by betting", JRSS-B 2024, §4 and eq. (26)): for
//! iid `X_i ∈ [0, 1]` with mean m, the capital `K_j(m) = ∏_{i≤j}(1 + λ_i(X_i − m))` of a gambler
//! who bets a predictable fraction λ_i against m is a nonnegative martingale when m is the true
//! mean, so by Ville's inequality `P(max_j K_j(m) ≥ 1/δ) ≤ δ`: the candidates m whose capital
//! reaches 1/δ are excluded, and what remains covers m with probability at least 1 − δ, for every
//! n and every law on [0, 1] (no asymptotics). It adapts to the variance like the CLT does, and
//! the bets may be as large as c/m, so small means — the importance-sampling weights' — are
//! bounded away from 0 where an empirical Bernstein bound's range term (7 ln(2/δ)/3n) is not.
//! The upper end stays range-limited (a bet against m − X stakes at most c/(1 − m), since X may
//! be 1): it is about m + ln(2/δ)/(c·n) at worst.
//!
//! Bets (the predictable plug-in): `λ_i = min(√(2 ln(1/δ_s)/(n σ̂²_{i−1})), c/m)` for the lower
//! side (`c/(1 − m)` for the upper, betting on `m − X_i`), `σ̂²_i = (¼ + Σ_{j≤i}(X_j − μ̂_j)²)/(i + 1)`,
//! `μ̂_i = (½ + Σ_{j≤i} X_j)/(i + 1)`, c = ½; each side at δ_s = δ/2.

use super::ConfidenceInterval;

/// Bet cap c: a bet never stakes more than half of the largest loss it could take.
const CAP: f64 = 0.5;

/// The variance-adaptive bet sizes `√(2 ln(1/δ_s)/(n σ̂²_{i−1}))` (predictable: the i-th uses
/// X_1 … X_{i−1} only).
fn plug_in_bets(xs: &[f64], delta_side: f64) -> Vec<f64> {
    let n = xs.len() as f64;
    let num = 2.0 * (1.0 / delta_side).ln() / n;
    let (mut sum, mut sq) = (0.0, 0.0);
    xs.iter()
        .enumerate()
        .map(|(i, &x)| {
            let var = (0.25 + sq) / (i as f64 + 1.0);
            sum += x;
            let mu = (0.5 + sum) / (i as f64 + 2.0);
            sq += (x - mu) * (x - mu);
            (num / var).sqrt()
        })
        .collect()
}

/// Whether m is excluded: the capital betting `sign·(X − m)` reaches 1/δ_s at some time.
fn excluded(xs: &[f64], bets: &[f64], m: f64, sign: f64, threshold_ln: f64) -> bool {
    let cap = if sign > 0.0 { CAP / m } else { CAP / (1.0 - m) };
    let mut log_k = 0.0;
    for (&x, &b) in xs.iter().zip(bets) {
        log_k += (sign * b.min(cap) * (x - m)).ln_1p();
        if log_k >= threshold_ln {
            return true;
        }
    }
    false
}

/// Two-sided betting interval for the mean of `xs ⊂ [0, 1]` at `confidence` (each side at
/// (1 − confidence)/2). Panics unless n ≥ 1 and every value is in [0, 1].
pub fn betting_interval(xs: &[f64], confidence: f64) -> ConfidenceInterval {
    assert!(!xs.is_empty(), "the betting interval needs at least one value");
    assert!(xs.iter().all(|x| (0.0..=1.0).contains(x)), "the betting interval needs values in [0, 1]");
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    let delta_side = 0.5 * (1.0 - confidence);
    let threshold_ln = (1.0 / delta_side).ln();
    let bets = plug_in_bets(xs, delta_side);
    let kept_low = |m: f64| m >= mean || !excluded(xs, &bets, m, 1.0, threshold_ln);
    let kept_high = |m: f64| m <= mean || !excluded(xs, &bets, m, -1.0, threshold_ln);
    let lo = if mean == 0.0 || kept_low(0.0) { 0.0 } else { lower_end(&kept_low, mean) };
    let hi = if mean == 1.0 || kept_high(1.0) { 1.0 } else { upper_end(&kept_high, mean) };
    ConfidenceInterval { estimate: mean, lo, hi, confidence }
}

/// The smallest kept m below `mean`: bisection in ln m (m = 0 is excluded, so the search runs
/// down to the smallest positive f64), then a scan of 64 points over the next factor of 10³ below
/// the boundary; a kept point there restarts the search from it (the kept set need not be an
/// interval, and this keeps the end conservative).
fn lower_end(kept: &impl Fn(f64) -> bool, mean: f64) -> f64 {
    let floor = f64::MIN_POSITIVE.ln();
    let (mut inside, mut outside) = (mean.ln(), floor);
    loop {
        for _ in 0..64 {
            let mid = 0.5 * (inside + outside);
            if kept(mid.exp()) {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        let far = (outside - 1e3f64.ln()).max(floor);
        match (1..=64).map(|k| outside + (far - outside) * k as f64 / 64.0).find(|&l| kept(l.exp())) {
            Some(l) => inside = l,
            None => return outside.exp(),
        }
    }
}

/// The largest kept m above `mean`: bisection on m, then a scan of 64 points between the
/// boundary and 1; a kept point there restarts the search from it.
fn upper_end(kept: &impl Fn(f64) -> bool, mean: f64) -> f64 {
    let (mut inside, mut outside) = (mean, 1.0);
    loop {
        for _ in 0..64 {
            let mid = 0.5 * (inside + outside);
            if kept(mid) {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        match (1..=64).map(|k| outside + (1.0 - outside) * k as f64 / 64.0).find(|&m| kept(m)) {
            Some(m) if m < 1.0 => inside = m,
            Some(_) => return 1.0,
            None => return outside,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::{Stream, StreamKey};

    #[test]
    fn it_covers_at_least_its_level() {
        // 1000 intervals at 90% for the mean of a skewed law on [0, 1] (U³, mean ¼) and of a law
        // with a small mean (U³·1{U > 0.9}·0.1, mean 0.1·(1 − 0.9⁴)/4 = 8.4399e−3): misses are
        // Binomial(1000, ≤ 0.1). Refuted if they exceed 135 (P ≤ 2e−4 under coverage 0.9).
        for (law, mean) in [(0usize, 0.25), (1, 0.1 * (1.0 - 0.9f64.powi(4)) / 4.0)] {
            let mut misses = 0;
            for r in 0..1000 {
                let mut s = Stream::new(StreamKey::new(1, "betting"), r);
                let xs: Vec<f64> = (0..200)
                    .map(|_| {
                        let u = s.uniform();
                        if law == 0 {
                            u.powi(3)
                        } else if u > 0.9 {
                            0.1 * u.powi(3)
                        } else {
                            0.0
                        }
                    })
                    .collect();
                misses += u32::from(!betting_interval(&xs, 0.9).contains(mean));
            }
            assert!(misses <= 135, "law {law}: {misses} misses of 1000");
        }
    }

    #[test]
    fn small_means_get_a_positive_lower_end() {
        // 2000 values, half 0 and half around 2m with m = 1/200 (the shape of importance weights):
        // the interval at 1 − 1e−6 excludes 0, which the empirical Bernstein range term
        // 7·ln(4e6)/(3·1999) ≈ 0.018 > m could not. The upper end is limited by the range: a bet
        // against m − X can stake at most c/(1 − m) ≈ ½ (X may be 1), so it needs m′ − m of about
        // ln(2/δ)/(c·n) ≈ 0.0145 to exclude m′.
        let mut s = Stream::new(StreamKey::new(2, "betting-small"), 0);
        let xs: Vec<f64> = (0..2000).map(|i| if i % 2 == 0 { 0.0 } else { 0.02 * s.uniform() }).collect();
        let ci = betting_interval(&xs, 1.0 - 1e-6);
        assert!(ci.lo > 0.003 && ci.hi < 0.021 && ci.lo < ci.estimate && ci.estimate < ci.hi, "{ci:?}");
        // And an interval from all zeros is [0, small].
        let ci = betting_interval(&[0.0; 1000], 0.99);
        assert!(ci.lo == 0.0 && ci.hi < 0.02, "{ci:?}");
    }
}
