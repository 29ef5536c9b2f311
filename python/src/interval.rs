//! The kit's enclosures in Python: `Interval` (the crate's `math::Interval`: every operation's
//! result holds the exact real result of the operation on any reals inside its arguments) and
//! the enclosed spectral norm. A side of a relation (`ssmcheck.le(x, y)`) may be an `Interval`,
//! whose comparison is then decided on the enclosure (a refutation by it is certified).

use pyo3::prelude::*;
use ssmcheck::math::Interval as Enclosure;

/// A closed interval [lo, hi] that holds an exact real value.
#[pyclass(module = "ssmcheck._ssmcheck", name = "Interval", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub struct Interval(pub Enclosure);

/// A float or an Interval, as an operand.
#[derive(FromPyObject)]
pub enum Operand {
    /// An Interval.
    Interval(Interval),
    /// A float, taken exactly.
    Float(f64),
}

impl Operand {
    fn enclosure(&self) -> Enclosure {
        match self {
            Operand::Interval(i) => i.0,
            Operand::Float(x) => Enclosure::exact(*x),
        }
    }
}

#[pymethods]
impl Interval {
    /// [lo, hi] (hi defaults to lo: the exact double).
    #[new]
    #[pyo3(signature = (lo, hi = None))]
    fn new(lo: f64, hi: Option<f64>) -> PyResult<Interval> {
        let hi = hi.unwrap_or(lo);
        if lo <= hi {
            Ok(Interval(Enclosure::new(lo, hi)))
        } else {
            Err(crate::value_error(format!("an interval needs lo ≤ hi, got ({lo}, {hi})")))
        }
    }
    /// The decimal number `text` (such as "0.001") enclosed: a point when it is a double, else
    /// the two doubles around it.
    #[staticmethod]
    fn decimal(text: &str) -> PyResult<Interval> {
        Enclosure::decimal(text).map(Interval).ok_or_else(|| crate::value_error(format!("'{text}' is not a decimal number")))
    }
    /// π enclosed.
    #[staticmethod]
    fn pi() -> Interval {
        Interval(ssmcheck::math::interval::PI)
    }
    /// The lower end.
    #[getter]
    fn lo(&self) -> f64 {
        self.0.lo
    }
    /// The upper end.
    #[getter]
    fn hi(&self) -> f64 {
        self.0.hi
    }
    /// hi − lo.
    fn width(&self) -> f64 {
        self.0.width()
    }
    /// The midpoint.
    fn mid(&self) -> f64 {
        self.0.mid()
    }
    /// Whether x lies in [lo, hi].
    fn contains(&self, x: f64) -> bool {
        self.0.contains(x)
    }
    fn __add__(&self, o: Operand) -> Interval {
        Interval(self.0 + o.enclosure())
    }
    fn __radd__(&self, o: Operand) -> Interval {
        Interval(o.enclosure() + self.0)
    }
    fn __sub__(&self, o: Operand) -> Interval {
        Interval(self.0 - o.enclosure())
    }
    fn __rsub__(&self, o: Operand) -> Interval {
        Interval(o.enclosure() - self.0)
    }
    fn __mul__(&self, o: Operand) -> Interval {
        Interval(self.0 * o.enclosure())
    }
    fn __rmul__(&self, o: Operand) -> Interval {
        Interval(o.enclosure() * self.0)
    }
    fn __truediv__(&self, o: Operand) -> Interval {
        Interval(self.0 / o.enclosure())
    }
    fn __rtruediv__(&self, o: Operand) -> Interval {
        Interval(o.enclosure() / self.0)
    }
    fn __neg__(&self) -> Interval {
        Interval(-self.0)
    }
    fn __abs__(&self) -> Interval {
        Interval(self.0.abs())
    }
    fn __pow__(&self, n: u32, _modulo: Option<u32>) -> Interval {
        Interval(self.0.powi(n))
    }
    /// x² (tight when the interval straddles 0).
    fn square(&self) -> Interval {
        Interval(self.0.square())
    }
    /// √x.
    fn sqrt(&self) -> Interval {
        Interval(self.0.sqrt())
    }
    /// eˣ.
    fn exp(&self) -> Interval {
        Interval(self.0.exp())
    }
    /// ln x.
    fn ln(&self) -> Interval {
        Interval(self.0.ln())
    }
    /// eˣ − 1.
    fn exp_m1(&self) -> Interval {
        Interval(self.0.exp_m1())
    }
    /// ln(1 + x).
    fn ln_1p(&self) -> Interval {
        Interval(self.0.ln_1p())
    }
    /// erfc x.
    fn erfc(&self) -> Interval {
        Interval(self.0.erfc())
    }
    /// sin x (±1 where an extremum may lie inside).
    fn sin(&self) -> Interval {
        Interval(self.0.sin())
    }
    /// cos x (±1 where an extremum may lie inside).
    fn cos(&self) -> Interval {
        Interval(self.0.cos())
    }
    /// The angle of (x, self) in (−π, π], enclosed over the rectangle.
    fn atan2(&self, x: Operand) -> Interval {
        Interval(self.0.atan2(x.enclosure()))
    }
    fn __repr__(&self) -> String {
        format!("Interval({:?}, {:?})", self.0.lo, self.0.hi)
    }
}

/// ‖A‖₂ of a matrix given by its rows, enclosed (`kit::spectral_norm`).
#[pyfunction]
pub fn spectral_norm(rows: Vec<Vec<f64>>) -> PyResult<Interval> {
    let cols = rows.first().map_or(0, Vec::len);
    if rows.iter().any(|r| r.len() != cols) {
        return Err(crate::value_error("spectral_norm: the rows differ in length"));
    }
    Ok(Interval(ssmcheck::kit::spectral_norm(&rows)))
}

/// An enclosure of the solution of `A x = b` (entries taken as exact), by interval Gaussian
/// elimination (`kit::solve_enclosed`); a ValueError when a pivot's enclosure holds 0.
#[pyfunction]
pub fn solve_enclosed(rows: Vec<Vec<f64>>, b: Vec<f64>) -> PyResult<Vec<Interval>> {
    let n = rows.len();
    if rows.iter().any(|r| r.len() != n) || b.len() != n {
        return Err(crate::value_error(format!("solve_enclosed: a square A ({n} rows) and b of {n} entries")));
    }
    let x = ssmcheck::kit::solve_enclosed(&rows, &b).ok_or_else(|| crate::value_error("solve_enclosed: A may be singular (a pivot's enclosure holds 0)"))?;
    Ok(x.into_iter().map(Interval).collect())
}

/// A matrix of enclosures, by rows.
type IntervalRows = Vec<Vec<Interval>>;

/// e^A of a complex matrix given by its real and imaginary parts (rows), enclosed
/// (`kit::expm_complex`): the real parts' and imaginary parts' enclosures, by rows.
#[pyfunction]
pub fn expm_complex(re: Vec<Vec<f64>>, im: Vec<Vec<f64>>) -> PyResult<(IntervalRows, IntervalRows)> {
    let n = re.len();
    if im.len() != n || re.iter().chain(&im).any(|r| r.len() != n) {
        return Err(crate::value_error(format!("expm_complex: square real and imaginary parts of the same size ({n})")));
    }
    let a: Vec<Vec<ssmcheck::math::Complex<f64>>> =
        re.iter().zip(&im).map(|(r, i)| r.iter().zip(i).map(|(&x, &y)| ssmcheck::math::Complex::new(x, y)).collect()).collect();
    let e = ssmcheck::kit::expm_complex(&a);
    Ok((e.iter().map(|r| r.iter().map(|z| Interval(z.re)).collect()).collect(), e.iter().map(|r| r.iter().map(|z| Interval(z.im)).collect()).collect()))
}
