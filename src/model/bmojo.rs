//! 001's attention-side realizations (single head, no 1/√d scaling, no positional encodings):
//!
//! * [`sliding_window_attention`]: the reference, causal softmax attention over the last `window`
//!   tokens (eq 10 restricted to a window);
//! * [`BmojoF`]: Eq (1) in companion form (Sec. 3.1): a state of `N` blocks of `[k; v]`, block 1
//!   the oldest, the last block written as `Σ_i a_i ⊙ x^{(i)} + b(u_t)`, and a softmax read-out
//!   over the blocks. With every `a_i = 0` it is the nilpotent attention system of eq (9)
//!   (`A_ATT`). Two time conventions ([`Convention`]) and an optional validity mask;
//! * [`interleaved`], [`window_of`]: the chunked, interleaved sliding window of Sec. 3.3 / App. B.2;
//! * [`attend`]: softmax attention of one query over a set of tokens (B'MOJO's read-out over
//!   window, fading and eidetic tokens).

use serde::{Deserialize, Serialize};

/// The projections `q = W_Q u`, `k = W_K u`, `v = W_V u` (rows).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KvProjection {
    /// W_Q (d_k × d).
    pub wq: Vec<Vec<f64>>,
    /// W_K (d_k × d).
    pub wk: Vec<Vec<f64>>,
    /// W_V (d_v × d).
    pub wv: Vec<Vec<f64>>,
}

/// `W x` for `W` as rows.
pub fn matvec(w: &[Vec<f64>], x: &[f64]) -> Vec<f64> {
    w.iter().map(|r| r.iter().zip(x).fold(0.0, |s, (a, b)| s + a * b)).collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0, |s, (x, y)| s + x * y)
}

/// `Σ_i softmax(qᵀk_i) v_i` over the given (key, value) pairs in order, with the maximum score
/// subtracted.
pub fn softmax_read<'a>(q: &[f64], pairs: impl Iterator<Item = (&'a [f64], &'a [f64])> + Clone) -> Vec<f64> {
    let m = pairs.clone().map(|(k, _)| dot(q, k)).fold(f64::NEG_INFINITY, f64::max);
    let mut num = Vec::new();
    let mut den = 0.0;
    for (k, v) in pairs {
        let w = (dot(q, k) - m).exp();
        den += w;
        num.resize(v.len(), 0.0);
        num.iter_mut().zip(v).for_each(|(n, x)| *n += w * x);
    }
    num.into_iter().map(|n| n / den).collect()
}

impl KvProjection {
    /// The key width d_k.
    pub fn dk(&self) -> usize {
        self.wk.len()
    }
    /// `b(u) = [W_K u; W_V u]`.
    pub fn kv(&self, u: &[f64]) -> Vec<f64> {
        let mut b = matvec(&self.wk, u);
        b.extend(matvec(&self.wv, u));
        b
    }
    /// The query `W_Q u`.
    pub fn query(&self, u: &[f64]) -> Vec<f64> {
        matvec(&self.wq, u)
    }
    /// Softmax read-out of the query of `u` over `[k; v]` blocks.
    pub fn read(&self, u: &[f64], blocks: &[&[f64]]) -> Vec<f64> {
        let dk = self.dk();
        softmax_read(&self.query(u), blocks.iter().map(|b| (&b[..dk], &b[dk..])))
    }
}

/// Causal softmax attention over the last `window` tokens including the current one:
/// `y_t = Σ_{i=max(0,t−window+1)}^{t} softmax_i(q_tᵀk_i) v_i`.
pub fn sliding_window_attention(p: &KvProjection, u: &[Vec<f64>], window: usize) -> Vec<Vec<f64>> {
    let kv: Vec<Vec<f64>> = u.iter().map(|x| p.kv(x)).collect();
    (0..u.len())
        .map(|t| {
            let blocks: Vec<&[f64]> = kv[(t + 1).saturating_sub(window)..=t].iter().map(Vec::as_slice).collect();
            p.read(&u[t], &blocks)
        })
        .collect()
}

/// When the state is written relative to the read-out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Convention {
    /// Algorithm 1: `x_t = A x_{t−1} + b(u_t)`, `y_t = ρ(u_t, x_t)`: the state holds the current
    /// token, the window is N tokens.
    Inclusive,
    /// Eq (1): `x_{t+1} = A x_t + b(u_t)`, `y_t = ρ(u_t, x_t)` with ρ adding the current `(k_t, v_t)`
    /// from `u_t`: the state holds the N tokens before t, the window is N + 1.
    StrictlyCausal,
}

/// B'MOJO-F in companion form (Sec. 3.1): N blocks of width 2V (`[k; v]`), the last block
/// written as `Σ_i a_i ⊙ x^{(i)} + b(u_t)` (`a_i` per channel), softmax read-out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BmojoF {
    /// The projections.
    pub proj: KvProjection,
    /// The order N (blocks).
    pub order: usize,
    /// The last row of the companion matrix: `a_i` (N × 2V), i = 1 the oldest block.
    pub coeffs: Vec<Vec<f64>>,
    /// The time convention.
    pub convention: Convention,
    /// Read only blocks that have been written (else a zero state adds keys 0, values 0).
    pub masked: bool,
}

impl BmojoF {
    /// The nilpotent attention system of eq (9): every `a_i = 0`.
    pub fn attention(proj: KvProjection, order: usize, convention: Convention, masked: bool) -> BmojoF {
        BmojoF { coeffs: vec![vec![0.0; proj.dk() + proj.wv.len()]; order], proj, order, convention, masked }
    }

    /// The outputs `y_t` for the inputs `u`.
    pub fn run(&self, u: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let width = self.proj.dk() + self.proj.wv.len();
        let mut x = vec![vec![0.0; width]; self.order];
        let mut written = 0usize;
        let advance = |x: &mut Vec<Vec<f64>>, b: Vec<f64>| {
            let mut last = b;
            for (block, a) in x.iter().zip(&self.coeffs) {
                last.iter_mut().zip(block).zip(a).for_each(|((l, xb), ai)| *l += ai * xb);
            }
            x.remove(0);
            x.push(last);
        };
        u.iter()
            .map(|ut| {
                let b = self.proj.kv(ut);
                match self.convention {
                    Convention::Inclusive => {
                        advance(&mut x, b);
                        written += 1;
                        let valid = if self.masked { written.min(self.order) } else { self.order };
                        let blocks: Vec<&[f64]> = x[self.order - valid..].iter().map(Vec::as_slice).collect();
                        self.proj.read(ut, &blocks)
                    }
                    Convention::StrictlyCausal => {
                        let valid = if self.masked { written.min(self.order) } else { self.order };
                        let mut blocks: Vec<&[f64]> = x[self.order - valid..].iter().map(Vec::as_slice).collect();
                        blocks.push(&b);
                        let y = self.proj.read(ut, &blocks);
                        advance(&mut x, b.clone());
                        written += 1;
                        y
                    }
                }
            })
            .collect()
    }
}

/// `A_ATT` (eq 9) for N blocks of width w: identity blocks on the block super-diagonal, an all-zero
/// last block row; entries 0 and 1, as rows.
pub fn attention_matrix(order: usize, width: usize) -> Vec<Vec<f64>> {
    let n = order * width;
    (0..n).map(|r| (0..n).map(|c| f64::from(u8::from(r + width < n && c == r + width))).collect()).collect()
}

/// One position of the interleaved sequence `[F_0 E_0 C_0 F_1 E_1 C_1 …]` of App. B.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Slot {
    /// Memory token `j` (fading first, then eidetic) placed before chunk `chunk`.
    Memory {
        /// The chunk it summarises the past of.
        chunk: usize,
        /// Its index among the chunk's m memory tokens.
        j: usize,
    },
    /// The raw input token at global index g.
    Token(usize),
}

/// The interleaved sequence for `len` raw tokens, chunks of `w`, `m` memory tokens per chunk.
pub fn interleaved(len: usize, w: usize, m: usize) -> Vec<Slot> {
    let mut seq = Vec::new();
    for chunk in 0..len.div_ceil(w) {
        seq.extend((0..m).map(|j| Slot::Memory { chunk, j }));
        seq.extend((chunk * w..((chunk + 1) * w).min(len)).map(Slot::Token));
    }
    seq
}

/// What raw token `g` sees under a causal sliding window of `window` positions (self included)
/// over the interleaved sequence `seq`, in sequence order.
pub fn window_of(seq: &[Slot], g: usize, window: usize) -> &[Slot] {
    let at = seq.iter().position(|s| *s == Slot::Token(g)).expect("g is a token of the sequence");
    &seq[(at + 1).saturating_sub(window)..=at]
}

/// What App. B.2 says token `g` should see: the last w raw tokens `g−w+1..=g` and the m memory
/// tokens of its own chunk, sorted.
pub fn uniform_visible(w: usize, m: usize, g: usize) -> Vec<Slot> {
    let mut seen: Vec<Slot> = (0..m).map(|j| Slot::Memory { chunk: g / w, j }).collect();
    seen.extend(((g + 1).saturating_sub(w)..=g).map(Slot::Token));
    seen.sort();
    seen
}

/// Softmax attention of the query of `query_token` over `tokens` (each projected to `[k; v]`
/// by the same `W_K`, `W_V`: B'MOJO's read-out over window, fading and eidetic tokens).
pub fn attend(p: &KvProjection, query_token: &[f64], tokens: &[Vec<f64>]) -> Vec<f64> {
    let kv: Vec<Vec<f64>> = tokens.iter().map(|x| p.kv(x)).collect();
    let blocks: Vec<&[f64]> = kv.iter().map(Vec::as_slice).collect();
    p.read(query_token, &blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proj() -> KvProjection {
        KvProjection { wq: vec![vec![1.0, 0.5]], wk: vec![vec![0.25, -1.0]], wv: vec![vec![1.0, 2.0], vec![-1.0, 0.0]] }
    }

    #[test]
    fn masked_nilpotent_system_is_windowed_attention() {
        let u: Vec<Vec<f64>> = (0..9).map(|t| vec![(t as f64 * 0.37).sin(), (t as f64 * 0.71).cos()]).collect();
        let sys = BmojoF::attention(proj(), 3, Convention::Inclusive, true);
        assert_eq!(sys.run(&u), sliding_window_attention(&proj(), &u, 3));
        let eq1 = BmojoF::attention(proj(), 3, Convention::StrictlyCausal, true);
        assert_eq!(eq1.run(&u), sliding_window_attention(&proj(), &u, 4));
    }

    #[test]
    fn attention_matrix_is_nilpotent_of_index_n() {
        let a = attention_matrix(3, 2);
        assert_eq!(a[0][2], 1.0);
        assert_eq!(a[4].iter().sum::<f64>(), 0.0);
    }

    #[test]
    fn interleaved_window_sees_its_chunk_memory() {
        let mut seen = window_of(&interleaved(10, 3, 2), 4, 5).to_vec();
        seen.sort();
        assert_eq!(seen, uniform_visible(3, 2, 4));
        assert_eq!(
            uniform_visible(3, 2, 4),
            vec![Slot::Memory { chunk: 1, j: 0 }, Slot::Memory { chunk: 1, j: 1 }, Slot::Token(2), Slot::Token(3), Slot::Token(4)]
        );
    }
}
