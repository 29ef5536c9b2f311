//! The registry's structure, the family ids and the proofs' tables. (Every claim's verdict at
//! the quick budget, and the errata's certificates, are `tests/each_claim/main.rs`.)

use ssmcheck::claim::{ErrorKind, Status};
use ssmcheck::prelude::*;

#[test]
fn the_registry_is_sound() {
    let registry = ssmcheck::claims::registry();
    assert_eq!(registry.problems(), Vec::<String>::new());
}

#[test]
fn the_decay_family_has_the_issue_ids() {
    let registry = ssmcheck::claims::registry();
    for id in [
        "004.eq10",
        "004.eq10.selective",
        "004.cor1.printed",
        "004.cor1.normal",
        "004.cor1.lognorm",
        "004.cor1.kappa",
        "004.thm1.printed",
        "004.thm1.corrected",
        "004.attn.lower",
        "004.thm3.printed",
        "004.thm3.corrected",
        "004.sec41",
        "000.lem1",
        "000.lem2.printed",
        "000.lem2.corrected",
        "000.attn",
    ] {
        let c = registry.get(id).unwrap_or_else(|_| panic!("{id} missing"));
        assert_eq!(c.meta.family, ssmcheck::claims::decay::FAMILY);
        let erratum = id.ends_with(".printed") || id == "004.eq10.selective";
        assert_eq!(c.meta.status, if erratum { Status::Erratum } else { Status::Theorem }, "{id}");
    }
}

#[test]
fn the_recall_family_has_the_issue_ids() {
    let registry = ssmcheck::claims::registry();
    let expect = [
        ("000.lem4", Status::Theorem),
        ("000.thm2", Status::Theorem),
        ("000.thm2.adjacent", Status::Theorem),
        ("000.thm2.repeated", Status::Theorem),
        ("000.thm2.reduced.printed", Status::Erratum),
        ("000.thm2.reduced", Status::Theorem),
        ("000.thm3", Status::Theorem),
        ("000.thm3.reduced.printed", Status::Erratum),
        ("000.thm3.reduced", Status::Theorem),
        ("000.thm3.condition", Status::Theorem),
        ("000.rem7", Status::Theorem),
        ("000.rem3.printed", Status::Erratum),
        ("000.thm4", Status::Theorem),
        ("000.thm4.reduced.printed", Status::Erratum),
        ("000.thm4.reduced", Status::Theorem),
        ("000.lem3.printed", Status::Erratum),
        ("000.lem3.exact", Status::Theorem),
        ("000.lem3", Status::Theorem),
        ("002.lem1.exact", Status::Theorem),
        ("002.lem1.montecarlo", Status::Theorem),
        ("002.lem1.printed", Status::Erratum),
        ("002.lem1.rows.printed", Status::Erratum),
        ("002.lem1.alignment", Status::Theorem),
        ("002.onestep", Status::Theorem),
        ("002.training", Status::Conjecture),
    ];
    for (id, status) in expect {
        let c = registry.get(id).unwrap_or_else(|_| panic!("{id} missing"));
        assert_eq!((c.meta.family.clone(), c.meta.status), (ssmcheck::claims::recall::FAMILY, status), "{id}");
    }
    assert_eq!(registry.iter().filter(|c| c.meta.family == ssmcheck::claims::recall::FAMILY).count(), expect.len());
}

#[test]
fn every_erratum_says_what_kind_of_error_it_is_with_what_the_kind_needs() {
    let registry = ssmcheck::claims::registry();
    for c in registry.iter().filter(|c| c.meta.status == Status::Erratum) {
        let e = c.meta.error.as_ref().unwrap_or_else(|| panic!("{}: no kind of error", c.meta.id));
        // The particulars are data: what holds instead (a claim of its own, named in the words
        // too), whether a proof step's statement survives, where precision starts to fail.
        assert!(e.missing().is_empty(), "{}: lacks {:?}", c.meta.id, e.missing());
        for id in &e.holds_instead {
            let other = registry.get(id).unwrap_or_else(|_| panic!("{}: {id} is not a claim", c.meta.id));
            assert_ne!(other.meta.status, Status::Erratum, "{}: {id} holds instead but is an erratum", c.meta.id);
            assert!(e.detail.contains(id.as_str()), "{}: the words do not name {id}", c.meta.id);
        }
        match e.kind {
            // A reading quotes the paper's words.
            ErrorKind::Reading => assert!(e.detail.contains('\'') && e.detail.contains("Reading checked"), "{}: a reading quotes the paper", c.meta.id),
            ErrorKind::ProofStep | ErrorKind::Construction => assert!(e.survives.is_some()),
            ErrorKind::Precision => assert!(e.starts_at.as_ref().is_some_and(|s| s.chars().any(|ch| ch.is_ascii_digit())), "{}: no size", c.meta.id),
            _ => {}
        }
    }
    // Claims that are not errata carry no kind of error.
    assert!(registry.iter().filter(|c| c.meta.status != Status::Erratum).all(|c| c.meta.error.is_none()));
}

/// The rows `| `id` | … |` of a family's proofs file, split into trimmed cells.
fn proof_rows(family: &Family) -> Vec<Vec<String>> {
    let path = format!("{}/proofs/{}.md", env!("CARGO_MANIFEST_DIR"), family.name());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.trim_matches('|').split(" | ").map(|cell| cell.trim().trim_matches('`').replace("\\|", "|")).collect())
        .collect()
}

#[test]
fn the_proofs_tables_match_the_registry() {
    // Each family's proofs file lists every claim with its status, and every erratum with the
    // kind and particulars `explain` prints, word for word: the documents cannot drift.
    let registry = ssmcheck::claims::registry();
    let mut problems = vec![];
    for family in registry.families() {
        let rows = proof_rows(family);
        for c in registry.iter().filter(|c| &c.meta.family == family && c.meta.status != Status::Conjecture) {
            let id = c.meta.id.as_str();
            let status = c.meta.status.name();
            if !rows.iter().any(|r| r[0] == id && r.get(1).is_some_and(|s| s.eq_ignore_ascii_case(status))) {
                problems.push(format!("proofs/{family}.md: no status row for {id} ({status})"));
            }
            if let Some(e) = &c.meta.error {
                match rows.iter().find(|r| r[0] == id && r.get(1).map(String::as_str) == Some(e.kind.name())) {
                    None => problems.push(format!("proofs/{family}.md: no errata row for {id} ({})", e.kind.name())),
                    Some(row) if row[2..].join(" | ") != e.detail => problems.push(format!(
                        "proofs/{family}.md: {id}'s particulars differ from the claim's:\n  doc:   {}\n  claim: {}",
                        row[2..].join(" | "),
                        e.detail
                    )),
                    Some(_) => {}
                }
            }
        }
        for r in &rows {
            if registry.get(&r[0]).is_err() {
                problems.push(format!("proofs/{family}.md lists {} which is not a claim", r[0]));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The number right after `prefix` in `text` (panics naming the prefix when absent).
fn number_after(text: &str, prefix: &str) -> usize {
    let at = text.find(prefix).unwrap_or_else(|| panic!("README: no '{prefix}'")) + prefix.len();
    text[at..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap_or_else(|_| panic!("README: no number after '{prefix}'"))
}

#[test]
fn the_readme_counts_are_the_registrys() {
    // The README's claim counts (per family, in all, errata and their kinds) are what
    // `ssmcheck list` shows: a claim added or relabelled without the README fails here.
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
    let registry = ssmcheck::claims::registry();
    let all: Vec<&Claim> = registry.iter().collect();
    for family in registry.families() {
        let n = all.iter().filter(|c| &c.meta.family == family).count();
        assert_eq!(number_after(&text, &format!("**{}** (", family.name())), n, "README: the {family} family's count");
    }
    let errata: Vec<&&Claim> = all.iter().filter(|c| c.meta.status == Status::Erratum).collect();
    assert_eq!(number_after(&text, "Of the "), all.len(), "README: the number of claims");
    assert_eq!(number_after(&text, &format!("Of the {}, ", all.len())), errata.len(), "README: the number of errata");
    let kinds = [
        (ErrorKind::FalseStatement, "false statements"),
        (ErrorKind::ProofStep, "failed proof steps"),
        (ErrorKind::Construction, "failed constructions"),
        (ErrorKind::Typo, "typos"),
        (ErrorKind::Precision, "precision failures"),
        (ErrorKind::Reading, "readings"),
    ];
    let by_kind: Vec<String> = kinds
        .iter()
        .map(|(kind, words)| format!("{} {words}", errata.iter().filter(|c| c.meta.error.as_ref().is_some_and(|e| e.kind == *kind)).count()))
        .collect();
    assert!(text.contains(&format!("({}", by_kind.join(", "))), "README: the errata by kind should read ({}", by_kind.join(", "));
}

#[test]
fn every_budget_dependent_size_is_asked_for_by_name() {
    // The report's budgets table lists what each check asks for through `ctx.size`; a size
    // chosen with `Budget::pick` in a family would be missing from it.
    fn visit(dir: &std::path::Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                visit(&path, out);
            } else if std::fs::read_to_string(&path).unwrap().contains(".pick(") {
                out.push(path.display().to_string());
            }
        }
    }
    let mut offenders = vec![];
    visit(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src/claims")), &mut offenders);
    assert!(offenders.is_empty(), "sizes chosen with pick() instead of ctx.size(): {offenders:?}");
}
