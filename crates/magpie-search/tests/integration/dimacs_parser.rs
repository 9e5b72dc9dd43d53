//! The DIMACS reader: tolerated layouts and every error case.

use magpie_search::apps::clique::{parse_dimacs, read_dimacs, DimacsError, Graph};

fn triangle() -> Graph {
    let mut graph = Graph::new(3);
    graph.add_edge(0, 1);
    graph.add_edge(1, 2);
    graph.add_edge(0, 2);
    graph
}

#[test]
fn line_endings_tabs_and_comments_are_tolerated() {
    let layouts = [
        "c a triangle\np edge 3 3\ne 1 2\ne 2 3\ne 1 3\n",
        "c a triangle\r\np edge 3 3\r\ne 1 2\r\ne 2 3\r\ne 1 3\r\n",
        "c a triangle\rp edge 3 3\re 1 2\re 2 3\re 1 3",
        "c\ta triangle\np\tedge\t3\t3\ne\t1\t2\ne 2\t 3\n\n  e 1 3  \n",
        "p col 3 3\nc comment between edges\ne 1 2\ne 2 3\ne 1 3\n",
        "cx comment without space\np edge 3 4\ne 1 2\ne 2 1\ne 2 3\ne 3 1",
    ];
    for text in layouts {
        let graph = parse_dimacs(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(graph, triangle(), "{text:?}");
    }
}

#[test]
fn self_loops_are_ignored() {
    let graph = parse_dimacs("p edge 2 2\ne 1 1\ne 1 2\n").expect("valid");
    assert_eq!(graph.edge_count(), 1);
}

#[test]
fn missing_file_is_an_io_error() {
    let err = read_dimacs("/nonexistent/graph.clq").expect_err("missing");
    assert!(matches!(err, DimacsError::Io { .. }), "{err:?}");
    assert!(err.to_string().contains("/nonexistent/graph.clq"));
    assert!(std::error::Error::source(&err).is_some());
}

#[test]
fn malformed_headers_are_reported_with_their_line() {
    for text in [
        "c x\np graph 3 3\n",
        "p edge three 3\n",
        "p edge 3\n",
        "p edge 3 3 3\n",
        "p edge -3 3\n",
        "c one\r\nc two\r\np\r\n",
    ] {
        let err = parse_dimacs(text).expect_err(text);
        assert!(
            matches!(err, DimacsError::MalformedHeader { .. }),
            "{text:?}: {err:?}"
        );
    }
    let err = parse_dimacs("c one\r\nc two\r\np edge x 1\r\n").expect_err("bad");
    assert!(
        matches!(err, DimacsError::MalformedHeader { line: 3 }),
        "{err:?}"
    );
    let err = parse_dimacs("p edge 3 1\np edge 3 1\n").expect_err("two headers");
    assert!(
        matches!(err, DimacsError::MalformedHeader { line: 2 }),
        "{err:?}"
    );
}

#[test]
fn missing_header_is_reported() {
    for text in ["", "c nothing\n", "e 1 2\np edge 2 1\n"] {
        let err = parse_dimacs(text).expect_err(text);
        assert!(
            matches!(err, DimacsError::MissingHeader),
            "{text:?}: {err:?}"
        );
    }
}

#[test]
fn out_of_range_endpoints_are_reported() {
    for (text, bad) in [
        ("p edge 3 1\ne 1 4\n", 4),
        ("p edge 3 1\ne 0 2\n", 0),
        (
            "p edge 3 1\ne 99999999999999999 2\n",
            99_999_999_999_999_999,
        ),
    ] {
        match parse_dimacs(text) {
            Err(DimacsError::VertexOutOfRange {
                line: 2,
                vertex,
                vertices: 3,
            }) => assert_eq!(vertex, bad),
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn malformed_lines_are_reported() {
    for text in [
        "p edge 3 1\ne 1\n",
        "p edge 3 1\ne 1 x\n",
        "p edge 3 1\ne -1 2\n",
        "p edge 3 1\nx 1 2\n",
        // A third field (an edge weight, or two edges run together) is not ignored.
        "p edge 3 1\ne 1 2 3\n",
    ] {
        let err = parse_dimacs(text).expect_err(text);
        assert!(
            matches!(err, DimacsError::MalformedLine { line: 2 }),
            "{text:?}: {err:?}"
        );
    }
}

#[test]
fn empty_and_oversized_instances_are_reported() {
    let err = parse_dimacs("p edge 0 0\n").expect_err("empty");
    assert!(matches!(err, DimacsError::EmptyInstance), "{err:?}");
    let err = parse_dimacs("p edge 10000000000 0\n").expect_err("huge");
    assert!(
        matches!(err, DimacsError::TooManyVertices { .. }),
        "{err:?}"
    );
}
