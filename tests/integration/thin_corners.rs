//! The thin-corner benchmark: planted false statements whose violations fill a region of known
//! probability, from 10⁻³ down to 10⁻⁸, written through the public API as a user would.
//!
//! Each statement bounds a linear form of a unit vector u ∈ S^{d−1} (uniform on the sphere,
//! [`strategy::unit_vector`]), a parameter θ ∈ [0, 1] that turns a direction k(θ), and one or two
//! scalars s ∈ [0, 1]:
//!
//! ```text
//!     ⟨u, k(θ)⟩ + K·Σⱼ (sⱼ − 1) ≤ c,      k(θ)ᵢ ∝ cos(π(i + 1)θ), |k(θ)| = 1.
//! ```
//!
//! It is false exactly where u lies in the cap of angular radius arccos(c) around k(θ) (a
//! direction that moves with θ) *and* the scalars sit within (1 − c)/K of their upper end. The
//! violating region's probability under the strategy is computed, not guessed ([`Plant::volume`]):
//! the strategy's scalars lie on the grid {i·2⁻²⁰}, so the probability is the finite sum
//! Σ_J w(J)/(2²⁰ + 1)^m · cap(c + K·J·2⁻²⁰) over the grid's distances J from the end (w(J) = 1
//! for one scalar, J + 1 for two), and cap(t) = P(⟨u, k⟩ > t) = ½·I_{1−t²}((d − 1)/2, ½) for u
//! uniform on S^{d−1} (a regularised incomplete beta, summed as a series of positive terms, so to
//! about 10⁻¹³ relative, the rounding of its ln Γ factors), the sum in closed form by
//! Euler–Maclaurin. The formula is checked against the sum term by term and against the strategy
//! itself by sampling at volumes 10⁻² and 10⁻³.
//!
//! The same region is read through three landscapes ([`Landscape`]): linear, behind a gate (flat
//! to f64 away from the region) and a step (no information at all). The detection rate against
//! the volume at the quick, standard and deep budgets over ten seeds is the README's table
//! (`cargo test --release --test integration thin_corners -- --ignored --nocapture`); a plain
//! `cargo test` checks the standard budget's goal at seeds 1–3 (CI at 1–10).

use ssmcheck::claim::{run_claim, Budget, RunConfig};
use ssmcheck::mc::CpuBackend;
use ssmcheck::prelude::*;

/// The grid of [`strategy::real`] on [0, 1]: 2²⁰ + 1 points, step 2⁻²⁰.
const GRID: f64 = 1_048_576.0;

/// How the statement's margin reads the linear form L = ⟨u, k(θ)⟩ + K·Σ(sⱼ − 1): both give the
/// same violating region {L > c}, and differ in what the search sees outside it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Landscape {
    /// `L ≤ c`: the margin c − L falls steadily toward the corner.
    Linear,
    /// `σ(β(L − c)) ≤ ½` (a gate, as Mamba's σ and softplus are): the margin ½ − σ(β(L − c)) is
    /// flat to f64 (exactly ½) wherever c − L > 37/β, so the search sees nothing until it is
    /// within 37/β of the region.
    Gated(f64),
    /// `𝟙[L > c] ≤ 0` (a count, an argmax, a decision): the margin is the same everywhere
    /// outside the region, to every digit, so no search can do better than its proposal
    /// distribution; this shape calibrates the table against sampling.
    Step,
}

/// A planted statement: dimension `dim`, `scalars` (1 or 2) edge scalars of slope `slope`,
/// bound `c`, read through `landscape`.
#[derive(Clone, Copy, Debug)]
struct Plant {
    dim: usize,
    scalars: usize,
    slope: f64,
    c: f64,
    landscape: Landscape,
}

/// k(θ): cos(π(i + 1)θ), i < d, normalised (never zero: the i = 0 and i = 1 terms do not vanish
/// together).
fn direction(theta: f64, d: usize) -> Vec<f64> {
    let k: Vec<f64> = (0..d).map(|i| (std::f64::consts::PI * (i + 1) as f64 * theta).cos()).collect();
    let norm = k.iter().map(|x| x * x).sum::<f64>().sqrt();
    k.iter().map(|x| x / norm).collect()
}

/// The regularised incomplete beta I_x(a, b) for 0 ≤ x < 1 by its hypergeometric series,
/// x^a (1 − x)^b / (a·B(a, b)) · Σₙ (a + b)ₙ/(a + 1)ₙ xⁿ, whose terms are all positive (so the sum
/// loses no digits: relative error a few ulps per term plus the rounding of the three ln Γ, about
/// 10⁻¹³ at a, b ~ 16), summed until a term
/// falls below 10⁻¹⁸ of the sum.
fn beta_inc(x: f64, a: f64, b: f64) -> f64 {
    use statrs::function::gamma::ln_gamma;
    if x == 0.0 {
        return 0.0;
    }
    let front = (a * x.ln() + b * (-x).ln_1p() - a.ln() - (ln_gamma(a) + ln_gamma(b) - ln_gamma(a + b))).exp();
    let (mut term, mut sum, mut n) = (1.0f64, 1.0f64, 0.0f64);
    while term > 1e-18 * sum {
        term *= (a + b + n) / (a + 1.0 + n) * x;
        sum += term;
        n += 1.0;
    }
    front * sum
}

/// P(⟨u, k⟩ > t) for u uniform on S^{d−1} and any unit k: ½·I_{1−t²}((d − 1)/2, ½) for t ≥ 0
/// (the law of one coordinate of a uniform unit vector), by the series in 1 − t², and for
/// t² < 10⁻³ (where that series needs over 40 000 terms) by 1 − I_{t²}(½, (d − 1)/2) (the cap is
/// then above 0.4 for d ≤ 65, so the subtraction costs under two bits).
fn cap(t: f64, d: usize) -> f64 {
    let a = (d as f64 - 1.0) / 2.0;
    if t >= 1.0 {
        0.0
    } else if t <= -1.0 {
        1.0
    } else if t < 0.0 {
        1.0 - cap(-t, d)
    } else if t * t < 1e-3 {
        0.5 * (1.0 - beta_inc(t * t, 0.5, a))
    } else {
        0.5 * beta_inc((1.0 - t) * (1.0 + t), a, 0.5)
    }
}

/// X = ⟨u, k⟩ for u uniform on S^{d−1}, beyond c: its tail p₀ = P(X > c), its density f(c),
/// E(X − c)₊ and E(X − c)₊². With a = (d − 1)/2 and f(τ) = (1 − τ²)^{a−1}/B(a, ½):
/// ∫_c¹ τ f = (1 − c²)^a/(2a·B(a, ½)), and ∫_c¹ τ² f = p₀ − a/(a + ½)·cap_{d+2}(c) (from
/// τ²(1 − τ²)^{a−1} = (1 − τ²)^{a−1} − (1 − τ²)^a), so E(X − c)₊ = ∫τf − c·p₀ and
/// E(X − c)₊² = ∫τ²f − 2c∫τf + c²p₀ (the differences lose up to four digits at c near 1).
struct Moments {
    p0: f64,
    density: f64,
    e1: f64,
    e2: f64,
}

impl Moments {
    fn at(c: f64, d: usize) -> Moments {
        use statrs::function::gamma::ln_gamma;
        let a = (d as f64 - 1.0) / 2.0;
        let ln_b = ln_gamma(a) + ln_gamma(0.5) - ln_gamma(a + 0.5);
        let w = ((1.0 - c) * (1.0 + c)).max(0.0);
        let p0 = cap(c, d);
        let density = if w == 0.0 { 0.0 } else { ((a - 1.0) * w.ln() - ln_b).exp() };
        let m1 = if w == 0.0 { 0.0 } else { (a * w.ln() - (2.0 * a).ln() - ln_b).exp() };
        let m2 = p0 - a / (a + 0.5) * cap(c, d + 2);
        Moments { p0, density, e1: m1 - c * p0, e2: m2 - 2.0 * c * m1 + c * c * p0 }
    }
}

impl Plant {
    /// The violating region's probability under the strategy, Σ_J w(J)·cap(c + K·J·h)/(2²⁰ + 1)^m
    /// with h = 2⁻²⁰, summed by Euler–Maclaurin: with g(J) = cap(c + KhJ) and X = ⟨u, k⟩,
    /// Σ g = E(X − c)₊/(Kh) + g(0)/2 + Kh·f(c)/12 and Σ J·g = E(X − c)₊²/(2(Kh)²) − g(0)/12 (f the
    /// density of X), the moments in closed form ([`Moments`]). The terms left out are O((Kh)²)
    /// relative at c and, at t = 1 where g vanishes like (1 − t)^{(d+1)/2}, O((Kh)^{(d+1)/2}):
    /// at most 10⁻⁸ measured at Kh = 2⁻¹², d ≥ 4, and less at the benchmark's Kh = 2⁻¹⁵.
    /// `volume_by_sum` is the sum itself, which a test compares.
    fn volume(&self) -> f64 {
        assert!(self.c + self.slope >= 1.0, "the scalars' whole range must reach the region's end");
        let kh = self.slope / GRID;
        let m = Moments::at(self.c, self.dim);
        let ones = m.e1 / kh + m.p0 / 2.0 + kh * m.density / 12.0;
        let total = if self.scalars == 1 { ones } else { ones + m.e2 / (2.0 * kh * kh) - m.p0 / 12.0 };
        total / (GRID + 1.0).powi(self.scalars as i32)
    }

    /// The same probability as the finite sum term by term (slow unless K is large).
    fn volume_by_sum(&self) -> f64 {
        let mut total = 0.0;
        let mut j = 0u64;
        while (j as f64) <= GRID {
            let t = self.c + self.slope * j as f64 / GRID;
            if t >= 1.0 {
                break;
            }
            let ways = if self.scalars == 1 { 1.0 } else { (j + 1) as f64 };
            total += ways * cap(t, self.dim);
            j += 1;
        }
        total / (GRID + 1.0).powi(self.scalars as i32)
    }

    /// The plant whose bound c (on the grid 2⁻²⁰) makes the violating region's probability the
    /// largest at most `target` (bisection: the volume falls as c rises).
    fn with_volume(dim: usize, scalars: usize, slope: f64, landscape: Landscape, target: f64) -> Plant {
        let at = |c: f64| Plant { dim, scalars, slope, c, landscape };
        let (mut lo, mut hi) = ((1.0 - slope).max(-1.0), 1.0f64);
        for _ in 0..44 {
            let mid = 0.5 * (lo + hi);
            if at(mid).volume() > target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        at((hi * GRID).ceil() / GRID)
    }

    /// L = ⟨u, k(θ)⟩ + K·Σ(sⱼ − 1) and its rounding bound: the dot product of two unit vectors
    /// (each normalised to rounding) and the scalars' sum, γ_{d+m+4}·(1 + K·m).
    fn form(&self, u: &[f64], theta: f64, s: &[f64]) -> (f64, f64) {
        let k = direction(theta, self.dim);
        let lhs = u.iter().zip(&k).map(|(a, b)| a * b).sum::<f64>() + self.slope * s.iter().map(|x| x - 1.0).sum::<f64>();
        (lhs, Rounding::gamma(self.dim + self.scalars + 4) * (1.0 + self.slope * self.scalars as f64))
    }

    /// The statement as a user would write it, with the benchmark's cases (200, 2000, 20 000
    /// random instances; the search adds half as many at standard and deep).
    fn claim(&self) -> Claim {
        let plant = *self;
        let strategy = (strategy::unit_vector(plant.dim), strategy::real(0.0, 1.0), proptest::collection::vec(strategy::real(0.0, 1.0), plant.scalars));
        let p = property([200, 2000, 20000], strategy, move |(u, theta, s)| {
            let (lhs, tol) = plant.form(u, *theta, s);
            match plant.landscape {
                Landscape::Linear => Eval::le_by(lhs, plant.c, Scale(1.0), Tolerance::absolute(tol)),
                // σ is monotone, so σ(β(L − c)) > ½ exactly when L > c; its rounding moves the
                // threshold by β·tol·¼ + ulp(½).
                Landscape::Gated(beta) => {
                    let gate = 1.0 / (1.0 + (-beta * (lhs - plant.c)).exp());
                    Eval::le_by(gate, 0.5, Scale(1.0), Tolerance::absolute(beta * tol / 4.0 + Rounding::value(1.0, 4.0)))
                }
                // The indicator of L > c beyond its rounding, exactly 0 or 1.
                Landscape::Step => Eval::le_by(f64::from(u8::from(lhs - plant.c > tol)), 0.0, Scale(1.0), Tolerance::NONE),
            }
        });
        let shape = match self.landscape {
            Landscape::Linear => "linear".to_string(),
            Landscape::Gated(beta) => format!("gated{beta}"),
            Landscape::Step => "step".to_string(),
        };
        let id = format!("bench.corner.{shape}.d{}.m{}.v{:.0e}", self.dim, self.scalars, self.volume());
        let statement =
            format!("For u ∈ S^{}, θ ∈ [0, 1], s ∈ [0, 1]^{}: ⟨u, k(θ)⟩ + {}·Σ(sⱼ − 1) ≤ {} ({shape}).", self.dim - 1, self.scalars, self.slope, self.c);
        Claim::conjecture(&id, Family::USER, &statement, p).source("tests/thin_corners", "benchmark", &statement)
    }
}

/// The four shapes: a 17-dimensional cap with one scalar within about 1% of its end, a
/// 33-dimensional cap with two scalars within about 10%, and the first behind a gate of
/// β = 1000 (its margin flat to f64 beyond 0.037 of the region, its low part flat beyond 0.7,
/// where σ underflows) and behind a step.
const SHAPES: [(usize, usize, f64, Landscape); 4] =
    [(17, 1, 32.0, Landscape::Linear), (33, 2, 8.0, Landscape::Linear), (17, 1, 32.0, Landscape::Gated(1000.0)), (17, 1, 32.0, Landscape::Step)];

/// The benchmark's volumes.
const VOLUMES: [f64; 6] = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8];

/// Whether `claim` is refuted at `budget` and `seed`: the evaluations up to the refuting one
/// (the JSON's `found_after`) and which phase found it.
fn detect(claim: &Claim, budget: Budget, seed: u64) -> Option<(u64, String)> {
    let cfg = RunConfig { seed, budget, backend: &CpuBackend, progress: false, parallel: false };
    let r = run_claim(claim, &cfg);
    r.result.is_refuted().then(|| {
        let after = r.details.get("found_after").and_then(|v| v.as_u64()).expect("a refuted property records found_after");
        (after, r.details.get("found_by").and_then(|v| v.as_str()).unwrap_or_default().to_string())
    })
}

/// The cap formula: at d = 3 it is Archimedes' (1 − t)/2, at d = 2 the arc's arccos(t)/π; at
/// every d it is a probability (1 at t = −1, ½ at 0, 0 at 1), falls with t, and its two series
/// agree where they meet (t² = 10⁻³).
#[test]
fn the_cap_formula_is_archimedes_at_three_and_a_tail_at_every_dimension() {
    for t in [-0.9, -0.3, 0.0, 0.25, 0.5, 0.99] {
        assert!((cap(t, 3) - (1.0 - t) / 2.0).abs() < 1e-14, "{t}: {}", cap(t, 3));
        assert!((cap(t, 2) - f64::acos(t) / std::f64::consts::PI).abs() < 1e-13, "{t}: {}", cap(t, 2));
    }
    for d in [4, 5, 16, 17, 33, 65] {
        let t = 1e-3f64.sqrt();
        let (a, b) = (0.5 * (1.0 - beta_inc(t * t, 0.5, (d as f64 - 1.0) / 2.0)), 0.5 * beta_inc(1.0 - t * t, (d as f64 - 1.0) / 2.0, 0.5));
        assert!((a - b).abs() < 1e-12 * a, "{d}: {a} against {b}");
        assert!((cap(-1.0, d) - 1.0).abs() < 1e-12 && (cap(0.0, d) - 0.5).abs() < 1e-12 && cap(1.0, d) == 0.0, "{d}");
        let mut last = 1.0;
        for i in 1..100 {
            let now = cap(-1.0 + 0.02 * i as f64, d);
            // Strictly inside (0, 1) it falls strictly; near ±1 it may round to 1 or 0.
            assert!(now < last || now == 1.0 || (now == 0.0 && last == 0.0), "d = {d}: {now} after {last}");
            last = now;
        }
    }
}

/// The Euler–Maclaurin volume is the finite sum: with K = 256 (Kh = 2⁻¹², up to 6144 grid points
/// in the region), for one and two scalars and c from −0.5 to 0.8, they agree to 10⁻⁸ relative at
/// d = 4 (measured; the far end, where g is least smooth, O((Kh)^{5/2})) and to 4·10⁻¹⁰ at
/// d = 17 and 33 (the terms at c, O((Kh)⁴) over the scale on which g falls); both shrink as Kh
/// does, and the benchmark's is 2⁻¹⁵.
#[test]
fn the_volume_in_closed_form_is_the_grid_sum() {
    for dim in [4, 17, 33] {
        for scalars in [1, 2] {
            for c in [-0.5, 0.3, 0.8] {
                let plant = Plant { dim, scalars, slope: 256.0, c, landscape: Landscape::Linear };
                let (closed, sum) = (plant.volume(), plant.volume_by_sum());
                let tol = if dim < 9 { 3e-8 } else { 2e-9 };
                assert!((closed - sum).abs() <= tol * sum, "{plant:?}: {closed:e} against {sum:e}");
            }
        }
    }
}

/// The computed volume is the strategy's: over 200 000 instances drawn by the statement's own
/// strategy, the count of violations lies within 4.5 SE of 200 000·V for three plants of
/// V ≈ 10⁻² and 10⁻³ (four tests, each at 7·10⁻⁶). Control: the volume computed for the wrong
/// dimension (d − 4, the cap of a lower sphere) misses the same count by more.
#[test]
fn the_computed_volume_is_the_strategys() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    const DRAWS: u64 = 200_000;
    let within = |count: u64, volume: f64| (count as f64 - DRAWS as f64 * volume).abs() <= 4.5 * (DRAWS as f64 * volume).sqrt();
    for (dim, scalars, slope, target) in [(17, 1, 2.0, 1e-2), (33, 2, 1.0, 1e-2), (17, 1, 32.0, 1e-3), (9, 2, 4.0, 1e-2)] {
        let plant = Plant::with_volume(dim, scalars, slope, Landscape::Linear, target);
        let strategy = (strategy::unit_vector(dim), strategy::real(0.0, 1.0), proptest::collection::vec(strategy::real(0.0, 1.0), scalars));
        let mut runner = TestRunner::deterministic();
        let count = (0..DRAWS)
            .filter(|_| {
                let (u, theta, s) = strategy.new_tree(&mut runner).unwrap().current();
                plant.form(&u, theta, &s).0 > plant.c
            })
            .count() as u64;
        assert!(within(count, plant.volume()), "{plant:?}: {count} violations of {DRAWS}, volume {:.3e}", plant.volume());
        let wrong = Plant { dim: dim - 4, ..plant };
        assert!(!within(count, wrong.volume()), "the control {wrong:?}: {count} violations against volume {:.3e}", wrong.volume());
    }
}

/// The gate changes the landscape, not the region: on the 17-dimensional plant at V = 10⁻³ the
/// gated and the linear statements agree on every one of 20 000 instances drawn near the
/// threshold (L within 0.05 of c), and the gated margin is exactly ½ wherever c − L > 37/β.
#[test]
fn the_gate_keeps_the_region_and_flattens_the_margin() {
    let linear = Plant::with_volume(17, 1, 32.0, Landscape::Linear, 1e-3);
    let beta = 1000.0;
    let mut stream = ssmcheck::mc::Stream::new(ssmcheck::mc::StreamKey::new(7, "gate"), 0);
    for _ in 0..20_000 {
        let l = linear.c + 0.1 * (stream.uniform() - 0.5);
        let gate = 1.0 / (1.0 + (-beta * (l - linear.c)).exp());
        assert_eq!(gate > 0.5, l > linear.c, "L = {l}");
        let far = linear.c - 0.04 - stream.uniform();
        let margin = 0.5 - 1.0 / (1.0 + (-beta * (far - linear.c)).exp());
        assert_eq!(margin, 0.5, "L = {far}");
    }
}

/// The goal of issue 51: one-in-a-million corners found at the standard budget at every seed
/// (3 in `cargo test`, 10 in CI; the issue asks for at least 9 of 10), in both linear shapes and
/// behind the gate (which needs the search's tie-break on the gap's low part), with the search's
/// effort recorded; and the true twin (c = 1: the region is empty) is never refuted, so the
/// detections are not false alarms.
#[test]
fn one_in_a_million_corners_are_found_at_standard() {
    let mut missed = vec![];
    for &(dim, scalars, slope, landscape) in SHAPES.iter().filter(|s| s.3 != Landscape::Step) {
        let plant = Plant::with_volume(dim, scalars, slope, landscape, 1e-6);
        assert!(plant.volume() > 0.9e-6 && plant.volume() <= 1e-6, "{plant:?}");
        let twin = Plant { c: 1.0, ..plant };
        for seed in super::common::bench_seeds() {
            if detect(&plant.claim(), Budget::Standard, seed).is_none() {
                missed.push(format!("{plant:?} at seed {seed}"));
            }
            assert!(detect(&twin.claim(), Budget::Standard, seed).is_none(), "the true twin {twin:?} refuted at seed {seed}");
        }
    }
    assert!(missed.is_empty(), "one-in-a-million corners missed at standard: {missed:?}");
}

/// The README's table: detections out of ten seeds, per shape, volume and budget, with the
/// median evaluations to the refuting instance. Run with
/// `cargo test --release --test integration thin_corners -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement (about a minute in release): the README's thin-corner table"]
fn thin_corner_table() {
    println!("| shape | volume | quick | standard | deep | median evaluations (standard) | found by (standard) |");
    println!("|---|---|---|---|---|---|---|");
    for (dim, scalars, slope, landscape) in SHAPES {
        for target in VOLUMES {
            let plant = Plant::with_volume(dim, scalars, slope, landscape, target);
            let claim = plant.claim();
            let mut cells = vec![];
            let mut effort = vec![];
            let mut phases = std::collections::BTreeMap::<String, usize>::new();
            for budget in [Budget::Quick, Budget::Standard, Budget::Deep] {
                let found: Vec<_> = (1..=10).filter_map(|seed| detect(&claim, budget, seed)).collect();
                if budget == Budget::Standard {
                    effort = found.iter().map(|f| f.0).collect();
                    for f in &found {
                        *phases.entry(f.1.clone()).or_default() += 1;
                    }
                }
                cells.push(format!("{}/10", found.len()));
            }
            effort.sort_unstable();
            let median = effort.get(effort.len() / 2).map(|e| e.to_string()).unwrap_or_else(|| "—".into());
            let by: Vec<String> = phases.iter().map(|(k, v)| format!("{v} {k}")).collect();
            println!("| {} | {:.2e} (c = {}) | {} | {median} | {} |", claim.meta.id, plant.volume(), plant.c, cells.join(" | "), by.join(", "));
        }
    }
}
