//! The consumer side of [`TwoLockQueue`]: `try_pop` and `pop_batch` under the head lock.

use super::*;

impl<T, L: PopLock, const NODE_BYTES: usize, P: PopLock> TwoLockQueue<T, L, NODE_BYTES, P> {
    /// Removes the oldest item, or returns `None` if the queue is empty.
    #[inline]
    pub fn try_pop(&self) -> Option<T> {
        self.pop_or_tail().ok()
    }

    /// `Ok(item)`, or `Err(h)` with the index `h` that was found unpublished (the push
    /// index as this consumer saw it).
    #[inline]
    pub(super) fn pop_or_tail(&self) -> Result<T, usize> {
        let orders = self.head.orders;
        if orders == Orders::DEFAULT {
            self.pop_or_tail_with(Orders::DEFAULT)
        } else {
            self.pop_or_tail_with(orders)
        }
    }

    /// [`pop_or_tail`](Self::pop_or_tail) with the orders passed in, as in `push_with`.
    #[inline(always)]
    fn pop_or_tail_with(&self, orders: Orders) -> Result<T, usize> {
        let _guard = self.head.lock.lock();
        let h = self.head.index.load(orders.own_load);
        // SAFETY: we hold the head lock.
        if unsafe { self.published(h, 1, orders) } == 0 {
            return Err(h);
        }
        // SAFETY: head lock held and slot `h` is published.
        let value = unsafe { self.take_at(h, orders) };
        self.head.index.store(h + 1, orders.pop_store);
        Ok(value)
    }

    /// Moves up to `max` of the oldest items to the end of `out` under one head-lock
    /// acquisition (e.g. a worker refilling its local queue); returns how many.
    pub fn pop_batch(&self, max: usize, out: &mut Vec<T>) -> usize {
        if max == 0 {
            return 0;
        }
        let orders = self.head.orders;
        if orders == Orders::DEFAULT {
            self.pop_batch_with(max, out, Orders::DEFAULT)
        } else {
            self.pop_batch_with(max, out, orders)
        }
    }

    /// [`pop_batch`](Self::pop_batch) with the orders passed in, as in `push_with`.
    #[inline(always)]
    fn pop_batch_with(&self, max: usize, out: &mut Vec<T>, orders: Orders) -> usize {
        let _guard = self.head.lock.lock();
        let h = self.head.index.load(orders.own_load);
        // SAFETY: we hold the head lock.
        let n = unsafe { self.published(h, max, orders) };
        out.reserve(n);
        // SAFETY: head lock held, slots `h..h + n` are published, `out` has room for them.
        unsafe { self.take_run(h, n, out, orders) };
        self.head.index.store(h + n, orders.pop_store);
        n
    }

    /// Moves the `n` items from pop index `h` on to `out`, node by node, recycling every
    /// node it empties; the head node pointer is loaded and stored once.
    ///
    /// # Safety
    ///
    /// The caller holds the head lock, `h` is the current pop index, slots `h..h + n` are
    /// published to this thread, and `out` has spare capacity for `n` items (so nothing
    /// here can panic half-way).
    #[inline]
    unsafe fn take_run(&self, h: usize, n: usize, out: &mut Vec<T>, orders: Orders) {
        let stamped = self.head.stamped;
        let mut node = self.head.node.load(orders.own_load);
        for i in h..h + n {
            let offset = i % Self::SLOTS_PER_NODE;
            if offset == 0 {
                // SAFETY: item `i` is published and starts the node after `node`.
                node = unsafe { self.leave_node(node, orders) };
            }
            // SAFETY: slot `offset` of `node` is full and ours; `out` has room.
            out.push(unsafe { Node::take(node, offset, stamped) });
        }
        self.head.node.store(node, orders.own_store);
    }

    /// How many slots from pop index `h` on, at most `want`, are published to us (`0`:
    /// the queue looked empty).
    ///
    /// # Safety
    ///
    /// The caller holds the head lock and `h` is the current pop index.
    #[inline(always)]
    unsafe fn published(&self, h: usize, want: usize, orders: Orders) -> usize {
        if self.head.stamped {
            // SAFETY: per the contract.
            unsafe { self.stamped_run(h, want, orders) }
        } else {
            // SAFETY: per the contract.
            want.min(unsafe { self.tail_bound(h, want, orders) } - h)
        }
    }

    /// With stamps: how many consecutive slots from `h` on, at most `want`, carry their
    /// own index as stamp. Follows node links without moving the head node.
    ///
    /// # Safety
    ///
    /// The caller holds the head lock, `h` is the current pop index and slots are stamped.
    #[inline(always)]
    unsafe fn stamped_run(&self, h: usize, want: usize, orders: Orders) -> usize {
        // Stamps are not the default, so `orders` is a run-time value here and every
        // atomic access in the loop would dispatch on its ordering; give the optimal mode
        // a copy of the loop with constant orders.
        if orders == Orders::OPTIMAL_STAMPS {
            // SAFETY: per the contract.
            unsafe { self.stamped_run_with(h, want, Orders::OPTIMAL_STAMPS) }
        } else {
            // SAFETY: per the contract.
            unsafe { self.stamped_run_with(h, want, orders) }
        }
    }

    /// [`stamped_run`](Self::stamped_run) with the orders passed in.
    ///
    /// # Safety
    ///
    /// As for `stamped_run`.
    #[inline(always)]
    unsafe fn stamped_run_with(&self, h: usize, want: usize, orders: Orders) -> usize {
        let mut node = self.head.node.load(orders.own_load);
        let mut n = 0;
        while n < want {
            let i = h + n;
            let offset = i % Self::SLOTS_PER_NODE;
            if offset == 0 {
                // Acquire (or SeqCst): pairs with the `link_store` in `write_at`, so the
                // next node's initialisation (or its last reuse) is visible before we
                // read its stamps. `node` is live: only the head-lock holder frees nodes.
                // SAFETY: `node` is the head node or a node after it, all live.
                let next = unsafe { (*node).next.load(orders.link_load) };
                if next.is_null() {
                    break;
                }
                node = next;
            }
            // Acquire (or SeqCst): pairs with the Release store in `write_at`; item `i`
            // is visible if its stamp reads `i`. Stamps only grow in a node's life (a
            // reused node's old stamps are smaller indices), so `i` cannot be stale.
            // SAFETY: `node` is live and stamped, `offset < SLOTS_PER_NODE`.
            if unsafe { Node::stamp(node, offset, orders.observe) } != i {
                break;
            }
            n += 1;
        }
        n
    }

    /// A push index `>= h` below which every slot is published to us; re-reads the
    /// shared index unless the cached copy already covers `want` items.
    ///
    /// # Safety
    ///
    /// The caller holds the head lock and `h` is the current pop index.
    #[inline(always)]
    unsafe fn tail_bound(&self, h: usize, want: usize, orders: Orders) -> usize {
        let head = &*self.head;
        if head.cache_push_index {
            // SAFETY: `cached_tail` is only accessed under the head lock, which we hold.
            // The Acquire load that produced it happens-before us via that lock.
            let cached = head.cached_tail.with(|c| unsafe { *c });
            if cached - h >= want {
                return cached;
            }
        }
        // Acquire (or SeqCst): pairs with the Release store of `push`/`push_batch`; makes
        // every slot below `t` (and the node links leading to them) visible.
        let t = self.tail_index.load(orders.observe);
        if head.cache_push_index {
            // SAFETY: as above.
            head.cached_tail.with_mut(|c| unsafe { *c = t });
        }
        t
    }

    /// Moves the item at pop index `h` out, first stepping to the next node (and
    /// recycling the emptied one) if `h` starts a node.
    ///
    /// # Safety
    ///
    /// The caller holds the head lock (or owns the queue), `h` is the current pop index
    /// and slot `h` is published to this thread.
    #[inline(always)]
    pub(super) unsafe fn take_at(&self, h: usize, orders: Orders) -> T {
        let offset = h % Self::SLOTS_PER_NODE;
        let mut node = self.head.node.load(orders.own_load);
        if offset == 0 {
            // SAFETY: item `h` is published and starts the node after the head node.
            node = unsafe { self.leave_node(node, orders) };
            self.head.node.store(node, orders.own_store);
        }
        // SAFETY: per the contract, slot `offset` of the head node is full and ours.
        unsafe { Node::take(node, offset, self.head.stamped) }
    }

    /// Steps from the consumed node `node` to the next one, handing `node` to the node
    /// cache; returns the next node.
    ///
    /// # Safety
    ///
    /// The caller holds the head lock (or owns the queue), every slot of `node` has been
    /// taken, and an item published to this thread lies in the next node. The producer
    /// linked that node before publishing the item, so the link is set, and `node` is
    /// unreachable to producers, whose tail node is at least the next one.
    #[inline(always)]
    unsafe fn leave_node(&self, node: *mut Node<T>, orders: Orders) -> *mut Node<T> {
        // SAFETY: per the contract `node` is live, consumed and ours to recycle.
        unsafe {
            let next = (*node).next.load(orders.own_load);
            if cfg!(any(loom, debug_assertions)) {
                assert!(!next.is_null(), "published item in an unlinked node");
            }
            self.spares.give(node);
            next
        }
    }
}
