//! The producer side of [`TwoLockQueue`]: `push` and `push_batch` under the tail lock.

use super::*;

impl<T, L: PopLock, const NODE_BYTES: usize, P: PopLock> TwoLockQueue<T, L, NODE_BYTES, P> {
    /// Appends `value`, or gives it back if the queue is [closed](Self::close).
    #[inline]
    pub fn push(&self, value: T) -> Result<(), PushError<T>> {
        let orders = self.tail.orders;
        if orders == Orders::DEFAULT {
            self.push_with(value, Orders::DEFAULT)
        } else {
            self.push_with(value, orders)
        }
    }

    /// [`push`](Self::push) with the queue's orders passed in: a constant on the default
    /// path, so its atomics compile to plain instructions instead of a dispatch on the
    /// ordering (see [`Orders::DEFAULT`]).
    #[inline(always)]
    fn push_with(&self, value: T, orders: Orders) -> Result<(), PushError<T>> {
        let guard = self.tail.lock.lock();
        // Relaxed: `closed` is written under the tail lock, which we hold.
        if self.tail.closed.load(Ordering::Relaxed) {
            drop(guard);
            return Err(PushError(value));
        }
        // Relaxed: only tail-lock holders write `tail.index`, and we hold the lock.
        let t = self.tail.index.load(Ordering::Relaxed);
        // SAFETY: we hold the tail lock.
        unsafe { self.write_at(t, value, orders) };
        // Relaxed: read under the tail lock, or as a snapshot by `len` (with stamps).
        self.tail.index.store(t + 1, Ordering::Relaxed);
        if !self.tail.stamped {
            // Release (or SeqCst): pairs with the Acquire load in `tail_bound`; the slot
            // write (and any new node link) happen-before a consumer that sees `t + 1`.
            self.tail_index.store(t + 1, orders.publish);
        }
        // Relaxed: consumers register under the tail lock; see `blocking.rs`.
        let waiters = self.tail.waiters.load(Ordering::Relaxed);
        drop(guard);
        if waiters != 0 {
            self.sleepers.wake_one();
        }
        Ok(())
    }

    /// Appends every item of `items` in order under one tail-lock acquisition, publishing
    /// them together; returns how many were pushed. A closed queue returns the iterator
    /// untouched. The iterator must not use this queue (the tail lock is held while it
    /// runs); if it panics, the items it yielded so far stay pushed and the lock is
    /// released.
    pub fn push_batch<I: IntoIterator<Item = T>>(
        &self,
        items: I,
    ) -> Result<usize, PushError<I::IntoIter>> {
        let items = items.into_iter();
        // Declared before the lock guard, so that on a panic it runs after the lock is
        // released (sleepers take their mutex before the tail lock).
        let wake_on_unwind = WakeOnUnwind(&self.sleepers);
        let guard = self.tail.lock.lock();
        // Relaxed: `closed` is written under the tail lock, which we hold.
        if self.tail.closed.load(Ordering::Relaxed) {
            drop(guard);
            core::mem::forget(wake_on_unwind);
            return Err(PushError(items));
        }
        // Relaxed: only tail-lock holders write `tail.index`, and we hold the lock.
        let start = self.tail.index.load(Ordering::Relaxed);
        // Publishes on drop, so a panicking iterator leaves a consistent queue.
        let mut publish = Publish {
            own: &self.tail.index,
            shared: (!self.tail.stamped).then_some(&*self.tail_index),
            at: start,
            order: self.tail.orders.publish,
        };
        for value in items {
            // SAFETY: we hold the tail lock.
            unsafe { self.write_at(publish.at, value, self.tail.orders) };
            publish.at += 1;
        }
        let pushed = publish.at - start;
        drop(publish);
        core::mem::forget(wake_on_unwind);
        // Relaxed: consumers register under the tail lock; see `blocking.rs`.
        let waiters = self.tail.waiters.load(Ordering::Relaxed);
        drop(guard);
        if waiters != 0 && pushed != 0 {
            self.sleepers.wake_all();
        }
        Ok(pushed)
    }

    /// Writes `value` at push index `t`, linking a new node if `t` starts one, and stamps
    /// the slot if slots carry stamps.
    ///
    /// # Safety
    ///
    /// The caller holds the tail lock and `t` is the current push index (or, in a batch,
    /// the next unpublished one).
    #[inline(always)]
    unsafe fn write_at(&self, t: usize, value: T, orders: Orders) {
        let offset = t % Self::SLOTS_PER_NODE;
        let mut node = self.tail.node.load(orders.own_load);
        if offset == 0 {
            // SAFETY: the tail lock makes us the only taker.
            let fresh = unsafe { self.spares.take() };
            // SAFETY: `node` is the live tail node. Consumers read its `next` after
            // acquiring a push index above `t`, which we publish after this store, or
            // (stamps) with `link_load`, which pairs with this `link_store`.
            unsafe { (*node).next.store(fresh, orders.link_store) };
            self.tail.node.store(fresh, orders.own_store);
            node = fresh;
        }
        let stamped = self.tail.stamped;
        // SAFETY: slot `offset` of the tail node is beyond every published index, so it
        // is empty and only we (tail lock holder) touch it.
        unsafe { Node::write(node, offset, stamped, value) };
        if stamped {
            // Release (or SeqCst): pairs with the Acquire load in `stamped_run`; the item
            // written above happens-before a consumer that reads stamp `t`.
            // SAFETY: the node is live and stamped.
            unsafe { Node::set_stamp(node, offset, t, orders.publish) };
        }
    }
}

/// Wakes every sleeping consumer if a batch's iterator panics: the items it yielded are
/// published (by [`Publish`]) and a consumer asleep in `pop_wait` must see them. Forgotten
/// on the normal path, which wakes only when there are waiters.
struct WakeOnUnwind<'a>(&'a Sleepers);

impl Drop for WakeOnUnwind<'_> {
    fn drop(&mut self) {
        self.0.wake_all();
    }
}

/// Stores the push index on drop (end of a batch, or a panic inside the iterator). Lives
/// only while the tail lock is held.
struct Publish<'a> {
    own: &'a AtomicUsize,
    /// The shared push index (`None` with stamps: each slot was published as written).
    shared: Option<&'a AtomicUsize>,
    at: usize,
    order: Ordering,
}

impl Drop for Publish<'_> {
    fn drop(&mut self) {
        // Relaxed: as in `push`.
        self.own.store(self.at, Ordering::Relaxed);
        if let Some(shared) = self.shared {
            // Release (or SeqCst): pairs with the Acquire load in `tail_bound`, as in
            // `push`.
            shared.store(self.at, self.order);
        }
    }
}
