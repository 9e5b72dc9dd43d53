//! Single-queue microbenchmarks of BWoS (OSDI'23 §6.2): [`exp1`] (owner only) and
//! [`exp2`] (owner and one thief), every [`Impl`] on the same loops ([`run`](run::run)).

pub mod calibrate;
pub mod exp1;
pub mod exp2;
pub mod impls;
pub mod magpie;
pub mod rows;
pub mod run;

use crate::{affinity, BenchError, Outcome, RunOptions};

use magpie::{MagpieFifo, MagpieLifo};

/// Queue capacity `C` (items), as in the paper: 8 blocks × 1024 entries.
pub const CAPACITY: usize = 8192;

/// A run whose threads were on-CPU for less than this share of wall time is counted as
/// disturbed (preempted by other load) in the notes.
pub const DISTURBED: f64 = 0.9;

/// Share of an experiment's planned runs that may be repeated because of preemption.
/// On a persistently busy machine repeating does not help, so the extra time is capped.
pub const RETRY_BUDGET: f64 = 0.15;

/// Retry budget for `runs` planned runs (see [`RETRY_BUDGET`]).
pub fn retry_budget(runs: usize) -> usize {
    (runs as f64 * RETRY_BUDGET).ceil() as usize
}

/// A CPU share for the CSV files: 3 decimals, empty when unavailable.
fn cpu_share(share: Option<f64>) -> String {
    share.map_or(String::new(), |c| format!("{c:.3}"))
}

/// Runs that need a note under an experiment's table.
#[derive(Default)]
pub struct Notes {
    runs: usize,
    retried: usize,
    disturbed: usize,
    unpinned: usize,
}

impl Notes {
    /// Counts a run of `tries` tries, whether its threads were pinned and the lowest CPU
    /// share of its threads.
    pub fn count(&mut self, tries: usize, pinned: bool, cpu: Option<f64>) {
        self.runs += 1;
        self.retried += tries - 1;
        self.disturbed += usize::from(cpu.is_some_and(|c| c < DISTURBED));
        self.unpinned += usize::from(!pinned);
    }

    /// The `NOTE:` lines; `who` names the threads, `pins` where they should be pinned.
    pub fn render(&self, who: &str, pins: &str) -> String {
        let mut text = String::new();
        if self.retried > 0 {
            text += &format!(
                "NOTE: {} run(s) were repeated once because a thread was preempted (CSV column tries; at most {:.0}% of runs)\n",
                self.retried,
                RETRY_BUDGET * 100.0
            );
        }
        if self.disturbed > 0 {
            text += &format!(
                "NOTE: {} of {} run(s) had the {who} on-CPU < {:.0}% of wall time (preempted: machine busy, expect noise)\n",
                self.disturbed,
                self.runs,
                DISTURBED * 100.0
            );
        }
        if self.unpinned > 0 {
            text += &format!("NOTE: {} run(s) could not pin {pins}\n", self.unpinned);
        }
        text
    }
}

/// Queue discipline of the owner's own end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// Owner gets the most recently put item.
    Lifo,
    /// Owner gets the oldest item.
    Fifo,
}

impl Flavour {
    /// Both flavours.
    pub const ALL: [Flavour; 2] = [Flavour::Lifo, Flavour::Fifo];

    /// "LIFO" / "FIFO".
    pub fn name(self) -> &'static str {
        match self {
            Flavour::Lifo => "LIFO",
            Flavour::Fifo => "FIFO",
        }
    }
}

/// Implementation family, used to compare like with like across flavours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// magpie's BWoS queues.
    Magpie,
    /// `Vec` stack / `VecDeque` ring: single-threaded upper bound.
    Sequential,
    /// crossbeam-deque 0.8.
    Crossbeam,
    /// st3 0.4.
    St3,
}

impl Family {
    /// Families in display order.
    pub const ALL: [Family; 4] = [
        Family::Magpie,
        Family::Sequential,
        Family::Crossbeam,
        Family::St3,
    ];

    /// Legend name.
    pub fn name(self) -> &'static str {
        match self {
            Family::Magpie => "magpie",
            Family::Sequential => "sequential bound",
            Family::Crossbeam => "crossbeam-deque",
            Family::St3 => "st3",
        }
    }
}

/// One implementation under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Impl {
    pub family: Family,
    pub flavour: Flavour,
}

impl Impl {
    /// All implementations, LIFO first.
    pub fn all() -> Vec<Impl> {
        Flavour::ALL
            .iter()
            .flat_map(|&flavour| {
                Family::ALL
                    .iter()
                    .map(move |&family| Impl { family, flavour })
            })
            .collect()
    }

    /// Short unique name, e.g. `magpie-lifo`, `seq-vec`, `st3-fifo`.
    pub fn name(self) -> &'static str {
        match (self.family, self.flavour) {
            (Family::Magpie, Flavour::Lifo) => "magpie-lifo",
            (Family::Magpie, Flavour::Fifo) => "magpie-fifo",
            (Family::Sequential, Flavour::Lifo) => "seq-vec",
            (Family::Sequential, Flavour::Fifo) => "seq-vecdeque",
            (Family::Crossbeam, Flavour::Lifo) => "crossbeam-lifo",
            (Family::Crossbeam, Flavour::Fifo) => "crossbeam-fifo",
            (Family::St3, Flavour::Lifo) => "st3-lifo",
            (Family::St3, Flavour::Fifo) => "st3-fifo",
        }
    }

    /// Whether a thief can steal from it.
    pub fn stealable(self) -> bool {
        self.family != Family::Sequential
    }

    /// One measurement; if a thread was preempted (CPU share below [`DISTURBED`]) and
    /// `retries` still has budget, the run is repeated once and the less disturbed of the
    /// two is kept. Returns the run and the number of tries (1 or 2). Every kept run is
    /// reported; nothing else is filtered.
    pub fn measure(
        self,
        cap: usize,
        rounds: u64,
        pause: Option<f64>,
        retries: &mut usize,
    ) -> Result<(run::StealRun, usize), BenchError> {
        let first = self.run(cap, rounds, pause)?;
        let share = |r: &run::StealRun| r.min_cpu_share().unwrap_or(1.0);
        if share(&first) >= DISTURBED || *retries == 0 {
            return Ok((first, 1));
        }
        *retries -= 1;
        let second = self.run(cap, rounds, pause)?;
        Ok((
            if share(&second) > share(&first) {
                second
            } else {
                first
            },
            2,
        ))
    }

    /// Runs one measurement of this implementation (see [`run::run`]).
    pub fn run(
        self,
        cap: usize,
        rounds: u64,
        pause: Option<f64>,
    ) -> Result<run::StealRun, BenchError> {
        use impls::*;
        match (self.family, self.flavour) {
            (Family::Magpie, Flavour::Lifo) => run::run::<MagpieLifo>(cap, rounds, pause),
            (Family::Magpie, Flavour::Fifo) => run::run::<MagpieFifo>(cap, rounds, pause),
            (Family::Sequential, Flavour::Lifo) => run::run::<VecStack>(cap, rounds, pause),
            (Family::Sequential, Flavour::Fifo) => run::run::<Ring>(cap, rounds, pause),
            (Family::Crossbeam, Flavour::Lifo) => run::run::<CrossbeamLifo>(cap, rounds, pause),
            (Family::Crossbeam, Flavour::Fifo) => run::run::<CrossbeamFifo>(cap, rounds, pause),
            (Family::St3, Flavour::Lifo) => run::run::<St3Lifo>(cap, rounds, pause),
            (Family::St3, Flavour::Fifo) => run::run::<St3Fifo>(cap, rounds, pause),
        }
    }
}

/// Which experiment(s) to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Only {
    /// Experiment 1 only.
    Owner,
    /// Experiment 2 only.
    Thief,
}

/// Options of `magpie bench queue`.
#[derive(Clone, Debug)]
pub struct QueueOptions {
    pub common: RunOptions,
    /// Run one experiment only (`None` = both).
    pub only: Option<Only>,
}

/// Sizes of the experiments, derived from `--quick` and `--reps`.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Queue capacity.
    pub cap: usize,
    /// Repetitions per configuration.
    pub reps: usize,
    /// Timed rounds per run in experiment 1.
    pub exp1_rounds: u64,
    /// Timed rounds per run in experiment 2.
    pub exp2_rounds: u64,
    /// Rounds per calibration run in experiment 2.
    pub calib_rounds: u64,
    /// Maximum bisection steps per target when calibrating the thief pause.
    pub calib_steps: usize,
}

impl Params {
    /// Defaults: quick = 3 repetitions and short runs; otherwise 9 repetitions.
    pub fn new(opts: &RunOptions) -> Params {
        let quick = opts.quick;
        Params {
            cap: CAPACITY,
            reps: opts.reps_or(3, 9),
            exp1_rounds: if quick { 600 } else { 5000 },
            exp2_rounds: if quick { 300 } else { 2000 },
            calib_rounds: if quick { 120 } else { 500 },
            calib_steps: if quick { 5 } else { 8 },
        }
    }
}

/// Runs the queue experiments, prints tables and writes CSV + SVG into the output dir.
pub fn run(opts: &QueueOptions) -> Result<Outcome, BenchError> {
    let mut out = opts.common.out()?;
    let params = Params::new(&opts.common);
    out.say(&environment_note());
    if opts.only != Some(Only::Thief) {
        exp1::run(&params, &mut out)?;
    }
    if opts.only != Some(Only::Owner) {
        exp2::run(&params, &mut out)?;
    }
    out.finish("report.txt")
}

/// One line about the machine: cores, load, and whether the thief experiment can pin.
fn environment_note() -> String {
    let cores = affinity::available_cores();
    let mut s = format!(
        "queue bench: C = {CAPACITY} u64 items; {cores} core(s) available; {}",
        affinity::load_note(cores, "see the min cpu % columns")
    );
    if cores < 2 {
        s.push_str("\nWARNING: experiment 2 runs 2 threads on fewer than 2 cores; owner and thief will time-slice");
    }
    s.push('\n');
    s
}
