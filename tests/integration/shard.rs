//! Sharded runs: any number of shards merges to exactly the single run's JSON, for every kind
//! of check and every split claim; parts that do not make one run are refused by name, and
//! nothing is written.

use crate::common::{ssmcheck, without_times};
use ssmcheck::claim::{run_claims, Budget, Claim, Kind, RunConfig};
use ssmcheck::mc::{Backend, CpuBackend};
use ssmcheck::shard::{merge, plan::estimated_cost, run_shard, Part, Shard};
use std::path::PathBuf;
use std::process::Output;

const SEED: u64 = 3;

fn cfg() -> RunConfig<'static> {
    RunConfig { seed: SEED, budget: Budget::Quick, backend: &CpuBackend, progress: false, parallel: false }
}

/// Every split claim, and the two cheapest claims of each kind of check.
fn selection(registry: &ssmcheck::claim::Registry) -> Vec<&Claim> {
    let mut chosen: Vec<&Claim> = registry.iter().filter(|c| c.split).collect();
    for kind in [Kind::Property, Kind::Statistical, Kind::Rate, Kind::Construction] {
        let mut of_kind: Vec<&Claim> = registry.iter().filter(|c| c.meta.kind == kind && !c.split).collect();
        of_kind.sort_by(|a, b| estimated_cost(&a.meta.id, Budget::Quick).total_cmp(&estimated_cost(&b.meta.id, Budget::Quick)));
        assert!(of_kind.len() >= 2, "{kind}: fewer than two claims");
        chosen.extend(of_kind.into_iter().take(2));
    }
    // In registry order, as a run selects them.
    registry.iter().filter(|c| chosen.iter().any(|k| k.meta.id == c.meta.id)).collect()
}

/// The parts of the run of `claims` over `count` shards, through their JSON as a file holds it;
/// odd shards run their claims concurrently (as the CLI does), even ones in order.
fn parts(claims: &[&Claim], count: u32) -> Vec<(PathBuf, Part)> {
    (0..count)
        .map(|i| {
            let part = run_shard(claims, &RunConfig { parallel: i % 2 == 1, ..cfg() }, Shard::new(i, count).unwrap());
            let text = serde_json::to_string_pretty(&part).unwrap();
            (PathBuf::from(format!("part-{i}.json")), serde_json::from_str(&text).unwrap())
        })
        .collect()
}

#[test]
fn every_shard_count_merges_to_the_single_run_byte_for_byte() {
    let registry = ssmcheck::claims::registry();
    let claims = selection(&registry);
    let split = claims.iter().filter(|c| c.split).count();
    assert!(split >= 7, "the split claims are in the selection");
    let single = serde_json::to_string_pretty(&run_claims(&claims, &cfg()).without_times()).unwrap();
    // 9 shards: uneven blocks, and more shards than some jobs have paths (empty blocks). The
    // Slurm test runs 4 and parts_from_different_backends 2.
    {
        let count = 9u32;
        let mut parts = parts(&claims, count);
        parts.reverse(); // any order
        let merged = merge(&registry, &parts).unwrap_or_else(|e| panic!("{count} shards: {e}"));
        assert!(merged.claims.iter().all(|c| c.seconds.is_some_and(|s| s >= 0.0)), "{count} shards: every merged claim has its time");
        assert_eq!(serde_json::to_string_pretty(&merged.without_times()).unwrap(), single, "{count} shards");
        let whole: usize = parts.iter().map(|(_, p)| p.results.claims.len()).sum();
        assert_eq!(whole, claims.len() - split, "{count} shards: each whole claim on exactly one shard");
    }
}

/// A cluster with GPU and CPU partitions: shard 0 on the kernels (through the shim), shard 1 on
/// the rayon backend; the merged claims are the CPU run's, the backend field names both.
#[test]
fn parts_from_different_backends_merge_to_the_same_claims() {
    let registry = ssmcheck::claims::registry();
    let claims: Vec<&Claim> = ["004.cor1.cumulative", "004.sec41", "004.fig2", "001.c21.needle"].iter().map(|id| registry.get(id).unwrap()).collect();
    let single = run_claims(&claims, &cfg());
    let shim = ssmcheck::mc::ShimBackend::new();
    let on_kernels = RunConfig { backend: &shim, ..cfg() };
    let parts: Vec<(PathBuf, Part)> = vec![
        ("gpu.json".into(), run_shard(&claims, &on_kernels, Shard::new(0, 2).unwrap())),
        ("cpu.json".into(), run_shard(&claims, &cfg(), Shard::new(1, 2).unwrap())),
    ];
    let merged = merge(&registry, &parts).unwrap();
    assert_eq!(merged.backend.names(), [shim.name(), "cpu"]);
    assert_eq!(serde_json::to_value(&merged).unwrap()["backend"], format!("{} + cpu", shim.name()));
    assert_eq!(serde_json::to_string_pretty(&merged.without_times().claims).unwrap(), serde_json::to_string_pretty(&single.without_times().claims).unwrap());
}

#[test]
fn a_check_whose_jobs_depend_on_their_results_is_refused_at_the_merge() {
    // 004.thm4 chooses its plain Monte Carlo cross-check from its importance-sampling estimate:
    // split, the shards' partial estimates would ask for other jobs than the whole run.
    let mut registry = ssmcheck::claims::registry();
    let thm4 = registry.get("004.thm4").unwrap();
    assert!(!thm4.split, "004.thm4 is not split");
    let mut claims = ssmcheck::claims::registry().into_claims();
    let mut thm4 = claims.remove(claims.iter().position(|c| c.meta.id == "004.thm4").unwrap()).split_samples();
    thm4.meta.id = "004.thm4.split-anyway".into();
    registry.add(thm4);
    let claim = registry.get("004.thm4.split-anyway").unwrap();
    let err = merge(&registry, &parts(&[claim], 2)).unwrap_err().to_string();
    assert!(err.contains("004.thm4.split-anyway") && err.contains("depend on earlier jobs' results, so it cannot be split"), "{err}");
}

fn assert_refused(out: &Output, needle: &str, not_written: &std::path::Path) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "expected failure");
    assert_eq!(err.trim_end().lines().count(), 1, "one error line, got:\n{err}");
    assert!(err.contains(needle), "'{needle}' not in: {err}");
    assert!(!not_written.exists(), "{} was written", not_written.display());
}

/// Two split claims and a whole one: both kinds of share are refused and merged.
const SELECTION: [&str; 3] = ["004.fig2", "004.kesten", "004.eq10"];

#[test]
fn missing_duplicated_and_mismatched_parts_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let shard = |i: u32, n: u32, seed: &str, name: &str| {
        let (shard, json) = (format!("{i}/{n}"), at(name));
        let out = ssmcheck(&[&["check"], &SELECTION[..], &["--budget", "quick", "--seed", seed, "--shard", &shard, "--json", &json]].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    shard(0, 2, "1", "p0.json");
    shard(1, 2, "1", "p1.json");
    shard(1, 2, "2", "p1-seed2.json");
    shard(1, 3, "1", "p1-of3.json");
    let out = at("all.json");
    let all = std::path::Path::new(&out);

    assert_refused(&ssmcheck(&["merge", &at("p0.json"), "--json", &out]), "no part for shard 1/2", all);
    assert_refused(&ssmcheck(&["merge", &at("p0.json"), &at("p1.json"), &at("p1.json"), "--json", &out]), "are both shard 1/2", all);
    assert_refused(&ssmcheck(&["merge", &at("p0.json"), &at("p1-seed2.json"), "--json", &out]), "p1-seed2.json has seed 2", all);
    assert_refused(&ssmcheck(&["merge", &at("p0.json"), &at("p1-of3.json"), "--json", &out]), "p1-of3.json has shard count 3", all);

    // Another version, a tampered record, a whole run's results, a file that is not JSON.
    let text = std::fs::read_to_string(at("p1.json")).unwrap();
    std::fs::write(at("p1-old.json"), text.replacen(&format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION")), "\"version\": \"0.0.1\"", 1)).unwrap();
    assert_refused(&ssmcheck(&["merge", &at("p0.json"), &at("p1-old.json"), "--json", &out]), "p1-old.json has version 0.0.1", all);
    let mut part: serde_json::Value = serde_json::from_str(&text).unwrap();
    part["shard"]["split"][0]["claim"][0]["first"] = serde_json::json!(1);
    std::fs::write(at("p1-tampered.json"), serde_json::to_string(&part).unwrap()).unwrap();
    assert_refused(&ssmcheck(&["merge", &at("p0.json"), &at("p1-tampered.json"), "--json", &out]), "shard 1's record", all);
    let mut part: serde_json::Value = serde_json::from_str(&text).unwrap();
    part["shard"]["shard"]["index"] = serde_json::json!(5);
    std::fs::write(at("p5-of2.json"), serde_json::to_string(&part).unwrap()).unwrap();
    assert_refused(&ssmcheck(&["merge", &at("p0.json"), &at("p5-of2.json"), "--json", &out]), "claims to be shard 5/2, outside 0..2", all);
    let whole = ssmcheck(&["check", "004.eq10", "--budget", "quick", "--json", &at("whole.json")]);
    assert!(whole.status.success());
    assert_refused(&ssmcheck(&["merge", &at("p0.json"), &at("whole.json"), "--json", &out]), "whole.json is the results of a whole run", all);
    std::fs::write(at("junk.json"), "{").unwrap();
    assert_refused(&ssmcheck(&["merge", &at("p0.json"), &at("junk.json"), "--json", &out]), "junk.json: not a results JSON", all);

    // A part is not a report's input; --shard needs --json.
    let report = dir.path().join("report");
    assert_refused(&ssmcheck(&["report", "--from", &at("p0.json"), "--out", report.to_str().unwrap()]), "merge the parts first", &report.join("index.html"));
    let no_json = ssmcheck(&["check", "004.eq10", "--shard", "0/2"]);
    assert!(!no_json.status.success() && String::from_utf8_lossy(&no_json.stderr).contains("--json"));
    assert_refused(&ssmcheck(&["check", "--shard", "2/2", "--json", &at("x.json")]), "0 ≤ I < N", std::path::Path::new(&at("x.json")));

    // The two good parts merge, and the merge equals the single run.
    let merged = ssmcheck(&["merge", &at("p1.json"), &at("p0.json"), "--json", &out]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    let single = ssmcheck(&[&["check"], &SELECTION[..], &["--budget", "quick", "--json", &at("single.json")]].concat());
    assert!(single.status.success());
    assert_eq!(without_times(&std::fs::read(&out).unwrap()), without_times(&std::fs::read(at("single.json")).unwrap()));
}
