//! Fork-join and spawn against rayon, chili and tokio (issues 4 and 21): `magpie bench
//! pool`. Workloads: [`fib`], [`sort`], [`nqueens`], [`long`], [`tree`], [`spawn`] and
//! [`idle`]; sizes in [`Params`]. Pools are built before anything is timed; magpie and
//! rayon run the same generic code ([`run::ForkJoin`]); every answer is verified.
//! `MAGPIE_POOL_ONLY=fib,chain-spawn` measures only those families (and skips idle).

pub mod fib;
pub mod idle;
pub mod long;
pub mod nqueens;
pub mod report;
pub mod run;
pub mod seq;
pub mod sort;
pub mod spawn;
pub mod tree;

use std::fmt::Write as _;
use std::time::Duration;

use crate::output::Out;
use crate::{affinity, BenchError, Outcome, RunOptions};
use report::{Info, Measured};
use run::{
    Config, Pools, Runtime, Workload, FORK_JOIN, FORK_JOIN_SPEEDUP, JOIN_PEERS, JOIN_PEERS_SPEEDUP,
    SPAWN, SPAWN_SPEEDUP,
};
use spawn::Pattern;

/// Sizes of the workloads, derived from `--quick` and `--reps`.
#[derive(Clone, Debug)]
pub struct Params {
    pub quick: bool,
    /// Repetitions per cell (after one warm-up run).
    pub reps: usize,
    pub fib_n: u32,
    /// Elements to quicksort, and the sequential cutoff (the same for every runtime).
    pub sort_len: usize,
    pub sort_cutoff: usize,
    pub queens: Vec<u32>,
    /// xorshift rounds of each of the two long tasks (BWoS §8 starvation case).
    pub long_steps: u64,
    /// Tree sizes as powers of two.
    pub tree_log2: Vec<u32>,
    /// Tasks of the flat and of the chained spawn workload.
    pub spawn_tasks: u64,
    pub chain_tasks: u64,
    /// Length of one idle-CPU measurement.
    pub idle: Duration,
    /// Pause before every run, so the previously used pool has parked its workers.
    pub settle: Duration,
    /// Cores available to this process.
    pub cores: usize,
    /// Only these workload families (`MAGPIE_POOL_ONLY`); `None` = all, with idle.
    pub only: Option<Vec<String>>,
}

impl Params {
    /// Full: the sizes of issues 4 and 21, 11 repetitions. Quick: fib(29), 1 M sort,
    /// queens 10/11, trees of 2^16/2^18 nodes, 100 k spawns, 100 k chain, 3 repetitions.
    pub fn new(quick: bool, reps: Option<usize>) -> Params {
        let full = Params {
            quick,
            reps: reps.unwrap_or(11),
            fib_n: 32,
            sort_len: 10_000_000,
            sort_cutoff: sort::CUTOFF,
            queens: vec![12, 13],
            long_steps: 200_000_000,
            tree_log2: vec![20, 24],
            spawn_tasks: 1_000_000,
            chain_tasks: 1_000_000,
            idle: Duration::from_secs(1),
            settle: Duration::from_millis(20),
            cores: affinity::available_cores(),
            only: only_families(),
        };
        if !quick {
            return full;
        }
        Params {
            reps: reps.unwrap_or(3),
            fib_n: 29,
            sort_len: 1_000_000,
            queens: vec![10, 11],
            long_steps: 20_000_000,
            tree_log2: vec![16, 18],
            spawn_tasks: 100_000,
            chain_tasks: 100_000,
            ..full
        }
    }

    /// The workloads in table order (builds the trees and the sort input: untimed).
    pub fn workloads(&self) -> Result<Vec<Workload>, BenchError> {
        let mut w = vec![
            fib::workload(self.fib_n, &JOIN_PEERS_SPEEDUP),
            sort::workload(self.sort_len, self.sort_cutoff, &JOIN_PEERS),
        ];
        for &n in &self.queens {
            w.push(nqueens::workload(n, &FORK_JOIN_SPEEDUP)?);
        }
        w.push(long::workload(self.long_steps, &FORK_JOIN_SPEEDUP));
        for &k in &self.tree_log2 {
            eprintln!("pool: building a tree of 2^{k} nodes (untimed)");
            w.push(tree::workload(k, &FORK_JOIN)?);
        }
        w.push(spawn::workload(
            Pattern::Flat,
            self.spawn_tasks,
            &SPAWN_SPEEDUP,
        )?);
        w.push(spawn::workload(Pattern::Chain, self.chain_tasks, &SPAWN)?);
        if let Some(only) = &self.only {
            if let Some(f) = only
                .iter()
                .find(|f| w.iter().all(|wl| wl.info.family != *f))
            {
                return Err(BenchError::Invalid(format!(
                    "MAGPIE_POOL_ONLY: no workload family {f:?}"
                )));
            }
            w.retain(|wl| only.iter().any(|f| f == wl.info.family));
        }
        Ok(w)
    }
}

/// The families named in `MAGPIE_POOL_ONLY`, if set.
fn only_families() -> Option<Vec<String>> {
    let v = std::env::var("MAGPIE_POOL_ONLY").ok()?;
    Some(v.split(',').map(|f| f.trim().to_string()).collect())
}

/// Runs every workload and the idle measurement, prints tables and writes CSV + SVG +
/// report.txt.
pub fn run(opts: &RunOptions) -> Result<Outcome, BenchError> {
    run_params(&Params::new(opts.quick, opts.reps), opts.out()?)
}

/// [`run()`] with explicit sizes, into `out`.
pub fn run_params(p: &Params, mut out: Out) -> Result<Outcome, BenchError> {
    out.say(&environment_note(p));

    let mut workloads = p.workloads()?;
    let infos: Vec<Info> = workloads.iter().map(|w| w.info.clone()).collect();
    let configs: Vec<Config> = workloads.iter().flat_map(|w| w.configs.clone()).collect();
    let pools = Pools::build(&configs)?;
    let (cells, runs) = run::measure(&mut workloads, &pools, p.reps, p.settle)?;
    // The idle clock is process-wide: no other pool may be alive while it runs.
    drop(pools);
    drop(workloads);
    let mut idle = Vec::new();
    let idle_runtimes: &[Runtime] = if p.only.is_some() { &[] } else { &Runtime::ALL };
    let bar = crate::progress::bar("pool: idle CPU", idle_runtimes.len());
    for &rt in idle_runtimes {
        bar.set_message(format!("{} ({} x {:?})", rt.name(), p.reps, p.idle));
        idle.push((rt, idle::measure(rt, p.reps, p.idle)?));
        bar.inc(1);
    }
    bar.finish_and_clear();

    report::render(
        &Measured {
            infos: &infos,
            cells: &cells,
            idle: &idle,
            idle_span: p.idle,
            reps: p.reps,
        },
        &runs,
        &mut out,
    )?;
    out.finish("report.txt")
}

/// The sizes, the machine (cores, load) and, in quick mode, that the sizes are reduced.
fn environment_note(p: &Params) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "pool bench: fib({}) (+ chili, sequential), quicksort of {} u32 (cutoff {}), queens {}, tree sum 2^{} nodes, \
         {} spawned tasks, chain of {}; idle {:?}; {} reps after one warm-up run; unpinned pool \
         threads; {} core(s) available; {}",
        p.fib_n,
        p.sort_len,
        p.sort_cutoff,
        join_list(&p.queens),
        join_list(&p.tree_log2),
        p.spawn_tasks,
        p.chain_tasks,
        p.idle,
        p.reps,
        p.cores,
        affinity::load_note(p.cores, "see spread %"),
    );
    if p.quick {
        s.push_str(
            "\nQUICK MODE: sizes reduced (full: fib(32), 10M sort, queens 12/13, trees 2^20/2^24, \
             1M spawns, chain 1M); the targets are stated for the full sizes",
        );
    }
    if p.cores < run::THREADS {
        let _ = write!(
            s,
            "\nWARNING: {} core(s) for {}-thread pools: threads time-slice, speedups are meaningless",
            p.cores,
            run::THREADS
        );
    }
    s.push('\n');
    s
}

fn join_list(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_sizes_are_smaller() {
        let q = Params::new(true, None);
        let f = Params::new(false, Some(2));
        assert!(q.fib_n < f.fib_n && q.sort_len < f.sort_len);
        assert_eq!(
            (f.fib_n, f.sort_len, f.spawn_tasks),
            (32, 10_000_000, 1_000_000)
        );
        assert_eq!(
            (f.queens.clone(), f.tree_log2.clone()),
            (vec![12, 13], vec![20, 24])
        );
        assert_eq!(f.reps, 2);
        assert!(environment_note(&q).contains("QUICK MODE"));
        assert!(!environment_note(&f).contains("QUICK MODE"));
    }

    /// A family name in `MAGPIE_POOL_ONLY` that matches no workload (a typo) is an
    /// error, not a run that silently measures less than was asked for.
    #[test]
    fn unknown_only_family_is_rejected() {
        let tiny = |only: &[&str]| Params {
            fib_n: 5,
            sort_len: 100,
            sort_cutoff: 10,
            queens: vec![4],
            long_steps: 10,
            tree_log2: vec![3],
            spawn_tasks: 10,
            chain_tasks: 10,
            only: Some(only.iter().map(|f| f.to_string()).collect()),
            ..Params::new(true, None)
        };
        let w = tiny(&["fib", "chain-spawn"]).workloads().unwrap();
        let families: Vec<&str> = w.iter().map(|w| w.info.family).collect();
        assert_eq!(families, ["fib", "chain-spawn"]);
        let err = tiny(&["fib", "chain_spawn"]).workloads().err().unwrap();
        assert!(err.to_string().contains("chain_spawn"), "{err}");
    }

    #[test]
    fn zero_reps_is_rejected() {
        let opts = RunOptions {
            quick: true,
            reps: Some(0),
            out_dir: std::env::temp_dir().join("magpie-pool-zero-reps"),
        };
        assert!(run(&opts).is_err());
    }

    /// Tiny sizes through the whole pipeline: every file is written and every target
    /// has a measured value (no timing assertions).
    #[test]
    fn tiny_run_writes_every_file() {
        let dir = std::env::temp_dir().join(format!("magpie-pool-test-{}", std::process::id()));
        let p = Params {
            reps: 2,
            fib_n: 12,
            sort_len: 20_000,
            sort_cutoff: 1000,
            queens: vec![6, 7],
            long_steps: 10_000,
            tree_log2: vec![8, 10],
            spawn_tasks: 1000,
            chain_tasks: 200,
            idle: Duration::from_millis(10),
            settle: Duration::ZERO,
            only: None,
            ..Params::new(true, None)
        };
        let out = run_params(&p, Out::new(&dir).unwrap()).unwrap();
        assert_eq!(out.files.len(), 8);
        for f in &out.files {
            assert!(std::fs::metadata(f).unwrap().len() > 0, "{}", f.display());
        }
        let runs = std::fs::read_to_string(dir.join("pool_runs.csv")).unwrap();
        // fib on 6 configs, 2 queens and the two long tasks on 4, sort on 3, 2 trees on
        // 2, flat spawns on 5, chained on 3.
        assert_eq!(
            runs.lines().count(),
            1 + p.reps * (6 + 3 * 4 + 3 + 2 * 2 + 5 + 3)
        );
        let report = std::fs::read_to_string(dir.join("report.txt")).unwrap();
        assert!(report.contains("QUICK MODE") && report.contains("idle CPU"));
        // fib vs rayon, chili and seq, spawn and chain (ratio, steadiness), quicksort vs
        // rayon and chili, 2 trees, fib speedup, 2 queens speedups, two long tasks
        // speedup.
        assert_eq!(out.targets.len(), 15);
        assert!(out.targets.iter().all(|t| t.measured.is_some()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
