//! `scripts/recompute_errata.py` (Python standard library only, no ssmcheck code) recomputes every
//! erratum's counterexample from the results JSON alone, at three seeds; and it says so when a
//! recorded instance does not violate its statement. Skipped with a message when python3 is
//! missing, except in CI (CI=true), where it fails.

use ssmcheck::prelude::*;
use std::path::Path;
use std::process::Command;

fn python() -> Option<Command> {
    let ok = Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "python3 is needed in CI for the standalone recomputation");
        eprintln!("skipping: python3 not found");
        return None;
    }
    Some(Command::new("python3"))
}

fn script(python: &mut Command, json: &Path) -> (bool, String) {
    let out = python.arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/recompute_errata.py")).arg(json).output().expect("runs");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
}

#[test]
fn every_erratum_recomputes_from_the_json_alone() {
    let registry = ssmcheck::claims::registry();
    let errata = registry.iter().filter(|c| c.meta.status == Status::Erratum).count();
    let dir = tempfile::tempdir().unwrap();
    // The shared quick run at seed 42 (every claim; the script reads the errata) and the errata
    // alone at the other seeds the integration tests run them at.
    let mut files = vec![(crate::common::SEED.to_string(), crate::common::quick_report().join("results.json"))];
    for seed in crate::common::ERRATA_SEEDS {
        let path = dir.path().join(format!("errata-{seed}.json"));
        std::fs::write(&path, serde_json::to_string(crate::common::quick_errata(seed)).unwrap()).unwrap();
        files.push((seed.to_string(), path));
    }
    for (seed, path) in files {
        let Some(mut py) = python() else { return };
        let (ok, text) = script(&mut py, &path);
        assert!(ok, "seed {seed}:\n{text}");
        let want = format!("{errata} errata recomputed from the JSON, {errata} violate their printed statement");
        assert!(text.contains(&want), "seed {seed}: expected '{want}':\n{text}");
    }
}

#[test]
fn the_script_reports_an_instance_that_does_not_violate() {
    let Some(mut py) = python() else { return };
    // λ_H + γ < 1 and E m² = 0.38 < 1: the finite-variance reading holds here.
    let results = serde_json::json!({ "claims": [{
        "id": "004.stability.printed", "status": "erratum",
        "counterexample": { "lambda_h": 0.5, "gamma": 0.1 },
        "violation": { "relation": "at_most", "lhs": 0.38, "lhs_is": "", "rhs": 1.0, "rhs_is": "", "margin": 0.4, "margin_formula": "" }
    }]});
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fake.json");
    std::fs::write(&path, results.to_string()).unwrap();
    let (ok, text) = script(&mut py, &path);
    assert!(!ok && text.contains("does not violate"), "{text}");
}
