//! 001 Sec. 4.1, Fig. 2 (panel 4): a toy multi-query associative recall task for B'MOJO's
//! eidetic memory.
//!
//! * `001.c26.toy` (Theorem, on an idealised one-layer model; the suite's own statement, the
//!   paper reports only trained accuracies): K key–value pairs, each one token (a spike of
//!   amplitude in [1, 1.5] on a zero background, at least 8 tokens apart), pass through the
//!   fading SSM `y_t = 0.9y_{t−1} + 0.1u_t`; innovation selection (k = 1) keeps m_e tokens; the
//!   queries come 64 tokens after the last pair, beyond a window of 16, so a query is answered
//!   iff its pair is in the eidetic memory. Exactly min(m_e, K) pairs are answered: accuracy
//!   min(1, m_e/K), linear in m_e up to saturation — the shape of Fig. 2's panel 4.

use super::memory::SelectionCase;
use crate::claim::{property, Claim, Eval, Figure, Paper, Series, Style};
use crate::claim::{Scale, Tolerance};
use crate::mc::{Stream, StreamKey};
use crate::model::eidetic::TopMemory;
use crate::strategy::grid_vec;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// The fading pole ā.
const ABAR: f64 = 0.9;
/// The sliding window w (tokens).
pub const WINDOW: usize = 16;
/// Tokens between the last pair and the queries (more than the window).
pub const QUERY_GAP: usize = 64;
/// The smallest spacing between two pair tokens.
pub const MIN_SPACING: usize = 8;

/// One toy MQAR sequence: the pair tokens' positions and amplitudes, and the memory size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToyMqarCase {
    /// Positions of the K pair tokens (increasing, at least [`MIN_SPACING`] apart).
    pub positions: Vec<usize>,
    /// Their amplitudes, in [1, 1.5].
    pub amplitudes: Vec<f64>,
    /// m_e.
    pub capacity: usize,
}

impl ToyMqarCase {
    /// The input sequence: the pair spikes on a zero background, then [`QUERY_GAP`] fillers.
    pub fn selection(&self) -> SelectionCase {
        let length = self.positions.last().map_or(0, |p| p + 1) + QUERY_GAP;
        let mut u = vec![0.0; length];
        for (p, a) in self.positions.iter().zip(&self.amplitudes) {
            u[*p] = *a;
        }
        SelectionCase { abar: ABAR, u, k: 1, capacity: self.capacity }
    }
    /// The pairs whose queries are answered: those held in the eidetic memory at the end, or
    /// inside the last [`WINDOW`] tokens (none, by construction).
    pub fn answered(&self) -> usize {
        let sel = self.selection();
        let mut memory = TopMemory::new(self.capacity);
        for (t, e) in sel.eps().iter().enumerate() {
            memory.offer(t, *e);
        }
        let held = memory.positions();
        let in_window = |p: usize| p + WINDOW >= sel.u.len();
        self.positions.iter().filter(|p| held.contains(p) || in_window(**p)).count()
    }
    /// The accuracy over one query per pair.
    pub fn accuracy(&self) -> f64 {
        self.answered() as f64 / self.positions.len().max(1) as f64
    }
}

/// K ∈ 1..=24 pairs at gaps of 8..=23 tokens, amplitudes on a 1/64 grid in [1, 1.5], m_e ∈
/// 0..=32.
pub fn toy_mqar_cases() -> impl Strategy<Value = ToyMqarCase> + Clone {
    (1usize..=24, 0usize..=32)
        .prop_flat_map(|(k, m)| (proptest::collection::vec(MIN_SPACING..MIN_SPACING + 16, k), grid_vec(k, 1.0, 1.5, 1.0 / 64.0), Just(m)))
        .prop_map(|(gaps, amplitudes, capacity)| {
            let positions = gaps.iter().scan(0usize, |at, g| Some(std::mem::replace(at, *at + g))).collect();
            ToyMqarCase { positions, amplitudes, capacity }
        })
}

/// The check: answered pairs against min(m_e + `extra`, K).
fn answered_gap(c: &ToyMqarCase, extra: usize) -> Eval {
    let predicted = (c.capacity + extra).min(c.positions.len());
    Eval::le_by(c.answered().abs_diff(predicted) as f64, 0.0, Scale(1.0), Tolerance::NONE)
}

/// Accuracy against m_e for K ∈ {8, 16, 24}: one sequence per point (drawn from a fixed
/// stream) and the prediction min(1, m_e/K).
fn accuracy_figure() -> Figure {
    let key = StreamKey::new(0, "toy_mqar_figure");
    let mut figure = Figure::new("toy_mqar_accuracy", "Toy MQAR: accuracy against the eidetic memory size m_e", "m_e (eidetic tokens)", "accuracy");
    for (i, &pairs) in [8usize, 16, 24].iter().enumerate() {
        let mut measured = Vec::new();
        for capacity in (0..=32).step_by(2) {
            let mut s = Stream::new(key, (pairs * 100 + capacity) as u64);
            let positions = (0..pairs).map(|j| j * (MIN_SPACING + 8) + (s.uniform() * 8.0) as usize).collect();
            let amplitudes = (0..pairs).map(|_| 1.0 + 0.5 * s.uniform()).collect();
            let accuracy = ToyMqarCase { positions, amplitudes, capacity }.accuracy();
            measured.push([capacity as f64, accuracy]);
        }
        let predicted = (0..=32).map(|m| [m as f64, (m as f64 / pairs as f64).min(1.0)]).collect();
        figure = figure
            .with(Series::new(format!("measured, K = {pairs}"), Style::Points, measured).color(i))
            .with(Series::new(format!("min(1, m_e/K), K = {pairs}"), Style::Dashed, predicted).color(i));
    }
    figure.caption(
        "One-layer idealisation: queries beyond the window are answered from the eidetic memory only; m_e = 0 is B'MOJO-F (fading memory alone), \
         which answers none. Each added slot adds one pair until m_e = K (Fig. 2, panel 4: 'accuracy grows with each additional tokens allocated \
         to Eidetic memory. Eventually … saturates this effect').",
    )
}

const CASES: [u64; 3] = [300, 3000, 20000];

/// `001.c26.toy` (theorem): Sec. 4.1, Fig. 2 (panel 4).
fn claim_c26_toy() -> Claim {
    Claim::theorem(
            "001.c26.toy",
            super::FAMILY,
            "Toy MQAR on an idealised one-layer B'MOJO: K ≤ 24 key–value pairs, one token each (amplitude in [1, 1.5] on a zero background, 8–23 \
             tokens apart), through y_t = 0.9y_{t−1} + 0.1u_t with innovation selection (k = 1, m_e ≤ 32 slots) and queries 64 tokens after the \
             last pair (window 16): exactly min(m_e, K) queries are answered, accuracy min(1, m_e/K) — linear in m_e until it saturates.",
            property(CASES, toy_mqar_cases(), |c: &ToyMqarCase| answered_gap(c, 0))
                .sides("|pairs answered − min(m_e, K)|", "0")
                .illustrate(|_| vec![accuracy_figure()]),
        )
        .source(
            Paper::Bmojo,
            "Sec. 4.1, Fig. 2 (panel 4)",
            "… accuracy grows with each additional tokens allocated to Eidetic memory. Eventually, a large enough model dimension saturates this effect, and the need for additional memory.",
        )
        .control("one slot more than m_e, min(m_e + 1, K)", property(CASES, toy_mqar_cases(), |c: &ToyMqarCase| answered_gap(c, 1)))
}

/// Registers the toy MQAR claim.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_c26_toy());
}
