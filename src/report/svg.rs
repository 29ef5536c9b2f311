//! Figures → SVG with plotters. Draws what the results hold; computes nothing but axis ranges.

use crate::claim::{Figure, Style};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const PALETTE: [RGBColor; 6] =
    [RGBColor(31, 119, 180), RGBColor(214, 39, 40), RGBColor(44, 160, 44), RGBColor(148, 103, 189), RGBColor(255, 127, 14), RGBColor(23, 190, 207)];

fn range(values: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (if log { 1.0 } else { 0.0 }, if log { 10.0 } else { 1.0 });
    }
    if log {
        // 5% of the decades spanned on each side, so no point sits on the frame.
        let hi = if hi > lo { hi } else { lo * 10.0 };
        let pad = (hi / lo).powf(0.05);
        return (lo / pad, hi * pad);
    }
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 0.5 * lo.abs().max(1.0) };
    (lo - pad, hi + pad)
}

/// The legend, one row per series, in its own strip below the plot (it never covers data).
fn draw_legend<DB: DrawingBackend>(area: &DrawingArea<DB, plotters::coord::Shift>, fig: &Figure) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    for (i, s) in fig.series.iter().enumerate() {
        let color = PALETTE[s.color.unwrap_or(i) % PALETTE.len()];
        let y = 12 + 20 * i as i32;
        match s.style {
            Style::Points => area.draw(&Circle::new((100, y), 3, color.filled()))?,
            Style::Crosses => area.draw(&Cross::new((100, y), 4, color.stroke_width(2)))?,
            Style::Line => area.draw(&PathElement::new(vec![(88, y), (112, y)], color.stroke_width(2)))?,
            Style::Dashed => {
                area.draw(&PathElement::new(vec![(88, y), (96, y)], color.stroke_width(2)))?;
                area.draw(&PathElement::new(vec![(104, y), (112, y)], color.stroke_width(2)))?
            }
        }
        area.draw(&Text::new(s.label.clone(), (122, y - 7), ("sans-serif", 13).into_font().color(&BLACK)))?;
    }
    Ok(())
}

/// The labelled ticks of a logarithmic axis over [lo, hi] (0 < lo < hi): the 1-2-5 values of every
/// decade that fall inside when there are at least five of them, thinned to the powers of ten when
/// there are more than ten (and to every k-th power when those are too); over a decade or two,
/// where 1-2-5 leaves a data point at the range's ends unlabelled (the copy experiments' N_max of 4
/// and 8 below a first label of 5), the values 1, 2, 3, 4, 5, 6 and 8 of each decade; and when
/// even those are fewer than three (a range within a decade), evenly spaced round values. So
/// labels run over the whole range, whatever it spans. plotters' own log axis labels only the
/// powers of ten inside the range, none at all when the range spans less than a decade.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (first, last) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let inside = |v: &f64| *v >= lo && *v <= hi;
    let of_each_decade =
        |mantissas: &[f64]| -> Vec<f64> { (first..=last).flat_map(|e| mantissas.iter().map(move |m| m * 10f64.powi(e))).filter(inside).collect() };
    let nice = of_each_decade(&[1.0, 2.0, 5.0]);
    if nice.len() > 10 {
        let powers: Vec<f64> = (first..=last).map(|e| 10f64.powi(e)).filter(inside).collect();
        let every = powers.len().div_ceil(10);
        return powers.into_iter().step_by(every).collect();
    }
    if nice.len() >= 5 {
        return nice;
    }
    let dense = of_each_decade(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0]);
    if dense.len() >= 3 {
        return dense;
    }
    // Round steps: 1, 2 or 5 times a power of ten, about five of them over the range.
    let raw = (hi - lo) / 5.0;
    let unit = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * unit).find(|s| *s >= raw).unwrap_or(10.0 * unit);
    let start = (lo / step).ceil() as i64;
    (start..).map(|k| k as f64 * step).take_while(|v| *v <= hi).filter(|v| *v >= lo).collect()
}

/// A tick label: integers without a decimal point ("10", not "10.0"), other values with at most
/// four significant decimals and no trailing zeros, very small or large ones in exponent form.
pub fn tick_label(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    if v == v.round() && v.abs() < 1e15 {
        return format!("{}", v as i64);
    }
    if v.abs() < 1e-3 || v.abs() >= 1e6 {
        return format!("{v:.1e}");
    }
    let s = format!("{v:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Cell edges around increasing centres: half-way to each neighbour.
fn edges(c: &[f64]) -> Vec<f64> {
    let n = c.len();
    if n == 0 {
        return vec![];
    }
    if n == 1 {
        return vec![c[0] - 0.5, c[0] + 0.5];
    }
    let mut e = vec![c[0] - 0.5 * (c[1] - c[0])];
    e.extend(c.windows(2).map(|w| 0.5 * (w[0] + w[1])));
    e.push(c[n - 1] + 0.5 * (c[n - 1] - c[n - 2]));
    e
}

/// The shade of `v` on [lo, hi]: near-white to the palette's blue; when the range straddles 0,
/// a diverging scale (red below 0, white at 0, blue above). Returns the colour and its darkness.
fn shade(v: f64, lo: f64, hi: f64) -> (RGBColor, f64) {
    let towards = |t: f64, to: (u8, u8, u8)| {
        let t = t.clamp(0.0, 1.0);
        let lerp = |a: u8, b: u8| (a as f64 + t * (b as f64 - a as f64)).round() as u8;
        (RGBColor(lerp(250, to.0), lerp(247, to.1), lerp(242, to.2)), t)
    };
    if lo < 0.0 && hi > 0.0 {
        if v >= 0.0 {
            towards(v / hi, (31, 119, 180))
        } else {
            towards(v / lo, (214, 39, 40))
        }
    } else {
        towards((v - lo) / (hi - lo), (31, 119, 180))
    }
}

/// Renders a figure as an SVG document.
pub fn render(fig: &Figure) -> Result<String, String> {
    let mut out = String::new();
    {
        let legend_height = 10 + 20 * fig.series.len() as u32;
        let root = SVGBackend::with_string(&mut out, (760, 440 + legend_height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (plot_area, legend_area) = root.split_vertically(440);
        draw_legend(&legend_area, fig).map_err(|e| e.to_string())?;
        let pts = || fig.series.iter().flat_map(|s| s.points.iter());
        let (xe, ye) = fig.heat_map().map_or((vec![], vec![]), |h| (edges(&h.x), edges(&h.y)));
        let (x0, x1) = range(pts().map(|p| p[0]).chain(xe.iter().copied()), fig.x_log);
        let (y0, y1) = range(pts().map(|p| p[1]).chain(ye.iter().copied()), fig.y_log);
        let mut builder = ChartBuilder::on(&plot_area);
        builder.caption(&fig.title, ("sans-serif", 18)).margin(12).margin_right(28).x_label_area_size(40).y_label_area_size(70);
        macro_rules! draw {
            ($chart:expr) => {{
                let mut chart = $chart;
                chart
                    .configure_mesh()
                    .x_desc(fig.x_label.as_str())
                    .y_desc(fig.y_label.as_str())
                    .x_label_formatter(&|v| tick_label(*v))
                    .y_label_formatter(&|v| tick_label(*v))
                    // A heat map gets one label per cell, at its centre (drawn below).
                    .x_labels(if fig.heat_map().is_some() { 0 } else { 10 })
                    .y_labels(if fig.heat_map().is_some() { 0 } else { 10 })
                    .light_line_style(RGBColor(235, 235, 235))
                    .draw()
                    .map_err(|e| e.to_string())?;
                if let Some(h) = fig.heat_map() {
                    let font = ("sans-serif", 12).into_font().color(&BLACK);
                    for &x in &h.x {
                        let (px, py) = chart.backend_coord(&(x, y0));
                        root.draw(&PathElement::new(vec![(px, py), (px, py + 5)], BLACK.stroke_width(1))).map_err(|e| e.to_string())?;
                        root.draw(&Text::new(tick_label(x), (px, py + 8), font.clone().pos(Pos::new(HPos::Center, VPos::Top)))).map_err(|e| e.to_string())?;
                    }
                    for &y in &h.y {
                        let (px, py) = chart.backend_coord(&(x0, y));
                        root.draw(&PathElement::new(vec![(px - 5, py), (px, py)], BLACK.stroke_width(1))).map_err(|e| e.to_string())?;
                        root.draw(&Text::new(tick_label(y), (px - 8, py), font.clone().pos(Pos::new(HPos::Right, VPos::Center)))).map_err(|e| e.to_string())?;
                    }
                    for (j, row) in h.values.iter().enumerate() {
                        for (i, &v) in row.iter().enumerate().filter(|(_, v)| v.is_finite()) {
                            let (a, b) = ((xe[i], ye[j]), (xe[i + 1], ye[j + 1]));
                            let [lo, hi] = h.range.unwrap_or([0.0, 1.0]);
                            let (color, t) = shade(v, lo, hi);
                            chart.draw_series(std::iter::once(Rectangle::new([a, b], color.filled()))).map_err(|e| e.to_string())?;
                            let text = if h.range.is_none() && v >= 0.995 { "1".to_string() } else { format!("{v:.2}") };
                            let ink = if t > 0.6 { WHITE } else { BLACK };
                            chart
                                .draw_series(std::iter::once(Text::new(
                                    text,
                                    (h.x[i], h.y[j]),
                                    ("sans-serif", 11).into_font().color(&ink).pos(Pos::new(HPos::Center, VPos::Center)),
                                )))
                                .map_err(|e| e.to_string())?;
                        }
                    }
                }
                for (i, s) in fig.series.iter().enumerate() {
                    let color = PALETTE[s.color.unwrap_or(i) % PALETTE.len()];
                    let data: Vec<(f64, f64)> = s
                        .points
                        .iter()
                        .filter(|p| p[0].is_finite() && p[1].is_finite() && (!fig.x_log || p[0] > 0.0) && (!fig.y_log || p[1] > 0.0))
                        .map(|p| (p[0], p[1]))
                        .collect();
                    match s.style {
                        Style::Line => chart.draw_series(LineSeries::new(data, color.stroke_width(2))),
                        Style::Dashed => chart.draw_series(DashedLineSeries::new(data, 6, 4, color.stroke_width(2))),
                        Style::Points => chart.draw_series(data.into_iter().map(|p| Circle::new(p, 3, color.filled()))),
                        Style::Crosses => chart.draw_series(data.into_iter().map(|p| Cross::new(p, 4, color.stroke_width(2)))),
                    }
                    .map_err(|e| e.to_string())?;
                }
            }};
        }
        let (log_x, log_y) = (|| (x0..x1).log_scale().with_key_points(log_ticks(x0, x1)), || (y0..y1).log_scale().with_key_points(log_ticks(y0, y1)));
        match (fig.x_log, fig.y_log) {
            (true, true) => draw!(builder.build_cartesian_2d(log_x(), log_y()).map_err(|e| e.to_string())?),
            (true, false) => draw!(builder.build_cartesian_2d(log_x(), y0..y1).map_err(|e| e.to_string())?),
            (false, true) => draw!(builder.build_cartesian_2d(x0..x1, log_y()).map_err(|e| e.to_string())?),
            (false, false) => draw!(builder.build_cartesian_2d(x0..x1, y0..y1).map_err(|e| e.to_string())?),
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::Series;

    #[test]
    fn tick_labels_drop_the_trailing_zero() {
        assert_eq!(tick_label(10.0), "10");
        assert_eq!(tick_label(-3.0), "-3");
        assert_eq!(tick_label(0.25), "0.25");
        assert_eq!(tick_label(1.0 / 3.0), "0.3333");
        assert_eq!(tick_label(2.5e-5), "2.5e-5");
    }

    /// Labels run over the whole range of a log axis: 1-2-5 over a few decades, powers of ten
    /// over many, 1, 2, 3, 4, 5, 6, 8 over one or two, round steps within less; every tick
    /// inside the range.
    #[test]
    fn log_axis_ticks_cover_the_range() {
        assert_eq!(log_ticks(3.0, 120.0), [5.0, 10.0, 20.0, 50.0, 100.0]);
        assert_eq!(log_ticks(0.5, 2e12).len(), 7);
        assert_eq!(log_ticks(0.5, 2e12)[0], 1.0);
        // Within a decade (N_max of 4 and 8): 1-2-5 would label only 5; 1, 2, 3, 4, 5, 6, 8.
        assert_eq!(log_ticks(3.6, 9.4), [4.0, 5.0, 6.0, 8.0]);
        // 003.fig2.trained's axis: its N_max of 4 and 8 beside the paper's 10, 20 and 30.
        assert_eq!(log_ticks(3.6, 33.0), [4.0, 5.0, 6.0, 8.0, 10.0, 20.0, 30.0]);
        // Within less than a decade's step: round steps, not nothing.
        assert_eq!(log_ticks(17.0, 31.0), [20.0, 25.0, 30.0]);
        for (lo, hi) in [(3.6, 9.4), (1e-7, 3e-6), (17.0, 31.0), (0.9, 1.1)] {
            let t = log_ticks(lo, hi);
            assert!(t.len() >= 2 && t.iter().all(|v| (lo..=hi).contains(v)), "{lo}..{hi}: {t:?}");
        }
    }

    #[test]
    fn renders_lines_points_and_log_axes() {
        let fig = Figure::new("t", "Title λ₁", "k", "ln ‖LRD‖")
            .with(Series::new("a", Style::Line, vec![[1.0, 0.0], [10.0, -1.0], [100.0, -2.0]]))
            .with(Series::new("b", Style::Dashed, vec![[1.0, 0.5], [100.0, -1.5]]))
            .with(Series::new("c", Style::Points, vec![[2.0, -0.2]]))
            .log_x();
        let svg = render(&fig).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("Title λ₁") && svg.contains("<circle"));
    }

    #[test]
    fn a_log_y_axis_spans_decades_and_leaves_out_non_positive_points() {
        let fig = Figure::new("t", "T", "x", "y")
            .with(Series::new("random", Style::Points, vec![[1.0, 160.0], [2.0, 40.0]]))
            .with(Series::new("optimum", Style::Crosses, vec![[1.0, 0.01], [2.0, 0.0]]))
            .log_y();
        let svg = render(&fig).unwrap();
        // Tick labels of several decades (1, 10, 100 at least) between 0.01 and 160.
        let texts: Vec<&str> = svg.split("</text>").filter_map(|t| t.rsplit('>').next()).map(str::trim).collect();
        assert!(["0.01", "1", "10", "100"].iter().all(|t| texts.contains(t)), "{texts:?}");
        // Dots are circles (the two random points and the legend's); crosses are not.
        assert_eq!(svg.matches("<circle").count(), 3);
    }
}
