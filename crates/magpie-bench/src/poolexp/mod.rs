//! The BWoS pool experiment (OSDI'23 §6.2.3, Fig. 12): `magpie bench poolexp`.
//!
//! `N` workers each own a queue of capacity `C`; a round puts until full, gets until
//! empty, then makes `k · C` single-item steal attempts on the other queues, each victim
//! chosen by a policy of [`magpie::policy`]; throughput = (puts + gets + steals) / wall
//! time. magpie's queues, crossbeam-deque and st3 run the same harness and policy view.
//! Where the paper is silent (attempts count even on an empty victim, stolen items are
//! consumed, no injector, `N = 8` unpinned and oversubscribed, uniform topology) the
//! choice is stated in the output.

pub mod charts;
pub mod exp;
pub mod report;
pub mod run;
pub mod steal;
pub mod tally;
pub mod view;

use std::time::Duration;

use crate::{affinity, BenchError, Outcome, RunOptions};

/// Queue capacity `C`, as in the paper (and the queue benchmark).
pub const CAPACITY: usize = crate::queue::CAPACITY;

/// Worker counts: 2 (one per core here) and the paper's 8.
pub const WORKERS: [usize; 2] = [2, 8];

/// Sizes of the experiment, derived from `--quick` and `--reps`.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub cap: usize,
    pub reps: usize,
    /// Timed duration of one run (each worker finishes the round it is in).
    pub duration: Duration,
    /// Cores available to this process.
    pub cores: usize,
    /// Quick mode: `N = 8` runs only the random policy and magpie's best policies at
    /// `N = 2` (every policy otherwise).
    pub quick: bool,
}

impl Params {
    /// Quick: 3 repetitions of 30 ms runs; default: 7 repetitions of 150 ms runs.
    pub fn new(opts: &RunOptions) -> Params {
        Params {
            cap: CAPACITY,
            reps: opts.reps_or(3, 7),
            duration: Duration::from_millis(if opts.quick { 30 } else { 150 }),
            cores: affinity::available_cores(),
            quick: opts.quick,
        }
    }
}

/// Runs the experiment for `N = 2` then `N = 8`, prints tables and target checks, and
/// writes the CSVs, SVGs and report.txt into the output directory.
pub fn run(opts: &RunOptions) -> Result<Outcome, BenchError> {
    let mut out = opts.out()?;
    let p = Params::new(opts);
    let all = magpie::policy::NAMES.to_vec();
    for name in &all {
        exp::policy(name)?;
    }
    out.say(&environment_note(&p, &all));

    let mut runs = Vec::new();
    let mut results = report::Results::default();
    for workers in WORKERS {
        let chosen = if p.quick && workers > p.cores {
            results.quick_policies(WORKERS[0])
        } else {
            all.clone()
        };
        let cells = exp::cells(workers, &chosen);
        let label = format!("N = {workers}");
        let samples = exp::measure(&cells, &p, &mut runs, &label)?;
        results.push(cells, samples)?;
    }

    report::render(&results, &p, &all, &runs, &mut out)?;
    out.finish("report.txt")
}

/// One paragraph about the machine, the sizes and the choices made.
fn environment_note(p: &Params, policies: &[&str]) -> String {
    let mut s = format!(
        "poolexp bench (BWoS §6.2.3): C = {} u64 items per queue, k in {:?} % of C, N in {:?}; \
         {} reps of {} ms per cell; {} core(s) available; {}\n\
         policies: {}\n\
         round = put until full, get until empty, k*C single-item steal attempts on the other \
         workers' queues (victim chosen by the policy; stolen items consumed, not re-queued); \
         throughput = (puts + gets + successful steals) / wall time\n\
         pinning: one worker per core when N <= {} cores; larger N unpinned and OVERSUBSCRIBED\n",
        p.cap,
        exp::K_PCT,
        WORKERS,
        p.reps,
        p.duration.as_millis(),
        p.cores,
        affinity::load_note(p.cores, "see spread % and min cpu %"),
        policies.join(", "),
        p.cores
    );
    if p.quick && WORKERS.iter().any(|&n| n > p.cores) {
        s.push_str(
            "quick mode: an N above the cores runs only the random policy and \
             magpie's best policies at N = 2 (k = 100 %); the full mode runs every policy at \
             every N\n",
        );
    }
    s
}
