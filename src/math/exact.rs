//! Exact rational arithmetic for certificates: [`Exact`] (num-rational's `BigRational`,
//! re-exported so a user never depends on `num_rational` directly), the exact value of a double,
//! and the linear algebra whose answers are integers or rationals: [`rank`], [`solve`] and
//! [`sign_changes`]. Every dyadic double the strategies draw converts without loss, so a statement
//! about ranks, solutions or signs of matrices built from them is decided exactly.

use num_traits::{Signed, ToPrimitive, Zero};

/// An exact rational number.
pub type Exact = num_rational::BigRational;

/// The exact rational value of a finite `f64`. Panics on ±∞ or NaN.
pub fn exact(x: f64) -> Exact {
    Exact::from_float(x).unwrap_or_else(|| panic!("exact({x}): not finite"))
}

/// The `f64` nearest an exact rational (num-rational's correctly rounded conversion; ±∞ or 0
/// outside f64's range).
pub fn to_f64(x: &Exact) -> f64 {
    x.to_f64().unwrap_or(f64::NAN)
}

/// The rank of a matrix given by its rows, by Gaussian elimination over the rationals.
pub fn rank(rows: &[Vec<Exact>]) -> usize {
    let mut m: Vec<Vec<Exact>> = rows.to_vec();
    let cols = m.first().map_or(0, Vec::len);
    let mut r = 0;
    for c in 0..cols {
        let Some(p) = (r..m.len()).find(|&i| !m[i][c].is_zero()) else { continue };
        m.swap(r, p);
        let (top, rest) = m.split_at_mut(r + 1);
        let pivot = &top[r];
        for row in rest.iter_mut().filter(|row| !row[c].is_zero()) {
            let f = &row[c] / &pivot[c];
            for (x, p) in row[c..].iter_mut().zip(&pivot[c..]) {
                *x -= &f * p;
            }
        }
        r += 1;
    }
    r
}

/// The solution x of A x = b for a square A given by its rows, exactly; `None` when A is
/// singular (or not square, or b of another length).
pub fn solve(a: &[Vec<Exact>], b: &[Exact]) -> Option<Vec<Exact>> {
    let n = a.len();
    if b.len() != n || a.iter().any(|r| r.len() != n) {
        return None;
    }
    let mut m: Vec<Vec<Exact>> = a.iter().zip(b).map(|(r, y)| r.iter().cloned().chain([y.clone()]).collect()).collect();
    for c in 0..n {
        let p = (c..n).find(|&i| !m[i][c].is_zero())?;
        m.swap(c, p);
        let pivot = m[c].clone();
        for (i, row) in m.iter_mut().enumerate() {
            if i != c && !row[c].is_zero() {
                let f = &row[c] / &pivot[c];
                for (x, p) in row[c..].iter_mut().zip(&pivot[c..]) {
                    *x -= &f * p;
                }
            }
        }
    }
    Some(m.iter().enumerate().map(|(i, row)| &row[n] / &row[i]).collect())
}

/// The number of sign changes of a sequence, zeros skipped (Descartes' count).
pub fn sign_changes(values: &[Exact]) -> usize {
    let signs: Vec<bool> = values.iter().filter(|v| !v.is_zero()).map(Signed::is_positive).collect();
    signs.windows(2).filter(|w| w[0] != w[1]).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(rows: &[&[f64]]) -> Vec<Vec<Exact>> {
        rows.iter().map(|r| r.iter().map(|&x| exact(x)).collect()).collect()
    }

    #[test]
    fn rank_solve_and_sign_changes_on_known_answers() {
        // Hilbert-like rows with a dependent third row (row 3 = row 1 + row 2).
        let m = q(&[&[1.0, 0.5, 0.25], &[0.5, 0.25, 0.125], &[1.5, 0.75, 0.375]]);
        assert_eq!(rank(&m), 1);
        let h = q(&[&[1.0, 0.5, 1.0 / 3.0], &[0.5, 1.0 / 3.0, 0.25], &[1.0 / 3.0, 0.25, 0.2]]);
        assert_eq!(rank(&h), 3);
        assert!(solve(&m, &[exact(1.0), exact(2.0), exact(3.0)]).is_none(), "singular");
        // A x = b recomputed exactly from the solution; the control: a perturbed solution fails.
        let b = [exact(1.0), exact(-2.0), exact(0.5)];
        let x = solve(&h, &b).expect("regular");
        let times = |x: &[Exact]| h.iter().map(|r| r.iter().zip(x).map(|(a, y)| a * y).sum::<Exact>()).collect::<Vec<_>>();
        assert_eq!(times(&x), b.to_vec());
        let mut off = x.clone();
        off[0] += exact(2f64.powi(-60));
        assert_ne!(times(&off), b.to_vec());
        assert_eq!(sign_changes(&[exact(1.0), exact(0.0), exact(-2.0), exact(-1.0), exact(3.0)]), 2);
        assert_eq!(to_f64(&exact(0.1)), 0.1);
    }
}
