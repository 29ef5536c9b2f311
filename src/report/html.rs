//! The report's HTML: one self-contained page (inline CSS, no scripts, no network) with a
//! summary per paper, the verdict table grouped by paper, and one section per claim. SVG figures are referenced by relative path.

use crate::claim::{ClaimResult, RunResults, Violation};
use std::fmt::Write;

/// Escapes text for HTML.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The SVG file name of figure `name` of claim `id`.
pub fn figure_file(id: &str, name: &str) -> String {
    format!("{id}-{name}.svg")
}

const STYLE: &str = r#"
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1100px; color: #222; line-height: 1.45; padding: 0 1em; }
h1 { margin-bottom: 0.2em; } .meta { color: #555; }
table { border-collapse: collapse; width: 100%; font-size: 0.92em; margin: 1em 0 2em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.35em 0.5em; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } tr.paper th { background: #e8eef6; font-size: 1.05em; padding-top: 0.7em; } td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; } td.ctl { white-space: nowrap; }
.v { font-weight: 600; padding: 0.1em 0.45em; border-radius: 4px; }
.holds { background: #e3f4e1; color: #1d6b1d; } .refuted { background: #fbe3e1; color: #9b1c1c; }
.vacuous, .inconclusive, .skipped { background: #fff4d6; color: #7a5a00; }
.no { background: #9b1c1c; color: white; } .yes { color: #1d6b1d; }
section { border-top: 2px solid #eee; padding-top: 0.8em; margin-top: 2em; }
blockquote { border-left: 4px solid #ccc; margin: 0.5em 0; padding: 0.3em 0.8em; background: #fafafa; }
pre { background: #f6f8fa; padding: 0.6em; overflow-x: auto; font-size: 0.85em; max-height: 22em; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #eee; } figcaption { color: #555; font-size: 0.9em; }
.legend { background: #f7f7ff; border: 1px solid #dde; padding: 0.6em 1em; border-radius: 6px; font-size: 0.93em; }
"#;

/// The status, with an erratum's kind of error ("erratum: proof step").
fn status_label(c: &ClaimResult) -> String {
    match &c.meta.error {
        Some(e) => format!("{}: {}", c.meta.status, e.kind),
        None => c.meta.status.to_string(),
    }
}

fn fmt_margin(m: Option<f64>) -> String {
    m.map_or("–".into(), |m| format!("{m:.3e}"))
}

/// JSON for reading: one key per line, but arrays of numbers (vectors, matrix rows) on one line.
pub fn readable_json(v: &serde_json::Value) -> String {
    fn go(v: &serde_json::Value, indent: usize, out: &mut String) {
        use serde_json::Value;
        let pad = "  ".repeat(indent + 1);
        match v {
            Value::Array(items) if items.iter().all(|x| !x.is_array() && !x.is_object()) => {
                out.push_str(&serde_json::to_string(v).unwrap_or_default().replace(',', ", "));
            }
            Value::Array(items) => {
                out.push_str("[\n");
                for (i, x) in items.iter().enumerate() {
                    out.push_str(&pad);
                    go(x, indent + 1, out);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&"  ".repeat(indent));
                out.push(']');
            }
            Value::Object(map) => {
                out.push_str("{\n");
                for (i, (k, x)) in map.iter().enumerate() {
                    out.push_str(&format!("{pad}{}: ", serde_json::to_string(k).unwrap_or_default()));
                    go(x, indent + 1, out);
                    out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
                }
                out.push_str(&"  ".repeat(indent));
                out.push('}');
            }
            scalar => out.push_str(&serde_json::to_string(scalar).unwrap_or_default()),
        }
    }
    let mut out = String::new();
    go(v, 0, &mut out);
    out
}

fn pretty(v: &impl serde::Serialize) -> String {
    escape(&readable_json(&serde_json::to_value(v).unwrap_or_default()))
}

/// The claims of one paper: the seed number their ids start with ("004"), the paper's title (the
/// source most of them cite), and the claims in run order.
struct PaperGroup<'a> {
    key: &'a str,
    title: String,
    claims: Vec<&'a ClaimResult>,
}

/// The run's claims grouped by paper (the id's first component, "000" to "004" for the shipped
/// claims), in the order of that component; run order within a paper.
fn by_paper(results: &RunResults) -> Vec<PaperGroup<'_>> {
    let mut groups: Vec<PaperGroup> = vec![];
    for c in &results.claims {
        let key = c.meta.id.split('.').next().unwrap_or_default();
        match groups.iter_mut().find(|g| g.key == key) {
            Some(g) => g.claims.push(c),
            None => groups.push(PaperGroup { key, title: String::new(), claims: vec![c] }),
        }
    }
    groups.sort_by_key(|g| g.key);
    for g in &mut groups {
        g.title = crate::claim::Paper::of_seed(g.key).map_or(g.key.to_string(), |p| p.citation().to_string());
    }
    groups
}

/// One line per paper: its claims by status, its errata by kind, and what does not come out as
/// its status says (disagreements) or is not decided (inconclusive, vacuous, skipped, and
/// conjectures refuted by the search).
fn paper_summary(out: &mut String, groups: &[PaperGroup]) {
    use crate::claim::{ErrorKind, Status, VerdictKind};
    out.push_str("<table class=\"papers\"><tr><th>paper</th><th>claims</th><th>theorems</th><th>errata, by kind</th><th>refutations certified</th><th>conjectures</th><th>experiments</th><th>not reproduced or not decided</th></tr>\n");
    for g in groups {
        let count = |s: Status| g.claims.iter().filter(|c| c.meta.status == s).count();
        let kinds: Vec<String> = ErrorKind::ALL
            .iter()
            .filter_map(|k| {
                let n = g.claims.iter().filter(|c| c.meta.error.as_ref().is_some_and(|e| e.kind == *k)).count();
                (n > 0).then(|| format!("{n} {}", k.name()))
            })
            .collect();
        // Refutations that hold in exact arithmetic (or at the stated level, statistically).
        let refuted: Vec<_> = g.claims.iter().filter_map(|c| c.result.certificate.as_ref()).collect();
        let certified = refuted.iter().filter(|c| c.is_certified()).count();
        let open: Vec<String> = g
            .claims
            .iter()
            .filter(|c| {
                !c.agrees
                    || matches!(c.result.verdict, VerdictKind::Inconclusive | VerdictKind::Vacuous | VerdictKind::Skipped)
                    || (matches!(c.meta.status, Status::Conjecture | Status::Experiment) && c.result.verdict == VerdictKind::Refuted)
            })
            .map(|c| format!("<a href=\"#{id}\">{id}</a> ({})", c.meta.status.verdict_name(c.result.verdict), id = escape(&c.meta.id)))
            .collect();
        let _ = writeln!(
            out,
            "<tr><td><a href=\"#paper-{key}\">{title}</a></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{} {}</td><td class=\"num\">{certified} of {}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            g.claims.len(),
            count(Status::Theorem),
            count(Status::Erratum),
            if kinds.is_empty() { String::new() } else { format!("({})", kinds.join(", ")) },
            refuted.len(),
            count(Status::Conjecture),
            count(Status::Experiment),
            if open.is_empty() { "–".to_string() } else { open.join(", ") },
            key = escape(g.key),
            title = escape(&g.title),
        );
    }
    out.push_str("</table>\n");
}

/// The verdict table, one block of rows per paper under its title.
fn table(out: &mut String, groups: &[PaperGroup]) {
    out.push_str("<table><tr><th>claim</th><th>source</th><th>status</th><th>verdict</th><th>cases</th><th>margin</th><th>control</th><th>agrees</th><th>seconds</th></tr>\n");
    for g in groups {
        let _ = writeln!(out, "<tr class=\"paper\" id=\"paper-{}\"><th colspan=\"9\">{}</th></tr>", escape(g.key), escape(&g.title));
        for c in &g.claims {
            let control = c.control.as_ref().map_or("–".to_string(), |k| if k.detected { "refuted ✓".into() } else { format!("{} ✗", k.result.verdict) });
            let _ = writeln!(
                out,
                "<tr><td><a href=\"#{id}\">{id}</a></td><td>{locus}</td><td>{status}</td><td><span class=\"v {v}\">{label}</span></td>\
                 <td class=\"num\">{cases}</td><td class=\"num\">{margin}</td><td class=\"ctl\">{control}</td><td>{agrees}</td>\
                 <td class=\"num\">{seconds}</td></tr>",
                id = escape(&c.meta.id),
                locus = escape(&c.meta.source.locus),
                status = escape(&status_label(c)),
                v = c.result.verdict,
                label = c.meta.status.verdict_name(c.result.verdict),
                cases = c.result.cases,
                margin = fmt_margin(c.result.margin),
                agrees = if c.agrees { "<span class=\"yes\">yes</span>" } else { "<span class=\"v no\">NO</span>" },
                seconds = super::reporter::seconds(c.seconds),
            );
        }
    }
    out.push_str("</table>\n");
}

/// The violated relation: both sides, the margin and its formula.
fn violation(out: &mut String, v: &Violation) {
    let _ = writeln!(
        out,
        "<table class=\"sides\"><tr><th>relation</th><td colspan=\"2\">{}</td></tr>\
         <tr><th>lhs</th><td class=\"num\">{:.10e}</td><td>{}</td></tr>\
         <tr><th>rhs</th><td class=\"num\">{:.10e}</td><td>{}</td></tr>\
         <tr><th>margin</th><td class=\"num\">{:.4e}</td><td>{}</td></tr>{}</table>",
        escape(&v.relation.to_string()),
        v.lhs,
        escape(&v.lhs_is),
        v.rhs,
        escape(&v.rhs_is),
        v.margin,
        escape(&v.margin_formula),
        v.enclosure.as_deref().map(|e| format!("<tr><th>enclosures</th><td colspan=\"2\">{}</td></tr>", escape(&e.to_string()))).unwrap_or_default()
    );
}

fn section(out: &mut String, c: &ClaimResult) {
    let _ = writeln!(out, "<section id=\"{}\">", escape(&c.meta.id));
    let _ = writeln!(
        out,
        "<h2>{} <span class=\"v {v}\">{label}</span></h2><p class=\"meta\">{} · {} · {} check · {}</p>",
        escape(&c.meta.id),
        escape(&status_label(c)),
        c.meta.family,
        c.meta.kind,
        escape(&format!("{} — {}", c.meta.source.origin, c.meta.source.locus)),
        v = c.result.verdict,
        label = c.meta.status.verdict_name(c.result.verdict)
    );
    let _ = writeln!(out, "<p><b>As printed:</b></p><blockquote>{}</blockquote>", escape(&c.meta.source.printed));
    let _ = writeln!(out, "<p><b>What is checked:</b> {}</p>", escape(&c.meta.statement));
    if let Some(corr) = &c.meta.correction {
        let _ = writeln!(out, "<p><b>Correction:</b> {}</p>", escape(corr));
    }
    if let Some(e) = &c.meta.error {
        let _ = writeln!(
            out,
            "<p><b>Kind of error: {}</b> ({}); {}. {}</p>",
            escape(e.kind.name()),
            escape(e.kind.meaning()),
            escape(&e.particulars().join("; ")),
            escape(&e.detail)
        );
    }
    let _ = writeln!(out, "<p><b>Verdict:</b> {} ({} cases, margin {}).</p>", escape(&c.result.summary), c.result.cases, fmt_margin(c.result.margin));
    if let Some(why) = &c.disagreement {
        let _ = writeln!(out, "<p><span class=\"v no\">Disagrees with its status:</span> {}</p>", escape(why));
    }
    if let Some(cx) = &c.result.counterexample {
        let _ = writeln!(out, "<p><b>Counterexample</b> (every parameter needed to recompute it):</p><pre>{}</pre>", pretty(cx));
    }
    if let Some(v) = &c.result.violation {
        violation(out, v);
    }
    if let Some(cert) = &c.result.certificate {
        let class = if cert.is_certified() { "yes" } else { "v no" };
        let _ = writeln!(out, "<p><b>Certificate:</b> <span class=\"{class}\">{}</span></p>", escape(&cert.to_string()));
    }
    if let Some(w) = &c.result.most_violating {
        let _ = writeln!(
            out,
            "<details><summary>Most violating instance seen (margin {:.4e}; the counterexample above is its shrunk, simpler form){}</summary><pre>{}</pre>",
            w.violation.margin,
            w.certificate.as_ref().map(|c| format!(" — {}", escape(&c.to_string()))).unwrap_or_default(),
            pretty(&w.instance)
        );
        violation(out, &w.violation);
        out.push_str("</details>\n");
    }
    if let Some(k) = &c.control {
        let _ = writeln!(
            out,
            "<p><b>Negative control</b> — {}: <span class=\"v {v}\">{v}</span> {} ({} cases).</p>",
            escape(&k.mutation),
            escape(&k.result.summary),
            k.result.cases,
            v = k.result.verdict
        );
        if let Some(cx) = &k.result.counterexample {
            let _ = writeln!(out, "<details><summary>control counterexample</summary><pre>{}</pre></details>", pretty(cx));
        }
    }
    for f in &c.figures {
        if let crate::claim::FigureKind::Table(t) = &f.kind {
            let cells = |row: &[String], tag: &str| row.iter().map(|v| format!("<{tag}>{}</{tag}>", escape(v))).collect::<String>();
            let body: String = t.rows.iter().map(|r| format!("<tr>{}</tr>", cells(r, "td"))).collect();
            let _ = writeln!(
                out,
                "<figure><table class=\"evidence\"><caption>{}</caption><thead><tr>{}</tr></thead><tbody>{body}</tbody></table><figcaption>{}</figcaption></figure>",
                escape(&f.title),
                cells(&t.header, "th"),
                escape(&f.caption)
            );
            continue;
        }
        let _ = writeln!(
            out,
            "<figure><img src=\"svg/{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
            escape(&figure_file(&c.meta.id, &f.name)),
            escape(&f.title),
            escape(&f.caption)
        );
    }
    let _ = writeln!(out, "<details><summary>statistics and details</summary><pre>{}</pre></details>", pretty(&c.details));
    out.push_str("</section>\n");
}

/// The budgets table: every size each check asked for, at quick, standard and deep (the run's
/// budget in bold); a claim absent from it runs the same at every budget.
fn budgets(out: &mut String, results: &RunResults) {
    out.push_str("<h2 id=\"budgets\">Budgets</h2>\n<p>What quick, standard and deep mean for each claim: every size its check asked for (a negative control runs at its claim's). Claims not listed run the same at every budget.</p>\n");
    out.push_str("<table><tr><th>claim</th><th>size</th><th>quick</th><th>standard</th><th>deep</th></tr>\n");
    let bold = |b: crate::claim::Budget, v: &str| if b == results.budget { format!("<b>{}</b>", escape(v)) } else { escape(v) };
    for c in results.claims.iter().filter(|c| !c.sizes.is_empty()) {
        for (i, r) in c.sizes.iter().enumerate() {
            let id = if i == 0 { format!("<a href=\"#{0}\">{0}</a>", escape(&c.meta.id)) } else { String::new() };
            let _ = writeln!(
                out,
                "<tr><td>{id}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                escape(&r.what),
                bold(crate::claim::Budget::Quick, &r.quick),
                bold(crate::claim::Budget::Standard, &r.standard),
                bold(crate::claim::Budget::Deep, &r.deep)
            );
        }
    }
    out.push_str("</table>\n");
}

/// The whole page.
pub fn page(results: &RunResults) -> String {
    let bad = results.disagreements().len();
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ssmcheck evidence report</title><style>{STYLE}</style></head><body>\n\
         <h1>ssmcheck evidence report</h1>\n<p class=\"meta\">ssmcheck {} · seed {} · budget {} · backend {} · {} claims, {} agree with their status, {} disagree · {:.1} s of checks</p>\n",
        escape(&results.version),
        results.seed,
        results.budget,
        escape(&results.backend.to_string()),
        results.claims.len(),
        results.claims.len() - bad,
        bad,
        results.seconds()
    );
    out.push_str(
        "<div class=\"legend\"><b>How to read this.</b> A <i>theorem</i> must hold: its verdict should be <span class=\"v holds\">holds</span> \
         and its negative control (a mutant of the statement) must be <span class=\"v refuted\">refuted</span> by the same check, which shows \
         the check can fail. An <i>erratum</i> is a statement that fails as printed: the search must refute it, and the counterexample shown \
         was found and shrunk by the search (recompute it from the JSON, or with <code>ssmcheck replay</code>). Each erratum says what kind of \
         error it is: a <i>false statement</i>, a failed <i>proof step</i> (the statement may survive), a failed explicit <i>construction</i> \
         (the existence claim survives), a <i>typo</i>, a <i>precision</i> failure (true in exact arithmetic), or a <i>reading</i> (false under \
         one reading of an ambiguous statement; the other reading is checked too). A <i>conjecture</i> reports either verdict. The margin is signed \
         and scale-aware: negative means violated. Statistical and rate checks state their confidence level and correction in their details. \
         Rerun: <code>ssmcheck check ID --seed N --budget B</code>.</div>\n",
    );
    let groups = by_paper(results);
    out.push_str("<h2>By paper</h2>\n");
    paper_summary(&mut out, &groups);
    out.push_str("<h2>Every claim</h2>\n");
    table(&mut out, &groups);
    for g in &groups {
        for c in &g.claims {
            section(&mut out, c);
        }
    }
    budgets(&mut out, results);
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_json_keeps_rows_on_one_line_and_parses_back() {
        let v = serde_json::json!({ "a": [[-0.25, 0.0], [-0.25, -0.25]], "t": 1, "m": { "w": [1.5] } });
        let text = readable_json(&v);
        assert!(text.contains("[-0.25, 0.0]"), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
        assert_eq!(escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
