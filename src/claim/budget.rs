//! Budgets (how hard each check works) and the context a check runs in.

use crate::error::Error;
use crate::mc::{Backend, StreamKey};
use crate::progress::Progress;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// How much work each check does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Budget {
    /// `cargo test`: seconds per family.
    Quick,
    /// The report's default: minutes for everything on 2 cores; T up to 10^6 for diagonal A.
    Standard,
    /// Long horizons and many samples (a GPU helps).
    Deep,
}

impl Budget {
    /// Picks the value for this budget.
    pub fn pick<T>(self, quick: T, standard: T, deep: T) -> T {
        match self {
            Budget::Quick => quick,
            Budget::Standard => standard,
            Budget::Deep => deep,
        }
    }
    /// The lowercase name.
    pub fn name(self) -> &'static str {
        self.pick("quick", "standard", "deep")
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Budget {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "quick" => Ok(Budget::Quick),
            "standard" => Ok(Budget::Standard),
            "deep" => Ok(Budget::Deep),
            other => Err(Error::InvalidParameter(format!("unknown budget '{other}' (expected quick, standard or deep)"))),
        }
    }
}

/// What a check may use: the seed, the budget, the Monte Carlo backend and a progress bar.
pub struct Context<'a> {
    /// The run's seed.
    pub seed: u64,
    /// The budget.
    pub budget: Budget,
    /// The Monte Carlo backend.
    pub backend: &'a dyn Backend,
    /// The claim id the streams are keyed by (a negative control uses its theorem's id, so it
    /// sees the same instances).
    pub stream_label: &'a str,
    /// Progress of the running check (hidden when not on a terminal).
    pub progress: &'a dyn Progress,
}

impl Context<'_> {
    /// The stream key for `part` of this claim.
    pub fn key(&self, part: &str) -> StreamKey {
        StreamKey::new(self.seed, &format!("{}/{}", self.stream_label, part))
    }
    /// 32 seed bytes for proptest's ChaCha RNG, derived from the run seed and the claim.
    pub fn proptest_seed(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (i, chunk) in out.chunks_mut(8).enumerate() {
            let k = self.key(&format!("proptest{i}")).as_u64();
            chunk.copy_from_slice(&k.to_le_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_parses_and_rejects_unknown_names() {
        assert_eq!("deep".parse::<Budget>().unwrap(), Budget::Deep);
        let e = "huge".parse::<Budget>().unwrap_err().to_string();
        assert!(e.contains("huge") && e.contains("quick"));
        assert_eq!(Budget::Standard.pick(1, 2, 3), 2);
    }
}
