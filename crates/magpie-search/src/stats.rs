//! What a search run reports: [`Outcome`] and [`SearchStats`].

use std::fmt;
use std::time::Duration;

use magpie::PoolStats;

/// Counters and timing of one search run.
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    /// Nodes visited (their objective checked and children generated).
    pub nodes_expanded: u64,
    /// Nodes discarded because their bound could not beat the incumbent or target.
    /// With sibling pruning, a cut-off counts once for all remaining siblings.
    pub prunes: u64,
    /// Tasks the search ran: one per root for a sequential run (1 from a single
    /// root), more as the coordination splits the tree.
    pub tasks: u64,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// The pool's statistics after the run, when the run was given a pool. They are
    /// cumulative since the pool was built.
    pub pool: Option<PoolStats>,
}

/// The answer of a search run and its statistics.
#[derive(Clone, Debug)]
pub struct Outcome<T> {
    /// The search type's answer.
    pub answer: T,
    /// Counters and timing.
    pub stats: SearchStats,
}

impl fmt::Display for SearchStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "nodes expanded {}, prunes {}, tasks {}, time {:.3}s",
            self.nodes_expanded,
            self.prunes,
            self.tasks,
            self.elapsed.as_secs_f64()
        )?;
        if let Some(pool) = &self.pool {
            write!(f, "{pool}")?;
        }
        Ok(())
    }
}
