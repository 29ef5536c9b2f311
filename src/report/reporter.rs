//! Where a finished run goes: one [`Reporter`] interface for the terminal's verdict table, the
//! results JSON and the HTML report (criterion's `Report` trait is the model). The CLI's
//! commands and the test harness pick their reporters; a new output (JUnit XML, Markdown) is
//! one more implementation.

use super::{ensure_writable, write_atomically};
#[cfg(feature = "report")]
use super::{ensure_writable_dir, write_report};
use crate::claim::RunResults;
use crate::error::Result;
use std::path::PathBuf;

/// An output of a run.
pub trait Reporter {
    /// Fails, before any work, when the output could not be written (an unwritable path).
    fn preflight(&self) -> Result<()> {
        Ok(())
    }
    /// Reports the finished run.
    fn report(&self, results: &RunResults) -> Result<()>;
}

/// Runs each reporter's [`Reporter::report`] in order; stops at the first error.
pub fn report_all(results: &RunResults, reporters: &[&dyn Reporter]) -> Result<()> {
    reporters.iter().try_for_each(|r| r.report(results))
}

/// Runs each reporter's [`Reporter::preflight`]; stops at the first error.
pub fn preflight_all(reporters: &[&dyn Reporter]) -> Result<()> {
    reporters.iter().try_for_each(|r| r.preflight())
}

/// The verdict table on standard output: claim, status, kind, verdict, cases, margin and
/// agreement, with each disagreement's reason and a last line of totals.
pub struct TerminalTable;

impl Reporter for TerminalTable {
    fn report(&self, results: &RunResults) -> Result<()> {
        print!("{}", table(results));
        Ok(())
    }
}

/// The verdict table as text (what [`TerminalTable`] prints).
pub fn table(results: &RunResults) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let width = results.claims.iter().map(|c| c.meta.id.chars().count()).max().unwrap_or(0).max(24);
    let _ = writeln!(out, "{:<width$} {:<10} {:<12} {:<12} {:>9} {:>11} {:>9}  agrees", "claim", "status", "kind", "verdict", "cases", "margin", "seconds");
    for c in &results.claims {
        let margin = c.result.margin.map_or("-".into(), |m| format!("{m:.3e}"));
        let _ = writeln!(
            out,
            "{:<width$} {:<10} {:<12} {:<12} {:>9} {:>11} {:>9}  {}",
            c.meta.id,
            c.meta.status.name(),
            c.meta.kind.name(),
            c.meta.status.verdict_name(c.result.verdict),
            c.result.cases,
            margin,
            seconds(c.seconds),
            if c.agrees { "yes" } else { "NO" }
        );
        if let Some(why) = &c.disagreement {
            let _ = writeln!(out, "    ! {why}");
        }
    }
    let bad = results.disagreements().len();
    let _ = writeln!(
        out,
        "\n{} claims, {} agree, {} disagree (seed {}, budget {}, backend {}; {:.1} s of checks)",
        results.claims.len(),
        results.claims.len() - bad,
        bad,
        results.seed,
        results.budget,
        results.backend,
        results.seconds()
    );
    out
}

/// A claim's time for a table: seconds to the millisecond, or "-" when it was not measured.
pub fn seconds(seconds: Option<f64>) -> String {
    seconds.map_or("-".into(), |s| format!("{s:.3}"))
}

/// The results JSON, written atomically (what `check --json`, `merge` and `SSMCHECK_RESULTS`
/// write, and `report --from` reads).
pub struct JsonFile(pub PathBuf);

impl Reporter for JsonFile {
    fn preflight(&self) -> Result<()> {
        ensure_writable(&self.0)
    }
    fn report(&self, results: &RunResults) -> Result<()> {
        write_atomically(&self.0, serde_json::to_string_pretty(results)?.as_bytes())
    }
}

/// The evidence report in a directory (`index.html`, `results.json`, `svg/`); prints where its
/// page is.
#[cfg(feature = "report")]
pub struct HtmlReport(pub PathBuf);

#[cfg(feature = "report")]
impl Reporter for HtmlReport {
    fn preflight(&self) -> Result<()> {
        ensure_writable_dir(&self.0)
    }
    fn report(&self, results: &RunResults) -> Result<()> {
        let index = write_report(results, &self.0)?;
        println!("report: {}", index.display());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_reporter_refuses_an_unwritable_path_before_the_run_and_writes_what_reads_back() {
        assert!(JsonFile(PathBuf::from("/nonexistent-dir/x.json")).preflight().is_err());
        let dir = std::env::temp_dir().join(format!("ssmcheck-reporter-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.json");
        let results = RunResults::new(3, crate::claim::Budget::Quick, "cpu", vec![]);
        let reporter = JsonFile(path.clone());
        preflight_all(&[&reporter]).unwrap();
        report_all(&results, &[&reporter]).unwrap();
        assert_eq!(crate::report::read_results(&path).unwrap(), results);
        assert!(table(&results).contains("0 claims, 0 agree, 0 disagree (seed 3, budget quick, backend cpu; 0.0 s of checks)"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
