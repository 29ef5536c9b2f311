//! The registry's structure, the family ids and the proofs' tables. (Every claim's verdict at
//! the quick budget, and the errata's certificates, are `tests/each_claim/main.rs`.)

use ssmcheck::claim::{ErrorKind, Status};

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
        ("000.rem3.gram", Status::Theorem),
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
        ("002.sec22.random", Status::Theorem),
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

#[test]
fn the_documents_claim_tables_are_generated_from_the_registry() {
    // The README's counts and each family's status and errata tables in proofs/ are generated
    // from the registry (`ssmcheck tables --write README.md proofs/*.md`): a claim added or
    // relabelled without regenerating them fails here. Every family has its status table, and a
    // family with errata its errata table (kind and particulars word for word `explain`'s), and
    // every status row its one-line gloss.
    let registry = ssmcheck::claims::registry();
    let root = env!("CARGO_MANIFEST_DIR");
    let read = |path: &str| std::fs::read_to_string(format!("{root}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut problems = vec![];
    let mut documents = vec!["README.md".to_string()];
    for family in registry.families() {
        let path = format!("proofs/{family}.md");
        let text = read(&path);
        if !text.contains(&format!("<!-- generated: status {family} -->")) {
            problems.push(format!("{path}: no generated status table"));
        }
        let errata = registry.iter().any(|c| &c.meta.family == family && c.meta.status == Status::Erratum);
        if errata && !text.contains(&format!("<!-- generated: errata {family} -->")) {
            problems.push(format!("{path}: no generated errata table"));
        }
        documents.push(path);
    }
    if !read("README.md").contains("<!-- generated: counts -->") {
        problems.push("README.md: no generated counts".into());
    }
    for path in &documents {
        let text = read(path);
        if ssmcheck::claim::tables::regenerate(&text, &registry).unwrap() != text {
            problems.push(format!("{path}: stale generated tables (run `ssmcheck tables --write {path}`)"));
        }
        // A new claim's row is generated with an empty gloss: the document must say in one line
        // what the claim states.
        for row in text.lines().filter(|l| l.starts_with("| `") && l.ends_with("|  |")) {
            problems.push(format!("{path}: a status row without its one line: {row}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_tables_command_fails_on_a_stale_file_and_rewrites_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.md");
    std::fs::write(&path, "# Doc\n\n<!-- generated: errata decay -->\n| stale |\n<!-- end generated -->\n").unwrap();
    let p = path.to_str().unwrap();
    let out = crate::common::ssmcheck(&["tables", p]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("differ from the registry"));
    assert!(crate::common::ssmcheck(&["tables", "--write", p]).status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("| `004.cor1.printed` | false statement |") && !text.contains("stale"), "{text}");
    assert!(crate::common::ssmcheck(&["tables", p]).status.success());
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
