//! Instance strategies shared by the families.
//!
//! Scalars are drawn on dyadic grids of integers (`i·step`): integers shrink well in proptest
//! (its `f64` ranges do not shrink), and counterexamples come out as short exact numbers a
//! reader can type into another tool.

use proptest::collection::vec;
use proptest::prelude::*;

/// A value `i·step` with `lo ≤ i·step ≤ hi`, shrinking toward the grid point nearest zero.
pub fn grid(lo: f64, hi: f64, step: f64) -> impl Strategy<Value = f64> + Clone {
    let (a, b) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
    (a..=b).prop_map(move |i| i as f64 * step)
}

/// A vector of `n` grid values.
pub fn grid_vec(n: usize, lo: f64, hi: f64, step: f64) -> impl Strategy<Value = Vec<f64>> + Clone {
    vec(grid(lo, hi, step), n)
}

/// An `n×m` matrix of grid values, as rows.
pub fn grid_matrix(n: usize, m: usize, lo: f64, hi: f64, step: f64) -> impl Strategy<Value = Vec<Vec<f64>>> + Clone {
    vec(grid_vec(m, lo, hi, step), n)
}

/// The 2-norm of a vector.
pub fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The 2-norm of the difference of two vectors.
pub fn dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    #[test]
    fn grid_values_lie_on_the_grid_and_in_range() {
        let mut runner = TestRunner::deterministic();
        for _ in 0..100 {
            let v = grid(-1.0, 2.0, 0.125).new_tree(&mut runner).unwrap().current();
            assert!((-1.0..=2.0).contains(&v) && (v * 8.0).fract() == 0.0);
        }
    }
}
