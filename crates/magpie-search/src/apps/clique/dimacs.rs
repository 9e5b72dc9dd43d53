//! The DIMACS graph format (`.clq`, `.col`): `c` comment lines, one header
//! `p edge N M` (or `p col N M`), then `e U V` lines with vertices numbered from 1.
//!
//! Lines may end in LF, CRLF or a bare CR; fields may be separated by spaces or tabs.
//! Bad input is reported as a [`DimacsError`], never a panic.

use std::fmt;
use std::path::{Path, PathBuf};

use super::graph::Graph;

/// Why a DIMACS file could not be read.
#[derive(Debug)]
pub enum DimacsError {
    /// The file could not be opened or read.
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// No `p` line before the first edge or at all.
    MissingHeader,
    /// A `p` line that is not `p edge N M` or `p col N M`, or a second `p` line.
    MalformedHeader {
        /// The 1-based line number.
        line: usize,
    },
    /// An `e` line without exactly two vertex numbers, or a line of unknown kind.
    MalformedLine {
        /// The 1-based line number.
        line: usize,
    },
    /// An edge endpoint outside `1..=N`.
    VertexOutOfRange {
        /// The 1-based line number.
        line: usize,
        /// The endpoint as written.
        vertex: u64,
        /// The number of vertices in the header.
        vertices: usize,
    },
    /// The header declares no vertices.
    EmptyInstance,
    /// The header declares more than [`MAX_VERTICES`] vertices.
    TooManyVertices {
        /// The number in the header.
        vertices: usize,
    },
}

/// The largest vertex count accepted (the adjacency matrix takes `N²/8` bytes).
pub const MAX_VERTICES: usize = 50_000;

impl fmt::Display for DimacsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, source } => write!(f, "cannot read {}: {source}", path.display()),
            Self::MissingHeader => write!(f, "no `p edge N M` header before the edges"),
            Self::MalformedHeader { line } => {
                write!(
                    f,
                    "line {line}: expected one header `p edge N M` or `p col N M`"
                )
            }
            Self::MalformedLine { line } => {
                write!(f, "line {line}: expected `c ...`, `p ...` or `e U V`")
            }
            Self::VertexOutOfRange {
                line,
                vertex,
                vertices,
            } => write!(
                f,
                "line {line}: edge endpoint {vertex} is outside 1..={vertices}"
            ),
            Self::EmptyInstance => write!(f, "the instance has no vertices"),
            Self::TooManyVertices { vertices } => {
                write!(
                    f,
                    "{vertices} vertices is more than the {MAX_VERTICES} supported"
                )
            }
        }
    }
}

impl std::error::Error for DimacsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Reads the DIMACS graph in the file at `path`.
pub fn read_dimacs(path: impl AsRef<Path>) -> Result<Graph, DimacsError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| DimacsError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_dimacs(&String::from_utf8_lossy(&bytes))
}

/// Parses a DIMACS graph from `text`.
pub fn parse_dimacs(text: &str) -> Result<Graph, DimacsError> {
    let mut graph: Option<Graph> = None;
    // Splitting on both CR and LF makes CRLF an empty line, so count lines by LF
    // (or by CR where no LF follows).
    let mut line_number = 0;
    let mut previous_was_cr = false;
    for (piece, ended_by_lf) in split_lines(text) {
        if !(ended_by_lf && previous_was_cr && piece.is_empty()) {
            line_number += 1;
        }
        previous_was_cr = !ended_by_lf;
        let mut fields = piece.split_whitespace();
        match fields.next() {
            None | Some("c") => {}
            Some(kind) if kind.starts_with('c') => {}
            Some("p") => {
                if graph.is_some() {
                    return Err(DimacsError::MalformedHeader { line: line_number });
                }
                graph = Some(parse_header(fields, line_number)?);
            }
            Some("e") => {
                let graph = graph.as_mut().ok_or(DimacsError::MissingHeader)?;
                let (u, v) = parse_edge(fields, line_number, graph.order())?;
                graph.add_edge(u, v);
            }
            Some(_) => return Err(DimacsError::MalformedLine { line: line_number }),
        }
    }
    graph.ok_or(DimacsError::MissingHeader)
}

/// The pieces of `text` between line terminators, each with whether an LF (rather
/// than a CR or the end of the text) ended it.
fn split_lines(text: &str) -> impl Iterator<Item = (&str, bool)> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        match current.find(['\n', '\r']) {
            Some(at) => {
                rest = Some(&current[at + 1..]);
                Some((&current[..at], current.as_bytes()[at] == b'\n'))
            }
            None => {
                rest = None;
                Some((current, false))
            }
        }
    })
}

fn parse_header<'a>(
    mut fields: impl Iterator<Item = &'a str>,
    line: usize,
) -> Result<Graph, DimacsError> {
    let malformed = DimacsError::MalformedHeader { line };
    if !matches!(fields.next(), Some("edge" | "col")) {
        return Err(malformed);
    }
    let vertices: usize = fields
        .next()
        .and_then(|f| f.parse().ok())
        .ok_or(malformed)?;
    let _edges: u64 = fields
        .next()
        .and_then(|f| f.parse().ok())
        .ok_or(DimacsError::MalformedHeader { line })?;
    if fields.next().is_some() {
        return Err(DimacsError::MalformedHeader { line });
    }
    if vertices == 0 {
        return Err(DimacsError::EmptyInstance);
    }
    if vertices > MAX_VERTICES {
        return Err(DimacsError::TooManyVertices { vertices });
    }
    Ok(Graph::new(vertices))
}

fn parse_edge<'a>(
    mut fields: impl Iterator<Item = &'a str>,
    line: usize,
    vertices: usize,
) -> Result<(usize, usize), DimacsError> {
    let mut endpoint = || -> Result<usize, DimacsError> {
        let vertex: u64 = fields
            .next()
            .and_then(|f| f.parse().ok())
            .ok_or(DimacsError::MalformedLine { line })?;
        match usize::try_from(vertex) {
            Ok(v) if (1..=vertices).contains(&v) => Ok(v - 1),
            _ => Err(DimacsError::VertexOutOfRange {
                line,
                vertex,
                vertices,
            }),
        }
    };
    let u = endpoint()?;
    let v = endpoint()?;
    if fields.next().is_some() {
        return Err(DimacsError::MalformedLine { line });
    }
    Ok((u, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text with LF, CRLF and bare CR line endings.
    fn endings(lf: &str) -> [String; 3] {
        [
            lf.to_string(),
            lf.replace('\n', "\r\n"),
            lf.replace('\n', "\r"),
        ]
    }

    #[test]
    fn shared_graphs_read_alike_with_lf_crlf_and_cr() {
        for name in ["brock200_4", "keller4"] {
            let path = format!(
                "{}/../../../shared/data/dimacs/{name}.clq",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let lf = text.replace("\r\n", "\n");
            let graphs: Vec<Graph> = endings(&lf)
                .iter()
                .map(|t| parse_dimacs(t).unwrap_or_else(|e| panic!("{name}: {e}")))
                .collect();
            assert!(graphs.iter().all(|g| *g == graphs[0]), "{name}");
            assert!(graphs[0].edge_count() > 0);
        }
    }

    #[test]
    fn error_lines_are_the_same_with_lf_crlf_and_cr() {
        let cases = [
            ("c x\np edge 3 1\ne 1 2\ne 1 9\n", "line 4: edge endpoint 9"),
            ("c x\n\np edge 3 1\nq 1 2\n", "line 4: expected"),
            (
                "c x\np edge 3 1\np edge 3 1\n",
                "line 3: expected one header",
            ),
            ("c x\nc y\np edge three 1\n", "line 3: expected one header"),
            ("c x\ne 1 2\np edge 3 1\n", "no `p edge N M` header"),
        ];
        for (lf, expected) in cases {
            for text in endings(lf) {
                let error = parse_dimacs(&text).expect_err(lf).to_string();
                assert!(error.starts_with(expected), "{text:?}: {error}");
            }
        }
    }
}
