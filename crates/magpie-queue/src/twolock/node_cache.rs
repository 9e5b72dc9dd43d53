//! Node cache (paper IV.B): emptied nodes are kept for reuse so that push rarely calls
//! the allocator inside its critical section, and pop rarely frees inside its own.
//!
//! A Treiber stack linked through the nodes' own `next` fields. Only the pop-lock holder
//! puts nodes in ([`NodeCache::give`], a CAS loop) and only the push-lock holder takes
//! them out ([`NodeCache::take`]). The taker grabs the *whole* stack with one `swap` into a
//! private list and then pops from that list with no atomics, so there is neither an ABA
//! problem (the paper's single-producer/single-consumer argument) nor a read of a node's
//! link while the node is still shared.
//!
//! The bound is kept without a counter both sides write: the giver counts what it gave,
//! the taker counts what it took, each on its own cache line. The giver compares its
//! count with its last look at the taker's; only when that difference reaches the limit
//! does it read the taker's line again. A stale look over-estimates the cache, so the
//! bound always holds, and the producer and consumer do not pass a counter's line back
//! and forth on every node (profiled at 2×2 threads with one shared counter: a third of
//! `take`'s samples waited for that line).

use core::ptr;

use super::node::{Node, Shape};
use super::options::NodeCache as Mode;
use crate::pad::CachePadded;
use crate::sync::{AtomicPtr, AtomicUsize, Ordering, UnsafeCell};

/// Whether a cache with this limit keeps counts (every mode but unbounded).
#[inline(always)]
fn counted(limit: usize) -> bool {
    limit != usize::MAX
}

/// Spare nodes, all of one `shape`, at most `limit` of them.
pub(super) struct NodeCache<T> {
    /// Shared stack: pushed by the giver, emptied at once by the taker.
    top: CachePadded<AtomicPtr<Node<T>>>,
    /// Touched only by the push-lock holder (and read by `len`).
    taker: CachePadded<Taker<T>>,
    /// Touched only by the pop-lock holder (and read by `len`).
    giver: CachePadded<Giver>,
}

struct Taker<T> {
    /// The taker's private list (null-terminated through `next`).
    grabbed: UnsafeCell<*mut Node<T>>,
    /// Nodes taken out of the cache (not fresh allocations); written only by the taker.
    taken: AtomicUsize,
    limit: usize,
    shape: Shape,
}

struct Giver {
    /// Nodes put into the cache; written only by the giver.
    given: AtomicUsize,
    /// The giver's last look at `Taker::taken` (never above its current value).
    taken_seen: UnsafeCell<usize>,
    limit: usize,
    shape: Shape,
}

impl<T> NodeCache<T> {
    /// An empty cache for nodes of `shape`, pre-filled with
    /// `min(prealloc, limit)` fresh nodes.
    pub(super) fn new(mode: Mode, shape: Shape, prealloc: usize) -> Self {
        let limit = mode.limit();
        let cache = NodeCache {
            top: CachePadded(AtomicPtr::new(ptr::null_mut())),
            taker: CachePadded(Taker {
                grabbed: UnsafeCell::new(ptr::null_mut()),
                taken: AtomicUsize::new(0),
                limit,
                shape,
            }),
            giver: CachePadded(Giver {
                given: AtomicUsize::new(0),
                taken_seen: UnsafeCell::new(0),
                limit,
                shape,
            }),
        };
        for _ in 0..prealloc.min(limit) {
            // SAFETY: we are the only thread that can see `cache`; the node is fresh.
            unsafe { cache.give(Node::alloc(shape)) };
        }
        cache
    }

    /// Number of spare nodes (a snapshot; `None` when the cache is unbounded).
    pub(super) fn len(&self) -> Option<usize> {
        // Relaxed: a snapshot for tests and diagnostics; a stale read can only be off by
        // the gives/takes in flight, and `saturating_sub` keeps it non-negative.
        counted(self.giver.limit).then(|| {
            let given = self.giver.given.load(Ordering::Relaxed);
            given.saturating_sub(self.taker.taken.load(Ordering::Relaxed))
        })
    }

    /// A node of the cache's shape with empty slots and a null `next`: a cached one if any, else a
    /// fresh allocation.
    ///
    /// # Safety
    ///
    /// Only one thread at a time may call `take` (the push-lock holder), and consecutive
    /// callers must be ordered by happens-before (the lock provides it).
    #[inline]
    pub(super) unsafe fn take(&self) -> *mut Node<T> {
        let taker = &*self.taker;
        if taker.limit == 0 {
            return Node::alloc(taker.shape);
        }
        // SAFETY: `grabbed` belongs to the single taker (contract).
        let mut node = taker.grabbed.with(|g| unsafe { *g });
        if node.is_null() {
            // Acquire: pairs with the Release CAS in `give` (every earlier give's CAS is in
            // the release sequence the swap reads from): the nodes' links, and the pops'
            // moves out of their slots, happen-before we reuse them.
            node = self.top.swap(ptr::null_mut(), Ordering::Acquire);
            if node.is_null() {
                return Node::alloc(taker.shape);
            }
        }
        // SAFETY: `node` is in our private list: live, and only we access it.
        unsafe {
            let rest = (*node).next.load(Ordering::Relaxed);
            (*node).next.store(ptr::null_mut(), Ordering::Relaxed);
            taker.grabbed.with_mut(|g| *g = rest);
        }
        if counted(taker.limit) {
            // Relaxed: only takers write `taken`, and the push lock orders them, so the
            // load sees the previous taker's store. The giver reads it only as an upper
            // bound on what left the cache (see the module docs).
            let taken = taker.taken.load(Ordering::Relaxed);
            taker.taken.store(taken + 1, Ordering::Relaxed);
        }
        node
    }

    /// Keeps `node` for reuse, or frees it when the cache is full or disabled.
    ///
    /// # Safety
    ///
    /// Only one thread at a time may call `give` (the pop-lock holder), and consecutive
    /// callers must be ordered by happens-before (the lock provides it). `node` has
    /// the cache's shape with every slot empty, and is no longer reachable from the queue.
    #[inline]
    pub(super) unsafe fn give(&self, node: *mut Node<T>) {
        let giver = &*self.giver;
        if counted(giver.limit) {
            // Relaxed: only givers write `given`, ordered by the pop lock.
            let given = giver.given.load(Ordering::Relaxed);
            // SAFETY: `taken_seen` belongs to the single giver (contract).
            let mut seen = giver.taken_seen.with(|s| unsafe { *s });
            if given - seen >= giver.limit {
                // Relaxed: any value read is at most the true count (takes only follow
                // gives), so `given - seen` never under-estimates the cache.
                seen = self.taker.taken.load(Ordering::Relaxed);
                // SAFETY: as above.
                giver.taken_seen.with_mut(|s| unsafe { *s = seen });
                if given.saturating_sub(seen) >= giver.limit {
                    // SAFETY: per the contract the node is empty and unreachable.
                    unsafe { Node::free(node, giver.shape) };
                    return;
                }
            }
            giver.given.store(given + 1, Ordering::Relaxed);
        }
        let mut top = self.top.load(Ordering::Relaxed);
        loop {
            // SAFETY: the node is ours until the CAS publishes it.
            unsafe { (*node).next.store(top, Ordering::Relaxed) };
            // Release: pairs with the Acquire swap in `take`.
            match self
                .top
                .compare_exchange_weak(top, node, Ordering::Release, Ordering::Relaxed)
            {
                Ok(_) => return,
                Err(current) => top = current,
            }
        }
    }
}

impl<T> Drop for NodeCache<T> {
    fn drop(&mut self) {
        // SAFETY: `&mut self`: both lists are ours; their nodes are empty and unshared.
        let grabbed = self.taker.grabbed.with(|g| unsafe { *g });
        for mut node in [self.top.load(Ordering::Relaxed), grabbed] {
            while !node.is_null() {
                // SAFETY: as above.
                unsafe {
                    let next = (*node).next.load(Ordering::Relaxed);
                    Node::free(node, self.taker.shape);
                    node = next;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(slots: usize, stamped: bool) -> Shape {
        Shape { slots, stamped }
    }

    #[test]
    fn bounded_keeps_at_most_limit() {
        let c = NodeCache::<u64>::new(Mode::Bounded(2), shape(4, false), 5);
        assert_eq!(c.len(), Some(2));
        // SAFETY: single-threaded: we are the only giver and taker.
        unsafe {
            let a = c.take();
            let b = c.take();
            assert_eq!(c.len(), Some(0));
            let fresh = c.take();
            c.give(a);
            c.give(b);
            c.give(fresh); // over the limit: freed
            assert_eq!(c.len(), Some(2));
            let again = c.take();
            assert_eq!(again, b); // LIFO
            c.give(again); // Drop frees both cached nodes
        }
    }

    #[test]
    fn reuse_returns_same_node_with_null_next() {
        for mode in [Mode::Unbounded, Mode::Bounded(1)] {
            let c = NodeCache::<String>::new(mode, shape(2, true), 0);
            // SAFETY: single-threaded.
            unsafe {
                let a = c.take();
                let b = c.take();
                (*a).next.store(b, Ordering::Relaxed);
                c.give(a);
                let again = c.take();
                assert_eq!(again, a);
                assert!((*again).next.load(Ordering::Relaxed).is_null());
                c.give(again);
                c.give(b);
            }
            assert_eq!(
                c.len(),
                if mode == Mode::Unbounded {
                    None
                } else {
                    Some(1)
                }
            );
        }
    }

    #[test]
    fn disabled_allocates_and_frees() {
        let c = NodeCache::<u8>::new(Mode::Disabled, shape(8, true), 16);
        assert_eq!(c.len(), Some(0));
        // SAFETY: single-threaded.
        unsafe {
            let a = c.take();
            c.give(a);
        }
        assert_eq!(c.len(), Some(0));
    }
}
