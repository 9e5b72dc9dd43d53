//! The three experiments' measurement loops. Each configuration gets one untimed
//! warm-up run; repetitions interleave the configurations being compared, so that
//! slow phases of this shared machine hit both sides of a ratio alike.

use magpie::{PoolStats, ThreadPool, ThreadPoolBuilder};
use magpie_search::{Coordination, SearchConfig};

use super::workload::{RunResult, Workload};
use crate::BenchError;

/// One timed run.
#[derive(Clone, Debug)]
pub struct Sample {
    /// `overhead`, `speedup` or `policy`.
    pub experiment: &'static str,
    /// Index into the experiment's workloads.
    pub workload: usize,
    /// `hand-written`, or the coordination's name.
    pub variant: String,
    /// Pool threads (0: no pool, the calling thread).
    pub threads: usize,
    /// Victim policy (empty without a pool).
    pub policy: String,
    /// Repetition number.
    pub rep: usize,
    pub seconds: f64,
    /// Nodes expanded (0 for a hand-written solver).
    pub nodes: u64,
    pub tasks: u64,
    /// Tasks stolen during this run, as a percentage of the tasks the pool ran.
    pub stolen_percent: f64,
}

/// A coordination with its table name.
pub type NamedCoordination = (&'static str, Coordination);

/// The name of a coordination in tables and CSV.
pub fn coordination_name(coordination: Coordination) -> String {
    match coordination {
        Coordination::Sequential => "sequential".into(),
        Coordination::DepthBounded { spawn_depth } => format!("depth-bounded d={spawn_depth}"),
        Coordination::StackStealing { steal_all: false } => "stack-stealing".into(),
        Coordination::StackStealing { steal_all: true } => "stack-stealing all".into(),
        Coordination::Budget { backtracks } => format!("budget b={backtracks}"),
    }
}

/// A pool of `threads` workers with victim policy `policy`.
pub fn pool(threads: usize, policy: &str) -> Result<ThreadPool, BenchError> {
    let policy = magpie::policy::by_name(policy).map_err(|e| BenchError::Invalid(e.to_string()))?;
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .victim_policy_boxed(policy)
        .build()
        .map_err(|e| BenchError::Invalid(format!("cannot build a pool: {e}")))
}

/// Checks every answer of a workload against the first (or the known) answer.
struct Answers {
    expected: Vec<Option<String>>,
}

impl Answers {
    fn new(workloads: &[Workload]) -> Self {
        Self {
            expected: workloads.iter().map(Workload::known_answer).collect(),
        }
    }

    fn check(
        &mut self,
        workloads: &[Workload],
        w: usize,
        what: &str,
        answer: &str,
    ) -> Result<(), BenchError> {
        match &self.expected[w] {
            None => {
                self.expected[w] = Some(answer.to_string());
                Ok(())
            }
            Some(expected) if expected == answer => Ok(()),
            Some(expected) => Err(BenchError::Worker(format!(
                "{} under {what}: answer `{answer}`, expected `{expected}`",
                workloads[w].label()
            ))),
        }
    }
}

/// Percentage of the tasks run between `before` and `after` that were stolen.
fn stolen_between(before: &PoolStats, after: Option<&PoolStats>) -> f64 {
    let Some(after) = after else {
        return 0.0;
    };
    let (b, a) = (before.total(), after.total());
    let tasks = a.tasks_run.saturating_sub(b.tasks_run);
    let stolen = a.items_stolen.saturating_sub(b.items_stolen);
    if tasks == 0 {
        0.0
    } else {
        100.0 * stolen as f64 / tasks as f64
    }
}

struct Runner<'a> {
    workloads: &'a [Workload],
    answers: Answers,
    samples: Vec<Sample>,
    experiment: &'static str,
}

impl<'a> Runner<'a> {
    fn new(workloads: &'a [Workload], experiment: &'static str) -> Self {
        Self {
            workloads,
            answers: Answers::new(workloads),
            samples: Vec::new(),
            experiment,
        }
    }

    /// Runs workload `w` with `coordination` in `pool` (or on this thread), records
    /// the sample unless `rep` is `None` (warm-up).
    fn skeleton(
        &mut self,
        w: usize,
        coordination: Coordination,
        pool: Option<(&ThreadPool, &str)>,
        rep: Option<usize>,
    ) -> Result<(), BenchError> {
        let mut config = SearchConfig {
            coordination,
            ..SearchConfig::sequential()
        };
        let before = pool.map(|(p, _)| p.stats());
        if let Some((p, _)) = pool {
            config = config.in_pool(p);
        }
        let run = self.workloads[w].run(&config)?;
        let variant = coordination_name(coordination);
        self.answers
            .check(self.workloads, w, &variant, &run.answer)?;
        let stolen = match (&before, &run.stats) {
            (Some(before), Some(stats)) => stolen_between(before, stats.pool.as_ref()),
            _ => 0.0,
        };
        let threads = pool.map_or(0, |(p, _)| p.current_num_threads());
        let policy = pool.map_or(String::new(), |(_, name)| name.to_string());
        self.record(w, variant, threads, policy, rep, &run, stolen);
        Ok(())
    }

    fn handwritten(&mut self, w: usize, rep: Option<usize>) -> Result<(), BenchError> {
        let run = self.workloads[w].run_handwritten()?;
        self.answers
            .check(self.workloads, w, "the hand-written solver", &run.answer)?;
        self.record(w, "hand-written".into(), 0, String::new(), rep, &run, 0.0);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        workload: usize,
        variant: String,
        threads: usize,
        policy: String,
        rep: Option<usize>,
        run: &RunResult,
        stolen_percent: f64,
    ) {
        let Some(rep) = rep else {
            return;
        };
        let stats = run.stats.as_ref();
        self.samples.push(Sample {
            experiment: self.experiment,
            workload,
            variant,
            threads,
            policy,
            rep,
            seconds: run.time.as_secs_f64(),
            nodes: stats.map_or(0, |s| s.nodes_expanded),
            tasks: stats.map_or(0, |s| s.tasks),
            stolen_percent,
        });
    }
}

/// Skeleton overhead: the sequential skeleton (no pool) against the hand-written
/// solver, alternating, `reps` times each.
pub fn overhead(workloads: &[Workload], reps: usize) -> Result<Vec<Sample>, BenchError> {
    let mut runner = Runner::new(workloads, "overhead");
    let bar = crate::progress::bar("search overhead", workloads.len() * (reps + 1));
    for w in 0..workloads.len() {
        bar.inc(1);
        runner.handwritten(w, None)?;
        runner.skeleton(w, Coordination::Sequential, None, None)?;
        for rep in 0..reps {
            // Alternate which side goes first, so neither always runs on a warm cache.
            if rep % 2 == 0 {
                runner.handwritten(w, Some(rep))?;
                runner.skeleton(w, Coordination::Sequential, None, Some(rep))?;
            } else {
                runner.skeleton(w, Coordination::Sequential, None, Some(rep))?;
                runner.handwritten(w, Some(rep))?;
            }
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    Ok(runner.samples)
}

/// Speedup: every coordination with a 1-thread and a 2-thread pool (random victims).
pub fn speedup(
    workloads: &[Workload],
    coordinations: &[NamedCoordination],
    reps: usize,
) -> Result<Vec<Sample>, BenchError> {
    let pools = [
        (pool(1, "random")?, "random"),
        (pool(2, "random")?, "random"),
    ];
    grid("speedup", workloads, coordinations, &pools, reps)
}

/// Victim policies: each coordination on 2 threads under each policy.
pub fn policies(
    workloads: &[Workload],
    coordinations: &[NamedCoordination],
    policies: &[&str],
    reps: usize,
) -> Result<Vec<Sample>, BenchError> {
    let pools = policies
        .iter()
        .map(|&name| Ok((pool(2, name)?, name)))
        .collect::<Result<Vec<_>, BenchError>>()?;
    grid("policy", workloads, coordinations, &pools, reps)
}

/// `coordination` with the workload's spawn depth if it is depth-bounded.
pub fn for_workload(coordination: Coordination, spawn_depth: usize) -> Coordination {
    match coordination {
        Coordination::DepthBounded { .. } => Coordination::DepthBounded { spawn_depth },
        other => other,
    }
}

/// Every workload under every coordination in every pool: a warm-up round, then
/// `reps` rounds that interleave the coordinations and pools, each round in a fresh
/// seeded order ([`crate::order`]) so no cell always runs after the same neighbour.
fn grid(
    experiment: &'static str,
    workloads: &[Workload],
    coordinations: &[NamedCoordination],
    pools: &[(ThreadPool, &str)],
    reps: usize,
) -> Result<Vec<Sample>, BenchError> {
    let mut runner = Runner::new(workloads, experiment);
    let cells: Vec<(Coordination, usize)> = coordinations
        .iter()
        .flat_map(|&(_, c)| (0..pools.len()).map(move |p| (c, p)))
        .collect();
    let bar = crate::progress::bar(
        &format!("search {experiment}"),
        workloads.len() * (reps + 1) * cells.len(),
    );
    for (w, workload) in workloads.iter().enumerate() {
        let spawn_depth = workload.spawn_depth();
        for rep in std::iter::once(None).chain((0..reps).map(Some)) {
            let order = match rep {
                None => (0..cells.len()).collect(),
                Some(r) => crate::order::for_repetition(cells.len(), r),
            };
            for c in order {
                let (coordination, p) = cells[c];
                let coordination = for_workload(coordination, spawn_depth);
                let (pool, name) = &pools[p];
                runner.skeleton(w, coordination, Some((pool, name)), rep)?;
                bar.inc(1);
            }
        }
    }
    bar.finish_and_clear();
    Ok(runner.samples)
}
