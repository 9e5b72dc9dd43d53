//! SVG charts drawn with `plotters` (SVG backend, no font or bitmap dependencies).
//!
//! Two chart kinds cover the benchmark plots: a grouped bar chart (categories × series,
//! optional min..max error bars) and a line chart (numeric x, several series with
//! markers and optional error bars). The experiments fill these plain data structs and
//! call `render`, so they do not depend on the plotting crate's API.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const PALETTE: [RGBColor; 12] = [
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
    RGBColor(0x39, 0x3b, 0x79),
    RGBColor(0xff, 0xbb, 0x78),
];
const SIZE: (u32, u32) = (960, 540);
/// Room right of the plot for the legend.
const LEGEND_W: u32 = 210;
const FONT: &str = "sans-serif";

/// One bar: its value and an optional `(low, high)` error range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    /// Bar height.
    pub value: f64,
    /// Error bar range, e.g. min..max over repetitions.
    pub range: Option<(f64, f64)>,
}

impl From<crate::stats::Summary> for Bar {
    /// The median, with the min..max range of the repetitions as error bar.
    fn from(s: crate::stats::Summary) -> Bar {
        Bar {
            value: s.median,
            range: Some((s.min, s.max)),
        }
    }
}

/// A series of a grouped bar chart: one optional bar per category.
#[derive(Clone, Debug)]
pub struct BarSeries {
    pub name: String,
    /// One entry per category; `None` leaves a gap.
    pub bars: Vec<Option<Bar>>,
}

impl BarSeries {
    /// A series named `name` with `bars`, one per category.
    pub fn new(name: impl Into<String>, bars: impl IntoIterator<Item = Option<Bar>>) -> BarSeries {
        BarSeries {
            name: name.into(),
            bars: bars.into_iter().collect(),
        }
    }
}

/// Grouped bar chart: each category is a group with one bar per series.
#[derive(Clone, Debug, Default)]
pub struct BarChart {
    pub title: String,
    pub y_label: String,
    /// X axis label (under the category names).
    pub x_label: String,
    /// Group names along the x axis.
    pub categories: Vec<String>,
    /// The series, drawn in this order within each group.
    pub series: Vec<BarSeries>,
}

/// One point of a line series with an optional `(low, high)` y error range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    /// Error bar range on y.
    pub range: Option<(f64, f64)>,
}

/// A series of a line chart.
#[derive(Clone, Debug)]
pub struct LineSeries {
    pub name: String,
    /// Points, drawn in x order.
    pub points: Vec<Point>,
}

/// Line chart with numeric x and y axes (both starting at 0).
#[derive(Clone, Debug, Default)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<LineSeries>,
}

/// Compact tick label: SI suffix for large values, trimmed decimals otherwise.
fn tick_label(v: f64) -> String {
    let (x, suffix) = crate::table::si_parts(v);
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}{suffix}")
}

/// Top of an axis that starts at 0 and shows `max` with some headroom.
fn axis_top(max: f64, headroom: f64) -> f64 {
    if max.is_finite() && max > 0.0 {
        max * headroom
    } else {
        1.0
    }
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Renders `draw` into an SVG string; drawing errors become an SVG that says so.
fn svg_string(draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<()>) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        let done = root
            .fill(&WHITE)
            .map_err(Into::into)
            .and_then(|()| draw(&root))
            .and_then(|()| root.present().map_err(Into::into));
        if let Err(e) = done {
            let _ = root.draw(&Text::new(
                format!("chart failed: {e}"),
                (20, 20),
                (FONT, 16),
            ));
            let _ = root.present();
        }
    }
    out
}

fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

impl BarChart {
    /// Renders the chart as an SVG document.
    pub fn render(&self) -> String {
        svg_string(|root| self.draw(root))
    }

    fn draw(&self, root: &DrawingArea<SVGBackend, Shift>) -> Result<()> {
        let max = self
            .series
            .iter()
            .flat_map(|s| s.bars.iter().flatten())
            .map(|b| b.range.map_or(b.value, |(_, hi)| hi.max(b.value)))
            .fold(0.0, f64::max);
        let ncat = self.categories.len().max(1) as f64;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 18))
            .margin(15)
            .margin_right(LEGEND_W)
            .x_label_area_size(55)
            .y_label_area_size(75)
            .build_cartesian_2d(0.0..ncat, 0.0..axis_top(max, 1.1))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_labels(0)
            .y_desc(&self.y_label)
            .x_desc(&self.x_label)
            .y_label_formatter(&|v| tick_label(*v))
            .draw()?;
        let nser = self.series.len().max(1) as f64;
        let bar_w = 0.8 / nser;
        for (si, s) in self.series.iter().enumerate() {
            let c = color(si);
            let bars: Vec<(f64, Bar)> = s
                .bars
                .iter()
                .enumerate()
                .filter_map(|(ci, b)| b.map(|b| (ci as f64 + 0.1 + si as f64 * bar_w, b)))
                .collect();
            chart
                .draw_series(bars.iter().map(|&(x, b)| {
                    Rectangle::new([(x, 0.0), (x + bar_w * 0.94, b.value.max(0.0))], c.filled())
                }))?
                .label(&s.name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 18, y + 6)], c.filled()));
            chart.draw_series(bars.iter().filter_map(|&(x, b)| {
                let (lo, hi) = b.range?;
                let mid = x + bar_w * 0.47;
                Some(ErrorBar::new_vertical(
                    mid,
                    lo,
                    b.value,
                    hi,
                    BLACK.stroke_width(1),
                    8,
                ))
            }))?;
            // Value labels only where a bar is wide enough to carry one.
            let px = |x: f64| chart.backend_coord(&(x, 0.0)).0;
            if px(bar_w) - px(0.0) < 30 {
                continue;
            }
            let above = TextStyle::from((FONT, 11)).pos(Pos::new(HPos::Center, VPos::Bottom));
            chart.draw_series(bars.iter().map(|&(x, b)| {
                let top = b.range.map_or(b.value, |(_, hi)| hi.max(b.value));
                Text::new(tick_label(b.value), (x + bar_w * 0.47, top), above.clone())
            }))?;
        }
        for (ci, cat) in self.categories.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(ci as f64 + 0.5, 0.0));
            let style =
                TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
            root.draw(&Text::new(cat.as_str(), (px, py + 8), style))?;
        }
        legend(&mut chart)
    }
}

fn legend<'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
) -> Result<()> {
    let right_of_plot = chart.plotting_area().dim_in_pixel().0 as i32 + 10;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::Coordinate(right_of_plot, 0))
        .label_font((FONT, 13))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

impl LineChart {
    /// Renders the chart as an SVG document.
    pub fn render(&self) -> String {
        svg_string(|root| self.draw(root))
    }

    fn draw(&self, root: &DrawingArea<SVGBackend, Shift>) -> Result<()> {
        let pts = || self.series.iter().flat_map(|s| s.points.iter());
        let y_top = pts()
            .map(|p| p.range.map_or(p.y, |(_, hi)| hi.max(p.y)))
            .fold(0.0, f64::max);
        let x_top = pts().map(|p| p.x).fold(0.0, f64::max);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 18))
            .margin(15)
            .margin_right(LEGEND_W)
            .x_label_area_size(45)
            .y_label_area_size(75)
            .build_cartesian_2d(0.0..axis_top(x_top, 1.05), 0.0..axis_top(y_top, 1.08))?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_label_formatter(&|v| tick_label(*v))
            .y_label_formatter(&|v| tick_label(*v))
            .draw()?;
        for (si, s) in self.series.iter().enumerate() {
            let c = color(si);
            let mut p = s.points.clone();
            p.sort_by(|a, b| a.x.total_cmp(&b.x));
            chart
                .draw_series(
                    plotters::series::LineSeries::new(
                        p.iter().map(|q| (q.x, q.y)),
                        c.stroke_width(2),
                    )
                    .point_size(4),
                )?
                .label(&s.name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
            chart.draw_series(p.iter().filter_map(|q| {
                let (lo, hi) = q.range?;
                Some(ErrorBar::new_vertical(
                    q.x,
                    lo,
                    q.y,
                    hi,
                    c.stroke_width(1),
                    8,
                ))
            }))?;
        }
        legend(&mut chart)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that every element opened is closed in order (no attribute parsing needed
    /// beyond skipping quoted values).
    fn well_formed(svg: &str) -> bool {
        let mut stack: Vec<String> = Vec::new();
        let mut rest = svg;
        while let Some(i) = rest.find('<') {
            rest = &rest[i + 1..];
            let Some(end) = rest.find('>') else {
                return false;
            };
            let tag = &rest[..end];
            rest = &rest[end + 1..];
            if tag.starts_with('?') || tag.starts_with('!') {
                continue;
            }
            if let Some(name) = tag.strip_prefix('/') {
                if stack.pop().as_deref() != Some(name.trim()) {
                    return false;
                }
            } else if !tag.ends_with('/') {
                let name = tag.split_whitespace().next().unwrap_or("");
                stack.push(name.to_string());
            }
        }
        stack.is_empty() && svg.contains("<svg") && svg.trim_end().ends_with("</svg>")
    }

    /// Whether `text` is the content of a `<text>` element (plotters puts it on its own line).
    fn has_text(svg: &str, text: &str) -> bool {
        svg.contains(&format!(">\n{text}\n<"))
    }

    #[test]
    fn bar_chart_is_well_formed_and_named() {
        let bar = |v: f64| {
            Some(Bar {
                value: v,
                range: Some((v * 0.9, v * 1.1)),
            })
        };
        let chart = BarChart {
            title: "ops <&> \"test\"".into(),
            y_label: "ops/s".into(),
            x_label: "flavour".into(),
            categories: vec!["LIFO".into(), "FIFO".into()],
            series: vec![
                BarSeries {
                    name: "magpie".into(),
                    bars: vec![bar(4e8), bar(3e8)],
                },
                BarSeries {
                    name: "crossbeam-deque".into(),
                    bars: vec![bar(5e7), None],
                },
            ],
        };
        let svg = chart.render();
        assert!(well_formed(&svg), "{svg}");
        assert!(has_text(&svg, "magpie") && has_text(&svg, "crossbeam-deque"));
        assert!(has_text(&svg, "LIFO") && svg.contains("<rect"));
        assert!(svg.contains("&lt;&amp;&gt;"), "{svg}");
    }

    #[test]
    fn line_chart_is_well_formed_and_named() {
        let chart = LineChart {
            title: "owner vs stolen".into(),
            x_label: "stolen %".into(),
            y_label: "owner ops/s".into(),
            series: vec![LineSeries {
                name: "st3".into(),
                points: vec![
                    Point {
                        x: 10.0,
                        y: 2e8,
                        range: Some((1.5e8, 2.5e8)),
                    },
                    Point {
                        x: 0.0,
                        y: 3e8,
                        range: None,
                    },
                ],
            }],
        };
        let svg = chart.render();
        assert!(well_formed(&svg), "{svg}");
        assert!(has_text(&svg, "st3"));
        assert!(svg.contains("<polyline"));
    }

    #[test]
    fn empty_charts_render() {
        assert!(well_formed(&BarChart::default().render()));
        assert!(well_formed(&LineChart::default().render()));
    }

    #[test]
    fn tick_labels_are_compact() {
        assert_eq!(tick_label(2.5e8), "250M");
        assert_eq!(tick_label(0.5), "0.5");
    }
}
