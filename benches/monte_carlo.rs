//! Benchmarks of the Monte Carlo inner loops, so that regressions show: the vectorised
//! elementary functions, the Philox and portable normal streams, the log-space diagonal LRD path
//! (004.cor1.cumulative; W1's loop), the interaction-model products (004.sec41; W3's loop), the
//! tail sums of Theorem 4 (W2's loop), the scalar AR(1) of the stability claims, the S6
//! selective scan (W4's loop; the scan and the interaction product also on each instruction
//! set the CPU offers, `math::isa`), one training step of the trained classifiers, every backend
//! on one job, and one property check end to end.
//! Run with `cargo bench`; throughput is reported per element. The whole workloads against the
//! numpy and C references: `scripts/perf_compare.sh` (README, "Performance").

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ssmcheck::claim::{Budget, Context};
use ssmcheck::math::isa::Isa;
use ssmcheck::mc::jobs::{DiagonalLrdJob, InteractionJob, ScalarArJob, Start, TailSumJob, TiltedTailJob};
use ssmcheck::mc::normals::Normals;
use ssmcheck::mc::paths::{diagonal_lrd_path, interaction_path, interaction_paths_on, scalar_ar_path, scalar_ar_paths, tail_sum_sample, tilted_tail_sample};
use ssmcheck::mc::portable::PortableNormals;
use ssmcheck::mc::{Backend, CpuBackend, RunJob, Stream, StreamKey};
use ssmcheck::model::Discretization;
use ssmcheck::progress::Silent;

fn elementary(c: &mut Criterion) {
    use ssmcheck::math::vecmath::{exp, ln, softplus};
    let xs: Vec<f64> = (0..4096).map(|i| -20.0 + i as f64 * 0.01).collect();
    let mut ys = vec![0.0; xs.len()];
    let mut g = c.benchmark_group("vecmath");
    g.throughput(Throughput::Elements(xs.len() as u64));
    // The input slice goes through black_box once (per element it would block vectorisation);
    // a macro, not a fn pointer, so that each function is inlined into its loop.
    macro_rules! pass {
        ($name:expr, $f:expr) => {
            g.bench_function($name, |b| {
                b.iter(|| {
                    let xs = black_box(&xs);
                    ys.iter_mut().zip(xs.iter()).for_each(|(y, &x)| *y = $f(x));
                    black_box(&ys);
                })
            })
        };
    }
    pass!("exp_4096", exp);
    pass!("ln_4096", |x: f64| ln(x + 21.0));
    pass!("softplus_4096", softplus);
    pass!("libm_exp_4096", f64::exp);
    pass!("libm_ln_4096", |x: f64| (x + 21.0).ln());
    g.finish();
}

fn scan(c: &mut Criterion) {
    use ssmcheck::model::selective_scan::{selective_scan_backward, selective_scan_on};
    use ssmcheck::model::{selective_scan, ScanInputs};
    let (d, n, len) = (64, 16, 1024);
    let normals = |k: u64, m: usize| {
        let mut v = vec![0.0; m];
        PortableNormals::new(k, 0).fill(&mut v);
        v
    };
    let (r, bm, cm, u) = (normals(1, len * d), normals(2, len * n), normals(3, len * n), normals(4, len * d));
    let a: Vec<f64> = (0..n * d).map(|i| -((i / d + 1) as f64)).collect();
    let inputs = ScanInputs { d, n, len, delta: &r, delta_softplus: true, a: &a, b: &bm, c: &cm, u: &u };
    let mut y = vec![0.0; len * d];
    let mut g = c.benchmark_group("selective_scan");
    g.throughput(Throughput::Elements((d * n * len) as u64));
    g.bench_function("d64_N16_L1024 (state-updates)", |b| b.iter(|| selective_scan(black_box(&inputs), &mut y).unwrap()));
    // Each instruction set's path of the same scan (the same bits; README, "Performance").
    for isa in Isa::available() {
        g.bench_function(format!("d64_N16_L1024 on {isa}"), |b| b.iter(|| selective_scan_on(isa, black_box(&inputs), &mut y).unwrap()));
    }
    // The backward pass that training runs (the forward recomputed, then the adjoint).
    let dy = normals(5, len * d);
    g.bench_function("backward d64_N16_L1024 (state-updates)", |b| b.iter(|| selective_scan_backward(black_box(&inputs), &dy).unwrap()));
    g.finish();
}

fn normals(c: &mut Criterion) {
    let mut g = c.benchmark_group("stream");
    g.throughput(Throughput::Elements(1_000_000));
    let mut buf = vec![0.0; 1_000_000];
    g.bench_function("philox_box_muller_1e6", |b| b.iter(|| Stream::new(StreamKey::new(1, "bench"), 0).fill(black_box(&mut buf))));
    g.bench_function("portable_box_muller_1e6", |b| b.iter(|| PortableNormals::new(1, 0).fill(black_box(&mut buf))));
    g.finish();
}

/// The LRD job of 004.cor1.cumulative (`h` modes) with `steps` steps and `paths` paths.
fn lrd_job(steps: u64, paths: u64, h: usize) -> DiagonalLrdJob {
    DiagonalLrdJob {
        a: (0..h).map(|n| -((n + 1) as f64) * 0.5).collect(),
        b: vec![1.0; h],
        w: 1.0,
        bias: -1.0,
        disc: Discretization::Zoh,
        horizon: steps,
        paths,
        claimed_rate: -0.5,
        checkpoints: 10,
        key: StreamKey::new(1, "bench"),
    }
}

fn diagonal(c: &mut Criterion) {
    let steps = 100_000;
    let job = lrd_job(steps, 1, 16);
    let marks = ssmcheck::mc::jobs::log_checkpoints(steps, 10);
    let mut g = c.benchmark_group("diagonal_lrd");
    g.throughput(Throughput::Elements(steps * 16));
    g.bench_function("H16_1e5_steps (state-updates)", |b| b.iter(|| diagonal_lrd_path(black_box(&job), &marks, Stream::new(job.key, 0))));
    g.finish();
}

fn interaction(c: &mut Criterion) {
    let h = 16;
    let steps = 20_000;
    let job = InteractionJob {
        abar: (0..h).map(|i| (0..h).map(|j| if i == j { 0.5 } else { 0.01 }).collect()).collect(),
        bbar: vec![1.0; h],
        g: vec![0.1; h],
        w: vec![0.1; h],
        start: Start::Random,
        horizon: steps,
        burn_in: 0,
        paths: 1,
        checkpoints: 10,
        key: StreamKey::new(1, "bench"),
    };
    let marks = ssmcheck::mc::jobs::log_checkpoints(steps, 10);
    let mut g = c.benchmark_group("interaction");
    g.throughput(Throughput::Elements(steps * (h * h) as u64));
    g.bench_function("H16_2e4_products (H²-steps)", |b| b.iter(|| interaction_path(black_box(&job), &marks, Stream::new(job.key, 0))));
    // Four paths in lockstep on each instruction set's product (the same bits).
    g.throughput(Throughput::Elements(4 * steps * (h * h) as u64));
    for isa in Isa::available() {
        g.bench_function(format!("4 paths H16_2e4 on {isa}"), |b| {
            b.iter(|| interaction_paths_on(isa, &[black_box(&job); 4], &marks, (0..4).map(|p| Stream::new(job.key, p)).collect()))
        });
    }
    g.finish();
}

fn stability(c: &mut Criterion) {
    let steps = 100_000;
    let tail = TailSumJob { c: 0.5, gamma: 0.499, times: vec![steps], samples: 1, key: StreamKey::new(1, "bench") };
    let ar = ScalarArJob { c: 0.5, gamma: 0.499, q: 1.0, times: vec![steps], paths: 1, key: StreamKey::new(1, "bench") };
    let mut g = c.benchmark_group("stability");
    g.throughput(Throughput::Elements(steps));
    g.bench_function("tail_sum_1e5 (sample-steps)", |b| b.iter(|| tail_sum_sample(black_box(&tail), Stream::new(tail.key, 0))));
    g.bench_function("scalar_ar_1e5 (path-steps)", |b| b.iter(|| scalar_ar_path(black_box(&ar), Stream::new(ar.key, 0))));
    g.throughput(Throughput::Elements(4 * steps));
    g.bench_function("scalar_ar_1e5_lockstep4 (path-steps)", |b| b.iter(|| scalar_ar_paths(black_box(&ar), (0..4).map(|p| Stream::new(ar.key, p)).collect())));
    g.finish();
}

/// The importance sampler of 004 Theorem 4: accepted terms per second of the exact tilted
/// rejection sampler at three tilts (the σ√t-scale event at t = 10⁴, a far event at t = 100,
/// and t = 1, z = 10 where θ ≈ 2·10⁴ and the acceptance is 0.4%), and the variance reduction's
/// other half — the interval — on 1000 weights.
fn rare_events(c: &mut Criterion) {
    use ssmcheck::math::large_deviation::{Threshold, TiltedProposal};
    use ssmcheck::math::subexp::LogChi2;
    let law = LogChi2::new(0.5, 0.499).unwrap();
    let mut g = c.benchmark_group("rare_events");
    for (name, t, s) in
        [("sigma_scale_t1e4", 10_000u64, 10_000.0 * 0.999f64.ln() + 3.0 * (10_000.0f64 * 0.2678).sqrt()), ("far_t100", 100, 50.0), ("z10_t1", 1, 10.0)]
    {
        let event = Threshold::new(&law, t, s);
        let p = TiltedProposal::new(&law, &event.tilted);
        let job = TiltedTailJob {
            c: law.c,
            gamma: law.gamma,
            theta: p.theta,
            eta: p.eta,
            scale: p.scale,
            log_bound: p.log_bound,
            t,
            samples: 1,
            key: StreamKey::new(1, "bench"),
            accept_key: StreamKey::new(1, "bench/accept"),
        };
        let reps = (10_000 / t).max(1);
        g.throughput(Throughput::Elements(reps * t));
        g.bench_function(format!("tilted_{name} (accepted terms)"), |b| {
            b.iter(|| (0..reps).map(|r| tilted_tail_sample(black_box(&job), Stream::new(job.key, r), Stream::new(job.accept_key, r))).sum::<f64>())
        });
    }
    let mut s = Stream::new(StreamKey::new(1, "bench"), 0);
    let weights: Vec<f64> = (0..1000).map(|i| if i % 2 == 0 { 0.0 } else { 0.02 * s.uniform() }).collect();
    g.throughput(Throughput::Elements(1000));
    g.bench_function("betting_interval_1000", |b| b.iter(|| ssmcheck::stats::betting_interval(black_box(&weights), 1.0 - 1e-6)));
    g.finish();
}

/// One training step (forward, loss, backward through the S6 operation, Adam) of 000.table1's
/// classifiers: batch 16, T = 20, |V| = 16, d = N = 8; throughput in tokens.
fn train_step(c: &mut Criterion) {
    use ssmcheck::model::mixer::MixerKind;
    use ssmcheck::tasks::keep_nth::KeepNth;
    use ssmcheck::train::{adam::Adam, classifier::*, fit};
    let task = KeepNth::new(16, 20, 5).unwrap();
    let batch = task.batch(StreamKey::new(1, "bench"), 0, 16);
    let mut g = c.benchmark_group("train_step");
    g.throughput(Throughput::Elements(16 * 20));
    for (name, kind, position) in [("Mamba+PE", MixerKind::Mamba, true), ("Mamba-2 head+PE", MixerKind::Mamba2, true), ("S4D", MixerKind::S4d, false)] {
        let model =
            SsmClassifier::init(ClassifierShape { kind, vocab: 16, d: 8, n: 8, position, head: Head::Linear, conv: false }, StreamKey::new(1, name)).unwrap();
        let mut opt = Adam::new(model.vars(), Default::default()).unwrap();
        g.bench_function(format!("{name} B16_T20 (tokens)"), |b| b.iter(|| fit::train_step(&model, &mut opt, black_box(&batch)).unwrap()));
    }
    // 000.table1's Transformer column: one attention head with a learned position embedding.
    use ssmcheck::train::attention::*;
    let shape = AttentionShape { vocab: 16, d: 8, input: AttentionInput::Position { max_len: 20 } };
    let model = AttentionClassifier::init(shape, StreamKey::new(1, "attention")).unwrap();
    let mut opt = Adam::new(fit::Classifier::vars(&model), Default::default()).unwrap();
    g.bench_function("Transformer (1 head) B16_T20 (tokens)", |b| b.iter(|| fit::train_step(&model, &mut opt, black_box(&batch)).unwrap()));
    g.finish();
    // 002's simplified Mamba as 002.fig5 / 002.fig6 train it: 16 sequences of T = 64.
    use ssmcheck::train::adam::AdamConfig;
    use ssmcheck::train::recall::*;
    // Algorithm 1's sequences of length `len` (n_ε = 3), as the claims train on them.
    let latest = |len| RecallFit::new(len, RecallData::Latest { max_noise: 3 }, 1, AdamConfig::default().lr);
    let mut g = c.benchmark_group("train_step");
    g.throughput(Throughput::Elements(16 * 64));
    for (vocab, keys) in [(8, 2), (12, 4)] {
        let shape = RecallShape { vocab, keys, states: keys };
        let cfg = latest(64);
        let batch = recall_batch(shape, &cfg, StreamKey::new(1, "bench"), 0, 16).unwrap();
        let model = RecallMamba::init(shape, StreamKey::new(1, "recall"), Trainable::All).unwrap();
        let mut opt = Adam::new(model.vars(), Default::default()).unwrap();
        g.bench_function(format!("002 recall |K|={keys} B16_T64 (tokens)"), |b| b.iter(|| recall_train_step(&model, &mut opt, black_box(&batch)).unwrap()));
    }
    g.finish();
    // 002.table1 at the standard budget: the simplified Mamba and the attention head on the pair
    // input, 16 sequences of T = 128.
    let mut g = c.benchmark_group("train_step");
    g.throughput(Throughput::Elements(16 * 128));
    for (vocab, keys) in [(8, 1), (12, 4)] {
        let shape = RecallShape { vocab, keys, states: keys };
        let cfg = latest(128);
        let batch = recall_batch(shape, &cfg, StreamKey::new(1, "bench"), 0, 16).unwrap();
        let mamba = RecallMamba::init(shape, StreamKey::new(1, "recall"), Trainable::All).unwrap();
        let mut opt = Adam::new(mamba.vars(), Default::default()).unwrap();
        g.bench_function(format!("002 recall |K|={keys} B16_T128 (tokens)"), |b| b.iter(|| recall_train_step(&mamba, &mut opt, black_box(&batch)).unwrap()));
        let tf = AttentionClassifier::init(AttentionShape { vocab, d: 2 * vocab, input: AttentionInput::Pair }, StreamKey::new(1, "tf")).unwrap();
        let mut opt = Adam::new(fit::Classifier::vars(&tf), Default::default()).unwrap();
        g.bench_function(format!("002 TF (pair, 1 head) |K|={keys} B16_T128 (tokens)"), |b| {
            b.iter(|| recall_train_step(&tf, &mut opt, black_box(&batch)).unwrap())
        });
    }
    g.finish();
    // 002.table1.two_layer's Transformers (two pre-norm layers, d_model 16, two heads, MLP ×4;
    // RoPE with a width-4 convolution, and neither), 16 sequences of T = 32 at κ = 4.
    use ssmcheck::train::transformer::{Position, TransformerLm, TransformerShape};
    let mut g = c.benchmark_group("train_step");
    g.throughput(Throughput::Elements(16 * 32));
    let shape = RecallShape { vocab: 12, keys: 4, states: 4 };
    let batch = recall_batch(shape, &latest(32), StreamKey::new(1, "bench"), 0, 16).unwrap();
    for (name, position, conv_width) in [("RoPE + conv", Position::Rope, Some(4)), ("plain", Position::None, None)] {
        let lm = TransformerLm::init(TransformerShape { d_model: 16, heads: 2, mlp_ratio: 4, position, conv_width }, 2, 12, StreamKey::new(1, name)).unwrap();
        let mut opt = Adam::new(lm.vars(), Default::default()).unwrap();
        g.bench_function(format!("002 2-layer TF ({name}) |K|=4 B16_T32 (tokens)"), |b| {
            b.iter(|| recall_train_step(&lm, &mut opt, black_box(&batch)).unwrap())
        });
    }
    g.finish();
    // 003.fig2.left / 003.fig2.trained's two-block Mamba (d_model 32, N 16, convolution and gate)
    // on copying at N_max = 8: 16 sequences of <BOS>, 8 symbols, <SEP>, 8 symbols.
    use ssmcheck::tasks::{copy::MixedLengthCopy, TokenTask};
    use ssmcheck::train::mamba_block::{BlockShape, MambaLm};
    let task = MixedLengthCopy::new(16, 8, 8).unwrap();
    let batch = task.batch(StreamKey::new(1, "bench"), 0, 16);
    let mut g = c.benchmark_group("train_step");
    g.throughput(Throughput::Elements(16 * 18));
    let lm = MambaLm::init(BlockShape::mamba(32, 16), 2, task.vocab(), StreamKey::new(1, "copy")).unwrap();
    let mut opt = Adam::new(lm.vars(), Default::default()).unwrap();
    g.bench_function("003 copy 2-block Mamba N_max=8 B16_T18 (tokens)", |b| b.iter(|| fit::train_step(&lm, &mut opt, black_box(&batch)).unwrap()));
    g.finish();
}

/// The same job on every backend available in this build: throughput in path-steps per second.
fn backends(c: &mut Criterion) {
    let steps = 20_000;
    let job = lrd_job(steps, 64, 8);
    let bar = Silent;
    let mut available: Vec<Box<dyn Backend>> = vec![Box::new(CpuBackend), Box::new(ssmcheck::mc::ShimBackend::new())];
    if let Ok(gpu) = "cuda".parse::<ssmcheck::mc::BackendChoice>().and_then(|c| c.open()) {
        available.push(gpu);
    }
    let mut g = c.benchmark_group("backends/diagonal_lrd");
    g.throughput(Throughput::Elements(steps * job.paths));
    for backend in &available {
        g.bench_function(format!("{} (path-steps)", backend.name()), |b| b.iter(|| backend.run(black_box(&job), &bar).unwrap()));
    }
    g.finish();
}

fn property_check(c: &mut Criterion) {
    let registry = ssmcheck::claims::registry();
    let claim = registry.get("004.cor1.lognorm").unwrap();
    let bar = Silent;
    c.bench_function("property 004.cor1.lognorm quick", |b| {
        b.iter(|| {
            let ctx = Context::new(1, Budget::Quick, &CpuBackend, "bench", &bar);
            claim.check.run(&ctx).unwrap()
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = elementary, normals, diagonal, scan, interaction, stability, rare_events, train_step, backends, property_check
}
criterion_main!(benches);
