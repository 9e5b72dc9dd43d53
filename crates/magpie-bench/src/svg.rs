//! A small dependency-free SVG chart writer.
//!
//! Two chart kinds cover the benchmark plots: a grouped bar chart (categories × series,
//! optional min..max error bars) and a line chart (numeric x, several series with
//! markers and optional error bars). Both have a title, axis labels, tick labels and a
//! legend. The output is plain SVG 1.1 that browsers and `rsvg-convert` render.

use std::fmt::Write as _;

const PALETTE: [&str; 8] = [
    "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
];
const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 540.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 230.0;
const TOP: f64 = 60.0;
const BOTTOM: f64 = 70.0;

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
    /// Legend name.
    pub name: String,
    /// One entry per category; `None` leaves a gap.
    pub bars: Vec<Option<Bar>>,
}

/// Grouped bar chart: each category is a group with one bar per series.
#[derive(Clone, Debug, Default)]
pub struct BarChart {
    /// Title at the top.
    pub title: String,
    /// Y axis label.
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
    /// X value.
    pub x: f64,
    /// Y value.
    pub y: f64,
    /// Error bar range on y.
    pub range: Option<(f64, f64)>,
}

/// A series of a line chart.
#[derive(Clone, Debug)]
pub struct LineSeries {
    /// Legend name.
    pub name: String,
    /// Points, drawn in x order.
    pub points: Vec<Point>,
}

/// Line chart with numeric x and y axes (both starting at 0).
#[derive(Clone, Debug, Default)]
pub struct LineChart {
    /// Title at the top.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// The series.
    pub series: Vec<LineSeries>,
}

/// Escapes text for use in SVG content and attribute values.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Compact tick label: SI suffix for large values, trimmed decimals otherwise.
fn tick_label(v: f64) -> String {
    let (x, suffix) = if v.abs() >= 1e9 {
        (v / 1e9, "G")
    } else if v.abs() >= 1e6 {
        (v / 1e6, "M")
    } else if v.abs() >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}{suffix}")
}

/// Ticks `0, step, 2·step, …` covering `[0, max]` with a "nice" step (1, 2, 2.5, 5 × 10^k).
fn nice_ticks(max: f64) -> Vec<f64> {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let raw = max / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let n = (max / step).ceil() as usize;
    (0..=n).map(|i| i as f64 * step).collect()
}

struct Frame {
    out: String,
    plot_w: f64,
    plot_h: f64,
}

impl Frame {
    fn new(title: &str) -> Frame {
        let mut out = String::new();
        let _ = write!(
            out,
            r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>
<text x="{}" y="32" font-size="18" font-weight="bold" text-anchor="middle">{}</text>
"#,
            LEFT + (WIDTH - LEFT - RIGHT) / 2.0,
            escape(title)
        );
        Frame {
            out,
            plot_w: WIDTH - LEFT - RIGHT,
            plot_h: HEIGHT - TOP - BOTTOM,
        }
    }

    fn y_px(&self, v: f64, y_max: f64) -> f64 {
        TOP + self.plot_h * (1.0 - v / y_max)
    }

    /// Horizontal grid, y tick labels, y label and the axis lines.
    fn y_axis(&mut self, ticks: &[f64], y_label: &str) {
        let y_max = *ticks.last().unwrap_or(&1.0);
        for &t in ticks {
            let y = self.y_px(t, y_max);
            let _ = writeln!(
                self.out,
                r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e0e0e0"/><text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end">{}</text>"##,
                LEFT + self.plot_w,
                LEFT - 8.0,
                y + 4.0,
                escape(&tick_label(t))
            );
        }
        let cy = TOP + self.plot_h / 2.0;
        let _ = writeln!(
            self.out,
            r#"<text x="22" y="{cy:.1}" font-size="14" text-anchor="middle" transform="rotate(-90 22 {cy:.1})">{}</text>"#,
            escape(y_label)
        );
        let _ = writeln!(
            self.out,
            r##"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{:.1}" stroke="#333"/><line x1="{LEFT}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#333"/>"##,
            TOP + self.plot_h,
            TOP + self.plot_h,
            LEFT + self.plot_w,
            TOP + self.plot_h
        );
    }

    fn x_label(&mut self, label: &str) {
        let _ = writeln!(
            self.out,
            r#"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle">{}</text>"#,
            LEFT + self.plot_w / 2.0,
            HEIGHT - 18.0,
            escape(label)
        );
    }

    fn legend(&mut self, names: &[&str], markers: bool) {
        let x = LEFT + self.plot_w + 20.0;
        for (i, name) in names.iter().enumerate() {
            let y = TOP + 10.0 + i as f64 * 24.0;
            let c = PALETTE[i % PALETTE.len()];
            if markers {
                let _ = writeln!(
                    self.out,
                    r#"<line x1="{x:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{c}" stroke-width="2"/>{}"#,
                    x + 24.0,
                    marker(i, x + 12.0, y, c)
                );
            } else {
                let _ = writeln!(
                    self.out,
                    r#"<rect x="{x:.1}" y="{:.1}" width="24" height="14" fill="{c}"/>"#,
                    y - 7.0
                );
            }
            let _ = writeln!(
                self.out,
                r#"<text x="{:.1}" y="{:.1}" font-size="13">{}</text>"#,
                x + 32.0,
                y + 4.5,
                escape(name)
            );
        }
    }

    fn error_bar(&mut self, x: f64, y_lo: f64, y_hi: f64, half: f64, color: &str) {
        let _ = writeln!(
            self.out,
            r##"<path d="M{:.1},{y_lo:.1}H{:.1}M{x:.1},{y_lo:.1}V{y_hi:.1}M{:.1},{y_hi:.1}H{:.1}" stroke="{color}" stroke-width="1.2" fill="none"/>"##,
            x - half,
            x + half,
            x - half,
            x + half
        );
    }

    fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// A distinct marker shape per series index (circle, square, triangle, diamond).
fn marker(i: usize, x: f64, y: f64, color: &str) -> String {
    let r = 4.5;
    match i % 4 {
        0 => format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r}" fill="{color}"/>"#),
        1 => format!(
            r#"<rect x="{:.1}" y="{:.1}" width="{}" height="{}" fill="{color}"/>"#,
            x - r,
            y - r,
            2.0 * r,
            2.0 * r
        ),
        2 => format!(
            r#"<path d="M{x:.1},{:.1}L{:.1},{:.1}L{:.1},{:.1}Z" fill="{color}"/>"#,
            y - r - 1.0,
            x + r + 1.0,
            y + r,
            x - r - 1.0,
            y + r
        ),
        _ => format!(
            r#"<path d="M{x:.1},{:.1}L{:.1},{y:.1}L{x:.1},{:.1}L{:.1},{y:.1}Z" fill="{color}"/>"#,
            y - r - 1.0,
            x + r + 1.0,
            y + r + 1.0,
            x - r - 1.0
        ),
    }
}

impl BarChart {
    /// Renders the chart as an SVG document.
    pub fn render(&self) -> String {
        let mut f = Frame::new(&self.title);
        let max = self
            .series
            .iter()
            .flat_map(|s| s.bars.iter().flatten())
            .map(|b| b.range.map_or(b.value, |(_, hi)| hi.max(b.value)))
            .fold(0.0, f64::max);
        let ticks = nice_ticks(max * 1.08);
        let y_max = *ticks.last().unwrap_or(&1.0);
        f.y_axis(&ticks, &self.y_label);
        let ncat = self.categories.len().max(1) as f64;
        let nser = self.series.len().max(1) as f64;
        let group_w = f.plot_w / ncat;
        let bar_w = group_w * 0.8 / nser;
        let base = TOP + f.plot_h;
        for (ci, cat) in self.categories.iter().enumerate() {
            let gx = LEFT + ci as f64 * group_w + group_w * 0.1;
            for (si, s) in self.series.iter().enumerate() {
                let Some(Some(b)) = s.bars.get(ci) else {
                    continue;
                };
                let x = gx + si as f64 * bar_w;
                let y = f.y_px(b.value.max(0.0), y_max);
                let _ = writeln!(
                    f.out,
                    r#"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {}</title></rect>"#,
                    x + 1.0,
                    bar_w - 2.0,
                    base - y,
                    PALETTE[si % PALETTE.len()],
                    escape(&s.name),
                    escape(&tick_label(b.value))
                );
                let cx = x + bar_w / 2.0;
                let mut label_y = y;
                if let Some((lo, hi)) = b.range {
                    let (ylo, yhi) = (f.y_px(lo, y_max), f.y_px(hi, y_max));
                    f.error_bar(cx, ylo, yhi, (bar_w / 5.0).min(6.0), "#222");
                    label_y = label_y.min(yhi);
                }
                let _ = writeln!(
                    f.out,
                    r#"<text x="{cx:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}</text>"#,
                    label_y - 5.0,
                    escape(&tick_label(b.value))
                );
            }
            let _ = writeln!(
                f.out,
                r#"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle">{}</text>"#,
                LEFT + (ci as f64 + 0.5) * group_w,
                base + 22.0,
                escape(cat)
            );
        }
        f.x_label(&self.x_label);
        let names: Vec<&str> = self.series.iter().map(|s| s.name.as_str()).collect();
        f.legend(&names, false);
        f.finish()
    }
}

impl LineChart {
    /// Renders the chart as an SVG document.
    pub fn render(&self) -> String {
        let mut f = Frame::new(&self.title);
        let pts = || self.series.iter().flat_map(|s| s.points.iter());
        let y_top = pts()
            .map(|p| p.range.map_or(p.y, |(_, hi)| hi.max(p.y)))
            .fold(0.0, f64::max);
        let x_top = pts().map(|p| p.x).fold(0.0, f64::max);
        let yt = nice_ticks(y_top * 1.05);
        let xt = nice_ticks(x_top * 1.02);
        let (y_max, x_max) = (*yt.last().unwrap_or(&1.0), *xt.last().unwrap_or(&1.0));
        f.y_axis(&yt, &self.y_label);
        let base = TOP + f.plot_h;
        let plot_w = f.plot_w;
        let x_px = |x: f64| LEFT + plot_w * x / x_max;
        for &t in &xt {
            let x = x_px(t);
            let _ = writeln!(
                f.out,
                r##"<line x1="{x:.1}" y1="{base:.1}" x2="{x:.1}" y2="{:.1}" stroke="#333"/><text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}</text>"##,
                base + 5.0,
                base + 20.0,
                escape(&tick_label(t))
            );
        }
        for (si, s) in self.series.iter().enumerate() {
            let c = PALETTE[si % PALETTE.len()];
            let mut p = s.points.clone();
            p.sort_by(|a, b| a.x.total_cmp(&b.x));
            let path: Vec<String> = p
                .iter()
                .map(|q| format!("{:.1},{:.1}", x_px(q.x), f.y_px(q.y, y_max)))
                .collect();
            if !path.is_empty() {
                let _ = writeln!(
                    f.out,
                    r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"><title>{}</title></polyline>"#,
                    path.join(" "),
                    escape(&s.name)
                );
            }
            for q in &p {
                let (x, y) = (x_px(q.x), f.y_px(q.y, y_max));
                if let Some((lo, hi)) = q.range {
                    f.error_bar(x, f.y_px(lo, y_max), f.y_px(hi, y_max), 4.0, c);
                }
                f.out.push_str(&marker(si, x, y, c));
                f.out.push('\n');
            }
        }
        f.x_label(&self.x_label);
        let names: Vec<&str> = self.series.iter().map(|s| s.name.as_str()).collect();
        f.legend(&names, true);
        f.finish()
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
        assert!(svg.contains(">magpie<") && svg.contains(">crossbeam-deque<"));
        assert!(svg.contains("&lt;&amp;&gt;"));
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
        assert!(svg.contains(">st3<"));
        assert!(svg.contains("<polyline"));
    }

    #[test]
    fn empty_charts_render() {
        assert!(well_formed(&BarChart::default().render()));
        assert!(well_formed(&LineChart::default().render()));
    }

    #[test]
    fn ticks_are_nice() {
        assert_eq!(nice_ticks(10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(tick_label(2.5e8), "250M");
        assert_eq!(tick_label(0.5), "0.5");
    }
}
