//! 000 Lemma 3: one-layer Mamba-Δᵀ (Δ per state slot, eq 15/117) without gate solves induction
//! heads with d = 2|V| and N = |V|.
//!
//! * `000.lem3.printed` (Erratum): with the printed `Δ = softplus(w [I|0] x̂)` every slot other than
//!   the current key has Δ = softplus(0) = ln 2, so stored answers halve each step and vanish
//!   (underflow) after ~1075 steps: hard sequences with a long gap are answered wrong.
//! * `000.lem3` (Theorem): with `Δ = softplus(w([I|0] x̂ − ½))`, w = 60, every position with an
//!   induction-head target is answered, on standard and hard sequences up to T = 2400. Control:
//!   one state slot too few (N = |V| − 1).

use crate::claim::Uncertified;
use crate::claim::{construction, Claim, Comparison, ErrorKind, Eval, Figure, Paper, Relation, Series, Style};
use crate::constructions::induction::lemma3;
use crate::constructions::mqar::correct_margin;
use crate::math::softplus::softplus;
use crate::mc::{Stream, StreamKey};
use crate::tasks::induction;
use nalgebra::DVector;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A random induction-heads sequence, drawn from `seed`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sequence {
    /// |V|.
    pub vocab: usize,
    /// T.
    pub len: usize,
    /// The hard case (a special token at r and T−1−r, absent elsewhere).
    pub hard: bool,
    /// Instance seed.
    pub seed: u64,
}

impl Sequence {
    fn tokens(&self) -> Vec<usize> {
        let mut s = Stream::new(StreamKey::new(self.seed, "induction-case"), 0);
        induction::sample(&mut s, self.vocab, self.len, self.hard, 0.1).expect("valid sizes")
    }
}

/// `(correct, scored)` over the long-gap positions of a sequence: those whose token last occurred
/// at least T/2 steps earlier (in a hard sequence, the special token's second occurrence).
fn long_gap_accuracy(seq: &Sequence, shift: f64) -> (usize, usize) {
    let tokens = seq.tokens();
    let (mixer, readout) = lemma3(seq.vocab, seq.vocab, 60.0, shift);
    let xs: Vec<DVector<f64>> = tokens.iter().map(|&v| DVector::from_fn(2 * seq.vocab, |a, _| f64::from(a % seq.vocab == v))).collect();
    let ys = mixer.forward(&xs);
    let targets = induction::targets(&tokens);
    let scored: Vec<bool> = (0..tokens.len())
        .filter(|&t| t >= seq.len / 2 && tokens[t - seq.len / 2..t].iter().all(|&x| x != tokens[t]))
        .filter_map(|t| targets[t].map(|v| correct_margin(&readout.logits(&ys[t]), v) > 0.0))
        .collect();
    (scored.iter().filter(|&&ok| ok).count(), scored.len())
}

/// Accuracy on hard sequences against T, printed Δ vs shifted Δ (|V| = 4, 6 sequences per T).
fn retention_figure() -> Vec<Figure> {
    let lens = [200usize, 600, 1000, 1100, 1200, 1300, 1500, 2000];
    let curve = |shift: f64| -> Vec<[f64; 2]> {
        lens.iter()
            .map(|&len| {
                let (ok, n) = (0..6u64).fold((0, 0), |(ok, n), seed| {
                    let (a, b) = long_gap_accuracy(&Sequence { vocab: 4, len, hard: true, seed }, shift);
                    (ok + a, n + b)
                });
                [len as f64, ok as f64 / n as f64]
            })
            .collect()
    };
    vec![Figure::new(
        "retention",
        "Induction heads on hard sequences: the long-gap answer against T",
        "sequence length T",
        "long-gap answers correct (6 sequences)",
    )
    .with(Series::new("printed Δ = softplus(w[I|0]x̂)", Style::Line, curve(0.0)).color(1))
    .with(Series::new("shifted Δ = softplus(w([I|0]x̂ − ½))", Style::Line, curve(0.5)).color(2))
    .caption(
        "The special token's answer must survive a gap of ≈ 0.8T–T steps. With the printed Δ every untouched slot halves per step \
                  (softplus(0) = ln 2) and underflows after ~1075 steps; the shifted Δ keeps it (retention ≥ 1 − Te^{−30}).",
    )]
}

/// Smallest relative margin `(z_target − max_other)/|z_target|` over the positions with a target,
/// less 1e−12 so that a tie (e.g. an answer that underflowed to 0) counts as wrong; a decayed but
/// nonzero answer still wins the argmax, as in exact arithmetic.
pub fn induction_margin(seq: &Sequence, slots: usize, shift: f64) -> Eval {
    let tokens = seq.tokens();
    let (mixer, readout) = lemma3(seq.vocab, slots.max(1), 60.0, shift);
    let xs: Vec<DVector<f64>> = tokens.iter().map(|&v| DVector::from_fn(2 * seq.vocab, |a, _| f64::from(a % seq.vocab == v))).collect();
    let ys = mixer.forward(&xs);
    let worst = induction::targets(&tokens)
        .into_iter()
        .zip(&ys)
        .filter_map(|(target, y)| target.map(|v| (v, readout.logits(y))))
        .map(|(v, z)| {
            let gap = correct_margin(&z, v);
            let rel = if gap == 0.0 { 0.0 } else { gap / z[v].abs().max(gap.abs()) };
            (rel, z[v], z[v] - gap)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    match worst {
        None => Eval::Reject("no position with a target"),
        Some((rel, target, other)) => Eval::Compared(Comparison::custom(target, other, Relation::AtLeast, rel - 1e-12, INDUCTION_MARGIN_FORMULA)),
    }
}

/// How [`induction_margin`] is computed.
pub const INDUCTION_MARGIN_FORMULA: &str = "(lhs − rhs)/max(|lhs|, |lhs − rhs|) − 1e−12 at the worst position with a target (0 − 1e−12 for a tie)";

/// The concrete sequence behind a drawn [`Sequence`]: its tokens and the target at each position.
fn sequence_content(seq: &Sequence) -> serde_json::Value {
    let tokens = seq.tokens();
    serde_json::json!({ "tokens": tokens, "targets": induction::targets(&tokens) })
}

/// Lemma 3's printed construction (Δ = softplus(w[I|0]x̂), w = 60, no shift) in log-scaled
/// arithmetic. The construction's state column n (the slot of token n) decays by e^{−Δ_n} per
/// step, Δ_n = softplus(w·1[x_{t−1} = n]), and receives x̂_t = [e_{x_{t−1}}; e_{x_t}] when
/// x_{t−1} = n; the answer at t is the second half of column x_t. Its second half is kept here as
/// e^{L_n}·m_n with max m_n = 1, so the ln 2 decay of untouched slots moves L_n and never
/// underflows. Margin as [`induction_margin`], on the mantissas (a common scale per column).
pub fn printed_exact_margin(seq: &Sequence, slots: usize) -> Eval {
    let tokens = seq.tokens();
    let (vocab, w) = (seq.vocab, 60.0);
    let mut log_scale = vec![f64::NEG_INFINITY; slots]; // an empty slot
    let mut mant = vec![vec![0.0; vocab]; slots];
    let targets = induction::targets(&tokens);
    let mut worst: Option<(f64, f64, f64)> = None;
    for (t, &x) in tokens.iter().enumerate() {
        let prev = t.checked_sub(1).map(|p| tokens[p]);
        for (n, l) in log_scale.iter_mut().enumerate() {
            *l -= softplus(w * f64::from(prev == Some(n)));
        }
        if let Some(p) = prev.filter(|&p| p < slots) {
            // e^{L}m + e_x with a new scale L' = max(L, 0), then renormalised to max m = 1.
            let l = log_scale[p];
            let top = l.max(0.0);
            let m = &mut mant[p];
            let keep = if l == f64::NEG_INFINITY { 0.0 } else { (l - top).exp() };
            m.iter_mut().for_each(|v| *v *= keep);
            m[x] += (-top).exp();
            let peak = m.iter().copied().fold(0.0, f64::max);
            m.iter_mut().for_each(|v| *v /= peak);
            log_scale[p] = top + peak.ln();
        }
        if let Some(target) = targets[t] {
            let z = if x < slots { mant[x].clone() } else { vec![0.0; vocab] };
            let other = z.iter().enumerate().filter(|&(l, _)| l != target).map(|(_, &v)| v).fold(f64::NEG_INFINITY, f64::max);
            let gap = z[target] - other;
            let rel = if gap == 0.0 { 0.0 } else { gap / z[target].abs().max(gap.abs()) };
            if worst.is_none_or(|w| rel < w.0) {
                worst = Some((rel, z[target], other));
            }
        }
    }
    match worst {
        None => Eval::Reject("no position with a target"),
        Some((rel, target, other)) => Eval::Compared(Comparison::custom(target, other, Relation::AtLeast, rel - 1e-12, INDUCTION_MARGIN_FORMULA)),
    }
}

fn sequences(max_vocab: usize, lens: std::ops::RangeInclusive<usize>, hard_only: bool) -> impl Strategy<Value = Sequence> {
    (2..=max_vocab, lens, any::<bool>(), any::<u64>()).prop_map(move |(vocab, len, hard, seed)| Sequence { vocab, len, hard: hard || hard_only, seed })
}

const PRINTED: &str = "There exists a 1-layer Mamba model with the Mamba-Δᵀ SSM mixer Equation 15 that solves Induction Heads with vocabulary V \
                       using embedding size d = 2|V| and state size N = |V|. […] (App. C.2, the state matrix as Δ → ∞) […] has an all-zeros \
                       j-th column and all-ones columns elsewhere. Consequently, the j-th column of the hidden state h_s[:, j] is erased by \
                       the action […] since it preserves all other columns (except the j-th one)";

/// `000.lem3.printed` (erratum): Lemma 3 (§5; proof App. C.2, eq 110–120).
fn claim_lem3_printed() -> Claim {
    Claim::erratum(
            "000.lem3.printed",
            super::FAMILY,
            "The printed construction (Δ = softplus(w[I|0]x̂), w = 60, no bias; embedding [e_v; e_v], conv [e_{x_{i−1}}; e_{x_i}], W_o = [0 | I]) answers \
             every position with an induction-head target, on hard sequences (a special token at r ≤ T/10 and T−1−r) of length 1000 ≤ T ≤ 2400, |V| ≤ 8.",
            construction([20, 60, 400], sequences(8, 1000..=2400, true), |s: &Sequence| induction_margin(s, s.vocab, 0.0))
                .sides("the target's logit at the worst position", "the largest other logit there")
                .expand(sequence_content)
                .illustrate(|_| retention_figure()),
        )
        .source(Paper::InputSelectivity, "Lemma 3 (§5; proof App. C.2, eq 110–120)", PRINTED)
        .correction(
            "Eq 119 takes SoftPlus(0) = 0, but it is ln 2: untouched columns halve every step and underflow after ~1075 steps. \
                     Shift the argument, Δ = SoftPlus(w([I|0]x̂ − ½)), so Δ_key ≈ w/2 and Δ_other ≈ e^{−w/2}; retention ≥ 1 − T e^{−w/2} (000.lem3).",
        )
        .error(ErrorKind::Precision, "In exact arithmetic the printed construction answers correctly: a stored answer halves every step (Δ = softplus(0) = ln 2) but still wins the argmax. In f64 it underflows to 0 after a gap of ≈ 1075 steps (2^{−1075}), and the answer ties with the others (margin −1e−12); in f32 after ≈ 150 steps. In log-scaled arithmetic the same construction answers every position: 000.lem3.exact. The proof's eq (119) also takes SoftPlus(0) = 0 (a proof step); the shifted Δ = softplus(w([I|0]x̂ − ½)) avoids both: 000.lem3.")
        .holds_instead(&["000.lem3.exact", "000.lem3"]).starts_at("f64 after a gap of ≈ 1075 steps; f32 after ≈ 150")
    .uncertified(Uncertified::Precision, "the point of this erratum is the f64 behaviour of the printed construction (its logits tie in floating point)")
}

/// `000.lem3.exact` (theorem): Lemma 3 (§5; proof App. C.2, eq 110–120), in exact arithmetic.
fn claim_lem3_exact() -> Claim {
    Claim::theorem(
        "000.lem3.exact",
        super::FAMILY,
        "The printed construction of Lemma 3 (Δ = softplus(w[I|0]x̂), w = 60, no bias), evaluated in log-scaled arithmetic (each \
             state column kept as e^{L}·m, the decay applied to L), answers every position with an induction-head target on the hard \
             sequences of 000.lem3.printed (a special token at r ≤ T/10 and T−1−r, 1000 ≤ T ≤ 2400, |V| ≤ 8): the construction is \
             right in exact arithmetic, and only f64's underflow (000.lem3.printed) breaks it.",
        construction([20, 60, 400], sequences(8, 1000..=2400, true), |s: &Sequence| printed_exact_margin(s, s.vocab))
            .sides("the target's entry at the worst position (units of its column's scale)", "the largest other entry there")
            .expand(sequence_content),
    )
    .source(Paper::InputSelectivity, "Lemma 3 (§5; proof App. C.2, eq 110–120), in exact arithmetic", PRINTED)
    .correction("No change to the construction, only to the arithmetic: the stored answer halves every step but still wins the argmax.")
    .control(
        "one state slot too few, N = |V| − 1",
        construction([20, 60, 400], sequences(8, 1000..=2400, true), |s: &Sequence| printed_exact_margin(s, s.vocab - 1))
            .sides("the target's entry at the worst position (units of its column's scale)", "the largest other entry there")
            .expand(sequence_content),
    )
}

/// `000.lem3` (theorem): Lemma 3, corrected (proofs/recall.md).
fn claim_lem3() -> Claim {
    Claim::theorem(
        "000.lem3",
        super::FAMILY,
        "Lemma 3 with Δ = softplus(w([I|0]x̂ − ½)), w = 60: every position with an induction-head target (y_t = x_{j(t)+1}) is answered, on standard \
             and hard sequences, 2 ≤ |V| ≤ 12, 4 ≤ T ≤ 2400 (blank positions are not scored).",
        construction([40, 150, 1000], sequences(12, 4..=2400, false), |s: &Sequence| induction_margin(s, s.vocab, 0.5)),
    )
    .source(Paper::InputSelectivity, "Lemma 3, corrected (proofs/recall.md)", PRINTED)
    .correction("The ½ shift in Δ (see 000.lem3.printed); a first occurrence leaves the column empty (blank), which the paper does not spell out.")
    .control(
        "one state slot too few, N = |V| − 1",
        construction([40, 150, 1000], sequences(12, 4..=2400, false), |s: &Sequence| induction_margin(s, s.vocab - 1, 0.5))
            .sides("the target's logit at the worst position", "the largest other logit there")
            .expand(sequence_content),
    )
}

/// Registers Lemma 3.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_lem3_printed());
    r.add(claim_lem3_exact());
    r.add(claim_lem3());
}
