//! Training runs: seeded, one thread each, the loss per step and the accuracy on held-out
//! sequences.

use super::adam::{Adam, AdamConfig};
use super::classifier::{accuracy, cross_entropy, SsmClassifier};
use super::scan_op::forward_only;
use crate::error::Result;
use crate::mc::StreamKey;
use crate::tasks::{Batch, TokenTask};
use candle_core::{Tensor, Var};

/// A model that predicts a token at every position, trained by [`fit`]: the SSM classifiers
/// ([`SsmClassifier`]) and the attention baseline
/// ([`AttentionClassifier`](super::attention::AttentionClassifier)).
pub trait Classifier {
    /// Every trainable variable.
    fn vars(&self) -> Vec<Var>;
    /// The logits (batch × T × |V|) of a batch of token sequences of one length.
    fn logits(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor>;
}

impl Classifier for SsmClassifier {
    fn vars(&self) -> Vec<Var> {
        SsmClassifier::vars(self)
    }

    fn logits(&self, tokens: &[Vec<usize>]) -> candle_core::Result<Tensor> {
        SsmClassifier::logits(self, tokens)
    }
}

/// The settings of one training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitConfig {
    /// Optimiser steps.
    pub steps: usize,
    /// Sequences per step.
    pub batch: usize,
    /// Adam's settings; `adam.lr` is where the cosine schedule starts (000 App. D.1: η = 0.03,
    /// annealed to 10⁻⁶).
    pub adam: AdamConfig,
    /// The learning rate the cosine schedule ends at.
    pub min_lr: f64,
    /// Held-out sequences for the accuracy.
    pub test_size: usize,
}

/// The three independent streams of a run: initial weights, training data, held-out data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunKeys {
    /// The initial weights ([`SsmClassifier::init`]).
    pub init: StreamKey,
    /// The training sequences.
    pub train: StreamKey,
    /// The held-out sequences.
    pub test: StreamKey,
}

impl RunKeys {
    /// The streams of the run `label` under `seed`.
    pub fn new(seed: u64, label: &str) -> Self {
        RunKeys::from_parts(|part| StreamKey::new(seed, &format!("{label}/{part}")))
    }

    /// The streams `key("init")`, `key("train")`, `key("test")` (a claim passes its own keys).
    pub fn from_parts(key: impl Fn(&str) -> StreamKey) -> Self {
        RunKeys { init: key("init"), train: key("train"), test: key("test") }
    }
}

/// What the model is trained to predict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Targets {
    /// The task's targets.
    Task,
    /// Every target replaced by an independent uniform token: nothing is learnable, so the
    /// held-out accuracy stays at chance (the negative control of a training experiment).
    Shuffled,
}

/// What a run recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct FitLog {
    /// The training loss (mean cross-entropy of the step's batch) at every step, before its update.
    pub loss: Vec<f64>,
    /// Accuracy on the held-out sequences after the last step (every sequence has the same
    /// number of scored positions, so this is also the mean of the per-sequence accuracies).
    pub test_accuracy: f64,
    /// Mean cross-entropy on the held-out sequences after the last step.
    pub test_loss: f64,
}

/// One optimiser step on a batch (forward, cross-entropy at the scored positions, backward,
/// Adam): the batch's loss before the update.
pub fn train_step(model: &(impl Classifier + ?Sized), opt: &mut Adam, batch: &Batch) -> Result<f64> {
    let err = |e| super::candle_error("training", e);
    let l = batch_loss(model, batch)?;
    let value = l.to_scalar::<f64>().map_err(err)?;
    opt.backward_step(&l).map_err(err)?;
    Ok(value)
}

/// The cross-entropy of `model` on a batch at its scored positions (the forward pass alone).
fn batch_loss(model: &(impl Classifier + ?Sized), batch: &Batch) -> Result<Tensor> {
    let err = |e| super::candle_error("training", e);
    cross_entropy(&model.logits(&batch.tokens).map_err(err)?, &batch.positions, &batch.targets).map_err(err)
}

/// Trains `model` on fresh batches of `task` (an unlimited training set: step s uses instances
/// `s·batch..(s+1)·batch` of the training stream) with Adam and a cosine learning rate, and
/// scores it on `test_size` held-out sequences (always against the task's own targets).
pub fn fit(model: &(impl Classifier + ?Sized), task: &impl TokenTask, cfg: &FitConfig, keys: &RunKeys, targets: Targets) -> Result<FitLog> {
    let err = |e| super::candle_error("training", e);
    let shuffled = StreamKey::new(keys.train.as_u64(), "shuffled targets");
    let mut opt = Adam::new(model.vars(), cfg.adam).map_err(err)?;
    let mut loss = Vec::with_capacity(cfg.steps);
    for step in 0..cfg.steps {
        let first = (step * cfg.batch) as u64;
        let mut b = task.batch(keys.train, first, cfg.batch);
        if targets == Targets::Shuffled {
            let noise = task.batch(shuffled, first, cfg.batch);
            b.targets = noise.tokens.iter().map(|x| x[..b.positions.len()].to_vec()).collect();
        }
        let progress = step as f64 / cfg.steps.max(1) as f64;
        opt.set_lr(cfg.min_lr + 0.5 * (cfg.adam.lr - cfg.min_lr) * (1.0 + (std::f64::consts::PI * progress).cos()));
        loss.push(train_step(model, &mut opt, &b)?);
    }
    let held_out = task.held_out(keys.test, cfg.test_size);
    let logits = forward_only(|| model.logits(&held_out.tokens)).map_err(err)?;
    let test_loss = cross_entropy(&logits, &held_out.positions, &held_out.targets).and_then(|l| l.to_scalar::<f64>()).map_err(err)?;
    Ok(FitLog { loss, test_accuracy: accuracy(&logits, &held_out.positions, &held_out.targets).map_err(err)?, test_loss })
}

/// When a run counts as having learned a task, as 003 §4.3 counts it ("the number of examples
/// needed to reach 95% accuracy in 3 consecutive evaluations"), and how long it may try.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearnedWhen {
    /// The held-out accuracy to reach.
    pub accuracy: f64,
    /// Consecutive evaluations at or above it.
    pub consecutive: usize,
    /// Optimiser steps between evaluations.
    pub every: usize,
    /// Held-out sequences per evaluation (the same ones each time).
    pub test_size: usize,
    /// The most optimiser steps tried.
    pub max_steps: usize,
}

/// What [`fit_until`] recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Learning {
    /// Training sequences seen at the first of the consecutive evaluations at or above the
    /// accuracy (steps × batch), or `None` when `max_steps` ran out first.
    pub examples_needed: Option<u64>,
    /// (training sequences seen, held-out accuracy) at every evaluation.
    pub evaluations: Vec<(u64, f64)>,
    /// The training loss at every step, before its update.
    pub loss: Vec<f64>,
}

/// Trains `model` on fresh batches of `task` with Adam at the constant learning rate
/// `adam.lr` (a schedule would depend on when training stops), evaluating it every
/// `when.every` steps on the same held-out sequences from `keys.test`, until `when.consecutive`
/// evaluations in a row reach `when.accuracy` or `when.max_steps` have run. At a learning rate
/// of 0 (a control frozen at its initial weights) each step is the forward pass and its loss
/// alone: Adam's update `w − 0·m̂/(√v̂ + ε)` would give back every weight unchanged (for finite
/// gradients), so the losses and evaluations are those of the full steps, at about a third of
/// their cost (tested below).
pub fn fit_until(
    model: &(impl Classifier + ?Sized),
    task: &impl TokenTask,
    batch: usize,
    adam: AdamConfig,
    keys: &RunKeys,
    when: &LearnedWhen,
) -> Result<Learning> {
    let err = |e| super::candle_error("training", e);
    let mut opt = Adam::new(model.vars(), adam).map_err(err)?;
    let held_out = task.held_out(keys.test, when.test_size);
    let (mut loss, mut evaluations, mut run) = (Vec::new(), Vec::new(), 0usize);
    for step in 0..when.max_steps {
        let b = task.batch(keys.train, (step * batch) as u64, batch);
        loss.push(if adam.lr == 0.0 { forward_only(|| batch_loss(model, &b))?.to_scalar::<f64>().map_err(err)? } else { train_step(model, &mut opt, &b)? });
        if (step + 1) % when.every == 0 {
            let logits = forward_only(|| model.logits(&held_out.tokens)).map_err(err)?;
            let a = accuracy(&logits, &held_out.positions, &held_out.targets).map_err(err)?;
            evaluations.push((((step + 1) * batch) as u64, a));
            run = if a >= when.accuracy { run + 1 } else { 0 };
            if run == when.consecutive {
                let examples_needed = Some(evaluations[evaluations.len() - when.consecutive].0);
                return Ok(Learning { examples_needed, evaluations, loss });
            }
        }
    }
    Ok(Learning { examples_needed: None, evaluations, loss })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mixer::MixerKind;
    use crate::tasks::keep_nth::KeepNth;
    use crate::train::classifier::{ClassifierShape, Head};

    fn run(kind: MixerKind, seed: u64, targets: Targets) -> FitLog {
        let task = KeepNth::new(8, 8, 3).unwrap();
        let shape = ClassifierShape { kind, vocab: 8, d: 8, n: 4, position: true, head: Head::Linear, conv: false };
        let cfg = FitConfig { steps: 1000, batch: 16, adam: AdamConfig { lr: 0.03, ..Default::default() }, min_lr: 1e-4, test_size: 256 };
        let keys = RunKeys::new(seed, "test");
        let model = SsmClassifier::init(shape, keys.init).unwrap();
        fit(&model, &task, &cfg, &keys, targets).unwrap()
    }

    /// Mean of a slice.
    fn mean(v: &[f64]) -> f64 {
        v.iter().sum::<f64>() / v.len() as f64
    }

    /// 1000 steps of 16 sequences (under a second): the loss falls from ln 8 ≈ 2.08 by more
    /// than half a nat (measured: to about 1.0) and the held-out accuracy reaches three times
    /// chance (measured: 0.55 against 1/8), which the shuffled control below cannot.
    #[test]
    fn a_short_training_lowers_the_loss() {
        let log = run(MixerKind::Mamba, 1, Targets::Task);
        let (first, last) = (mean(&log.loss[..100]), mean(&log.loss[log.loss.len() - 100..]));
        assert!(last < first - 0.5, "loss {first} -> {last}");
        assert!(log.test_accuracy > 3.0 / 8.0, "held-out accuracy {}", log.test_accuracy);
    }

    /// The same for a Mamba-2 head (one Δ and one decay shared by the channels), held to the same
    /// thresholds (measured: the loss falls from 1.98 to 2·10⁻⁴, held-out accuracy 1.00).
    #[test]
    fn a_short_training_lowers_a_mamba2_heads_loss() {
        let log = run(MixerKind::Mamba2, 1, Targets::Task);
        let (first, last) = (mean(&log.loss[..100]), mean(&log.loss[log.loss.len() - 100..]));
        assert!(last < first - 0.5, "loss {first} -> {last}");
        assert!(log.test_accuracy > 3.0 / 8.0, "held-out accuracy {}", log.test_accuracy);
    }

    /// The attention baseline at the same size and thresholds, from its first step's loss: it
    /// learns Keep Third within a hundred steps by attending to position 3 (measured: the first
    /// hundred steps' mean is already 0.26; the loss falls from 2.33 to 7·10⁻⁵, held-out
    /// accuracy 1.00).
    #[test]
    fn a_short_training_lowers_the_attention_baselines_loss() {
        use crate::train::attention::{AttentionClassifier, AttentionInput, AttentionShape};
        let task = KeepNth::new(8, 8, 3).unwrap();
        let cfg = FitConfig { steps: 1000, batch: 16, adam: AdamConfig { lr: 0.03, ..Default::default() }, min_lr: 1e-4, test_size: 256 };
        let keys = RunKeys::new(1, "test");
        let model = AttentionClassifier::init(AttentionShape { vocab: 8, d: 8, input: AttentionInput::Position { max_len: 8 } }, keys.init).unwrap();
        let log = fit(&model, &task, &cfg, &keys, Targets::Task).unwrap();
        let (first, last) = (log.loss[0], mean(&log.loss[log.loss.len() - 100..]));
        assert!(last < first - 0.5, "loss {first} -> {last}");
        assert!(log.test_accuracy > 3.0 / 8.0, "held-out accuracy {}", log.test_accuracy);
    }

    /// The negative control at the same size: with targets independent of the inputs the
    /// held-out accuracy stays near chance (1/8; measured 0.08) and the loss near ln 8.
    #[test]
    fn shuffled_targets_are_not_learned() {
        let log = run(MixerKind::Mamba, 2, Targets::Shuffled);
        assert!(log.test_accuracy < 2.0 / 8.0, "held-out accuracy {}", log.test_accuracy);
        assert!(log.test_loss > 8f64.ln() - 0.2, "held-out loss {}", log.test_loss);
    }

    #[test]
    fn the_same_seed_gives_the_same_run_at_any_thread_count() {
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| run(MixerKind::S4d, 3, Targets::Task));
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| run(MixerKind::S4d, 3, Targets::Task));
        assert_eq!(one, two);
    }

    /// The same for the attention baseline and for a run that stops when it has learned (the
    /// examples it needed, every evaluation and every loss).
    #[test]
    fn an_attention_run_until_learned_is_the_same_at_any_thread_count() {
        use crate::tasks::copy::StringCopy;
        use crate::train::attention::{AttentionClassifier, AttentionInput, AttentionShape};
        let learn = || {
            let keys = RunKeys::new(4, "threads");
            let model = AttentionClassifier::init(AttentionShape { vocab: 6, d: 8, input: AttentionInput::Position { max_len: 8 } }, keys.init).unwrap();
            let when = LearnedWhen { accuracy: 0.95, consecutive: 3, every: 25, test_size: 100, max_steps: 1000 };
            fit_until(&model, &StringCopy { alphabet: 4, len: 3 }, 16, AdamConfig { lr: 0.01, ..Default::default() }, &keys, &when).unwrap()
        };
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(learn);
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(learn);
        assert!(one.examples_needed.is_some(), "{:?}", one.evaluations);
        assert_eq!(one, two);
    }

    /// `fit_until` counts the examples at the first of the consecutive evaluations, and a run
    /// given too few steps to learn reports none.
    #[test]
    fn examples_are_counted_at_the_first_of_the_consecutive_evaluations() {
        use crate::tasks::copy::StringCopy;
        use crate::train::attention::{AttentionClassifier, AttentionInput, AttentionShape};
        let keys = RunKeys::new(5, "until");
        let model = AttentionClassifier::init(AttentionShape { vocab: 6, d: 8, input: AttentionInput::Position { max_len: 8 } }, keys.init).unwrap();
        let when = LearnedWhen { accuracy: 0.95, consecutive: 3, every: 10, test_size: 100, max_steps: 2000 };
        let adam = AdamConfig { lr: 0.01, ..Default::default() };
        let l = fit_until(&model, &StringCopy { alphabet: 4, len: 3 }, 16, adam, &keys, &when).unwrap();
        let e = l.examples_needed.expect("a head learns to copy three symbols");
        let k = l.evaluations.len();
        assert!(l.evaluations[k - 3..].iter().all(|&(_, a)| a >= 0.95) && l.evaluations[k - 3].0 == e);
        assert!(k == 3 || l.evaluations[k - 4].1 < 0.95);
        assert_eq!(l.loss.len() * 16, l.evaluations[k - 1].0 as usize);
        let short = LearnedWhen { max_steps: 20, ..when };
        let fresh = AttentionClassifier::init(AttentionShape { vocab: 6, d: 8, input: AttentionInput::Position { max_len: 8 } }, keys.init).unwrap();
        assert_eq!(fit_until(&fresh, &StringCopy { alphabet: 4, len: 3 }, 16, adam, &keys, &short).unwrap().examples_needed, None);
    }

    /// A frozen run (a learning rate of 0) takes forward passes only, and its losses and
    /// evaluations are bit for bit those of full Adam steps at a learning rate of 0 (which give
    /// back every weight). Control: the same full steps at 0.01 give other losses, so the
    /// comparison can tell a run that moved.
    #[test]
    fn a_frozen_run_is_the_full_steps_at_a_learning_rate_of_0() {
        use crate::tasks::copy::StringCopy;
        use crate::train::attention::{AttentionClassifier, AttentionInput, AttentionShape};
        let keys = RunKeys::new(6, "frozen");
        let task = StringCopy { alphabet: 4, len: 3 };
        let init = || AttentionClassifier::init(AttentionShape { vocab: 6, d: 8, input: AttentionInput::Position { max_len: 8 } }, keys.init).unwrap();
        let when = LearnedWhen { accuracy: 0.95, consecutive: 3, every: 10, test_size: 100, max_steps: 40 };
        let frozen = fit_until(&init(), &task, 16, AdamConfig { lr: 0.0, ..Default::default() }, &keys, &when).unwrap();
        let full = |lr: f64| {
            let model = init();
            let mut opt = Adam::new(Classifier::vars(&model), AdamConfig { lr, ..Default::default() }).unwrap();
            let held_out = task.held_out(keys.test, when.test_size);
            let (mut loss, mut evaluations) = (vec![], vec![]);
            for step in 0..when.max_steps {
                loss.push(train_step(&model, &mut opt, &task.batch(keys.train, (step * 16) as u64, 16)).unwrap());
                if (step + 1) % when.every == 0 {
                    let logits = model.logits(&held_out.tokens).unwrap();
                    evaluations.push((((step + 1) * 16) as u64, accuracy(&logits, &held_out.positions, &held_out.targets).unwrap()));
                }
            }
            (loss, evaluations)
        };
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let (loss, evaluations) = full(0.0);
        assert_eq!((bits(&frozen.loss), frozen.evaluations.len()), (bits(&loss), 4));
        assert_eq!(frozen.evaluations, evaluations);
        assert_ne!(bits(&full(0.01).0), bits(&loss), "a training run's losses equal the frozen ones: the comparison cannot tell");
    }
}
