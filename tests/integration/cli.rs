//! The command line: verdict tables, JSON, and one clear error line with a non-zero exit on bad
//! input, leaving nothing half-written.

use crate::common::ssmcheck;
use std::process::Output;

fn assert_one_line_error(out: &Output, needle: &str) {
    assert!(!out.status.success(), "expected failure");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "one error line, got:\n{err}");
    assert!(err.contains(needle), "'{needle}' not in: {err}");
}

#[test]
fn bad_input_gives_one_clear_line_and_a_nonzero_exit() {
    assert_one_line_error(&ssmcheck(&["check", "004.nope", "--budget", "quick"]), "unknown claim id '004.nope'");
    assert_one_line_error(&ssmcheck(&["check", "--family", "nope"]), "unknown family 'nope'");
    assert_one_line_error(&ssmcheck(&["list", "--family", "nope"]), "unknown family 'nope'");
    assert_one_line_error(&ssmcheck(&["check", "--budget", "huge"]), "unknown budget 'huge'");
    assert_one_line_error(&ssmcheck(&["check", "--seed", "-1"]), "-1");
    assert_one_line_error(&ssmcheck(&["check", "--seed", "abc"]), "abc");
    assert_one_line_error(&ssmcheck(&["explain", "000.nope"]), "unknown claim id");
    assert_one_line_error(&ssmcheck(&["check", "004.eq10", "--backend", "cuda", "--budget", "quick"]), "backend 'cuda'");
    assert_one_line_error(&ssmcheck(&["check", "004.eq10", "--backend", "tpu", "--budget", "quick"]), "unknown backend");
    assert_one_line_error(&ssmcheck(&["frobnicate"]), "frobnicate");
}

#[test]
fn unwritable_outputs_fail_before_any_work_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    // A path below a regular file can never be created.
    let below = file.join("report");
    let out = ssmcheck(&["report", "--budget", "quick", "--out", below.to_str().unwrap()]);
    assert_one_line_error(&out, "cannot");
    assert_one_line_error(&ssmcheck(&["report", "--budget", "quick", "--out", file.to_str().unwrap()]), "it is a file");
    let json = below.join("out.json");
    assert_one_line_error(&ssmcheck(&["check", "004.eq10", "--budget", "quick", "--json", json.to_str().unwrap()]), "cannot");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("a-file")]);
}

#[test]
fn list_explain_and_check_work() {
    let out = ssmcheck(&["list", "--family", "decay"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("004.cor1.printed") && text.contains("erratum"));
    // One JSON object per claim, with the source the results JSON records.
    let out = ssmcheck(&["list", "--family", "decay", "--json"]);
    assert!(out.status.success());
    let metas: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(metas.len(), text.lines().count());
    let cor1 = metas.iter().find(|m| m["id"] == "004.cor1.printed").unwrap();
    assert_eq!(cor1["status"], "erratum");
    assert!(cor1["source"]["locus"].as_str().unwrap().contains("Corollary 1"), "{cor1}");
    let out = ssmcheck(&["explain", "004.cor1.printed"]);
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("largest eigenvalue"));

    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("out.json");
    let out = ssmcheck(&["check", "004.cor1.printed", "004.cor1.lognorm", "--budget", "quick", "--json", json.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for key in ["seed", "budget", "backend", "version"] {
        assert!(v.get(key).is_some(), "run field {key}");
    }
    let claims = v["claims"].as_array().unwrap();
    for c in claims {
        for key in ["id", "family", "status", "kind", "verdict", "cases", "margin", "agrees"] {
            assert!(c.get(key).is_some(), "claim field {key}");
        }
    }
    assert_eq!(claims[0]["verdict"], "refuted");
    assert!(claims[0]["counterexample"]["a"].is_array());
    assert_eq!(v["backend"], "cpu");
}

#[test]
fn auto_backend_falls_back_to_the_cpu_and_says_so() {
    // No GPU here (and none in CI): `auto` must run on the CPU and record it in the JSON.
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("auto.json");
    let out = ssmcheck(&["check", "004.cor1.cumulative", "--budget", "quick", "--backend", "auto", "--json", json.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "auto must not print driver noise: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["backend"], "cpu");
}

#[test]
fn bench_prints_one_reference_format_json_line_per_workload() {
    let out = ssmcheck(&["bench", "all", "--quick", "--threads", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let names: Vec<&str> = lines.iter().map(|l| l["workload"].as_str().unwrap()).collect();
    assert_eq!(names, ["decay", "tail", "lyapunov", "scan"]);
    for l in &lines {
        // The fields run_all.sh --extra and summarize.py read.
        assert_eq!(l["impl"], "rust");
        assert_eq!(l["params"]["threads"], 2);
        assert_eq!(l["params"]["rng"], "portable");
        assert!(["portable", "avx2", "avx512"].contains(&l["params"]["isa"].as_str().unwrap()));
        assert!(l["wall_s"].as_f64().unwrap() > 0.0 && l["throughput"].as_f64().unwrap() > 0.0);
        assert!(l["throughput_unit"].is_string() && l["summary"].is_object() && l["checksum"].is_object());
    }
    assert_one_line_error(&ssmcheck(&["bench", "w9"]), "unknown workload 'w9'");
    let with_isa =
        |isa: &str| std::process::Command::new(env!("CARGO_BIN_EXE_ssmcheck")).args(["bench", "w4", "--quick"]).env("SSMCHECK_ISA", isa).output().unwrap();
    assert_one_line_error(&with_isa("sse9"), "SSMCHECK_ISA: unknown instruction set 'sse9'");
    let portable = with_isa("portable");
    assert!(portable.status.success());
    let line: serde_json::Value = serde_json::from_slice(&portable.stdout).unwrap();
    assert_eq!(line["params"]["isa"], "portable");
    assert_one_line_error(&ssmcheck(&["bench", "w1", "--threads", "0"]), "--threads");
    assert_one_line_error(&ssmcheck(&["bench", "w1", "--backend", "shim"]), "only the cpu backend");
    assert_one_line_error(&ssmcheck(&["bench", "w1", "--backend", "tpu"]), "unknown backend");
}

/// `ssmcheck bench` and `benches/reference/reference.c` (the C the README's speed ratios are taken
/// against) compute the same four workloads: every summary value of the quick sizes agrees within
/// 10⁻⁹ relative, `compare.py`'s criterion. The two differ by summation order and libm's last
/// bits only: the longest accumulated sum has 2·10⁴ terms, so n·u ≈ 4·10⁻¹² relative per sum,
/// and a real difference (a wrong index, a dropped term) moves a value by far more than 10⁻⁹.
/// Needs gcc with OpenMP, as `scripts/perf_compare.sh` does.
#[test]
fn bench_agrees_with_the_c_reference() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("reference");
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/reference/reference.c");
    let cc = std::process::Command::new("gcc").args(["-O2", "-fopenmp", source, "-o", exe.to_str().unwrap(), "-lm"]).output().expect("gcc runs");
    assert!(cc.status.success(), "reference.c compiles: {}", String::from_utf8_lossy(&cc.stderr));
    let ours = ssmcheck(&["bench", "all", "--quick", "--threads", "2"]);
    assert!(ours.status.success(), "{}", String::from_utf8_lossy(&ours.stderr));
    let ours: Vec<serde_json::Value> = String::from_utf8(ours.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for (w, line) in ["w1", "w2", "w3", "w4"].iter().zip(&ours) {
        let c = std::process::Command::new(&exe).args([w, "--quick"]).env("OMP_NUM_THREADS", "2").output().unwrap();
        assert!(c.status.success(), "reference {w}: {}", String::from_utf8_lossy(&c.stderr));
        let c: serde_json::Value = serde_json::from_slice(&c.stdout).unwrap();
        assert_eq!(c["workload"], line["workload"]);
        let summary = c["summary"].as_object().unwrap();
        assert!(!summary.is_empty());
        for (key, value) in summary {
            let (theirs, mine) = (value.as_array().cloned().unwrap_or_else(|| vec![value.clone()]), &line["summary"][key]);
            let mine = mine.as_array().cloned().unwrap_or_else(|| vec![mine.clone()]);
            assert_eq!(theirs.len(), mine.len(), "{w} {key}");
            for (a, b) in theirs.iter().zip(&mine) {
                let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
                assert!((a - b).abs() <= 1e-9 * a.abs().max(1e-300), "{w} {key}: C {a} against ssmcheck {b}");
            }
        }
    }
}

#[test]
fn export_writes_zoology_lines_and_rejects_impossible_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mqar.jsonl");
    let p = path.to_str().unwrap();
    let out = ssmcheck(&["export", "--keys", "4", "--values", "16", "--len", "24", "--count", "3", "--vocab", "64", "--out", p]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 3);
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let (inputs, labels) = (v["inputs"].as_array().unwrap(), v["labels"].as_array().unwrap());
        assert_eq!((inputs.len(), labels.len()), (24, 24));
        // Four queries, each a key id (1..32) labelled with a value id (32..64).
        let queries: Vec<usize> = (0..24).filter(|&t| labels[t] != -100).collect();
        assert_eq!(queries.len(), 4);
        for t in queries {
            assert!((1..32).contains(&inputs[t].as_i64().unwrap()));
            assert!((32..64).contains(&labels[t].as_i64().unwrap()));
        }
    }
    // Same seed, same file.
    let again = dir.path().join("again.jsonl");
    ssmcheck(&["export", "--keys", "4", "--values", "16", "--len", "24", "--count", "3", "--vocab", "64", "--out", again.to_str().unwrap()]);
    assert_eq!(text, std::fs::read_to_string(&again).unwrap());
    let bad = dir.path().join("bad.jsonl");
    assert_one_line_error(&ssmcheck(&["export", "--keys", "8", "--len", "10", "--out", bad.to_str().unwrap()]), "T ≥ 32");
    assert_one_line_error(
        &ssmcheck(&["export", "--keys", "4", "--values", "16", "--len", "24", "--vocab", "8", "--out", bad.to_str().unwrap()]),
        "Zoology vocabulary",
    );
    assert!(!bad.exists(), "nothing half-written");
}

#[test]
fn replay_re_evaluates_a_counterexample_and_a_hand_written_candidate() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("out.json");
    let out = ssmcheck(&["check", "004.stability.printed", "000.thm2.reduced.printed", "--budget", "quick", "--json", json.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // From the results JSON: both sides and the margin, exit 1 (the instance violates the claim).
    for id in ["004.stability.printed", "000.thm2.reduced.printed"] {
        let out = ssmcheck(&["replay", id, "--counterexample", json.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{id}: {text}");
        assert!(text.contains("lhs =") && text.contains("rhs =") && text.contains("margin =") && text.contains("VIOLATED"), "{id}: {text}");
    }
    // A candidate of one's own: λ_H + γ < 1 with E m² = 0.38 satisfies the finite-variance reading.
    let mine = dir.path().join("mine.json");
    std::fs::write(&mine, r#"{"lambda_h": 0.5, "gamma": 0.1}"#).unwrap();
    let out = ssmcheck(&["replay", "004.stability.printed", "--counterexample", mine.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("satisfied") && text.contains("3.8"), "{text}");
    // Outside the hypothesis (λ_H + γ ≥ 1): rejected, not judged.
    std::fs::write(&mine, r#"{"lambda_h": 0.9, "gamma": 0.2}"#).unwrap();
    let out = ssmcheck(&["replay", "004.stability.printed", "--counterexample", mine.to_str().unwrap()]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stdout).contains("assumptions"));
}

#[test]
fn replay_rejects_bad_input_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    assert_one_line_error(&ssmcheck(&["replay", "004.stability.printed", "--counterexample", bad.to_str().unwrap()]), "malformed");
    assert_one_line_error(&ssmcheck(&["replay", "004.stability.printed", "--counterexample", "/nonexistent/x.json"]), "cannot read");
    assert_one_line_error(&ssmcheck(&["replay", "004.nope", "--counterexample", bad.to_str().unwrap()]), "unknown claim id");
    std::fs::write(&bad, r#"{"lambda_h": "high"}"#).unwrap();
    assert_one_line_error(&ssmcheck(&["replay", "004.stability.printed", "--counterexample", bad.to_str().unwrap()]), "malformed");
    // A sweep summary cannot be replayed as one instance; a theorem that held has no counterexample.
    let json = dir.path().join("out.json");
    assert!(ssmcheck(&["check", "004.cor1.lognorm", "--budget", "quick", "--json", json.to_str().unwrap()]).status.success());
    assert_one_line_error(&ssmcheck(&["replay", "004.cor1.lognorm", "--counterexample", json.to_str().unwrap()]), "no counterexample");
    // A hand-edited token of a seed-parametrised instance is refused, not silently regenerated.
    assert!(ssmcheck(&["check", "000.thm2.reduced.printed", "--budget", "quick", "--json", json.to_str().unwrap()]).status.success());
    let mut results: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let cx = results["claims"][0]["counterexample"].clone();
    let mut edited = cx.clone();
    edited["tokens"][0] = serde_json::json!({"Value": 0});
    results["claims"][0]["counterexample"] = edited;
    std::fs::write(&json, results.to_string()).unwrap();
    assert_one_line_error(
        &ssmcheck(&["replay", "000.thm2.reduced.printed", "--counterexample", json.to_str().unwrap()]),
        "differs from what its drawn parameters generate",
    );
}

#[test]
fn report_merges_results_files_of_one_seed_and_budget() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c) = (dir.path().join("a.json"), dir.path().join("b.json"), dir.path().join("c.json"));
    assert!(ssmcheck(&["check", "004.eq10", "--budget", "quick", "--json", a.to_str().unwrap()]).status.success());
    assert!(ssmcheck(&["check", "000.lem1", "--budget", "quick", "--json", b.to_str().unwrap()]).status.success());
    let out = dir.path().join("report");
    let merged = ssmcheck(&["report", "--out", out.to_str().unwrap(), "--from", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    let json = std::fs::read_to_string(out.join("results.json")).unwrap();
    assert!(json.contains("\"004.eq10\"") && json.contains("\"000.lem1\""));
    // Another seed, or the same claim twice: one clear line.
    assert!(ssmcheck(&["check", "000.lem1", "--budget", "quick", "--seed", "2", "--json", c.to_str().unwrap()]).status.success());
    assert_one_line_error(&ssmcheck(&["report", "--out", out.to_str().unwrap(), "--from", a.to_str().unwrap(), c.to_str().unwrap()]), "seed 2");
    assert_one_line_error(
        &ssmcheck(&["report", "--out", out.to_str().unwrap(), "--from", a.to_str().unwrap(), a.to_str().unwrap()]),
        "more than one results file",
    );
}

/// `scripts/seed_sweep.sh` narrowed by `CLAIMS` runs those claims only, keeps each seed's JSON
/// under `KEEP`, says every seed's line with its seconds, and a seed without results says why
/// (the check's own error line) and fails the sweep with exit 2. Needs bash and python3, as the
/// script does.
#[test]
fn the_seed_sweep_takes_claims_and_keeps_results() {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("kept");
    let sweep = |claims: &str| {
        std::process::Command::new("bash")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/seed_sweep.sh"))
            .args(["2", "3", "quick", env!("CARGO_BIN_EXE_ssmcheck")])
            .env("CLAIMS", claims)
            .env("KEEP", &keep)
            .output()
            .unwrap()
    };
    let out = sweep("004.eq10.selective 004.cor1.printed");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("2 seeds (2–3) at the quick budget: 0 claims disagree"), "{stdout}");
    for seed in [2, 3] {
        assert!(stderr.contains(&format!("seed {seed} (")) && stderr.contains("every claim agrees"), "{stderr}");
        let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(keep.join(format!("quick-{seed}.json"))).unwrap()).unwrap();
        let ids: Vec<&str> = kept["claims"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
        assert_eq!((ids, kept["seed"].as_u64()), (vec!["004.eq10.selective", "004.cor1.printed"], Some(seed)));
    }
    let out = sweep("no.such.claim");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("seed 2 (") && stderr.contains("unknown claim id 'no.such.claim'"), "{stderr}");
}
