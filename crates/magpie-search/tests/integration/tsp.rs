//! TSP: the TSPLIB instances' known optima under every coordination, small random
//! instances against brute force, and the TSPLIB reader's cases and errors.

use crate::common;

use std::time::Instant;

use magpie_search::apps::tsp::{
    parse_tsplib, read_tsplib, solve_tsp, CoordinateDistance, Tour, TspInstance, TspSpace,
    TsplibError,
};
use magpie_search::{optimise, SearchConfig};

/// Checks that `tour` is a permutation starting at city 0 of the reported length.
fn check_tour(instance: &TspInstance, tour: &Tour, context: &str) {
    assert_eq!(tour.cities.first(), Some(&0), "{context}: starts at city 0");
    assert_eq!(
        instance.tour_length(&tour.cities),
        Some(tour.length),
        "{context}: not a permutation, or a wrong length"
    );
}

/// Every coordination with 1 and 2 threads finds a tour of length `optimum`.
fn check_optimum(instance: &TspInstance, optimum: u64, name: &str) {
    for threads in [1, 2] {
        let pool = common::pool(threads);
        for (coordination, config) in common::every_coordination(&pool) {
            let context = format!("{name}, {coordination}");
            let outcome = solve_tsp(instance, &config);
            check_tour(instance, &outcome.answer, &context);
            assert_eq!(outcome.answer.length, optimum, "{context}");
        }
    }
}

fn load(file: &str) -> TspInstance {
    let path = common::data(&format!("tsplib/{file}"));
    read_tsplib(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn check_file(file: &str, cities: usize, optimum: u64) {
    let instance = load(file);
    assert_eq!(instance.cities(), cities);
    let space = TspSpace::new(&instance);
    assert!(space.root_bound() <= optimum);
    eprintln!(
        "{file}: root bound {}, first tour {}",
        space.root_bound(),
        space.heuristic_tour().length
    );
    let start = Instant::now();
    let outcome = solve_tsp(&instance, &SearchConfig::sequential());
    eprintln!(
        "{file}: sequential {:.6}s, {} nodes, {} prunes",
        start.elapsed().as_secs_f64(),
        outcome.stats.nodes_expanded,
        outcome.stats.prunes
    );
    check_optimum(&instance, optimum, file);
}

#[test]
fn burma14_optimum_is_3323() {
    check_file("burma14.tsp", 14, 3323);
}

#[test]
fn gr17_optimum_is_2085() {
    check_file("gr17.tsp", 17, 2085);
}

#[test]
fn burma14_geo_distances_follow_tsplib() {
    let instance = load("burma14.tsp");
    assert_eq!(instance.name(), "burma14");
    // From the file's coordinates by the TSPLIB GEO formula (degrees truncated).
    assert_eq!(instance.distance(0, 1), 153);
    assert_eq!(instance.distance(0, 2), 510);
    assert_eq!(instance.distance(1, 2), 422);
    assert_eq!(instance.distance(2, 0), 510);
    assert_eq!(instance.distance(3, 3), 0);
    assert_eq!(
        CoordinateDistance::Geo.distance((16.47, 96.10), (20.09, 92.54)),
        Some(510)
    );
}

#[test]
fn gr17_lower_diagonal_matrix_is_read() {
    let instance = load("gr17.tsp");
    assert_eq!(instance.distance(1, 0), 633);
    assert_eq!(instance.distance(0, 1), 633);
    assert_eq!(instance.distance(16, 15), 336);
    assert_eq!(instance.distance(9, 8), 495);
}

use common::SplitMix;

/// A symmetric instance on `n` cities with random weights below `max` (not
/// necessarily metric).
fn random_matrix(rng: &mut SplitMix, n: usize, max: u64) -> TspInstance {
    let weights: Vec<u32> = (0..n * n).map(|_| (rng.next() % max) as u32).collect();
    let rows: Vec<Vec<u32>> = (0..n)
        .map(|i| (0..n).map(|j| weights[i.min(j) * n + i.max(j)]).collect())
        .collect();
    TspInstance::from_matrix(&rows).expect("symmetric")
}

/// The shortest tour length by trying every permutation of cities `1..n`.
fn brute_force(instance: &TspInstance) -> u64 {
    fn extend(instance: &TspInstance, tour: &mut Vec<usize>, used: &mut [bool], best: &mut u64) {
        let n = instance.cities();
        if tour.len() == n {
            *best = (*best).min(instance.tour_length(tour).expect("a permutation"));
            return;
        }
        for city in 1..n {
            if !used[city] {
                used[city] = true;
                tour.push(city);
                extend(instance, tour, used, best);
                tour.pop();
                used[city] = false;
            }
        }
    }
    let mut best = u64::MAX;
    let mut used = vec![false; instance.cities()];
    extend(instance, &mut vec![0], &mut used, &mut best);
    best
}

#[test]
fn random_euclidean_instances_match_brute_force() {
    let mut rng = SplitMix(0x7359);
    let two = common::pool(2);
    let one = common::pool(1);
    for round in 0..24 {
        let cities = 2 + (rng.next() % 8) as usize;
        // Some instances on a small grid, to get ties and repeated points.
        let span = if round % 3 == 0 { 4 } else { 1000 };
        let points: Vec<(f64, f64)> = (0..cities)
            .map(|_| ((rng.next() % span) as f64, (rng.next() % span) as f64))
            .collect();
        let instance =
            TspInstance::from_coordinates(CoordinateDistance::Euc2d, &points).expect("points");
        let optimum = brute_force(&instance);
        let pool = if round % 2 == 0 { &two } else { &one };
        for (coordination, config) in common::every_coordination(pool) {
            let context = format!("round {round} ({cities} cities), {coordination}");
            let tour = solve_tsp(&instance, &config).answer;
            check_tour(&instance, &tour, &context);
            assert_eq!(tour.length, optimum, "{context}");
        }
    }
}

#[test]
fn random_explicit_instances_match_brute_force() {
    let mut rng = SplitMix(0xe1);
    let two = common::pool(2);
    for round in 0..12 {
        let n = 3 + (rng.next() % 6) as usize;
        let instance = random_matrix(&mut rng, n, 100);
        let optimum = brute_force(&instance);
        for (coordination, config) in common::every_coordination(&two) {
            let tour = solve_tsp(&instance, &config).answer;
            check_tour(&instance, &tour, &format!("round {round}, {coordination}"));
            assert_eq!(tour.length, optimum, "round {round}, {coordination}");
        }
    }
}

/// A 4-city instance in the given explicit format, and its full matrix.
const SQUARE: [[u32; 4]; 4] = [[0, 1, 5, 2], [1, 0, 3, 6], [5, 3, 0, 4], [2, 6, 4, 0]];

fn explicit(format: &str, weights: &str) -> String {
    format!(
        "NAME: square\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\n\
         EDGE_WEIGHT_FORMAT: {format}\nEDGE_WEIGHT_SECTION\n{weights}\nEOF\n"
    )
}

#[test]
fn every_explicit_format_gives_the_same_matrix() {
    let cases = [
        ("FULL_MATRIX", "0 1 5 2\n1 0 3 6\n5 3 0 4\n2 6 4 0"),
        ("FULL_MATRIX", "0 1 5 2 1 0\n3 6 5\n3 0 4 2 6 4\n0"),
        ("LOWER_DIAG_ROW", "0\n1 0\n5 3 0\n2 6 4 0"),
        ("LOWER_DIAG_ROW", "0 1 0 5 3 0 2 6 4 0"),
        ("UPPER_DIAG_ROW", "0 1 5 2\n0 3 6\n0 4\n0"),
        ("UPPER_ROW", "1 5 2\n3 6\n4"),
        ("LOWER_ROW", "1\n5 3\n2 6 4"),
    ];
    for (format, weights) in cases {
        let instance = parse_tsplib(&explicit(format, weights))
            .unwrap_or_else(|e| panic!("{format} {weights:?}: {e}"));
        for (i, row) in SQUARE.iter().enumerate() {
            for (j, &w) in row.iter().enumerate() {
                assert_eq!(instance.distance(i, j), u64::from(w), "{format} ({i},{j})");
            }
        }
        assert_eq!(
            solve_tsp(&instance, &SearchConfig::sequential())
                .answer
                .length,
            10
        );
    }
}

#[test]
fn line_endings_spacing_and_optional_eof() {
    let lf = "NAME : tri\nTYPE : TSP\nCOMMENT : a: b\nDIMENSION : 3\n\
              EDGE_WEIGHT_TYPE : EUC_2D\nEDGE_WEIGHT_FORMAT: FUNCTION \n\
              DISPLAY_DATA_TYPE: COORD_DISPLAY\nNODE_COORD_SECTION\n\
              1 0 0\n  2\t3.0   0\n3 0 4e0\n";
    let crlf = lf.replace('\n', "\r\n");
    let cr = lf.replace('\n', "\r");
    let compact = lf.replace(" : ", ":");
    for text in [lf.to_string(), crlf, cr, compact] {
        let instance = parse_tsplib(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(instance.name(), "tri");
        assert_eq!(instance.tour_length(&[0, 1, 2]), Some(12));
    }
    let display = explicit(
        "UPPER_ROW",
        "1 5 2\n3 6\n4\nDISPLAY_DATA_SECTION\n1 0 0\n2 1 0\n3 1 1\n4 0 1",
    );
    assert!(parse_tsplib(&display).is_ok());
}

fn error(text: &str) -> TsplibError {
    match parse_tsplib(text) {
        Ok(_) => panic!("{text:?} parsed"),
        Err(e) => e,
    }
}

const HEADER: &str = "NAME: t\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\n";

#[test]
fn every_error_variant_is_reported_with_its_line() {
    use TsplibError as E;
    let missing = read_tsplib("/nonexistent/file.tsp").unwrap_err();
    assert!(matches!(missing, E::Io { .. }), "{missing:?}");
    assert!(std::error::Error::source(&missing).is_some());

    let coords = |section: &str| format!("{HEADER}NODE_COORD_SECTION\n{section}EOF\n");
    type Check = fn(&TsplibError) -> bool;
    let cases: Vec<(String, Check)> = vec![
        (format!("{HEADER}1 0 0\n"), |e| {
            matches!(e, E::MalformedLine { line: 5 })
        }),
        (coords("1 0 0\n2 0 1 7\n3 1 1\n"), |e| {
            matches!(e, E::MalformedLine { line: 7 })
        }),
        (format!("{HEADER}CAPACITY: 5\n"), |e| {
            matches!(e, E::UnknownKeyword { line: 5, keyword } if keyword == "CAPACITY")
        }),
        ("TYPE: ATSP\nDIMENSION: 3\n".to_string(), |e| {
            matches!(e, E::Unsupported { line: 1, keyword, value } if keyword == "TYPE" && value == "ATSP")
        }),
        ("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_3D\n".to_string(), |e| {
            matches!(e, E::Unsupported { line: 2, .. })
        }),
        (explicit("UPPER_COL", "1 5 2 3 6 4"), |e| {
            matches!(e, E::Unsupported { line: 5, .. })
        }),
        (
            format!("{HEADER}EDGE_WEIGHT_FORMAT: FULL_MATRIX\nNODE_COORD_SECTION\n1 0 0\n2 0 1\n3 1 1\n"),
            |e| matches!(e, E::Unsupported { line: 5, .. }),
        ),
        ("EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n".to_string(), |e| {
            matches!(e, E::MissingKeyword { keyword: "DIMENSION" })
        }),
        ("".to_string(), |e| {
            matches!(e, E::MissingKeyword { keyword: "DIMENSION" })
        }),
        ("DIMENSION: 3\n".to_string(), |e| {
            matches!(e, E::MissingKeyword { keyword: "EDGE_WEIGHT_TYPE" })
        }),
        (
            "DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_SECTION\n1 2 3\n".to_string(),
            |e| matches!(e, E::MissingKeyword { keyword: "EDGE_WEIGHT_FORMAT" }),
        ),
        (HEADER.to_string(), |e| {
            matches!(e, E::MissingSection { section: "NODE_COORD_SECTION" })
        }),
        ("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n".to_string(), |e| {
            matches!(e, E::MissingSection { section: "EDGE_WEIGHT_SECTION" })
        }),
        ("NAME: x\nDIMENSION: 1\n".to_string(), |e| {
            matches!(e, E::DimensionTooSmall { line: 2, dimension: 1 })
        }),
        ("DIMENSION: 0\n".to_string(), |e| {
            matches!(e, E::DimensionTooSmall { line: 1, dimension: 0 })
        }),
        ("DIMENSION: 1000000\n".to_string(), |e| {
            matches!(e, E::TooManyCities { line: 1, .. })
        }),
        ("DIMENSION: three\n".to_string(), |e| {
            matches!(e, E::MalformedNumber { line: 1, token } if token == "three")
        }),
        (coords("1 0 0\n2 0 x\n3 1 1\n"), |e| {
            matches!(e, E::MalformedNumber { line: 7, token } if token == "x")
        }),
        (coords("1 0 0\n2 0 inf\n3 1 1\n"), |e| {
            matches!(e, E::MalformedNumber { line: 7, .. })
        }),
        (explicit("UPPER_ROW", "1 5 2\n3 6.5\n4"), |e| {
            matches!(e, E::MalformedNumber { line: 8, .. })
        }),
        (coords("1 0 0\n4 0 1\n3 1 1\n"), |e| {
            matches!(e, E::BadNodeNumber { line: 7, node: 4 })
        }),
        (coords("1 0 0\n1 0 1\n3 1 1\n"), |e| {
            matches!(e, E::BadNodeNumber { line: 7, node: 1 })
        }),
        (coords("1 0 0\n2 0 1\n"), |e| {
            matches!(e, E::CoordinateCount { line: 5, expected: 3, found: 2 })
        }),
        (coords("1 0 0\n2 0 1\n3 1 1\n4 2 2\n"), |e| {
            matches!(e, E::CoordinateCount { found: 4, .. })
        }),
        (explicit("UPPER_ROW", "1 5 2\n3 6"), |e| {
            matches!(e, E::WeightCount { line: 6, expected: 6, found: 5 })
        }),
        (explicit("LOWER_DIAG_ROW", "0 1 0 5 3 0 2 6 4 0 9"), |e| {
            matches!(e, E::WeightCount { expected: 10, found: 11, .. })
        }),
        (explicit("UPPER_ROW", "1 5 2\n3 -6\n4"), |e| {
            matches!(e, E::NegativeWeight { line: 8 })
        }),
        (explicit("UPPER_ROW", "1 5 2\n3 4294967296\n4"), |e| {
            matches!(e, E::WeightOutOfRange { line: 8 })
        }),
        (coords("1 0 0\n2 0 1e300\n3 1 1\n"), |e| {
            matches!(e, E::DistanceOutOfRange { from: 1, to: 2 })
        }),
        (explicit("FULL_MATRIX", "0 1 5 2\n1 0 3 6\n5 3 0 4\n2 7 4 0"), |e| {
            matches!(e, E::Asymmetric { from: 2, to: 4 })
        }),
    ];
    for (text, expected) in &cases {
        let error = error(text);
        assert!(expected(&error), "{text:?}: unexpected {error:?}");
        let message = error.to_string();
        assert!(!message.is_empty() && !message.contains('\n'), "{message}");
        assert!(std::error::Error::source(&error).is_none());
    }
    assert_eq!(
        error(&coords("1 0 0\n4 0 1\n3 1 1\n")).to_string(),
        "line 7: node 4 is out of range or repeated"
    );
}

#[test]
fn line_numbers_count_crlf_once() {
    let text = "NAME: t\r\nDIMENSION: 3\r\n\r\nEDGE_WEIGHT_TYPE: EUC_2D\r\nNODE_COORD_SECTION\r\n1 0 0\r\n2 0 x\r\n3 1 1\r\n";
    assert!(matches!(
        error(text),
        TsplibError::MalformedNumber { line: 7, .. }
    ));
}

/// Without the 2-opt seed (the root is the first incumbent, with the minimum
/// objective), the search must find and prove the optimum on its own.
#[test]
fn unseeded_search_finds_the_optimum() {
    let instance = load("burma14.tsp");
    let space = TspSpace::new(&instance);
    for threads in [1, 2] {
        let pool = common::pool(threads);
        for (coordination, config) in common::every_coordination(&pool) {
            let outcome = optimise(&space, &config);
            assert_eq!(outcome.answer.value, -3323, "{coordination}");
            let tour = space
                .tour_of(&outcome.answer.node)
                .expect("a complete tour");
            check_tour(&instance, &tour, &coordination);
            assert_eq!(tour.length, 3323, "{coordination}");
            eprintln!("unseeded burma14, {coordination}: {}", outcome.stats);
        }
    }
}

/// The shortest tour length by Held–Karp dynamic programming over subsets.
fn dynamic_programming(instance: &TspInstance) -> u64 {
    let n = instance.cities();
    let m = n - 1; // cities 1..n, as bits 0..m
    let mut best = vec![vec![u64::MAX; m]; 1 << m];
    for j in 0..m {
        best[1 << j][j] = instance.distance(0, j + 1);
    }
    for set in 1..1usize << m {
        for j in 0..m {
            let here = best[set][j];
            if here == u64::MAX {
                continue;
            }
            for k in (0..m).filter(|&k| set & (1 << k) == 0) {
                let next = &mut best[set | 1 << k][k];
                *next = (*next).min(here + instance.distance(j + 1, k + 1));
            }
        }
    }
    (0..m)
        .map(|j| best[(1 << m) - 1][j] + instance.distance(j + 1, 0))
        .min()
        .expect("at least two cities")
}

/// Unseeded searches on 10 to 13 cities (Euclidean, and random non-metric
/// matrices) agree with dynamic programming: the penalised bound never cuts off
/// an optimum.
#[test]
fn unseeded_search_matches_dynamic_programming() {
    let mut rng = SplitMix(0xbeef);
    let two = common::pool(2);
    for round in 0..8 {
        let n = 10 + (rng.next() % 4) as usize;
        let instance = if round % 2 == 0 {
            let points: Vec<(f64, f64)> = (0..n)
                .map(|_| ((rng.next() % 500) as f64, (rng.next() % 500) as f64))
                .collect();
            TspInstance::from_coordinates(CoordinateDistance::Euc2d, &points).expect("points")
        } else {
            random_matrix(&mut rng, n, 1000)
        };
        let optimum = dynamic_programming(&instance);
        let space = TspSpace::new(&instance);
        assert!(space.root_bound() <= optimum, "round {round}");
        assert!(space.heuristic_tour().length >= optimum, "round {round}");
        for config in [
            SearchConfig::sequential(),
            SearchConfig::depth_bounded(2).in_pool(&two),
            SearchConfig::stack_stealing(false).in_pool(&two),
            SearchConfig::budget(10).in_pool(&two),
        ] {
            let context = format!("round {round} ({n} cities), {:?}", config.coordination);
            let outcome = optimise(&space, &config);
            let tour = space
                .tour_of(&outcome.answer.node)
                .expect("a complete tour");
            check_tour(&instance, &tour, &context);
            assert_eq!(tour.length, optimum, "{context}");
            assert_eq!(
                solve_tsp(&instance, &config).answer.length,
                optimum,
                "{context}"
            );
        }
    }
}

/// The root bound is a lower bound on every tour down to two cities, whose only tour
/// uses the one edge twice (the 1-tree at city 0 takes that edge twice too).
#[test]
fn root_bound_of_two_and_three_cities_is_at_most_the_optimum() {
    for distance in [0, 1, 9, 1000] {
        let two = TspInstance::from_matrix(&[vec![0, distance], vec![distance, 0]]).unwrap();
        let space = TspSpace::new(&two);
        let optimum = 2 * u64::from(distance);
        assert!(
            space.root_bound() <= optimum,
            "two cities {distance} apart: root bound {} above the tour {optimum}",
            space.root_bound()
        );
        let three =
            TspInstance::from_matrix(&[vec![0, distance, 1], vec![distance, 0, 2], vec![1, 2, 0]])
                .unwrap();
        let optimum = u64::from(distance) + 3;
        assert!(TspSpace::new(&three).root_bound() <= optimum, "{distance}");
    }
}
