//! Property tests of the input readers (DIMACS, the knapsack formats, TSPLIB, UTS
//! parameters): random mutations of the shared instance files and arbitrary text never
//! panic (a reader returns a value or a typed error), and generated instances written
//! out in each format (LF or CRLF) read back to the same instance.
//!
//! About 3,000 mutated inputs per run (`PROPTEST_CASES` overrides the per-test count).

use std::path::Path;

use magpie_search::apps::clique::{parse_dimacs, Graph, MAX_VERTICES};
use magpie_search::apps::knapsack::{parse_knapsack_instances, parse_kp, parse_low_dimensional};
use magpie_search::apps::tsp::{parse_tsplib, MAX_CITIES};
use magpie_search::apps::uts::UtsParams;
use proptest::prelude::*;

fn shared(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One edit of a text: what fuzzers do to a file.
#[derive(Clone, Debug)]
enum Edit {
    /// Deletes `len` bytes at `at` (fractions of the text's length, in 0..1).
    Delete { at: f64, len: usize },
    /// Inserts `text` at `at`.
    Insert { at: f64, text: String },
    /// Repeats the line at `at`.
    DuplicateLine { at: f64 },
    /// Truncates the text at `at`.
    Truncate { at: f64 },
    /// Replaces the whitespace-separated token at `at` by `token`.
    ReplaceToken { at: f64, token: String },
}

/// Tokens a reader must handle: huge, negative, fractional, non-numeric, empty.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("0".to_string()),
        Just("-1".to_string()),
        Just("18446744073709551616".to_string()),
        Just("99999999999999999999999999".to_string()),
        Just("1e9".to_string()),
        Just("0.5".to_string()),
        Just("NaN".to_string()),
        Just("\r".to_string()),
        Just("p edge".to_string()),
        Just("EOF".to_string()),
        Just("DIMENSION:".to_string()),
        any::<u32>().prop_map(|n| n.to_string()),
        "[ -~]{0,12}",
        "\\PC{0,6}",
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = 0.0..1.0f64;
    prop_oneof![
        (at.clone(), 1..40usize).prop_map(|(at, len)| Edit::Delete { at, len }),
        (at.clone(), token()).prop_map(|(at, text)| Edit::Insert { at, text }),
        at.clone().prop_map(|at| Edit::DuplicateLine { at }),
        at.clone().prop_map(|at| Edit::Truncate { at }),
        (at, token()).prop_map(|(at, token)| Edit::ReplaceToken { at, token }),
    ]
}

/// The byte offset nearest `at × len` that is a char boundary.
fn offset(text: &str, at: f64) -> usize {
    let mut i = ((text.len() as f64) * at) as usize;
    while i < text.len() && !text.is_char_boundary(i) {
        i += 1;
    }
    i.min(text.len())
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut s = text.to_string();
    match edit {
        Edit::Delete { at, len } => {
            let start = offset(&s, *at);
            let mut end = (start + len).min(s.len());
            while !s.is_char_boundary(end) {
                end += 1;
            }
            s.replace_range(start..end, "");
        }
        Edit::Insert { at, text } => s.insert_str(offset(&s, *at), text),
        Edit::DuplicateLine { at } => {
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            if !lines.is_empty() {
                let i = ((lines.len() as f64) * at) as usize % lines.len();
                let mut out = lines[..=i].concat();
                out.push_str(lines[i]);
                out.push_str(&lines[i + 1..].concat());
                s = out;
            }
        }
        Edit::Truncate { at } => s.truncate(offset(&s, *at)),
        Edit::ReplaceToken { at, token } => {
            let tokens: Vec<(usize, &str)> = text
                .split_ascii_whitespace()
                .map(|t| (t.as_ptr() as usize - text.as_ptr() as usize, t))
                .collect();
            if !tokens.is_empty() {
                let (start, t) = tokens[((tokens.len() as f64) * at) as usize % tokens.len()];
                s.replace_range(start..start + t.len(), token);
            }
        }
    }
    s
}

fn mutate(text: &str, edits: &[Edit]) -> String {
    edits.iter().fold(text.to_string(), |t, e| apply(&t, e))
}

/// Line ends as files come: LF or CRLF.
fn with_line_ends(text: &str, crlf: bool) -> String {
    if crlf {
        text.replace('\n', "\r\n")
    } else {
        text.to_string()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn dimacs_mutations_never_panic(edits in prop::collection::vec(edit(), 1..4)) {
        let text = mutate(&shared("dimacs/MANN_a27.clq"), &edits);
        if let Ok(graph) = parse_dimacs(&text) {
            prop_assert!(graph.order() <= MAX_VERTICES);
        }
    }

    #[test]
    fn knapsack_mutations_never_panic(
        file in prop::sample::select(vec![
            "knapsack/knapPI_1_50_1000_1.kp",
            "knapsack/knapsackTest1.kp",
            "knapsack/low-dimensional/f1_l-d_kp_10_269.txt",
        ]),
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let text = mutate(&shared(file), &edits);
        if let Ok(instances) = parse_knapsack_instances(&text) {
            prop_assert!(!instances.is_empty());
        }
    }

    #[test]
    fn tsplib_mutations_never_panic(
        file in prop::sample::select(vec!["tsplib/burma14.tsp", "tsplib/gr17.tsp"]),
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let text = mutate(&shared(file), &edits);
        if let Ok(instance) = parse_tsplib(&text) {
            prop_assert!(instance.cities() <= MAX_CITIES);
        }
    }

    #[test]
    fn uts_parameter_strings_never_panic(
        pairs in prop::collection::vec(
            (prop::sample::select(vec!["t", "a", "d", "b", "r", "q", "m", "x", ""]), token()),
            0..6,
        ),
    ) {
        let text: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = text.join(",").parse::<UtsParams>();
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = parse_dimacs(&text);
        let _ = parse_knapsack_instances(&text);
        let _ = parse_tsplib(&text);
        let _ = text.parse::<UtsParams>();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn generated_graphs_read_back(
        n in 1..40usize,
        edges in prop::collection::vec((0..40usize, 0..40usize), 0..200),
        crlf in any::<bool>(),
    ) {
        let mut graph = Graph::new(n);
        for &(u, v) in &edges {
            let (u, v) = (u % n, v % n);
            if u != v {
                graph.add_edge(u, v);
            }
        }
        let mut text = format!("c generated\np edge {n} {}\n", graph.edge_count());
        for u in 0..n {
            for v in u + 1..n {
                if graph.has_edge(u, v) {
                    text.push_str(&format!("e {} {}\n", u + 1, v + 1));
                }
            }
        }
        let read = parse_dimacs(&with_line_ends(&text, crlf)).expect("a valid file");
        prop_assert_eq!(read.order(), n);
        for u in 0..n {
            for v in 0..n {
                prop_assert_eq!(read.has_edge(u, v), graph.has_edge(u, v));
            }
        }
    }

    #[test]
    fn generated_knapsacks_read_back_in_both_formats(
        items in prop::collection::vec((1..10_000u32, 1..10_000u32), 1..60),
        capacity in 1..100_000u64,
        crlf in any::<bool>(),
    ) {
        let rows: String = items.iter().map(|(p, w)| format!("{p} {w}\n")).collect();
        let kp = parse_kp(&with_line_ends(&format!("{capacity}\n0\n{rows}"), crlf))
            .expect("a valid .kp file");
        let low = parse_low_dimensional(&with_line_ends(
            &format!("{} {capacity}\n{rows}", items.len()),
            crlf,
        ))
        .expect("a valid low-dimensional file");
        for read in [&kp, &low] {
            prop_assert_eq!(read.item_count(), items.len());
            prop_assert_eq!(read.capacity_units(), capacity);
            let profits: Vec<u64> = items.iter().map(|&(p, _)| u64::from(p)).collect();
            let weights: Vec<u64> = items.iter().map(|&(_, w)| u64::from(w)).collect();
            prop_assert_eq!(read.profit_units(), &profits[..]);
            prop_assert_eq!(read.weight_units(), &weights[..]);
        }
    }

    #[test]
    fn generated_tours_read_back(
        rows in prop::collection::vec(prop::collection::vec(0..1000u32, 12), 3..12),
        crlf in any::<bool>(),
    ) {
        let n = rows.len();
        // A symmetric matrix with a zero diagonal from the random rows.
        let matrix: Vec<Vec<u32>> = (0..n)
            .map(|i| (0..n).map(|j| if i == j { 0 } else { rows[i.min(j)][i.max(j)] }).collect())
            .collect();
        let mut text = format!(
            "NAME: generated\nTYPE: TSP\nDIMENSION: {n}\nEDGE_WEIGHT_TYPE: EXPLICIT\n\
             EDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n"
        );
        for row in &matrix {
            let cells: Vec<String> = row.iter().map(u32::to_string).collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
        text.push_str("EOF\n");
        let read = parse_tsplib(&with_line_ends(&text, crlf)).expect("a valid file");
        prop_assert_eq!(read.cities(), n);
        for (i, row) in matrix.iter().enumerate() {
            for (j, &d) in row.iter().enumerate() {
                prop_assert_eq!(read.distance(i, j), u64::from(d));
            }
        }
    }

    #[test]
    fn uts_parameters_read_back_from_their_display(
        preset in prop::sample::select(
            magpie_search::apps::uts::PRESETS.iter().map(|p| p.0).collect::<Vec<_>>()
        ),
    ) {
        let params = UtsParams::preset(preset).expect("a preset");
        let text = params.to_string();
        prop_assert_eq!(text.parse::<UtsParams>().expect("its own display"), params);
    }
}
