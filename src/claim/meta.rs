//! Claim metadata and the claim itself (metadata + check + negative control).

use super::check::{Check, Kind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What the suite expects of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Must hold; a refutation fails `cargo test`. Needs a negative control.
    Theorem,
    /// The statement as printed must be refuted by the search; paired with a corrected Theorem.
    Erratum,
    /// Open: either verdict is reported, neither fails the build.
    Conjecture,
}

/// What kind of error an erratum is: what exactly is wrong with the statement as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The theorem as stated is false.
    FalseStatement,
    /// A step of the proof fails; the statement may survive (the detail says whether it does).
    ProofStep,
    /// The paper's explicit construction fails; the existence claim survives (the detail points
    /// to the corrected construction).
    Construction,
    /// An index or sign slip with an evident intended reading (the detail gives it).
    Typo,
    /// True in exact arithmetic, fails in floating point (the detail gives the size at which it
    /// starts).
    Precision,
    /// False under one reading of an ambiguous statement (the detail states the reading, quotes
    /// the paper and names the claim that checks the other reading).
    Reading,
}

impl ErrorKind {
    /// Every kind, in the order the README's table lists them.
    pub const ALL: [ErrorKind; 6] =
        [ErrorKind::FalseStatement, ErrorKind::ProofStep, ErrorKind::Construction, ErrorKind::Typo, ErrorKind::Precision, ErrorKind::Reading];

    /// The name used in tables ("false statement", "proof step", …).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::FalseStatement => "false statement",
            ErrorKind::ProofStep => "proof step",
            ErrorKind::Construction => "construction",
            ErrorKind::Typo => "typo",
            ErrorKind::Precision => "precision",
            ErrorKind::Reading => "reading",
        }
    }

    /// What the kind means, for the report's legend and `explain`.
    pub fn meaning(self) -> &'static str {
        match self {
            ErrorKind::FalseStatement => "the theorem as stated is false",
            ErrorKind::ProofStep => "a step of the proof fails; the statement may survive",
            ErrorKind::Construction => "the paper's explicit construction fails; the existence claim survives",
            ErrorKind::Typo => "an index or sign slip with an evident intended reading",
            ErrorKind::Precision => "true in exact arithmetic, fails in floating point",
            ErrorKind::Reading => "false under one reading of an ambiguous statement; the other reading is checked too",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// What is wrong with an erratum's printed statement: its kind and the kind's particulars.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorReport {
    /// The kind of error.
    pub kind: ErrorKind,
    /// The particulars the kind calls for: whether the statement survives (proof step), the
    /// corrected construction (construction), the intended reading (typo), the size at which it
    /// starts (precision), or the reading checked with the paper's words and the claim that
    /// checks the other reading (reading).
    pub detail: String,
}

/// The families of claims (one module each under `crate::claims`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// Exponential LRD / sensitivity decay (004 Eq 10, Cor 1, Thm 1, 3, §4.1; 000 Lem 1–2).
    Decay,
    /// The interaction-term model's stability and tail bounds (004 Thm 2, 4, Lem 1).
    Stability,
    /// Haar wavelets from S6 and approximation rates (000 Thm 1, Prop 1, Cor 1–2).
    Haar,
    /// MQAR / induction-head constructions (000 Thm 2–4, Lem 3–4; 002).
    Recall,
    /// COPY bounds (003 Thm 1–2).
    Copy,
    /// Dynamic programming with chain of thought (003 Lem 1–5, Thm 3–4).
    Cot,
    /// B'MOJO realizations (001).
    Realization,
    /// A user's own conjectures (no paper family).
    User,
}

impl Family {
    /// Every family, in report order.
    pub const ALL: [Family; 8] = [Family::Decay, Family::Stability, Family::Haar, Family::Recall, Family::Copy, Family::Cot, Family::Realization, Family::User];
    /// The lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Family::Decay => "decay",
            Family::Stability => "stability",
            Family::Haar => "haar",
            Family::Recall => "recall",
            Family::Copy => "copy",
            Family::Cot => "cot",
            Family::Realization => "realization",
            Family::User => "user",
        }
    }
    /// The family with this name.
    pub fn parse(s: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == s)
    }
}

impl Status {
    /// The lowercase name used in JSON and tables.
    pub fn name(self) -> &'static str {
        match self {
            Status::Theorem => "theorem",
            Status::Erratum => "erratum",
            Status::Conjecture => "conjecture",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl std::str::FromStr for Family {
    type Err = crate::error::Error;
    fn from_str(s: &str) -> crate::error::Result<Family> {
        Family::parse(s).ok_or_else(|| {
            let all: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
            crate::error::Error::UnknownFamily(s.into(), all.join(", "))
        })
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// Where a claim comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// Paper: the seed number and short title, e.g. "004 Rethinking LRD in Mamba/SSM".
    pub paper: String,
    /// Theorem / lemma / equation, e.g. "Corollary 1, Eq. (11)".
    pub locus: String,
    /// The statement as printed (plain text with Unicode maths).
    pub printed: String,
}

/// The stable metadata of a claim.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimMeta {
    /// `<seed>.<label>[.<variant>]`, e.g. `004.cor1.lognorm`.
    pub id: String,
    /// Family.
    pub family: Family,
    /// What the suite expects.
    pub status: Status,
    /// Kind of check.
    pub kind: Kind,
    /// Source and statement as printed.
    pub source: Source,
    /// Exactly what is checked (with the instance distribution and tolerance).
    pub statement: String,
    /// For an erratum: what is wrong and which claim holds the correction; for a corrected
    /// theorem, what was changed from the printed statement.
    pub correction: Option<String>,
    /// For an erratum: what kind of error it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorReport>,
}

/// A negative control: a mutant of a theorem (tighter constant, wrong sign, smaller
/// dimension...) that the same check must refute.
pub struct Control {
    /// What was mutated.
    pub mutation: String,
    /// The same check, run on the mutant.
    pub check: Box<dyn Check>,
}

/// A claim: metadata, its check, and (for theorems) a negative control.
pub struct Claim {
    /// Metadata.
    pub meta: ClaimMeta,
    /// The check.
    pub check: Box<dyn Check>,
    /// The negative control (required for theorems).
    pub control: Option<Control>,
    /// For a conjecture: the verdict its author expects ([`Claim::expect`]); a different
    /// verdict then disagrees, so `cargo test` fails on it.
    pub expected: Option<super::verdict::VerdictKind>,
    /// Whether a sharded run splits this claim's Monte Carlo paths across the shards
    /// ([`Claim::split_samples`]) instead of giving the whole claim to one.
    pub split: bool,
}

impl Claim {
    fn with_status(id: &str, family: Family, status: Status, statement: &str, check: impl Check + 'static) -> Claim {
        Claim {
            meta: ClaimMeta {
                id: id.into(),
                family,
                status,
                kind: check.kind(),
                source: Source { paper: String::new(), locus: String::new(), printed: String::new() },
                statement: statement.into(),
                correction: None,
                error: None,
            },
            check: Box::new(check),
            control: None,
            expected: None,
            split: false,
        }
    }
    /// A theorem: `statement` must hold under `check`.
    pub fn theorem(id: &str, family: Family, statement: &str, check: impl Check + 'static) -> Claim {
        Claim::with_status(id, family, Status::Theorem, statement, check)
    }
    /// An erratum: the printed `statement` must be refuted by `check`.
    pub fn erratum(id: &str, family: Family, statement: &str, check: impl Check + 'static) -> Claim {
        Claim::with_status(id, family, Status::Erratum, statement, check)
    }
    /// A conjecture: either verdict is reported.
    pub fn conjecture(id: &str, family: Family, statement: &str, check: impl Check + 'static) -> Claim {
        Claim::with_status(id, family, Status::Conjecture, statement, check)
    }
    /// Sets the source: paper, locus and the statement as printed.
    pub fn source(mut self, paper: &str, locus: &str, printed: &str) -> Claim {
        self.meta.source = Source { paper: paper.into(), locus: locus.into(), printed: printed.into() };
        self
    }
    /// Sets the correction note.
    pub fn correction(mut self, text: &str) -> Claim {
        self.meta.correction = Some(text.into());
        self
    }
    /// Sets an erratum's kind of error and its particulars (see [`ErrorKind`]).
    pub fn error(mut self, kind: ErrorKind, detail: &str) -> Claim {
        self.meta.error = Some(ErrorReport { kind, detail: detail.into() });
        self
    }
    /// The verdict a conjecture's author expects (`Holds` for one believed true, `Refuted` for
    /// one believed false): any other verdict disagrees, and fails `cargo test`. Either verdict
    /// is still reported as what it is; the status stays `Conjecture`.
    pub fn expect(mut self, verdict: super::verdict::VerdictKind) -> Claim {
        self.expected = Some(verdict);
        self
    }
    /// Lets a sharded run ([`crate::shard`]) split this claim's Monte Carlo paths: every shard
    /// runs the check and computes its range of each job's paths, and the merge judges all of
    /// them. Only for a check whose jobs (their number and parameters) are fixed in advance,
    /// not chosen from earlier jobs' results: the merge refuses a job no shard ran.
    pub fn split_samples(mut self) -> Claim {
        self.split = true;
        self
    }
    /// Sets the negative control: `check` is the same check on the mutant described by `mutation`.
    pub fn control(mut self, mutation: &str, check: impl Check + 'static) -> Claim {
        self.control = Some(Control { mutation: mutation.into(), check: Box::new(check) });
        self
    }
}
