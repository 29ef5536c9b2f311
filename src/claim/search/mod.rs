//! Targeted falsification on any proptest strategy, through its *choice sequence*.
//!
//! A strategy turns the bytes it reads from its RNG into a value. Recording those bytes for
//! each drawn instance (proptest's `Recorder` RNG, the same ChaCha stream) and feeding edited
//! bytes back (its `PassThrough` RNG) gives a search space every strategy shares, and every
//! point of it is a value the strategy itself generates: the domain — ranges, sizes, filters,
//! maps, the stable-matrix construction — is respected by construction, never re-implemented.
//! Integer and float ranges map a word to a value monotonically, so nudging a word nudges the
//! value; a word at 0 or at its maximum is a range's end, and a word log-uniformly close to
//! either is a value log-uniformly close to the edge (a parameter below 10⁻⁴ of a unit range,
//! the corner of a box). Copying one word onto another makes two parameters equal (ties,
//! repeated eigenvalues). Clearing a word's low bits makes its value a short dyadic.
//!
//! This is Hypothesis's choice-sequence idea applied to proptest; [`Phase`] names which part of
//! the search found an instance.

mod choices;
mod targeted;

pub use choices::{
    between, boundary, fork_offsets, mutate, record, replay, replay_runs_dry, replay_to_shrink, replayable, shorten, word_count, Choices, REPLAY_HEADROOM,
};
pub(crate) use targeted::{better, offer, rank, targeted, unavailable, EdgeSeeds, Found, Objective};

use serde::{Deserialize, Serialize};

/// Which part of the search produced an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Phase {
    /// Drawn by the strategy from the run's random stream (the honest sample: violation rates
    /// are estimated on these only).
    Random,
    /// A fresh draw biased to the domain's edges (range ends, log-uniform distances to them,
    /// equal parameters).
    Boundary,
    /// Bisected from an instance outside a conditional statement's hypothesis to one inside,
    /// so it lies at the hypothesis's edge.
    Edge,
    /// Climbed from the lowest-margin instances toward a negative margin.
    Targeted,
}

impl Phase {
    /// The lowercase name used in JSON and summaries.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Random => "random",
            Phase::Boundary => "boundary",
            Phase::Edge => "edge",
            Phase::Targeted => "targeted",
        }
    }
}

/// The name of a strategy's type without its module paths, as the search and the time limit
/// name it.
pub(crate) fn strategy_name<S>() -> String {
    short_type_name(std::any::type_name::<S>())
}

/// A type name without its module paths (`proptest::collection::VecStrategy<…>` →
/// `VecStrategy<…>`), at most 160 characters.
fn short_type_name(full: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for ch in full.chars() {
        if ch.is_alphanumeric() || ch == '_' || ch == ':' {
            word.push(ch);
        } else {
            out.push_str(word.rsplit("::").next().unwrap_or(""));
            word.clear();
            out.push(ch);
        }
    }
    out.push_str(word.rsplit("::").next().unwrap_or(""));
    if out.chars().count() > 160 {
        out = out.chars().take(159).collect::<String>() + "…";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_lose_their_paths() {
        assert_eq!(
            short_type_name("proptest::collection::VecStrategy<alloc::vec::Vec<f64>, ssmcheck::strategy::OneOf<f64>>"),
            "VecStrategy<Vec<f64>, OneOf<f64>>"
        );
    }
}
