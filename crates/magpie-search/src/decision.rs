//! Decision: find any node whose objective reaches a target, stopping every worker
//! as soon as one is found.

use std::sync::Mutex;

use crate::config::SearchConfig;
use crate::engine::{self, SearchType};
use crate::shared::{StopFlag, StopSignal};
use crate::space::Bounded;
use crate::stats::Outcome;
use crate::value::ObjectiveValue;

struct Decision<'d, S: Bounded, F> {
    target: S::Value,
    stop: &'d F,
    found: Mutex<Option<S::Node>>,
}

impl<S, F> SearchType<S> for Decision<'_, S, F>
where
    S: Bounded,
    S::Node: Clone,
    F: StopSignal,
{
    type Local = ();

    fn visit(&self, space: &S, node: &S::Node, _depth: usize, _local: &mut ()) -> bool {
        if space.objective(node) < self.target {
            return true;
        }
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        if found.is_none() {
            *found = Some(node.clone());
        }
        self.stop.stop();
        false
    }

    /// The children whose bound can reach the target: those above its predecessor
    /// (a clique space then colours with Re-NUMBER and leaves out the vertices it
    /// would not branch on).
    fn children<'a>(&self, space: &'a S, node: &'a S::Node) -> S::Children<'a> {
        match self.target.predecessor() {
            Some(below) => space.children_above(node, below),
            None => space.children(node),
        }
    }

    fn admits(&self, space: &S, child: &S::Node) -> bool {
        space.upper_bound(child) >= self.target
    }

    fn stop_requested(&self) -> bool {
        self.stop.is_stopped()
    }

    fn merge(&self, _local: ()) {}
}

/// Searches for a node with objective at least `target`; `None` if there is none.
/// Subtrees whose bound is below `target` are pruned.
pub fn decide<S>(space: &S, target: S::Value, config: &SearchConfig<'_>) -> Outcome<Option<S::Node>>
where
    S: Bounded,
    S::Node: Clone,
{
    decide_with(space, target, config, &StopFlag::new())
}

/// [`decide`] with a caller-supplied stop signal: raising it from elsewhere cancels
/// the search (the answer is then `None` unless a node was already found).
pub fn decide_with<S, F>(
    space: &S,
    target: S::Value,
    config: &SearchConfig<'_>,
    stop: &F,
) -> Outcome<Option<S::Node>>
where
    S: Bounded,
    S::Node: Clone,
    F: StopSignal,
{
    decide_subtrees(space, target, config, stop, vec![(space.root(), 0)])
}

/// [`decide_with`] over the subtrees of `roots` (nodes of `space`, each with its
/// depth): how a distributed layer searches the work it received.
pub fn decide_subtrees<S, F>(
    space: &S,
    target: S::Value,
    config: &SearchConfig<'_>,
    stop: &F,
    roots: Vec<(S::Node, usize)>,
) -> Outcome<Option<S::Node>>
where
    S: Bounded,
    S::Node: Clone,
    F: StopSignal,
{
    let kind = Decision {
        target,
        stop,
        found: Mutex::new(None),
    };
    let stats = engine::run(space, &kind, config, roots);
    let answer = kind.found.into_inner().unwrap_or_else(|e| e.into_inner());
    Outcome { answer, stats }
}
