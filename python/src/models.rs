//! The verified models as functions of flat row-major arrays (the Python side reshapes them
//! into numpy arrays): the same code the claims check, so a notebook runs exactly what the
//! suite verified.

use crate::value_error;
use nalgebra::DVector;
use pyo3::prelude::*;
use ssmcheck::constructions::copy::{augmented, unit_delta, CopyValues, ExactCopy, FULL_BLOCK_MAX};
use ssmcheck::constructions::induction::lemma3;
use ssmcheck::constructions::mqar::{one_hot_codes, thm2_onehot, thm3_onehot, thm4};
use ssmcheck::math::linalg::{mat_from_rows, mat_to_rows, Vector};
use ssmcheck::math::Complex;
use ssmcheck::mc::{Stream, StreamKey};
use ssmcheck::model::diagonal::{DeltaRule, DiagonalSsm};
use ssmcheck::model::discretize::Discretization;
use ssmcheck::model::interaction::InteractionSsm;
use ssmcheck::model::mixer::Activation;
use ssmcheck::model::scan::diagonal_scan;
use ssmcheck::model::selective_scan::ScanInputs;
use ssmcheck::model::vector_ssm::{silu, SparseState, GATE_OFF};
use ssmcheck::model::{DeltaNet, Dplr, Lru, S4Discretization, S4dInit, Ssd};
use ssmcheck::tasks::induction;
use ssmcheck::tasks::mqar::{MqarInstance, MqarSpec, QueryPlacement, Token};

/// Mamba's S6 selective scan (`model::selective_scan`): y (L × d, flat) from δ (L × d), A
/// (N × d), B and C (L × N) and u (L × d), all flat row-major; Δ = softplus(δ) when
/// `delta_softplus`.
#[pyfunction]
#[pyo3(signature = (d, n, length, delta, a, b, c, u, delta_softplus))]
#[allow(clippy::too_many_arguments)]
pub fn selective_scan(
    py: Python<'_>,
    d: usize,
    n: usize,
    length: usize,
    delta: Vec<f64>,
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    u: Vec<f64>,
    delta_softplus: bool,
) -> PyResult<Vec<f64>> {
    let inp = ScanInputs { d, n, len: length, delta: &delta, delta_softplus, a: &a, b: &b, c: &c, u: &u };
    inp.validate().map_err(value_error)?;
    let mut y = vec![0.0; length * d];
    py.detach(|| ssmcheck::model::selective_scan::selective_scan(&inp, &mut y)).map_err(value_error)?;
    Ok(y)
}

/// 004 eq (10) on a diagonal SSM with one input channel (`model::diagonal::DiagonalSsm`):
/// `LRD(t+k, t) = (∏ Ā_j) B̄_t` with Δ_t = softplus(w·x_t + bias) (or the fixed `delta` when
/// `w` is None) and B_t = b_bias + b_weight·x_t; times 1-based. `zoh` picks ZOH for B̄, else
/// Mamba's B̄ = ΔB.
#[pyfunction]
#[pyo3(signature = (a, b_bias, b_weight, w, bias, delta, zoh, x, t, k))]
#[allow(clippy::too_many_arguments)]
pub fn lrd_eq10(
    a: Vec<f64>,
    b_bias: Vec<f64>,
    b_weight: Vec<f64>,
    w: Option<f64>,
    bias: f64,
    delta: f64,
    zoh: bool,
    x: Vec<f64>,
    t: usize,
    k: usize,
) -> PyResult<Vec<f64>> {
    if a.len() != b_bias.len() || a.len() != b_weight.len() || a.is_empty() {
        return Err(value_error("lrd_eq10: A, b_bias and b_weight need the same positive length"));
    }
    if t == 0 || t + k > x.len() {
        return Err(value_error(format!("lrd_eq10: need 1 ≤ t and t + k ≤ len(x) = {}, got t = {t}, k = {k}", x.len())));
    }
    let rule = match w {
        Some(w) => DeltaRule::Selective { w, b: bias },
        None => DeltaRule::Fixed { delta },
    };
    let ssm = DiagonalSsm { a, b_bias, b_weight, delta: rule, disc: if zoh { Discretization::Zoh } else { Discretization::Euler } };
    Ok(ssm.lrd_eq10(&x, t, k))
}

/// The interaction-term SSM of 004 §4, eq (13), from continuous (A, B) at step Δ (ZOH), h₀ = 0:
/// the states h_1…h_T (T × H, flat) for scalar inputs x.
#[pyfunction]
#[pyo3(signature = (a, b, delta, g, w, x))]
pub fn interaction_states(a: Vec<Vec<f64>>, b: Vec<f64>, delta: f64, g: Vec<f64>, w: Vec<f64>, x: Vec<f64>) -> PyResult<Vec<f64>> {
    let h = b.len();
    if a.len() != h || a.iter().any(|r| r.len() != h) || g.len() != h || w.len() != h || h == 0 {
        return Err(value_error(format!("interaction_states: A must be H × H and B, G, W of length H = {h}")));
    }
    let ssm = InteractionSsm::from_continuous(&mat_from_rows(&a), &Vector::from_vec(b), delta, Vector::from_vec(g), Vector::from_vec(w));
    Ok(ssm.states(&x).into_iter().flatten().collect())
}

/// A random MQAR instance (κ keys, |V| values, length T ≥ 4κ, queries separated by noise, as
/// in 000 eq 47), instance `index` of `seed`'s stream: its JSON (`tokens` as `{"Key": i}` /
/// `{"Value": j}`, `targets` null off the queries).
#[pyfunction]
#[pyo3(signature = (keys, values, length, seed, index))]
pub fn mqar_instance(keys: usize, values: usize, length: usize, seed: u64, index: u64) -> PyResult<String> {
    let spec = MqarSpec { keys, values, len: length, placement: QueryPlacement::Separated };
    let inst = spec.sample(&mut Stream::new(StreamKey::new(seed, "python/mqar"), index)).map_err(value_error)?;
    serde_json::to_string(&inst).map_err(value_error)
}

/// One of 000's one-hot MQAR constructions (App. C.1), as the claims build them: Theorem 2
/// (Mamba, state size `slots`; `000.thm2`), Theorem 3 (Mamba-2 with ReLU or, `silu`, SiLU
/// convolutions, state size `slots`; `000.thm3`) or Theorem 4 (the gated S4D block, one-hot value
/// codes, β = 0; `000.thm4`; `slots` unused) — run on an MQAR instance (its JSON): the readout's
/// logits at each query with the target, and the construction's weights (embeddings of every
/// token, readout W and b) as JSON.
#[pyfunction]
#[pyo3(signature = (instance, theorem, slots, silu))]
pub fn mqar_construction(instance: &str, theorem: u8, slots: usize, silu: bool) -> PyResult<String> {
    let inst: MqarInstance = serde_json::from_str(instance).map_err(value_error)?;
    inst.spec.validate().map_err(value_error)?;
    if slots == 0 {
        return Err(value_error("slots: the state size N must be at least 1"));
    }
    let (keys, values) = (inst.spec.keys, inst.spec.values);
    let c = match theorem {
        2 => thm2_onehot(keys, values, slots),
        3 => thm3_onehot(keys, values, slots, if silu { Activation::Silu } else { Activation::Relu }),
        4 => thm4(keys, &one_hot_codes(values), 0.0, true),
        other => return Err(value_error(format!("theorem {other}: 000's MQAR constructions are Theorems 2, 3 and 4"))),
    };
    let embed = |t: Token| -> Vec<f64> { (c.embed)(t).iter().copied().collect() };
    let queries: Vec<serde_json::Value> = c.query_logits(&inst).into_iter().map(|(z, v)| serde_json::json!({ "logits": z.as_slice(), "target": v })).collect();
    let out = serde_json::json!({
        "key_embeddings": (0..keys).map(|i| embed(Token::Key(i))).collect::<Vec<_>>(),
        "value_embeddings": (0..values).map(|j| embed(Token::Value(j))).collect::<Vec<_>>(),
        "readout_w": mat_to_rows(&c.readout.w),
        "readout_b": c.readout.b.as_slice(),
        "queries": queries,
    });
    serde_json::to_string(&out).map_err(value_error)
}

/// 000 Lemma 3's induction-head layer (the `000.lem3` claims' construction: vocabulary `vocab`,
/// `slots` state slots, Δ = softplus(w([I|0]x̂ − shift))) on a token sequence: the logits at
/// every position and the induction target there (the token that followed the last earlier
/// occurrence of the current one; null where there is none), as JSON.
#[pyfunction]
#[pyo3(signature = (tokens, vocab, slots, w, shift))]
pub fn induction_lemma3(tokens: Vec<usize>, vocab: usize, slots: usize, w: f64, shift: f64) -> PyResult<String> {
    if vocab == 0 || slots == 0 || tokens.iter().any(|&t| t >= vocab) {
        return Err(value_error(format!("induction_lemma3: need vocab ≥ 1, slots ≥ 1 and every token below vocab = {vocab}")));
    }
    let (mixer, readout) = lemma3(vocab, slots, w, shift);
    let xs: Vec<DVector<f64>> = tokens.iter().map(|&v| DVector::from_fn(2 * vocab, |a, _| f64::from(a % vocab == v))).collect();
    let logits: Vec<Vec<f64>> = mixer.forward(&xs).iter().map(|y| readout.logits(y).iter().copied().collect()).collect();
    serde_json::to_string(&serde_json::json!({ "logits": logits, "targets": induction::targets(&tokens) })).map_err(value_error)
}

/// 003 Theorem 2's exact COPY construction (App. A.2; the claim `003.thm2`): input
/// x̃_i = [x_i; e_i; e_pos(i)], A = 0, Δ = 1, B_i = e_i, C_i = e_pos(i), gate off, so the SSM
/// outputs y_i = x_pos(i). `xs`: N rows of d values; `pos`: 0-based, pos(i) ≤ i. Returns the SSM
/// outputs, the block outputs (through the gate) and the targets x_pos(i) as JSON; the full block
/// for N ≤ 48 (as the claim runs it), its sparse state beyond.
#[pyfunction]
#[pyo3(signature = (xs, pos))]
pub fn copy_theorem2(xs: Vec<Vec<f64>>, pos: Vec<usize>) -> PyResult<String> {
    let n = xs.len();
    let d = xs.first().map_or(0, Vec::len);
    if n == 0 || d == 0 || xs.iter().any(|x| x.len() != d) || pos.len() != n {
        return Err(value_error("copy_theorem2: xs must be N ≥ 1 rows of the same d ≥ 1 values, and pos N positions"));
    }
    if let Some(i) = (0..n).find(|&i| pos[i] > i) {
        return Err(value_error(format!("copy_theorem2: pos[{i}] = {} lies after position {i} (COPY reads the past)", pos[i])));
    }
    if xs.iter().flatten().any(|x| !x.is_finite()) {
        return Err(value_error("copy_theorem2: the values must be finite"));
    }
    let (ssm, block): (Vec<Vec<f64>>, Vec<Vec<f64>>) = if n <= FULL_BLOCK_MAX {
        let construction = ExactCopy { len: n, values: CopyValues::Random { channels: d, amplitude: 1.0 }, values_seed: 0, a: 0.0 };
        let block = construction.block(n, d);
        let tilde = augmented(&xs, &pos);
        let head = |ys: Vec<Vec<f64>>| ys.into_iter().map(|y| y[..d].to_vec()).collect();
        (head(block.ssm.recurrence(&tilde)), head(block.forward(&tilde)))
    } else {
        let mut state = SparseState::new(0.0, d);
        let ssm: Vec<Vec<f64>> = (0..n).map(|i| state.advance(&vec![unit_delta(); d], &xs[i], &[(i, 1.0)], &[(pos[i], 1.0)])).collect();
        let gate = silu(GATE_OFF);
        let block = ssm.iter().map(|y| y.iter().map(|v| v * gate).collect()).collect();
        (ssm, block)
    };
    let target: Vec<&Vec<f64>> = pos.iter().map(|&p| &xs[p]).collect();
    serde_json::to_string(&serde_json::json!({ "ssm": ssm, "block": block, "target": target })).map_err(value_error)
}

/// Complex numbers from their real and imaginary parts (equal lengths).
fn complex(re: &[f64], im: &[f64], name: &str) -> PyResult<Vec<Complex<f64>>> {
    if re.len() != im.len() {
        return Err(value_error(format!("{name}: {} real parts and {} imaginary parts", re.len(), im.len())));
    }
    Ok(re.iter().zip(im).map(|(&r, &i)| Complex::new(r, i)).collect())
}

/// Rows of `cols` entries from a flat row-major vector.
fn rows<T: Clone>(flat: &[T], cols: usize, name: &str) -> PyResult<Vec<Vec<T>>> {
    if cols == 0 || !flat.len().is_multiple_of(cols) {
        return Err(value_error(format!("{name}: {} values are not rows of {cols}", flat.len())));
    }
    Ok(flat.chunks(cols).map(<[T]>::to_vec).collect())
}

/// Mamba-2's SSD head (`model::Ssd`) by `form`: "scan", "matrix" (M x) or "chunked" (chunks of
/// `chunk` steps); x (L × P), log-decays (L), B and C (L × N), flat. Returns y (L × P, flat).
#[pyfunction]
#[pyo3(signature = (x, p, log_decay, b, c, n, form, chunk))]
#[allow(clippy::too_many_arguments)]
pub fn ssd_forms(x: Vec<f64>, p: usize, log_decay: Vec<f64>, b: Vec<f64>, c: Vec<f64>, n: usize, form: &str, chunk: usize) -> PyResult<Vec<f64>> {
    let (x, b, c) = (rows(&x, p, "x")?, rows(&b, n, "B")?, rows(&c, n, "C")?);
    if log_decay.len() != x.len() || b.len() != x.len() || c.len() != x.len() {
        return Err(value_error("ssd: x, log_decay, B and C need one row per step"));
    }
    let head = Ssd::new(x, log_decay, b, c);
    let y = match form {
        "scan" => head.scan(),
        "matrix" => head.by_matrix(),
        "chunked" if chunk >= 1 => head.chunked(chunk),
        "chunked" => return Err(value_error("ssd: a chunk has at least one step")),
        other => return Err(value_error(format!("ssd: form '{other}' is not scan, matrix or chunked"))),
    };
    Ok(y.concat())
}

/// The SSD head's semiseparable matrix M (L × L, flat) from log-decays (L) and B, C (L × N).
#[pyfunction]
pub fn ssd_matrix(log_decay: Vec<f64>, b: Vec<f64>, c: Vec<f64>, n: usize) -> PyResult<Vec<f64>> {
    let (b, c) = (rows(&b, n, "B")?, rows(&c, n, "C")?);
    if b.len() != log_decay.len() || c.len() != log_decay.len() {
        return Err(value_error("ssd_matrix: log_decay, B and C need one row per step"));
    }
    Ok(Ssd::new(vec![vec![0.0]; log_decay.len()], log_decay, b, c).matrix().concat())
}

/// LRU (`model::Lru`): outputs y (T × H, flat) for inputs x (T × H), ν and θ (N), B (N × H) and C
/// (H × N) as real and imaginary parts, D (H); γlog (N) given, or normalised when None.
#[pyfunction]
#[pyo3(signature = (x, nu_log, theta_log, b_re, b_im, c_re, c_im, d, gamma_log))]
#[allow(clippy::too_many_arguments)]
pub fn lru_outputs(
    x: Vec<f64>,
    nu_log: Vec<f64>,
    theta_log: Vec<f64>,
    b_re: Vec<f64>,
    b_im: Vec<f64>,
    c_re: Vec<f64>,
    c_im: Vec<f64>,
    d: Vec<f64>,
    gamma_log: Option<Vec<f64>>,
) -> PyResult<Vec<f64>> {
    let (n, h) = (nu_log.len(), d.len());
    if theta_log.len() != n || b_re.len() != n * h || c_re.len() != h * n || gamma_log.as_ref().is_some_and(|g| g.len() != n) || n == 0 {
        return Err(value_error(format!("lru: ν, θ, γlog need N = {n} ≥ 1 entries, B N × H and C H × N with H = {h}")));
    }
    let (b, c) = (rows(&complex(&b_re, &b_im, "B")?, h, "B")?, rows(&complex(&c_re, &c_im, "C")?, n, "C")?);
    let normalised = Lru::normalised(nu_log, theta_log, b, c, d);
    let lru = match gamma_log {
        Some(g) => Lru { gamma_log: g, ..normalised },
        None => normalised,
    };
    Ok(lru.outputs(&rows(&x, h, "x")?).concat())
}

/// S4's DPLR system (`model::Dplr`) discretised with step `delta` by `rule` ("bilinear" or
/// "zoh"), its kernel C Ā^k B̄ for k < `length` as (real parts, imaginary parts). Λ, B, C (N) and
/// P (N × r, flat; r = 0 for S4D) as real and imaginary parts.
#[pyfunction]
#[pyo3(signature = (lambda_re, lambda_im, p_re, p_im, rank, b_re, b_im, c_re, c_im, delta, rule, length))]
#[allow(clippy::too_many_arguments)]
pub fn dplr_kernel(
    lambda_re: Vec<f64>,
    lambda_im: Vec<f64>,
    p_re: Vec<f64>,
    p_im: Vec<f64>,
    rank: usize,
    b_re: Vec<f64>,
    b_im: Vec<f64>,
    c_re: Vec<f64>,
    c_im: Vec<f64>,
    delta: f64,
    rule: &str,
    length: usize,
) -> PyResult<(Vec<f64>, Vec<f64>)> {
    let lambda = complex(&lambda_re, &lambda_im, "Λ")?;
    let n = lambda.len();
    let p = if rank == 0 { vec![Vec::new(); n] } else { rows(&complex(&p_re, &p_im, "P")?, rank, "P")? };
    let (b, c) = (complex(&b_re, &b_im, "B")?, complex(&c_re, &c_im, "C")?);
    if p.len() != n || b.len() != n || c.len() != n {
        return Err(value_error(format!("dplr: Λ, B, C need N = {n} entries and P N rows")));
    }
    let rule = match rule {
        "bilinear" => S4Discretization::Bilinear,
        "zoh" => S4Discretization::Zoh,
        other => return Err(value_error(format!("dplr: rule '{other}' is not bilinear or zoh"))),
    };
    let sys = Dplr { lambda, p, b, c }
        .discretize(delta, rule)
        .ok_or_else(|| value_error("dplr: I − ΔA/2 is singular, or ZOH was asked of a matrix with a low-rank part (or λ = 0)"))?;
    Ok(sys.kernel(length).iter().map(|z| (z.re, z.im)).unzip())
}

/// S4D's initial Λ (N/2 modes) for `init` "lin" or "inv", as (real parts, imaginary parts).
#[pyfunction]
pub fn s4d_lambda(init: &str, state_size: usize) -> PyResult<(Vec<f64>, Vec<f64>)> {
    let init = match init {
        "lin" => S4dInit::Lin,
        "inv" => S4dInit::Inv,
        other => return Err(value_error(format!("s4d: init '{other}' is not lin or inv"))),
    };
    if state_size == 0 || !state_size.is_multiple_of(2) {
        return Err(value_error(format!("s4d: the state size N = {state_size} must be even and positive")));
    }
    Ok(Dplr::<f64>::s4d(init, state_size).lambda.iter().map(|z| (z.re, z.im)).unzip())
}

/// The (gated) delta rule (`model::DeltaNet`): outputs o_t = S_t q_t (T × d_v, flat) from keys and
/// queries (T × d_k), values (T × d_v), β and α (T).
#[pyfunction]
#[pyo3(signature = (keys, values, queries, dk, dv, beta, gate))]
pub fn delta_net_outputs(keys: Vec<f64>, values: Vec<f64>, queries: Vec<f64>, dk: usize, dv: usize, beta: Vec<f64>, gate: Vec<f64>) -> PyResult<Vec<f64>> {
    let (k, v, q) = (rows(&keys, dk, "keys")?, rows(&values, dv, "values")?, rows(&queries, dk, "queries")?);
    let t = k.len();
    if v.len() != t || q.len() != t || beta.len() != t || gate.len() != t {
        return Err(value_error(format!("delta_net: keys, values, queries, β and α need T = {t} rows")));
    }
    Ok(DeltaNet::new(k, v, q, beta, gate).outputs().concat())
}

/// The diagonal scan h_t = a_t ⊙ h_{t−1} + u_t from h_0 (`model::scan::diagonal_scan`), complex
/// (a real scan has zero imaginary parts): decays and inputs T × N and h_0 of N, each as flat real
/// and imaginary parts. Returns the states h_1..h_T (T × N, flat), real and imaginary parts.
#[pyfunction]
#[pyo3(signature = (decays_re, decays_im, inputs_re, inputs_im, h0_re, h0_im))]
pub fn diagonal_scan_states(
    decays_re: Vec<f64>,
    decays_im: Vec<f64>,
    inputs_re: Vec<f64>,
    inputs_im: Vec<f64>,
    h0_re: Vec<f64>,
    h0_im: Vec<f64>,
) -> PyResult<(Vec<f64>, Vec<f64>)> {
    let n = h0_re.len();
    let sizes = [decays_im.len(), inputs_re.len(), inputs_im.len()];
    if h0_im.len() != n || sizes.iter().any(|&l| l != decays_re.len()) {
        return Err(value_error("diagonal_scan: decays and inputs of the same shape (T, N), h0 of N, real and imaginary parts alike"));
    }
    let complex = |re: &[f64], im: &[f64]| -> Vec<Complex<f64>> { re.iter().zip(im).map(|(&x, &y)| Complex::new(x, y)).collect() };
    let (a, u) = (rows(&complex(&decays_re, &decays_im), n, "decays")?, rows(&complex(&inputs_re, &inputs_im), n, "inputs")?);
    let h = diagonal_scan(&complex(&h0_re, &h0_im), &a, &u).concat();
    Ok((h.iter().map(|z| z.re).collect(), h.iter().map(|z| z.im).collect()))
}
