//! 003 §4.3, Fig. 2 (centre): the examples a 135M Mamba needed to learn the copy task, by
//! string length (Jelassi et al.'s setup; 95% accuracy in 3 consecutive evaluations). The
//! suite cannot retrain the models; it encodes the printed numbers as data and checks the
//! qualitative claim drawn from them.
//!
//! * `003.fig2` (Conjecture): the examples needed grow monotonically and faster than linearly
//!   in N_max (every local log–log slope > 1; N_max = 40 is censored at 5.8·10⁵).

use crate::claim::{custom, Claim, Comparison, Figure, Kind, Outcome, Paper, Relation, Series, Style, Verdict};

/// (N_max, examples needed, censored): 003 §4.3, Fig. 2 centre (read from the text: "1.36×10⁴,
/// 3.52×10⁴, 1.15×10⁵", and N_max = 40 not learned within 5.8×10⁵ examples).
pub const EXAMPLES_NEEDED: [(f64, f64, bool); 4] = [(10.0, 1.36e4, false), (20.0, 3.52e4, false), (30.0, 1.15e5, false), (40.0, 5.8e5, true)];

/// `003.fig2` (conjecture): §4.3, Fig. 2 (centre).
fn claim_fig2() -> Claim {
    Claim::conjecture(
            "003.fig2",
            super::FAMILY,
            "The examples Mamba needs to learn copying grow monotonically and superlinearly in the string length N_max: every \
             local log–log slope between consecutive rows of Fig. 2 (centre) exceeds 1 (the censored N_max = 40 gives a lower \
             bound on the last slope).",
            custom(Kind::Property, |_ctx| {
                let slopes: Vec<(String, f64)> = EXAMPLES_NEEDED
                    .windows(2)
                    .map(|w| (format!("N_max {} → {}{}", w[0].0, w[1].0, if w[1].2 { " (censored: a lower bound)" } else { "" }), (w[1].1 / w[0].1).ln() / (w[1].0 / w[0].0).ln()))
                    .collect();
                let (label, worst) = slopes.iter().cloned().min_by(|a, b| a.1.total_cmp(&b.1)).expect("three slopes");
                let comparison = Comparison::custom(worst, 1.0, Relation::Above, worst - 1.0, "slope − 1");
                let verdict = if worst > 1.0 {
                    Verdict::Holds { evidence: format!("local log–log slopes {}", slopes.iter().map(|(l, s)| format!("{l}: {s:.2}")).collect::<Vec<_>>().join(", ")) }
                } else {
                    Verdict::Refuted {
                        counterexample: serde_json::json!({ "between": label, "slope": worst }),
                        violation: comparison.named("the smallest local log–log slope", "1 (linear growth)"),
                        margin: worst - 1.0,
                        summary: format!("{label}: slope {worst:.2} ≤ 1"),
                    }
                };
                let fig = Figure::new("fig2-centre", "Examples needed to learn copying (003 Fig. 2 centre, as printed)", "log10 N_max", "log10 examples")
                    .with(Series::new("Mamba 135M (printed)", Style::Points, EXAMPLES_NEEDED.iter().filter(|r| !r.2).map(|r| [r.0.log10(), r.1.log10()]).collect()).color(0))
                    .with(Series::new("not learned within 5.8·10⁵ (censored)", Style::Points, vec![[40f64.log10(), 5.8e5f64.log10()]]).color(1))
                    .with(Series::new("linear growth from N_max = 10", Style::Dashed, [10.0, 40.0].iter().map(|&n: &f64| [n.log10(), (1.36e4 * n / 10.0).log10()]).collect()).color(2))
                    .caption("The paper's numbers (no seeds or error bars given). The capacity bounds (003.lb.rank, 003.lb.bits) are vacuous at this N, so the growth reflects learnability.");
                Ok(Outcome::new(verdict, slopes.len() as u64, Some(worst - 1.0)).detail("data", EXAMPLES_NEEDED.iter().map(|r| serde_json::json!({ "n_max": r.0, "examples": r.1, "censored": r.2 })).collect::<Vec<_>>()).figures([fig]))
            }),
        )
        .source(Paper::FreeLunch, "§4.3, Fig. 2 (centre)", "the number of training examples needed for Mamba to learn the task … is approximately 1.36 × 10⁴, 3.52 × 10⁴, and 1.15 × 10⁵ respectively, indicating that the required number grows more than linearly relative to N_max.")
}

/// Registers 003.fig2.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_fig2());
}
