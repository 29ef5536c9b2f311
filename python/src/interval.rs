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

/// A complex rectangle re + i·im, both parts enclosures (the crate's `kit::ComplexInterval`):
/// every operation's result holds the exact complex result for any complex numbers inside its
/// arguments.
#[pyclass(module = "ssmcheck._ssmcheck", name = "ComplexInterval", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub struct ComplexInterval(pub ssmcheck::math::ComplexInterval);

/// A ComplexInterval, an Interval or a float (the last two real), as an operand.
#[derive(FromPyObject)]
pub enum ComplexOperand {
    /// A complex rectangle.
    Complex(ComplexInterval),
    /// A real enclosure or a float, taken exactly.
    Real(Operand),
}

impl ComplexOperand {
    fn rectangle(&self) -> ssmcheck::math::ComplexInterval {
        match self {
            ComplexOperand::Complex(z) => z.0,
            ComplexOperand::Real(x) => ssmcheck::math::Complex::real(x.enclosure()),
        }
    }
}

#[pymethods]
impl ComplexInterval {
    /// re + i·im, each a float (exact) or an Interval; im defaults to 0.
    #[new]
    #[pyo3(signature = (re, im = Operand::Float(0.0)))]
    fn new(re: Operand, im: Operand) -> ComplexInterval {
        ComplexInterval(ssmcheck::math::Complex::new(re.enclosure(), im.enclosure()))
    }
    /// r·e^{iθ}, each a float (exact) or an Interval.
    #[staticmethod]
    fn polar(r: Operand, theta: Operand) -> ComplexInterval {
        ComplexInterval(ssmcheck::math::Complex::polar(r.enclosure(), theta.enclosure()))
    }
    /// The real part's enclosure.
    #[getter]
    fn re(&self) -> Interval {
        Interval(self.0.re)
    }
    /// The imaginary part's enclosure.
    #[getter]
    fn im(&self) -> Interval {
        Interval(self.0.im)
    }
    /// Whether re + i·im lies in the rectangle.
    fn contains(&self, re: f64, im: f64) -> bool {
        self.0.contains(re, im)
    }
    fn __add__(&self, o: ComplexOperand) -> ComplexInterval {
        ComplexInterval(self.0 + o.rectangle())
    }
    fn __radd__(&self, o: ComplexOperand) -> ComplexInterval {
        ComplexInterval(o.rectangle() + self.0)
    }
    fn __sub__(&self, o: ComplexOperand) -> ComplexInterval {
        ComplexInterval(self.0 - o.rectangle())
    }
    fn __rsub__(&self, o: ComplexOperand) -> ComplexInterval {
        ComplexInterval(o.rectangle() - self.0)
    }
    fn __mul__(&self, o: ComplexOperand) -> ComplexInterval {
        ComplexInterval(self.0 * o.rectangle())
    }
    fn __rmul__(&self, o: ComplexOperand) -> ComplexInterval {
        ComplexInterval(o.rectangle() * self.0)
    }
    fn __truediv__(&self, o: ComplexOperand) -> ComplexInterval {
        ComplexInterval(self.0 / o.rectangle())
    }
    fn __rtruediv__(&self, o: ComplexOperand) -> ComplexInterval {
        ComplexInterval(o.rectangle() / self.0)
    }
    fn __neg__(&self) -> ComplexInterval {
        ComplexInterval(-self.0)
    }
    /// |z| enclosed.
    fn __abs__(&self) -> Interval {
        Interval(self.0.abs())
    }
    fn __pow__(&self, n: u32, _modulo: Option<u32>) -> ComplexInterval {
        ComplexInterval(self.0.powi(n))
    }
    /// The complex conjugate.
    fn conj(&self) -> ComplexInterval {
        ComplexInterval(self.0.conj())
    }
    /// e^z.
    fn exp(&self) -> ComplexInterval {
        ComplexInterval(self.0.exp())
    }
    /// The argument in (−π, π], enclosed over the rectangle ([−π, π] across the branch cut).
    fn arg(&self) -> Interval {
        Interval(self.0.arg())
    }
    fn __repr__(&self) -> String {
        format!("ComplexInterval({}, {})", Interval(self.0.re).__repr__(), Interval(self.0.im).__repr__())
    }
}

/// A square matrix given by its rows, or a ValueError naming `what`.
fn square(rows: &[Vec<f64>], what: &str) -> PyResult<usize> {
    let n = rows.len();
    if rows.iter().any(|r| r.len() != n) {
        return Err(crate::value_error(format!("{what}: a square matrix ({n} rows of {n} entries)")));
    }
    Ok(n)
}

/// A⁻¹ of a matrix given by its rows (entries taken as exact), enclosed by interval Gaussian
/// elimination (`kit::inverse` on intervals); a ValueError when a pivot's enclosure holds 0.
#[pyfunction]
pub fn inverse_enclosed(rows: Vec<Vec<f64>>) -> PyResult<IntervalRows> {
    square(&rows, "inverse_enclosed")?;
    let a: Vec<Vec<Enclosure>> = rows.iter().map(|r| r.iter().map(|&x| Enclosure::exact(x)).collect()).collect();
    let inv = ssmcheck::kit::inverse(&a).ok_or_else(|| crate::value_error("inverse_enclosed: A may be singular (a pivot's enclosure holds 0)"))?;
    Ok(inv.into_iter().map(|r| r.into_iter().map(Interval).collect()).collect())
}

/// (Ā, B̄) of a dense (A, B) at step Δ by `rule`: "zoh" (e^{ΔA} and the exact integral), "euler"
/// (Mamba's B̄ = ΔB) or "bilinear" (S4's Tustin rule, `kit::bilinear`), in floating point; Ā by
/// rows. A ValueError for an unknown rule, mismatched sizes, or (bilinear) I − ΔA/2 singular.
#[pyfunction]
pub fn discretize(a: Vec<Vec<f64>>, b: Vec<f64>, delta: f64, rule: &str) -> PyResult<(Vec<Vec<f64>>, Vec<f64>)> {
    use ssmcheck::kit::Discretization;
    use ssmcheck::math::linalg::{mat_from_rows, Vector};
    let n = square(&a, "discretize")?;
    if b.len() != n || !delta.is_finite() {
        return Err(crate::value_error(format!("discretize: b needs {n} entries and Δ must be finite (got {} and {delta})", b.len())));
    }
    let (am, bv) = (mat_from_rows(&a), Vector::from_vec(b));
    let (abar, bbar) = match rule {
        "zoh" => ssmcheck::model::discretize::dense(&am, &bv, delta, Discretization::Zoh),
        "euler" => ssmcheck::model::discretize::dense(&am, &bv, delta, Discretization::Euler),
        "bilinear" => ssmcheck::kit::bilinear(&am, &bv, delta).ok_or_else(|| crate::value_error("discretize: I − ΔA/2 is singular"))?,
        other => return Err(crate::value_error(format!("discretize: unknown rule '{other}' (zoh, euler or bilinear)"))),
    };
    Ok(((0..n).map(|i| abar.row(i).iter().copied().collect()).collect(), bbar.iter().copied().collect()))
}
