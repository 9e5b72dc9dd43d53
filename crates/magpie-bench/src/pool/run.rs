//! The runtimes under test and the measured loop. Workloads are written once against
//! [`ForkJoin`] and monomorphised for magpie, rayon and [`Seq`]; chili needs its own body
//! ([`ForkJoinTask::run_chili`]), tokio runs the spawn workloads only. Only the call into
//! the pool is timed, and a wrong answer is an error, never a data point.

use std::thread;
use std::time::Instant;

use serde::Serialize;

pub use super::seq::{Seq, SeqScope};
use crate::BenchError;

/// A runtime under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runtime {
    Magpie,
    Rayon,
    /// tokio multi-thread runtime (spawn and idle workloads only).
    Tokio,
    /// chili (join workloads only): the calling thread plus `threads - 1` workers,
    /// heartbeat every 100 µs.
    Chili,
    /// No pool: `join` calls both closures in turn on the calling thread (the bound).
    Seq,
}

impl Runtime {
    /// The runtimes with an idle-CPU measurement, in table order.
    pub const ALL: [Runtime; 3] = [Runtime::Magpie, Runtime::Rayon, Runtime::Tokio];

    /// Every runtime, in chart order.
    pub const CHARTED: [Runtime; 5] = [
        Runtime::Magpie,
        Runtime::Rayon,
        Runtime::Tokio,
        Runtime::Chili,
        Runtime::Seq,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Runtime::Magpie => "magpie",
            Runtime::Rayon => "rayon",
            Runtime::Tokio => "tokio",
            Runtime::Chili => "chili",
            Runtime::Seq => "seq",
        }
    }
}

/// One runtime at one thread count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub runtime: Runtime,
    pub threads: usize,
}

impl Config {
    pub const fn new(runtime: Runtime, threads: usize) -> Config {
        Config { runtime, threads }
    }
}

/// Threads of the compared configurations (the machine has 2 cores).
pub const THREADS: usize = 2;

const MAGPIE_1: Config = Config::new(Runtime::Magpie, 1);
const MAGPIE: Config = Config::new(Runtime::Magpie, THREADS);
const RAYON_1: Config = Config::new(Runtime::Rayon, 1);
const RAYON: Config = Config::new(Runtime::Rayon, THREADS);
const CHILI: Config = Config::new(Runtime::Chili, THREADS);

/// magpie and rayon at [`THREADS`].
pub const FORK_JOIN: [Config; 2] = [MAGPIE, RAYON];

/// magpie and rayon at 1 and [`THREADS`] threads (for the 1→2 speedup).
pub const FORK_JOIN_SPEEDUP: [Config; 4] = [MAGPIE_1, MAGPIE, RAYON_1, RAYON];

/// magpie, rayon and chili at [`THREADS`] (quicksort).
pub const JOIN_PEERS: [Config; 3] = [MAGPIE, RAYON, CHILI];

/// magpie and rayon at 1 and [`THREADS`] threads, chili at [`THREADS`] and the
/// sequential bound (fib).
pub const JOIN_PEERS_SPEEDUP: [Config; 6] = [
    MAGPIE_1,
    MAGPIE,
    RAYON_1,
    RAYON,
    CHILI,
    Config::new(Runtime::Seq, 1),
];

/// magpie, rayon and tokio at [`THREADS`].
pub const SPAWN: [Config; 3] = [MAGPIE, RAYON, TOKIO];

/// magpie and rayon at 1 and [`THREADS`] threads, tokio at [`THREADS`] (flat spawns:
/// on one thread nothing is stolen, and every job slot comes back to its spawner).
pub const SPAWN_SPEEDUP: [Config; 5] = [MAGPIE_1, MAGPIE, RAYON_1, RAYON, TOKIO];

const TOKIO: Config = Config::new(Runtime::Tokio, THREADS);

/// `join` and `scope` of one fork-join runtime (inside a pool's `install`: of that pool),
/// so a workload written once is monomorphised per runtime.
pub trait ForkJoin {
    /// The runtime's scope type.
    type Scope<'s>: Spawner<'s>;

    /// Runs `a` and `b`, potentially in parallel; returns both results.
    fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send;

    /// Runs `op` with a scope; returns when `op` and every task spawned in the scope
    /// have finished.
    fn scope<'s, OP, R>(op: OP) -> R
    where
        OP: FnOnce(&Self::Scope<'s>) -> R + Send,
        R: Send;
}

/// A scope tasks can be spawned into (rayon's and magpie's `Scope`).
pub trait Spawner<'s> {
    /// Spawns `f` into the scope; `f` gets the scope to spawn more.
    fn spawn_task<F>(&self, f: F)
    where
        F: FnOnce(&Self) + Send + 's;
}

/// [`ForkJoin`] and [`Spawner`] for magpie or rayon (they share rayon-core's API).
macro_rules! fork_join_runtime {
    ($name:ident, $krate:ident) => {
        #[doc = concat!("`", stringify!($krate), "::join` and `", stringify!($krate), "::scope`.")]
        #[derive(Clone, Copy, Debug)]
        pub struct $name;

        impl ForkJoin for $name {
            type Scope<'s> = $krate::Scope<'s>;

            fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
            where
                A: FnOnce() -> RA + Send,
                B: FnOnce() -> RB + Send,
                RA: Send,
                RB: Send,
            {
                $krate::join(a, b)
            }

            fn scope<'s, OP, R>(op: OP) -> R
            where
                OP: FnOnce(&$krate::Scope<'s>) -> R + Send,
                R: Send,
            {
                $krate::scope(op)
            }
        }

        impl<'s> Spawner<'s> for $krate::Scope<'s> {
            fn spawn_task<F>(&self, f: F)
            where
                F: FnOnce(&Self) + Send + 's,
            {
                self.spawn(f);
            }
        }
    };
}

fork_join_runtime!(Magpie, magpie);
fork_join_runtime!(Rayon, rayon);

pub fn magpie_pool(threads: usize) -> Result<magpie::ThreadPool, BenchError> {
    magpie::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(cannot_build("magpie pool"))
}

pub fn rayon_pool(threads: usize) -> Result<rayon::ThreadPool, BenchError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(cannot_build("rayon pool"))
}

fn cannot_build<E: std::fmt::Display>(what: &str) -> impl FnOnce(E) -> BenchError + '_ {
    move |e| BenchError::Worker(format!("cannot build {what}: {e}"))
}

/// The pool (or tokio runtime) of one [`Config`]; chili: the calling thread plus
/// `threads - 1` workers.
pub enum RuntimePool {
    Magpie(magpie::ThreadPool),
    Rayon(rayon::ThreadPool),
    Tokio(tokio::runtime::Runtime),
    Chili(chili::ThreadPool),
}

impl RuntimePool {
    /// Builds the pool of `c` ([`Runtime::Seq`] has none).
    pub fn new(c: Config) -> Result<RuntimePool, BenchError> {
        let threads = c.threads;
        Ok(match c.runtime {
            Runtime::Magpie => RuntimePool::Magpie(magpie_pool(threads)?),
            Runtime::Rayon => RuntimePool::Rayon(rayon_pool(threads)?),
            Runtime::Tokio => RuntimePool::Tokio(
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(threads)
                    .build()
                    .map_err(cannot_build("tokio runtime"))?,
            ),
            Runtime::Chili => {
                let thread_count = std::num::NonZero::new(threads)
                    .ok_or_else(|| BenchError::Invalid("chili pool with 0 threads".into()))?;
                RuntimePool::Chili(chili::ThreadPool::with_config(chili::Config {
                    thread_count: Some(thread_count),
                    ..chili::Config::default()
                }))
            }
            Runtime::Seq => return Err(unsupported("a pool", c.runtime)),
        })
    }
}

/// Every pool of the timed workloads, built once before anything is measured.
pub struct Pools(Vec<(Config, RuntimePool)>);

impl Pools {
    /// One pool per distinct config in `configs` but [`Runtime::Seq`]; checks that each
    /// fork-join pool has the requested number of threads.
    pub fn build(configs: &[Config]) -> Result<Pools, BenchError> {
        let mut pools: Vec<(Config, RuntimePool)> = Vec::new();
        for &c in configs {
            if c.runtime == Runtime::Seq || pools.iter().any(|(built, _)| *built == c) {
                continue;
            }
            let pool = RuntimePool::new(c)?;
            let reported = match &pool {
                RuntimePool::Magpie(p) => p.install(magpie::current_num_threads),
                RuntimePool::Rayon(p) => p.install(rayon::current_num_threads),
                RuntimePool::Tokio(_) | RuntimePool::Chili(_) => c.threads,
            };
            if reported != c.threads {
                return Err(BenchError::Worker(format!(
                    "{} pool built with {} threads reports {reported}",
                    c.runtime.name(),
                    c.threads
                )));
            }
            pools.push((c, pool));
        }
        Ok(Pools(pools))
    }

    pub fn get(&self, c: Config) -> Result<&RuntimePool, BenchError> {
        let found = self.0.iter().find(|(built, _)| *built == c);
        found.map(|(_, pool)| pool).ok_or_else(|| {
            BenchError::Invalid(format!(
                "no {} pool with {} threads was built",
                c.runtime.name(),
                c.threads
            ))
        })
    }
}

pub fn unsupported(workload: &str, rt: Runtime) -> BenchError {
    BenchError::Invalid(format!("{workload} does not run on {}", rt.name()))
}

/// `Ok` when `got == want`; a wrong answer is an error, never a data point.
pub fn check<T: PartialEq + std::fmt::Display>(
    what: &str,
    c: Config,
    got: T,
    want: T,
) -> Result<(), BenchError> {
    if got == want {
        return Ok(());
    }
    Err(BenchError::Worker(format!(
        "{what} on {} ({} threads): WRONG RESULT {got}, expected {want}",
        c.runtime.name(),
        c.threads
    )))
}

/// A fork-join body, written once against [`ForkJoin`] and run inside one of the pools.
pub trait ForkJoinTask: Send {
    type Out: Send;

    fn run<F: ForkJoin>(self) -> Self::Out;

    /// Runs the body with chili's `join` on `s`; `None` if it has no chili version.
    fn run_chili(self, s: &mut chili::Scope<'_>) -> Option<Self::Out>
    where
        Self: Sized,
    {
        let _ = s;
        None
    }
}

/// Runs `task` in the pool of `c` (or sequentially) and times exactly that call, the
/// pool's `install` or `scope` included (a pool slow to wake pays for it).
pub fn run_in_pool<T: ForkJoinTask>(
    task: T,
    c: Config,
    pools: &Pools,
    what: &str,
) -> Result<(T::Out, f64), BenchError> {
    if c.runtime == Runtime::Seq {
        return Ok(timed(|| task.run::<Seq>()));
    }
    match pools.get(c)? {
        RuntimePool::Magpie(pool) => Ok(timed(|| pool.install(|| task.run::<Magpie>()))),
        RuntimePool::Rayon(pool) => Ok(timed(|| pool.install(|| task.run::<Rayon>()))),
        RuntimePool::Chili(pool) => match timed(|| task.run_chili(&mut pool.scope())) {
            (Some(out), secs) => Ok((out, secs)),
            (None, _) => Err(unsupported(what, c.runtime)),
        },
        RuntimePool::Tokio(_) => Err(unsupported(what, c.runtime)),
    }
}

/// [`run_in_pool`] for a task whose answer must be `want`.
pub fn run_and_check<T: ForkJoinTask<Out = u64>>(
    task: T,
    c: Config,
    pools: &Pools,
    label: &str,
    want: u64,
) -> Result<Sample, BenchError> {
    let (got, secs) = run_in_pool(task, c, pools, label)?;
    check(label, c, got, want)?;
    Ok(Sample { secs, answer: got })
}

/// Short count for labels: `10M`, `1M`, `100k`, `1500`.
pub fn count_label(n: u64) -> String {
    match n {
        n if n >= 1_000_000 && n % 1_000_000 == 0 => format!("{}M", n / 1_000_000),
        n if n >= 1_000 && n % 1_000 == 0 => format!("{}k", n / 1_000),
        n => n.to_string(),
    }
}

/// Runs `op` and returns its result with the elapsed wall time in seconds.
pub fn timed<R>(op: impl FnOnce() -> R) -> (R, f64) {
    let t0 = Instant::now();
    let r = op();
    (r, t0.elapsed().as_secs_f64())
}

/// One timed, verified run: seconds and the verified answer (fib value, sum, …).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub secs: f64,
    pub answer: u64,
}

/// What the report needs to know about a workload (which is dropped before idle runs).
#[derive(Clone, Debug)]
pub struct Info {
    /// Family (`fib`), size (`n=32`) and display name (`fib(32)`).
    pub family: &'static str,
    pub size: String,
    pub label: String,
    /// Tasks per run, for workloads reported as a throughput (tasks/s).
    pub tasks: Option<u64>,
}

/// One run of a workload (labelled by the third argument) on a config, verified.
type RunFn = Box<dyn FnMut(Config, &Pools, &str) -> Result<Sample, BenchError>>;

/// One workload at one size, e.g. fib(32) or N-queens 13, and the configs it runs on.
pub struct Workload {
    pub info: Info,
    pub configs: Vec<Config>,
    run: RunFn,
}

impl Workload {
    /// A workload of `family` at `size`, shown as `label`, run on `configs` by `run`.
    pub fn new(
        family: &'static str,
        size: String,
        label: String,
        configs: &[Config],
        run: impl FnMut(Config, &Pools, &str) -> Result<Sample, BenchError> + 'static,
    ) -> Workload {
        Workload {
            info: Info {
                family,
                size,
                label,
                tasks: None,
            },
            configs: configs.to_vec(),
            run: Box::new(run),
        }
    }

    /// [`Workload::new`] whose every run is `task()`, checked against `want`.
    pub fn checked<T: ForkJoinTask<Out = u64>>(
        (family, size, label): (&'static str, String, String),
        configs: &[Config],
        want: u64,
        task: impl Fn() -> T + 'static,
    ) -> Workload {
        Workload::new(family, size, label, configs, move |c, pools, label| {
            run_and_check(task(), c, pools, label, want)
        })
    }

    pub fn run(&mut self, c: Config, pools: &Pools) -> Result<Sample, BenchError> {
        (self.run)(c, pools, &self.info.label)
    }
}

/// Seconds per repetition of one cell: workload (index) × config.
#[derive(Clone, Debug)]
pub struct Cell {
    pub workload: usize,
    pub config: Config,
    pub secs: Vec<f64>,
}

/// A row of `pool_runs.csv`: one timed run (seconds with 6 decimals).
#[derive(Debug, Serialize)]
pub struct RunRow {
    workload: &'static str,
    size: String,
    label: String,
    runtime: &'static str,
    threads: usize,
    rep: usize,
    seconds: String,
    answer: u64,
}

/// Warm-up plus `reps` interleaved repetitions of every cell; returns the cells and the
/// rows of `pool_runs.csv` (one per timed run).
pub fn measure(
    workloads: &mut [Workload],
    pools: &Pools,
    reps: usize,
    settle: std::time::Duration,
) -> Result<(Vec<Cell>, Vec<RunRow>), BenchError> {
    let mut cells: Vec<Cell> = workloads
        .iter()
        .enumerate()
        .flat_map(|(w, wl)| {
            wl.configs.iter().map(move |&config| Cell {
                workload: w,
                config,
                secs: Vec::new(),
            })
        })
        .collect();
    let bar = crate::progress::bar("pool: warm-up", cells.len());
    for c in &cells {
        thread::sleep(settle);
        workloads[c.workload].run(c.config, pools)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut runs = Vec::new();
    crate::order::interleave("pool", cells.len(), reps, |rep, i| {
        let cell = &mut cells[i];
        let wl = &mut workloads[cell.workload];
        thread::sleep(settle);
        let s = wl.run(cell.config, pools)?;
        cell.secs.push(s.secs);
        runs.push(RunRow {
            workload: wl.info.family,
            size: wl.info.size.clone(),
            label: wl.info.label.clone(),
            runtime: cell.config.runtime.name(),
            threads: cell.config.threads,
            rep: rep + 1,
            seconds: format!("{:.6}", s.secs),
            answer: s.answer,
        });
        Ok::<(), BenchError>(())
    })?;
    Ok((cells, runs))
}

/// The answers of one run of `w` on each of its configs, in config order (for tests).
#[cfg(test)]
pub fn answers(mut w: Workload) -> Vec<u64> {
    let pools = Pools::build(&w.configs).unwrap();
    let configs = w.configs.clone();
    configs
        .into_iter()
        .map(|c| w.run(c, &pools).unwrap().answer)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_labels() {
        let l = [10_000_000, 1_000_000, 100_000, 1500, 7].map(count_label);
        assert_eq!(l, ["10M", "1M", "100k", "1500", "7"]);
    }

    #[test]
    fn pools_have_the_requested_threads() {
        let cfgs = [
            Config::new(Runtime::Magpie, 2),
            Config::new(Runtime::Rayon, 1),
            Config::new(Runtime::Rayon, 1),
            Config::new(Runtime::Tokio, 2),
        ];
        let pools = Pools::build(&cfgs).unwrap();
        assert_eq!(pools.0.len(), 3);
        assert!(pools.get(cfgs[0]).is_ok());
        assert!(pools.get(cfgs[3]).is_ok());
        let magpie_1 = Config::new(Runtime::Magpie, 1);
        let err = pools.get(magpie_1).err().unwrap().to_string();
        assert!(err.contains("no magpie pool with 1 threads"), "{err}");
    }

    #[test]
    fn generic_join_and_scope_run_on_both() {
        fn both<F: ForkJoin>() -> (u32, u32) {
            let (a, b) = F::join(|| 1, || 2);
            let n = std::sync::atomic::AtomicU32::new(0);
            F::scope(|s| {
                for _ in 0..10 {
                    s.spawn_task(|_| {
                        n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    });
                }
            });
            (a + b, n.into_inner())
        }
        assert_eq!(magpie_pool(2).unwrap().install(both::<Magpie>), (3, 10));
        assert_eq!(rayon_pool(2).unwrap().install(both::<Rayon>), (3, 10));
    }
}
