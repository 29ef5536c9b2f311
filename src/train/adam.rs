//! Adam (Kingma & Ba 2015) over candle variables, with the bias correction of the paper's
//! Algorithm 1. Deterministic: the update is elementwise.

use candle_core::{backprop::GradStore, Tensor, Var};

/// Adam's hyper-parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamConfig {
    /// Step size α.
    pub lr: f64,
    /// β₁ (first-moment decay).
    pub beta1: f64,
    /// β₂ (second-moment decay).
    pub beta2: f64,
    /// ε in the denominator.
    pub eps: f64,
}

impl Default for AdamConfig {
    /// α = 10⁻³, β₁ = 0.9, β₂ = 0.999, ε = 10⁻⁸ (the paper's defaults).
    fn default() -> Self {
        AdamConfig { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8 }
    }
}

/// The optimiser's state: the variables it updates and their two moment estimates.
pub struct Adam {
    cfg: AdamConfig,
    vars: Vec<Var>,
    m: Vec<Tensor>,
    v: Vec<Tensor>,
    step: i32,
}

impl Adam {
    /// Adam over `vars`, moments at zero (and the process's allocator set for training's churn,
    /// [`keep_freed_memory`](super::allocator::keep_freed_memory), the first time).
    pub fn new(vars: Vec<Var>, cfg: AdamConfig) -> candle_core::Result<Self> {
        super::allocator::keep_freed_memory();
        let m = vars.iter().map(|v| v.as_tensor().zeros_like()).collect::<candle_core::Result<Vec<_>>>()?;
        Ok(Adam { cfg, v: m.clone(), m, vars, step: 0 })
    }

    /// Sets the step size α (for a schedule).
    pub fn set_lr(&mut self, lr: f64) {
        self.cfg.lr = lr;
    }

    /// One step from the gradients of `loss` (a scalar): `θ ← θ − α m̂/(√v̂ + ε)`.
    pub fn backward_step(&mut self, loss: &Tensor) -> candle_core::Result<()> {
        let grads = loss.backward()?;
        self.step_with(&grads)
    }

    /// One step from gradients already computed; variables without a gradient are left alone.
    pub fn step_with(&mut self, grads: &GradStore) -> candle_core::Result<()> {
        self.step += 1;
        let AdamConfig { lr, beta1, beta2, eps } = self.cfg;
        let (c1, c2) = (1.0 - beta1.powi(self.step), 1.0 - beta2.powi(self.step));
        for ((var, m), v) in self.vars.iter().zip(&mut self.m).zip(&mut self.v) {
            let Some(g) = grads.get(var) else { continue };
            *m = ((&*m * beta1)? + (g * (1.0 - beta1))?)?;
            *v = ((&*v * beta2)? + (g.sqr()? * (1.0 - beta2))?)?;
            let update = ((&*m / c1)? / ((&*v / c2)?.sqrt()? + eps)?)?;
            var.set(&(var.as_tensor() - (update * lr)?)?)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    /// A least-squares fit must reach its minimum: (x − 3)² from x = 0.
    #[test]
    fn adam_minimises_a_quadratic() {
        let x = Var::new(&[0.0f64], &Device::Cpu).unwrap();
        let mut opt = Adam::new(vec![x.clone()], AdamConfig { lr: 0.1, ..Default::default() }).unwrap();
        for _ in 0..500 {
            let loss = (x.as_tensor() - 3.0).unwrap().sqr().unwrap().sum_all().unwrap();
            opt.backward_step(&loss).unwrap();
        }
        let got = x.as_tensor().to_vec1::<f64>().unwrap()[0];
        assert!((got - 3.0).abs() < 1e-3, "{got}");
    }
}
