//! Benchmarks of the two-lock MPMC queue (`magpie_queue::twolock`), after section V of
//! the paper "two-lock queue optimizations" (throughput of `N` items through the queue
//! with `P` producers and `K` consumers, each optimization alone and combined).
//!
//! * [`throughput`]: `N` 8-byte items, `P ∈ {1, 2, 4}`, `K ∈ {1, 2}`; every paper
//!   configuration ([`configs::Impl`]) plus peers (`Mutex<VecDeque>`, crossbeam
//!   `SegQueue`, crossbeam-deque `Injector`, crossbeam `ArrayQueue`) in the same run.
//! * [`sides`]: push-only and pop-only runs with one or two threads, for the default and
//!   the lock-free peers: each side's cost alone and under contention (no target).
//! * [`batch`]: one consumer drains `N` items with `pop_batch(32)` vs 32 × `try_pop`.
//!
//! All implementations run the same monomorphised loops ([`mod@run`]); repetitions are
//! interleaved so a noisy machine's drift hits every implementation alike.

pub mod batch;
pub mod configs;
pub mod peers;
pub mod run;
pub mod sides;
pub mod throughput;

use std::fmt::Write as _;
use std::time::Duration;

use crate::queue::render_targets;
use crate::{affinity, output, BenchError, Outcome, RunOptions};

/// Sizes of the experiments, derived from `--quick` and `--reps`.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Items per throughput run.
    pub items: u64,
    /// Items per drain run (pop_batch experiment) and per one-side run.
    pub drain_items: u64,
    /// Repetitions per configuration.
    pub reps: usize,
    /// Cores available to this process.
    pub cores: usize,
    /// Run every implementation at every P,K point (else the full matrix only at
    /// P=1,K=1 and P=2,K=2; see [`throughput`]).
    pub full_matrix: bool,
    /// Time cap of one throughput run (see [`run::Limits::cap`]): about 5× the slowest
    /// normal run on a busy 2-core machine, so only collapsed configurations hit it.
    pub run_cap: Duration,
}

impl Params {
    /// Quick: 200k items, 3 repetitions; default: 2M items, 7 repetitions.
    pub fn new(quick: bool, reps: Option<usize>) -> Params {
        let cores = affinity::available_cores();
        if quick {
            Params {
                items: 200_000,
                drain_items: 200_000,
                reps: reps.unwrap_or(3),
                cores,
                full_matrix: true,
                run_cap: Duration::from_millis(250),
            }
        } else {
            Params {
                items: 2_000_000,
                drain_items: 2_000_000,
                reps: reps.unwrap_or(7),
                cores,
                full_matrix: true,
                run_cap: Duration::from_secs(1),
            }
        }
    }
}

/// Runs the three experiments, prints tables and writes CSV + SVG + report.txt.
pub fn run(opts: &RunOptions) -> Result<Outcome, BenchError> {
    if opts.reps == Some(0) {
        return Err(BenchError::Invalid("--reps must be at least 1".into()));
    }
    let dir = opts.out_dir.clone();
    output::prepare_dir(&dir)?;
    let params = Params::new(opts.quick, opts.reps);
    let env = environment_note(&params);
    println!("{env}");
    let mut report = env;
    let mut outcome = Outcome::default();
    for r in [
        throughput::run(&params, &dir)?,
        sides::run(&params, &dir)?,
        batch::run(&params, &dir)?,
    ] {
        print!("{}", r.text);
        report.push_str(&r.text);
        outcome.files.extend(r.files);
        outcome.targets.extend(r.targets);
    }
    let all = format!(
        "\n== twolock targets (all) ==\n{}",
        render_targets(&outcome.targets)
    );
    print!("{all}");
    report.push_str(&all);
    outcome
        .files
        .push(output::write_file(&dir, "report.txt", &report)?);
    Ok(outcome)
}

/// One paragraph about the machine: cores and load.
fn environment_note(p: &Params) -> String {
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "n/a".into());
    let mut s = String::new();
    let _ = write!(
        s,
        "twolock bench: N = {} u64 items per run, {} reps; {} core(s) available; load average (1 min) {load}",
        p.items, p.reps, p.cores
    );
    if let Ok(l) = load.parse::<f64>() {
        if l >= 0.5 {
            let _ = write!(
                s,
                "\nWARNING: machine busy before the run (load {l:.2} on {} cores): expect noise; see spread %",
                p.cores
            );
        }
    }
    s.push('\n');
    s
}
