//! The CUDA kernels, run on the CPU through the shim, agree with the rayon backend on the same
//! streams — and a kernel with a planted off-by-one in its step loop is caught by the same test.

use ssmcheck::mc::jobs::{log_checkpoints, DiagonalLrdJob, DiagonalLrdPath, InteractionJob, NeedleJob, Start, TailSumJob, TiltedTailJob};
use ssmcheck::mc::{CpuBackend, Job, RunJob, ShimBackend, StreamKey};
use ssmcheck::model::Discretization;
use ssmcheck::progress::Silent;

/// Agreement tolerance: both sides evaluate the same IEEE operations with the same libm (and the
/// shim is compiled without FMA contraction), so on this machine the results are bit-identical;
/// 1e−12 relative leaves room for another libm.
const RTOL: f64 = 1e-12;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= RTOL * (1.0 + a.abs().max(b.abs()))
}

fn diagonal_job(disc: Discretization) -> DiagonalLrdJob {
    DiagonalLrdJob {
        a: vec![-0.5, -1.0, -1.5, 0.0],
        b: vec![1.0, -0.5, 2.0, 0.25],
        w: 1.0,
        bias: -1.0,
        disc,
        horizon: 5000,
        paths: 37,
        claimed_rate: -0.5,
        checkpoints: 9,
        key: StreamKey::new(3, "kernels/diagonal"),
    }
}

fn agree(a: &[DiagonalLrdPath], b: &[DiagonalLrdPath]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            close(x.log_bbar, y.log_bbar)
                && close(x.min_margin, y.min_margin)
                && x.argmin_k == y.argmin_k
                && close(x.s_final, y.s_final)
                && close(x.log_lrd_final, y.log_lrd_final)
                && x.trace.len() == y.trace.len()
                && x.trace.iter().zip(&y.trace).all(|(p, q)| p.0 == q.0 && close(p.1, q.1) && close(p.2, q.2))
        })
}

#[test]
fn diagonal_lrd_kernel_matches_the_rayon_backend() {
    let bar = Silent;
    for disc in [Discretization::Zoh, Discretization::Euler] {
        let job = diagonal_job(disc);
        let cpu = CpuBackend.run(&job, &bar).unwrap();
        let kernel = ShimBackend::new().run(&job, &bar).unwrap();
        assert!(agree(&cpu, &kernel), "kernel and rayon backend differ ({disc:?})");
    }
}

#[test]
fn tail_sum_kernel_matches_the_rayon_backend() {
    let bar = Silent;
    let job = TailSumJob { c: 0.5, gamma: 0.499, times: vec![1, 10, 100, 1000], samples: 777, key: StreamKey::new(3, "kernels/tail") };
    let cpu = CpuBackend.run(&job, &bar).unwrap();
    let kernel = ShimBackend::new().run(&job, &bar).unwrap();
    assert_eq!(cpu.len(), kernel.len());
    assert!(cpu.iter().flatten().zip(kernel.iter().flatten()).all(|(a, b)| close(*a, *b)));
}

/// A tilted tail-sum job at the saddle point of `P(Y_t ≥ 0.3t)` for (0.5, 0.499): θ ≈ 1.1,
/// acceptance ≈ 0.8, so both accepted and rejected proposals occur in every sample.
fn tilted_job(t: u64) -> TiltedTailJob {
    use ssmcheck::math::large_deviation::{Threshold, TiltedProposal};
    let law = ssmcheck::math::subexp::LogChi2::new(0.5, 0.499).unwrap();
    let event = Threshold::new(&law, t, 0.3 * t as f64);
    let p = TiltedProposal::new(&law, &event.tilted);
    assert!(p.theta > 0.5 && p.acceptance < 0.95, "{p:?}");
    TiltedTailJob {
        c: 0.5,
        gamma: 0.499,
        theta: p.theta,
        eta: p.eta,
        scale: p.scale,
        log_bound: p.log_bound,
        t,
        samples: 333,
        key: StreamKey::new(3, "kernels/tilted"),
        accept_key: StreamKey::new(3, "kernels/tilted/accept"),
    }
}

#[test]
fn tilted_tail_sum_kernel_matches_the_rayon_backend() {
    for t in [1, 7, 1000, 3000] {
        let job = tilted_job(t);
        let cpu = CpuBackend.run(&job, &Silent).unwrap();
        let kernel = ShimBackend::new().run(&job, &Silent).unwrap();
        assert_eq!(cpu.len(), kernel.len());
        assert!(cpu.iter().zip(&kernel).all(|(a, b)| close(*a, *b)), "t = {t}");
        // Under the tilt the sums centre on the threshold 0.3t (the saddle point's mean).
        if t >= 1000 {
            let mean = cpu.iter().sum::<f64>() / cpu.len() as f64;
            assert!((mean / t as f64 - 0.3).abs() < 0.02, "t = {t}: mean per step {}", mean / t as f64);
        }
    }
}

#[test]
fn interaction_kernel_matches_the_rayon_backend() {
    let bar = Silent;
    let h = 5;
    let abar: Vec<Vec<f64>> = (0..h).map(|i| (0..h).map(|j| if i == j { 0.6 - 0.05 * i as f64 } else { 0.02 * (i as f64 - j as f64) }).collect()).collect();
    for start in [Start::Lrd { t: 7 }, Start::Random] {
        let job = InteractionJob {
            abar: abar.clone(),
            bbar: vec![1.0, -0.5, 0.25, 0.0, 2.0],
            g: vec![0.2, 0.1, -0.3, 0.05, 0.0],
            w: vec![0.1, -0.2, 0.3, 0.0, 0.15],
            start,
            horizon: 3000,
            burn_in: 300,
            paths: 41,
            checkpoints: 8,
            key: StreamKey::new(3, "kernels/interaction"),
        };
        let cpu = CpuBackend.run(&job, &bar).unwrap();
        let kernel = ShimBackend::new().run(&job, &bar).unwrap();
        assert_eq!(cpu.len(), kernel.len());
        for (a, b) in cpu.iter().zip(&kernel) {
            assert!(
                close(a.log_v0, b.log_v0) && close(a.log_growth, b.log_growth) && close(a.log_growth_after_burn_in, b.log_growth_after_burn_in),
                "{start:?}"
            );
            assert_eq!(a.increases, b.increases);
            assert!(a.trace.iter().zip(&b.trace).all(|(p, q)| p.0 == q.0 && close(p.1, q.1)));
        }
    }
}

fn needle_job(capacity: usize) -> NeedleJob {
    NeedleJob { abar: 0.9, capacity, distractors: 6, horizon: 5000, lags: log_checkpoints(5000, 12), paths: 300, key: StreamKey::new(3, "kernels/needle") }
}

#[test]
fn needle_kernel_matches_the_rayon_backend() {
    let bar = Silent;
    // m_e = 0 (nothing held), 3 (the needle lost to later spikes on some paths), 16 (the limit).
    for capacity in [0, 3, 16] {
        let job = needle_job(capacity);
        let cpu = CpuBackend.run(&job, &bar).unwrap();
        assert_eq!(cpu, ShimBackend::new().run(&job, &bar).unwrap(), "m_e = {capacity}");
        let held_at_end = cpu.iter().filter(|h| *h.last().unwrap()).count();
        // Not a vacuous comparison: with m_e = 3 and 6 distractors the needle is held on some
        // paths and lost on others.
        if capacity == 3 {
            assert!(held_at_end > 0 && held_at_end < 300, "{held_at_end}");
        }
    }
}

#[test]
fn a_planted_off_by_one_is_caught_by_the_same_agreement_test() {
    let bar = Silent;
    let job = diagonal_job(Discretization::Zoh);
    let cpu = CpuBackend.run(&job, &bar).unwrap();
    let planted = ShimBackend::with_planted_bug().run(&job, &bar).unwrap();
    assert!(!agree(&cpu, &planted), "the planted bug went unnoticed");
    let job = needle_job(3);
    assert_ne!(CpuBackend.run(&job, &bar).unwrap(), ShimBackend::with_planted_bug().run(&job, &bar).unwrap(), "the planted needle bug went unnoticed");
    let job = tilted_job(50);
    let (cpu, planted) = (CpuBackend.run(&job, &bar).unwrap(), ShimBackend::with_planted_bug().run(&job, &bar).unwrap());
    assert!(!cpu.iter().zip(&planted).all(|(a, b)| close(*a, *b)), "the planted tilted-sum bug went unnoticed");
}

#[test]
fn claims_give_the_same_results_through_the_kernels() {
    use ssmcheck::claim::{run_claims, Budget, RunConfig};
    use ssmcheck::mc::Backend;
    use ssmcheck::prelude::*;
    let registry = ssmcheck::claims::registry();
    let ids = ["004.cor1.cumulative", "004.thm4", "004.thm4.sharp", "004.fig2", "004.sec41", "001.c21.needle"];
    let claims: Vec<&Claim> = ids.iter().map(|id| registry.get(id).unwrap()).collect();
    let run = |backend: &dyn Backend| {
        let cfg = RunConfig { seed: 5, budget: Budget::Quick, backend, progress: false, parallel: false };
        serde_json::to_value(run_claims(&claims, &cfg).without_times().claims).unwrap()
    };
    assert_eq!(run(&CpuBackend), run(&ShimBackend::new()));
}

/// A range of a job's paths through a kernel (a shard's share, `first` > 0) is exactly those
/// paths of the whole job, and of the rayon backend's range; an empty range launches nothing.
#[test]
fn a_range_of_paths_through_the_kernels_is_that_range_of_the_whole_job() {
    let shim = ShimBackend::new();
    /// Paths `range` of `job` through the kernels and on the rayon backend are those paths of
    /// the whole job through the kernels.
    fn same<J: Job>(shim: &ShimBackend, job: &J, range: std::ops::Range<u64>, what: &str)
    where
        J::Output: std::fmt::Debug,
    {
        let bar = Silent;
        let whole = shim.run(job, &bar).unwrap();
        let expected = format!("{:?}", &whole[range.start as usize..range.end as usize]);
        let part = shim.run_paths(job, range.clone(), &bar).unwrap();
        let cpu = CpuBackend.run_paths(job, range.clone(), &bar).unwrap();
        assert_eq!(format!("{part:?}"), expected, "{what} {range:?} through the kernel");
        assert_eq!(format!("{cpu:?}"), expected, "{what} {range:?} on the rayon backend");
    }
    for r in [13..29, 0..1, 20..20, 36..37] {
        let d = diagonal_job(Discretization::Zoh);
        same(&shim, &d, r.clone(), "LRD");
        let t = TailSumJob { c: 0.5, gamma: 0.499, times: vec![1, 10, 100], samples: 37, key: StreamKey::new(3, "kernels/tail-range") };
        same(&shim, &t, r.clone(), "tail sums");
        let tt = TiltedTailJob { samples: 37, ..tilted_job(7) };
        same(&shim, &tt, r.clone(), "tilted");
        let n = NeedleJob { paths: 37, ..needle_job(3) };
        same(&shim, &n, r.clone(), "needle");
        let i = InteractionJob {
            abar: vec![vec![0.5, 0.1], vec![0.0, 0.4]],
            bbar: vec![1.0, -0.5],
            g: vec![0.2, 0.1],
            w: vec![0.1, -0.2],
            start: Start::Random,
            horizon: 500,
            burn_in: 50,
            paths: 37,
            checkpoints: 4,
            key: StreamKey::new(3, "kernels/interaction-range"),
        };
        same(&shim, &i, r, "interaction");
    }
}
