//! 001 §4.3, Table 2: long-context results of the trained models, as printed. The suite cannot
//! retrain 370M and 790M language models; it encodes the printed numbers as data and checks the
//! caption's comparison cell by cell.
//!
//! * `001.table2.caption` (Erratum, reading): "Our B'MOJO variants outperform Mamba" —
//!   read as "each variant", the full B'MOJO (Fading + Eidetic) trails Mamba on both Scrolls
//!   tasks at both scales; read as "some variant on every task", it holds (`001.table2.fading`).
//! * `001.table2.fading` (Conjecture): what the table does show — B'MOJO-F (Fading) beats Mamba on
//!   every task at both scales (the text's own reading: "B'MOJO-F outperforms Mamba on the Scrolls
//!   datasets").
//!
//! Each printed value is known to half a unit in its last printed digit, so every comparison is
//! made between the intervals `[v − ½·10^−d, v + ½·10^−d]`: a refutation is certified when it
//! holds for every value the printing allows, and overlapping intervals are a tie, never a
//! violation.

use crate::claim::{property, Claim, ErrorKind, Eval, Paper, Scale, Tolerance};
use crate::math::Interval;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A long-context task of Table 2 and which direction is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Task {
    /// PG-19 log-perplexity (lower is better).
    Pg19,
    /// SWDE accuracy (higher is better).
    Swde,
    /// Scrolls-QAsper accuracy (higher is better).
    ScrollsQasper,
    /// Scrolls-NarraQA accuracy (higher is better).
    ScrollsNarraqa,
}

impl Task {
    /// Whether a lower value is better (log-perplexity).
    pub fn lower_is_better(self) -> bool {
        self == Task::Pg19
    }
}

/// A B'MOJO variant of Table 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Variant {
    /// "BMoJo (Fading)", i.e. B'MOJO-F.
    Fading,
    /// "BMoJo (Fading + Eidetic)", the full B'MOJO.
    FadingEidetic,
}

/// One printed row: model size, task, and the printed values of Mamba, B'MOJO-F and
/// B'MOJO, with the number of decimals printed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table2Row {
    /// Model size in millions of parameters (the table's "370M", "790M").
    pub params_m: u32,
    /// The task.
    pub task: Task,
    /// "Mamba (SSM)".
    pub mamba: f64,
    /// "BMoJo (Fading)".
    pub fading: f64,
    /// "BMoJo (Fading + Eidetic)".
    pub fading_eidetic: f64,
    /// Decimals printed (the value is known to ½·10^−decimals).
    pub decimals: i32,
}

/// 001 Table 2 (§4.3, "Long range downstream tasks"), the Mamba and B'MOJO rows as printed.
/// (Scrolls-QAsper's 790M B'MOJO-F value is printed with one decimal, "12.8".)
pub const TABLE2: [Table2Row; 8] = [
    Table2Row { params_m: 370, task: Task::Pg19, mamba: 3.24, fading: 3.05, fading_eidetic: 3.04, decimals: 2 },
    Table2Row { params_m: 370, task: Task::Swde, mamba: 7.38, fading: 15.56, fading_eidetic: 17.91, decimals: 2 },
    Table2Row { params_m: 370, task: Task::ScrollsQasper, mamba: 9.54, fading: 10.29, fading_eidetic: 9.02, decimals: 2 },
    Table2Row { params_m: 370, task: Task::ScrollsNarraqa, mamba: 6.04, fading: 7.48, fading_eidetic: 5.92, decimals: 2 },
    Table2Row { params_m: 790, task: Task::Pg19, mamba: 2.98, fading: 2.83, fading_eidetic: 2.84, decimals: 2 },
    Table2Row { params_m: 790, task: Task::Swde, mamba: 17.37, fading: 22.59, fading_eidetic: 23.40, decimals: 2 },
    Table2Row { params_m: 790, task: Task::ScrollsQasper, mamba: 12.43, fading: 12.8, fading_eidetic: 11.05, decimals: 1 },
    Table2Row { params_m: 790, task: Task::ScrollsNarraqa, mamba: 9.62, fading: 9.66, fading_eidetic: 7.64, decimals: 2 },
];

/// One comparison of the caption: a variant against Mamba on one row, with both printed values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table2Cell {
    /// The row (scale, task and every printed value).
    pub row: Table2Row,
    /// The variant compared with Mamba.
    pub variant: Variant,
    /// The variant's printed value.
    pub bmojo: f64,
    /// Mamba's printed value.
    pub mamba: f64,
}

impl Table2Cell {
    /// The cell of `variant` on row `row` of [`TABLE2`].
    pub fn new(row: usize, variant: Variant) -> Table2Cell {
        let row = TABLE2[row];
        let bmojo = match variant {
            Variant::Fading => row.fading,
            Variant::FadingEidetic => row.fading_eidetic,
        };
        Table2Cell { row, variant, bmojo, mamba: row.mamba }
    }

    /// A printed value as the interval of every value that prints as it.
    fn printed(&self, v: f64) -> Interval {
        Interval::around(v, 2.0, 0.5 * 10f64.powi(-self.row.decimals))
    }

    /// "The variant outperforms Mamba": lower log-perplexity, higher accuracy; compared as the
    /// intervals of the printed values (a tie when they overlap).
    pub fn outperforms(&self) -> Eval {
        let (b, m) = (self.printed(self.bmojo), self.printed(self.mamba));
        let scale = Scale(self.mamba.abs());
        if self.row.task.lower_is_better() {
            Eval::lt(b, m, scale, Tolerance::NONE)
        } else {
            Eval::gt(b, m, scale, Tolerance::NONE)
        }
    }
}

/// Every cell of the given variants: a row of [`TABLE2`] and one of `variants`, uniformly.
fn cells(variants: &'static [Variant]) -> impl Strategy<Value = Table2Cell> + Clone {
    (0..TABLE2.len(), 0..variants.len()).prop_map(move |(row, v)| Table2Cell::new(row, variants[v]))
}

/// Cases per budget: 16 cells drawn uniformly, so 200 draws miss a given cell with probability
/// (15/16)²⁰⁰ < 3·10⁻⁶.
const CASES: [u64; 3] = [200, 400, 800];

const SIDES: (&str, &str) =
    ("the B'MOJO variant's printed value (±½ in the last digit)", "Mamba's printed value (±½ in the last digit): lower log-perplexity, higher accuracy");

/// `001.table2.caption` (erratum): Table 2's caption (§4.3).
fn claim_table2_caption() -> Claim {
    Claim::erratum(
        "001.table2.caption",
        super::FAMILY,
        "Table 2's caption, against the table's own numbers: both B'MOJO variants (Fading, Fading + Eidetic) outperform Mamba on every \
         long-context task (PG-19 log-perplexity lower; SWDE, Scrolls-QAsper, Scrolls-NarraQA accuracy higher) at both scales (370M, 790M), \
         each printed value taken as every value that prints as it.",
        property(CASES, cells(&[Variant::Fading, Variant::FadingEidetic]), Table2Cell::outperforms).sides(SIDES.0, SIDES.1),
    )
    .source(Paper::Bmojo, "§4.3, Table 2 (caption)", "Our B'MOJO variants outperform Mamba since they have stronger recall capabilities.")
    .correction("B'MOJO-F (Fading) outperforms Mamba on every task at both scales (001.table2.fading); the full B'MOJO trails Mamba on both Scrolls tasks at both scales, as the text says ('B'MOJO-F outperforms Mamba on the Scrolls datasets').")
    .error(
        ErrorKind::Reading,
        "Table 2's caption says 'Our B'MOJO variants outperform Mamba since they have stronger recall capabilities'. Reading checked: each variant outperforms Mamba on the table's tasks. The table's own Fading + Eidetic row is below Mamba's on Scrolls-QAsper (9.02 vs 9.54 at 370M, 11.05 vs 12.43 at 790M) and Scrolls-NarraQA (5.92 vs 6.04, 7.64 vs 9.62), so under it the caption is false. The other reading, that on every task some B'MOJO variant outperforms Mamba, is what the §4.3 text says ('B'MOJO outperforms Mamba … on PG-19 and SWDE, while B'MOJO-F outperforms Mamba on the Scrolls datasets'), and it holds: B'MOJO-F alone is above Mamba on every task at both scales (001.table2.fading)",
    )
    .holds_instead(&["001.table2.fading"])
}

/// `001.table2.fading` (conjecture): what Table 2 supports (§4.3).
fn claim_table2_fading() -> Claim {
    Claim::conjecture(
        "001.table2.fading",
        super::FAMILY,
        "In Table 2, B'MOJO-F (Fading) outperforms Mamba on every long-context task at both scales (PG-19 log-perplexity lower; SWDE, \
         Scrolls-QAsper, Scrolls-NarraQA accuracy higher), each printed value taken as every value that prints as it.",
        property(CASES, cells(&[Variant::Fading]), Table2Cell::outperforms).sides(SIDES.0, SIDES.1),
    )
    .source(
        Paper::Bmojo,
        "§4.3 (Long Context Evaluation) and Table 2",
        "Our results show that B'MOJO outperforms Mamba and our hybrid baseline on PG-19 and SWDE, while B'MOJO-F outperforms Mamba on the Scrolls datasets.",
    )
    .control(
        "the full B'MOJO (Fading + Eidetic) in B'MOJO-F's place",
        property(CASES, cells(&[Variant::FadingEidetic]), Table2Cell::outperforms).sides(SIDES.0, SIDES.1),
    )
}

/// Registers 001.table2.caption and 001.table2.fading.
pub fn register(r: &mut crate::claim::Registry) {
    r.add(claim_table2_caption());
    r.add(claim_table2_fading());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_printed_intervals_decide_every_cell() {
        // Every B'MOJO-F cell is better than Mamba's beyond the printing's half-digit (the
        // closest: NarraQA at 790M, 9.66 against 9.62); four Fading + Eidetic cells are worse.
        let fading = (0..TABLE2.len()).filter(|&r| Table2Cell::new(r, Variant::Fading).outperforms().refutes()).count();
        let full = (0..TABLE2.len()).filter(|&r| Table2Cell::new(r, Variant::FadingEidetic).outperforms().refutes()).count();
        assert_eq!((fading, full), (0, 4));
    }
}
