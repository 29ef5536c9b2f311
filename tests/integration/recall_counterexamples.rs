//! The recall family's errata, recomputed independently from the JSON: 002 Lemma 1 by finite
//! differences of the enumerated population loss (no gradient formula), and the printed
//! Theorem 2 (reduced width) and Lemma 3 constructions written out again with plain arrays
//! (no `Mixer`).

use crate::common::assert_counterexamples_recompute;
use serde_json::Value;
use ssmcheck::mc::{Stream, StreamKey};
use ssmcheck::tasks::mqar::Token;

fn u(v: &Value, k: &str) -> usize {
    v[k].as_u64().unwrap() as usize
}

/// Population loss of 002's theory model at W (dense 2n×2n), by enumerating every sequence.
fn population_loss(n: usize, t: usize, w: &[f64]) -> f64 {
    let d = 2 * n;
    let count = (n - 1).pow((t - 1) as u32);
    let mut total = 0.0;
    for code in 0..count {
        let mut x = vec![0usize; t + 1];
        let mut c = code;
        for xi in &mut x[1..t] {
            *xi = 1 + c % (n - 1);
            c /= n - 1;
        }
        let mut h = vec![0.0; d];
        for i in 0..=t {
            let mut xh = vec![0.0; d];
            if i >= 1 {
                xh[x[i - 1]] = 1.0;
            }
            xh[n + x[i]] = 1.0;
            for a in 0..d {
                let delta: f64 = (0..d).map(|b| w[a * d + b] * xh[b]).sum();
                h[a] += delta * xh[a];
            }
        }
        let z: Vec<f64> = (0..n).map(|k| h[n + k] - h[k]).collect();
        let m = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let lse = m + z.iter().map(|v| (v - m).exp()).sum::<f64>().ln();
        total += lse - z[x[1]];
    }
    total / count as f64
}

fn lemma1_printed(cx: &Value) -> bool {
    let (n, t) = (u(cx, "n"), u(cx, "t"));
    let d = 2 * n;
    let eps = 1e-5;
    let fd = |a: usize| {
        let (mut p, mut m) = (vec![0.0; d * d], vec![0.0; d * d]);
        p[a * d + a] = eps;
        m[a * d + a] = -eps;
        (population_loss(n, t, &p) - population_loss(n, t, &m)) / (2.0 * eps)
    };
    let printed = |i: usize| {
        let (nf, tf) = (n as f64, t as f64);
        if i == 0 {
            -1.0 / tf
        } else if i == n {
            2.0 / tf
        } else if i < n {
            tf / (nf * nf) - 1.0 / nf
        } else {
            -tf / (nf * nf) + 1.0 / nf
        }
    };
    // Some row case misses its dominant (diagonal) entry by more than 25%.
    [0, n, 1, n + 1].iter().any(|&a| (printed(a) - fd(a)).abs() > 0.25 * fd(a).abs())
}

/// Theorem 2, step 2 as printed, written out: returns whether some query is answered wrong.
fn thm2_reduced_printed(cx: &Value) -> bool {
    // Tokens, targets and value codes as recorded in the JSON (no generator involved).
    let tokens: Vec<Token> = serde_json::from_value(cx["tokens"].clone()).unwrap();
    let targets: Vec<Option<usize>> = serde_json::from_value(cx["targets"].clone()).unwrap();
    let codes = serde_json::from_value::<ssmcheck::strategy::SignCodes>(cx["value_codes"].clone()).unwrap().entries();
    let (values, p) = (u(cx, "values"), codes[0].len());
    assert_eq!(codes.len(), values);
    assert_eq!(p, (16.0 * (2.0 * values as f64).ln()).ceil() as usize, "the printed width p = ⌈16 ln(2|V|)⌉");
    let (kappa, d) = (u(cx, "keys"), u(cx, "keys") + p);
    let (k, beta, c0, c1, b) = (10.0, 2.0, 1.0, 10.0, 3.0);
    let embed = |tok: Token| -> Vec<f64> {
        let mut x = vec![0.0; d];
        match tok {
            Token::Key(i) => x[i] = k,
            Token::Value(j) => (0..p).for_each(|r| x[kappa + r] = codes[j][r] + beta),
        }
        x
    };
    // State h[a][column], column = key slot; B = C = first κ coordinates of x̂.
    let mut h = vec![vec![0.0; kappa]; d];
    let mut prev = vec![0.0; d];
    let mut wrong = false;
    for (t, &tok) in tokens.iter().enumerate() {
        let x = embed(tok);
        let xh: Vec<f64> = (0..d).map(|a| (c0 * prev[a] + c1 * x[a] - b).max(0.0)).collect();
        for a in 0..d {
            for col in 0..kappa {
                h[a][col] += xh[a] * xh[col];
            }
        }
        if let Some(target) = targets[t] {
            let y: Vec<f64> = (0..d).map(|a| (0..kappa).map(|col| h[a][col] * xh[col]).sum()).collect();
            let logit = |l: usize| -> f64 {
                let w_y: f64 = (0..p).map(|r| codes[l][r] * y[kappa + r]).sum();
                let w_s: f64 = (0..p).map(|r| codes[l][r] * (c1 * beta - b)).sum();
                w_y - (c0 * k - b) * w_s
            };
            let zt = logit(target);
            wrong |= (0..values).any(|l| l != target && logit(l) >= zt);
        }
        prev = x;
    }
    wrong
}

/// Lemma 3 as printed (Δ = softplus(w x_{t−1}-slot), no shift), written out per slot.
fn lemma3_printed(cx: &Value) -> bool {
    // The token sequence as recorded in the JSON (no generator involved).
    let (vocab, len) = (u(cx, "vocab"), u(cx, "len"));
    let x: Vec<usize> = cx["tokens"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    assert_eq!(x.len(), len);
    let w = 60.0;
    let softplus = |z: f64| if z > 0.0 { z + (-z).exp().ln_1p() } else { z.exp().ln_1p() };
    // Slot j holds the value half of the last pair whose first token was j: succ[j][v].
    let mut succ = vec![vec![0.0; vocab]; vocab];
    let mut last: std::collections::HashMap<usize, usize> = Default::default();
    let mut wrong = false;
    for t in 0..len {
        for (j, row) in succ.iter_mut().enumerate() {
            let delta = softplus(w * f64::from(t >= 1 && x[t - 1] == j));
            for s in row.iter_mut() {
                *s *= (-delta).exp();
            }
        }
        if t >= 1 {
            succ[x[t - 1]][x[t]] += 1.0;
        }
        if let Some(&j) = last.get(&x[t]) {
            let target = x[j + 1];
            let row = &succ[x[t]];
            wrong |= (0..vocab).any(|v| v != target && row[v] >= row[target]);
        }
        last.insert(x[t], t);
    }
    wrong
}

#[test]
fn recall_errata_recompute_to_violations() {
    assert_counterexamples_recompute(&["002.lem1.printed", "000.thm2.reduced.printed", "000.lem3.printed"], |id, cx| match id {
        "002.lem1.printed" => lemma1_printed(cx),
        "000.thm2.reduced.printed" => thm2_reduced_printed(cx),
        "000.lem3.printed" => lemma3_printed(cx),
        _ => unreachable!(),
    });
}

#[test]
fn the_independent_checks_accept_true_instances() {
    // Short hard sequences are answered by the printed Lemma 3 (nothing underflows).
    let mut s = Stream::new(StreamKey::new(3, "induction-case"), 0);
    let tokens = ssmcheck::tasks::induction::sample(&mut s, 4, 200, true, 0.1).unwrap();
    assert!(!lemma3_printed(&serde_json::json!({"vocab": 4, "len": 200, "tokens": tokens})));
    // The finite-difference gradient matches the closed form of 002.lem1.exact at (4, 4).
    let (n, t) = (4, 4);
    let d = 2 * n;
    let eps = 1e-5;
    let (mut p, mut m) = (vec![0.0; d * d], vec![0.0; d * d]);
    p[d + 1] = eps;
    m[d + 1] = -eps;
    let fd = (population_loss(n, t, &p) - population_loss(n, t, &m)) / (2.0 * eps);
    let closed = ssmcheck::model::recall_toy::population_gradient(n, t, 1, 1, false);
    assert!((fd - closed).abs() < 1e-8, "{fd} vs {closed}");
}
