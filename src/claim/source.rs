//! Where a claim comes from: one of the five papers, the suite's own derivation about one of
//! them, or a user's conjecture. The JSON keeps the citation line as a string (`"paper": "004
//! Rethinking …"`), so results written before these types read back unchanged.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One of the papers the shipped claims check (the seed number is the first component of their
/// claim ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Paper {
    /// 000: Understanding Input Selectivity in Mamba (Huang et al., ICML 2025).
    InputSelectivity,
    /// 001: B'MOJO: Hybrid State Space Realizations of Foundation Models (Zancato et al.).
    Bmojo,
    /// 002: How does Mamba Perform Associative Recall? (Le Corre, Huang, Bietti).
    AssociativeRecall,
    /// 003: Can Mamba Always Enjoy the "Free Lunch"? (Ren, Li, Liu).
    FreeLunch,
    /// 004: Rethinking the long-range dependency in Mamba/SSM and transformer models (Ma, Najarian).
    RethinkingLrd,
}

impl Paper {
    /// Every paper, in seed order.
    pub const ALL: [Paper; 5] = [Paper::InputSelectivity, Paper::Bmojo, Paper::AssociativeRecall, Paper::FreeLunch, Paper::RethinkingLrd];

    /// The seed number, "000" to "004" (the first component of the paper's claim ids).
    pub fn seed(self) -> &'static str {
        match self {
            Paper::InputSelectivity => "000",
            Paper::Bmojo => "001",
            Paper::AssociativeRecall => "002",
            Paper::FreeLunch => "003",
            Paper::RethinkingLrd => "004",
        }
    }

    /// The citation line: seed, title and authors.
    pub fn citation(self) -> &'static str {
        match self {
            Paper::InputSelectivity => "000 Understanding Input Selectivity in Mamba (Huang et al., ICML 2025)",
            Paper::Bmojo => "001 B'MOJO: Hybrid State Space Realizations of Foundation Models with Eidetic and Fading Memory (Zancato et al.)",
            Paper::AssociativeRecall => "002 How does Mamba Perform Associative Recall? A Mechanistic Study (Le Corre, Huang, Bietti)",
            Paper::FreeLunch => "003 Can Mamba Always Enjoy the \"Free Lunch\"? (Ren, Li, Liu)",
            Paper::RethinkingLrd => "004 Rethinking the long-range dependency in Mamba/SSM and transformer models (Ma, Najarian)",
        }
    }

    /// The paper with this seed number.
    pub fn of_seed(seed: &str) -> Option<Paper> {
        Paper::ALL.into_iter().find(|p| p.seed() == seed)
    }
}

impl fmt::Display for Paper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.citation())
    }
}

/// Whose statement a claim checks.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origin {
    /// A statement printed in the paper.
    Paper(Paper),
    /// The suite's own statement about the paper, proved in `proofs/` (written "derived (not
    /// in 003)").
    Derived(Paper),
    /// Anyone else's: a user's conjecture, named as its author likes ("user", a file name).
    Other(String),
}

impl Origin {
    /// The paper the statement is about, if any.
    pub fn paper(&self) -> Option<Paper> {
        match self {
            Origin::Paper(p) | Origin::Derived(p) => Some(*p),
            Origin::Other(_) => None,
        }
    }

    /// The line the report and `explain` print (and the JSON holds).
    pub fn line(&self) -> String {
        match self {
            Origin::Paper(p) => p.citation().to_string(),
            Origin::Derived(p) => format!("derived (not in {})", p.seed()),
            Origin::Other(s) => s.clone(),
        }
    }

    /// The origin a line names (the inverse of [`Origin::line`]).
    pub fn parse(line: &str) -> Origin {
        if let Some(p) = Paper::ALL.into_iter().find(|p| p.citation() == line) {
            return Origin::Paper(p);
        }
        let derived = line.strip_prefix("derived (not in ").and_then(|rest| rest.strip_suffix(')')).and_then(Paper::of_seed);
        derived.map_or_else(|| Origin::Other(line.to_string()), Origin::Derived)
    }
}

impl From<Paper> for Origin {
    fn from(p: Paper) -> Origin {
        Origin::Paper(p)
    }
}

impl From<&str> for Origin {
    fn from(line: &str) -> Origin {
        Origin::parse(line)
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.line())
    }
}

impl Serialize for Origin {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.line())
    }
}

impl<'de> Deserialize<'de> for Origin {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Origin, D::Error> {
        Ok(Origin::parse(&String::deserialize(d)?))
    }
}

/// Where a claim comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// Whose statement it is (the JSON key `paper` holds its line).
    #[serde(rename = "paper")]
    pub origin: Origin,
    /// Theorem / lemma / equation, e.g. "Corollary 1, Eq. (11)".
    pub locus: String,
    /// The statement as printed (plain text with Unicode maths).
    pub printed: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_origin_reads_back_from_its_line() {
        let mut all: Vec<Origin> = Paper::ALL.into_iter().flat_map(|p| [Origin::Paper(p), Origin::Derived(p)]).collect();
        all.push(Origin::Other("user".into()));
        for o in all {
            assert_eq!(Origin::parse(&o.line()), o, "{o}");
            let json = serde_json::to_string(&o).unwrap();
            assert_eq!(serde_json::from_str::<Origin>(&json).unwrap(), o);
        }
        assert_eq!(Origin::from("derived (not in 009)"), Origin::Other("derived (not in 009)".into()));
        assert_eq!(Paper::of_seed("003"), Some(Paper::FreeLunch));
    }
}
