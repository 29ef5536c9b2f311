//! The registry: claims listed and selected by id or family. It knows no family; the shipped
//! claims are registered by `crate::claims::registry()`, a user's own by [`Registry::add`].

use super::meta::{Claim, Family, Status};
use crate::error::{Error, Result};
use std::collections::HashSet;

/// All registered claims, in registration order.
#[derive(Default)]
pub struct Registry {
    claims: Vec<Claim>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds a claim.
    pub fn add(&mut self, claim: Claim) {
        self.claims.push(claim);
    }

    /// The claims, by value (for [`harness::main`](crate::harness::main)).
    pub fn into_claims(self) -> Vec<Claim> {
        self.claims
    }

    /// Every claim.
    pub fn iter(&self) -> impl Iterator<Item = &Claim> {
        self.claims.iter()
    }

    /// The claim with this id.
    pub fn get(&self, id: &str) -> Result<&Claim> {
        self.claims.iter().find(|c| c.meta.id == id).ok_or_else(|| Error::UnknownClaim(id.into()))
    }

    /// The families of the registered claims, in order of first registration.
    pub fn families(&self) -> Vec<&Family> {
        let mut out: Vec<&Family> = vec![];
        for c in &self.claims {
            if !out.contains(&&c.meta.family) {
                out.push(&c.meta.family);
            }
        }
        out
    }

    /// The claims named by `ids` (all when empty), restricted to `family` when given; a family
    /// no registered claim belongs to is an error that lists the registered ones.
    pub fn select(&self, ids: &[String], family: Option<&Family>) -> Result<Vec<&Claim>> {
        if let Some(f) = family.filter(|f| !self.families().contains(f)) {
            let known: Vec<&str> = self.families().iter().map(|f| f.name()).collect();
            return Err(Error::UnknownFamily(f.name().into(), known.join(", ")));
        }
        let chosen: Vec<&Claim> = if ids.is_empty() { self.claims.iter().collect() } else { ids.iter().map(|id| self.get(id)).collect::<Result<_>>()? };
        Ok(chosen.into_iter().filter(|c| family.is_none_or(|f| &c.meta.family == f)).collect())
    }

    /// Structural problems: duplicate ids, theorems without a negative control, empty
    /// statements or sources. Empty when the registry is sound.
    pub fn problems(&self) -> Vec<String> {
        let mut seen = HashSet::new();
        let mut out = vec![];
        for c in &self.claims {
            let m = &c.meta;
            if !seen.insert(m.id.clone()) {
                out.push(format!("{}: duplicate id", m.id));
            }
            if matches!(m.status, Status::Theorem | Status::Experiment) && c.control.is_none() {
                out.push(format!("{}: {} without a negative control", m.id, m.status));
            }
            match (&m.error, m.status) {
                (None, Status::Erratum) => out.push(format!("{}: erratum without its kind of error", m.id)),
                (Some(e), Status::Erratum) => {
                    out.extend(e.missing().into_iter().map(|what| format!("{}: a {} erratum without {what}", m.id, e.kind)));
                    let unknown = e.holds_instead.iter().filter(|id| !self.claims.iter().any(|c| &c.meta.id == *id && c.meta.status != Status::Erratum));
                    out.extend(unknown.map(|id| format!("{}: what holds instead, {id}, is not a theorem or conjecture here", m.id)));
                }
                _ => {}
            }
            if m.status != Status::Erratum && m.error.is_some() {
                out.push(format!("{}: a kind of error on a claim that is not an erratum", m.id));
            }
            if m.statement.trim().is_empty() || m.source.locus.trim().is_empty() {
                out.push(format!("{}: missing statement or source", m.id));
            }
        }
        out
    }
}
