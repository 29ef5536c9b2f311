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

use super::bmojo::{matvec, KvProjection};
use serde::{Deserialize, Serialize};

/// `elu(x) + 1`: `x + 1` for `x > 0`, `eˣ` otherwise.
pub fn elu1(x: f64) -> f64 {
    if x > 0.0 {
        x + 1.0
    } else {
        x.exp()
    }
}

/// The read-out of a shift-register realization.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
fn term(fk: &[f64], v: &[f64]) -> Vec<f64> {
    fk.iter().flat_map(|k| v.iter().map(move |x| k * x).chain(std::iter::once(*k))).collect()
}

impl LinearAttention {
    fn features(&self, u: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let p = &self.proj;
        (matvec(&p.wq, u).into_iter().map(elu1).collect(), matvec(&p.wk, u).into_iter().map(elu1).collect(), matvec(&p.wv, u))
    }

    /// The terms `[φ(k_i)v_iᵀ | φ(k_i)]` (flattened d_k × (d_v + 1)).
    pub fn terms(&self, u: &[Vec<f64>]) -> Vec<Vec<f64>> {
        u.iter().map(|x| self.features(x)).map(|(_, k, v)| term(&k, &v)).collect()
    }

    /// `φ(q)ᵀZ` normalised: the first d_v columns over the last.
    fn read(&self, u: &[f64], z: &[f64]) -> Vec<f64> {
        let (q, _, v) = self.features(u);
        let cols = v.len() + 1;
        let mut out = vec![0.0; cols];
        for (r, qr) in q.iter().enumerate() {
            out.iter_mut().zip(&z[r * cols..(r + 1) * cols]).for_each(|(o, x)| *o += qr * x);
        }
        let den = out.pop().expect("d_v + 1 ≥ 1 columns");
        out.into_iter().map(|n| n / den).collect()
    }

    /// Eq (11) over the last `window` tokens (`None`: the full prefix), term by term.
    pub fn direct(&self, u: &[Vec<f64>], window: Option<usize>) -> Vec<Vec<f64>> {
        (0..u.len())
            .map(|t| {
                let (q, _, v) = self.features(&u[t]);
                let lo = window.map_or(0, |k| (t + 1).saturating_sub(k));
                let (mut num, mut den) = (vec![0.0; v.len()], 0.0);
                for x in &u[lo..=t] {
                    let (_, k, v) = self.features(x);
                    let w = q.iter().zip(&k).fold(0.0, |s, (a, b)| s + a * b);
                    den += w;
                    num.iter_mut().zip(&v).for_each(|(n, vi)| *n += w * vi);
                }
                num.into_iter().map(|n| n / den).collect()
            })
            .collect()
    }

    /// Eq (12) as a recurrence with a constant-size state.
    pub fn recurrent(&self, u: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let mut s: Vec<f64> = Vec::new();
        u.iter()
            .map(|x| {
                let (_, k, v) = self.features(x);
                let t = term(&k, &v);
                s.resize(t.len(), 0.0);
                s.iter_mut().zip(&t).for_each(|(a, b)| *a += b);
                self.read(x, &s)
            })
            .collect()
    }

    /// The state size of [`Self::recurrent`]: `d_k(d_v + 1)` numbers.
    pub fn recurrent_state_size(&self) -> usize {
        self.proj.dk() * (self.proj.wv.len() + 1)
    }

    /// A shift-register realization (eqs 13, 18 and their corrections).
    pub fn shift_register(&self, u: &[Vec<f64>], reg: ShiftRegister) -> Vec<Vec<f64>> {
        let width = self.recurrent_state_size();
        let mut slots = vec![vec![0.0; width]; reg.slots];
        u.iter()
            .map(|x| {
                let (_, k, v) = self.features(x);
                let t = term(&k, &v);
                let mut z = match reg.readout {
                    Readout::AllSlots => slots.iter().fold(vec![0.0; width], |mut acc, s| {
                        acc.iter_mut().zip(s).for_each(|(a, b)| *a += b);
                        acc
                    }),
                    Readout::LastSlot => slots.last().cloned().unwrap_or_else(|| vec![0.0; width]),
                };
                z.iter_mut().zip(&t).for_each(|(a, b)| *a += b);
                let y = self.read(x, &z);
                if reg.slots > 0 {
                    let mut last = t;
                    if reg.integrator {
                        last.iter_mut().zip(&slots[reg.slots - 1]).for_each(|(a, b)| *a += b);
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
        let full = la.direct(&u, None);
        let close = |a: &[Vec<f64>], b: &[Vec<f64>]| a.iter().flatten().zip(b.iter().flatten()).all(|(x, y)| (x - y).abs() < 1e-12);
        assert!(close(&la.recurrent(&u), &full));
        let corrected18 = ShiftRegister { slots: 5, integrator: true, readout: Readout::LastSlot };
        assert!(close(&la.shift_register(&u, corrected18), &full));
        let window13 = ShiftRegister { slots: 3, integrator: false, readout: Readout::AllSlots };
        assert!(close(&la.shift_register(&u, window13), &la.direct(&u, Some(4))));
        let printed18 = ShiftRegister { slots: 5, integrator: true, readout: Readout::AllSlots };
        assert!(!close(&la.shift_register(&u, printed18), &full));
    }
}
