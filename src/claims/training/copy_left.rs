//! 003 §4.3, Fig. 2 (left), trained: a Transformer learns the copy task from far fewer examples
//! than a Mamba of the same size ("Transformer learns the task quickly whereas Mamba requires
//! nearly seven times the number of examples").
//!
//! * `003.fig2.left` (Experiment): the paper's two kinds of model at the same small size — a
//!   two-block [`MambaLm`] (the Mamba block with its convolution, gate and selective Δ, B, C;
//!   d_model 32, N 16; 21 088 parameters; no position input) and a two-layer RoPE
//!   [`TransformerLm`] (d_model 32, 2 heads, an MLP of 3·d_model; 21 792 parameters) — trained
//!   per seed on the same stream of 003 §4.3's copy task ([`MixedLengthCopy`]: the string length
//!   of each batch uniform on [N_max/2, N_max], alphabet 16, scored on held-out strings of length
//!   N_max none of which the seed's training stream holds: [`MixedLengthCopy::unseen_in`]), each
//!   until 95% in 3 consecutive evaluations (the paper's count of *examples needed*).
//!   Per seed the metric is log₂(E_Mamba / E_Transformer), a run not learned within the step
//!   budget counting as +∞ (two runs not learned: 0, no order shown); over the seeds its
//!   **median** must be at least 1 (the Transformer needs at most half the Mamba's examples),
//!   judged by [`experiment::judge`] with the order-statistic interval (a censored run is +∞ and
//!   sits at an end of the order, where a mean could not hold it). N_max is 4 at quick and
//!   standard, 16 at deep: the pilot (proofs/training.md) found the ordering only from N_max = 16
//!   on — below it the small Mamba needs *fewer* examples — so at quick and standard the verdict
//!   is expected to be *not reproduced at this scale*, and the deep budget is the rerun.
//!   Negative control: the Mamba against a second Mamba (another initial weight, the same data;
//!   twelve seeds at every budget), which has no ordering. Positive control: the Transformer
//!   frozen at its initial weights (learning rate 0) against the trained Transformer — it never
//!   reaches 95%, so it needs more than any number of examples — run until it has seen twice
//!   the other's examples plus two evaluations.

use super::copy_examples::needed;
use crate::claim::experiment::{self, ControlRun, Criterion, Direction, PaperNumber, Replicates};
use crate::claim::{custom, Claim, Context, Figure, Kind, Paper, Series, Sizes, Style};
use crate::claims::{shared, Shared};
use crate::error::Result;
use crate::tasks::copy::{MixedLengthCopy, TrainingStream};
use crate::tasks::TokenTask;
use crate::train::adam::AdamConfig;
use crate::train::fit::{fit_until, LearnedWhen, RunKeys};
use crate::train::mamba_block::{BlockShape, MambaLm};
use crate::train::transformer::{Position, TransformerLm, TransformerShape};
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};

/// This claim's id, by which `003.fig2.trained` keys the runs the two claims share.
pub(super) const LEFT_ID: &str = "003.fig2.left";

/// The alphabet (the vocabulary adds `<BOS>` and `<SEP>`): large enough that a held-out string
/// of length 16 is never a training string (16¹⁶ strings), and the pilot's.
pub(super) const ALPHABET: usize = 16;
/// d_model of both models.
pub(super) const WIDTH: usize = 32;
/// Layers (blocks) of both models.
pub(super) const LAYERS: usize = 2;
/// The Mamba blocks' states per channel (Mamba's default).
pub(super) const STATES: usize = 16;
/// Sequences per Adam step.
pub(super) const BATCH: usize = 16;
/// Adam's constant learning rate (the pilot's: at 0.01 the Transformer learned in none of eight
/// runs, and in three of six with the MLP of 3·d_model).
pub(super) const LR: f64 = 0.003;
/// Steps between evaluations.
pub(super) const EVERY: usize = 25;
/// Held-out strings (all of length N_max, the same at every evaluation of a run).
pub(super) const TEST_SIZE: usize = 200;

/// The metric, as [`Replicates`] names it.
const LOG_RATIO: &str = "log2_examples_slow_over_fast";

/// The criterion, fixed before the first run (proofs/training.md).
fn criteria() -> Vec<Criterion> {
    vec![Criterion::new(
        LOG_RATIO,
        Direction::AtLeast,
        1.0,
        "§4.3.1: 'Transformer learns the task quickly whereas Mamba requires nearly seven times the number of examples' (126M against 135M at \
         [10, 30]) and 'Transformers are consistently better than Mamba': the direction, resolved at a ratio of 2 (log₂ ≥ 1) at the median over \
         seeds — 7 is the 135M models' factor, and a small model is not asked for it; the median, because a run not learned is +∞",
    )
    .median()]
}

/// N_max at each budget (training lengths uniform on [N_max/2, N_max]).
pub(super) fn n_max_sizes() -> Sizes<usize> {
    Sizes::new(4, 4, 16)
}

/// Seeds at each budget (each trains every model once).
fn seed_sizes() -> Sizes<u64> {
    Sizes::new(6, 8, 12)
}

/// The most Adam steps a run may take at each budget.
pub(super) fn step_sizes() -> Sizes<usize> {
    Sizes::new(4000, 4000, 12000)
}

/// One budget's setting.
#[derive(Clone, Copy, Debug)]
struct Setting {
    n_max: usize,
    seeds: u64,
    max_steps: usize,
}

impl Setting {
    fn of(ctx: &Context) -> Setting {
        Setting {
            n_max: ctx.size("N_max (training lengths uniform on [N_max/2, N_max]; the paper's: 30)", n_max_sizes()),
            seeds: ctx.size("seeds (each trains the Mamba and the Transformers once)", seed_sizes()),
            max_steps: ctx.size("the most Adam steps per run (16 sequences each)", step_sizes()),
        }
    }
}

/// The models of the experiment and its controls (and of `003.fig2.trained`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub(super) enum Model {
    /// The two-block Mamba (judged).
    Mamba,
    /// The two-layer Transformer (judged, and the fast side of the positive control).
    Transformer,
    /// The same Mamba from another initial weight (the negative control's slow side).
    SecondMamba,
    /// The Transformer at a learning rate of 0: its initial weights throughout (the positive
    /// control's slow side).
    FrozenTransformer,
    /// The Mamba at a learning rate of 0 (`003.fig2.trained`'s positive control).
    FrozenMamba,
}

impl Model {
    fn shape_transformer() -> TransformerShape {
        TransformerShape { d_model: WIDTH, heads: 2, mlp_ratio: 3, position: Position::Rope, conv_width: None }
    }
    fn lr(self) -> f64 {
        if matches!(self, Model::FrozenTransformer | Model::FrozenMamba) {
            0.0
        } else {
            LR
        }
    }
}

/// One run: examples needed (`None`: not learned within its steps), the steps it may take,
/// its evaluations and the share of its held-out strings it never trained on.
#[derive(Clone, Debug, serde::Serialize)]
pub(super) struct Run {
    pub(super) model: Model,
    pub(super) seed: u64,
    pub(super) examples_needed: Option<u64>,
    pub(super) max_steps: usize,
    pub(super) evaluations: Vec<(u64, f64)>,
    pub(super) unseen_share: f64,
    pub(super) parameters: usize,
}

/// The streams of a run: the data (training and held-out) of the seed, shared by every model,
/// and the initial weights of the model.
fn keys(ctx: &Context, model: Model, seed: u64) -> RunKeys {
    let init = match model {
        Model::Mamba | Model::FrozenMamba => "mamba",
        Model::SecondMamba => "mamba 2",
        Model::Transformer | Model::FrozenTransformer => "transformer",
    };
    RunKeys { init: ctx.key(&format!("{seed}/init/{init}")), ..RunKeys::from_parts(|part| ctx.key(&format!("{seed}/{part}"))) }
}

fn train(ctx: &Context, n_max: usize, model: Model, seed: u64, max_steps: usize) -> Result<Run> {
    let keys = keys(ctx, model, seed);
    // Held-out strings none of which a run of the seed can meet in training (at the budget's
    // most steps, so every model of the seed, controls included, is scored on the same ones).
    let steps = step_sizes().at(ctx.budget).max(max_steps);
    let task = MixedLengthCopy::new(ALPHABET, n_max.div_ceil(2), n_max)?.unseen_in(TrainingStream { key: keys.train, steps, batch: BATCH })?;
    let when = LearnedWhen { accuracy: 0.95, consecutive: 3, every: EVERY, test_size: TEST_SIZE, max_steps };
    let adam = AdamConfig { lr: model.lr(), ..Default::default() };
    let (learning, parameters) = match model {
        Model::Mamba | Model::SecondMamba | Model::FrozenMamba => {
            let m = MambaLm::init(BlockShape::mamba(WIDTH, STATES), LAYERS, task.vocab(), keys.init)?;
            (fit_until(&m, &task, BATCH, adam, &keys, &when)?, m.parameters())
        }
        _ => {
            let m = TransformerLm::init(Model::shape_transformer(), LAYERS, task.vocab(), keys.init)?;
            (fit_until(&m, &task, BATCH, adam, &keys, &when)?, m.parameters())
        }
    };
    let steps = learning.evaluations.last().map_or(0, |e| e.0 as usize / BATCH);
    let unseen_share = task.unseen_share(&task.held_out(keys.test, TEST_SIZE), keys.train, steps, BATCH);
    ctx.progress.advance(1);
    Ok(Run { model, seed, examples_needed: learning.examples_needed, max_steps, evaluations: learning.evaluations, unseen_share, parameters })
}

/// The run of `model` at `seed` on copying with N_max = `n_max`, at most `max_steps` steps, on
/// the streams of `ctx`'s claim: trained once per process, whoever asks first (the controls,
/// and `003.fig2.trained` through a context keyed by [`LEFT_ID`], share the runs they have in
/// common, also while running at the same time).
pub(super) fn copy_run(ctx: &Context, n_max: usize, model: Model, seed: u64, max_steps: usize) -> Result<Arc<Run>> {
    static RUNS: Shared<Run> = OnceLock::new();
    shared(&RUNS, format!("{}/{model:?}/{seed}/{n_max}/{max_steps}", ctx.key("runs").as_u64()), || train(ctx, n_max, model, seed, max_steps))
}

/// log₂(E_slow / E_fast), a run not learned as +∞; two runs not learned give 0 (no order).
pub(super) fn log_ratio(slow: Option<u64>, fast: Option<u64>) -> f64 {
    match (slow, fast) {
        (None, None) => 0.0,
        _ => needed(slow).log2() - needed(fast).log2(),
    }
}

/// The steps the positive control's slow run may take: until it has seen twice the fast run's
/// examples plus two evaluations (a run not learned by then needed more than twice as many:
/// its first evaluation of three at 95% lies beyond 2·E_fast), within the budget's steps. (A
/// frozen model never learns; the run still trains and evaluates, so nothing is assumed.)
pub(super) fn control_steps(fast: Option<u64>, max_steps: usize) -> usize {
    fast.map_or(max_steps, |e| (2 * e as usize / BATCH + 2 * EVERY).div_ceil(EVERY) * EVERY).min(max_steps)
}

/// Per seed, log₂ of the slow model's examples over the fast one's.
fn replicates(configuration: &str, pairs: &[(&Run, &Run)]) -> Replicates {
    let mut r = Replicates::new(configuration);
    for (slow, fast) in pairs {
        r.push(slow.seed, &[(LOG_RATIO, log_ratio(slow.examples_needed, fast.examples_needed))]);
    }
    r
}

/// Each seed's ratio E_slow / E_fast (log axis) for the judged pair and both controls, with the
/// criterion's 2 and the paper's "nearly seven"; a ratio with a run not learned is drawn at the
/// bound its budget gives (the slow run's steps over the fast run's examples).
fn ratio_figure(judged: &[(&Run, &Run)], negative: &[(&Run, &Run)], positive: &[(&Run, &Run)]) -> Figure {
    let ratio = |(slow, fast): &(&Run, &Run)| -> Option<[f64; 2]> {
        let fast_e = needed(fast.examples_needed);
        let slow_e = slow.examples_needed.map_or((slow.max_steps * BATCH) as f64, |e| e as f64);
        fast_e.is_finite().then(|| [slow.seed as f64, slow_e / fast_e])
    };
    let points =
        |pairs: &[(&Run, &Run)], learned: bool| pairs.iter().filter(|p| p.0.examples_needed.is_some() == learned).filter_map(ratio).collect::<Vec<_>>();
    let last = judged.len().max(negative.len()).max(1) as f64;
    Figure::new(
        "examples_ratio_per_seed",
        "Examples needed to learn copying: the Mamba's over the Transformer's, at each seed (003 Fig. 2 left, small scale)",
        "seed",
        "examples needed, slow model over fast model",
    )
    .log_y()
    .with(Series::new("Mamba / Transformer (judged)", Style::Points, points(judged, true)).color(0))
    .with(Series::new("Mamba not learned: at least (its steps × 16) / the Transformer's", Style::Crosses, points(judged, false)).color(0))
    .with(Series::new("negative control: a second Mamba / the Mamba", Style::Points, points(negative, true)).color(1))
    .with(
        Series::new("positive control: the frozen Transformer (not learned: a lower bound) / the Transformer", Style::Crosses, points(positive, false))
            .color(2),
    )
    .with(Series::new("criterion: median ratio at least 2", Style::Dashed, vec![[0.0, 2.0], [last, 2.0]]).color(3))
    .with(Series::new("paper: 'nearly seven times' (135M Mamba, 126M Transformer, [10, 30])", Style::Dashed, vec![[0.0, 7.0], [last, 7.0]]).color(4))
    .caption(
        "A run's examples are counted at the first of 3 consecutive held-out evaluations at ≥ 95%. Below the crossover (N_max < 16 in the pilot) the \
         small Mamba learns faster than the Transformer and the ratios lie below 1.",
    )
}

/// Which configuration a check judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Judged {
    /// The Mamba against the Transformer (the paper's claim).
    Paper,
    /// The Mamba against a second Mamba (the negative control).
    TwoMambas,
}

fn copy_left_check(judged: Judged) -> impl crate::claim::Check {
    custom(Kind::Training, move |ctx| {
        let setting = Setting::of(ctx);
        let (slow_model, fast_model) = match judged {
            Judged::Paper => (Model::Mamba, Model::Transformer),
            Judged::TwoMambas => (Model::SecondMamba, Model::Mamba),
        };
        // The negative control's null ratio has a tail (a Mamba run in about fifty needs twice its
        // twin's examples), and at six seeds the median's interval is the range, so one such seed
        // would leave it undecided: it runs twelve seeds at every budget ([x₍₃₎, x₍₁₀₎]).
        let seeds = match judged {
            Judged::Paper => setting.seeds,
            Judged::TwoMambas => ctx.size("seeds of the negative control (the first ones shared with the claim)", Sizes::new(12, 12, 12)),
        };
        ctx.progress.expect(if judged == Judged::Paper { 3 } else { 2 } * seeds);
        crate::parallel::enter();
        // The control shares the judged Mamba's runs: trained once per process.
        let run = |model: Model, seed: u64, steps: usize| copy_run(ctx, setting.n_max, model, seed, steps);
        let firsts: Vec<(Arc<Run>, Arc<Run>)> = (0..seeds)
            .into_par_iter()
            .map(|s| {
                let (fast, slow) = rayon::join(|| run(fast_model, s, setting.max_steps), || run(slow_model, s, setting.max_steps));
                Ok((slow?, fast?))
            })
            .collect::<Result<_>>()?;
        let pairs: Vec<(&Run, &Run)> = firsts.iter().map(|(a, b)| (a.as_ref(), b.as_ref())).collect();
        let configuration = format!(
            "copy (003 §4.3: lengths uniform on [{}, {}] per batch, alphabet {ALPHABET}, scored at N_max = {}), {LAYERS} layers of width {WIDTH}, Adam {LR}, \
             batch {BATCH}, at most {} steps: {}",
            setting.n_max.div_ceil(2),
            setting.n_max,
            setting.n_max,
            setting.max_steps,
            if judged == Judged::Paper { "the Mamba's examples over the Transformer's" } else { "a second Mamba's examples over the Mamba's" }
        );
        let judgement = experiment::judge(&replicates(&configuration, &pairs), &criteria());
        // The positive control: the frozen Transformer against each seed's trained one.
        let controls: Vec<Arc<Run>> = match judged {
            Judged::Paper => pairs
                .par_iter()
                .map(|(_, fast)| run(Model::FrozenTransformer, fast.seed, control_steps(fast.examples_needed, setting.max_steps)))
                .collect::<Result<_>>()?,
            Judged::TwoMambas => Vec::new(),
        };
        let control_pairs: Vec<(&Run, &Run)> = controls.iter().zip(&pairs).map(|(s, (_, fast))| (s.as_ref(), *fast)).collect();
        let positive = (judged == Judged::Paper).then(|| ControlRun {
            what: "the Transformer frozen at its initial weights (learning rate 0, so it never reaches 95%) against the trained Transformer, run until it \
                   has seen twice the other's examples plus two evaluations"
                .to_string(),
            judgement: experiment::judge(&replicates("the frozen Transformer against the trained one", &control_pairs), &criteria()),
        });
        let paper = vec![
            PaperNumber::words(
                "while both can perform the copy task finally, Transformer learns the task quickly whereas Mamba requires nearly seven times the number of examples",
                "003 §4.3.1, Fig. 2 (left): TF 126M (10 layers, d 1024, RoPE) and Mamba 135M (20 layers, d 1024), [N_min, N_max] = [10, 30]",
            ),
            PaperNumber::value("Mamba's examples over the Transformer's ('nearly seven times')", 7.0, "003 §4.3.1"),
        ];
        let runs: Vec<&Run> = pairs.iter().flat_map(|(a, b)| [*a, *b]).chain(controls.iter().map(|r| r.as_ref())).collect();
        let outcome = experiment::decide(judgement, positive, paper, runs.len() as u64);
        let figure = match judged {
            Judged::Paper => ratio_figure(&pairs, &[], &control_pairs),
            Judged::TwoMambas => ratio_figure(&[], &pairs, &[]),
        };
        Ok(outcome
            .detail("runs", &runs)
            // The judged runs' (a frozen run's share counts strings it never learned from).
            .detail("least_unseen_share", pairs.iter().flat_map(|(a, b)| [a.unseen_share, b.unseen_share]).fold(1.0, f64::min))
            .detail(
                "setting",
                serde_json::json!({ "task": "<BOS> s_1 … s_n <SEP> s_1 … s_n, the length of each training batch uniform on [N_max/2, N_max], next-token prediction scored on the copy, held-out strings of length N_max",
                    "alphabet": ALPHABET, "n_max": setting.n_max, "seeds": seeds, "max_steps": setting.max_steps,
                    "mamba": format!("{LAYERS} Mamba blocks (d_model {WIDTH}, expand 2, N {STATES}, conv 4, gate), RMSNorm, residual, no position input"),
                    "transformer": format!("{LAYERS} pre-norm layers (d_model {WIDTH}, 2 heads, RoPE, MLP 3·d_model, GELU)"),
                    "learning_rate": LR, "batch": BATCH, "evaluation": format!("every {EVERY} steps on {TEST_SIZE} held-out strings; learned at ≥ 0.95 in 3 consecutive evaluations") }),
            )
            .detail(
                "paper_setting",
                "TF: GPT-NeoX, 10 layers, d 1024, RoPE (126M); Mamba: 20 layers, d 1024 (135M); AdamW 1e-5, weight decay 0.1, online batches of 8 in contexts of 220 tokens; [N_min, N_max] = [10, 30]",
            )
            .figures([figure]))
    })
}

/// `003.fig2.left` (experiment): §4.3 Fig. 2 (left) at small scale.
fn claim() -> Claim {
    Claim::experiment(
        LEFT_ID,
        super::FAMILY,
        "On 003 §4.3's copy task (the length of each training batch uniform on [N_max/2, N_max], alphabet 16, scored on held-out strings of length N_max; \
         N_max = 4 at quick and standard, 16 at deep), each seed (6 / 8 / 12) trains a two-block Mamba (d_model 32, N 16, convolution and gate; 21 088 \
         parameters) and a two-layer RoPE Transformer (d_model 32, 2 heads, MLP 3·d; 21 792 parameters) on the same data by Adam (0.003, batch 16, at \
         most 4000 / 4000 / 12000 steps) until 95% in 3 consecutive evaluations: the median over seeds of log₂(Mamba's examples / Transformer's) is at \
         least 1 (order-statistic interval, two-sided 0.05).",
        copy_left_check(Judged::Paper),
    )
    .source(
        Paper::FreeLunch,
        "§4.3.1, Fig. 2 (left); App. A.5",
        "For the left part of Figure 2, we firstly compare Transformer and Mamba of similar size (126M and 135M, labeled as TF and Mamba) while fixing the \
         string length. The result shows that while both can perform the copy task finally, Transformer learns the task quickly whereas Mamba requires nearly \
         seven times the number of examples.",
    )
    .correction(
        "Scaled down: two layers of width 32 (the paper's 10 and 20 layers of 1024), N_max = 16 at deep (the paper's 30) and 4 at quick and standard, \
         where the pilot found the small Mamba the faster learner; Adam 0.003 without weight decay, batches of 16 aligned sequences (proofs/training.md).",
    )
    .control(
        "the Mamba against a second Mamba (another initial weight, the same data; 12 seeds at every budget): no ordering",
        copy_left_check(Judged::TwoMambas),
    )
}

/// Registers `003.fig2.left`.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::StreamKey;

    /// The two models are of about the same size, as the paper's (135M and 126M): 21 088 and
    /// 21 792 parameters over a vocabulary of 18.
    #[test]
    fn the_two_models_are_of_about_the_same_size() {
        let key = StreamKey::new(1, "size");
        let mamba = MambaLm::init(BlockShape::mamba(WIDTH, STATES), LAYERS, ALPHABET + 2, key).unwrap();
        let transformer = TransformerLm::init(Model::shape_transformer(), LAYERS, ALPHABET + 2, key).unwrap();
        assert_eq!((mamba.parameters(), transformer.parameters()), (21_088, 21_792));
    }

    #[test]
    fn censored_runs_order_the_ratio_and_bound_the_control() {
        assert_eq!(log_ratio(Some(4000), Some(1000)), 2.0);
        assert_eq!(log_ratio(None, Some(1000)), f64::INFINITY);
        assert_eq!(log_ratio(Some(1000), None), f64::NEG_INFINITY);
        assert_eq!(log_ratio(None, None), 0.0);
        // E_fast = 24 000 examples: 2·24 000/16 = 3000 steps, plus two evaluations, on the grid of 25.
        assert_eq!(control_steps(Some(24_000), 12_000), 3050);
        assert_eq!(control_steps(Some(24_000), 2000), 2000);
        assert_eq!(control_steps(None, 4000), 4000);
    }
}
