//! Value codes for the reduced-dimension constructions: random Rademacher (JL) codes, as the
//! paper uses, and distinct zero-sum ("balanced") codes, which make the output bias unnecessary.

use crate::mc::Stream;
use nalgebra::DVector;

/// `count` random codes in ℝ^p with i.i.d. entries ±1/√p.
pub fn rademacher(s: &mut Stream, count: usize, p: usize) -> Vec<DVector<f64>> {
    let x = 1.0 / (p as f64).sqrt();
    (0..count).map(|_| DVector::from_fn(p, |_, _| if s.uniform() < 0.5 { -x } else { x })).collect()
}

/// The smallest even p with C(p, p/2) ≥ count (enough distinct balanced codes).
pub fn balanced_width(count: usize) -> usize {
    let mut p = 2;
    while binomial(p, p / 2) < count as u128 {
        p += 2;
    }
    p
}

fn binomial(n: usize, k: usize) -> u128 {
    (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
}

/// `count` codes in ℝ^p with p/2 entries +1/√p and p/2 entries −1/√p (zero sum), distinct while
/// C(p, p/2) allows, then repeating (code j is pattern j mod C(p, p/2)).
pub fn balanced(count: usize, p: usize) -> Vec<DVector<f64>> {
    let x = 1.0 / (p as f64).sqrt();
    let patterns: Vec<u64> = (0u64..1 << p).filter(|b| b.count_ones() as usize == p / 2).take(count).collect();
    (0..count)
        .map(|j| {
            let b = patterns[j % patterns.len()];
            DVector::from_fn(p, |i, _| if b >> i & 1 == 1 { x } else { -x })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_codes_are_distinct_unit_and_zero_sum() {
        assert_eq!(balanced_width(6), 4);
        assert_eq!(balanced_width(7), 6);
        let c = balanced(20, balanced_width(20));
        for (i, a) in c.iter().enumerate() {
            assert!((a.norm() - 1.0).abs() < 1e-12 && a.sum().abs() < 1e-12);
            for b in &c[..i] {
                assert!(a.dot(b) < 1.0 - 1e-9);
            }
        }
    }
}
