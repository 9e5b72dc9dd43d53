//! Optimisation (branch and bound): find a node of maximum objective, pruning every
//! subtree whose bound cannot beat the shared incumbent.

use std::marker::PhantomData;

use crate::config::SearchConfig;
use crate::engine::{self, SearchType};
use crate::shared::{Incumbent, SharedIncumbent};
use crate::space::Bounded;
use crate::stats::Outcome;

/// The answer of an optimisation: a best node and its objective.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Best<N, V> {
    /// A node of maximum objective.
    pub node: N,
    /// Its objective.
    pub value: V,
}

struct Optimisation<'o, S, I> {
    incumbent: &'o I,
    space: PhantomData<fn(&S)>,
}

impl<S, I> SearchType<S> for Optimisation<'_, S, I>
where
    S: Bounded,
    I: Incumbent<S::Node, S::Value>,
{
    type Local = ();

    fn visit(&self, space: &S, node: &S::Node, _depth: usize, _local: &mut ()) -> bool {
        let value = space.objective(node);
        if value > self.incumbent.best_value() {
            self.incumbent.offer(node, value);
        }
        true
    }

    fn children<'a>(&self, space: &'a S, node: &'a S::Node) -> S::Children<'a> {
        space.children_above(node, self.incumbent.best_value())
    }

    fn admits(&self, space: &S, child: &S::Node) -> bool {
        space.upper_bound(child) > self.incumbent.best_value()
    }

    fn stop_requested(&self) -> bool {
        false
    }

    fn merge(&self, _local: ()) {}
}

/// Finds a node of maximum objective. The root is the first incumbent.
pub fn optimise<S>(space: &S, config: &SearchConfig<'_>) -> Outcome<Best<S::Node, S::Value>>
where
    S: Bounded,
    S::Node: Clone,
{
    let root = space.root();
    let value = space.objective(&root);
    let incumbent = SharedIncumbent::new(root, value);
    let stats = optimise_with(space, config, &incumbent);
    let (node, value) = incumbent.into_best();
    Outcome {
        answer: Best { node, value },
        stats,
    }
}

/// Branch and bound against a caller-supplied incumbent (for example one already
/// holding a heuristic solution, or one shared between processes); the best node
/// ends up in `incumbent`.
pub fn optimise_with<S, I>(
    space: &S,
    config: &SearchConfig<'_>,
    incumbent: &I,
) -> crate::SearchStats
where
    S: Bounded,
    I: Incumbent<S::Node, S::Value>,
{
    optimise_subtrees(space, config, incumbent, vec![(space.root(), 0)])
}

/// [`optimise_with`] over the subtrees of `roots` (nodes of `space`, each with its
/// depth): how a distributed layer searches the work it received. The roots
/// themselves are offered to the incumbent as they are visited.
pub fn optimise_subtrees<S, I>(
    space: &S,
    config: &SearchConfig<'_>,
    incumbent: &I,
    roots: Vec<(S::Node, usize)>,
) -> crate::SearchStats
where
    S: Bounded,
    I: Incumbent<S::Node, S::Value>,
{
    let kind = Optimisation {
        incumbent,
        space: PhantomData,
    };
    engine::run(space, &kind, config, roots)
}
