#!/usr/bin/env python3
"""Checks every claim's quoted words and section against the papers' text.

    scripts/check_quotes.py PAPERS_DIR [--ssmcheck BIN] [--verbose]

PAPERS_DIR holds one plain-text file per paper, named after its seed number (`000.txt`, or
`000_anything.txt`), as extracted from the PDF or HTML. The claims come from `BIN list --json`
(default: target/debug/ssmcheck, built if missing). For each claim whose source is a paper (not
"derived", not a user's), the quote is cut into prose pieces at ellipses, brackets and
mathematics (extracted text spells formulas unpredictably); every piece of three words or more
must occur in the paper, in order, after normalisation (case, accents, dashes, quotes,
punctuation, spacing). One of the locus's section references (`§4.1`, `Sec. 3`, `App. D`,
`Appendix B.2`) must then name the section where the quote's longest piece is found (a short
piece can occur anywhere): the last numbered heading before it starts with that number, or is
the start of it (an appendix letter is matched the same way). A caption is judged where the
extracted text places it, so a locus citing a table names the section that holds it. Exit status
1 and one line per mismatch when any is found; 0 and a count otherwise.
"""

import argparse
import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

# Characters that mark a formula in a quote (Greek letters among them): the piece around it is
# cut there. Accented symbols (Ã, x̂, x̄: combining tilde, hat, macron, dot, arrow once
# decomposed) are formulas too.
MATH = re.compile(r"[\^_{}=<>≤≥∈∑∏√∞→←⊤⋅·×∫∂𝕀ℝ∥‖|/\\⁰¹²³⁴⁵⁶⁷⁸⁹⁻₀₁₂₃₄₅₆₇₈₉%\u0370-\u03ff\u0302\u0303\u0304\u0307\u20d7]")
# Function notation (pos(i), log(N), poly(M, N)), a variable in brackets ((i)), products of two
# matrices (CB) and dimensions (2V): formulas, which the extracted text repeats in several spellings.
CALL = re.compile(r"\S*\w\([^)]*\)\S*|\(\w\)|\b[A-Z]{2}\b|\b\d+[A-Z]\w*")
SECTION = re.compile(r"(?:§|Sec\.?\s*|Section\s+|App\.?\s*|Appendix\s+)([A-Z]?\d*(?:\.\d+)*|[A-Z])")
# A numbered heading: "4.1 Title", "A.2 Title", "Appendix B …", or a markdown "## 2.1 Title".
HEADING = re.compile(r"^(?:#+\s*)?(?:Appendix\s+)?([A-Z]|\d+)((?:\.\d+)*)\.?\s+[A-Z][A-Za-z’']")


def normalise(text):
    """Lower-case words and numbers only, one space apart."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"[\u2010-\u2015\u2212-]", " ", text)
    text = re.sub(r"[^A-Za-z0-9]+", " ", text)
    # A footnote mark runs into the next word in extracted text ("3Under"): digits and letters apart.
    text = re.sub(r"(\d)([A-Za-z])", r"\1 \2", text)
    return " ".join(text.lower().split())


def pieces(quote):
    """The prose pieces of a quote (three words or more), in order."""
    out = []
    # Ellipses, editorial brackets, parenthesised formulas or citations ("(§1.1)", "(Abstract)")
    # and dashes between two quoted passages end a piece.
    for part in re.split(r"…|\.\.\.|\[[^\]]*\]|\S*\([^)]*[\^_=§][^)]*\)\S*|\((?:Abstract|Sec|App|Eq|eq|Fig|Table|Thm|Lemma)[^)]*\)| — ", quote):
        # A formula, or a lone capital (a matrix such as A: extraction often doubles it), ends a piece.
        part = unicodedata.normalize("NFD", part)
        for chunk in re.split(CALL.pattern + r"|\S*" + MATH.pattern + r"\S*|\b[A-Z]\b", part):
            words = normalise(chunk).split()
            # Single letters are variables more often than words: they end a piece.
            run = []
            for w in words + [""]:
                if len(w) > 1 or w in ("a", "i"):
                    run.append(w)
                    continue
                if len(run) >= 3:
                    out.append(" ".join(run))
                run = []
    return out


def headings(lines):
    """(character offset in the normalised text, section number) of each numbered heading."""
    found, offset = [], 0
    for line in lines:
        m = HEADING.match(line.strip())
        if m and len(line) < 120:
            found.append((offset, m.group(1) + m.group(2)))
        offset += len(normalise(line)) + 1
    return found


def section_of(position, heads):
    current = None
    for offset, number in heads:
        if offset > position:
            break
        current = number
    return current


def cited_sections(locus):
    """Every section the locus cites (`§4.2 and §5` cites both)."""
    return [m.group(1) for m in SECTION.finditer(locus) if m.group(1)]


def load_papers(directory):
    papers = {}
    for path in sorted(Path(directory).glob("*.txt")):
        seed = path.name[:3]
        if seed.isdigit():
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            papers[seed] = (normalise("\n".join(lines)), headings(lines))
    return papers


def claims(binary):
    if not Path(binary).exists():
        subprocess.run(["cargo", "build", "--quiet", "--bin", "ssmcheck"], check=True)
    out = subprocess.run([binary, "list", "--json"], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def check(meta, papers):
    """The mismatches of one claim, as lines."""
    source = meta.get("source", {})
    paper = source.get("paper", "")
    seed = paper[:3]
    if not seed.isdigit() or paper.startswith("derived"):
        return [], 0
    if seed not in papers:
        return [f"{meta['id']}: no text for paper {seed}"], 0
    text, heads = papers[seed]
    wanted = pieces(source.get("printed", ""))
    problems, start, anchor = [], 0, None
    for piece in wanted:
        at = text.find(piece, start)
        if at < 0:
            at = text.find(piece)  # out of order: still the paper's words
            if at >= 0:
                problems.append(f"{meta['id']}: '{piece}' occurs earlier in {seed} than the quote's previous words")
        if at < 0:
            problems.append(f"{meta['id']}: '{piece}' not found in {seed}")
            continue
        # The section is judged where the longest piece is: a short one ("in the bound") can
        # occur anywhere, a long one only where it was written.
        if anchor is None or len(piece) > len(anchor[0]):
            anchor = (piece, text.find(piece))
        start = at + len(piece)
    cited = cited_sections(source.get("locus", ""))
    if anchor is not None and cited:
        found = section_of(anchor[1], heads)
        if found is not None and not any(found == c or found.startswith(c + ".") or c.startswith(found + ".") for c in cited):
            problems.append(f"{meta['id']}: the locus cites {', '.join(cited)}, the quote's longest piece is in section {found} of {seed}")
    return problems, len(wanted)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("papers", help="directory of the papers' text, one file per seed number")
    parser.add_argument("--ssmcheck", default="target/debug/ssmcheck", help="the ssmcheck binary (built if missing)")
    parser.add_argument("--verbose", action="store_true", help="print every claim checked")
    args = parser.parse_args()
    papers = load_papers(args.papers)
    if not papers:
        sys.exit(f"error: no paper text (000.txt … 004.txt) in {args.papers}")
    problems, quoted, pieces_checked = [], 0, 0
    for meta in claims(args.ssmcheck):
        found, n = check(meta, papers)
        quoted += n > 0
        pieces_checked += n
        problems += found
        if args.verbose:
            print(f"{meta['id']}: {n} pieces, {len(found)} mismatches")
    for p in problems:
        print(p)
    print(f"{quoted} quotes, {pieces_checked} prose pieces checked: {len(problems)} mismatches")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
