//! Conjectures written in Python, judged by the engine exactly as `conjecture!` judges a Rust
//! one: each argument is drawn by one of the suite's strategies (`ssmcheck::strategy`), the
//! property searches, shrinks, counts ties and certifies as the Rust route does; only the
//! evaluation of one instance calls back into Python.
//!
//! The Python side (`ssmcheck.conjecture`) hands over a `Conjecture` object with the attributes
//! read below, and its method `_evaluate(values)` returns the relation as a dict
//! (`ssmcheck.relations`): `{"op": "le" | "le_by" | "ge_by" | "lt" | "gt" | "close" |
//! "positive" | "all" | "reject" | "error", …}` ("all": a list of relations that must all
//! hold, judged by the smallest margin, as `Eval::min` folds them in Rust).

use crate::value_error;
use proptest::prelude::*;
use proptest::strategy::SBoxedStrategy;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;
use serde::{Deserialize, Serialize};
use ssmcheck::claim::{property, Claim, ConjectureOptions, Control, Eval, Scale, Side, Tolerance, VerdictKind};
use ssmcheck::math::Interval;
use ssmcheck::strategy;
use std::collections::HashSet;
use std::sync::Mutex;

/// One drawn argument: what the suite's strategies produce.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// An integer (listed first: JSON's integers read back as integers, its floats as numbers).
    Integer(i64),
    /// A number.
    Number(f64),
    /// A vector.
    Vector(Vec<f64>),
    /// A matrix, by rows.
    Matrix(Vec<Vec<f64>>),
    /// A structured instance (a model's parameters, an MQAR sequence), as its JSON.
    Structured(serde_json::Value),
}

/// A structured draw as a [`Value`].
fn structured<T: Serialize>(x: T) -> Value {
    Value::Structured(serde_json::to_value(x).expect("the suite's instances serialize"))
}

/// The strategy an argument names (`ssmcheck.strategies`, a dict with its `kind` and
/// parameters), as a boxed strategy of [`Value`]s.
fn strategy_of(spec: &Bound<'_, PyDict>) -> PyResult<SBoxedStrategy<Value>> {
    let f = |key: &str| -> PyResult<f64> { spec.get_item(key)?.ok_or_else(|| value_error(format!("strategy without '{key}'")))?.extract::<f64>() };
    let n = |key: &str| -> PyResult<usize> { spec.get_item(key)?.ok_or_else(|| value_error(format!("strategy without '{key}'")))?.extract::<usize>() };
    let kind: String = spec.get_item("kind")?.ok_or_else(|| value_error("strategy without 'kind'"))?.extract()?;
    Ok(match kind.as_str() {
        "real" => strategy::real(f("lo")?, f("hi")?).prop_map(Value::Number).sboxed(),
        "standard_normal" => strategy::standard_normal().prop_map(Value::Number).sboxed(),
        "log_uniform" => strategy::log_uniform(f("lo")?, f("hi")?).prop_map(Value::Number).sboxed(),
        "edge_biased" => strategy::edge_biased(f("lo")?, f("hi")?).prop_map(Value::Number).sboxed(),
        "grid" => strategy::grid(f("lo")?, f("hi")?, f("step")?).prop_map(Value::Number).sboxed(),
        "grid_vec" => strategy::grid_vec(n("n")?, f("lo")?, f("hi")?, f("step")?).prop_map(Value::Vector).sboxed(),
        "grid_matrix" => strategy::grid_matrix(n("rows")?, n("cols")?, f("lo")?, f("hi")?, f("step")?).prop_map(Value::Matrix).sboxed(),
        "inputs" => strategy::inputs(n("len")?, f("amplitude")?).prop_map(Value::Vector).sboxed(),
        "real_diagonal" => strategy::real_diagonal(n("n")?).prop_map(Value::Vector).sboxed(),
        "selective_deltas" => strategy::selective_deltas(n("len")?).prop_map(Value::Vector).sboxed(),
        "stable_matrix" => strategy::stable_matrix(n("n")?).prop_map(Value::Matrix).sboxed(),
        "symmetric_matrix" => strategy::symmetric_matrix(n("n")?, f("lo")?, f("hi")?).prop_map(Value::Matrix).sboxed(),
        "rademacher" => strategy::rademacher(n("count")?, n("p")?).prop_map(Value::Matrix).sboxed(),
        "complex_diagonal" => strategy::complex_diagonal(n("n")?).prop_map(|v| Value::Matrix(v.into_iter().map(|(re, im)| vec![re, im]).collect())).sboxed(),
        "normal_matrix" => strategy::normal_matrix(n("n")?).prop_map(structured).sboxed(),
        "s6" => strategy::s6(n("n")?).prop_map(structured).sboxed(),
        "interaction_model" => strategy::interaction_model(n("h")?).prop_map(structured).sboxed(),
        "mqar" => strategy::mqar(n("keys")?, n("values")?, n("len")?).prop_map(structured).sboxed(),
        "integer" => {
            let i = |key: &str| -> PyResult<i64> { spec.get_item(key)?.ok_or_else(|| value_error(format!("strategy without '{key}'")))?.extract::<i64>() };
            let (lo, hi) = (i("lo")?, i("hi")?);
            if lo > hi {
                return Err(value_error(format!("integer: lo = {lo} > hi = {hi}")));
            }
            (lo..=hi).prop_map(Value::Integer).sboxed()
        }
        "vec_of" => {
            let (lo, hi) = sizes(n("min_len")?, n("max_len")?, "vec_of")?;
            strategy::vec_of(lo..=hi, scalar_of(spec)?).prop_map(Value::Vector).sboxed()
        }
        "matrix_of" => {
            let (rows, cols) = (sizes(n("min_rows")?, n("max_rows")?, "matrix_of")?, sizes(n("min_cols")?, n("max_cols")?, "matrix_of")?);
            strategy::matrix_of(rows.0.max(1)..=rows.1.max(1), cols.0.max(1)..=cols.1.max(1), scalar_of(spec)?).prop_map(Value::Matrix).sboxed()
        }
        "unit_vector" => strategy::unit_vector(n("n")?.max(1)).prop_map(Value::Vector).sboxed(),
        "positive_vec" => strategy::positive_vec(n("n")?, f("lo")?, f("hi")?).prop_map(Value::Vector).sboxed(),
        "disc_eigenvalues" => {
            let pairs: bool = spec.get_item("conjugate_pairs")?.map_or(Ok(false), |v| v.extract())?;
            strategy::disc_eigenvalues(n("n")?, f("r_max")?, pairs).prop_map(|v| Value::Matrix(v.into_iter().map(|z| vec![z.re, z.im]).collect())).sboxed()
        }
        other => return Err(value_error(format!("unknown strategy '{other}'"))),
    })
}

/// A size range `lo..=hi`, refused when empty.
fn sizes(lo: usize, hi: usize, what: &str) -> PyResult<(usize, usize)> {
    if lo > hi {
        return Err(value_error(format!("{what}: a size range {lo}..={hi} is empty")));
    }
    Ok((lo, hi))
}

/// The scalar strategy a `vec_of` or `matrix_of` spec names for its entries (`elem`).
fn scalar_of(spec: &Bound<'_, PyDict>) -> PyResult<SBoxedStrategy<f64>> {
    let elem = spec.get_item("elem")?.ok_or_else(|| value_error("vec_of / matrix_of without 'elem'"))?;
    let elem = elem.cast::<PyDict>().map_err(|_| value_error("elem: a strategy of ssmcheck.strategies"))?;
    let kind: String = elem.get_item("kind")?.ok_or_else(|| value_error("elem without 'kind'"))?.extract()?;
    if !["real", "standard_normal", "log_uniform", "edge_biased", "grid", "integer"].contains(&kind.as_str()) {
        return Err(value_error(format!("elem: a scalar strategy (real, standard_normal, log_uniform, edge_biased, grid, integer), not '{kind}'")));
    }
    Ok(strategy_of(elem)?
        .prop_map(|v| match v {
            Value::Number(x) => x,
            Value::Integer(i) => i as f64,
            _ => unreachable!("a scalar strategy draws numbers"),
        })
        .sboxed())
}

/// A rejection reason with a `'static` lifetime ([`Eval::Reject`] keeps static text): each
/// distinct reason is leaked once.
fn interned(why: &str) -> &'static str {
    static SEEN: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    let set = seen.get_or_insert_with(HashSet::new);
    match set.get(why) {
        Some(s) => s,
        None => {
            let s: &'static str = Box::leak(why.to_string().into_boxed_str());
            set.insert(s);
            s
        }
    }
}

/// A side: a number, or an enclosure `[lo, hi]` (then the relation is judged on intervals and
/// a refutation is certified).
fn side(d: &Bound<'_, PyDict>, key: &str) -> PyResult<Side> {
    let v = d.get_item(key)?.ok_or_else(|| value_error(format!("relation without '{key}'")))?;
    if let Ok(x) = v.extract::<f64>() {
        return Ok(Side::from(x));
    }
    let (lo, hi): (f64, f64) = v.extract().map_err(|_| value_error(format!("'{key}' must be a number or an enclosure (lo, hi)")))?;
    if lo.partial_cmp(&hi).is_none_or(|o| o == std::cmp::Ordering::Greater) {
        return Err(value_error(format!("'{key}': an enclosure needs lo ≤ hi, got ({lo}, {hi})")));
    }
    Ok(Side::from(Interval::new(lo, hi)))
}

/// The relation dict returned by the Python side, as the engine's [`Eval`].
fn eval_of(d: &Bound<'_, PyDict>) -> PyResult<Eval> {
    let num = |key: &str, default: f64| -> PyResult<f64> { d.get_item(key)?.map_or(Ok(default), |v| v.extract::<f64>()) };
    let op: String = d.get_item("op")?.ok_or_else(|| value_error("relation without 'op'"))?.extract()?;
    let tol = Tolerance::relative(num("rtol", 0.0)?).plus_absolute(num("atol", 0.0)?);
    let scale = Scale(num("scale", 1.0)?);
    Ok(match op.as_str() {
        "le" => Eval::le(side(d, "lhs")?, side(d, "rhs")?, tol),
        "le_by" => Eval::le_by(side(d, "lhs")?, side(d, "rhs")?, scale, tol),
        "ge_by" => Eval::ge_by(side(d, "lhs")?, side(d, "rhs")?, scale, tol),
        "lt" => Eval::lt(side(d, "lhs")?, side(d, "rhs")?, scale, tol),
        "gt" => Eval::gt(side(d, "lhs")?, side(d, "rhs")?, scale, tol),
        "close" => Eval::close(side(d, "err")?, scale, tol),
        "positive" => Eval::positive(side(d, "x")?, scale),
        "all" => {
            let parts: Vec<Bound<'_, PyDict>> = d.get_item("relations")?.ok_or_else(|| value_error("'all' without 'relations'"))?.extract()?;
            parts.iter().map(eval_of).collect::<PyResult<Vec<_>>>()?.into_iter().fold(Eval::Margin(f64::INFINITY), Eval::min)
        }
        "reject" | "error" => {
            let why: String = d.get_item("why")?.map_or(Ok("rejected".to_string()), |v| v.extract())?;
            Eval::Reject(interned(&why))
        }
        other => return Err(value_error(format!("unknown relation '{other}'"))),
    })
}

/// The drawn values as Python objects (numbers, lists, lists of lists).
fn to_python<'py>(py: Python<'py>, values: &[Value]) -> PyResult<Bound<'py, PyList>> {
    let items: Vec<Bound<'py, PyAny>> = values
        .iter()
        .map(|v| match v {
            Value::Integer(x) => x.into_bound_py_any(py),
            Value::Number(x) => x.into_bound_py_any(py),
            Value::Vector(x) => x.into_bound_py_any(py),
            Value::Matrix(x) => x.into_bound_py_any(py),
            Value::Structured(x) => {
                let json = py.import("json")?;
                json.call_method1("loads", (x.to_string(),))
            }
        })
        .collect::<PyResult<_>>()?;
    PyList::new(py, items)
}

/// Calls `method` of the Python conjecture on `values`; any failure of the call itself (not of
/// the user's function, which the Python side catches and records) becomes a rejection whose
/// reason says so.
fn call(conjecture: &Py<PyAny>, method: &str, values: &[Value]) -> Eval {
    Python::attach(|py| {
        let out = to_python(py, values).and_then(|args| conjecture.bind(py).call_method1(method, (args,)));
        match out.and_then(|o| o.cast_into::<PyDict>().map_err(PyErr::from)).and_then(|d| eval_of(&d)) {
            Ok(eval) => eval,
            Err(e) => Eval::Reject(interned(&format!("the Python side failed: {e}"))),
        }
    })
}

/// The claim of a Python `Conjecture` object: its attributes `id`, `statement`, `source`
/// (file:line), `arguments` (a list of (name, strategy dict)), `cases` ([quick, standard,
/// deep]), `sides` (None or (lhs is, rhs is)), `given` (None or its description; the method
/// `_given(values)` returns the hypothesis's margin; `given_exact` says it is decided exactly,
/// `certify_given` that `_certify_given(values)` states it on enclosures), `expect` (None, "holds" or "refuted") and
/// `control` (None or what its negative control mutates; the method `_evaluate_control(values)`
/// evaluates the mutant, judged by the same property with the same options).
pub fn conjecture_claim(obj: &Bound<'_, PyAny>) -> PyResult<Claim> {
    let id: String = obj.getattr("id")?.extract()?;
    let statement: String = obj.getattr("statement")?.extract()?;
    let source: String = obj.getattr("source")?.extract()?;
    let arguments: Vec<(String, Bound<'_, PyDict>)> = obj.getattr("arguments")?.extract()?;
    let cases: [u64; 3] = obj.getattr("cases")?.extract()?;
    let sides: Option<(String, String)> = obj.getattr("sides")?.extract()?;
    let given: Option<String> = obj.getattr("given")?.extract()?;
    let given_exact: bool = obj.getattr("given_exact")?.extract()?;
    let certify_given: bool = obj.getattr("certify_given")?.extract()?;
    let expect: Option<String> = obj.getattr("expect")?.extract()?;
    let control: Option<String> = obj.getattr("control")?.extract()?;
    if arguments.is_empty() {
        return Err(value_error(format!("conjecture '{id}' draws no argument")));
    }
    let names: Vec<String> = arguments.iter().map(|(n, _)| n.clone()).collect();
    let this: Py<PyAny> = obj.clone().unbind();
    // The property evaluated by the Python method `method`, with the conjecture's options: the
    // conjecture's own, and its control's (the same check of the mutant).
    let build = |method: &'static str| -> PyResult<_> {
        let strategies: Vec<SBoxedStrategy<Value>> = arguments.iter().map(|(_, s)| strategy_of(s)).collect::<PyResult<_>>()?;
        let evaluate = this.clone_ref(obj.py());
        let names = names.clone();
        let mut p = property(cases, strategies, move |values: &Vec<Value>| call(&evaluate, method, values))
            .expand(move |values| serde_json::Value::Object(names.iter().cloned().zip(values.iter().map(|v| serde_json::json!(v))).collect()));
        if let Some(what) = &given {
            let hypothesis = this.clone_ref(obj.py());
            p = p.given(what, move |values| {
                Python::attach(|py| {
                    to_python(py, values).and_then(|args| hypothesis.bind(py).call_method1("_given", (args,))).and_then(|m| m.extract::<f64>()).unwrap_or(-1.0)
                })
            });
            // The hypothesis for certificates: decided exactly (`given_exact`: integers,
            // comparisons of exact values), or the conjecture's own relation on enclosures.
            let certifier = this.clone_ref(obj.py());
            if given_exact {
                p = p.certify_given(move |values| {
                    Python::attach(|py| {
                        let m = to_python(py, values)
                            .and_then(|args| certifier.bind(py).call_method1("_given", (args,)))
                            .and_then(|m| m.extract::<f64>())
                            .unwrap_or(-1.0);
                        Eval::holds_exactly(m >= 0.0)
                    })
                });
            } else if certify_given {
                p = p.certify_given(move |values| call(&certifier, "_certify_given", values));
            }
        }
        if let Some((lhs, rhs)) = &sides {
            p = p.sides(lhs, rhs);
        }
        Ok(p)
    };
    let p = build("_evaluate")?;
    let (file, line) = source.rsplit_once(':').unwrap_or((&source, ""));
    let mut meta = ConjectureOptions::new(&id, ("user", &format!("{file}:{line}")));
    meta.expect = match expect.as_deref() {
        None => None,
        Some("holds") => Some(VerdictKind::Holds),
        Some("refuted") => Some(VerdictKind::Refuted),
        Some(other) => return Err(value_error(format!("expect must be 'holds' or 'refuted', not '{other}'"))),
    };
    if let Some(mutation) = control {
        meta.control = Some(Control { mutation, check: Box::new(build("_evaluate_control")?) });
    }
    Ok(meta.claim(&statement, p))
}
