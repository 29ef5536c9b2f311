//! Every erratum's counterexample, as written in the results JSON, recomputes to a violation
//! with an independent implementation: the code below re-implements each model from the
//! papers' formulas (Taylor-series matrix exponential, finite differences or the complex step
//! instead of dual numbers, its own attention and recurrences) and reads nothing but the JSON.

use nalgebra::DMatrix;
use serde_json::Value;
use ssmcheck::claim::{run_claims, Budget, RunConfig, RunResults, Status};
use ssmcheck::mc::CpuBackend;
use ssmcheck::prelude::*;

type M = DMatrix<f64>;

fn mat(v: &Value) -> M {
    let rows: Vec<Vec<f64>> = serde_json::from_value(v.clone()).unwrap();
    M::from_fn(rows.len(), rows[0].len(), |i, j| rows[i][j])
}
fn vecf(v: &Value) -> Vec<f64> {
    serde_json::from_value(v.clone()).unwrap()
}
fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}
fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// e^A by Taylor series with scaling and squaring.
fn expm_taylor(a: &M) -> M {
    let n = a.nrows();
    let s = (a.norm().max(1e-300).log2().ceil() + 4.0).max(0.0) as i32;
    let b = a / 2f64.powi(s);
    let (mut term, mut sum) = (M::identity(n, n), M::identity(n, n));
    for k in 1..30 {
        term = &term * &b / k as f64;
        sum += &term;
    }
    for _ in 0..s {
        sum = &sum * &sum;
    }
    sum
}

/// ZOH by the augmented exponential, with the Taylor exponential.
fn zoh(a: &M, b: &[f64], delta: f64) -> (M, Vec<f64>) {
    let n = a.nrows();
    let mut aug = M::zeros(n + 1, n + 1);
    for i in 0..n {
        for j in 0..n {
            aug[(i, j)] = a[(i, j)] * delta;
        }
        aug[(i, n)] = b[i] * delta;
    }
    let e = expm_taylor(&aug);
    (e.view((0, 0), (n, n)).into_owned(), (0..n).map(|i| e[(i, n)]).collect())
}

/// ln ρ(M) from ‖M^{2^m}‖^{1/2^m} by repeated normalised squaring (independent of eigen-solvers).
fn log_spectral_radius(m: &M) -> f64 {
    let (mut p, mut log_norm, mut scale) = (m.clone(), 0.0, 1.0);
    for _ in 0..55 {
        p = &p * &p;
        scale *= 2.0;
        let s = p.norm();
        log_norm = 2.0 * log_norm + s.ln();
        p /= s;
    }
    log_norm / scale
}

/// Central difference of a vector function in input `i`, with Richardson extrapolation.
fn fd(x: &[f64], i: usize, g: impl Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let d = |h: f64| {
        let (mut p, mut m) = (x.to_vec(), x.to_vec());
        p[i] += h;
        m[i] -= h;
        g(&p).iter().zip(g(&m)).map(|(a, b)| (a - b) / (2.0 * h)).collect::<Vec<f64>>()
    };
    let h = 1e-4 * (1.0 + x[i].abs());
    d(h).iter().zip(d(h / 2.0)).map(|(a, b)| (4.0 * b - a) / 3.0).collect()
}

fn softplus(z: f64) -> f64 {
    if z > 0.0 {
        z + (-z).exp().ln_1p()
    } else {
        z.exp().ln_1p()
    }
}

fn results() -> RunResults {
    let registry = ssmcheck::claims::registry();
    // The decay family's errata (the stability family's are in tests/stability_counterexamples.rs).
    let errata: Vec<&Claim> = registry.iter().filter(|c| c.meta.status == Status::Erratum && c.meta.family == ssmcheck::claims::decay::FAMILY).collect();
    let cfg = RunConfig { seed: 1, budget: Budget::Quick, backend: &CpuBackend, progress: false, parallel: true };
    run_claims(&errata, &cfg)
}

fn cor1(cx: &Value) -> bool {
    let a = mat(&cx["a"]);
    let lambda1 = log_spectral_radius(&expm_taylor(&a));
    assert!(lambda1 < 0.0, "the counterexample's A must be stable");
    per_step_violated(cx, lambda1)
}

/// Whether some step has ‖v_{k+1}‖ > e^{rate·Δ_{k+1}}‖v_k‖.
fn per_step_violated(cx: &Value, rate: f64) -> bool {
    let (a, b, deltas) = (mat(&cx["a"]), vecf(&cx["b"]), vecf(&cx["deltas"]));
    let (_, mut v) = zoh(&a, &b, deltas[0]);
    for &d in &deltas[1..] {
        let (abar, _) = zoh(&a, &b, d);
        let next: Vec<f64> = (0..v.len()).map(|i| (0..v.len()).map(|j| abar[(i, j)] * v[j]).sum()).collect();
        if norm(&next) > (rate * d).exp() * norm(&v) * (1.0 + 1e-9) {
            return true;
        }
        v = next;
    }
    false
}

fn eq10_selective(cx: &Value) -> bool {
    let m = &cx["model"];
    let (a, bb, bw) = (vecf(&m["a"]), vecf(&m["b_bias"]), vecf(&m["b_weight"]));
    let (w, bias) = (f(&m["delta"]["w"]), f(&m["delta"]["b"]));
    let euler = m["disc"] == "euler";
    let (x, t, k) = (vecf(&cx["x"]), cx["t"].as_u64().unwrap() as usize, cx["k"].as_u64().unwrap() as usize);
    let coeff = |xv: f64, n: usize| {
        let d = softplus(w * xv + bias);
        let bn = bb[n] + bw[n] * xv;
        let bbar = if euler || a[n] == 0.0 { d * bn } else { (d * a[n]).exp_m1() / a[n] * bn };
        ((d * a[n]).exp(), bbar)
    };
    let run = |xs: &[f64]| {
        let mut h = vec![0.0; a.len()];
        for &xv in &xs[..t + k] {
            for (n, hn) in h.iter_mut().enumerate() {
                let (ab, bbar) = coeff(xv, n);
                *hn = ab * *hn + bbar * xv;
            }
        }
        h
    };
    let truth = fd(&x, t - 1, run);
    let printed: Vec<f64> = (0..a.len()).map(|n| (t + 1..=t + k).map(|j| coeff(x[j - 1], n).0).product::<f64>() * coeff(x[t - 1], n).1).collect();
    let err: f64 = norm(&truth.iter().zip(&printed).map(|(p, q)| p - q).collect::<Vec<_>>());
    err > 1e-4 * (norm(&truth) + norm(&printed))
}

/// Complex-step derivative `Im f(x + i·h)/h` with h = 1e−30: exact to rounding, with no
/// subtractive cancellation (Squire & Trapp 1998), independent of dual numbers.
fn complex_step(x: &[f64], i: usize, g: impl Fn(&[C]) -> Vec<C>) -> Vec<f64> {
    let h = 1e-30;
    let xs: Vec<C> = x.iter().enumerate().map(|(j, &v)| C::new(v, if j == i { h } else { 0.0 })).collect();
    g(&xs).iter().map(|z| z.im / h).collect()
}

type C = nalgebra::Complex<f64>;

fn thm1(c: &Value) -> bool {
    let (wq, wk, wv) = (mat(&c["wq"]), mat(&c["wk"]), mat(&c["wv"]));
    let (beta, causal) = (f(&c["beta"]), c["causal"].as_bool().unwrap());
    let x: Vec<Vec<f64>> = serde_json::from_value(c["x"].clone()).unwrap();
    let (t, k) = (c["t"].as_u64().unwrap() as usize, c["k"].as_u64().unwrap() as usize);
    let (tau, d, len) = (t + k, x[0].len(), x.len());
    let last = if causal { tau } else { len };
    let lin = |m: &M, v: &[C]| -> Vec<C> { (0..m.nrows()).map(|r| (0..d).map(|q| v[q] * m[(r, q)]).sum()).collect() };
    // Weights w(i, τ), i = 1..last, on complex inputs (scores analytic: softmax of β(W_Q x_i)·(W_K x_τ)).
    let weights = |flat: &[C]| -> Vec<C> {
        let key = lin(&wk, &flat[(tau - 1) * d..tau * d]);
        let s: Vec<C> = (1..=last).map(|i| lin(&wq, &flat[(i - 1) * d..i * d]).iter().zip(&key).map(|(a, b)| a * b).sum::<C>() * beta).collect();
        let mx = s.iter().map(|z| z.re).fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<C> = s.iter().map(|z| (z - mx).exp()).collect();
        let z: C = e.iter().sum();
        e.iter().map(|v| v / z).collect()
    };
    let hidden = |flat: &[C]| -> Vec<C> {
        let w = weights(flat);
        let mut h = vec![C::new(0.0, 0.0); wv.nrows()];
        for i in 1..=last {
            let v = lin(&wv, &flat[(i - 1) * d..i * d]);
            h.iter_mut().zip(v).for_each(|(a, b)| *a += w[i - 1] * b);
        }
        h
    };
    let flat: Vec<f64> = x.concat();
    let real: Vec<C> = flat.iter().map(|&v| C::new(v, 0.0)).collect();
    let w: Vec<f64> = weights(&real).iter().map(|z| z.re).collect();
    let (mut err, mut size) = (0.0f64, 0.0f64);
    for cidx in 0..d {
        let idx = (t - 1) * d + cidx;
        let truth = complex_step(&flat, idx, hidden);
        let dw = complex_step(&flat, idx, weights);
        // Eq (12) as printed: Σ_{i=1}^{τ−1} (∂w(i,τ)/∂x_t) W_V x_i + w(t,τ) W_V e_c.
        let mut printed: Vec<f64> = (0..wv.nrows()).map(|r| w[t - 1] * wv[(r, cidx)]).collect();
        for i in 1..=(tau - 1).min(last) {
            let v = &wv * nalgebra::DVector::from_column_slice(&x[i - 1]);
            printed.iter_mut().zip(v.iter()).for_each(|(p, vi)| *p += dw[i - 1] * vi);
        }
        err = err.max(norm(&truth.iter().zip(&printed).map(|(p, q)| p - q).collect::<Vec<_>>()));
        size = size.max(norm(&truth) + norm(&printed));
    }
    // Complex-step and the printed sum are both exact to ~1e−15 relative.
    err > 1e-12 * size
}

fn thm3(cx: &Value) -> bool {
    let (a, b) = (mat(&cx["a"]), vecf(&cx["b"]));
    let (g, w, h0, x) = (vecf(&cx["g"]), vecf(&cx["w"]), vecf(&cx["h0"]), vecf(&cx["x"]));
    let (t, k) = (cx["t"].as_u64().unwrap() as usize, cx["k"].as_u64().unwrap() as usize);
    let (abar, bbar) = zoh(&a, &b, f(&cx["delta"]));
    let n = b.len();
    let m_of = |xv: f64| M::from_fn(n, n, |i, j| abar[(i, j)] + xv * xv * g[i] * w[j]);
    let apply = |m: &M, v: &[f64]| -> Vec<f64> { (0..n).map(|i| (0..n).map(|j| m[(i, j)] * v[j]).sum()).collect() };
    let run = |xs: &[f64]| {
        let mut h = h0.clone();
        for &xv in xs {
            let s: f64 = h.iter().zip(&w).map(|(p, q)| p * q).sum::<f64>() * xv;
            h = apply(&abar, &h).iter().zip(&bbar).zip(&g).map(|((ah, bb), gg)| ah + bb * xv + s * xv * gg).collect();
        }
        h
    };
    let truth = fd(&x, t - 1, run);
    // ∏_{j=from}^{to} M_j v (empty = identity).
    let prod = |from: usize, to: usize, v: Vec<f64>| (from..=to).fold(v, |acc, j| apply(&m_of(x[j - 1]), &acc));
    let xt = x[t - 1];
    let interact = |v: &[f64]| -> Vec<f64> {
        let s: f64 = w.iter().zip(v).map(|(p, q)| p * q).sum();
        g.iter().map(|gi| 2.0 * xt * gi * s).collect()
    };
    let mut total = prod(t + 1, t + k, interact(&prod(1, t - 1, h0.clone())));
    for i in 1..=t {
        let term = prod(t + 1, t + k, interact(&prod(i + 1, t - 1, bbar.iter().map(|v| v * x[i - 1]).collect())));
        total.iter_mut().zip(term).for_each(|(p, q)| *p += q);
    }
    let last = prod(t + 1, t + k, bbar.clone());
    total.iter_mut().zip(last).for_each(|(p, q)| *p += q);
    let err = norm(&truth.iter().zip(&total).map(|(p, q)| p - q).collect::<Vec<_>>());
    err > 1e-5 * (norm(&truth) + norm(&total))
}

fn lem2(cx: &Value) -> bool {
    let (lambda, p, q, w, b, c0) = (f(&cx["lambda"]), f(&cx["p"]), f(&cx["q"]), f(&cx["w"]), f(&cx["b"]), f(&cx["c0"]));
    let prefix = vecf(&cx["prefix"]);
    let j = prefix.len();
    let horizon = 2000;
    let mut x = prefix.clone();
    for r in j + 1..=horizon {
        let target = c0 / (r * r) as f64;
        x.push(((target.exp_m1()).ln() - b) / w);
    }
    let run = |xs: &[f64]| {
        let mut h = 0.0;
        for &xv in xs {
            let d = softplus(w * xv + b);
            h = (-lambda * d).exp() * h + (p * xv + q) * d * xv;
        }
        vec![h]
    };
    // |∂h_T/∂x_j| at T = 2000 is an upper bound of the limit (every later factor is ≤ 1).
    let upper = fd(&x, j - 1, run)[0].abs();
    let sum_delta: f64 = prefix.iter().map(|&v| softplus(w * v + b)).sum::<f64>()
        + c0 * (std::f64::consts::PI.powi(2) / 6.0 - (1..=j).map(|r| 1.0 / (r * r) as f64).sum::<f64>());
    let c = lambda * sum_delta;
    let dbx = fd(&[x[j - 1]], 0, |v| vec![(p * v[0] + q) * softplus(w * v[0] + b) * v[0]])[0];
    upper < (-c).exp() * dbx.abs() * (1.0 - 1e-6)
}

#[test]
fn every_erratum_counterexample_recomputes_to_a_violation() {
    let results = results();
    let mut checked = 0;
    for c in &results.claims {
        let cx = c.result.counterexample.as_ref().unwrap_or_else(|| panic!("{}: no counterexample", c.meta.id));
        let violated = match c.meta.id.as_str() {
            "004.cor1.printed" => cor1(cx),
            "004.eq10.selective" => eq10_selective(cx),
            "004.thm1.printed" => thm1(cx),
            "004.thm3.printed" => thm3(cx),
            "000.lem2.printed" => lem2(cx),
            "004.eq7.printed" => eq7_undefined(cx),
            other => panic!("{other}: no independent recomputation written for this erratum"),
        };
        assert!(violated, "{}: counterexample does not recompute to a violation: {cx}", c.meta.id);
        checked += 1;
    }
    assert_eq!(checked, 6);
}

/// Eq (7) as printed, Softmax(βQKᵀ)V, is undefined under both readings of Q: as printed Q is a
/// 1 × T·d_k row and QKᵀ needs T·d_k = d_k; read like V, Q is T × d_k, Softmax(βQKᵀ) is T × 1 and
/// its product with V (T rows) needs T = 1.
fn eq7_undefined(cx: &Value) -> bool {
    let (t, dk) = (cx["x"].as_array().expect("x").len(), cx["wq"].as_array().expect("W_Q").len());
    t * dk != dk && t != 1
}

/// The largest eigenvalue of the symmetric part, as ln ρ(e^{(A+Aᵀ)/2}).
fn log_norm(a: &M) -> f64 {
    log_spectral_radius(&expm_taylor(&((a + a.transpose()) * 0.5)))
}

#[test]
fn control_counterexamples_recompute_to_violations_of_their_mutants() {
    let registry = ssmcheck::claims::registry();
    let ids = ["004.eq10", "004.cor1.normal", "004.cor1.lognorm", "004.cor1.kappa"];
    let claims: Vec<&Claim> = ids.iter().map(|id| registry.get(id).unwrap()).collect();
    let cfg = RunConfig { seed: 1, budget: Budget::Quick, backend: &CpuBackend, progress: false, parallel: true };
    for c in run_claims(&claims, &cfg).claims {
        let cx = c.control.as_ref().and_then(|k| k.result.counterexample.clone()).expect("control refuted");
        let violated = match c.meta.id.as_str() {
            // Mutant: the product started at j = t.
            "004.eq10" => {
                let (a, b, x) = (mat(&cx["a"]), vecf(&cx["b"]), vecf(&cx["x"]));
                let (t, k, delta) = (cx["t"].as_u64().unwrap() as usize, cx["k"].as_u64().unwrap() as usize, f(&cx["delta"]));
                let (abar, bbar) = zoh(&a, &b, delta);
                let apply = |v: &[f64]| -> Vec<f64> { (0..v.len()).map(|i| (0..v.len()).map(|j| abar[(i, j)] * v[j]).sum()).collect() };
                let run = |xs: &[f64]| xs[..t + k].iter().fold(vec![0.0; b.len()], |h, &xv| apply(&h).iter().zip(&bbar).map(|(p, q)| p + q * xv).collect());
                let truth = fd(&x, t - 1, run);
                let mutant = (t..=t + k).fold(bbar.clone(), |v, _| apply(&v));
                norm(&truth.iter().zip(&mutant).map(|(p, q)| p - q).collect::<Vec<_>>()) > 1e-6 * (norm(&truth) + norm(&mutant))
            }
            // Mutant: rate λ₁ − 0.05 for normal A (λ₁ recomputed independently).
            "004.cor1.normal" => {
                let lambda1 = log_spectral_radius(&expm_taylor(&mat(&cx["a"])));
                assert!((lambda1 - f(&cx["lambda1"])).abs() < 1e-6, "recorded λ₁ {} vs {lambda1}", cx["lambda1"]);
                per_step_violated(&cx, lambda1 - 0.05)
            }
            // Mutant: rate μ₂(A) − 0.05.
            "004.cor1.lognorm" => per_step_violated(&cx, log_norm(&mat(&cx["a"])) - 0.05),
            // Mutant: the cumulative bound with constant 1 instead of κ₂(V).
            "004.cor1.kappa" => {
                let v = mat(&cx["v"]);
                let lambda = vecf(&cx["lambda"]);
                let a = &v * M::from_diagonal(&nalgebra::DVector::from_vec(lambda.clone())) * v.clone().try_inverse().unwrap();
                let (b, deltas) = (vecf(&cx["b"]), vecf(&cx["deltas"]));
                let l1 = lambda.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let (_, b0) = zoh(&a, &b, deltas[0]);
                let (mut vk, mut s, mut hit) = (b0.clone(), 0.0, false);
                for &d in &deltas[1..] {
                    let (abar, _) = zoh(&a, &b, d);
                    vk = (0..vk.len()).map(|i| (0..vk.len()).map(|j| abar[(i, j)] * vk[j]).sum()).collect();
                    s += d;
                    hit |= norm(&vk) > (l1 * s).exp() * norm(&b0) * (1.0 + 1e-9);
                }
                hit
            }
            _ => unreachable!(),
        };
        assert!(violated, "{}: control counterexample does not violate its mutant: {cx}", c.meta.id);
    }
}

#[test]
fn the_independent_checks_accept_true_instances() {
    // The recomputations can say "no violation": a normal A never violates Corollary 1.
    let normal = serde_json::json!({ "a": [[-1.0, 0.5], [0.5, -2.0]], "b": [1.0, -0.5], "deltas": [0.5, 0.5, 1.0, 2.0] });
    assert!(!cor1(&normal));
    // With w = 0, Δ is constant and Eq (10) is the true derivative.
    let lti = serde_json::json!({ "model": { "a": [-0.5], "b_bias": [1.0], "b_weight": [0.0], "delta": { "w": 0.0, "b": 0.3 }, "disc": "zoh" }, "x": [0.5, -1.0, 2.0], "t": 2, "k": 1 });
    assert!(!eq10_selective(&lti));
    // With W_Q = 0 every score gradient vanishes and Eq (12) is exact even with its limit.
    let att = serde_json::json!({ "beta": 1.0, "causal": true, "k": 2, "t": 1, "wk": [[0.5]], "wq": [[0.0]], "wv": [[1.5]], "x": [[0.3], [-0.2], [0.7]], "radius": 1.0 });
    assert!(!thm1(&att));
}
