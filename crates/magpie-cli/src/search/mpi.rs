//! The `mpi` feature: searches across the ranks `mpirun` started, through
//! [`magpie_dist`]. Rank 0 prints the answer; every rank exits non-zero on an error,
//! and only rank 0 prints it.

use std::sync::OnceLock;

use magpie_dist::{by_name, Cluster, DistError, DistOutcome, MpiTransport, RankStats};
use magpie_search::apps::clique::{CliqueBound, Graph};
use magpie_search::apps::knapsack::{KnapsackInstance, Solution};
use magpie_search::apps::semigroups::Semigroups;
use magpie_search::apps::tsp::{Tour, TspInstance};
use magpie_search::apps::uts::{TreeSummary, UtsParams};
use magpie_search::SearchConfig;
use serde_json::json;

use super::engine::{Distributed, Engine, Found, Run};
use super::SearchError;

/// Whether this process was started by `mpirun` (Open MPI sets this variable; so do
/// MPICH's `PMI_SIZE` and Slurm's `PMI_SIZE`).
pub fn launched_by_mpirun() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// The ranks of this run, seen from this process.
pub struct Ranks {
    cluster: Cluster<MpiTransport>,
    /// The node-level victim policy's name (`--node-policy`).
    node_policy: String,
}

/// MPI is initialized once per process.
static STARTED: OnceLock<()> = OnceLock::new();

impl Ranks {
    /// Initializes MPI (once per process; call from the main thread, which then owns
    /// all MPI calls); the ranks will choose victims with the node policy called
    /// `node_policy`, and the ranks in `slow_ranks` run `slowdown` times slower.
    pub fn start(
        node_policy: &str,
        slow_ranks: &[usize],
        slowdown: Option<f64>,
    ) -> Result<Self, SearchError> {
        if STARTED.set(()).is_err() {
            return Err(dist(DistError::MpiInit, 0));
        }
        let transport = MpiTransport::init().map_err(|e| dist(e, 0))?;
        let mut ranks = Self {
            cluster: Cluster::new(transport),
            node_policy: node_policy.to_string(),
        };
        // Checked after MPI starts, so that the ranks agree and rank 0 alone prints.
        let size = ranks.cluster.size();
        let usage = if slowdown.is_some_and(|f| !(f >= 1.0 && f.is_finite())) {
            Some("--slowdown must be a factor >= 1".to_string())
        } else {
            slow_ranks
                .iter()
                .find(|&&r| r >= size)
                .map(|r| format!("--slow-ranks {r}: the run has {size} ranks, numbered from 0"))
        };
        if let Some(usage) = usage {
            return Err(ranks.input_failed(SearchError::Usage(usage)));
        }
        if slow_ranks.contains(&ranks.cluster.rank()) {
            ranks.cluster.set_slowdown(slowdown);
        }
        Ok(ranks)
    }

    fn found<A>(&mut self, outcome: Result<Option<DistOutcome<A>>, DistError>) -> Run<A> {
        let outcome = outcome.map_err(|e| self.failed(e))?;
        Ok(outcome.map(|o| Found {
            answer: o.answer,
            stats: o.stats,
            distributed: Some(describe(&o.ranks, self.cluster.policy_name())),
        }))
    }
}

impl Ranks {
    /// A distributed error as the CLI's. An error every rank returns (a rank could not
    /// read its input) is printed by rank 0 here, before every rank passes a barrier:
    /// `mpirun` ends the whole job as soon as one rank exits non-zero, so a rank that
    /// exited first could cut rank 0 off before it printed.
    fn failed(&mut self, error: DistError) -> SearchError {
        let rank = self.cluster.rank();
        if !matches!(error, DistError::RankFailed { .. }) {
            return dist(error, rank);
        }
        if rank == 0 {
            crate::print_error(&error);
        }
        self.cluster.barrier();
        SearchError::Distributed {
            message: error.to_string(),
            print: false,
            exit_code: 1,
        }
    }
}

/// A distributed error as the CLI's: only rank 0 prints it.
fn dist(error: DistError, rank: usize) -> SearchError {
    SearchError::Distributed {
        message: error.to_string(),
        print: rank == 0,
        exit_code: 1,
    }
}

fn describe(ranks: &[RankStats], policy: &str) -> Distributed {
    let total = RankStats::total(ranks);
    let record = |r: &RankStats| {
        json!({
            "rank": r.rank,
            "nodes_expanded": r.nodes_expanded,
            "tasks": r.tasks,
            "batches": r.batches,
            "steals_requested": r.steals_requested,
            "steals_succeeded": r.steals_succeeded,
            "steals_served": r.steals_served,
            "steals_refused": r.steals_refused,
            "subtrees_sent": r.subtrees_sent,
            "messages_sent": r.messages_sent,
            "bytes_sent": r.bytes_sent,
            "work_bytes_sent": r.work_bytes_sent,
            "idle_seconds": r.idle.as_secs_f64(),
            "idle_cpu_seconds": r.idle_cpu.as_secs_f64(),
            "seconds": r.elapsed.as_secs_f64(),
        })
    };
    let mut lines: Vec<String> = ranks
        .iter()
        .map(|r| format!("rank {}: {r}", r.rank))
        .collect();
    lines.push(format!("all ranks: {total}"));
    Distributed {
        ranks: ranks.len(),
        node_policy: policy.to_string(),
        json: json!({
            "per_rank": ranks.iter().map(record).collect::<Vec<_>>(),
            "total": record(&total),
        }),
        lines,
    }
}

impl Engine for Ranks {
    fn reports(&self) -> bool {
        self.cluster.rank() == 0
    }

    fn use_pool(&mut self, pool: &magpie::ThreadPool) -> Result<(), SearchError> {
        let policy = by_name(
            &self.node_policy,
            self.cluster.rank(),
            pool.current_num_threads(),
        )
        .map_err(|e| SearchError::Usage(e.to_string()))?;
        self.cluster.set_policy(policy);
        Ok(())
    }

    fn input_failed(&mut self, error: SearchError) -> SearchError {
        let code = error.exit_code();
        let failed = self.cluster.fail(error.to_string());
        match self.failed(failed) {
            SearchError::Distributed { message, print, .. } => SearchError::Distributed {
                message,
                print,
                exit_code: code,
            },
            other => other,
        }
    }

    fn maximum_clique(
        &mut self,
        graph: &Graph,
        bound: CliqueBound,
        config: &SearchConfig<'_>,
    ) -> Run<Vec<usize>> {
        let outcome = self.cluster.maximum_clique_with(graph, bound, config);
        self.found(outcome)
    }

    fn clique_of_size(
        &mut self,
        graph: &Graph,
        size: usize,
        bound: CliqueBound,
        config: &SearchConfig<'_>,
    ) -> Run<Option<Vec<usize>>> {
        let outcome = self.cluster.clique_of_size_with(graph, size, bound, config);
        self.found(outcome)
    }

    fn count_by_genus(&mut self, space: &Semigroups, config: &SearchConfig<'_>) -> Run<Vec<u64>> {
        let outcome = self.cluster.count_by_genus(space, config);
        self.found(outcome)
    }

    fn uts_count(&mut self, params: &UtsParams, config: &SearchConfig<'_>) -> Run<TreeSummary> {
        let outcome = self.cluster.uts_count(params, config);
        self.found(outcome)
    }

    fn knapsack(
        &mut self,
        instance: &KnapsackInstance,
        config: &SearchConfig<'_>,
    ) -> Run<Solution> {
        let outcome = self.cluster.knapsack(instance, config);
        self.found(outcome)
    }

    fn solve_tsp(&mut self, instance: &TspInstance, config: &SearchConfig<'_>) -> Run<Tour> {
        let outcome = self.cluster.solve_tsp(instance, config);
        self.found(outcome)
    }
}
