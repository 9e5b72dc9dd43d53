//! Node cache (paper IV.B): emptied nodes are kept for reuse so that push rarely calls
//! the allocator inside its critical section, and pop rarely frees inside its own.
//!
//! A Treiber stack linked through the nodes' own `next` fields. Only the pop-lock holder
//! puts nodes in ([`NodeCache::give`], a CAS loop) and only the push-lock holder takes
//! them out ([`NodeCache::take`]). The taker grabs the *whole* stack with one `swap` into a
//! private list and then pops from that list with no atomics, so there is neither an ABA
//! problem (the paper's single-producer/single-consumer argument) nor a read of a node's
//! link while the node is still shared.

use core::ptr;

use super::node::Node;
use super::options::NodeCache as Mode;
use crate::sync::{AtomicPtr, AtomicUsize, Ordering, UnsafeCell};

/// Spare nodes, all with `slots` slots, at most `limit` of them.
pub(super) struct NodeCache<T> {
    /// Shared stack: pushed by the giver, emptied at once by the taker.
    top: AtomicPtr<Node<T>>,
    /// The taker's private list (null-terminated through `next`).
    grabbed: UnsafeCell<*mut Node<T>>,
    /// Nodes in `top` plus `grabbed`; maintained only when bounded.
    len: AtomicUsize,
    limit: usize,
    slots: usize,
}

impl<T> NodeCache<T> {
    /// An empty cache for nodes of `slots` slots, pre-filled with
    /// `min(prealloc, limit)` fresh nodes.
    pub(super) fn new(mode: Mode, slots: usize, prealloc: usize) -> Self {
        let cache = NodeCache {
            top: AtomicPtr::new(ptr::null_mut()),
            grabbed: UnsafeCell::new(ptr::null_mut()),
            len: AtomicUsize::new(0),
            limit: mode.limit(),
            slots,
        };
        for _ in 0..prealloc.min(cache.limit) {
            // SAFETY: we are the only thread that can see `cache`; the node is fresh.
            unsafe { cache.give(Node::alloc(slots)) };
        }
        cache
    }

    #[inline(always)]
    fn counted(&self) -> bool {
        self.limit != usize::MAX
    }

    /// Number of spare nodes (a snapshot; `None` when the cache is unbounded).
    pub(super) fn len(&self) -> Option<usize> {
        self.counted().then(|| self.len.load(Ordering::Relaxed))
    }

    /// A node with `slots` empty slots and a null `next`: a cached one if any, else a
    /// fresh allocation.
    ///
    /// # Safety
    ///
    /// Only one thread at a time may call `take` (the push-lock holder), and consecutive
    /// callers must be ordered by happens-before (the lock provides it).
    #[inline]
    pub(super) unsafe fn take(&self) -> *mut Node<T> {
        if self.limit == 0 {
            return Node::alloc(self.slots);
        }
        // SAFETY: `grabbed` belongs to the single taker (contract).
        let mut node = self.grabbed.with(|g| unsafe { *g });
        if node.is_null() {
            // Acquire: pairs with the Release CAS in `give` (every earlier give's CAS is in
            // the release sequence the swap reads from): the nodes' links, and the pops'
            // moves out of their slots, happen-before we reuse them.
            node = self.top.swap(ptr::null_mut(), Ordering::Acquire);
            if node.is_null() {
                return Node::alloc(self.slots);
            }
        }
        // SAFETY: `node` is in our private list: live, and only we access it.
        unsafe {
            let rest = (*node).next.load(Ordering::Relaxed);
            (*node).next.store(ptr::null_mut(), Ordering::Relaxed);
            self.grabbed.with_mut(|g| *g = rest);
        }
        if self.counted() {
            // Relaxed: a count only; the matching increment happens-before (it precedes
            // the Release CAS we acquired), so it never wraps.
            self.len.fetch_sub(1, Ordering::Relaxed);
        }
        node
    }

    /// Keeps `node` for reuse, or frees it when the cache is full or disabled.
    ///
    /// # Safety
    ///
    /// Only one thread at a time may call `give` (the pop-lock holder). `node` has
    /// `slots` slots, all empty, and is no longer reachable from the queue.
    #[inline]
    pub(super) unsafe fn give(&self, node: *mut Node<T>) {
        if self.counted() {
            // Relaxed: only givers increment (serialised by the pop lock), the taker only
            // decrements, so a stale read over-estimates and the bound holds.
            if self.len.load(Ordering::Relaxed) >= self.limit {
                // SAFETY: per the contract the node is empty and unreachable.
                unsafe { Node::free(node, self.slots) };
                return;
            }
            // Relaxed: counted before publishing, see `take`.
            self.len.fetch_add(1, Ordering::Relaxed);
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
        let grabbed = self.grabbed.with(|g| unsafe { *g });
        for mut node in [self.top.load(Ordering::Relaxed), grabbed] {
            while !node.is_null() {
                // SAFETY: as above.
                unsafe {
                    let next = (*node).next.load(Ordering::Relaxed);
                    Node::free(node, self.slots);
                    node = next;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_keeps_at_most_limit() {
        let c = NodeCache::<u64>::new(Mode::Bounded(2), 4, 5);
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
            let c = NodeCache::<String>::new(mode, 2, 0);
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
        let c = NodeCache::<u8>::new(Mode::Disabled, 8, 16);
        assert_eq!(c.len(), Some(0));
        // SAFETY: single-threaded.
        unsafe {
            let a = c.take();
            c.give(a);
        }
        assert_eq!(c.len(), Some(0));
    }
}
