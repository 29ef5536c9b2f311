//! The claim tables the documents show, generated from a registry, so a claim's identity (id,
//! status, kind of check, where the paper states it; an erratum's kind and particulars; the
//! counts) is written once, in its family's code, and never copied by hand.
//!
//! A document marks each generated table with a pair of comments:
//!
//! ```text
//! <!-- generated: status decay -->
//! …
//! <!-- end generated -->
//! ```
//!
//! [`regenerate`] rewrites what is between them (`ssmcheck tables --write FILE…`; without
//! `--write` the command fails on a stale file, as the tests do). The blocks are `status FAMILY`
//! (id, status, check, where in the paper, and a one-line gloss that is prose: it is kept from the
//! document, by id), `errata FAMILY` (kind and particulars, word for word what `explain` prints)
//! and `counts` (claims per family and status, and the errata by kind).

use super::kind::Kind;
use super::meta::{Claim, ErrorKind, Family, Status};
use super::registry::Registry;
use crate::error::{Error, Result};
use std::collections::HashMap;

/// The comment that opens a generated block (followed by its name and ` -->`).
const BEGIN: &str = "<!-- generated: ";
/// The comment that closes a generated block.
const END: &str = "<!-- end generated -->";

/// A table cell: one line, with `|` escaped.
fn cell(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").replace('|', "\\|")
}

/// The cells of a table row (`\|` unescaped), or `None` for a line that is not a row.
fn cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().expect("a cell").push('|');
                chars.next();
            }
            '|' => out.push(String::new()),
            c => out.last_mut().expect("a cell").push(c),
        }
    }
    Some(out.into_iter().map(|c| c.trim().to_string()).collect())
}

/// The id of a row whose first cell is `` `id` ``.
fn row_id(row: &[String]) -> Option<&str> {
    row.first()?.strip_prefix('`')?.strip_suffix('`')
}

fn of_family<'a>(registry: &'a Registry, family: &'a Family) -> impl Iterator<Item = &'a Claim> + 'a {
    registry.iter().filter(move |c| &c.meta.family == family)
}

/// A family's status table: every claim, with the one-line gloss `glosses` has
/// for its id (prose kept from the document; empty for a new claim).
pub fn status_table(registry: &Registry, family: &Family, glosses: &HashMap<String, String>) -> String {
    let mut out = String::from("| id | status | check | where in the paper | one line |\n|---|---|---|---|---|\n");
    for c in of_family(registry, family) {
        let gloss = glosses.get(&c.meta.id).map(String::as_str).unwrap_or("");
        out += &format!("| `{}` | {} | {} | {} | {} |\n", c.meta.id, c.meta.status.name(), c.meta.kind.name(), cell(&c.meta.source.locus), cell(gloss));
    }
    out
}

/// A family's errata table: kind and particulars, as `explain` prints them.
pub fn errata_table(registry: &Registry, family: &Family) -> String {
    let mut out = String::from("| erratum | kind | particulars |\n|---|---|---|\n");
    for c in of_family(registry, family) {
        if let Some(e) = &c.meta.error {
            out += &format!("| `{}` | {} | {} |\n", c.meta.id, e.kind.name(), cell(&e.detail));
        }
    }
    out
}

/// The kinds of error in the order the documents count them, with their plural.
const KINDS: [(ErrorKind, &str); 6] = [
    (ErrorKind::FalseStatement, "false statements"),
    (ErrorKind::ProofStep, "failed proof steps"),
    (ErrorKind::Construction, "failed constructions"),
    (ErrorKind::Typo, "typos"),
    (ErrorKind::Precision, "precision failures"),
    (ErrorKind::Reading, "readings"),
];

/// The counts: claims per family by status and kind of check, the total, and the errata by kind.
pub fn counts(registry: &Registry) -> String {
    let statuses = [Status::Theorem, Status::Erratum, Status::Experiment, Status::Conjecture];
    let mut out = String::from(
        "| family | claims | theorems | errata | experiments | conjectures | property | statistical | rate | construction | training |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let all: Vec<&Claim> = registry.iter().collect();
    let row = |name: String, claims: &[&Claim]| {
        let by_status = statuses.map(|s| claims.iter().filter(|c| c.meta.status == s).count().to_string()).join(" | ");
        let kinds = [Kind::Property, Kind::Statistical, Kind::Rate, Kind::Construction, Kind::Training];
        let by_kind = kinds.map(|k| claims.iter().filter(|c| c.meta.kind == k).count().to_string()).join(" | ");
        format!("| {name} | {} | {by_status} | {by_kind} |\n", claims.len())
    };
    for family in registry.families() {
        let mine: Vec<&Claim> = all.iter().copied().filter(|c| &c.meta.family == family).collect();
        if !mine.is_empty() {
            out += &row(format!("**{}**", family.name()), &mine);
        }
    }
    out += &row("all".into(), &all);
    let errata: Vec<&&Claim> = all.iter().filter(|c| c.meta.status == Status::Erratum).collect();
    let by_kind: Vec<String> = KINDS
        .iter()
        .map(|(kind, words)| format!("{} {words}", errata.iter().filter(|c| c.meta.error.as_ref().is_some_and(|e| e.kind == *kind)).count()))
        .collect();
    out += &format!("\nOf the {}, {} are errata ({}).\n", all.len(), errata.len(), by_kind.join(", "));
    out
}

/// What the block `name` holds, generated from `registry` (`old`: its current text, whose
/// glosses a status table keeps).
fn generate(registry: &Registry, name: &str, old: &str) -> Result<String> {
    let family = |f: &str| -> Result<Family> {
        registry
            .families()
            .into_iter()
            .find(|x| x.name() == f)
            .cloned()
            .ok_or_else(|| Error::InvalidParameter(format!("generated block '{name}': no family '{f}'")))
    };
    match name.split_once(' ') {
        Some(("status", f)) => {
            let glosses = old.lines().filter_map(cells).filter_map(|r| Some((row_id(&r)?.to_string(), r.last()?.clone()))).collect();
            Ok(status_table(registry, &family(f)?, &glosses))
        }
        Some(("errata", f)) => Ok(errata_table(registry, &family(f)?)),
        None if name == "counts" => Ok(counts(registry)),
        _ => Err(Error::InvalidParameter(format!("unknown generated block '{name}' (status FAMILY, errata FAMILY or counts)"))),
    }
}

/// `text` with every generated block rewritten from `registry`; an unclosed or unknown block is
/// an error naming it.
pub fn regenerate(text: &str, registry: &Registry) -> Result<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(BEGIN) {
        let line_end = rest[at..].find('\n').map_or(rest.len(), |n| at + n + 1);
        let name = rest[at + BEGIN.len()..line_end].trim().strip_suffix("-->").map(str::trim).unwrap_or("");
        let end =
            rest[line_end..].find(END).map(|n| line_end + n).ok_or_else(|| Error::InvalidParameter(format!("generated block '{name}' has no '{END}'")))?;
        out += &rest[..line_end];
        out += &generate(registry, name, &rest[line_end..end])?;
        rest = &rest[end..];
        out += END;
        rest = &rest[END.len()..];
    }
    out += rest;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::{custom, Outcome, Verdict};

    fn registry() -> Registry {
        let mut r = Registry::new();
        let check = || custom(Kind::Property, |_| Ok(Outcome::new(Verdict::Holds { evidence: "-".into() }, 1, Some(1.0))));
        r.add(Claim::theorem("x.one", Family::new("fam"), "a | b", check()).source("someone", "Eq. (1)", "a | b"));
        r
    }

    #[test]
    fn a_block_is_rewritten_its_gloss_kept_and_a_bad_block_named() {
        let doc = "intro\n<!-- generated: status fam -->\n| id | status | one line |\n|---|---|---|\n| `x.one` | Theorem | the gloss \\| kept |\n| `gone` | Theorem | old |\n<!-- end generated -->\nafter\n";
        let new = regenerate(doc, &registry()).unwrap();
        assert!(new.starts_with("intro\n<!-- generated: status fam -->\n| id | status | check |"), "{new}");
        assert!(new.contains("| `x.one` | theorem | property | Eq. (1) | the gloss \\| kept |\n<!-- end generated -->\nafter\n"), "{new}");
        assert!(!new.contains("gone"));
        assert_eq!(regenerate(&new, &registry()).unwrap(), new, "a fixed point");
        assert!(regenerate("<!-- generated: status fam -->\n", &registry()).unwrap_err().to_string().contains("no '<!-- end generated -->'"));
        assert!(regenerate("<!-- generated: nonsense -->\n<!-- end generated -->", &registry())
            .unwrap_err()
            .to_string()
            .contains("unknown generated block 'nonsense'"));
        assert!(regenerate("<!-- generated: errata nofam -->\n<!-- end generated -->", &registry()).unwrap_err().to_string().contains("no family 'nofam'"));
        assert_eq!(cells("| `a` | b \\| c | d |").unwrap(), ["`a`", "b | c", "d"]);
    }
}
