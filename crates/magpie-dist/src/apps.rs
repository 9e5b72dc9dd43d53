//! The applications of [`magpie_search::apps`] across ranks: the same answers as
//! their single-process functions, on rank 0 (`None` elsewhere).

use magpie_search::apps::clique::{CliqueBound, Graph, MaxClique};
use magpie_search::apps::knapsack::{KnapsackInstance, KnapsackSpace, Solution};
use magpie_search::apps::semigroups::Semigroups;
use magpie_search::apps::tsp::{Tour, TspInstance, TspSpace};
use magpie_search::apps::uts::{SummariseTree, TreeSummary, Uts, UtsParams};
use magpie_search::{NodesPerDepth, Objective, SearchConfig, SearchSpace};

use crate::cluster::{Cluster, DistOutcome};
use crate::error::DistError;
use crate::transport::Transport;

/// What every distributed app returns: rank 0's outcome, or `None` on other ranks.
pub type DistResult<T> = Result<Option<DistOutcome<T>>, DistError>;

fn map<A, B>(outcome: Option<DistOutcome<A>>, f: impl FnOnce(A) -> B) -> Option<DistOutcome<B>> {
    outcome.map(|o| DistOutcome {
        answer: f(o.answer),
        stats: o.stats,
        ranks: o.ranks,
    })
}

impl<T: Transport> Cluster<T> {
    /// [`maximum_clique`](magpie_search::apps::clique::maximum_clique) across ranks.
    pub fn maximum_clique(
        &mut self,
        graph: &Graph,
        config: &SearchConfig<'_>,
    ) -> DistResult<Vec<usize>> {
        self.maximum_clique_with(graph, CliqueBound::Colour, config)
    }

    /// [`maximum_clique`](Self::maximum_clique) pruning with `bound`.
    pub fn maximum_clique_with(
        &mut self,
        graph: &Graph,
        bound: CliqueBound,
        config: &SearchConfig<'_>,
    ) -> DistResult<Vec<usize>> {
        let space = MaxClique::with_bound(graph, bound);
        let root = space.root();
        let value = space.objective(&root);
        let outcome = self.optimise(&space, (root, value), &config.with_sibling_pruning(true))?;
        Ok(map(outcome, |best| space.clique_of(&best.node)))
    }

    /// [`clique_of_size`](magpie_search::apps::clique::clique_of_size) across ranks.
    pub fn clique_of_size(
        &mut self,
        graph: &Graph,
        size: usize,
        config: &SearchConfig<'_>,
    ) -> DistResult<Option<Vec<usize>>> {
        self.clique_of_size_with(graph, size, CliqueBound::Colour, config)
    }

    /// [`clique_of_size`](Self::clique_of_size) pruning with `bound`.
    pub fn clique_of_size_with(
        &mut self,
        graph: &Graph,
        size: usize,
        bound: CliqueBound,
        config: &SearchConfig<'_>,
    ) -> DistResult<Option<Vec<usize>>> {
        let space = MaxClique::with_bound(graph, bound);
        let outcome = self.decide(&space, size, &config.with_sibling_pruning(true))?;
        Ok(map(outcome, |found| {
            found.map(|node| space.clique_of(&node))
        }))
    }

    /// [`count_by_genus`](magpie_search::apps::semigroups::count_by_genus) across
    /// ranks.
    pub fn count_by_genus(
        &mut self,
        space: &Semigroups,
        config: &SearchConfig<'_>,
    ) -> DistResult<Vec<u64>> {
        let outcome = self.enumerate(space, &NodesPerDepth, config)?;
        Ok(map(outcome, |counts| {
            let mut counts = counts.counts().to_vec();
            counts.resize(space.max_genus() + 1, 0);
            counts
        }))
    }

    /// [`uts_count`](magpie_search::apps::uts::uts_count) across ranks.
    pub fn uts_count(
        &mut self,
        params: &UtsParams,
        config: &SearchConfig<'_>,
    ) -> DistResult<TreeSummary> {
        self.enumerate(&Uts::new(*params), &SummariseTree, config)
    }

    /// [`knapsack`](magpie_search::apps::knapsack::knapsack) across ranks (from the
    /// greedy packing, sibling pruning off).
    pub fn knapsack(
        &mut self,
        instance: &KnapsackInstance,
        config: &SearchConfig<'_>,
    ) -> DistResult<Solution> {
        let space = KnapsackSpace::new(instance);
        let greedy = space.greedy();
        let value = space.objective(&greedy);
        let outcome =
            self.optimise(&space, (greedy, value), &config.with_sibling_pruning(false))?;
        Ok(map(outcome, |best| space.solution_of(&best.node)))
    }

    /// [`solve_tsp`](magpie_search::apps::tsp::solve_tsp) across ranks (from the
    /// 2-opt tour, sibling pruning off).
    pub fn solve_tsp(
        &mut self,
        instance: &TspInstance,
        config: &SearchConfig<'_>,
    ) -> DistResult<Tour> {
        let space = TspSpace::new(instance);
        let seed = space.heuristic_node();
        let value = space.objective(&seed);
        let outcome = self.optimise(&space, (seed, value), &config.with_sibling_pruning(false))?;
        Ok(map(outcome, |best| {
            space
                .tour_of(&best.node)
                .unwrap_or_else(|| space.heuristic_tour().clone())
        }))
    }
}
