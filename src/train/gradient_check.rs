//! The test every trainable model's backward pass meets: its gradient against central
//! differences of its own loss, with a derived tolerance and a control that must be rejected.

use super::classifier::cross_entropy;
use super::fit::Classifier;
use candle_core::{Device, Tensor};

/// The cross-entropy of `model` predicting `(token + 1) mod vocab` at every position of a fixed
/// batch, and the gradient of every variable by backward.
fn loss_and_gradients(model: &dyn Classifier, tokens: &[Vec<usize>], vocab: usize) -> (f64, Vec<Vec<f64>>) {
    let positions: Vec<usize> = (0..tokens[0].len()).collect();
    let targets: Vec<Vec<usize>> = tokens.iter().map(|t| t.iter().map(|&v| (v + 1) % vocab).collect()).collect();
    let l = cross_entropy(&model.logits(tokens).unwrap(), &positions, &targets).unwrap();
    let grads = l.backward().unwrap();
    let g = model.vars().iter().map(|v| grads.get(v.as_tensor()).unwrap().flatten_all().unwrap().to_vec1::<f64>().unwrap()).collect();
    (l.to_scalar::<f64>().unwrap(), g)
}

/// Asserts that three entries of every variable of `model` (the first, the middle, the last)
/// have the gradient of central differences D(h) = (f(w + h) − f(w − h))/2h. Its error is the
/// truncation h²/6·f‴ and higher terms, estimated from the data by Richardson's |D(h) − D(2h)|/3
/// (D(2h) errs four times as much), plus the rounding of f's two evaluations, at most 4ε|f|/h
/// (f is a mean of T·batch log-sum-exps, each accurate to a few ε relative); twice their sum is
/// the tolerance. Control: `twin` (a model built exactly as `model`) has its weights moved by
/// 10⁻³ relative, and its gradients must be rejected by the same tolerance somewhere.
pub(crate) fn assert_gradients_are_central_differences(model: &dyn Classifier, twin: &dyn Classifier, tokens: &[Vec<usize>], vocab: usize, label: &str) {
    for v in twin.vars() {
        v.set(&(v.as_tensor() * 1.001).unwrap()).unwrap();
    }
    let ((f0, analytic), (_, control)) = (loss_and_gradients(model, tokens, vocab), loss_and_gradients(twin, tokens, vocab));
    let (h, eps) = (1e-5, f64::EPSILON);
    let mut control_rejected = false;
    for (k, v) in model.vars().iter().enumerate() {
        let base = v.as_tensor().flatten_all().unwrap().to_vec1::<f64>().unwrap();
        for i in [0, base.len() / 2, base.len() - 1] {
            let at = |x: f64| {
                let mut w = base.clone();
                w[i] = x;
                v.set(&Tensor::from_vec(w, v.as_tensor().dims(), &Device::Cpu).unwrap()).unwrap();
                loss_and_gradients(model, tokens, vocab).0
            };
            let central = |step: f64| (at(base[i] + step) - at(base[i] - step)) / (2.0 * step);
            let (d1, d2) = (central(h), central(2.0 * h));
            at(base[i]);
            let tol = 2.0 * ((d1 - d2).abs() / 3.0 + 4.0 * eps * f0.abs() / h);
            assert!((analytic[k][i] - d1).abs() <= tol, "{label}, variable {k}, entry {i}: backward {} vs central {d1} (tolerance {tol:.2e})", analytic[k][i]);
            control_rejected |= (control[k][i] - d1).abs() > tol;
        }
    }
    assert!(control_rejected, "{label}: gradients at weights 10⁻³ away pass as the gradient");
}
