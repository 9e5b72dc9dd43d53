//! The MPI build under `mpirun`: every app × coordination on 1–4 ranks with 1–2
//! threads each gives exactly the single-process answer; 50 randomized runs; bad
//! input on some ranks and a rank killed mid-run end every rank with a clear error.
//!
//! Runs only with `--features mpi` (`scripts/test-all.sh` does so when `mpirun` is
//! installed).
#![cfg(feature = "mpi")]

use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

const MAGPIE: &str = env!("CARGO_BIN_EXE_magpie");

fn data(relative: &str) -> String {
    format!(
        "{}/../../../shared/data/{relative}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `mpirun` with the flags a root user on a small machine needs, and without Open
/// MPI's default binding of each rank to one core (ranks have two threads here); with
/// the session directory it must keep while it runs.
///
/// Each run gets a `TMPDIR` of its own: Open MPI 4 keeps its session files in
/// `$TMPDIR/ompi.HOST.UID`, and two runs of these tests at once (the harness runs
/// tests in parallel) raced to create and remove that directory ("A call to mkdir was
/// unable to create the desired directory ... File exists", and the run failed).
fn mpirun(ranks: usize) -> (Command, SessionDir) {
    let session = SessionDir::new();
    let mut command = Command::new("mpirun");
    command
        .env("TMPDIR", &session.0)
        .args([
            "--allow-run-as-root",
            "--oversubscribe",
            "--bind-to",
            "none",
            "-n",
        ])
        .arg(ranks.to_string());
    (command, session)
}

/// A directory of one `mpirun`'s own, removed with everything in it when dropped.
struct SessionDir(std::path::PathBuf);

impl SessionDir {
    fn new() -> Self {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("magpie-mpi-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a session directory for mpirun");
        Self(dir)
    }
}

impl Drop for SessionDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The JSON record of `magpie search ARGS --json` on `ranks` ranks (0: no mpirun).
fn search(ranks: usize, args: &[String]) -> Value {
    let (mut command, _session) = if ranks == 0 {
        (Command::new(MAGPIE), None)
    } else {
        let (mut c, session) = mpirun(ranks);
        c.arg(MAGPIE);
        (c, Some(session))
    };
    let output = command
        .arg("search")
        .args(args)
        .args(["--json", "--no-progress"])
        .output()
        .expect("mpirun runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{ranks} ranks, {args:?}: {}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with('{')).collect();
    assert_eq!(lines.len(), 1, "one record, printed by rank 0: {stdout}");
    serde_json::from_str(lines[0]).unwrap()
}

/// The apps' searches: arguments, and how to read the exact answer from the record.
fn workloads() -> Vec<Vec<String>> {
    let owned = |args: &[&str]| args.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        owned(&["clique", &data("dimacs/brock200_4.clq")]),
        owned(&["clique", &data("dimacs/C125.9.clq"), "--decide", "34"]),
        owned(&["clique", &data("dimacs/C125.9.clq"), "--decide", "35"]),
        owned(&["semigroups", "-g", "15"]),
        owned(&["uts", "t=1,a=3,d=7,b=4,r=19"]),
        owned(&["knapsack", &data("knapsack/knapPI_1_50_1000_1.kp")]),
        owned(&["tsp", &data("tsplib/gr17.tsp")]),
    ]
}

/// The part of a record that must not depend on how the search ran: the answer of
/// enumerations and optimisations' values; for a decision, whether a clique exists
/// (the witness is checked separately: any valid one will do).
fn exact(record: &Value) -> Value {
    let answer = &record["answer"];
    match record["app"].as_str() {
        Some("clique") if answer.get("exists").is_some() => answer["exists"].clone(),
        Some("clique") => answer["size"].clone(),
        Some("knapsack") => answer["profit"].clone(),
        Some("tsp") => answer["length"].clone(),
        _ => answer.clone(),
    }
}

fn coordination_flags(which: usize) -> Vec<String> {
    let flags: &[&str] = match which {
        0 => &["--skeleton", "depth-bounded", "-d", "2"],
        1 => &["--skeleton", "budget", "-b", "100"],
        _ => &["--skeleton", "stack-stealing"],
    };
    flags.iter().map(|s| s.to_string()).collect()
}

#[test]
fn every_app_and_coordination_on_one_to_four_ranks_matches_one_process() {
    for workload in workloads() {
        let expected = exact(&search(
            0,
            &[
                workload.clone(),
                vec!["--skeleton".into(), "sequential".into()],
            ]
            .concat(),
        ));
        for ranks in 1..=4 {
            for threads in 1..=2 {
                for which in 0..3 {
                    let mut args = workload.clone();
                    args.extend(coordination_flags(which));
                    args.extend(["--threads".to_string(), threads.to_string()]);
                    let record = search(ranks, &args);
                    assert_eq!(exact(&record), expected, "{ranks} ranks: {args:?}");
                    assert_eq!(record["run"]["ranks"], ranks, "{args:?}");
                    let per_rank = record["stats"]["ranks"]["per_rank"].as_array().unwrap();
                    assert_eq!(per_rank.len(), ranks);
                    if let Some(vertices) = record["answer"]["vertices"].as_array() {
                        assert!(!vertices.is_empty(), "a witness: {record}");
                    }
                }
            }
        }
    }
}

#[test]
fn every_node_policy_matches_one_process() {
    for workload in workloads() {
        let sequential = [
            workload.clone(),
            vec!["--skeleton".into(), "sequential".into()],
        ];
        let expected = exact(&search(0, &sequential.concat()));
        for (i, policy) in ["random", "depthpool", "performance"]
            .into_iter()
            .enumerate()
        {
            for ranks in 2..=4 {
                let mut args = workload.clone();
                args.extend(coordination_flags((i + ranks) % 3));
                args.extend(["--node-policy".to_string(), policy.to_string()]);
                let record = search(ranks, &args);
                assert_eq!(exact(&record), expected, "{ranks} ranks: {args:?}");
                assert_eq!(record["run"]["node_policy"], policy, "{args:?}");
            }
        }
    }
}

#[test]
fn fifty_random_runs_are_all_exact() {
    let workloads = workloads();
    let expected: Vec<Value> = workloads
        .iter()
        .map(|w| {
            exact(&search(
                0,
                &[w.clone(), vec!["--skeleton".into(), "sequential".into()]].concat(),
            ))
        })
        .collect();
    let mut rng = magpie::Rng::new(0x5eed);
    for run in 0..50 {
        let which = rng.below(workloads.len());
        let ranks = 1 + rng.below(4);
        let mut args = workloads[which].clone();
        args.extend(coordination_flags(rng.below(3)));
        args.extend(["--threads".to_string(), (1 + rng.below(2)).to_string()]);
        let record = search(ranks, &args);
        assert_eq!(
            exact(&record),
            expected[which],
            "run {run}, {ranks} ranks: {args:?}"
        );
    }
}

/// Waits for `child`, killing it if it runs longer than `limit` (a hang must fail
/// the test, not hang it too); returns its output.
fn wait_at_most(child: Child, limit: Duration) -> Output {
    let pid = child.id().to_string();
    let (done, finished) = mpsc::channel::<()>();
    let watchdog = thread::spawn(move || {
        if finished.recv_timeout(limit).is_err() {
            let _ = Command::new("kill").args(["-9", &pid]).status();
        }
    });
    let output = child.wait_with_output().unwrap();
    let _ = done.send(());
    watchdog.join().unwrap();
    output
}

/// Runs `command` for at most `limit`; returns its output and how long it ran.
fn run_with_limit(mut command: Command, limit: Duration) -> (Output, Duration) {
    let start = Instant::now();
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let output = wait_at_most(child, limit);
    (output, start.elapsed())
}

#[test]
fn bad_input_on_some_ranks_ends_every_rank_with_one_error_line() {
    // MPMD: rank 0 gets a good file, ranks 1 and 2 a missing one.
    let (mut command, _session) = mpirun(1);
    command
        .args([
            MAGPIE,
            "search",
            "clique",
            &data("dimacs/brock200_4.clq"),
            ":",
        ])
        .args([
            "-n",
            "2",
            MAGPIE,
            "search",
            "clique",
            "/nonexistent/graph.clq",
        ]);
    let (output, took) = run_with_limit(command, Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("magpie: error:"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains("rank 1") && errors[0].contains("/nonexistent/graph.clq"),
        "{stderr}"
    );
}

/// Flags every rank rejects end the run with one error line (printed by rank 0, not
/// once per rank) and a failure; a slow rank the run does not have is such a flag.
#[test]
fn usage_errors_on_every_rank_print_one_line() {
    let knapsack = data("knapsack/knapPI_1_50_1000_1.kp");
    let cases: [&[&str]; 4] = [
        &["semigroups", "5", "-d", "2", "-b", "3"],
        &["semigroups", "5", "--slow-ranks", "1", "--slowdown", "0.5"],
        &["semigroups", "5", "--slow-ranks", "2", "--slowdown", "3"],
        &["knapsack", &knapsack, "--instance", "4"],
    ];
    for args in cases {
        let (mut command, _session) = mpirun(2);
        command
            .arg(MAGPIE)
            .arg("search")
            .args(args)
            .arg("--no-progress");
        let (output, _) = run_with_limit(command, Duration::from_secs(30));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}: {stderr}");
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("magpie: error:"))
            .collect();
        assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
    }
}

/// Without mpirun there are no ranks to slow: `--slow-ranks` is a usage error (it was
/// ignored, and the run looked like an imbalanced one).
#[test]
fn slow_ranks_without_mpirun_is_a_usage_error() {
    let output = Command::new(MAGPIE)
        .args(["search", "semigroups", "5", "--slow-ranks", "0"])
        .args(["--slowdown", "2", "--no-progress"])
        .output()
        .expect("magpie runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("mpirun"), "{stderr}");
}

#[test]
fn a_rank_killed_mid_run_ends_the_others_with_an_error() {
    let (mut command, _session) = mpirun(3);
    command.args([
        MAGPIE,
        "search",
        "semigroups",
        "-g",
        "40",
        "--skeleton",
        "budget",
    ]);
    let start = Instant::now();
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mpirun_pid = child.id();
    // Wait for the ranks to start searching, then kill one of them.
    thread::sleep(Duration::from_secs(2));
    let ranks = Command::new("pgrep")
        .args(["-P", &mpirun_pid.to_string(), "magpie"])
        .output()
        .unwrap();
    let ranks = String::from_utf8_lossy(&ranks.stdout);
    let victim = ranks.lines().last().expect("the ranks are running");
    assert!(Command::new("kill")
        .args(["-9", victim])
        .status()
        .unwrap()
        .success());
    // The hang guard stops with the run: a detached one killed whatever process had
    // the pid 60 s later.
    let output = wait_at_most(child, Duration::from_secs(60));
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(took < Duration::from_secs(32), "took {took:?}: {stderr}");
    assert!(
        stderr.contains("signal 9") || stderr.contains("Killed") || stderr.contains("killed"),
        "a clear reason: {stderr}"
    );
}
