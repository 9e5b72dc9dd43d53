//! Knowledge every rank must share while the search runs: the branch-and-bound
//! incumbent's value ([`GlobalIncumbent`]) and a decision search's stop
//! ([`GlobalStop`]). The communication loop broadcasts local news and applies remote
//! news through [`Global`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use magpie_search::{Incumbent, ObjectiveValue, StopSignal};

/// What the communication loop exchanges for one search type.
pub(crate) trait Global: Sync {
    /// A better bound found here since the last call, to broadcast.
    fn improved_bound(&self) -> Option<u64> {
        None
    }
    /// Another rank found a bound (order-preserving bits).
    fn raise_bound(&self, bits: u64) {
        let _ = bits;
    }
    /// A witness was found here since the last call: tell everyone to stop.
    fn witness_found(&self) -> bool {
        false
    }
    /// Another rank found a witness.
    fn stop(&self) {}
}

/// Enumeration shares nothing while it runs.
pub(crate) struct NoGlobal;

impl Global for NoGlobal {}

/// A rank's incumbent: the best value known anywhere (for pruning), and the best
/// node found on this rank (reported at the end; the best of all ranks wins).
#[derive(Debug)]
pub struct GlobalIncumbent<N, V> {
    /// The best value known on any rank, as order-preserving bits.
    best_bits: AtomicU64,
    /// The best node found here and its value.
    local: Mutex<(N, V)>,
    /// `local` improved since the last broadcast.
    improved: AtomicBool,
}

impl<N, V: ObjectiveValue> GlobalIncumbent<N, V> {
    /// Starts from `node` with `value` (every rank starts from the same one).
    pub fn new(node: N, value: V) -> Self {
        Self {
            best_bits: AtomicU64::new(value.to_ordered_bits()),
            local: Mutex::new((node, value)),
            improved: AtomicBool::new(false),
        }
    }

    /// The best node found on this rank and its value.
    pub fn into_local(self) -> (N, V) {
        self.local.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    /// A copy of the best node found on this rank and its value.
    pub fn best_here(&self) -> (N, V)
    where
        N: Clone,
    {
        self.local.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl<N: Clone + Send, V: ObjectiveValue> Incumbent<N, V> for GlobalIncumbent<N, V> {
    fn best_value(&self) -> V {
        // Relaxed: a stale value only prunes less; nodes are guarded by the mutex.
        V::from_ordered_bits(self.best_bits.load(Ordering::Relaxed))
    }

    fn offer(&self, node: &N, value: V) -> bool {
        if value <= self.best_value() {
            return false;
        }
        let mut local = self.local.lock().unwrap_or_else(|e| e.into_inner());
        if value <= local.1 || value <= self.best_value() {
            return false;
        }
        *local = (node.clone(), value);
        self.best_bits
            .fetch_max(value.to_ordered_bits(), Ordering::Relaxed);
        // Release: pairs with the Acquire swap in `improved_bound`, so the value
        // broadcast after seeing the flag is at least this one.
        self.improved.store(true, Ordering::Release);
        true
    }
}

impl<N: Send, V: ObjectiveValue> Global for GlobalIncumbent<N, V> {
    fn improved_bound(&self) -> Option<u64> {
        // Acquire: pairs with the Release store in `offer` (see there).
        self.improved
            .swap(false, Ordering::Acquire)
            .then(|| self.best_bits.load(Ordering::Relaxed))
    }

    fn raise_bound(&self, bits: u64) {
        self.best_bits.fetch_max(bits, Ordering::Relaxed);
    }
}

/// A decision search's stop: raised here when this rank finds a witness (and then
/// broadcast), or by a message from the rank that found one.
#[derive(Debug, Default)]
pub struct GlobalStop {
    stopped: AtomicBool,
    /// Found here and not yet broadcast.
    found_here: AtomicBool,
}

impl StopSignal for GlobalStop {
    fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        self.found_here.store(true, Ordering::Relaxed);
    }
}

impl Global for GlobalStop {
    fn witness_found(&self) -> bool {
        self.found_here.swap(false, Ordering::Relaxed)
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::{Global, GlobalIncumbent};
    use magpie_search::Incumbent;

    #[test]
    fn remote_bounds_prune_but_only_local_nodes_are_kept() {
        let incumbent = GlobalIncumbent::new("root", 1u64);
        assert!(incumbent.offer(&"a", 5));
        assert_eq!(incumbent.improved_bound(), Some(5));
        assert_eq!(incumbent.improved_bound(), None, "broadcast once");
        incumbent.raise_bound(9);
        assert_eq!(incumbent.best_value(), 9);
        assert!(!incumbent.offer(&"b", 7), "below the global bound");
        incumbent.raise_bound(3);
        assert_eq!(incumbent.best_value(), 9, "bounds only rise");
        assert_eq!(incumbent.into_local(), ("a", 5));
    }
}
