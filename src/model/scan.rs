//! The diagonal linear recurrence with given per-step decays, `h_t = a_t ⊙ h_{t−1} + u_t`: the
//! loop inside S4D, Mamba, Mamba-2, LRU, GLA and every gated linear RNN once their decays and
//! inputs are formed. Real or complex ([`Field`]), on values, derivatives or enclosures.

use crate::math::Field;

/// The states `h_1..h_T` of `h_t = a_t ⊙ h_{t−1} + u_t` from `h_0` (`decays[t−1]` = a_t,
/// `inputs[t−1]` = u_t, each the length of `h0`).
pub fn diagonal_scan<T: Field>(h0: &[T], decays: &[Vec<T>], inputs: &[Vec<T>]) -> Vec<Vec<T>> {
    assert_eq!(decays.len(), inputs.len(), "diagonal_scan: one decay vector per input vector");
    let mut h = h0.to_vec();
    decays
        .iter()
        .zip(inputs)
        .map(|(a, u)| {
            assert!(a.len() == h.len() && u.len() == h.len(), "diagonal_scan: decays and inputs have the state's size {}", h.len());
            for ((hn, &an), &un) in h.iter_mut().zip(a).zip(u) {
                *hn = an * *hn + un;
            }
            h.clone()
        })
        .collect()
}

/// The same states unrolled, `h_t = (∏_{s=1..t} a_s) h_0 + Σ_{s≤t} (∏_{k=s+1..t} a_k) u_s`, in
/// O(T²·N): an independent computation to test a scan against, and the form a statement about a
/// single coefficient `∏ a_k` reads.
pub fn diagonal_scan_unrolled<T: Field>(h0: &[T], decays: &[Vec<T>], inputs: &[Vec<T>]) -> Vec<Vec<T>> {
    let n = h0.len();
    (1..=decays.len())
        .map(|t| {
            (0..n)
                .map(|i| {
                    let prod = |from: usize| (from..t).fold(T::one(), |p, k| p * decays[k][i]);
                    (0..t).fold(prod(0) * h0[i], |s, j| s + prod(j + 1) * inputs[j][i])
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Complex, Interval};

    #[test]
    fn the_scan_equals_its_unrolled_sum_real_complex_and_enclosed() {
        let a = |t: usize, i: usize| 0.9 - 0.1 * ((t * 7 + i * 3) % 5) as f64;
        let u = |t: usize, i: usize| ((t * 5 + i * 11) % 7) as f64 - 3.0;
        let (t_len, n) = (9, 3);
        let decays: Vec<Vec<f64>> = (0..t_len).map(|t| (0..n).map(|i| a(t, i)).collect()).collect();
        let inputs: Vec<Vec<f64>> = (0..t_len).map(|t| (0..n).map(|i| u(t, i)).collect()).collect();
        let h0 = [1.0, -2.0, 0.5];
        let (scan, unrolled) = (diagonal_scan(&h0, &decays, &inputs), diagonal_scan_unrolled(&h0, &decays, &inputs));
        for (x, y) in scan.iter().flatten().zip(unrolled.iter().flatten()) {
            // Sums of at most T + 1 terms of size ≤ 3 with decays < 1: rounding ≤ γ_{2T}·3(T + 1).
            assert!((x - y).abs() <= 2.0 * t_len as f64 * f64::EPSILON * 3.0 * (t_len + 1) as f64, "{x} vs {y}");
        }
        // On enclosures the two forms hold the same exact value: their enclosures meet.
        let iv = |m: &Vec<Vec<f64>>| m.iter().map(|r| r.iter().map(|&x| Interval::exact(x)).collect::<Vec<_>>()).collect::<Vec<_>>();
        let h0i: Vec<Interval> = h0.iter().map(|&x| Interval::exact(x)).collect();
        let (si, ui) = (diagonal_scan(&h0i, &iv(&decays), &iv(&inputs)), diagonal_scan_unrolled(&h0i, &iv(&decays), &iv(&inputs)));
        assert!(si.iter().flatten().zip(ui.iter().flatten()).all(|(x, y)| x.intersect(*y).is_some() && x.width() < 1e-13));
        // Complex decays (a rotation per step) against the unrolled form.
        let rot = |t: usize| Complex::polar(0.95, 0.3 * t as f64);
        let cd: Vec<Vec<Complex<f64>>> = (0..t_len).map(|t| vec![rot(t)]).collect();
        let cu: Vec<Vec<Complex<f64>>> = (0..t_len).map(|t| vec![Complex::new(u(t, 0), 1.0)]).collect();
        let (cs, cw) = (diagonal_scan(&[Complex::zero()], &cd, &cu), diagonal_scan_unrolled(&[Complex::zero()], &cd, &cu));
        assert!(cs.iter().zip(&cw).all(|(x, y)| (x[0] - y[0]).abs() < 1e-13));
        // Control: the unrolled form with one decay left out of the products disagrees.
        let mut wrong = decays.clone();
        wrong[3][1] = 1.0;
        assert!(diagonal_scan_unrolled(&h0, &wrong, &inputs).iter().zip(&scan).any(|(x, y)| (x[1] - y[1]).abs() > 1e-3));
    }
}
