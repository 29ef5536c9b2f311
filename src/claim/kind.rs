//! What kind of check judges a claim: [`Kind`], a closed set named in the JSON and the tables.

use serde::{Deserialize, Serialize};
use std::fmt;

/// What kind of check judges the claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Kind {
    /// A predicate with a signed margin over random instances, with shrinking.
    Property,
    /// A Monte Carlo estimate with an exact interval compared with a bound.
    Statistical,
    /// A sweep plus a fitted rate with an interval compared with the predicted rate.
    Rate,
    /// Explicit weights from a proof, built and run on random task instances.
    Construction,
    /// Models trained by gradient descent over several seeds, their held-out scores judged
    /// with exact intervals against a stated criterion (an experiment of a paper).
    Training,
}

impl Kind {
    /// The lowercase name used in JSON and tables.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Property => "property",
            Kind::Statistical => "statistical",
            Kind::Rate => "rate",
            Kind::Construction => "construction",
            Kind::Training => "training",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}
