//! The Mamba block as the papers train it (000 §2 and App. D, 002 App. A, 003 §4.3: the block of
//! Gu and Dao's `Mamba` module), and a language model of L such blocks, trainable by candle.
//!
//! For a residual stream h (batch × T × d_model), with d_inner = expand · d_model:
//!
//! 1. `[x | z] = h W_inᵀ` (input projection to 2 d_inner, no bias);
//! 2. `x ← SiLU(conv(x) + b_conv)`: a depthwise causal convolution of width k per channel,
//!    `conv(x)_t[c] = Σ_{j<k} w[c, j] x_{t+j−(k−1)}[c]` (zeros before the first step);
//! 3. the SSM's inputs: with the selective mixer (S6), `[δ | B | C] = x W_xᵀ` (rank r, N, N) and
//!    `Δ = softplus(δ W_dtᵀ + b_dt)` per channel and step; with the time-invariant mixer
//!    (Mamba-S4D: the same block, Δ, B and C learned but not functions of the input),
//!    `Δ = softplus(b_dt)`, B and C fixed vectors; with the scalar-decay mixer (Mamba-2's block with
//!    one head, 000 Thm. 3), the input projection makes them instead, `[x | B | C | δ | z] =
//!    h W_inᵀ`; x, B and C are convolved together (a kernel per channel: Mamba-2's three
//!    independent convolutions), one `Δ = softplus(δ + b_dt)` per step serves every channel, one
//!    learned decay `A = −exp(A_log)` all channels and states, and D is one number; with the
//!    Δᵀ mixer (000 eq 15, Mamba-Δᵀ), as S6 but with one step size per *state slot*,
//!    `Δ = softplus(δ W_dtᵀ + b_dt)` of N entries from a δ of rank N;
//! 4. the scan `h_t = e^{ΔA} h_{t−1} + Δ B_t x_t`, `y_t = C_t h_t` with `A = −exp(A_log)`
//!    (d_inner × N), the skip `y + D ⊙ x` and the gate `⊙ SiLU(z)` (which 000's MQAR and
//!    induction-head experiments disable: [`BlockShape::gate`]); for the Δᵀ mixer eq 15's
//!    `h_t[c,n] = e^{A[c,n] Δ_t[n]} h_{t−1}[c,n] + x_t[c] B_t[n]` (no Δ on the input term);
//! 5. the output projection `y W_outᵀ` back to d_model (no bias).
//!
//! [`MambaLm`] embeds tokens, adds `block(RMSNorm(h))` to the residual stream once per layer
//! (pre-norm residual blocks), applies a final RMSNorm and a linear read-out: the structure of
//! `MambaLMHeadModel`, untied and without its fused kernels.
//!
//! Initialisation, as the module's: projections uniform on ±1/√fan_in (PyTorch's `Linear`); the
//! convolution's weights and bias uniform on ±1/√k (its `Conv1d`, depthwise); W_dt uniform on
//! ±1/√r; b_dt the inverse softplus of Δ drawn log-uniform in [10⁻³, 10⁻¹] (floored at 10⁻⁴);
//! `A_log[c, n] = ln(n + 1)` (S4D-real); D = 1; the embedding N(0, 0.02²); RMSNorm's weights 1;
//! W_out divided by √L (GPT-2's rescaling of a residual branch, which `MambaLMHeadModel` applies);
//! for the time-invariant mixer, B and C N(0, 1). The rank r is ⌈d_model / 16⌉ (the module's
//! `"auto"`). Every weight is f64 on the CPU; a run is seeded by its [`StreamKey`].
//!
//! The forward pass is checked stage by stage against state-spaces/mamba's `mamba_inner_ref` on
//! the committed fixture (`tests/integration/block_reference.rs`), and its gradients against
//! central differences (this module's tests).

use super::batched_matmul::batched_matmul;
use super::causal_conv::causal_conv;
use super::delta_t_scan::delta_t_scan;
use super::expand::{add_expanded, expand, mul_expanded};
use super::scan_op::selective_scan;
use super::{silu, softplus, uniform, var};
use crate::error::{Error, Result};
use crate::math::softplus::softplus_inv;
use crate::mc::{Stream, StreamKey};
use candle_core::{Device, Tensor, Var, D};

/// How a block's SSM gets its step size Δ and its vectors B and C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BlockMixer {
    /// S6, Mamba's selective SSM: Δ, B and C are functions of the step's input.
    Selective,
    /// S4D in Mamba's block (000's Mamba-S4D, Thm. 4): Δ (one per channel), B and C learned
    /// but the same at every step.
    TimeInvariant,
    /// Mamba-2's block with one head (000's Mamba-2, Thm. 3; Dao and Gu's `Mamba2` with one
    /// group and `headdim = d_inner`): the input projection makes x, B, C and one δ per step
    /// (and z with the gate), x, B and C pass the causal convolution together, Δ and the decay A
    /// are one number each for the whole head (A the same for every channel and state), D is
    /// one number. A_log starts at ln a with a uniform on [1, 16] (the module's
    /// `A_init_range`). One thing differs from the module: there is no gated RMSNorm before
    /// W_out (000 App. D.3 trains Mamba-2 with the gate disabled and does not say what stands
    /// in the norm's place); W_in's rows are in the order x, B, C, δ, z (the module's: z, x, B,
    /// C, δ).
    ScalarDecay,
    /// Mamba-Δᵀ (000 eq 15, §5.2): S6 with the step size along the state slots, not the
    /// channels: `Δ_t = softplus(δ_t W_dtᵀ + b_dt)` has N entries (W_dt is N × r, b_dt 1 × N),
    /// the decay of state (c, n) is `e^{A[c,n] Δ_t[n]}` and the input term `x_t[c] B_t[n]`
    /// carries no Δ ([`delta_t_scan`]). Its δ has rank r = N ([`BlockShape::dt_rank`]): eq 15
    /// leaves the rank open, and Lemma 3's construction makes Δ pick one state slot per key,
    /// which a rank below the number of slots cannot (δ's softplus is monotone in a rank-one δ,
    /// so the slots it makes large are a threshold set, never a single one).
    DeltaT,
}

/// The sizes of a [`MambaBlock`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockShape {
    /// d_model, the residual stream's width.
    pub d_model: usize,
    /// The expansion factor (d_inner = expand · d_model; Mamba's default 2).
    pub expand: usize,
    /// N, the states per channel (Mamba's default 16).
    pub n: usize,
    /// k, the convolution's width (Mamba's default 4).
    pub conv_width: usize,
    /// How Δ, B and C are made.
    pub mixer: BlockMixer,
    /// The gate `⊙ SiLU(z)` (000 App. D.3 and D.4 disable it for Mamba and Mamba-2: then z is
    /// neither computed nor learned, and W_in maps to d_inner only).
    pub gate: bool,
}

impl BlockShape {
    /// Mamba's defaults for a width d_model and N states: expand 2, a convolution of width 4,
    /// the selective mixer, the gate.
    pub fn mamba(d_model: usize, n: usize) -> BlockShape {
        BlockShape { d_model, expand: 2, n, conv_width: 4, mixer: BlockMixer::Selective, gate: true }
    }
    /// d_inner = expand · d_model.
    pub fn d_inner(&self) -> usize {
        self.expand * self.d_model
    }
    /// The rank r of Δ's projection, ⌈d_model / 16⌉ (the module's `dt_rank = "auto"`); N for the
    /// Δᵀ mixer ([`BlockMixer::DeltaT`]).
    pub fn dt_rank(&self) -> usize {
        match self.mixer {
            BlockMixer::DeltaT => self.n,
            _ => self.d_model.div_ceil(16),
        }
    }
    /// How many step sizes Δ has at a step: d_inner (one per channel), N for the Δᵀ mixer.
    fn steps_per_token(&self) -> usize {
        match self.mixer {
            BlockMixer::DeltaT => self.n,
            _ => self.d_inner(),
        }
    }
    fn check(&self) -> Result<()> {
        if self.d_model == 0 || self.expand == 0 || self.n == 0 || self.conv_width == 0 {
            return Err(Error::InvalidParameter(format!(
                "a Mamba block needs d_model, expand, N and the convolution's width all ≥ 1 (got {}, {}, {}, {})",
                self.d_model, self.expand, self.n, self.conv_width
            )));
        }
        Ok(())
    }
}

/// How a block's SSM inputs are made: the weights of its [`BlockMixer`].
#[derive(Clone, Debug)]
enum MixerWeights {
    /// W_x ((r + 2N) × d_inner), W_dt (d_inner × r; N × r for the Δᵀ mixer).
    Selective { x_proj: Var, dt_proj: Var },
    /// B and C (1 × N each).
    TimeInvariant { b: Var, c: Var },
    /// None of its own: W_in makes δ, B and C.
    ScalarDecay,
}

/// One Mamba block with trainable weights (f64, CPU), laid out as the PyTorch module's
/// (a `Linear`'s weight is out × in).
#[derive(Clone, Debug)]
pub struct MambaBlock {
    /// Its sizes.
    pub shape: BlockShape,
    /// W_in (2 d_inner × d_model; d_inner × d_model without the gate; for the scalar-decay
    /// mixer d_inner + 2N + 1 more rows).
    in_proj: Var,
    /// The convolution's weights (d_inner × k) and bias (1 × d_inner); for the scalar-decay
    /// mixer d_inner + 2N channels (x, B and C).
    conv_w: Var,
    conv_b: Var,
    mixer: MixerWeights,
    /// b_dt (1 × d_inner; 1 × 1 for the scalar-decay mixer, 1 × N for the Δᵀ mixer).
    dt_bias: Var,
    /// A_log (d_inner × N; 1 × 1 for the scalar-decay mixer).
    a_log: Var,
    /// D (1 × d_inner; 1 × 1 for the scalar-decay mixer).
    d_skip: Var,
    /// W_out (d_model × d_inner).
    out_proj: Var,
}

impl MambaBlock {
    /// Fresh weights from `key` (the module's initialisation, module doc); `layers` is the depth
    /// of the stack it sits in (W_out is divided by √layers).
    pub fn init(shape: BlockShape, layers: usize, key: StreamKey) -> Result<MambaBlock> {
        shape.check()?;
        let (dm, di, n, k, r) = (shape.d_model, shape.d_inner(), shape.n, shape.conv_width, shape.dt_rank());
        let mut s = Stream::new(key, 0);
        let scalar = shape.mixer == BlockMixer::ScalarDecay;
        let (extra, convolved) = if scalar { (2 * n + 1, di + 2 * n) } else { (0, di) };
        let in_proj = uniform(&mut s, if shape.gate { 2 * di } else { di } + extra, dm, 1.0 / (dm as f64).sqrt())?;
        let conv_bound = 1.0 / (k as f64).sqrt();
        let (conv_w, conv_b) = (uniform(&mut s, convolved, k, conv_bound)?, uniform(&mut s, 1, convolved, conv_bound)?);
        let mixer = match shape.mixer {
            BlockMixer::Selective | BlockMixer::DeltaT => MixerWeights::Selective {
                x_proj: uniform(&mut s, r + 2 * n, di, 1.0 / (di as f64).sqrt())?,
                dt_proj: uniform(&mut s, shape.steps_per_token(), r, 1.0 / (r as f64).sqrt())?,
            },
            BlockMixer::TimeInvariant => {
                MixerWeights::TimeInvariant { b: var((0..n).map(|_| s.normal()).collect(), 1, n)?, c: var((0..n).map(|_| s.normal()).collect(), 1, n)? }
            }
            BlockMixer::ScalarDecay => MixerWeights::ScalarDecay,
        };
        let dt = |u: f64| (1e-3f64.ln() + u * (1e-1f64.ln() - 1e-3f64.ln())).exp().max(1e-4);
        let (dt_bias, a_log) = if scalar {
            (var(vec![softplus_inv(dt(s.uniform()))], 1, 1)?, var(vec![(1.0 + 15.0 * s.uniform()).ln()], 1, 1)?)
        } else {
            let steps = shape.steps_per_token();
            (var((0..steps).map(|_| softplus_inv(dt(s.uniform()))).collect(), 1, steps)?, var((0..di * n).map(|i| ((i % n + 1) as f64).ln()).collect(), di, n)?)
        };
        let heads_or_channels = if scalar { 1 } else { di };
        let d_skip = var(vec![1.0; heads_or_channels], 1, heads_or_channels)?;
        let out_bound = 1.0 / ((di as f64).sqrt() * (layers.max(1) as f64).sqrt());
        let out_proj = uniform(&mut s, dm, di, out_bound)?;
        Ok(MambaBlock { shape, in_proj, conv_w, conv_b, mixer, dt_bias, a_log, d_skip, out_proj })
    }

    /// Every trainable variable.
    pub fn vars(&self) -> Vec<Var> {
        let mut v = vec![
            self.in_proj.clone(),
            self.conv_w.clone(),
            self.conv_b.clone(),
            self.dt_bias.clone(),
            self.a_log.clone(),
            self.d_skip.clone(),
            self.out_proj.clone(),
        ];
        match &self.mixer {
            MixerWeights::Selective { x_proj, dt_proj } => v.extend([x_proj.clone(), dt_proj.clone()]),
            MixerWeights::TimeInvariant { b, c } => v.extend([b.clone(), c.clone()]),
            MixerWeights::ScalarDecay => {}
        }
        v
    }

    /// The weights by the names of the PyTorch module's parameters (`in_proj.weight`,
    /// `conv1d.weight` as channels × k, `conv1d.bias`, `x_proj.weight`, `dt_proj.weight`,
    /// `dt_proj.bias`, `A_log`, `D`, `out_proj.weight`; `B` and `C` for the time-invariant
    /// mixer; neither `x_proj.weight` nor `dt_proj.weight` for the scalar-decay mixer), each as
    /// its values in row-major order.
    pub fn named_weights(&self) -> Result<Vec<(&'static str, Vec<f64>)>> {
        let values = |v: &Var| v.as_tensor().flatten_all().and_then(|t| t.to_vec1::<f64>()).map_err(|e| super::candle_error("reading the weights", e));
        let mut out = vec![("in_proj.weight", values(&self.in_proj)?), ("conv1d.weight", values(&self.conv_w)?), ("conv1d.bias", values(&self.conv_b)?)];
        match &self.mixer {
            MixerWeights::Selective { x_proj, dt_proj } => out.extend([("x_proj.weight", values(x_proj)?), ("dt_proj.weight", values(dt_proj)?)]),
            MixerWeights::TimeInvariant { b, c } => out.extend([("B", values(b)?), ("C", values(c)?)]),
            MixerWeights::ScalarDecay => {}
        }
        out.extend([
            ("dt_proj.bias", values(&self.dt_bias)?),
            ("A_log", values(&self.a_log)?),
            ("D", values(&self.d_skip)?),
            ("out_proj.weight", values(&self.out_proj)?),
        ]);
        Ok(out)
    }

    /// Sets the weight `name` (as [`named_weights`](Self::named_weights) names it) to `values`.
    pub fn set_weight(&self, name: &str, values: &[f64]) -> Result<()> {
        let target = match (name, &self.mixer) {
            ("in_proj.weight", _) => &self.in_proj,
            ("conv1d.weight", _) => &self.conv_w,
            ("conv1d.bias", _) => &self.conv_b,
            ("x_proj.weight", MixerWeights::Selective { x_proj, .. }) => x_proj,
            ("dt_proj.weight", MixerWeights::Selective { dt_proj, .. }) => dt_proj,
            ("B", MixerWeights::TimeInvariant { b, .. }) => b,
            ("C", MixerWeights::TimeInvariant { c, .. }) => c,
            ("dt_proj.bias", _) => &self.dt_bias,
            ("A_log", _) => &self.a_log,
            ("D", _) => &self.d_skip,
            ("out_proj.weight", _) => &self.out_proj,
            _ => return Err(Error::InvalidParameter(format!("a {:?} Mamba block has no weight '{name}'", self.shape.mixer))),
        };
        let dims = target.as_tensor().dims2().map_err(|e| super::candle_error("setting a weight", e))?;
        if values.len() != dims.0 * dims.1 {
            return Err(Error::InvalidParameter(format!("weight '{name}' has {} × {} entries, not {}", dims.0, dims.1, values.len())));
        }
        let t = Tensor::from_vec(values.to_vec(), dims, &Device::Cpu).map_err(|e| super::candle_error("setting a weight", e))?;
        target.set(&t).map_err(|e| super::candle_error("setting a weight", e))
    }

    /// The number of trainable parameters.
    pub fn parameters(&self) -> usize {
        self.vars().iter().map(|v| v.elem_count()).sum()
    }

    /// `[x | z] = h W_inᵀ` (batch × T × 2 d_inner; x alone without the gate; `[x | B | C | δ | z]`
    /// for the scalar-decay mixer).
    pub fn project_in(&self, h: &Tensor) -> candle_core::Result<Tensor> {
        batched_matmul(h, &self.in_proj.as_tensor().t()?)
    }

    /// `SiLU(conv(x) + b_conv)` (batch × T × d_inner): the causal depthwise convolution.
    pub fn convolve(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        silu(&causal_conv(x, self.conv_w.as_tensor(), self.conv_b.as_tensor())?)
    }

    /// The SSM's inputs for the convolved x: Δ (batch × T × d_inner; × N for the Δᵀ mixer), B
    /// and C (batch × T × N).
    /// An error for the scalar-decay mixer, whose Δ, B and C are not functions of the convolved
    /// x alone (its [`forward`](Self::forward) makes them from W_in's output).
    pub fn selection(&self, x: &Tensor) -> candle_core::Result<[Tensor; 3]> {
        let (batch, len, di) = x.dims3()?;
        let (n, r) = (self.shape.n, self.shape.dt_rank());
        match &self.mixer {
            MixerWeights::Selective { x_proj, dt_proj } => {
                let x_dbl = batched_matmul(x, &x_proj.as_tensor().t()?)?;
                let pre = add_expanded(&batched_matmul(&x_dbl.narrow(D::Minus1, 0, r)?, &dt_proj.as_tensor().t()?)?, &self.dt_bias.as_tensor().unsqueeze(0)?)?;
                Ok([softplus(&pre)?, x_dbl.narrow(D::Minus1, r, n)?.contiguous()?, x_dbl.narrow(D::Minus1, r + n, n)?.contiguous()?])
            }
            MixerWeights::TimeInvariant { b, c } => Ok([
                expand(&softplus(self.dt_bias.as_tensor())?.unsqueeze(0)?, (batch, len, di))?,
                expand(&b.as_tensor().unsqueeze(0)?, (batch, len, n))?,
                expand(&c.as_tensor().unsqueeze(0)?, (batch, len, n))?,
            ]),
            MixerWeights::ScalarDecay => Err(candle_core::Error::Msg(
                "the scalar-decay (Mamba-2) mixer makes Δ, B and C from W_in's output, not from the convolved x: use forward".into(),
            )),
        }
    }

    /// From W_in's output (of [`project_in`](Self::project_in)): the convolved x, the SSM's
    /// inputs Δ, B, C, and z (None without the gate). For the scalar-decay mixer this is the
    /// convolution over x, B and C together and Δ = softplus(δ + b_dt), one per step broadcast
    /// to every channel; for the others [`convolve`](Self::convolve) then
    /// [`selection`](Self::selection).
    pub fn ssm_inputs(&self, xz: &Tensor) -> candle_core::Result<(Tensor, [Tensor; 3], Option<Tensor>)> {
        let (batch, len, _) = xz.dims3()?;
        let (di, n) = (self.shape.d_inner(), self.shape.n);
        let (inputs, z_at) = match self.mixer {
            MixerWeights::ScalarDecay => {
                let xbc = self.convolve(&xz.narrow(D::Minus1, 0, di + 2 * n)?)?;
                let pre = add_expanded(&xz.narrow(D::Minus1, di + 2 * n, 1)?, &self.dt_bias.as_tensor().unsqueeze(0)?)?;
                let delta = expand(&softplus(&pre)?, (batch, len, di))?;
                let (b, c) = (xbc.narrow(D::Minus1, di, n)?.contiguous()?, xbc.narrow(D::Minus1, di + n, n)?.contiguous()?);
                ((xbc.narrow(D::Minus1, 0, di)?, [delta, b, c]), di + 2 * n + 1)
            }
            _ => {
                let x = self.convolve(&xz.narrow(D::Minus1, 0, di)?)?;
                let selected = self.selection(&x)?;
                ((x, selected), di)
            }
        };
        let z = if self.shape.gate { Some(xz.narrow(D::Minus1, z_at, di)?) } else { None };
        Ok((inputs.0, inputs.1, z))
    }

    /// A = −exp(A_log) in the scan's layout (N × d_inner; the scalar decay broadcast to it; the
    /// Δᵀ scan's d_inner × N).
    fn a(&self) -> candle_core::Result<Tensor> {
        let a = self.a_log.as_tensor().exp()?.neg()?;
        match self.shape.mixer {
            BlockMixer::ScalarDecay => expand(&a, (self.shape.n, self.shape.d_inner())),
            BlockMixer::DeltaT => Ok(a),
            _ => a.t()?.contiguous(),
        }
    }

    /// The scan on the convolved x with the step sizes Δ and vectors B, C of
    /// [`selection`](Self::selection), the skip and the gate: `(scan + D ⊙ x) ⊙ SiLU(z)`
    /// (batch × T × d_inner; `scan + D ⊙ x` when z is None, a block without the gate). The Δᵀ
    /// mixer's scan is eq 15's ([`delta_t_scan`]).
    pub fn mix(&self, x: &Tensor, [delta, b, c]: &[Tensor; 3], z: Option<&Tensor>) -> candle_core::Result<Tensor> {
        let y = match self.shape.mixer {
            BlockMixer::DeltaT => delta_t_scan(x, &self.a()?, delta, b, c)?,
            _ => selective_scan(&x.contiguous()?, delta, &self.a()?, b, c)?,
        };
        let y = (y + mul_expanded(x, &self.d_skip.as_tensor().unsqueeze(0)?)?)?;
        match z {
            Some(z) => y * silu(z)?,
            None => Ok(y),
        }
    }

    /// `y W_outᵀ` (batch × T × d_model).
    pub fn project_out(&self, y: &Tensor) -> candle_core::Result<Tensor> {
        batched_matmul(y, &self.out_proj.as_tensor().t()?)
    }

    /// The block on a residual stream's normalised input h (batch × T × d_model): its output,
    /// of the same shape. It is exactly the composition of its stages, [`project_in`](Self::project_in),
    /// [`convolve`](Self::convolve), [`selection`](Self::selection), [`mix`](Self::mix) and
    /// [`project_out`](Self::project_out), which the reference tests compare one by one (for
    /// the scalar-decay mixer [`ssm_inputs`](Self::ssm_inputs) in place of `convolve` and
    /// `selection`: Δ, B and C come from W_in's output and the convolution runs over x, B and C
    /// together).
    pub fn forward(&self, h: &Tensor) -> candle_core::Result<Tensor> {
        let (x, inputs, z) = self.ssm_inputs(&self.project_in(h)?)?;
        self.project_out(&self.mix(&x, &inputs, z.as_ref())?)
    }
}

/// RMSNorm (ε = 10⁻⁵, as `MambaLMHeadModel`'s): `x / √(mean(x²) + ε) ⊙ w` over the last axis.
pub fn rms_norm(x: &Tensor, weight: &Tensor) -> candle_core::Result<Tensor> {
    let scale = (x.sqr()?.mean_keepdim(D::Minus1)? + 1e-5)?.sqrt()?.recip()?;
    mul_expanded(&mul_expanded(x, &scale)?, weight)
}

/// A language model of L Mamba blocks: embedding, L pre-norm residual blocks, a final RMSNorm
/// and a linear read-out over the vocabulary (module doc).
#[derive(Clone, Debug)]
pub struct MambaLm {
    /// The vocabulary |V|.
    pub vocab: usize,
    embedding: Var,
    blocks: Vec<MambaBlock>,
    /// One RMSNorm weight (1 × d_model) per block, then the final one.
    norms: Vec<Var>,
    /// The read-out (|V| × d_model), no bias.
    head: Var,
}

impl MambaLm {
    /// Fresh weights: `layers` blocks of `shape` over a vocabulary of `vocab` tokens.
    pub fn init(shape: BlockShape, layers: usize, vocab: usize, key: StreamKey) -> Result<MambaLm> {
        if layers == 0 || vocab < 2 {
            return Err(Error::InvalidParameter(format!("a Mamba language model needs at least one layer and |V| ≥ 2 (got {layers} and {vocab})")));
        }
        let dm = shape.d_model;
        let mut s = Stream::new(key, 0);
        let embedding = var((0..vocab * dm).map(|_| 0.02 * s.normal()).collect(), vocab, dm)?;
        let blocks = (0..layers).map(|l| MambaBlock::init(shape, layers, StreamKey::new(key.as_u64(), &format!("block {l}")))).collect::<Result<Vec<_>>>()?;
        let norms = (0..=layers).map(|_| var(vec![1.0; dm], 1, dm)).collect::<Result<Vec<_>>>()?;
        let head = uniform(&mut s, vocab, dm, 1.0 / (dm as f64).sqrt())?;
        Ok(MambaLm { vocab, embedding, blocks, norms, head })
    }

    /// The blocks, first to last.
    pub fn blocks(&self) -> &[MambaBlock] {
        &self.blocks
    }

    /// Every trainable variable.
    pub fn vars(&self) -> Vec<Var> {
        let mut v = vec![self.embedding.clone(), self.head.clone()];
        v.extend(self.norms.iter().cloned());
        v.extend(self.blocks.iter().flat_map(MambaBlock::vars));
        v
    }

    /// The number of trainable parameters.
    pub fn parameters(&self) -> usize {
        self.vars().iter().map(|v| v.elem_count()).sum()
    }

    /// The logits (batch × T × |V|) of a batch of token sequences of one length.
    pub fn logits(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        let (batch, len) = (tokens.len(), tokens.first().map_or(0, Vec::len));
        let ids: Vec<u32> = tokens.iter().flatten().map(|&t| t as u32).collect();
        let mut h = self.embedding.embedding(&Tensor::from_vec(ids, batch * len, &Device::Cpu)?)?.reshape((batch, len, self.embedding.dim(1)?))?;
        for (block, norm) in self.blocks.iter().zip(&self.norms) {
            h = (&h + block.forward(&rms_norm(&h, norm.as_tensor())?)?)?;
        }
        let last = self.norms.last().expect("one norm more than blocks");
        batched_matmul(&rms_norm(&h, last.as_tensor())?, &self.head.as_tensor().t()?)
    }
}

impl super::fit::Classifier for MambaLm {
    fn vars(&self) -> Vec<Var> {
        MambaLm::vars(self)
    }
    fn logits(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        MambaLm::logits(self, tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(mixer: BlockMixer) -> BlockShape {
        BlockShape { d_model: 4, expand: 2, n: 3, conv_width: 3, mixer, gate: true }
    }

    /// The parameter count of the module with these sizes: W_in 2·d_i·d_m, the convolution
    /// d_i·k + d_i, W_x (r + 2N)·d_i, W_dt d_i·r and its bias d_i, A_log d_i·N, D d_i, W_out
    /// d_m·d_i (the time-invariant mixer: B and C, N each, for W_x and W_dt).
    #[test]
    fn parameter_counts_are_the_modules() {
        let (dm, di, n, k, r) = (4, 8, 3, 3, 1);
        let selective = MambaBlock::init(small(BlockMixer::Selective), 1, StreamKey::new(0, "t")).unwrap();
        assert_eq!(selective.parameters(), 2 * di * dm + di * k + di + (r + 2 * n) * di + di * r + di + di * n + di + dm * di);
        let invariant = MambaBlock::init(small(BlockMixer::TimeInvariant), 1, StreamKey::new(0, "t")).unwrap();
        assert_eq!(invariant.parameters(), 2 * di * dm + di * k + di + 2 * n + di + di * n + di + dm * di);
        let scalar = MambaBlock::init(small(BlockMixer::ScalarDecay), 1, StreamKey::new(0, "t")).unwrap();
        // The scalar decay: W_in also makes B, C and δ, the convolution also runs over B and C,
        // and b_dt, A_log and D are one number each.
        assert_eq!(scalar.parameters(), (2 * di + 2 * n + 1) * dm + (di + 2 * n) * (k + 1) + 1 + 1 + 1 + dm * di);
        let lm = MambaLm::init(small(BlockMixer::Selective), 2, 7, StreamKey::new(0, "t")).unwrap();
        assert_eq!(lm.parameters(), 7 * dm + 7 * dm + 3 * dm + 2 * selective.parameters());
        // Without the gate W_in maps to d_inner only.
        let ungated = MambaBlock::init(BlockShape { gate: false, ..small(BlockMixer::Selective) }, 1, StreamKey::new(0, "t")).unwrap();
        assert_eq!(selective.parameters() - ungated.parameters(), di * dm);
        // Mamba-Δᵀ: δ of rank N, W_dt N × N and b_dt N (one step size per state slot).
        let delta_t = MambaBlock::init(small(BlockMixer::DeltaT), 1, StreamKey::new(0, "t")).unwrap();
        assert_eq!(delta_t.parameters(), 2 * di * dm + di * k + di + (n + 2 * n) * di + n * n + n + di * n + di + dm * di);
    }

    /// The convolution is causal: changing the input at step t changes no output before t, and
    /// changes the outputs t .. t + k − 1 only.
    #[test]
    fn the_convolution_is_causal_with_width_k() {
        let block = MambaBlock::init(small(BlockMixer::Selective), 1, StreamKey::new(1, "t")).unwrap();
        let mut s = Stream::new(StreamKey::new(2, "x"), 0);
        let values: Vec<f64> = (0..10 * 8).map(|_| s.normal()).collect();
        let x = Tensor::from_vec(values.clone(), (1, 10, 8), &Device::Cpu).unwrap();
        let mut bumped = values;
        bumped[4 * 8 + 2] += 1.0;
        let y0 = block.convolve(&x).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
        let y1 = block.convolve(&Tensor::from_vec(bumped, (1, 10, 8), &Device::Cpu).unwrap()).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
        for t in 0..10 {
            for c in 0..8 {
                let changed = y0[t][c] != y1[t][c];
                assert_eq!(changed, c == 2 && (4..7).contains(&t), "t {t} channel {c}");
            }
        }
    }

    /// The whole model is causal: the logits up to t do not depend on tokens after t.
    #[test]
    fn the_language_model_is_causal() {
        for mixer in [BlockMixer::Selective, BlockMixer::TimeInvariant, BlockMixer::ScalarDecay, BlockMixer::DeltaT] {
            let lm = MambaLm::init(small(mixer), 2, 6, StreamKey::new(3, "t")).unwrap();
            let a = lm.logits(&[vec![1, 2, 3, 4, 5, 0]]).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
            let b = lm.logits(&[vec![1, 2, 3, 4, 0, 5]]).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
            assert_eq!(a[..4], b[..4], "{mixer:?}");
            assert_ne!(a[4], b[4], "{mixer:?}: the token at step 4 must matter there");
        }
    }

    /// Every kind of weight's gradient against central differences (`gradient_check`'s derived
    /// tolerance and control): S6 with and without the gate, Mamba-S4D, the scalar decay
    /// without the gate (as 000 trains Mamba-2) and Mamba-Δᵀ without the gate (as 000 App. D.4
    /// trains it), in a two-layer stack.
    #[test]
    fn every_gradient_is_the_central_difference() {
        let tokens = vec![vec![1, 4, 2, 0, 3, 5, 1], vec![2, 2, 5, 4, 0, 1, 3]];
        for (mixer, gate) in [
            (BlockMixer::Selective, true),
            (BlockMixer::TimeInvariant, true),
            (BlockMixer::Selective, false),
            (BlockMixer::ScalarDecay, false),
            (BlockMixer::DeltaT, false),
        ] {
            let shape = BlockShape { gate, ..small(mixer) };
            let lm = || MambaLm::init(shape, 2, 6, StreamKey::new(7, "fd")).unwrap();
            super::super::gradient_check::assert_gradients_are_central_differences(&lm(), &lm(), &tokens, 6, &format!("{mixer:?}, gate {gate}"));
        }
    }

    /// The scalar-decay mixer has one decay for the head and one Δ per step: every entry of
    /// e^{ΔA} at a step is the same; the selective mixer's are not (the control).
    #[test]
    fn the_scalar_decay_is_one_decay_per_step_for_the_head() {
        let decays = |mixer| {
            let block = MambaBlock::init(BlockShape { gate: false, ..small(mixer) }, 1, StreamKey::new(4, "t")).unwrap();
            let mut s = Stream::new(StreamKey::new(5, "x"), 0);
            let h = Tensor::from_vec((0..2 * 5 * 4).map(|_| s.normal()).collect::<Vec<f64>>(), (2, 5, 4), &Device::Cpu).unwrap();
            let (_, [delta, _, _], _) = block.ssm_inputs(&block.project_in(&h).unwrap()).unwrap();
            let a = block.a().unwrap().flatten_all().unwrap().to_vec1::<f64>().unwrap();
            let delta = delta.flatten_all().unwrap().to_vec1::<f64>().unwrap();
            // Per step (8 channels each), the distinct values of Δ_c · A[n, c].
            delta.chunks(8).map(|d| (0..a.len()).map(|i| d[i % 8] * a[i]).collect::<Vec<f64>>()).collect::<Vec<_>>()
        };
        for step in decays(BlockMixer::ScalarDecay) {
            assert!(step.iter().all(|&v| v == step[0] && v < 0.0), "{step:?}");
        }
        assert!(decays(BlockMixer::Selective).iter().all(|step| step.iter().any(|&v| v != step[0])));
    }

    /// The Δᵀ mixer's `mix` is eq 15 with the skip: against the recurrence written out here,
    /// `h[c,n] ← e^{A[c,n] Δ_t[n]} h[c,n] + x_t[c] B_t[n]`,
    /// `y_t[c] = Σ_n C_t[n] h[c,n] + D[c] x_t[c]`. Each side rounds the decay (exp within 1 ulp),
    /// its product and the sum once per state and step, so a state carries at most 3T roundings
    /// of its terms' size after T steps (decays ≤ 1), and an output adds N products and the
    /// skip: with m the largest `(1 + |C|)(|kept| + |input|) + |D x|` of the run, both sides'
    /// errors together are below `N (3T + N) ε m ≤ 4 (T + N) ε · N · m`, the bound. Control: the
    /// input term scaled by Δ_t[n] (Mamba's `Δ B x`) misses it by far more.
    #[test]
    fn the_delta_t_mixer_is_eq_15() {
        let block = MambaBlock::init(BlockShape { gate: false, ..small(BlockMixer::DeltaT) }, 1, StreamKey::new(8, "t")).unwrap();
        let (len, di, n) = (6, 8, 3);
        let mut s = Stream::new(StreamKey::new(9, "h"), 0);
        let h = Tensor::from_vec((0..len * 4).map(|_| s.normal()).collect::<Vec<f64>>(), (1, len, 4), &Device::Cpu).unwrap();
        let (x, [delta, b, c], z) = block.ssm_inputs(&block.project_in(&h).unwrap()).unwrap();
        assert!(z.is_none());
        assert_eq!(delta.dims3().unwrap(), (1, len, n), "one step size per state slot");
        let y = block.mix(&x, &[delta.clone(), b.clone(), c.clone()], None).unwrap().squeeze(0).unwrap().to_vec2::<f64>().unwrap();
        let rows = |t: &Tensor| t.squeeze(0).unwrap().to_vec2::<f64>().unwrap();
        let (x, delta, b, c) = (rows(&x), rows(&delta), rows(&b), rows(&c));
        let a = block.a_log.as_tensor().exp().unwrap().neg().unwrap().to_vec2::<f64>().unwrap();
        let d_skip = block.d_skip.as_tensor().flatten_all().unwrap().to_vec1::<f64>().unwrap();
        let recurrence = |input_times_delta: bool| {
            let mut state = vec![vec![0.0; n]; di];
            let mut out = vec![vec![0.0; di]; len];
            let mut magnitude = 0.0f64;
            for t in 0..len {
                for ch in 0..di {
                    for k in 0..n {
                        let input = x[t][ch] * b[t][k] * if input_times_delta { delta[t][k] } else { 1.0 };
                        let kept = (a[ch][k] * delta[t][k]).exp() * state[ch][k];
                        state[ch][k] = kept + input;
                        out[t][ch] += c[t][k] * state[ch][k];
                        magnitude = magnitude.max((1.0 + c[t][k].abs()) * (kept.abs() + input.abs()) + (d_skip[ch] * x[t][ch]).abs());
                    }
                    out[t][ch] += d_skip[ch] * x[t][ch];
                }
            }
            (out, magnitude)
        };
        let (expected, magnitude) = recurrence(false);
        let bound = 4.0 * (len + n) as f64 * f64::EPSILON * n as f64 * magnitude;
        let gap = |other: &[Vec<f64>]| y.iter().flatten().zip(other.iter().flatten()).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max);
        assert!(gap(&expected) <= bound, "eq 15: {} > {bound:e}", gap(&expected));
        let (mamba_input, _) = recurrence(true);
        assert!(gap(&mamba_input) > 1e6 * bound, "the control (Δ on the input term) must miss: {} against {bound:e}", gap(&mamba_input));
    }

    #[test]
    fn bad_shapes_and_names_are_one_clear_error() {
        let zero = BlockShape { n: 0, ..small(BlockMixer::Selective) };
        assert!(MambaBlock::init(zero, 1, StreamKey::new(0, "t")).unwrap_err().to_string().contains("N and the convolution's width"));
        let block = MambaBlock::init(small(BlockMixer::TimeInvariant), 1, StreamKey::new(0, "t")).unwrap();
        assert!(block.set_weight("x_proj.weight", &[0.0]).unwrap_err().to_string().contains("no weight 'x_proj.weight'"));
        assert!(block.set_weight("D", &[0.0; 3]).unwrap_err().to_string().contains("not 3"));
        assert!(MambaLm::init(small(BlockMixer::Selective), 0, 5, StreamKey::new(0, "t")).is_err());
        let scalar = MambaBlock::init(small(BlockMixer::ScalarDecay), 1, StreamKey::new(0, "t")).unwrap();
        let x = Tensor::zeros((1, 2, 8), candle_core::DType::F64, &Device::Cpu).unwrap();
        assert!(scalar.selection(&x).unwrap_err().to_string().contains("use forward"));
    }
}
