//! [`Cluster`]: the public entry point. Every rank calls the same search with the same
//! arguments; rank 0 gets the answer and every rank's statistics, the others `None`.

use std::time::Duration;

use magpie_search::{
    decide_subtrees, enumerate_subtrees, optimise_subtrees, Best, Bounded, Enumerator, Monoid,
    ObjectiveValue, SearchConfig, SearchSpace, SearchStats,
};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::apps::DistResult;
use crate::driver::{agree, run_rank, RankReport};
use crate::error::DistError;
use crate::global::{GlobalIncumbent, GlobalStop, NoGlobal};
use crate::link::Link;
use crate::policy::{NodeVictimPolicy, RandomVictim};
use crate::slowdown::{Slowed, SlowedEnumerator};
use crate::stats::RankStats;
use crate::transport::Transport;

/// The answer of a distributed run (on rank 0) and its statistics.
#[derive(Clone, Debug)]
pub struct DistOutcome<T> {
    /// The answer, exactly what a single-process search gives.
    pub answer: T,
    /// The search counters summed over the ranks; `elapsed` and `pool` are rank 0's.
    pub stats: SearchStats,
    /// Each rank's counters, in rank order.
    pub ranks: Vec<RankStats>,
}

/// The ranks of one run, seen from one of them, with its node-level victim policy.
pub struct Cluster<T: Transport> {
    transport: T,
    policy: Box<dyn NodeVictimPolicy>,
    /// This rank is slowed down by this factor (see [`Slowed`]).
    slowdown: Option<f64>,
    /// Searches started on this cluster (failed ones too): the stamp of the current
    /// one's messages.
    searches: u32,
}

impl<T: Transport> std::fmt::Debug for Cluster<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("rank", &self.transport.rank())
            .field("size", &self.transport.size())
            .field("policy", &self.policy.name())
            .finish()
    }
}

impl<T: Transport> Cluster<T> {
    /// This rank's view over `transport`, stealing from random victims.
    pub fn new(transport: T) -> Self {
        let seed = 0x9e37_79b9_7f4a_7c15 ^ transport.rank() as u64;
        Self {
            transport,
            policy: Box::new(RandomVictim::new(seed)),
            slowdown: None,
            searches: 0,
        }
    }

    /// Makes this rank `factor` times slower at generating children (for experiments
    /// with imbalanced ranks; see [`Slowed`]). `None` or 1 runs at full speed.
    pub fn set_slowdown(&mut self, factor: Option<f64>) {
        self.slowdown = factor.filter(|&f| f > 1.0);
    }

    /// The same cluster choosing victims with `policy`.
    pub fn with_policy(mut self, policy: Box<dyn NodeVictimPolicy>) -> Self {
        self.set_policy(policy);
        self
    }

    /// Chooses victims with `policy` from the next search on.
    pub fn set_policy(&mut self, policy: Box<dyn NodeVictimPolicy>) {
        self.policy = policy;
    }

    /// This rank's number (0 reports the answer).
    pub fn rank(&self) -> usize {
        self.transport.rank()
    }

    /// The number of ranks.
    pub fn size(&self) -> usize {
        self.transport.size()
    }

    /// The node-level victim policy's name.
    pub fn policy_name(&self) -> &str {
        self.policy.name()
    }

    /// This rank could not set up its part of the run (`message`, e.g. a file it
    /// could not read): tells the other ranks, which are waiting to start a search,
    /// and returns the error every rank then returns.
    pub fn fail(&mut self, message: String) -> DistError {
        let search = self.next_search();
        match agree::<T, (), ()>(&mut self.transport, search, Err(message)) {
            Err(e) => e,
            Ok(_) => unreachable!("a failed rank never agrees to start"),
        }
    }

    /// The stamp of the search starting now (every rank counts its searches alike).
    fn next_search(&mut self) -> u32 {
        self.searches = self.searches.wrapping_add(1);
        self.searches
    }

    /// Waits until every rank has called `barrier`. Call it only where every rank
    /// will: after an error every rank returns ([`DistError::RankFailed`]), so that
    /// the rank that reports it has done so before any rank exits.
    pub fn barrier(&mut self) {
        self.transport.barrier();
    }

    /// [`magpie_search::enumerate`] across the ranks: the summaries of every rank
    /// combined on rank 0.
    pub fn enumerate<S, E>(
        &mut self,
        space: &S,
        enumerator: &E,
        config: &SearchConfig<'_>,
    ) -> DistResult<E::Summary>
    where
        S: SearchSpace,
        S::Node: Serialize + DeserializeOwned,
        E: Enumerator<S>,
        E::Summary: Serialize + DeserializeOwned,
    {
        match self.slowdown {
            Some(factor) => self.enumerate_here(
                &Slowed::new(space, factor),
                &SlowedEnumerator(enumerator),
                config,
            ),
            None => self.enumerate_here(space, enumerator, config),
        }
    }

    fn enumerate_here<S, E>(
        &mut self,
        space: &S,
        enumerator: &E,
        config: &SearchConfig<'_>,
    ) -> DistResult<E::Summary>
    where
        S: SearchSpace,
        S::Node: Serialize + DeserializeOwned,
        E: Enumerator<S>,
        E::Summary: Serialize + DeserializeOwned,
    {
        let ranks = self.size();
        let search = self.next_search();
        let reports = run_rank(
            &mut self.transport,
            search,
            &mut *self.policy,
            config.pool,
            &NoGlobal,
            vec![(space.root(), 0)],
            E::Summary::default(),
            |total: &mut E::Summary, roots, link| {
                let config = with_link(config, link, ranks);
                let outcome = enumerate_subtrees(space, enumerator, &config, roots);
                total.combine(outcome.answer);
                outcome.stats
            },
            |total| total,
        )?;
        Ok(reports.map(|reports| {
            let mut answer = E::Summary::default();
            let ranks = collect(reports, |part| answer.combine(part));
            outcome(answer, ranks, config)
        }))
    }

    /// [`magpie_search::optimise_with`] across the ranks, starting from the incumbent
    /// `initial` (node and value) on every rank: better values are broadcast as they
    /// are found, and rank 0 gets the best node of all.
    pub fn optimise<S>(
        &mut self,
        space: &S,
        initial: (S::Node, S::Value),
        config: &SearchConfig<'_>,
    ) -> DistResult<Best<S::Node, S::Value>>
    where
        S: Bounded,
        S::Node: Clone + Serialize + DeserializeOwned,
    {
        match self.slowdown {
            Some(factor) => self.optimise_here(&Slowed::new(space, factor), initial, config),
            None => self.optimise_here(space, initial, config),
        }
    }

    fn optimise_here<S>(
        &mut self,
        space: &S,
        initial: (S::Node, S::Value),
        config: &SearchConfig<'_>,
    ) -> DistResult<Best<S::Node, S::Value>>
    where
        S: Bounded,
        S::Node: Clone + Serialize + DeserializeOwned,
    {
        let (node, value) = initial;
        let incumbent = GlobalIncumbent::new(node, value);
        let ranks = self.size();
        let search = self.next_search();
        let reports = run_rank(
            &mut self.transport,
            search,
            &mut *self.policy,
            config.pool,
            &incumbent,
            vec![(space.root(), 0)],
            (),
            |_: &mut (), roots, link| {
                let config = with_link(config, link, ranks);
                optimise_subtrees(space, &config, &incumbent, roots)
            },
            |()| {
                let (node, value) = incumbent.best_here();
                (node, value.to_ordered_bits())
            },
        )?;
        Ok(reports.map(|reports| {
            let mut best: Option<(S::Node, u64)> = None;
            let ranks = collect(reports, |(node, bits)| {
                if best.as_ref().map_or(true, |(_, b)| bits > *b) {
                    best = Some((node, bits));
                }
            });
            let (node, bits) = best.expect("rank 0 reports");
            let answer = Best {
                node,
                value: S::Value::from_ordered_bits(bits),
            };
            outcome(answer, ranks, config)
        }))
    }

    /// [`magpie_search::decide`] across the ranks: the first rank to find a node
    /// reaching `target` stops all of them; rank 0 gets a witness (the one of the
    /// lowest rank that found one).
    pub fn decide<S>(
        &mut self,
        space: &S,
        target: S::Value,
        config: &SearchConfig<'_>,
    ) -> DistResult<Option<S::Node>>
    where
        S: Bounded,
        S::Node: Clone + Serialize + DeserializeOwned,
    {
        match self.slowdown {
            Some(factor) => self.decide_here(&Slowed::new(space, factor), target, config),
            None => self.decide_here(space, target, config),
        }
    }

    fn decide_here<S>(
        &mut self,
        space: &S,
        target: S::Value,
        config: &SearchConfig<'_>,
    ) -> DistResult<Option<S::Node>>
    where
        S: Bounded,
        S::Node: Clone + Serialize + DeserializeOwned,
    {
        let stop = GlobalStop::default();
        let ranks = self.size();
        let search = self.next_search();
        let reports = run_rank(
            &mut self.transport,
            search,
            &mut *self.policy,
            config.pool,
            &stop,
            vec![(space.root(), 0)],
            None,
            |found: &mut Option<S::Node>, roots, link| {
                let config = with_link(config, link, ranks);
                let outcome = decide_subtrees(space, target, &config, &stop, roots);
                if found.is_none() {
                    *found = outcome.answer;
                }
                outcome.stats
            },
            |found| found,
        )?;
        Ok(reports.map(|reports| {
            let mut witness = None;
            let ranks = collect(reports, |part| {
                if witness.is_none() {
                    witness = part;
                }
            });
            outcome(witness, ranks, config)
        }))
    }
}

/// `config` with `link` as its remote sink, unless this rank is alone (then the run is
/// the single-process engine's, without a depth pool to keep for thieves).
fn with_link<'c, N: Send + 'static>(
    config: &SearchConfig<'c>,
    link: &'c Link<N>,
    ranks: usize,
) -> SearchConfig<'c> {
    SearchConfig {
        remote: (ranks > 1).then_some(link as &dyn magpie_search::RemoteSink),
        ..*config
    }
}

/// Splits the reports into their shares (given to `take`, in rank order) and stats.
fn collect<P>(reports: Vec<RankReport<P>>, mut take: impl FnMut(P)) -> Vec<RankStats> {
    reports
        .into_iter()
        .map(|report| {
            take(report.part);
            report.stats
        })
        .collect()
}

fn outcome<A>(answer: A, ranks: Vec<RankStats>, config: &SearchConfig<'_>) -> DistOutcome<A> {
    let total = RankStats::total(&ranks);
    let elapsed = ranks.first().map_or(Duration::ZERO, |r| r.elapsed);
    DistOutcome {
        answer,
        stats: SearchStats {
            nodes_expanded: total.nodes_expanded,
            prunes: total.prunes,
            tasks: total.tasks,
            elapsed,
            pool: config.pool.map(magpie::ThreadPool::stats),
        },
        ranks,
    }
}
