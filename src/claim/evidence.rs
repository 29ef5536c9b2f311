//! Evidence a check attaches for the report: figures as plain data (series of points). The
//! report draws them; checks never render.

use serde::{Deserialize, Serialize};

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Style {
    /// Solid line (measured quantity).
    Line,
    /// Dashed line (a bound or prediction).
    Dashed,
    /// Markers only: filled circles.
    Points,
    /// Markers only: crosses (a second kind of point beside [`Style::Points`], e.g. an optimum
    /// next to random instances).
    Crosses,
}

/// One named series of (x, y) points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Drawing style.
    pub style: Style,
    /// The points.
    pub points: Vec<[f64; 2]>,
    /// Palette index, to pair a bound with the curve it bounds (default: the series' position).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<usize>,
}

impl Series {
    /// A series from points.
    pub fn new(label: impl Into<String>, style: Style, points: Vec<[f64; 2]>) -> Self {
        Series { label: label.into(), style, points, color: None }
    }
    /// Draws the series in palette colour `index`.
    pub fn color(mut self, index: usize) -> Self {
        self.color = Some(index);
        self
    }
}

/// A figure: axes, labels and series, drawn as a plot (with a heat map under the series, for
/// phase diagrams) or shown as a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "FigureJson", into = "FigureJson")]
pub struct Figure {
    /// File-name stem, unique within the claim.
    pub name: String,
    /// Title.
    pub title: String,
    /// x-axis label.
    pub x_label: String,
    /// y-axis label.
    pub y_label: String,
    /// Logarithmic x axis.
    pub x_log: bool,
    /// Logarithmic y axis (points with y ≤ 0 are left out; the caption should say so).
    pub y_log: bool,
    /// The series.
    pub series: Vec<Series>,
    /// What the reader should see in it.
    pub caption: String,
    /// What kind of figure it is.
    pub kind: FigureKind,
}

/// What kind of figure a [`Figure`] is.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum FigureKind {
    /// The series on axes.
    Plot,
    /// The series over a heat map (a phase diagram).
    HeatMap(HeatMap),
    /// A table in place of a plot (a transcript, a list of cells); the series are not drawn.
    Table(Table),
}

/// A figure as the results JSON holds it: the kind as an optional `heat` or `table`.
#[derive(Serialize, Deserialize)]
struct FigureJson {
    name: String,
    title: String,
    x_label: String,
    y_label: String,
    x_log: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    y_log: bool,
    series: Vec<Series>,
    caption: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    heat: Option<HeatMap>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    table: Option<Table>,
}

impl From<FigureJson> for Figure {
    fn from(f: FigureJson) -> Figure {
        let kind = match (f.heat, f.table) {
            (_, Some(t)) => FigureKind::Table(t),
            (Some(h), None) => FigureKind::HeatMap(h),
            (None, None) => FigureKind::Plot,
        };
        Figure {
            name: f.name,
            title: f.title,
            x_label: f.x_label,
            y_label: f.y_label,
            x_log: f.x_log,
            y_log: f.y_log,
            series: f.series,
            caption: f.caption,
            kind,
        }
    }
}

impl From<Figure> for FigureJson {
    fn from(f: Figure) -> FigureJson {
        let (heat, table) = match f.kind {
            FigureKind::Plot => (None, None),
            FigureKind::HeatMap(h) => (Some(h), None),
            FigureKind::Table(t) => (None, Some(t)),
        };
        FigureJson {
            name: f.name,
            title: f.title,
            x_label: f.x_label,
            y_label: f.y_label,
            x_log: f.x_log,
            y_log: f.y_log,
            series: f.series,
            caption: f.caption,
            heat,
            table,
        }
    }
}

/// Rows of text under a header, for evidence that is read rather than plotted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Column headings.
    pub header: Vec<String>,
    /// The rows, one cell per heading.
    pub rows: Vec<Vec<String>>,
}

/// A grid of values in [0, 1] (e.g. accuracies) drawn as shaded cells centred at (x_i, y_j),
/// each labelled with its value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeatMap {
    /// Cell centres along x (increasing).
    pub x: Vec<f64>,
    /// Cell centres along y (increasing).
    pub y: Vec<f64>,
    /// `values[j][i]` at (x_i, y_j); NaN leaves a cell blank (written as `null` in the JSON,
    /// read back as NaN).
    #[serde(deserialize_with = "nan_from_null")]
    pub values: Vec<Vec<f64>>,
    /// What the shade means (e.g. "accuracy").
    pub label: String,
    /// The values mapped to the lightest and darkest shade (default [0, 1]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<[f64; 2]>,
}

/// Reads a grid whose blank (NaN) cells JSON wrote as `null`.
fn nan_from_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Vec<f64>>, D::Error> {
    let grid: Vec<Vec<Option<f64>>> = Deserialize::deserialize(d)?;
    Ok(grid.into_iter().map(|row| row.into_iter().map(|v| v.unwrap_or(f64::NAN)).collect()).collect())
}

impl Figure {
    /// A figure with linear axes and no series yet.
    pub fn new(name: &str, title: &str, x_label: &str, y_label: &str) -> Self {
        Figure {
            name: name.into(),
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            x_log: false,
            y_log: false,
            series: vec![],
            caption: String::new(),
            kind: FigureKind::Plot,
        }
    }
    /// Draws a heat map under the series.
    pub fn heat(mut self, heat: HeatMap) -> Self {
        self.kind = FigureKind::HeatMap(heat);
        self
    }
    /// Shows a table instead of a plot.
    pub fn table(mut self, table: Table) -> Self {
        self.kind = FigureKind::Table(table);
        self
    }
    /// The heat map under the series, if any.
    pub fn heat_map(&self) -> Option<&HeatMap> {
        match &self.kind {
            FigureKind::HeatMap(h) => Some(h),
            _ => None,
        }
    }
    /// Adds a series.
    pub fn with(mut self, s: Series) -> Self {
        self.series.push(s);
        self
    }
    /// Sets the caption.
    pub fn caption(mut self, c: impl Into<String>) -> Self {
        self.caption = c.into();
        self
    }
    /// Uses a logarithmic x axis.
    pub fn log_x(mut self) -> Self {
        self.x_log = true;
        self
    }
    /// Uses a logarithmic y axis.
    pub fn log_y(mut self) -> Self {
        self.y_log = true;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_heat_map_cells_survive_the_json_round_trip() {
        let h = HeatMap { x: vec![0.0, 1.0], y: vec![0.0], values: vec![vec![0.5, f64::NAN]], label: "v".into(), range: None };
        let back: HeatMap = serde_json::from_str(&serde_json::to_string(&h).unwrap()).unwrap();
        assert_eq!(back.values[0][0], 0.5);
        assert!(back.values[0][1].is_nan());
    }
}
