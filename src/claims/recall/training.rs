//! 002 Sec. 3: gradient descent on the simplified Mamba (|K| = 1, |V| = 8, N = 1, B = C = 1,
//! learned W_Δ, b_Δ and Λ = −exp(A_log)) on Algorithm 1's latest-association data learns recall,
//! and the learned Δ is a gate: large at write pairs (key, value), small elsewhere.
//!
//! * `002.training` (Conjecture, evidence from 3 / 5 / 16 seeded training runs): after Adam on a loss at
//!   the query positions, (a) the query error on fresh sequences is ≤ 1% (Clopper–Pearson upper
//!   interval at family-wise α = 1e−4; refuted when its lower end exceeds 1%), and (b) the mean
//!   second-half Δ at every write pair (0, v) is ≥ 1.5× the largest at any noise or read pair
//!   ((key, key) never occurs with one key), and (c) the mean second-half forgetting factor is
//!   ordered write < noise < read. Control: the same training with
//!   W_Δ frozen at 0 (no input selectivity: Δ depends on nothing).

use crate::claim::custom;
use crate::claim::Tolerance;
use crate::claim::{Claim, Comparison, Figure, HeatMap, Kind, Outcome, Paper, Relation, Sizes, Verdict};
use crate::math::softplus::softplus;
use crate::mc::Stream;
use crate::model::recall_toy::SimplifiedMamba;
use crate::stats::clopper_pearson;
use crate::tasks::associative_recall::latest_association;

/// |V| = 8 tokens: the key 0 and the values 1..7 (002 Sec. 3).
const N: usize = 8;
/// Algorithm 1's maximum noise length n_ε.
const MAX_NOISE: usize = 3;

/// Adam (Kingma & Ba) on a flat parameter vector.
struct Adam {
    lr: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    fn new(size: usize, lr: f64) -> Self {
        Adam { lr, m: vec![0.0; size], v: vec![0.0; size], t: 0 }
    }

    fn step(&mut self, params: &mut [&mut f64], grads: &[f64]) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        for (i, (p, &g)) in params.iter_mut().zip(grads).enumerate() {
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            **p -= self.lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// Trains from W = 0, b = 0, A_log = 0 with Adam; `selective = false` freezes W_Δ at 0.
fn train(stream: &mut Stream, len: usize, steps: usize, batch: usize, selective: bool) -> SimplifiedMamba {
    let mut model = SimplifiedMamba::zeros(N);
    let size = model.w.len() + model.b.len() + model.a_log.len();
    let mut adam = Adam::new(size, 0.05);
    for _ in 0..steps {
        let mut grads = vec![0.0; size];
        for _ in 0..batch {
            let (x, targets) = latest_association(stream, N, 1, MAX_NOISE, len).expect("valid sizes");
            let (_, g) = model.loss_and_gradients(&x, &targets);
            let flat = g.w.iter().chain(&g.b).chain(&g.a_log);
            for (acc, v) in grads.iter_mut().zip(flat) {
                *acc += v / batch as f64;
            }
        }
        if !selective {
            grads[..model.w.len()].fill(0.0);
        }
        let mut params: Vec<&mut f64> = model.w.iter_mut().chain(model.b.iter_mut()).chain(model.a_log.iter_mut()).collect();
        adam.step(&mut params, &grads);
    }
    model
}

/// The mean second-half forgetting factor e^{ΛΔ} at the pair (u, v), Λ = −exp(A_log), over k.
fn pair_forgetting(m: &SimplifiedMamba, u: usize, v: usize) -> f64 {
    let d = 2 * N;
    (0..N).map(|k| (-m.a_log[N + k].exp() * softplus(m.w[(N + k) * d + u] + m.w[(N + k) * d + N + v] + m.b[N + k])).exp()).sum::<f64>() / N as f64
}

/// Sec. 3's forgetting order, means over the pair classes: write (key, v), noise (u, v) of
/// values, read (u, key).
fn forgetting_by_class(m: &SimplifiedMamba) -> [f64; 3] {
    let mean = |pairs: Vec<(usize, usize)>| pairs.iter().map(|&(u, v)| pair_forgetting(m, u, v)).sum::<f64>() / pairs.len() as f64;
    [mean((1..N).map(|v| (0, v)).collect()), mean((1..N).flat_map(|u| (1..N).map(move |v| (u, v))).collect()), mean((1..N).map(|u| (u, 0)).collect())]
}

/// The mean second-half Δ at the pair (u, v): softplus(W[n+k, u] + W[n+k, n+v] + b[n+k]) over k.
fn pair_delta(m: &SimplifiedMamba, u: usize, v: usize) -> f64 {
    let d = 2 * N;
    (0..N).map(|k| softplus(m.w[(N + k) * d + u] + m.w[(N + k) * d + N + v] + m.b[N + k])).sum::<f64>() / N as f64
}

/// One seeded training run and its test: query errors, and the learned Δ at every pair.
struct Run {
    wrong: u64,
    queries: u64,
    /// deltas[v][u]: the mean second-half Δ at the pair (u, v).
    deltas: Vec<Vec<f64>>,
    /// The smallest Δ at a write pair (key, v).
    write: f64,
    /// The largest Δ at a noise or read pair.
    other: f64,
    /// Mean second-half forgetting factors at write, noise and read pairs.
    forgetting: [f64; 3],
}

impl Run {
    fn gate_ratio(&self) -> f64 {
        self.write / self.other
    }
}

/// Training run `r`: its own training and test streams.
fn run(ctx: &crate::claim::Context, r: u64, selective: bool, (len, steps, batch, tests): (usize, usize, usize, usize)) -> Run {
    let mut s = Stream::new(ctx.key("training"), r);
    let model = train(&mut s, len, steps, batch, selective);
    let mut t = Stream::new(ctx.key("test"), r);
    let (mut wrong, mut queries) = (0u64, 0u64);
    for _ in 0..tests {
        let (x, targets) = latest_association(&mut t, N, 1, MAX_NOISE, len).expect("valid sizes");
        let (_, logits) = model.forward(&x);
        for (z, y) in logits.iter().zip(&targets) {
            if let Some(y) = *y {
                queries += 1;
                let best = (0..N).max_by(|&a, &b| z[a].total_cmp(&z[b])).expect("n ≥ 1");
                wrong += u64::from(best != y || (0..N).any(|k| k != y && z[k] == z[y]));
            }
        }
    }
    let deltas: Vec<Vec<f64>> = (0..N).map(|v| (0..N).map(|u| pair_delta(&model, u, v)).collect()).collect();
    let write = (1..N).map(|v| deltas[v][0]).fold(f64::INFINITY, f64::min);
    // Noise pairs (value, value) and read pairs (value, key); (key, key) never occurs with |K| = 1.
    let other = (1..N).flat_map(|u| (0..N).map(move |v| (u, v))).map(|(u, v)| deltas[v][u]).fold(0.0, f64::max);
    Run { wrong, queries, deltas, write, other, forgetting: forgetting_by_class(&model) }
}

/// Smallest, median and largest of `xs`.
fn spread(mut xs: Vec<f64>) -> [f64; 3] {
    xs.sort_by(f64::total_cmp);
    [xs[0], xs[xs.len() / 2], xs[xs.len() - 1]]
}

fn training_check(selective: bool) -> impl crate::claim::Check {
    custom(Kind::Statistical, move |ctx| {
        let sizes = ctx.size("(length, steps, batch, test sequences)", Sizes::new((64, 200, 8, 100), (128, 400, 16, 400), (256, 1000, 32, 2000)));
        // Independent training runs (seeds): the conjecture is about training, not one run.
        let runs_n: u64 = ctx.size("training runs", Sizes::new(3, 5, 16));
        let runs: Vec<Run> = (0..runs_n).map(|r| run(ctx, r, selective, sizes)).collect();
        // Bonferroni over the runs: each run's two-sided CP interval at 1 − 2α/R.
        let confidence = 1.0 - 2.0 * crate::claim::ALPHA / runs_n as f64;
        let errors: Vec<_> = runs.iter().map(|r| clopper_pearson(r.wrong, r.queries, confidence)).collect();
        let ratios: Vec<f64> = runs.iter().map(Run::gate_ratio).collect();
        let per_run: Vec<_> = runs
            .iter()
            .zip(&errors)
            .enumerate()
            .map(|(i, (r, e))| serde_json::json!({ "run": i, "query_error": e.estimate, "interval": [e.lo, e.hi], "queries": r.queries, "gate_ratio": r.gate_ratio(), "write_delta": r.write, "other_delta": r.other, "forgetting_write_noise_read": r.forgetting }))
            .collect();
        let [err_min, err_med, err_max] = spread(errors.iter().map(|e| e.estimate).collect());
        let [gate_min, gate_med, gate_max] = spread(ratios.clone());
        let summary = format!(
            "{runs_n} runs: query error {err_min:.4} / {err_med:.4} / {err_max:.4} (min / median / max; CP at {:.5}), gate ratio {gate_min:.2} / {gate_med:.2} / {gate_max:.2}",
            confidence
        );
        // The worst run decides: the one whose error's lower end is highest, else the smallest gate.
        let (worst_err, e) = errors.iter().enumerate().max_by(|a, b| a.1.lo.total_cmp(&b.1.lo)).expect("runs ≥ 1");
        let (worst_gate, &g) = ratios.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)).expect("runs ≥ 1");
        // (c) Sec. 3's forgetting order at the end of training: write < noise < read, in every run.
        let disorder = runs.iter().position(|r| !(r.forgetting[0] < r.forgetting[1] && r.forgetting[1] < r.forgetting[2]));
        let verdict = if let (Some(which), false, false) = (disorder, e.lo > 0.01, g < 1.5) {
            let f = runs[which].forgetting;
            let violation = Comparison::custom(f[1], f[2], Relation::AtMost, f[2] - f[1], "read − noise (the order also needs write < noise)")
                .named("mean second-half forgetting factor at noise pairs", "that at read pairs");
            Verdict::Refuted { counterexample: per_run[which].clone(), violation, margin: (f[1] - f[0]).min(f[2] - f[1]), summary }
        } else if e.lo > 0.01 || g < 1.5 {
            let (violation, which) = if e.lo > 0.01 {
                (Comparison::at_most(e.lo, 0.01, Tolerance::NONE).named("CP lower limit of the query error (worst run)", "1% error"), worst_err)
            } else {
                (
                    Comparison::custom(g, 1.5, Relation::AtLeast, g - 1.5, "gate ratio − 1.5").named("write-pair Δ / largest other-pair Δ (worst run)", "1.5"),
                    worst_gate,
                )
            };
            Verdict::Refuted { counterexample: per_run[which].clone(), violation, margin: (0.01 - e.lo).min(g - 1.5), summary }
        } else if errors.iter().all(|e| e.hi <= 0.01 || e.estimate <= 0.01) {
            Verdict::Holds { evidence: summary }
        } else {
            Verdict::Inconclusive { why: summary }
        };
        let first = &runs[0];
        let fig = Figure::new(
            "pair_delta",
            "Learned Δ (mean over the second half) at each pair (x_{t−1}, x_t), run 0",
            "previous token u (0 = key)",
            "current token v",
        )
        .heat(HeatMap {
            x: (0..N).map(|u| u as f64).collect(),
            y: (0..N).map(|v| v as f64).collect(),
            values: first.deltas.clone(),
            label: "Δ".into(),
            range: Some([0.0, first.write.max(first.other)]),
        })
        .caption("Column u = 0 holds the write pairs (key, value): Δ is large there and small at noise and read pairs, a learned input gate.");
        let worst_hi = errors.iter().map(|e| e.hi).fold(0.0, f64::max);
        let (len, steps, batch, tests) = sizes;
        Ok(Outcome::new(verdict, runs.iter().map(|r| r.queries).sum(), Some((0.01 - worst_hi).min(gate_min - 1.5)))
            .detail("training_runs", runs_n)
            .detail("runs", per_run)
            .detail("query_error_spread", [err_min, err_med, err_max])
            .detail("gate_ratio_spread", [gate_min, gate_med, gate_max])
            .detail(
                "forgetting_order_write_noise_read_in_every_run",
                runs.iter().all(|r| r.forgetting[0] < r.forgetting[1] && r.forgetting[1] < r.forgetting[2]),
            )
            .detail("sequence_length", len)
            .detail("adam_steps", steps)
            .detail("batch", batch)
            .detail("learning_rate", 0.05)
            .detail("test_sequences_per_run", tests)
            .figures([fig]))
    })
}

/// `002.training` (conjecture): Sec. 3 and App. C (training the simplified model, |K| = 1).
fn claim_training() -> Claim {
    Claim::conjecture(
            "002.training",
            super::FAMILY,
            "Adam (lr 0.05, from W_Δ = 0, b = 0, A_log = 0) on the simplified Mamba with |V| = 8, |K| = 1, N = 1, B = C = 1, loss at the query positions \
             of Algorithm 1's sequences (n_ε = 3), in each of 3 / 5 / 16 independently seeded runs (quick / standard / deep): the query error on fresh \
             sequences is ≤ 1% (Clopper–Pearson at family-wise α = 1e−4, Bonferroni over the runs: refuted when a run's lower end exceeds 1%), and the learned Δ is a gate — the mean second-half Δ at every write pair (key, v) is ≥ 1.5× that at any noise pair (value, value) or read pair (value, key) — \
             and the mean second-half forgetting factor e^{ΛΔ} is ordered write < noise < read (the paper's 0.3 < 0.4 < 0.8).",
            training_check(true),
        )
        .source(Paper::AssociativeRecall, "Sec. 3 and App. C (training the simplified model, |K| = 1)", "We train the simplified Mamba model on our MQAR variant … until it reaches 100% accuracy on the training set. … leading to the discretization step Δ_t = Softplus(W_Δ conv(x_{t−1}, x_t)) being close to zero unless a key token is present in the input embedding pair.")
        .correction("No hyper-parameters are given in the paper; these are ours. \"Near zero almost everywhere else\" is not reproduced literally (proofs/recall.md); the ordinal gate test is.")
        .control("W_Δ frozen at 0 (Δ cannot depend on the input)", training_check(false))
}

/// Registers the training claim.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_training());
}
