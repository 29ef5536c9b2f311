//! Linear attention and its realizations (001 App. C.1–C.2.1), with the feature map
//! `φ(x) = elu(x) + 1 > 0` applied entrywise to `q = W_Q u` and `k = W_K u`:
//!
//! * [`LinearAttention::direct`]: eq (11), `y_t = Σ_{i∈I_t} φ(q_t)ᵀφ(k_i) v_i / Σ_{i∈I_t} φ(q_t)ᵀφ(k_i)`
//!   over the full prefix or a window of K tokens;
//! * [`LinearAttention::recurrent`]: eq (12) as a recurrence, `S_t = S_{t−1} + φ(k_t)v_tᵀ`,
//!   `z_t = z_{t−1} + φ(k_t)`: a state of `d_k(d_v + 1)` numbers whatever t;
//! * [`LinearAttention::shift_register`]: the canonical realizations (13) and (18): `slots`
//!   matrices `[φ(k)vᵀ | φ(k)]` shifted each step, the last slot written with the current term
//!   (and, for (18), plus itself: an integrator), read out through `1ᵀ` (all slots) or `e_lastᵀ`,
//!   plus the current term's feedthrough.

//!
//! Every computation is generic over [`Real`]: on `f64` it is the model, on
//! [`Interval`](crate::math::Interval)s an enclosure of it (the weights and inputs taken as exact).

use super::bmojo::KvProjection;
use crate::math::Real;
use serde::{Deserialize, Serialize};

/// `elu(x) + 1`: `x + 1` for `x > 0`, `eˣ` otherwise.
pub fn elu1(x: f64) -> f64 {
    elu1_in(x)
}

/// [`elu1`] in any [`Real`], the branch chosen by the value. On an interval that straddles 0
/// either branch still encloses elu1 over it: x + 1 ≤ eˣ everywhere, so [lo + 1, hi + 1] and
/// [e^lo, e^hi] both contain [e^lo, hi + 1] when lo ≤ 0 < hi.
pub fn elu1_in<R: Real>(x: R) -> R {
    if x.value() > 0.0 {
        x + 1.0
    } else {
        x.exp()
    }
}

/// `W·u` with the weights and the input taken as exact.
fn project<R: Real>(w: &[Vec<f64>], u: &[f64]) -> Vec<R> {
    w.iter().map(|r| r.iter().zip(u).fold(R::zero(), |s, (&a, &b)| s + R::cst(a) * R::cst(b))).collect()
}

/// The read-out of a shift-register realization.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Readout {
    /// `[1 … 1]`: the sum of every slot (eqs 13 and 18 as printed).
    AllSlots,
    /// `e_lastᵀ`: the last slot only.
    LastSlot,
}

/// A shift-register realization: how many slots, whether the last slot integrates, the
/// read-out. The current term `φ(k_t)v_tᵀ` is always added as feedthrough.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShiftRegister {
    /// Slots (the printed (13) and (18) have K + 1).
    pub slots: usize,
    /// Last row `[0 … 0 1]` (eq 18) instead of `[0 … 0]` (eq 13).
    pub integrator: bool,
    /// The read-out.
    pub readout: Readout,
}

/// A linear attention layer (one head).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinearAttention {
    /// The projections (φ is applied to q and k).
    pub proj: KvProjection,
}

/// One term `[φ(k)vᵀ | φ(k)]` as a d_k × (d_v + 1) matrix, rows flattened.
fn term<R: Real>(fk: &[R], v: &[R]) -> Vec<R> {
    fk.iter().flat_map(|&k| v.iter().map(move |&x| k * x).chain(std::iter::once(k))).collect()
}

impl LinearAttention {
    fn features<R: Real>(&self, u: &[f64]) -> (Vec<R>, Vec<R>, Vec<R>) {
        let p = &self.proj;
        (project(&p.wq, u).into_iter().map(elu1_in).collect(), project(&p.wk, u).into_iter().map(elu1_in).collect(), project(&p.wv, u))
    }

    /// The terms `[φ(k_i)v_iᵀ | φ(k_i)]` (flattened d_k × (d_v + 1)).
    pub fn terms<R: Real>(&self, u: &[Vec<f64>]) -> Vec<Vec<R>> {
        u.iter().map(|x| self.features(x)).map(|(_, k, v)| term(&k, &v)).collect()
    }

    /// `φ(q)ᵀZ` normalised: the first d_v columns over the last.
    fn read<R: Real>(&self, u: &[f64], z: &[R]) -> Vec<R> {
        let (q, _, v) = self.features::<R>(u);
        let cols = v.len() + 1;
        let mut out = vec![R::zero(); cols];
        for (r, &qr) in q.iter().enumerate() {
            out.iter_mut().zip(&z[r * cols..(r + 1) * cols]).for_each(|(o, &x)| *o += qr * x);
        }
        let den = out.pop().expect("d_v + 1 ≥ 1 columns");
        out.into_iter().map(|n| n / den).collect()
    }

    /// Eq (11) over the last `window` tokens (`None`: the full prefix), term by term.
    pub fn direct<R: Real>(&self, u: &[Vec<f64>], window: Option<usize>) -> Vec<Vec<R>> {
        (0..u.len())
            .map(|t| {
                let (q, _, v) = self.features::<R>(&u[t]);
                let lo = window.map_or(0, |k| (t + 1).saturating_sub(k));
                let (mut num, mut den) = (vec![R::zero(); v.len()], R::zero());
                for x in &u[lo..=t] {
                    let (_, k, v) = self.features::<R>(x);
                    let w = q.iter().zip(&k).fold(R::zero(), |s, (&a, &b)| s + a * b);
                    den += w;
                    num.iter_mut().zip(&v).for_each(|(n, &vi)| *n += w * vi);
                }
                num.into_iter().map(|n| n / den).collect()
            })
            .collect()
    }

    /// Eq (12) as a recurrence with a constant-size state.
    pub fn recurrent<R: Real>(&self, u: &[Vec<f64>]) -> Vec<Vec<R>> {
        let mut s: Vec<R> = Vec::new();
        u.iter()
            .map(|x| {
                let (_, k, v) = self.features::<R>(x);
                let t = term(&k, &v);
                s.resize(t.len(), R::zero());
                s.iter_mut().zip(&t).for_each(|(a, &b)| *a += b);
                self.read(x, &s)
            })
            .collect()
    }

    /// The state size of [`Self::recurrent`]: `d_k(d_v + 1)` numbers.
    pub fn recurrent_state_size(&self) -> usize {
        self.proj.dk() * (self.proj.wv.len() + 1)
    }

    /// A shift-register realization (eqs 13, 18 and their corrections).
    pub fn shift_register<R: Real>(&self, u: &[Vec<f64>], reg: ShiftRegister) -> Vec<Vec<R>> {
        let width = self.recurrent_state_size();
        let mut slots = vec![vec![R::zero(); width]; reg.slots];
        u.iter()
            .map(|x| {
                let (_, k, v) = self.features::<R>(x);
                let t = term(&k, &v);
                let mut z = match reg.readout {
                    Readout::AllSlots => slots.iter().fold(vec![R::zero(); width], |mut acc, s| {
                        acc.iter_mut().zip(s).for_each(|(a, &b)| *a += b);
                        acc
                    }),
                    Readout::LastSlot => slots.last().cloned().unwrap_or_else(|| vec![R::zero(); width]),
                };
                z.iter_mut().zip(&t).for_each(|(a, &b)| *a += b);
                let y = self.read(x, &z);
                if reg.slots > 0 {
                    let mut last = t;
                    if reg.integrator {
                        last.iter_mut().zip(&slots[reg.slots - 1]).for_each(|(a, &b)| *a += b);
                    }
                    slots.remove(0);
                    slots.push(last);
                }
                y
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_realizations_agree_where_they_should() {
        let proj = KvProjection { wq: vec![vec![0.5, -1.0]], wk: vec![vec![1.0, 0.25], vec![-0.5, 0.5]], wv: vec![vec![1.0, -2.0]] };
        let la = LinearAttention { proj };
        let u: Vec<Vec<f64>> = (0..12).map(|t| vec![(t as f64 * 0.9).sin(), (t as f64 * 0.4).cos()]).collect();
        let full = la.direct::<f64>(&u, None);
        let close = |a: &[Vec<f64>], b: &[Vec<f64>]| a.iter().flatten().zip(b.iter().flatten()).all(|(x, y)| (x - y).abs() < 1e-12);
        assert!(close(&la.recurrent(&u), &full));
        let corrected18 = ShiftRegister { slots: 5, integrator: true, readout: Readout::LastSlot };
        assert!(close(&la.shift_register(&u, corrected18), &full));
        let window13 = ShiftRegister { slots: 3, integrator: false, readout: Readout::AllSlots };
        assert!(close(&la.shift_register(&u, window13), &la.direct(&u, Some(4))));
        let printed18 = ShiftRegister { slots: 5, integrator: true, readout: Readout::AllSlots };
        assert!(!close(&la.shift_register(&u, printed18), &full));
        // On intervals the same code encloses the outputs (f64's among them), to rounding.
        let enclosed = la.shift_register::<crate::math::Interval>(&u, printed18);
        for (e, f) in enclosed.iter().flatten().zip(la.shift_register::<f64>(&u, printed18).iter().flatten()) {
            assert!(e.contains(*f) && e.width() < 1e-13, "{e} vs {f}");
        }
    }
}
