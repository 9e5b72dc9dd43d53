//! `magpie search` end to end: answers on the shared instances, the JSON record, and
//! bad input ending in one line on stderr with a non-zero exit (never a panic).

use std::process::{Command, Output};

fn data(relative: &str) -> String {
    format!(
        "{}/../../../shared/data/{relative}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn magpie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(args)
        .env("MAGPIE_NUM_THREADS", "2")
        .output()
        .expect("the magpie binary runs")
}

fn stdout_of(args: &[&str]) -> String {
    let out = magpie(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Runs a command that must fail with exit status 1; returns its single stderr line.
fn error_of(args: &[&str]) -> String {
    failure_of(magpie(args), args, 1)
}

/// Checks that `out` (of `args`) failed with exit status `code` and one stderr line,
/// which it returns.
fn failure_of(out: Output, args: &[&str], code: i32) -> String {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?} should fail with exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8(out.stderr).expect("utf-8 stderr");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: not one line: {stderr}"
    );
    assert!(stderr.starts_with("magpie: error: "), "{stderr}");
    stderr
}

#[test]
fn every_app_prints_its_answer() {
    let clique = data("dimacs/brock200_4.clq");
    let out = stdout_of(&[
        "search",
        "clique",
        &clique,
        "--skeleton",
        "depth-bounded",
        "-d",
        "2",
    ]);
    assert!(out.contains("maximum clique size 17"), "{out}");
    assert!(
        out.contains("skeleton depth-bounded (spawn depth 2), 2 threads"),
        "{out}"
    );
    let out = stdout_of(&[
        "search",
        "clique",
        &clique,
        "--decide",
        "18",
        "--no-progress",
    ]);
    assert!(out.contains("no clique of size 18"), "{out}");
    let out = stdout_of(&[
        "search",
        "semigroups",
        "-g",
        "15",
        "--skeleton",
        "budget",
        "-b",
        "10",
    ]);
    assert!(
        out.contains("2857 numerical semigroups of genus 15"),
        "{out}"
    );
    // Without -d, depth-bounded picks a spawn depth that suits the application.
    let out = stdout_of(&["search", "semigroups", "15", "--skeleton", "depth-bounded"]);
    assert!(out.contains("(spawn depth 10)"), "{out}");
    let out = stdout_of(&[
        "search",
        "uts",
        "default",
        "--skeleton",
        "stack-stealing",
        "--steal-all",
    ]);
    assert!(out.contains("1732 nodes, 1050 leaves, depth 6"), "{out}");
    let knapsack = data("knapsack/knapsackTest1.kp");
    let out = stdout_of(&["search", "knapsack", &knapsack, "--policy", "last"]);
    assert!(out.contains("6925"), "{out}");
    assert!(out.contains("matches"), "{out}");
    assert!(out.contains("(read as kp)"), "{out}");
    let out = stdout_of(&[
        "search",
        "tsp",
        &data("tsplib/burma14.tsp"),
        "--skeleton",
        "sequential",
    ]);
    assert!(out.contains("3323"), "{out}");
}

#[test]
fn json_output_is_one_parsable_record() {
    let out = stdout_of(&[
        "search",
        "tsp",
        &data("tsplib/gr17.tsp"),
        "--json",
        "--threads",
        "2",
    ]);
    assert_eq!(out.lines().count(), 1, "{out}");
    let record: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(record["app"], "tsp");
    assert_eq!(record["answer"]["length"], 2085);
    assert_eq!(record["run"]["threads"], 2);
    assert_eq!(record["run"]["skeleton"], "stack-stealing");
    assert!(record["stats"]["nodes_expanded"].as_u64().unwrap() > 0);
    assert!(record["stats"]["pool"]["stolen_percent"].is_number());
}

/// The JSON record carries what the text shows: the instance's size and the pool's
/// worker table (every column, per worker and in total).
#[test]
fn json_record_holds_what_the_text_shows() {
    let record = |args: &[&str]| -> serde_json::Value {
        let out = stdout_of(&[args, &["--json", "--threads", "2"]].concat());
        serde_json::from_str(&out).expect("valid JSON")
    };
    let tsp = record(&["search", "tsp", &data("tsplib/gr17.tsp")]);
    assert_eq!(tsp["answer"]["name"], "gr17", "{tsp}");
    assert_eq!(tsp["answer"]["cities"], 17, "{tsp}");
    let pool = &tsp["stats"]["pool"];
    for column in ["tasks_run", "steals", "spills", "shares", "parks", "wakes"] {
        assert!(pool[column].is_u64(), "{column}: {pool}");
    }
    let workers = pool["workers"].as_array().expect("per-worker rows");
    assert_eq!(workers.len(), 2, "{pool}");
    assert!(workers.iter().all(|w| w["wakes"].is_u64()), "{pool}");
    let clique = record(&["search", "clique", &data("dimacs/brock200_4.clq")]);
    assert_eq!(clique["answer"]["graph_vertices"], 200, "{clique}");
    assert_eq!(clique["answer"]["graph_edges"], 13089, "{clique}");
    let knapsack = &data("knapsack/knapsackTest1.kp");
    let knapsack = record(&["search", "knapsack", knapsack]);
    assert!(
        knapsack["answer"]["item_count"].as_u64() > Some(0),
        "{knapsack}"
    );
    assert!(knapsack["answer"]["capacity"].is_string(), "{knapsack}");
    assert_eq!(knapsack["answer"]["format"], "kp", "{knapsack}");
}

#[test]
fn bad_input_is_one_line_and_a_failure() {
    let dir = std::env::temp_dir().join(format!("magpie-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let missing = dir.join("missing.clq").display().to_string();
    assert!(error_of(&["search", "clique", &missing]).contains("missing.clq"));
    let bad_header = write("header.clq", "p edge x 3\n");
    assert!(error_of(&["search", "clique", &bad_header]).contains("line 1"));
    let out_of_range = write("range.clq", "p edge 3 1\ne 1 4\n");
    error_of(&["search", "clique", &out_of_range]);
    let empty = write("empty.clq", "c nothing here\n");
    error_of(&["search", "clique", &empty]);
    let negative = write("negative.kp", "10\n0\n5 -3\n");
    error_of(&["search", "knapsack", &negative]);
    let empty_tsp = write("empty.tsp", "NAME: x\nTYPE: TSP\nEOF\n");
    error_of(&["search", "tsp", &empty_tsp]);
    error_of(&["search", "uts", "t=1,d=oops"]);
    error_of(&["search", "semigroups", "-g", "1000"]);
    std::fs::remove_dir_all(&dir).ok();
}

/// `--format` overrides the guess: a `.kp` file (capacity 3, optimum 7) under another
/// extension whose capacity equals its item count reads as a two-line header
/// (3 items, capacity 7) unless told.
#[test]
fn knapsack_format_flag_overrides_the_guess() {
    let path = std::env::temp_dir().join(format!("magpie-format-{}.dat", std::process::id()));
    std::fs::write(&path, "3\n7\n6 4\n7 3\n5 5\n").unwrap();
    let file = path.display().to_string();
    let guessed = stdout_of(&["search", "knapsack", &file, "--no-progress"]);
    assert!(
        guessed.contains("(read as large-scale/low-dimensional)"),
        "{guessed}"
    );
    assert!(guessed.contains("best profit 13"), "{guessed}");
    let told = stdout_of(&[
        "search",
        "knapsack",
        &file,
        "--format",
        "kp",
        "--no-progress",
    ]);
    assert!(told.contains("capacity 3 (read as kp)"), "{told}");
    assert!(told.contains("best profit 7"), "{told}");
    assert!(told.contains("matches"), "{told}");
    // The file is not in the named format: an error naming it, exit 1.
    assert!(error_of(&["search", "knapsack", &file, "--format", "knappi"]).contains(&file));
    std::fs::remove_file(&path).ok();
}

/// A bad file is named in its error line even when its name also occurs in the reason:
/// files `n` and `e` given as relative paths ("line 3: `x` is not a number" holds an
/// `n`, "edge endpoint" an `e`) were reported without their name.
#[test]
fn bad_input_names_the_file_even_when_the_reason_contains_its_name() {
    let dir = std::env::temp_dir().join(format!("magpie-cli-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("n"), "10\n13\n6 x\n").unwrap();
    std::fs::write(dir.join("e"), "p edge 3 1\ne 1 4\n").unwrap();
    for (app, file, expected) in [
        (
            "knapsack",
            "n",
            "magpie: error: n: line 3: `x` is not a number",
        ),
        ("clique", "e", "magpie: error: e: line 2: edge endpoint 4"),
    ] {
        let args = ["search", app, file];
        let out = Command::new(env!("CARGO_BIN_EXE_magpie"))
            .args(args)
            .current_dir(&dir)
            .env("MAGPIE_NUM_THREADS", "2")
            .output()
            .expect("the magpie binary runs");
        let line = failure_of(out, &args, 1);
        assert!(line.starts_with(expected), "{args:?}: {line}");
    }
    // A file that cannot be read is still named once.
    let args = ["search", "tsp", "missing"];
    let out = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("the magpie binary runs");
    let line = failure_of(out, &args, 1);
    assert!(
        line.starts_with("magpie: error: cannot read missing: "),
        "{line}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Flags that contradict each other are usage errors: exit status 2 (as the README
/// says, and as clap's own usage errors), one line, no search.
#[test]
fn usage_errors_exit_with_2() {
    let usage = |args: &[&str]| failure_of(magpie(args), args, 2);
    usage(&["search", "semigroups", "5", "-d", "2", "-b", "3"]);
    usage(&[
        "search",
        "semigroups",
        "5",
        "--skeleton",
        "budget",
        "-d",
        "2",
    ]);
    usage(&[
        "search",
        "uts",
        "default",
        "--skeleton",
        "sequential",
        "--steal-all",
    ]);
    let knapsack = data("knapsack/knapsackTest1.kp");
    usage(&["search", "knapsack", &knapsack, "--instance", "2"]);
    // The tour's search is a search: the same usage error, the same status (it was 1).
    for args in [
        &["search", "semigroups", "5"][..],
        &["tour", "--out", "unused"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_magpie"))
            .args(args)
            .env("MAGPIE_NUM_THREADS", "zero")
            .output()
            .expect("the magpie binary runs");
        assert!(failure_of(out, args, 2).contains("MAGPIE_NUM_THREADS"));
    }
}

/// A flag of another skeleton names the skeleton as it is written on the command line
/// (`depth-bounded`), not as the program's enum spells it (`DepthBounded`, which
/// `--skeleton` refuses).
#[test]
fn stray_flags_name_the_skeleton_as_the_command_line_does() {
    for (flags, expected) in [
        (
            &["--skeleton", "depth-bounded", "--steal-all"][..],
            "--steal-all does not apply to --skeleton depth-bounded",
        ),
        (
            &["--skeleton", "stack-stealing", "-b", "3"][..],
            "-b does not apply to --skeleton stack-stealing",
        ),
        (
            &["--skeleton", "sequential", "-d", "2"][..],
            "-d does not apply to --skeleton sequential",
        ),
    ] {
        let args = [&["search", "semigroups", "5"][..], flags].concat();
        let line = failure_of(magpie(&args), &args, 2);
        assert!(line.ends_with(&format!("{expected}\n")), "{args:?}: {line}");
    }
}

/// Runs `magpie search clique FILE` under `ulimit -v KIB` (address space in KiB).
fn clique_under_ulimit(name: &str, dimacs: &str, kib: u64) -> Output {
    let path = std::env::temp_dir().join(format!("magpie-oom-{}-{name}.clq", std::process::id()));
    std::fs::write(&path, dimacs).expect("temp file written");
    let script = format!("ulimit -v {kib} && exec \"$0\" search clique \"$1\" --threads 2");
    let out = Command::new("sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_magpie")])
        .arg(&path)
        .output()
        .expect("sh runs");
    let _ = std::fs::remove_file(&path);
    out
}

/// A graph of 50,000 vertices needs a 312 MB adjacency matrix; under a 250 MB address
/// space the search must end with the out-of-memory message and exit 3, not an abort
/// (the same limit is enough for a small graph, so the limit is not what fails).
#[cfg(target_os = "linux")]
#[test]
fn running_out_of_memory_is_a_clear_error_with_exit_3() {
    let small = clique_under_ulimit("small", "p edge 5 2\ne 1 2\ne 2 3\n", 250_000);
    assert!(
        small.status.success(),
        "a 5-vertex graph fails under the limit: {}",
        String::from_utf8_lossy(&small.stderr)
    );
    let big = clique_under_ulimit("big", "p edge 50000 1\ne 1 2\n", 250_000);
    let stderr = String::from_utf8_lossy(&big.stderr);
    assert_eq!(big.status.code(), Some(3), "stderr: {stderr}");
    assert!(stderr.contains("out of memory"), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "stderr: {stderr}");
}
