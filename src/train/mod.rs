//! Training the suite's models by gradient descent, on the CPU, in f64, with candle's
//! reverse-mode autograd (`candle-core`).
//!
//! Three of the five papers rest claims on trained models (000 Table 1 and Figure 1, 002
//! Figures 5–7, 003 Figure 2). This layer provides what training needs, kept to the models the
//! suite already defines in [`crate::model`]:
//!
//! - [`scan_op`]: the S6 selective scan as a candle custom operation. Its forward pass is the
//!   engine's own vectorised scan ([`crate::model::selective_scan()`]), its backward pass the
//!   reverse-time adjoint recurrence ([`crate::model::selective_scan::selective_scan_backward`]);
//!   [`scan_op::selective_scan_by_ops`] is the same recurrence written in candle's tensor
//!   operations, whose op-by-op autograd the custom operation is tested against.
//! - [`classifier`]: 000's one-layer Mamba, Mamba-2-head, S4D and Mamba-Δᵀ classifiers,
//!   optionally with Mamba's short convolution, with the same weights as the suite's
//!   [`Mixer`](crate::model::mixer::Mixer), trained on [`crate::tasks::keep_nth`] and on
//!   induction heads ([`crate::tasks::induction::InductionHeads`]).
//! - [`delta_t_scan`]: the Mamba-Δᵀ scan (000 eq 15: Δ per state slot) as a candle custom
//!   operation with its own backward pass, tested against central differences.
//! - [`recall`]: 002's simplified Mamba with learned B and C (N = |K|), the same weights as
//!   the suite's [`Mixer`](crate::model::mixer::Mixer), trained on
//!   [`crate::tasks::associative_recall::latest_association`] with the loss at the queries.
//! - [`attention`]: the one-layer softmax-attention baseline (000 Table 1's Transformer
//!   column, 002 Table 1's "1-layer TF"), the same weights as the suite's
//!   [`Attention`](crate::model::attention::Attention); its softmax is [`causal_softmax`], a
//!   custom operation with its own backward pass, tested against candle's op-by-op autograd.
//! - [`mamba_block`]: the Mamba block as the papers train it (input projection, causal
//!   depthwise convolution, SiLU, selective or time-invariant Δ, B, C, the D skip, the gate, the
//!   output projection) and a language model of L such blocks with RMSNorm and residual
//!   connections, checked against state-spaces/mamba's `mamba_inner_ref`; its convolution is
//!   [`causal_conv`], one custom operation with its own backward pass, bit for bit the
//!   op-by-op graph it replaced, and its projections [`batched_matmul`], one weight matrix for
//!   the whole batch (no copy per sequence), bit for bit the product with the copies.
//! - [`transformer`]: the Transformer language model the papers set beside their SSMs (L
//!   pre-norm layers of causal multi-head attention with RoPE or no positions, an optional short
//!   convolution, and a GELU MLP): 002 Table 1's two-layer rows, 003 §4.3's TF; its GELU is
//!   [`gelu`], one custom operation with its own backward pass, and its RoPE [`rope`], one
//!   custom operation bit for bit the op-by-op graph it replaced.
//! - [`activation`]: SiLU and softplus, each one custom operation bit for bit candle's
//!   op-by-op graph and its autograd (the Mamba blocks', 002's and 000's models use them);
//!   `values` reads the views these operations receive.
//! - [`adam`]: the Adam optimiser over candle variables; [`fit`]: seeded training runs;
//!   [`allocator`]: glibc's thresholds set so that candle's per-operation buffers are reused.
//!
//! A run's initial weights, training data and held-out data come from its own Philox streams,
//! and nothing in a step depends on how many threads run it: the scan's channel groups are
//! independent, and candle's matrix products split their work by blocks of the output, never
//! inside a sum. So the same seed gives the same weights at any thread count (tested), and an
//! experiment runs its independent runs in parallel.

pub mod activation;
pub mod adam;
pub mod allocator;
pub mod attention;
pub mod batched_matmul;
pub mod causal_conv;
pub mod causal_softmax;
pub mod classifier;
pub mod delta_t_scan;
pub mod expand;
pub mod fit;
pub mod gelu;
#[cfg(test)]
mod gradient_check;
pub mod mamba_block;
pub mod recall;
pub mod rope;
pub mod scan_op;
pub mod transformer;
mod values;

use crate::error::{Error, Result};
use candle_core::{Device, Tensor, Var};

/// A candle error as this crate's error (one line, the operation named).
pub(crate) fn candle_error(what: &str, e: candle_core::Error) -> Error {
    Error::Training { what: what.into(), message: e.to_string().lines().next().unwrap_or("").to_string() }
}

/// A rows × cols variable from row-major values.
pub(crate) fn var(values: Vec<f64>, rows: usize, cols: usize) -> Result<Var> {
    Var::from_tensor(&Tensor::from_vec(values, (rows, cols), &Device::Cpu).map_err(|e| candle_error("creating a weight", e))?)
        .map_err(|e| candle_error("creating a weight", e))
}

/// A rows × cols variable of entries uniform on ±bound (PyTorch's `Linear` initialisation with
/// bound 1/√fan_in), drawn from `s` in row-major order.
pub(crate) fn uniform(s: &mut crate::mc::Stream, rows: usize, cols: usize, bound: f64) -> Result<Var> {
    var((0..rows * cols).map(|_| bound * (2.0 * s.uniform() - 1.0)).collect(), rows, cols)
}

/// A matrix variable's values (rows × cols), for exporting trained weights.
pub(crate) fn var_matrix(v: &Var) -> Result<nalgebra::DMatrix<f64>> {
    let err = |e| candle_error("reading the weights", e);
    let (r, c) = v.as_tensor().dims2().map_err(err)?;
    Ok(nalgebra::DMatrix::from_row_slice(r, c, &v.as_tensor().flatten_all().and_then(|t| t.to_vec1::<f64>()).map_err(err)?))
}

pub(crate) use activation::{silu, softplus};

#[cfg(test)]
mod tests {
    #[test]
    fn a_candle_error_is_one_line_naming_the_operation() {
        let e = candle_core::Tensor::zeros((2, 3), candle_core::DType::F64, &candle_core::Device::Cpu).and_then(|t| t.reshape((4, 2))).unwrap_err();
        let message = super::candle_error("reshaping", e).to_string();
        assert!(message.starts_with("training (reshaping): "), "{message}");
        assert_eq!(message.lines().count(), 1, "{message}");
    }
}
