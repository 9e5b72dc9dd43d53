//! Every published knapsack format with LF and CRLF line endings: detection, the
//! stated optimum and packing, errors naming their line (the same line for both
//! endings), and round trips of the shared instances through each format.

use super::*;
use crate::SearchConfig;

/// Capacity 10; items (profit weight) 6 4, 7 6, 5 5, 3 2; the optimum 13 takes the
/// first two. Each format of it, with LF line endings.
const KP: &str = "10\n13\n6 4\n7 6\n5 5\n3 2\n";
const LOW_ONE_LINE: &str = "4 10\n6 4\n7 6\n5 5\n3 2\n";
const LOW_TWO_LINES: &str = "4 \n10\n6 4\n7 6\n5 5\n3 2";
const LARGE_SCALE: &str = "4 10\n6 4\n7 6\n5 5\n3 2\n1 1 0 0\n";
const PISINGER: &str = "knapPI_tiny_1\nn 4\nc 10\nz 13\ntime 0.00\n\
                        1,6,4,1\n2,7,6,1\n3,5,5,0\n4,3,2,0\n-----\n\n";
const PISINGER_NO_X: &str = "tiny\nn 4\nc 10\n1, 6, 4\n2, 7, 6\n3, 5, 5\n4, 3, 2\n";

fn crlf(text: &str) -> String {
    text.replace('\n', "\r\n")
}

/// The text with LF and with CRLF line endings.
fn both_endings(text: &str) -> [String; 2] {
    [text.to_string(), crlf(text)]
}

#[test]
fn every_format_reads_with_lf_and_crlf() {
    let cases = [
        (KP, KnapsackFormat::Kp, true, false),
        (LOW_ONE_LINE, KnapsackFormat::LowDimensional, false, false),
        (LOW_TWO_LINES, KnapsackFormat::LowDimensional, false, false),
        (LARGE_SCALE, KnapsackFormat::LowDimensional, false, true),
        (PISINGER, KnapsackFormat::Pisinger, true, true),
        (PISINGER_NO_X, KnapsackFormat::Pisinger, false, false),
    ];
    for (lf, format, has_optimum, has_packing) in cases {
        for text in both_endings(lf) {
            assert_eq!(detect_format(&text), format, "{text:?}");
            let instance = parse_knapsack(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(instance.item_count(), 4, "{text:?}");
            assert_eq!(instance.capacity(), Decimal::integer(10), "{text:?}");
            assert_eq!(instance.format(), Some(format), "{text:?}");
            assert_eq!(instance.profit(3), Decimal::integer(3), "{text:?}");
            assert_eq!(instance.weight(1), Decimal::integer(6), "{text:?}");
            let optimum = has_optimum.then_some(Decimal::integer(13));
            assert_eq!(instance.stated_optimum(), optimum, "{text:?}");
            let packing: Option<&[usize]> = has_packing.then_some(&[0, 1]);
            assert_eq!(instance.stated_solution(), packing, "{text:?}");
            let answer = knapsack(&instance, &SearchConfig::sequential()).answer;
            assert_eq!(answer.profit, Decimal::integer(13), "{text:?}");
            // Parsing in the detected format directly gives the same instance.
            assert_eq!(parse_as(&text, format).unwrap(), instance, "{text:?}");
        }
    }
}

#[test]
fn pisinger_files_hold_several_named_instances() {
    let second = "second\r\nn 2\r\nc 3\r\nz 5\r\ntime 0.01\r\n1,5,3,1\r\n2,4,3,0\r\n-----\r\n";
    let third = "third\nn 1\nc 1\n1,1,2\n";
    for text in [
        format!("{PISINGER}{second}{third}"),
        crlf(&format!("{PISINGER}{second}-----\n{third}")),
    ] {
        let instances = parse_knapsack_instances(&text).expect("three instances");
        let names: Vec<_> = instances.iter().map(|i| i.name()).collect();
        assert_eq!(
            names,
            [Some("knapPI_tiny_1"), Some("second"), Some("third")]
        );
        assert_eq!(instances[1].stated_optimum(), Some(Decimal::integer(5)));
        assert_eq!(instances[1].stated_solution(), Some(&[0][..]));
        assert_eq!(instances[2].stated_solution(), None);
        // The single-instance readers take the first.
        assert_eq!(parse_knapsack(&text).unwrap(), instances[0]);
        assert_eq!(parse_pisinger(&text).unwrap(), instances);
    }
}

#[test]
fn a_final_item_line_is_not_taken_for_a_packing() {
    // Two fields that are not all 0 or 1: one item too many, not a packing.
    let error = parse_low_dimensional("2 10\n1 1\n2 2\n3 3\n").unwrap_err();
    assert!(
        matches!(
            error,
            KnapsackError::CountMismatch {
                line: 1,
                declared: 2,
                found: 3
            }
        ),
        "{error:?}"
    );
    // With two items, `1 0` after them is the packing.
    let instance = parse_low_dimensional("2 10\n1 1\n2 2\n1 0\n").unwrap();
    assert_eq!(instance.stated_solution(), Some(&[0][..]));
}

#[test]
fn the_extension_only_decides_between_kp_and_two_line_headers() {
    let dir = std::env::temp_dir().join(format!("magpie-knapsack-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    // Capacity 4 with four items reads as a two-line header without the extension.
    let ambiguous = "4\n13\n6 4\n7 6\n5 5\n3 2\n";
    assert_eq!(detect_format(ambiguous), KnapsackFormat::LowDimensional);
    let kp = read_knapsack(write("ambiguous.kp", ambiguous)).unwrap();
    assert_eq!(kp.stated_optimum(), Some(Decimal::integer(13)));
    assert_eq!(kp.format(), Some(KnapsackFormat::Kp));
    // Another extension: the text decides, and the instance says how it was read.
    let guessed = read_knapsack(write("ambiguous.dat", ambiguous)).unwrap();
    assert_eq!(guessed.format(), Some(KnapsackFormat::LowDimensional));
    assert_eq!(guessed.capacity(), Decimal::integer(13));
    // A format given by the caller overrides the guess.
    let told = read_knapsack_instances_as(dir.join("ambiguous.dat"), KnapsackFormat::Kp).unwrap();
    assert_eq!(told[0].format(), Some(KnapsackFormat::Kp));
    assert_eq!(told[0].capacity(), Decimal::integer(4));
    let wrong = read_knapsack_instances_as(dir.join("ambiguous.dat"), KnapsackFormat::Pisinger);
    assert!(wrong.is_err(), "{wrong:?}");
    // Pisinger's content in a `.kp` file, a large-scale file without extension.
    let pisinger = read_knapsack(write("knapPI_tiny_1.kp", &crlf(PISINGER))).unwrap();
    assert_eq!(pisinger.name(), Some("knapPI_tiny_1"));
    let large = read_knapsack(write("knapPI_tiny_2", &crlf(LARGE_SCALE))).unwrap();
    assert_eq!(large.stated_solution(), Some(&[0, 1][..]));
    let all = read_knapsack_instances(write("two.csv", &format!("{PISINGER}{PISINGER}")));
    assert_eq!(all.unwrap().len(), 2);
    std::fs::remove_dir_all(&dir).ok();
}

/// Parses `lf` with LF and with CRLF endings; both must fail alike.
fn error_both(lf: &str) -> KnapsackError {
    let [lf_text, crlf_text] = both_endings(lf);
    let error = parse_knapsack(&lf_text).expect_err(lf);
    let crlf_error = parse_knapsack(&crlf_text).expect_err(lf);
    assert_eq!(error.to_string(), crlf_error.to_string(), "{lf:?}");
    error
}

#[test]
fn errors_name_their_line_with_lf_and_crlf() {
    use KnapsackError as E;
    type Check = fn(&KnapsackError) -> bool;
    let cases: [(&str, Check); 19] = [
        // Pisinger's format.
        ("name\n", |e| matches!(e, E::MissingHeader)),
        ("name\nc 10\n", |e| {
            matches!(e, E::MalformedLine { line: 2, .. })
        }),
        (
            "name\nn four\nc 10\n",
            |e| matches!(e, E::MalformedNumber { line: 2, token } if token == "four"),
        ),
        ("name\nn 1 2\nc 10\n", |e| {
            matches!(e, E::MalformedLine { line: 2, .. })
        }),
        ("name\nn 1\nz 5\n", |e| {
            matches!(e, E::MalformedLine { line: 3, .. })
        }),
        ("name\nn 1\nc 10\nz x\n1,1,1,1\n", |e| {
            matches!(e, E::MalformedNumber { line: 4, .. })
        }),
        ("name\nn 2\nc 10\n1,1,1,1\n2,1\n", |e| {
            matches!(e, E::MalformedLine { line: 5, .. })
        }),
        ("name\nn 2\nc 10\n1,1,1,1\n2,1,1\n", |e| {
            matches!(e, E::MalformedLine { line: 5, .. })
        }),
        (
            "name\nn 2\nc 10\n1,1,1,1\n3,1,1,0\n",
            |e| matches!(e, E::ItemNumber { line: 5, expected: 2, found } if found == "3"),
        ),
        (
            "name\nn 1\nc 10\n1,1,1,2\n",
            |e| matches!(e, E::BadSolutionValue { line: 4, token } if token == "2"),
        ),
        ("name\nn 3\nc 10\ntime 0\n1,1,1,1\n2,1,1,0\n", |e| {
            matches!(
                e,
                E::CountMismatch {
                    line: 2,
                    declared: 3,
                    found: 2
                }
            )
        }),
        ("name\nn 1\nc 10\n1,1,1,1\n2,1,1,1\n", |e| {
            matches!(
                e,
                E::CountMismatch {
                    line: 2,
                    declared: 1,
                    found: 2
                }
            )
        }),
        ("name\nn 3\nc 10\n1,1,5,1\n2,1,5,0\n3,1,6,1\n", |e| {
            matches!(e, E::InfeasibleSolution { line: 6 })
        }),
        ("name\nn 1\nc 10\n1,1,0,0\n", |e| {
            matches!(e, E::NonPositiveWeight { line: 4 })
        }),
        ("name\nn 0\nc 10\n-----\n", |e| {
            matches!(e, E::EmptyInstance)
        }),
        // The large-scale packing line.
        ("3 10\n1 1\n1 1\n1 1\n1 0\n", |e| {
            matches!(
                e,
                E::SolutionLength {
                    line: 5,
                    items: 3,
                    found: 2
                }
            )
        }),
        (
            "3 10\n1 1\n1 1\n1 1\n1 2 0\n",
            |e| matches!(e, E::BadSolutionValue { line: 5, token } if token == "2"),
        ),
        ("2 10\n1 6\n1 6\n1 1\n", |e| {
            matches!(e, E::InfeasibleSolution { line: 4 })
        }),
        // The `.kp` form still names its lines.
        ("10\n5\n1 x\n", |e| {
            matches!(e, E::MalformedNumber { line: 3, .. })
        }),
    ];
    for (text, expected) in cases {
        let error = error_both(text);
        assert!(expected(&error), "{text:?}: unexpected {error:?}");
        let message = error.to_string();
        assert!(!message.contains('\n'), "{message}");
        if !matches!(error, E::MissingHeader | E::EmptyInstance) {
            assert!(message.starts_with("line "), "{text:?}: {message}");
        }
    }
}

/// `../shared/data/knapsack/<relative>` (tests may read the shared data; a missing
/// file fails the test).
fn shared(relative: &str) -> String {
    let path = format!(
        "{}/../../../shared/data/knapsack/{relative}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `instance` written in Pisinger's format (with `packing` as its `x` column) and in
/// the large-scale format (with the packing as its last line).
fn write_published(
    instance: &KnapsackInstance,
    optimum: Decimal,
    packing: &[usize],
) -> (String, String) {
    let n = instance.item_count();
    let taken = |i: usize| u8::from(packing.contains(&i));
    let mut pisinger = format!(
        "shared_1\nn {n}\nc {}\nz {optimum}\ntime 0.00\n",
        instance.capacity()
    );
    let mut large = format!("{n} {}\n", instance.capacity());
    for i in 0..n {
        let (p, w) = (instance.profit(i), instance.weight(i));
        pisinger += &format!("{},{p},{w},{}\n", i + 1, taken(i));
        large += &format!("{p} {w}\n");
    }
    pisinger += "-----\n\n";
    let values: Vec<String> = (0..n).map(|i| taken(i).to_string()).collect();
    large += &values.join(" ");
    (pisinger, large)
}

#[test]
fn shared_instances_round_trip_through_every_format() {
    let files = [
        "knapPI_1_50_1000_1.kp",
        "knapsackTest1.kp",
        "low-dimensional/f1_l-d_kp_10_269.txt",
        "low-dimensional/f5_l-d_kp_15_375.txt",
        "low-dimensional/f8_l-d_kp_23_10000.txt",
    ];
    for file in files {
        let text = shared(file);
        let format = if file.ends_with(".kp") {
            KnapsackFormat::Kp
        } else {
            KnapsackFormat::LowDimensional
        };
        let original = parse_as(&text, format).unwrap_or_else(|e| panic!("{file}: {e}"));
        let answer = knapsack(&original, &SearchConfig::sequential()).answer;
        let (pisinger, large) = write_published(&original, answer.profit, &answer.items);
        for text in [pisinger, large].iter().flat_map(|t| both_endings(t)) {
            let copy = parse_knapsack(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(copy.profit_units(), original.profit_units(), "{file}");
            assert_eq!(copy.weight_units(), original.weight_units(), "{file}");
            assert_eq!(copy.capacity(), original.capacity(), "{file}");
            assert_eq!(copy.stated_solution(), Some(&answer.items[..]), "{file}");
            let (profit, _) = copy.totals(&answer.items).expect("distinct items");
            assert_eq!(profit, answer.profit, "{file}");
        }
    }
}
