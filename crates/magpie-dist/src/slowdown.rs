//! A rank made slower on purpose: the imbalanced scenario of the node-policy
//! evaluation (YewPar thesis §4.4 runs on contended nodes; here one chooses which
//! ranks are slow and by how much). [`Slowed`] wraps a search space so that generating
//! each child takes `factor` times as long: after the wrapped generator produces a
//! child, the worker spins for `factor − 1` times what that took.

use std::time::{Duration, Instant};

use magpie_search::{Bounded, Enumerator, Objective, SearchSpace};

/// `space`, with every child generated `factor` times slower.
#[derive(Debug)]
pub struct Slowed<'s, S> {
    space: &'s S,
    /// `factor − 1`.
    extra: f64,
}

impl<'s, S> Slowed<'s, S> {
    /// `space` slowed by `factor` (at least 1).
    pub fn new(space: &'s S, factor: f64) -> Self {
        Self {
            space,
            extra: (factor - 1.0).max(0.0),
        }
    }
}

/// The wrapped generator: times each child and spins for `extra` times as long.
#[derive(Debug)]
pub struct SlowChildren<I> {
    inner: I,
    extra: f64,
}

impl<I: Iterator> Iterator for SlowChildren<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let start = Instant::now();
        let child = self.inner.next();
        let spin = start.elapsed().mul_f64(self.extra);
        let until = Instant::now() + spin.min(Duration::from_millis(100));
        while Instant::now() < until {
            std::hint::spin_loop();
        }
        child
    }
}

impl<S: SearchSpace> SearchSpace for Slowed<'_, S> {
    type Node = S::Node;
    type Children<'a>
        = SlowChildren<S::Children<'a>>
    where
        Self: 'a;

    fn root(&self) -> S::Node {
        self.space.root()
    }

    fn children<'a>(&'a self, node: &'a S::Node) -> Self::Children<'a> {
        SlowChildren {
            inner: self.space.children(node),
            extra: self.extra,
        }
    }
}

impl<S: Objective> Objective for Slowed<'_, S> {
    type Value = S::Value;

    fn objective(&self, node: &S::Node) -> S::Value {
        self.space.objective(node)
    }
}

impl<S: Bounded> Bounded for Slowed<'_, S> {
    fn upper_bound(&self, node: &S::Node) -> S::Value {
        self.space.upper_bound(node)
    }

    fn children_above<'a>(&'a self, node: &'a S::Node, threshold: S::Value) -> Self::Children<'a> {
        SlowChildren {
            inner: self.space.children_above(node, threshold),
            extra: self.extra,
        }
    }
}

/// An enumerator of `S` recording the nodes of [`Slowed<S>`](Slowed).
#[derive(Debug)]
pub struct SlowedEnumerator<'e, E>(pub &'e E);

impl<S: SearchSpace, E: Enumerator<S>> Enumerator<Slowed<'_, S>> for SlowedEnumerator<'_, E> {
    type Summary = E::Summary;

    fn record(&self, node: &S::Node, depth: usize, summary: &mut E::Summary) {
        self.0.record(node, depth, summary);
    }
}

#[cfg(test)]
mod tests {
    use magpie_search::apps::semigroups::Semigroups;
    use magpie_search::{enumerate, NodesPerDepth, SearchConfig};

    use super::{Slowed, SlowedEnumerator};

    #[test]
    fn a_slowed_space_has_the_same_tree() {
        let space = Semigroups::new(14).unwrap();
        let config = SearchConfig::sequential();
        let plain = enumerate(&space, &NodesPerDepth, &config);
        let slowed = enumerate(
            &Slowed::new(&space, 4.0),
            &SlowedEnumerator(&NodesPerDepth),
            &config,
        );
        assert_eq!(plain.answer, slowed.answer);
    }
}
