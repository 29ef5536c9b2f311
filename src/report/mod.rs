//! The evidence report: results JSON → `index.html` + one SVG per figure. It renders from the
//! results only (it never computes), and writes atomically: a report directory is either the
//! old one or the complete new one, never half-written. Without the `report` feature (plotters)
//! it keeps the terminal table and the results JSON; the HTML and SVG parts need the feature.

#[cfg(feature = "report")]
pub mod html;
pub mod reporter;
#[cfg(feature = "report")]
pub mod svg;

#[cfg(feature = "report")]
pub use reporter::HtmlReport;
pub use reporter::{preflight_all, report_all, JsonFile, Reporter, TerminalTable};

use crate::claim::RunResults;
use crate::error::{Error, Result};
use std::fs;
use std::path::{Path, PathBuf};

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> Error {
    let path = path.to_path_buf();
    move |source| Error::Io { action, path, source }
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    fs::write(&tmp, bytes).map_err(io("write", &tmp))?;
    fs::rename(&tmp, path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io("write", path)(e)
    })
}

/// Fails early (before any work) when a file cannot be created at `path`.
pub fn ensure_writable(path: &Path) -> Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    probe_dir(&dir)
}

fn probe_dir(dir: &Path) -> Result<()> {
    let probe = dir.join(format!(".ssmcheck-probe-{}", std::process::id()));
    fs::write(&probe, b"").map_err(io("write to directory", dir))?;
    let _ = fs::remove_file(&probe);
    Ok(())
}

/// Fails early when the report directory `out` cannot be created or written.
#[cfg(feature = "report")]
pub fn ensure_writable_dir(out: &Path) -> Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(Error::Io { action: "use as report directory", path: out.into(), source: std::io::Error::other("it is a file") });
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).map_err(io("create directory", &parent))?;
    probe_dir(&parent)
}

/// Reads a results JSON written by `check --json` or `report` (not a shard's part: those are
/// merged first).
pub fn read_results(path: &Path) -> Result<RunResults> {
    let text = fs::read_to_string(path).map_err(io("read", path))?;
    let value: serde_json::Value = serde_json::from_str(&text)?;
    if let Some(shard) = value.get("shard") {
        let which = serde_json::from_value::<crate::shard::Shard>(shard["shard"].clone()).map_or("a shard".to_string(), |s| format!("shard {s}"));
        return Err(Error::InvalidParameter(format!(
            "{} is {which} of a sharded run: merge the parts first (`ssmcheck merge part-*.json --json all.json`)",
            path.display()
        )));
    }
    if let Some(version) = value.get("schema_version") {
        let version = version.as_str().unwrap_or("");
        RunResults::check_schema(version).map_err(|why| Error::InvalidParameter(format!("{}: {why}", path.display())))?;
    }
    Ok(serde_json::from_value(value)?)
}

/// Reads several results files as one run: the claims in file order. The files must share seed
/// and budget (one report states one of each) and must not repeat a claim id.
pub fn read_merged(paths: &[PathBuf]) -> Result<RunResults> {
    let mut merged: Option<RunResults> = None;
    for path in paths {
        let next = read_results(path)?;
        match &mut merged {
            None => merged = Some(next),
            Some(m) => {
                if (m.seed, m.budget) != (next.seed, next.budget) {
                    return Err(Error::InvalidParameter(format!(
                        "{} was run at seed {}, budget {}, the first file at seed {}, budget {}: merge results of one seed and budget",
                        path.display(),
                        next.seed,
                        next.budget,
                        m.seed,
                        m.budget
                    )));
                }
                if let Some(dup) = next.claims.iter().find(|c| m.claim(&c.meta.id).is_some()) {
                    return Err(Error::InvalidParameter(format!("claim '{}' appears in more than one results file ({})", dup.meta.id, path.display())));
                }
                m.backend.merge(&next.backend);
                m.claims.extend(next.claims);
            }
        }
    }
    merged.ok_or_else(|| Error::InvalidParameter("no results file given".into()))
}

/// Writes the report for `results` into `out` (`index.html`, `results.json`, `svg/`); returns
/// the path of `index.html`. The SVGs are written to a temporary directory and swapped in; the
/// JSON and the page are each written atomically, the page last.
#[cfg(feature = "report")]
pub fn write_report(results: &RunResults, out: &Path) -> Result<PathBuf> {
    fs::create_dir_all(out).map_err(io("create directory", out))?;
    let pid = std::process::id();
    let tmp = out.join(format!(".svg.tmp-{pid}"));
    let rendered = render_figures(results, &tmp);
    if let Err(e) = rendered {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let svg = out.join("svg");
    let old = out.join(format!(".svg.old-{pid}"));
    if svg.exists() {
        fs::rename(&svg, &old).map_err(io("replace", &svg))?;
    }
    fs::rename(&tmp, &svg).map_err(io("write", &svg))?;
    let _ = fs::remove_dir_all(&old);
    write_atomically(&out.join("results.json"), serde_json::to_string_pretty(results)?.as_bytes())?;
    let index = out.join("index.html");
    write_atomically(&index, html::page(results).as_bytes())?;
    Ok(index)
}

#[cfg(feature = "report")]
fn render_figures(results: &RunResults, dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).map_err(io("create directory", dir))?;
    for c in &results.claims {
        for f in c.figures.iter().filter(|f| !matches!(f.kind, crate::claim::FigureKind::Table(_))) {
            let text = svg::render(f).map_err(|e| Error::InvalidParameter(format!("figure {}/{}: {e}", c.meta.id, f.name)))?;
            let path = dir.join(html::figure_file(&c.meta.id, &f.name));
            fs::write(&path, text).map_err(io("write", &path))?;
        }
    }
    Ok(())
}
