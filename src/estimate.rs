//! Estimators the families use, public so a conjecture can use them too: the top Lyapunov
//! exponent of a random matrix product with its interval, and log-space LRD norms (the
//! [`DiagonalLrdJob`](crate::mc::jobs::DiagonalLrdJob) of `mc`, run by any backend).

use crate::math::linalg::Mat;
use crate::mc::{Stream, StreamKey};
use crate::model::InteractionSsm;
use crate::stats::{mean_interval, Interval};

/// λ_top of the interaction model's product ∏ M(x_j), x_j ~ N(0,1) iid, estimated independently of the LRD paths: a
/// different estimator (the Frobenius norm of the whole matrix product, renormalised every 16
/// steps, instead of the norm of one propagated vector), different code (nalgebra on the CPU,
/// not the Monte Carlo backend) and its own streams. Each replica's rate is taken after a 10%
/// burn-in; the interval is Student-t over `replicas` at `conf`.
pub fn lambda_top(model: &InteractionSsm, horizon: u64, replicas: u64, key: StreamKey, conf: f64) -> Interval {
    use rayon::prelude::*;
    let burn_in = horizon / 10;
    let rates: Vec<f64> = (0..replicas)
        .into_par_iter()
        .map(|r| {
            let mut stream = Stream::new(key, r);
            let h = model.size();
            let (mut product, mut log_norm, mut at_burn_in) = (Mat::identity(h, h), 0.0, 0.0);
            for step in 1..=horizon {
                product = model.transition(stream.normal()) * product;
                if step % 16 == 0 || step == burn_in || step == horizon {
                    let n = product.norm();
                    log_norm += n.ln();
                    product /= n;
                }
                if step == burn_in {
                    at_burn_in = log_norm;
                }
            }
            (log_norm - at_burn_in) / (horizon - burn_in) as f64
        })
        .collect();
    mean_interval(&rates, conf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::linalg::Vector;

    #[test]
    fn lambda_top_of_a_scalar_product_is_its_log_mean() {
        // Scalar h_t = (0.5 + 0.25 x²) h_{t−1}: λ_top = E ln(0.5 + 0.25x²), by quadrature
        // −0.36218 (trapezoid quadrature of the normal density on [−12, 12], step 10⁻⁴).
        let m = InteractionSsm {
            abar: Mat::from_element(1, 1, 0.5),
            bbar: Vector::zeros(1),
            g: Vector::from_element(1, 0.5),
            w: Vector::from_element(1, 0.5),
            h0: Vector::zeros(1),
        };
        let ci = lambda_top(&m, 20000, 8, StreamKey::new(1, "lambda-top-test"), 0.999);
        assert!(ci.lo < -0.36218 && -0.36218 < ci.hi && ci.hi - ci.lo < 0.05, "{ci:?}");
    }
}
