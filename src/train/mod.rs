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
//! - [`adam`]: the Adam optimiser over candle variables.
//!
//! Everything runs on one thread per training run (candle's CPU matrix products are given no
//! pool of their own here; the scan's channel groups are independent), so the same seed gives
//! the same weights at any thread count.

pub mod adam;
pub mod classifier;
pub mod fit;
pub mod scan_op;
pub mod task;

use crate::error::Error;

/// A candle error as this crate's error (one line, the operation named).
pub(crate) fn candle_error(what: &str, e: candle_core::Error) -> Error {
    Error::InvalidParameter(format!("{what}: {e}"))
}
