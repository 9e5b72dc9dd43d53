//! Where a search runs: in this process ([`Local`]) or, in a build with the `mpi`
//! feature launched by `mpirun`, across the ranks (`mpi::Ranks`). The apps' runners
//! call either the same way; on ranks other than 0 they get `None` and print nothing.

use magpie_search::apps::clique::{self, CliqueBound, Graph};
use magpie_search::apps::knapsack::{self, KnapsackInstance, Solution};
use magpie_search::apps::semigroups::{self, Semigroups};
use magpie_search::apps::tsp::{self, Tour, TspInstance};
use magpie_search::apps::uts::{self, TreeSummary, UtsParams};
use magpie_search::{Outcome, SearchConfig, SearchStats};
use serde_json::Value;

use super::SearchError;

/// A search's answer and statistics, on the rank that reports.
pub struct Found<A> {
    pub answer: A,
    pub stats: SearchStats,
    /// Set for a run across ranks.
    pub distributed: Option<Distributed>,
}

/// How a run across ranks went.
pub struct Distributed {
    /// The number of ranks.
    pub ranks: usize,
    /// The node-level victim policy.
    pub node_policy: String,
    /// One JSON record per rank, then the totals.
    pub json: Value,
    /// One text line per rank, then the totals.
    pub lines: Vec<String>,
}

/// What every engine method returns: `None` on a rank that does not report.
pub type Run<A> = Result<Option<Found<A>>, SearchError>;

/// The applications' searches, wherever they run.
pub trait Engine {
    /// Whether this process prints the answer (and shows progress).
    fn reports(&self) -> bool {
        true
    }
    /// The search will run on `pool` (called once, before the search).
    fn use_pool(&mut self, pool: &magpie::ThreadPool) -> Result<(), SearchError> {
        let _ = pool;
        Ok(())
    }
    /// This process could not set up its search (flags, pool, input): the error to
    /// end with (a run across ranks first tells the others, and rank 0 alone prints).
    fn input_failed(&mut self, error: SearchError) -> SearchError {
        error
    }
    fn maximum_clique(
        &mut self,
        graph: &Graph,
        bound: CliqueBound,
        config: &SearchConfig<'_>,
    ) -> Run<Vec<usize>>;
    fn clique_of_size(
        &mut self,
        graph: &Graph,
        size: usize,
        bound: CliqueBound,
        config: &SearchConfig<'_>,
    ) -> Run<Option<Vec<usize>>>;
    fn count_by_genus(&mut self, space: &Semigroups, config: &SearchConfig<'_>) -> Run<Vec<u64>>;
    fn uts_count(&mut self, params: &UtsParams, config: &SearchConfig<'_>) -> Run<TreeSummary>;
    fn knapsack(&mut self, instance: &KnapsackInstance, config: &SearchConfig<'_>)
        -> Run<Solution>;
    fn solve_tsp(&mut self, instance: &TspInstance, config: &SearchConfig<'_>) -> Run<Tour>;
}

/// The search in this process.
pub struct Local;

fn local<A>(outcome: Outcome<A>) -> Run<A> {
    Ok(Some(Found {
        answer: outcome.answer,
        stats: outcome.stats,
        distributed: None,
    }))
}

impl Engine for Local {
    fn maximum_clique(
        &mut self,
        graph: &Graph,
        bound: CliqueBound,
        config: &SearchConfig<'_>,
    ) -> Run<Vec<usize>> {
        local(clique::maximum_clique_with(graph, bound, config))
    }

    fn clique_of_size(
        &mut self,
        graph: &Graph,
        size: usize,
        bound: CliqueBound,
        config: &SearchConfig<'_>,
    ) -> Run<Option<Vec<usize>>> {
        local(clique::clique_of_size_with(graph, size, bound, config))
    }

    fn count_by_genus(&mut self, space: &Semigroups, config: &SearchConfig<'_>) -> Run<Vec<u64>> {
        let genus = space.max_genus();
        let outcome = semigroups::count_by_genus(genus, config)
            .map_err(|e| SearchError::input(format!("genus {genus}"), e))?;
        local(outcome)
    }

    fn uts_count(&mut self, params: &UtsParams, config: &SearchConfig<'_>) -> Run<TreeSummary> {
        local(uts::uts_count(params, config))
    }

    fn knapsack(
        &mut self,
        instance: &KnapsackInstance,
        config: &SearchConfig<'_>,
    ) -> Run<Solution> {
        local(knapsack::knapsack(instance, config))
    }

    fn solve_tsp(&mut self, instance: &TspInstance, config: &SearchConfig<'_>) -> Run<Tour> {
        local(tsp::solve_tsp(instance, config))
    }
}
