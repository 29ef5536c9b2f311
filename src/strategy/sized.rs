//! Strategies whose size is drawn: a vector of drawn length ([`vec_of`]) and a matrix of drawn
//! shape ([`matrix_of`]), each shrinking its size first (a counterexample comes out as short
//! and small as it can be), then its entries.
//!
//! `(1..=8usize).prop_flat_map(|t| vec(elem, t))` draws a size too, but proptest's `flat_map`
//! shrinks the size by redrawing every entry at the new size, so the entries that made the
//! instance fail are lost at each step. [`matrix_of`] draws every cell of the largest shape and
//! shows the top-left block of the drawn one, so shrinking the shape keeps the entries it shows.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::{NewTree, ValueTree};
use proptest::test_runner::TestRunner;
use std::fmt::Debug;
use std::ops::RangeInclusive;

/// A vector whose length is drawn from `len` and whose entries come from `elem`; shrinking
/// removes entries first (to the shortest length that still fails), then shrinks each one.
pub fn vec_of<S: Strategy>(len: RangeInclusive<usize>, elem: S) -> impl Strategy<Value = Vec<S::Value>> {
    vec(elem, len)
}

/// A matrix (by rows) whose number of rows is drawn from `rows` and of columns from `cols`, every
/// entry from `elem`. Shrinking reduces the rows, then the columns (toward the ranges' lower
/// ends), then the entries.
///
/// # Panics
/// When a range is empty.
pub fn matrix_of<S: Strategy>(rows: RangeInclusive<usize>, cols: RangeInclusive<usize>, elem: S) -> MatrixOf<S> {
    assert!(!rows.is_empty() && !cols.is_empty(), "matrix_of needs non-empty ranges of rows and columns");
    MatrixOf { rows, cols, elem }
}

/// The strategy of [`matrix_of`].
#[derive(Clone, Debug)]
pub struct MatrixOf<S> {
    rows: RangeInclusive<usize>,
    cols: RangeInclusive<usize>,
    elem: S,
}

impl<S: Strategy> Strategy for MatrixOf<S> {
    type Tree = MatrixTree<S::Tree>;
    type Value = Vec<Vec<S::Value>>;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let rows = self.rows.clone().new_tree(runner)?;
        let cols = self.cols.clone().new_tree(runner)?;
        let width = *self.cols.end();
        let cells = (0..self.rows.end() * width).map(|_| self.elem.new_tree(runner)).collect::<Result<Vec<_>, _>>()?;
        Ok(MatrixTree { rows, cols, cells, width, step: Step::Rows, last: None })
    }
}

/// What a [`MatrixTree`] shrinks next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Rows,
    Cols,
    /// The k-th visible cell (row-major over the current shape).
    Cell(usize),
}

/// The value tree of [`matrix_of`]: the shape's two trees and a tree per cell of the largest
/// shape.
#[derive(Clone, Debug)]
pub struct MatrixTree<T> {
    rows: <RangeInclusive<usize> as Strategy>::Tree,
    cols: <RangeInclusive<usize> as Strategy>::Tree,
    cells: Vec<T>,
    width: usize,
    step: Step,
    last: Option<Step>,
}

impl<T: ValueTree> MatrixTree<T> {
    /// The index into `cells` of the k-th visible cell, if the current shape has one.
    fn cell(&self, k: usize) -> Option<usize> {
        let (r, c) = (self.rows.current(), self.cols.current());
        (k < r * c).then(|| (k / c) * self.width + k % c)
    }
}

impl<T: ValueTree> ValueTree for MatrixTree<T>
where
    T::Value: Debug,
{
    type Value = Vec<Vec<T::Value>>;

    fn current(&self) -> Self::Value {
        let (r, c) = (self.rows.current(), self.cols.current());
        (0..r).map(|i| (0..c).map(|j| self.cells[i * self.width + j].current()).collect()).collect()
    }

    fn simplify(&mut self) -> bool {
        loop {
            let done = match self.step {
                Step::Rows => self.rows.simplify(),
                Step::Cols => self.cols.simplify(),
                Step::Cell(k) => match self.cell(k) {
                    Some(i) => self.cells[i].simplify(),
                    None => return false,
                },
            };
            if done {
                self.last = Some(self.step);
                return true;
            }
            self.step = match self.step {
                Step::Rows => Step::Cols,
                Step::Cols => Step::Cell(0),
                Step::Cell(k) => Step::Cell(k + 1),
            };
        }
    }

    fn complicate(&mut self) -> bool {
        match self.last {
            Some(Step::Rows) => self.rows.complicate(),
            Some(Step::Cols) => self.cols.complicate(),
            Some(Step::Cell(k)) => self.cell(k).is_some_and(|i| self.cells[i].complicate()),
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::grid;
    use proptest::test_runner::{Config, TestCaseError, TestError};

    /// Runs proptest on `test` and returns the minimal failing value.
    fn minimal<S: Strategy>(s: S, test: impl Fn(&S::Value) -> bool) -> S::Value
    where
        S::Value: Clone + Debug,
    {
        let mut runner = TestRunner::new(Config { cases: 512, failure_persistence: None, ..Config::default() });
        match runner.run(&s, |v| if test(&v) { Ok(()) } else { Err(TestCaseError::fail("refuted")) }) {
            Err(TestError::Fail(_, v)) => v,
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    /// A statement false once the matrix has at least 3 rows, 2 columns and an entry ≥ 5 is
    /// shrunk to exactly that: a 3 × 2 matrix with one 5 and zeros elsewhere.
    #[test]
    fn a_drawn_shape_shrinks_to_the_smallest_failing_one() {
        let fails = |m: &Vec<Vec<f64>>| !(m.len() >= 3 && m[0].len() >= 2 && m.iter().flatten().any(|&x| x >= 5.0));
        let got = minimal(matrix_of(1..=8, 1..=6, grid(0.0, 9.0, 1.0)), fails);
        assert_eq!((got.len(), got[0].len()), (3, 2), "{got:?}");
        assert_eq!(got.iter().flatten().filter(|&&x| x != 0.0).collect::<Vec<_>>(), vec![&5.0], "{got:?}");
    }

    /// vec_of shrinks its length first: "no vector of length ≥ 4 has an entry ≥ 7" shrinks to
    /// length 4 with a single 7.
    #[test]
    fn a_drawn_length_shrinks_to_the_shortest_failing_one() {
        let got = minimal(vec_of(0..=20, grid(0.0, 9.0, 1.0)), |v| !(v.len() >= 4 && v.iter().any(|&x| x >= 7.0)));
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got.iter().filter(|&&x| x != 0.0).collect::<Vec<_>>(), vec![&7.0]);
    }
}
