//! `magpie search <app> ...`: run one exact search and report the answer, the search
//! statistics and the pool's statistics (text, or one JSON record with `--json`).
//!
//! The flags shared by every application choose the skeleton's coordination, the
//! pool size and its victim policy; each application adds its own input (a file or
//! parameters). Bad input ends in one line on stderr and a non-zero exit.

mod apps;
mod engine;
mod error;
#[cfg(feature = "mpi")]
mod mpi;
mod progress;
mod report;

use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use magpie::{BuildError, ThreadPool, ThreadPoolBuilder};
use magpie_search::{Coordination, Progress, SearchConfig};

pub use error::SearchError;
use report::Report;

#[derive(Args, Debug)]
#[command(
    subcommand_required = true,
    arg_required_else_help = true,
    after_help = "Examples (the files are in the repository, crates/magpie-cli/data/):\n  \
magpie search clique crates/magpie-cli/data/brock200_4.clq\n  \
magpie search clique FILE --skeleton depth-bounded -d 2 --threads 2 --json\n  \
magpie search semigroups -g 20\n  magpie search uts T1 --skeleton budget -b 1000\n  \
magpie search knapsack crates/magpie-cli/data/knapPI_1_50_1000_1.kp\n  \
magpie search tsp crates/magpie-cli/data/gr17.tsp --policy last"
)]
pub struct SearchArgs {
    #[command(subcommand)]
    app: AppCommand,
}

#[derive(Subcommand, Debug)]
enum AppCommand {
    /// Maximum clique of a DIMACS graph (or, with --decide K, a clique of size K)
    Clique(apps::CliqueArgs),
    /// Count numerical semigroups by genus, up to genus G
    Semigroups(apps::SemigroupsArgs),
    /// Unbalanced Tree Search: nodes, leaves and depth of a UTS tree
    Uts(apps::UtsArgs),
    /// 0/1 knapsack (Pisinger .kp or low-dimensional .txt files)
    Knapsack(apps::KnapsackArgs),
    /// Travelling salesman: an optimal tour of a TSPLIB instance
    Tsp(apps::TspArgs),
}

impl AppCommand {
    /// A spawn depth that gives the depth-bounded skeleton enough tasks on this
    /// application's trees (the values `magpie bench search` uses): a clique root has
    /// a child per vertex, the semigroup tree has 1, 1, 2, 4, 7 … nodes per level, a
    /// knapsack tree is binary.
    fn default_spawn_depth(&self) -> usize {
        match self {
            AppCommand::Clique(_) => 2,
            AppCommand::Semigroups(a) => (a.max_genus() * 2 / 3).max(1),
            AppCommand::Uts(_) => 4,
            AppCommand::Knapsack(_) => 8,
            AppCommand::Tsp(_) => 3,
        }
    }
}

/// The coordination of a skeleton.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skeleton {
    /// One depth-first traversal on one worker
    Sequential,
    /// Nodes up to depth -d become tasks
    DepthBounded,
    /// Idle workers take the shallowest unexplored child of a busy one
    StackStealing,
    /// After -b backtracks a task gives away its shallowest level
    Budget,
}

/// Flags shared by every application.
#[derive(Args, Debug, Clone)]
pub struct SearchOptions {
    /// Worker threads [default: MAGPIE_NUM_THREADS, or the number of CPUs]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=4096))]
    threads: Option<u16>,
    /// The coordination [default: depth-bounded with -d, budget with -b, else stack-stealing]
    #[arg(long, value_enum)]
    skeleton: Option<Skeleton>,
    /// Spawn depth of the depth-bounded skeleton [default: clique 2, semigroups 2/3 of
    /// the genus, uts 4, knapsack 8, tsp 3 — a few hundred tasks or more]
    #[arg(short = 'd', long = "spawn-depth", value_name = "DEPTH")]
    spawn_depth: Option<usize>,
    /// Backtracks before a budget task splits [default: 1000]
    #[arg(short = 'b', long = "backtracks", value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    backtracks: Option<u64>,
    /// Stack stealing hands over every unexplored sibling at the shallowest level
    #[arg(long)]
    steal_all: bool,
    /// Victim policy of the pool (see `magpie::policy::NAMES`)
    #[arg(long, value_name = "NAME", default_value = "random",
          value_parser = clap::builder::PossibleValuesParser::new(magpie::policy::NAMES))]
    policy: String,
    /// Node-level victim policy of a run under mpirun: random, depthpool (random, then
    /// the last victim that gave work) or performance (YewPar thesis, ch. 3)
    #[cfg(feature = "mpi")]
    #[arg(long, value_name = "NAME", default_value = "random",
          value_parser = clap::builder::PossibleValuesParser::new(magpie_dist::policy::NAMES))]
    node_policy: String,
    /// Ranks of a run under mpirun made slower on purpose (experiments with imbalanced
    /// ranks), e.g. 1,3; see --slowdown (a usage error without mpirun)
    #[cfg(feature = "mpi")]
    #[arg(
        long,
        value_name = "RANKS",
        value_delimiter = ',',
        requires = "slowdown"
    )]
    slow_ranks: Vec<usize>,
    /// How many times slower the --slow-ranks search: their workers need this many times
    /// the CPU time (they spin for the difference)
    #[cfg(feature = "mpi")]
    #[arg(long, value_name = "FACTOR", requires = "slow_ranks")]
    slowdown: Option<f64>,
    /// Print one JSON record instead of text
    #[arg(long)]
    json: bool,
    /// Do not show progress on stderr (shown after a second otherwise)
    #[arg(long)]
    no_progress: bool,
}

impl Default for SearchOptions {
    /// Stack stealing on every core, random victims, progress shown, text output.
    fn default() -> Self {
        Self {
            threads: None,
            skeleton: None,
            spawn_depth: None,
            backtracks: None,
            steal_all: false,
            policy: "random".into(),
            #[cfg(feature = "mpi")]
            node_policy: "random".into(),
            #[cfg(feature = "mpi")]
            slow_ranks: Vec::new(),
            #[cfg(feature = "mpi")]
            slowdown: None,
            json: false,
            no_progress: false,
        }
    }
}

impl SearchOptions {
    /// The coordination the flags ask for.
    fn coordination(&self, default_spawn_depth: usize) -> Result<Coordination, SearchError> {
        let skeleton = match (self.skeleton, self.spawn_depth, self.backtracks) {
            (Some(s), _, _) => s,
            (None, Some(_), Some(_)) => {
                return Err(SearchError::Usage(
                    "-d belongs to depth-bounded and -b to budget; pick one (or --skeleton)".into(),
                ))
            }
            (None, Some(_), None) => Skeleton::DepthBounded,
            (None, None, Some(_)) => Skeleton::Budget,
            (None, None, None) => Skeleton::StackStealing,
        };
        let stray = |flag: &str| {
            // The skeleton as `--skeleton` takes it (`depth-bounded`), not as Debug
            // spells it (`DepthBounded`).
            let value = skeleton.to_possible_value().expect("no skeleton is hidden");
            let name = value.get_name();
            SearchError::Usage(format!("{flag} does not apply to --skeleton {name}"))
        };
        if self.spawn_depth.is_some() && skeleton != Skeleton::DepthBounded {
            return Err(stray("-d"));
        }
        if self.backtracks.is_some() && skeleton != Skeleton::Budget {
            return Err(stray("-b"));
        }
        if self.steal_all && skeleton != Skeleton::StackStealing {
            return Err(stray("--steal-all"));
        }
        Ok(match skeleton {
            Skeleton::Sequential => Coordination::Sequential,
            Skeleton::DepthBounded => Coordination::DepthBounded {
                spawn_depth: self.spawn_depth.unwrap_or(default_spawn_depth),
            },
            Skeleton::StackStealing => Coordination::StackStealing {
                steal_all: self.steal_all,
            },
            Skeleton::Budget => Coordination::Budget {
                backtracks: self.backtracks.unwrap_or(1000),
            },
        })
    }

    fn pool(&self) -> Result<ThreadPool, SearchError> {
        let policy =
            magpie::policy::by_name(&self.policy).map_err(|e| SearchError::Usage(e.to_string()))?;
        let mut builder = ThreadPoolBuilder::new()
            .victim_policy_boxed(policy)
            .thread_name(|i| format!("magpie-search-{i}"));
        if let Some(threads) = self.threads {
            builder = builder.num_threads(usize::from(threads));
        }
        builder.build().map_err(|e| {
            let message = format!("cannot build the pool: {e}");
            match e {
                // MAGPIE_NUM_THREADS is part of how magpie was called.
                BuildError::InvalidEnv { .. } | BuildError::TooManyThreads { .. } => {
                    SearchError::Usage(message)
                }
                _ => SearchError::Pool(message),
            }
        })
    }
}

/// An application's runner: reads its input, searches with the given configuration
/// (coordination, pool, progress counter) on the engine and reports (`None` on a rank
/// that does not report).
pub type Runner<'r> = dyn Fn(&SearchConfig<'_>, &mut dyn engine::Engine) -> apps::Reported + 'r;

/// Runs `magpie search ...`: across the ranks when an MPI build was started by
/// `mpirun`, in this process otherwise.
pub fn search(args: &SearchArgs) -> Result<(), SearchError> {
    let (options, runner): (&SearchOptions, &Runner<'_>) = match &args.app {
        AppCommand::Clique(a) => (&a.options, &|config, e| apps::clique(a, config, e)),
        AppCommand::Semigroups(a) => (&a.options, &|config, e| apps::semigroups(a, config, e)),
        AppCommand::Uts(a) => (&a.options, &|config, e| apps::uts(a, config, e)),
        AppCommand::Knapsack(a) => (&a.options, &|config, e| apps::knapsack(a, config, e)),
        AppCommand::Tsp(a) => (&a.options, &|config, e| apps::tsp(a, config, e)),
    };
    #[cfg(feature = "mpi")]
    let mut engine: Box<dyn engine::Engine> = if mpi::launched_by_mpirun() {
        Box::new(mpi::Ranks::start(
            &options.node_policy,
            &options.slow_ranks,
            options.slowdown,
        )?)
    } else if !options.slow_ranks.is_empty() {
        // A single process is no rank of a run: nothing would be slowed.
        return Err(SearchError::Usage(
            "--slow-ranks applies to a run under mpirun; this process was not started by it".into(),
        ));
    } else {
        Box::new(engine::Local)
    };
    #[cfg(not(feature = "mpi"))]
    let mut engine: Box<dyn engine::Engine> = Box::new(engine::Local);
    let Some(report) = run_search(
        options,
        args.app.default_spawn_depth(),
        runner,
        &mut *engine,
    )?
    else {
        return Ok(());
    };
    if options.json {
        println!("{}", report.json());
    } else {
        print!("{}", report.text());
    }
    match report.contradicted_known_answer() {
        Some(known) => Err(SearchError::WrongAnswer(known.to_string())),
        None => Ok(()),
    }
}

/// The tour's search: the maximum clique of `graph` (named `input` in the report)
/// with the default options.
pub fn clique_for_tour(
    input: &str,
    graph: &magpie_search::apps::clique::Graph,
) -> Result<Report, SearchError> {
    let args = apps::CliqueArgs::new(input.into());
    let runner: &Runner<'_> =
        &|config, engine| apps::clique_of_graph(&args, input.to_string(), graph, config, engine);
    let report = run_search(&args.options, 2, runner, &mut engine::Local)?;
    Ok(report.expect("a search in this process reports"))
}

/// Builds the pool, runs `runner` on `engine` with progress on stderr, and returns
/// its report with the run's settings filled in (`None` on a rank that does not
/// report).
pub fn run_search(
    options: &SearchOptions,
    default_spawn_depth: usize,
    runner: &Runner<'_>,
    engine: &mut dyn engine::Engine,
) -> Result<Option<Report>, SearchError> {
    // Every error before the search goes through the engine: under mpirun the ranks
    // then agree on it and rank 0 alone prints it.
    let setup = options
        .coordination(default_spawn_depth)
        .and_then(|coordination| Ok((coordination, options.pool()?)));
    let (coordination, pool) = match setup {
        Ok(setup) => setup,
        Err(e) => return Err(engine.input_failed(e)),
    };
    if let Err(e) = engine.use_pool(&pool) {
        return Err(engine.input_failed(e));
    }
    let counter = Progress::new();
    let config = SearchConfig {
        coordination,
        ..SearchConfig::sequential()
    }
    .in_pool(&pool)
    .with_progress(&counter);
    let start = Instant::now();
    let show = !options.no_progress && engine.reports();
    let result = progress::while_running(&counter, show, || runner(&config, &mut *engine));
    let report = match result {
        Err(e @ (SearchError::Input { .. } | SearchError::Usage(_))) => {
            return Err(engine.input_failed(e))
        }
        other => other?,
    };
    Ok(report.map(|mut report| {
        report.settings(coordination, &pool, start.elapsed());
        report
    }))
}
