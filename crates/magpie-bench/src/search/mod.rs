//! Search skeleton benchmarks (issue 5): `magpie bench search`.
//!
//! Overhead of the sequential skeleton against a hand-written solver (target ≤ 5 %
//! slower), speedup from 1 to 2 threads per coordination (target ≥ 1.8) and the victim
//! policies. The speedup clique is brock200_1 unless `MAGPIE_SEARCH_CLIQUE` names another
//! (brock400_2 takes ~7 min per sequential run here). Every answer is checked.

pub mod measure;
pub mod report;
pub mod workload;

use std::path::PathBuf;

use magpie_search::Coordination;

use crate::{BenchError, Outcome, RunOptions};
use measure::NamedCoordination;
use workload::Workload;

/// Instances and repetitions, derived from `--quick` and `--reps`.
pub struct Params {
    /// Reduced sizes (`--quick`).
    pub quick: bool,
    /// Repetitions per configuration (after one warm-up run).
    pub reps: usize,
    /// The shared data folder.
    pub data: PathBuf,
    /// Workloads of the overhead experiment.
    pub overhead: Vec<Workload>,
    /// Workloads of the speedup and policy experiments.
    pub speedup: Vec<Workload>,
    /// Coordinations of the speedup experiment.
    pub coordinations: Vec<NamedCoordination>,
    /// Coordinations of the policy experiment.
    pub policy_coordinations: Vec<NamedCoordination>,
    pub policies: Vec<&'static str>,
}

/// Depth-bounded with each workload's own spawn depth (see [`Workload::spawn_depth`]).
const DEPTH_BOUNDED: NamedCoordination = (
    "depth-bounded",
    Coordination::DepthBounded { spawn_depth: 0 },
);
const STACK_STEALING: NamedCoordination = (
    "stack-stealing",
    Coordination::StackStealing { steal_all: false },
);
const STACK_STEALING_ALL: NamedCoordination = (
    "stack-stealing all",
    Coordination::StackStealing { steal_all: true },
);
const BUDGET: NamedCoordination = ("budget", Coordination::Budget { backtracks: 1000 });

impl Params {
    /// Loads the instances (untimed).
    pub fn new(quick: bool, reps: Option<usize>) -> Result<Params, BenchError> {
        let data = crate::existing_data_dir()?;
        let clique = std::env::var("MAGPIE_SEARCH_CLIQUE").unwrap_or_else(|_| "brock200_1".into());
        let (overhead, speedup) = if quick {
            (
                vec![
                    Workload::clique(&data, "keller4")?,
                    Workload::Semigroups { genus: 18 },
                    Workload::uts("default")?,
                ],
                vec![
                    Workload::clique(&data, "brock200_4")?,
                    Workload::Semigroups { genus: 20 },
                    Workload::uts("t=1,a=3,d=7,b=4,r=19")?,
                    Workload::knapsack(&data, "knapsackTest1.kp")?,
                ],
            )
        } else {
            (
                vec![
                    Workload::clique(&data, "brock200_4")?,
                    Workload::Semigroups { genus: 25 },
                    Workload::uts("T1")?,
                ],
                vec![
                    Workload::clique(&data, &clique)?,
                    Workload::Semigroups { genus: 30 },
                    Workload::uts("T1")?,
                    Workload::knapsack(&data, "low-dimensional/f8_l-d_kp_23_10000.txt")?,
                ],
            )
        };
        Ok(Params {
            quick,
            reps: reps.unwrap_or(if quick { 3 } else { 7 }),
            data,
            overhead,
            speedup,
            coordinations: vec![DEPTH_BOUNDED, STACK_STEALING, STACK_STEALING_ALL, BUDGET],
            policy_coordinations: vec![DEPTH_BOUNDED, STACK_STEALING],
            policies: vec!["random", "last", "probabilistic", "performance"],
        })
    }
}

impl Params {
    /// The overhead runs are short (0.05–0.6 s) and the difference sought is a few
    /// per cent, within this machine's run-to-run noise: three times the repetitions.
    pub fn overhead_reps(&self) -> usize {
        3 * self.reps
    }
}

/// Runs the three experiments and writes the report into `opts.out_dir`.
pub fn run(opts: &RunOptions) -> Result<Outcome, BenchError> {
    let out = opts.out()?;
    let params = Params::new(opts.quick, opts.reps)?;
    println!(
        "search skeletons: {} repetitions{} (data {})",
        params.reps,
        if params.quick { ", QUICK sizes" } else { "" },
        params.data.display()
    );
    println!(
        "overhead: sequential skeleton vs hand-written, {} alternating pairs ...",
        params.overhead_reps()
    );
    let overhead = measure::overhead(&params.overhead, params.overhead_reps())?;
    println!("speedup: 1 vs 2 threads, every coordination ...");
    let speedup = measure::speedup(&params.speedup, &params.coordinations, params.reps)?;
    println!("policies: 2 threads, every policy ...");
    let policies = measure::policies(
        &params.speedup,
        &params.policy_coordinations,
        &params.policies,
        params.reps,
    )?;
    report::write(&params, &overhead, &speedup, &policies, out)
}
