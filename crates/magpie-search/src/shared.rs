//! State shared by all workers of one search, behind small traits so that a
//! distributed layer can replace the in-process implementations.

use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use crate::value::ObjectiveValue;

/// The best solution found so far by any worker.
pub trait Incumbent<N, V>: Sync {
    /// The best objective value so far; cheap (called for every bound check).
    fn best_value(&self) -> V;
    /// Offers `node` with objective `value`; it replaces the incumbent only if `value`
    /// is strictly better. Returns whether it did.
    fn offer(&self, node: &N, value: V) -> bool;
}

/// A request that every worker stop.
pub trait StopSignal: Sync {
    /// Whether a stop was requested; cheap (called for every node).
    fn is_stopped(&self) -> bool;
    /// Requests that every worker stop.
    fn stop(&self);
}

/// Where work leaves this process: the distributed layer's side of task hand-off.
///
/// As it visits nodes, a task first serves idle local workers (a stack-stealing
/// split, or sharing its queued tasks); then, if [`wants_work`](Self::wants_work) says
/// another process waits for work, it gives that process half of the split-off nodes
/// not yet started at the shallowest depth that has any (every coordination keeps
/// such a pool when it has a remote), or else its own shallowest unexplored child
/// (stack stealing and budget), through [`send`](Self::send); this search no longer
/// explores what it sent. Both can happen after one visit. Nodes arrive
/// boxed because a [`SearchConfig`](crate::SearchConfig) is not generic over them;
/// the receiver downcasts to its search space's `Node` (serializable with the
/// `serde` feature) and searches that subtree in its own process.
pub trait RemoteSink: Sync {
    /// Whether another process waits for work; cheap (checked at every node).
    fn wants_work(&self) -> bool;
    /// Takes the subtree rooted at `node` (found at `depth`) away from this search.
    fn send(&self, node: Box<dyn Any + Send>, depth: usize);

    /// How many split-off subtrees wait in this search, ready to be given away (a
    /// hint for load reports, updated as it changes). The default ignores it.
    fn stealable(&self, count: usize) {
        let _ = count;
    }

    /// Whether the processes gave this search up (another one failed): its tasks then
    /// return at their next node and its answer is partial, for the caller to discard.
    /// Checked every few dozen nodes of each task; the default never cancels.
    fn cancelled(&self) -> bool {
        false
    }
}

/// The in-process incumbent: the value in an atomic for cheap reads, the node behind
/// a mutex taken only on improvement.
#[derive(Debug)]
pub struct SharedIncumbent<N, V> {
    value_bits: AtomicU64,
    best: Mutex<(N, V)>,
}

impl<N: Clone, V: ObjectiveValue> SharedIncumbent<N, V> {
    /// An incumbent holding `node` with objective `value`.
    pub fn new(node: N, value: V) -> Self {
        Self {
            value_bits: AtomicU64::new(value.to_ordered_bits()),
            best: Mutex::new((node, value)),
        }
    }

    /// The best node and its value.
    pub fn into_best(self) -> (N, V) {
        self.best.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl<N: Clone + Send, V: ObjectiveValue> Incumbent<N, V> for SharedIncumbent<N, V> {
    fn best_value(&self) -> V {
        // Relaxed: a stale value only prunes less; improvements are ordered by the mutex.
        V::from_ordered_bits(self.value_bits.load(Ordering::Relaxed))
    }

    fn offer(&self, node: &N, value: V) -> bool {
        if value <= self.best_value() {
            return false;
        }
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if value <= best.1 {
            return false;
        }
        *best = (node.clone(), value);
        self.value_bits
            .store(value.to_ordered_bits(), Ordering::Relaxed);
        true
    }
}

/// The in-process stop signal: one atomic flag.
#[derive(Debug, Default)]
pub struct StopFlag(AtomicBool);

impl StopFlag {
    /// A flag that is not yet raised.
    pub fn new() -> Self {
        Self::default()
    }
}

impl StopSignal for StopFlag {
    fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
