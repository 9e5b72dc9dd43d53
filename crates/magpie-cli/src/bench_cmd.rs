//! `magpie bench ...`: the benchmark subcommands and their flags.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use magpie_bench::queue::{self, Only, QueueOptions};
use magpie_bench::{pool, poolexp, registry, search, twolock, BenchError, Outcome, RunOptions};

#[derive(Args, Debug)]
#[command(
    subcommand_required = true,
    arg_required_else_help = true,
    after_help = "Speed claims are ratios of medians measured in one run, with repetitions and \
spread (min..max). Use --quick for a short CI-sized run (< 60 s). Results: one CSV row per \
implementation x configuration x repetition, a summary CSV, an SVG plot per experiment and \
report.txt, in the output directory.\n\nExamples:\n  magpie bench queue --quick\n  magpie bench twolock --quick\n  magpie bench pool --quick\n  magpie bench poolexp --quick\n  magpie bench search --quick\n  magpie bench iter --quick\n  magpie bench \
queue --reps 11 --only owner --out /tmp/q\n  magpie bench all --quick"
)]
pub struct BenchArgs {
    #[command(subcommand)]
    which: BenchCommand,
}

#[derive(Subcommand, Debug)]
enum BenchCommand {
    /// Single-queue experiments of BWoS §6.2.1 (owner only) and §6.2.2 (owner + one thief)
    ///
    /// Experiment 1: the owner puts until full then gets until empty (C = 8192 u64 items),
    /// for magpie LIFO/FIFO, the sequential bounds (Vec, VecDeque), crossbeam-deque and st3.
    ///
    /// Experiment 2: the same loop while a thief pinned to another core steals single items,
    /// with its pause calibrated to reach ~0, 1, 5, 10, 20 % stolen.
    Queue(QueueArgs),
    /// Two-lock MPMC queue (magpie_queue::twolock): paper section V configurations vs peers
    ///
    /// Throughput of N u64 items with P producers and K consumers (P in {1,2,4}, K in {1,2}):
    /// every paper configuration (memory orders, cached push index, node size, node cache,
    /// pop lock, final combinations) and magpie's default, against Mutex<VecDeque>, crossbeam
    /// SegQueue, crossbeam-deque Injector and crossbeam ArrayQueue. Then each side alone
    /// (push-only, pop-only; 1 and 2 threads), and pop_batch(32) vs 32 x try_pop for one
    /// consumer.
    Twolock(TwolockArgs),
    /// Fork-join and spawn: magpie vs rayon (and tokio) in the same run, 2 threads
    ///
    /// fib(32) with a join per call (1 and 2 threads; rayon, chili and sequential fib),
    /// quicksort of 10 M u32 (cutoff 10 k; rayon, chili), N-queens 12 and 13 (1 and 2
    /// threads), binary tree sum of 2^20 and 2^24 nodes, 1 M tiny tasks through
    /// scope/spawn (1 and 2 threads; tokio: spawn), a chain of 1 M tasks each spawning
    /// the next, and the CPU an idle pool uses over 1 s. 11 repetitions unless --reps says
    /// otherwise; --quick reduces the sizes (< 60 s).
    Pool(PoolArgs),
    /// BWoS §6.2.3 pool experiment: N queues, put/get then k*C steals per round, every policy
    ///
    /// N workers (N = 2 pinned; N = 8 oversubscribed on 2 cores) each own a queue of
    /// C = 8192 u64 items. Each round: put until full, get until empty, then k*C
    /// single-item steal attempts (k in 0, 25, 50, 100 %) on the other workers' queues,
    /// victims chosen by a magpie victim policy. Throughput = (puts + gets + steals) / s
    /// for magpie LIFO/FIFO vs crossbeam-deque and st3 under every policy. --quick runs
    /// N = 8 with the random and magpie's best policies only.
    Poolexp(PoolexpArgs),
    /// Search skeletons: overhead vs hand-written, speedup 1 -> 2 threads, victim policies
    ///
    /// Overhead: the sequential skeleton vs a hand-written recursive solver with the
    /// same bound (clique brock200_4, semigroups genus 25, UTS T1), target <= 5 % slower.
    /// Speedup 1 -> 2 threads for depth-bounded, stack stealing (one / all) and budget on
    /// clique (MAGPIE_SEARCH_CLIQUE, default brock200_1), semigroups genus 30, UTS T1 and
    /// knapsack f8, target >= 1.8. Victim policies random / last / probabilistic /
    /// performance with the stolen percentage. Data from MAGPIE_DATA (default
    /// ../shared/data).
    Search(SearchBenchArgs),
    /// Parallel iterators: magpie vs rayon vs sequential, 2 threads
    ///
    /// The same par_iter code on magpie's and rayon's prelude and the sequential
    /// iterator, interleaved: sum of squares over 100 M u64, map + collect of 10 M,
    /// filter + count, par_sort_unstable of 10 M u32, a skewed map and a nested
    /// par_iter. Target: magpie >= 1.0x rayon on every row. --quick: sizes / 10.
    Iter(IterBenchArgs),
    /// Maximum clique: nodes and time per bound against the Glasgow solver, 2-thread speedup
    ///
    /// brock400_2, p_hat300-3, brock200_1, MANN_a27 and C125.9 under the colour and
    /// the infra-chromatic bound: the sequential skeleton's nodes and time beside the
    /// Glasgow clique solver's (measured on this machine for issue 23), and stack
    /// stealing on 2 threads. Targets: nodes <= Glasgow's; speedup >= 1.9 on
    /// brock400_2 and p_hat300-3. --quick: the three small instances. About 6 minutes.
    Clique(CliqueBenchArgs),
    /// Distribution overhead: 2 ranks x 1 thread vs 1 rank x 2 threads under mpirun
    ///
    /// Needs the MPI build (cargo build --release -p magpie-cli --features mpi) and
    /// OpenMPI's mpirun. Semigroups genus 30, UTS T1 and max clique of G(300, 0.7)
    /// (budget / depth-bounded), layouts alternated; target: two ranks >= 0.9x one
    /// rank's speed; messages and bytes per stolen task. Not part of `bench all`.
    Dist(DistBenchArgs),
    /// Node-level victim policies (random, depthpool, performance), YewPar thesis §4
    ///
    /// Needs the MPI build and mpirun. Max clique brock200_1 (depth-bounded d=2) and
    /// semigroups genus 35 (budget 10^6) on 2, 4 and 8 ranks of one thread, balanced and
    /// with the odd ranks 3x slower; policies alternated, 10 runs each; mean, spread,
    /// eq. 4.1 speedup % of performance over depthpool, eq. 4.2 max-difference %.
    /// Data from MAGPIE_DATA (default ../shared/data). Not part of `bench all`.
    Nodepolicy(DistBenchArgs),
    /// hyper under wrk on magpie-async, tokio and smol, 2 workers each (BWoS §6.3.2)
    ///
    /// The same hyper 1.x hello server in a child process per measurement, on each
    /// runtime; wrk -t1 --latency at 100, 500 and 1,000 connections, 10 s per point
    /// (--quick: 2 s, 2 repetitions; default 5). Median and min..max of requests/s, p50
    /// and p99 latency, server CPU seconds per 10k requests. Targets at 1,000
    /// connections: >= 1.10x tokio's requests/s, p99 and CPU/request no worse. Needs
    /// wrk (apt-get install wrk); without it prints SKIPPED.
    Http(HttpBenchArgs),
    /// Async scheduler microbenchmarks (tokio's style) on magpie-async, tokio and smol
    ///
    /// spawn many (from a task, from outside), yield many, ping-pong, chained spawn; 2
    /// workers each, runtimes interleaved. Target: magpie >= 1x tokio on each.
    Async(AsyncBenchArgs),
    /// Run every registered benchmark (queue, twolock, poolexp, pool, search, clique, iter,
    /// async, http), each into OUT/<name>/
    All(AllArgs),
}

/// The flags of the benchmarks that run the MPI build under mpirun.
#[derive(Args, Debug)]
struct DistBenchArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Directory for CSV, SVG and report (created if missing) [default:
    /// bench-results/<benchmark>]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The MPI build of magpie to run [default: this executable]
    #[arg(long, value_name = "PATH")]
    magpie: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct CommonArgs {
    /// Short run for CI: smaller sizes, fewer repetitions, same code paths
    #[arg(long)]
    pub quick: bool,
    /// Repetitions per configuration [default: each benchmark's own, 3 to 11; 1 to 3
    /// with --quick]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub reps: Option<u32>,
}

#[derive(Args, Debug)]
pub struct QueueArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Directory for CSV, SVG and report.txt (created if missing)
    #[arg(long, value_name = "DIR", default_value = "bench-results/queue")]
    out: PathBuf,
    /// Run only one experiment: owner (§6.2.1) or thief (§6.2.2)
    #[arg(long, value_enum, value_name = "EXPERIMENT")]
    only: Option<OnlyArg>,
}

#[derive(Args, Debug)]
struct TwolockArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Directory for CSV, SVG and report.txt (created if missing)
    #[arg(long, value_name = "DIR", default_value = "bench-results/twolock")]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct PoolArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Directory for CSV, SVG and report.txt (created if missing)
    #[arg(long, value_name = "DIR", default_value = "bench-results/pool")]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct PoolexpArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Directory for CSV, SVG and report.txt (created if missing)
    #[arg(long, value_name = "DIR", default_value = "bench-results/poolexp")]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct SearchBenchArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Directory for CSV, SVG and report.txt (created if missing)
    #[arg(long, value_name = "DIR", default_value = "bench-results/search")]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct IterBenchArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Directory for CSV, SVG and report.txt (created if missing)
    #[arg(long, value_name = "DIR", default_value = "bench-results/iter")]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct HttpBenchArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Directory for CSV, SVG and report.txt (created if missing)
    #[arg(long, value_name = "DIR", default_value = "bench-results/http")]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct AsyncBenchArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Directory for CSV, SVG and report.txt (created if missing)
    #[arg(long, value_name = "DIR", default_value = "bench-results/async")]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct CliqueBenchArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Directory for CSV and report.txt (created if missing)
    #[arg(long, value_name = "DIR", default_value = "bench-results/clique")]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct AllArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Root directory; each benchmark writes into DIR/<name>/
    #[arg(long, value_name = "DIR", default_value = "bench-results")]
    out: PathBuf,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum OnlyArg {
    /// Experiment 1: owner only (§6.2.1)
    Owner,
    /// Experiment 2: owner + one thief (§6.2.2)
    Thief,
}

impl DistBenchArgs {
    /// `--out`, or `bench-results/<name>`.
    fn out_or(&self, name: &str) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| PathBuf::from("bench-results").join(name))
    }

    /// The MPI build to run: `--magpie`, or this executable if it is one. A build
    /// without the `mpi` feature under `mpirun` runs the whole search in every
    /// process, so its figures would not measure distribution at all.
    fn magpie_path(&self) -> Result<PathBuf, BenchError> {
        match &self.magpie {
            Some(path) => Ok(path.clone()),
            None if !cfg!(feature = "mpi") => Err(BenchError::Invalid(
                "this magpie is not the MPI build: build it with cargo build --release -p \
                 magpie-cli --features mpi, or name one with --magpie PATH"
                    .into(),
            )),
            None => std::env::current_exe()
                .map_err(|e| BenchError::Invalid(format!("cannot find this executable: {e}"))),
        }
    }
}

impl CommonArgs {
    fn options(&self, out_dir: PathBuf) -> RunOptions {
        RunOptions {
            quick: self.quick,
            reps: self.reps.map(|r| r as usize),
            out_dir,
        }
    }
}

fn print_outcome(name: &str, outcome: &Outcome) {
    println!("\n[{name}] files written:");
    for f in &outcome.files {
        println!("  {}", f.display());
    }
    let passed = outcome.targets.iter().filter(|t| t.passed()).count();
    println!(
        "[{name}] targets: {passed} of {} PASS (MISS lines in the tables above)",
        outcome.targets.len()
    );
}

/// The wall time of each benchmark of `bench all` and their total, so that a user knows
/// what a run costs before starting the next one.
fn print_durations(took: &[(&str, std::time::Duration)]) {
    let minutes = |d: std::time::Duration| d.as_secs_f64() / 60.0;
    println!("\nwall time per benchmark:");
    for (name, d) in took {
        println!("  {name:<10} {:6.1} min", minutes(*d));
    }
    let total: std::time::Duration = took.iter().map(|(_, d)| *d).sum();
    println!("  {:<10} {:6.1} min", "total", minutes(total));
}

/// Flags of the hidden `bench-http-server` subcommand.
#[derive(Args, Debug)]
pub struct HttpServerArgs {
    /// magpie, tokio or smol
    #[arg(long)]
    runtime: String,
    /// Worker threads
    #[arg(long, default_value_t = 2)]
    workers: usize,
}

/// Serves hello/echo on the chosen runtime until killed (see `magpie bench http`).
pub fn http_server(args: &HttpServerArgs) -> Result<(), String> {
    let kind = magpie_bench::asyncrt::runtimes::Kind::from_name(&args.runtime)
        .ok_or_else(|| format!("unknown runtime {:?} (magpie, tokio, smol)", args.runtime))?;
    magpie_bench::http::server::serve(kind, args.workers).map_err(|e| e.to_string())
}

pub fn bench(args: &BenchArgs) -> Result<(), BenchError> {
    match &args.which {
        BenchCommand::Queue(q) => {
            let opts = QueueOptions {
                common: q.common.options(q.out.clone()),
                only: q.only.map(|o| match o {
                    OnlyArg::Owner => Only::Owner,
                    OnlyArg::Thief => Only::Thief,
                }),
            };
            let outcome = queue::run(&opts)?;
            print_outcome("queue", &outcome);
        }
        BenchCommand::Twolock(t) => {
            let outcome = twolock::run(&t.common.options(t.out.clone()))?;
            print_outcome("twolock", &outcome);
        }
        BenchCommand::Pool(a) => {
            let outcome = pool::run(&a.common.options(a.out.clone()))?;
            print_outcome("pool", &outcome);
        }
        BenchCommand::Poolexp(a) => {
            let outcome = poolexp::run(&a.common.options(a.out.clone()))?;
            print_outcome("poolexp", &outcome);
        }
        BenchCommand::Search(a) => {
            let outcome = search::run(&a.common.options(a.out.clone()))?;
            print_outcome("search", &outcome);
        }
        BenchCommand::Clique(a) => {
            let outcome = magpie_bench::clique::run(&a.common.options(a.out.clone()))?;
            print_outcome("clique", &outcome);
        }
        BenchCommand::Http(a) => {
            let outcome = magpie_bench::http::run(&a.common.options(a.out.clone()))?;
            print_outcome("http", &outcome);
        }
        BenchCommand::Async(a) => {
            let outcome = magpie_bench::asyncrt::run(&a.common.options(a.out.clone()))?;
            print_outcome("async", &outcome);
        }
        BenchCommand::Iter(a) => {
            let outcome = magpie_bench::iter::run(&a.common.options(a.out.clone()))?;
            print_outcome("iter", &outcome);
        }
        BenchCommand::Dist(a) => {
            let options = magpie_bench::dist::DistOptions {
                common: a.common.options(a.out_or("dist")),
                magpie: a.magpie_path()?,
            };
            let outcome = magpie_bench::dist::run(&options)?;
            print_outcome("dist", &outcome);
        }
        BenchCommand::Nodepolicy(a) => {
            let options = magpie_bench::nodepolicy::NodePolicyOptions {
                common: a.common.options(a.out_or("nodepolicy")),
                magpie: a.magpie_path()?,
                data: magpie_bench::data_dir(),
            };
            let outcome = magpie_bench::nodepolicy::run(&options)?;
            print_outcome("nodepolicy", &outcome);
        }
        BenchCommand::All(a) => {
            // `search` and `clique` read the shared data folder: without it, fail now
            // rather than after the benchmarks that run before them.
            magpie_bench::existing_data_dir()?;
            let mut took = Vec::new();
            for b in registry::benchmarks() {
                println!("=== bench {}: {} ===", b.name, b.about);
                let start = std::time::Instant::now();
                let outcome = (b.run)(&a.common.options(a.out.join(b.name)))?;
                print_outcome(b.name, &outcome);
                took.push((b.name, start.elapsed()));
            }
            print_durations(&took);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(subcommand)]
        which: BenchCommand,
    }

    fn parse(args: &[&str]) -> BenchCommand {
        let mut argv = vec!["bench"];
        argv.extend_from_slice(args);
        Cli::try_parse_from(argv).unwrap().which
    }

    #[test]
    fn parses_queue_flags() {
        let BenchCommand::Queue(q) = parse(&[
            "queue", "--quick", "--reps", "5", "--out", "/tmp/x", "--only", "thief",
        ]) else {
            panic!("expected queue");
        };
        assert!(q.common.quick);
        assert_eq!(q.common.reps, Some(5));
        assert!(matches!(q.only, Some(OnlyArg::Thief)));
    }

    #[test]
    fn parses_twolock_flags() {
        let BenchCommand::Twolock(t) = parse(&["twolock", "--quick", "--reps", "2"]) else {
            panic!("expected twolock");
        };
        assert!(t.common.quick);
        assert_eq!(t.common.reps, Some(2));
        assert_eq!(t.out, PathBuf::from("bench-results/twolock"));
    }

    #[test]
    fn parses_pool_flags() {
        let BenchCommand::Pool(a) = parse(&["pool", "--quick", "--reps", "4"]) else {
            panic!("expected pool");
        };
        assert!(a.common.quick);
        assert_eq!(a.common.reps, Some(4));
        assert_eq!(a.out, PathBuf::from("bench-results/pool"));
    }

    #[test]
    fn parses_poolexp_flags() {
        let BenchCommand::Poolexp(a) = parse(&["poolexp", "--quick"]) else {
            panic!("expected poolexp");
        };
        assert!(a.common.quick);
        assert_eq!(a.common.reps, None);
        assert_eq!(a.out, PathBuf::from("bench-results/poolexp"));
    }

    /// Without the `mpi` feature, `bench dist` and `bench nodepolicy` must not run
    /// this executable under mpirun (each rank would search alone); `--magpie` names
    /// an MPI build.
    #[cfg(not(feature = "mpi"))]
    #[test]
    fn distributed_benchmarks_need_an_mpi_build() {
        for name in ["dist", "nodepolicy"] {
            let (BenchCommand::Dist(a) | BenchCommand::Nodepolicy(a)) = parse(&[name, "--quick"])
            else {
                panic!("expected {name}");
            };
            let error = a.magpie_path().expect_err(name).to_string();
            assert!(error.contains("--features mpi"), "{error}");
        }
        let BenchCommand::Dist(a) = parse(&["dist", "--magpie", "/opt/magpie-mpi"]) else {
            panic!("expected dist");
        };
        assert_eq!(a.magpie_path().unwrap(), PathBuf::from("/opt/magpie-mpi"));
    }

    #[test]
    fn rejects_zero_reps() {
        assert!(Cli::try_parse_from(["bench", "queue", "--reps", "0"]).is_err());
    }
}
