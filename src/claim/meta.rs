//! Claim metadata and the claim itself (metadata + check + negative control).

use super::check::Check;
use super::kind::Kind;
use super::source::{Origin, Source};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// What the suite expects of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Status {
    /// Must hold; a refutation fails `cargo test`. Needs a negative control.
    Theorem,
    /// The statement as printed must be refuted by the search; paired with a corrected Theorem.
    Erratum,
    /// Open: either verdict is reported, neither fails the build.
    Conjecture,
    /// A paper's experiment (a trained model's result), rerun at a small scale the suite can
    /// afford: its verdict is *reproduced* (holds) or *not reproduced at this scale* (refuted),
    /// never an erratum of the paper; it fails `cargo test` only when its negative control is
    /// not detected or the run is inconclusive.
    Experiment,
}

/// What kind of error an erratum is: what exactly is wrong with the statement as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
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

/// What is wrong with an erratum's printed statement: its kind, the kind's particulars as data,
/// and the prose that quotes the paper.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorReport {
    /// The kind of error.
    pub kind: ErrorKind,
    /// The particulars in words, with the paper's: whether the statement survives (proof step),
    /// the corrected construction (construction), the intended reading (typo), the size at which
    /// it starts (precision), or the reading checked with the paper's words (reading).
    pub detail: String,
    /// The claims that check what holds instead: the corrected theorem, the surviving statement,
    /// the other reading ([`Claim::holds_instead`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holds_instead: Vec<String>,
    /// Whether the paper's statement survives the error ([`Claim::survives`]): said by every
    /// proof step, always true for a construction (the existence claim stands).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub survives: Option<bool>,
    /// For a precision erratum: the size at which floating point starts to fail
    /// ([`Claim::starts_at`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts_at: Option<String>,
}

impl ErrorReport {
    /// The particulars as short lines ("holds instead: …", "the statement survives", "starts
    /// at: …"), for `explain` and the report.
    pub fn particulars(&self) -> Vec<String> {
        let mut out = vec![format!("holds instead: {}", self.holds_instead.join(", "))];
        out.extend(self.survives.map(|s| format!("the statement {}", if s { "survives" } else { "does not survive" })));
        out.extend(self.starts_at.as_ref().map(|s| format!("starts at: {s}")));
        out
    }
    /// What the kind calls for and this report lacks (empty when complete).
    pub fn missing(&self) -> Vec<&'static str> {
        let mut out = vec![];
        if self.detail.trim().is_empty() {
            out.push("the particulars in words");
        }
        if self.holds_instead.is_empty() {
            out.push("the claim that holds instead");
        }
        match self.kind {
            ErrorKind::ProofStep if self.survives.is_none() => out.push("whether the statement survives"),
            ErrorKind::Construction if self.survives != Some(true) => out.push("that the existence claim survives"),
            ErrorKind::Precision if self.starts_at.is_none() => out.push("the size at which it starts"),
            _ => {}
        }
        out
    }
}

/// A family of claims: the lowercase name that `--family` selects and the report shows. The engine
/// knows none of them: each family declares its own (the shipped ones as `FAMILY` in their
/// module under `crate::claims`, a user's wherever the user likes), and the registry knows the
/// families of the claims it holds ([`Registry::families`](super::Registry::families)).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Family(Cow<'static, str>);

impl Family {
    /// The family with this name (lowercase, no spaces), usable in a `const`.
    pub const fn new(name: &'static str) -> Family {
        Family(Cow::Borrowed(name))
    }
    /// The family of the conjectures written with [`conjecture!`](crate::conjecture) (a user may
    /// declare any other).
    pub const USER: Family = Family::new("user");
    /// The name.
    pub fn name(&self) -> &str {
        &self.0
    }
}

impl std::str::FromStr for Family {
    type Err = crate::error::Error;
    /// Any non-empty name without spaces; whether a registry holds it is the registry's to say.
    fn from_str(s: &str) -> crate::error::Result<Family> {
        if s.is_empty() || s.contains(char::is_whitespace) {
            return Err(crate::error::Error::InvalidParameter(format!("'{s}' is not a family name (one word, e.g. decay)")));
        }
        Ok(Family(Cow::Owned(s.to_string())))
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl Status {
    /// The lowercase name used in JSON and tables.
    pub fn name(self) -> &'static str {
        match self {
            Status::Theorem => "theorem",
            Status::Erratum => "erratum",
            Status::Conjecture => "conjecture",
            Status::Experiment => "experiment",
        }
    }

    /// How a verdict of a claim with this status reads: an experiment's holds is "reproduced" and
    /// its refuted "not reproduced at this scale"; every other verdict by its own name.
    pub fn verdict_name(self, verdict: super::verdict::VerdictKind) -> &'static str {
        use super::verdict::VerdictKind;
        match (self, verdict) {
            (Status::Experiment, VerdictKind::Holds) => "reproduced",
            (Status::Experiment, VerdictKind::Refuted) => "not reproduced at this scale",
            (_, v) => v.name(),
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
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
    /// Why a refutation by this claim's check cannot be certified, when it says so
    /// ([`Claim::uncertified`]).
    pub uncertified: Option<(super::certificate::Uncertified, String)>,
}

impl Claim {
    fn with_status(id: &str, family: Family, status: Status, statement: &str, check: impl Check + 'static) -> Claim {
        Claim {
            meta: ClaimMeta {
                id: id.into(),
                family,
                status,
                kind: check.kind(),
                source: Source { origin: Origin::Other(String::new()), locus: String::new(), printed: String::new() },
                statement: statement.into(),
                correction: None,
                error: None,
            },
            check: Box::new(check),
            control: None,
            expected: None,
            split: false,
            uncertified: None,
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
    /// A paper's experiment at small scale ([`Status::Experiment`]): `check` (of kind
    /// [`Kind::Training`]) holds when the paper's result is reproduced by the stated criterion.
    pub fn experiment(id: &str, family: Family, statement: &str, check: impl Check + 'static) -> Claim {
        Claim::with_status(id, family, Status::Experiment, statement, check)
    }
    /// A conjecture: either verdict is reported.
    pub fn conjecture(id: &str, family: Family, statement: &str, check: impl Check + 'static) -> Claim {
        Claim::with_status(id, family, Status::Conjecture, statement, check)
    }
    /// Sets the source: whose statement it is (a [`Paper`](super::Paper), or any other line), the
    /// locus and the statement as printed.
    pub fn source(mut self, origin: impl Into<Origin>, locus: &str, printed: &str) -> Claim {
        self.meta.source = Source { origin: origin.into(), locus: locus.into(), printed: printed.into() };
        self
    }
    /// Sets the correction note.
    pub fn correction(mut self, text: &str) -> Claim {
        self.meta.correction = Some(text.into());
        self
    }
    /// Sets an erratum's kind of error and its particulars in words (see [`ErrorKind`]); a
    /// construction's existence claim survives by definition.
    pub fn error(mut self, kind: ErrorKind, detail: &str) -> Claim {
        let survives = (kind == ErrorKind::Construction).then_some(true);
        self.meta.error = Some(ErrorReport { kind, detail: detail.into(), holds_instead: vec![], survives, starts_at: None });
        self
    }
    /// The claims that check what holds instead of an erratum's printed statement (call after
    /// [`Claim::error`]).
    pub fn holds_instead(mut self, ids: &[&str]) -> Claim {
        self.error_report().holds_instead = ids.iter().map(|s| s.to_string()).collect();
        self
    }
    /// Whether the paper's statement survives an erratum's error (call after [`Claim::error`]).
    pub fn survives(mut self, survives: bool) -> Claim {
        self.error_report().survives = Some(survives);
        self
    }
    /// The size at which a precision erratum starts to fail (call after [`Claim::error`]).
    pub fn starts_at(mut self, size: &str) -> Claim {
        self.error_report().starts_at = Some(size.into());
        self
    }
    fn error_report(&mut self) -> &mut ErrorReport {
        let id = &self.meta.id;
        self.meta.error.as_mut().unwrap_or_else(|| panic!("{id}: the particulars of an error come after Claim::error"))
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
    /// Why this claim's refutations cannot be certified (its check computes in floating point
    /// and has no enclosing re-evaluation): the reason and its particulars, recorded with each
    /// refutation instead of the generic "no enclosure was computed".
    pub fn uncertified(mut self, reason: super::certificate::Uncertified, detail: &str) -> Claim {
        self.uncertified = Some((reason, detail.into()));
        self
    }
    /// Sets the negative control: `check` is the same check on the mutant described by `mutation`.
    pub fn control(mut self, mutation: &str, check: impl Check + 'static) -> Claim {
        self.control = Some(Control { mutation: mutation.into(), check: Box::new(check) });
        self
    }
}

/// What [`conjecture!`](crate::conjecture) collects from its `#[with(…)]` line besides the
/// property: the claim's id, family, source, expected verdict and negative control. Plumbing of
/// the macro; a conjecture written with the builder sets these on [`Claim`] directly.
pub struct ConjectureOptions {
    /// The claim's id (`user.<name>` by default).
    pub id: String,
    /// Its family ([`Family::USER`] by default).
    pub family: Family,
    /// Whose statement it is and where (the user and the file:line by default).
    pub source: (String, String),
    /// The verdict its author expects, if any.
    pub expect: Option<super::verdict::VerdictKind>,
    /// Its negative control, if any: what is mutated, and the same check of the mutated
    /// statement, which must refute it whenever the conjecture holds.
    pub control: Option<Control>,
}

impl ConjectureOptions {
    /// The defaults for a conjecture with id `id`, stated at `source`.
    pub fn new(id: &str, source: (&str, &str)) -> ConjectureOptions {
        ConjectureOptions { id: id.into(), family: Family::USER, source: (source.0.into(), source.1.into()), expect: None, control: None }
    }
    /// The conjecture: `statement` judged by `check`, with these options.
    pub fn claim(self, statement: &str, check: impl Check + 'static) -> Claim {
        let mut claim = Claim::conjecture(&self.id, self.family, statement, check).source(self.source.0.as_str(), &self.source.1, statement);
        claim.control = self.control;
        match self.expect {
            Some(v) => claim.expect(v),
            None => claim,
        }
    }
}
