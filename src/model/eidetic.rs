//! B'MOJO's innovation selection (001 Sec. 3, Algorithm 1; App. B.2): a fixed predictor of the
//! SSM output, the innovation `ε_t`, and the eidetic memory `M_t` it fills.
//!
//! * [`innovations`]: `ŷ_t = (1/k)Σ_{j=1}^{k} y_{t−j}` (zero-padded; B.2's "running weighted
//!   average … short 1D grouped causal convolutions" with uniform weights) and
//!   `ε_t = ‖y_t − ŷ_t‖²`;
//! * [`TopMemory`]: the bounded reading, the `m_e` tokens with the largest ε so far (insert
//!   while not full; else replace the smallest if strictly larger; ties keep the older entry);
//! * [`LiteralMemory`]: Algorithm 1 as printed, `M_t ← M_{t−1} ∪ {u_t, ε_t}` if
//!   `ε_t > min_{M_{t−1}} ε` (with min ∅ = −∞), never evicting;
//! * [`top_by_innovation`]: the brute-force top-m set both are compared with.

use serde::{Deserialize, Serialize};

/// `ε_t = ‖y_t − ŷ_t‖²` with the uniform k-tap predictor over the previous outputs (zero before
/// the start).
pub fn innovations(y: &[Vec<f64>], k: usize) -> Vec<f64> {
    (0..y.len())
        .map(|t| {
            y[t].iter()
                .enumerate()
                .map(|(c, yc)| {
                    let pred = (1..=k).filter(|j| *j <= t).map(|j| y[t - j][c]).sum::<f64>() / k as f64;
                    (yc - pred) * (yc - pred)
                })
                .sum()
        })
        .collect()
}

/// One memory entry: the position of the token and its innovation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Position τ.
    pub pos: usize,
    /// ε_τ.
    pub eps: f64,
}

/// The bounded top-`m_e` eidetic memory.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TopMemory {
    /// m_e.
    pub capacity: usize,
    /// The entries, in insertion order.
    pub entries: Vec<Entry>,
}

impl TopMemory {
    /// An empty memory of `capacity` slots.
    pub fn new(capacity: usize) -> TopMemory {
        TopMemory { capacity, entries: Vec::new() }
    }

    /// The entry evicted next: the smallest ε, the newest among equal ones.
    fn weakest(&self) -> Option<usize> {
        (0..self.entries.len()).min_by(|&i, &j| self.entries[i].eps.total_cmp(&self.entries[j].eps).then(self.entries[j].pos.cmp(&self.entries[i].pos)))
    }

    /// The smallest ε held (`None` while empty).
    pub fn min_eps(&self) -> Option<f64> {
        self.weakest().map(|i| self.entries[i].eps)
    }

    /// Offers token `pos` with innovation `eps`; returns whether it was stored.
    pub fn offer(&mut self, pos: usize, eps: f64) -> bool {
        if self.capacity == 0 {
            return false;
        }
        if self.entries.len() < self.capacity {
            self.entries.push(Entry { pos, eps });
            return true;
        }
        let w = self.weakest().expect("full memory has entries");
        if eps > self.entries[w].eps {
            self.entries[w] = Entry { pos, eps };
            return true;
        }
        false
    }

    /// The stored positions, sorted.
    pub fn positions(&self) -> Vec<usize> {
        let mut p: Vec<usize> = self.entries.iter().map(|e| e.pos).collect();
        p.sort_unstable();
        p
    }
}

/// Algorithm 1's rule as printed: store if ε exceeds the smallest ε held (anything enters an
/// empty memory), never evict.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LiteralMemory {
    /// The entries, in insertion order.
    pub entries: Vec<Entry>,
}

impl LiteralMemory {
    /// Offers token `pos`; returns whether it was stored.
    pub fn offer(&mut self, pos: usize, eps: f64) -> bool {
        let min = self.entries.iter().map(|e| e.eps).fold(f64::INFINITY, f64::min);
        if self.entries.is_empty() || eps > min {
            self.entries.push(Entry { pos, eps });
            return true;
        }
        false
    }
}

/// The `m` positions with the largest ε among `eps[..=t]` (ties: the older first), sorted.
pub fn top_by_innovation(eps: &[f64], t: usize, m: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..=t).collect();
    idx.sort_by(|&i, &j| eps[j].total_cmp(&eps[i]).then(i.cmp(&j)));
    idx.truncate(m);
    idx.sort_unstable();
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_memory_is_the_brute_force_top_m_with_ties_to_the_older() {
        let eps = [1.0, 3.0, 3.0, 0.5, 2.0, 3.0, 4.0];
        let mut m = TopMemory::new(3);
        for (t, e) in eps.iter().enumerate() {
            m.offer(t, *e);
            assert_eq!(m.positions(), top_by_innovation(&eps, t, 3), "t = {t}");
        }
        assert_eq!(m.positions(), vec![1, 2, 6]);
    }

    #[test]
    fn literal_rule_never_evicts() {
        let mut m = LiteralMemory::default();
        for (t, e) in [1.0, 0.5, 2.0, 1.5].iter().enumerate() {
            m.offer(t, *e);
        }
        assert_eq!(m.entries.iter().map(|e| e.pos).collect::<Vec<_>>(), vec![0, 2, 3]);
    }

    #[test]
    fn innovation_of_a_constant_is_zero_after_k_steps() {
        let y = vec![vec![2.0]; 6];
        let e = innovations(&y, 3);
        assert_eq!(&e[3..], &[0.0, 0.0, 0.0]);
        assert!(e[0] > 0.0);
    }
}
