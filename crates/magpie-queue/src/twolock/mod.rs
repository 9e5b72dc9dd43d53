//! The optimized two-lock MPMC queue: the thread pool's injector.
//!
//! Michael–Scott's blocking queue with two locks (paper III, "Annotation 1"): push takes
//! only the tail lock, pop only the head lock, so one producer and one consumer run in
//! parallel and meet only through the push index, like an SPSC queue. Items live in a
//! linked list of nodes of [`SLOTS_PER_NODE`](TwoLockQueue::SLOTS_PER_NODE) slots each;
//! both indices start at 1 and a side changes node when its index is a multiple of the
//! slot count (slot 0 of the very first node stays unused — one check instead of two).
//!
//! The paper's optimizations (section IV; measured in V on a big.LITTLE phone), each
//! selectable so a benchmark can show it alone or combined:
//!
//! | optimization (paper)                 | knob                                           |
//! |--------------------------------------|------------------------------------------------|
//! | IV.A minimal memory orders           | [`Options::memory_order`] ([`MemoryOrderMode`]) |
//! | IV.A cached push index               | [`Options::cache_push_index`]                  |
//! | IV.C node size (64 / 128 / 1024 B)   | const parameter `NODE_BYTES`                   |
//! | IV.B node cache (bounded/unbounded)  | [`Options::node_cache`] ([`NodeCache`])        |
//! | IV.D pop lock kind                   | type parameter `L: `[`PopLock`]                |
//! | IV.D push lock kind (paper: hybrid)  | type parameter `P: `[`PopLock`]                |
//! | not in the paper: per-slot stamps    | [`Options::publication`] ([`Publication`])     |
//!
//! Defaults — section V.E's final configuration, adapted to oversubscription, to the
//! push side's measured cost and to the allocator: optimal orders + cached push index,
//! 1024-byte nodes ([`DEFAULT_NODE_BYTES`]), a 16-node bounded cache (V.C: unbounded is
//! faster under load but never returns memory; the paper recommends a bounded cache), the
//! [`HybridLock`] for pop and the [`TasLock`] for push.
//!
//! * Node size: the paper found 128-byte nodes best (V.B, on a phone). Here the V.B
//!   series (std locks, no node cache) has found 1024-byte nodes the fastest of the three
//!   in every recorded run, and so does the default configuration (row `default-128B`
//!   of `magpie bench twolock` is the default with 128-byte nodes). The allocator is the
//!   reason: when producers and consumers are time-sliced on fewer cores than threads,
//!   the backlog swings by thousands of items, and once it outgrows the node cache every
//!   node change is a `malloc` in push and a `free` in pop, each under its side's lock.
//!   Sixteen cached 128-byte nodes cover 256 `u64`s, sixteen 1024-byte nodes 2048. In
//!   interleaved scratch runs at P=2,K=2 (4 threads, 2 cores), 128-byte nodes with an
//!   unbounded cache gained as much over 128-byte nodes with the bounded one as 1024-byte
//!   nodes did (1.28–1.37× against 1.05–1.56× `SegQueue`, from 0.86–1.11×). The price:
//!   an empty queue holds one 1032-byte node, and the cache keeps up to 16 of them.
//! * Pop: the paper's pop-side winner was a pure spinlock, measured with 4 consumers on
//!   12 cores; the pool may have more runnable threads than cores, and then a preempted
//!   lock holder stalls spinners. The rough run in `stress_twolock.rs` (`measure_configs`,
//!   ignored; 2 cores, noisy) showed the ticket lock collapsing at 4×4 threads (~0.2 vs
//!   ~9 M items/s for the hybrid); the hybrid lock spins first (spinlock speed for the
//!   short pop critical section), then yields, and parks only when that fails. Its
//!   unlock must be a `swap` (to see parked threads), which costs a consumer alone a
//!   little against the test-and-set lock's plain store. With 128-byte nodes the
//!   test-and-set lock's consumers caught up with the producers and chased them item by
//!   item, and the mixed producer/consumer runs lost a third or more; with 1024-byte
//!   nodes row `default-pop-tas` is faster than `DEFAULT` at some points and slower at
//!   others from run to run, so the lock that can park stays the default.
//! * Push: the paper advises a hybrid lock because push may call the allocator. Measured
//!   here (`magpie bench twolock`, rows `DEFAULT` and `push-hybrid`), the hybrid lock's
//!   unlock is the push's main cost: it must be an atomic `swap` (to learn whether a
//!   thread is parked), which waits for the slot and push-index stores to reach lines the
//!   consumers just read. The test-and-set lock unlocks with a plain Release store, so the
//!   producer runs ahead of the consumers and they drain a backlog instead of chasing it
//!   item by item: `DEFAULT` was 1.4–4.1× `push-hybrid` at 1×1 and 2×2 threads in the runs
//!   recorded in `BENCHMARKS.md`. Its waiters spin (up to about 200 µs) and then
//!   `yield_now` on every step, so it does not collapse when producers outnumber cores
//!   (the benchmark's oversubscribed points check this), and a push that calls the
//!   allocator (node cache empty) only makes them yield a little longer.
//! * Both locks sit on their own cache lines, apart from the state they guard, and their
//!   waiters space their reads of the lock word (`lock/backoff.rs`): a waiter that reads
//!   it every few nanoseconds pulls the line from the holder, which then stalls in its
//!   own critical section. Together these took two producers from 0.74–0.79× to
//!   1.36–1.40× `SegQueue`'s rate and two consumers from 0.45–0.51× to 1.10–1.12×
//!   (one-side tables in `BENCHMARKS.md`).
//!
//! Benchmarks can pick any lock for either side.
//!
//! Publication: by default pop learns how far the queue is filled from the shared push
//! index, as in the paper. [`Publication::SlotStamps`] instead stamps each slot with its
//! index, so a consumer that has caught up with the producers waits for one cache line
//! per item instead of two. It is not the default: it adds 8 bytes per slot (a
//! pre-filled drain with `pop_batch` reads twice the memory), and
//! [`len`](TwoLockQueue::len) then reads the producers' own index, which shares a line
//! with the tail node pointer the producers write, while the thread pool's idle workers
//! poll `len` and `is_empty`. In `magpie bench twolock` (row `slot-stamps`) it was not faster than `DEFAULT` on this
//! 2-core machine (`BENCHMARKS.md`); it is there for machines where cross-core line
//! transfers cost more.
//!
//! Deviations from the paper's pseudocode, all behaviour-preserving: push keeps a private
//! copy of the push index (it writes the shared index but never reads it back); the node
//! cache's single taker grabs the whole cache stack with one `swap` instead of popping
//! node by node; the test-and-set lock takes the lock with a CAS (a failed attempt writes
//! nothing).
//!
//! For thread-pool use, [`pop_timeout`](TwoLockQueue::pop_timeout) /
//! [`pop_wait`](TwoLockQueue::pop_wait) sleep on a condvar (never spin forever) and
//! [`close`](TwoLockQueue::close) shuts the queue down.
//!
//! ```
//! use magpie_queue::twolock::{PopTimeoutError, TwoLockQueue};
//! use std::time::Duration;
//!
//! let q: TwoLockQueue<u64> = TwoLockQueue::new();
//! q.push(1).unwrap();
//! q.push_batch([2, 3, 4]).unwrap();
//! assert_eq!(q.len(), 4);
//! assert_eq!(q.try_pop(), Some(1));
//!
//! let mut refill = Vec::new();
//! assert_eq!(q.pop_batch(8, &mut refill), 3);
//! assert_eq!(refill, [2, 3, 4]);
//!
//! q.push(5).unwrap();
//! q.close();
//! assert!(q.push(6).is_err()); // closed: the item comes back in the error
//! assert_eq!(q.pop_timeout(Duration::from_millis(1)), Ok(5)); // drained first
//! assert_eq!(q.pop_timeout(Duration::from_millis(1)), Err(PopTimeoutError::Closed));
//! ```

mod blocking;
mod error;
mod lock;
mod node;
mod node_cache;
mod options;
mod pop;
mod push;
#[cfg(test)]
mod tests;

pub use error::{Closed, PopTimeoutError, PushError};
pub use lock::{
    HybridGuard, HybridLock, PopLock, StdLock, TasGuard, TasLock, TicketGuard, TicketLock,
};
pub use options::{MemoryOrderMode, NodeCache, Options, Publication};

use core::fmt;
use core::marker::PhantomData;
use std::panic::AssertUnwindSafe;

use crate::pad::CachePadded;
use crate::sync::{AtomicBool, AtomicPtr, AtomicUsize, Ordering, UnsafeCell};
use blocking::Sleepers;
use node::{Node, Shape};
use node_cache::NodeCache as Spares;
use options::Orders;

/// Bytes of item slots per node of a [`TwoLockQueue`] that does not name its `NODE_BYTES`:
/// 128 `u64` slots, 64 slots of two words (why not the paper's 128 bytes: [module
/// docs](self)).
pub const DEFAULT_NODE_BYTES: usize = 1024;

/// An unbounded MPMC FIFO queue with one lock for push and one for pop.
///
/// * `T`: the item type (`T: Send` makes the queue `Send + Sync`).
/// * `L`: the pop (head) lock, default [`HybridLock`]; `P`: the push (tail) lock, default
///   [`TasLock`] (why: [module docs](self)). Any [`PopLock`] works for either.
/// * `NODE_BYTES`: bytes of item slots per node, default [`DEFAULT_NODE_BYTES`] (1024);
///   see [`SLOTS_PER_NODE`](Self::SLOTS_PER_NODE).
///
/// Run-time switches are in [`Options`]. See the [module docs](self) for the design.
pub struct TwoLockQueue<
    T,
    L: PopLock = HybridLock,
    const NODE_BYTES: usize = DEFAULT_NODE_BYTES,
    P: PopLock = TasLock,
> {
    head: CachePadded<Head<T, L>>,
    tail: CachePadded<Tail<T, P>>,
    /// The push index: slots below it are full. Written by push (under the tail lock),
    /// read by pop; on its own line so consumers polling it do not steal the tail lock's.
    /// Unused with stamps (pop reads the slots' stamps, `len` reads `Tail::index`).
    tail_index: CachePadded<AtomicUsize>,
    spares: CachePadded<Spares<T>>,
    sleepers: Sleepers,
    options: Options,
    _owns: PhantomData<T>,
}

/// Consumer side: everything here except `index` is touched only under `lock`.
struct Head<T, L> {
    /// On its own line: waiters read the lock word while the holder works, and a line
    /// shared with `node`/`index` would be pulled away from the holder in its critical
    /// section (two contending consumers moved 10–30 % more items with it apart).
    lock: CachePadded<L>,
    node: AtomicPtr<Node<T>>,
    /// The pop index: the next slot to take (atomic only so `len` can read it).
    index: AtomicUsize,
    /// Consumers' copy of the push index: slots below it are known to be published.
    cached_tail: UnsafeCell<usize>,
    orders: Orders,
    cache_push_index: bool,
    /// Slots carry stamps ([`Publication::SlotStamps`]).
    stamped: bool,
}

/// Producer side: `node` and `index` are touched only under `lock`.
struct Tail<T, P> {
    /// On its own line, for the reason given at `Head::lock`.
    lock: CachePadded<P>,
    node: AtomicPtr<Node<T>>,
    /// Producers' own copy of the push index, written only under `lock`: push writes the
    /// shared `tail_index` but never reads it, so it does not pull that line back from
    /// polling consumers. Atomic because, with stamps, it is the push index `len` reads.
    index: AtomicUsize,
    /// Written only under `lock` (by `close`).
    closed: AtomicBool,
    /// Consumers asleep in `pop_timeout`/`pop_wait`; registered under `lock`.
    waiters: AtomicUsize,
    orders: Orders,
    /// Slots carry stamps ([`Publication::SlotStamps`]).
    stamped: bool,
}

// SAFETY: the queue owns its items and hands them to whichever thread pops them, so it may
// move between threads when `T: Send`; node pointers are owned by the queue.
unsafe impl<T: Send, L: PopLock, const NODE_BYTES: usize, P: PopLock> Send
    for TwoLockQueue<T, L, NODE_BYTES, P>
{
}

// SAFETY: shared access only moves `T`s between threads (`T: Send`; no `&T` is handed
// out). Unsynchronised state (`cached_tail`, node pointers, slots) is accessed only under
// the lock of its side, and slots cross sides via the Release/Acquire of the push index
// (or of the slots' stamps).
unsafe impl<T: Send, L: PopLock, const NODE_BYTES: usize, P: PopLock> Sync
    for TwoLockQueue<T, L, NODE_BYTES, P>
{
}

impl<T, L: PopLock, const NODE_BYTES: usize, P: PopLock> Default
    for TwoLockQueue<T, L, NODE_BYTES, P>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<T, L: PopLock, const NODE_BYTES: usize, P: PopLock> TwoLockQueue<T, L, NODE_BYTES, P> {
    /// Item slots per node: `max(1, NODE_BYTES / size_of::<T>())` (`max(1, NODE_BYTES)`
    /// for zero-sized `T`). `NODE_BYTES` counts item bytes only; each node also has an 8-byte
    /// `next` link. With 8-byte items, 64 / 128 / 1024 bytes give 8 / 16 / 128 slots.
    pub const SLOTS_PER_NODE: usize = {
        let n = match NODE_BYTES.checked_div(core::mem::size_of::<T>()) {
            Some(n) => n,
            None => NODE_BYTES, // zero-sized `T`
        };
        if n == 0 {
            1
        } else {
            n
        }
    };

    /// An empty queue with [`Options::default`].
    pub fn new() -> Self {
        Self::with_options(Options::default())
    }

    /// An empty queue with the given options.
    pub fn with_options(options: Options) -> Self {
        let orders = Orders::new(options.memory_order, options.publication);
        let shape = Self::shape(options);
        let spares = Spares::new(options.node_cache, shape, options.prealloc_nodes);
        let first = Node::alloc(shape);
        TwoLockQueue {
            head: CachePadded(Head {
                lock: CachePadded(L::new()),
                node: AtomicPtr::new(first),
                index: AtomicUsize::new(1),
                cached_tail: UnsafeCell::new(1),
                orders,
                cache_push_index: options.cache_push_index,
                stamped: shape.stamped,
            }),
            tail: CachePadded(Tail {
                lock: CachePadded(P::new()),
                node: AtomicPtr::new(first),
                index: AtomicUsize::new(1),
                closed: AtomicBool::new(false),
                waiters: AtomicUsize::new(0),
                orders,
                stamped: shape.stamped,
            }),
            tail_index: CachePadded(AtomicUsize::new(1)),
            spares: CachePadded(spares),
            sleepers: Sleepers::new(),
            options,
            _owns: PhantomData,
        }
    }

    fn shape(options: Options) -> Shape {
        Shape {
            slots: Self::SLOTS_PER_NODE,
            stamped: options.publication == Publication::SlotStamps,
        }
    }

    /// The options this queue was built with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Number of items: a snapshot that may be stale by the time it is used. With
    /// [`Publication::SlotStamps`], items of a batch still being pushed count only once
    /// the batch ends (consumers may pop them earlier), so `len` and `is_empty` can read
    /// low, down to 0, while a batch is in progress.
    pub fn len(&self) -> usize {
        // Relaxed: a monitoring snapshot, no data is read through it. The pop index is
        // read first; with the push index it never overtakes it, with stamps it can
        // (see above); `saturating_sub` covers both and stale reads.
        let h = self.head.index.load(Ordering::Relaxed);
        self.push_index(Ordering::Relaxed).saturating_sub(h)
    }

    /// The push index as published for `len` and `drop`: the shared one, or with stamps
    /// the producers' own (which then nobody else polls).
    fn push_index(&self, order: Ordering) -> usize {
        if self.tail.stamped {
            self.tail.index.load(order)
        } else {
            self.tail_index.load(order)
        }
    }

    /// Whether the queue looks empty (a snapshot, like [`len`](Self::len)).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Spare nodes currently held by the node cache (`None` if it is unbounded, which
    /// keeps no count). For tests and diagnostics.
    pub fn cached_nodes(&self) -> Option<usize> {
        self.spares.len()
    }
}

impl<T, L: PopLock, const NODE_BYTES: usize, P: PopLock> Drop
    for TwoLockQueue<T, L, NODE_BYTES, P>
{
    fn drop(&mut self) {
        // Relaxed throughout: `&mut self` means every other access happens-before us.
        let t = self.push_index(Ordering::Relaxed);
        let mut h = self.head.index.load(Ordering::Relaxed);
        // An item whose `Drop` panics leaks neither the others nor the nodes (as with
        // `Vec`): the first panic resumes once everything is freed.
        let mut panic = None;
        if core::mem::needs_drop::<T>() {
            while h != t {
                // SAFETY: we own the queue; slot `h` is full.
                let item = unsafe { self.take_at(h, self.head.orders) };
                h += 1;
                if let Err(payload) = std::panic::catch_unwind(AssertUnwindSafe(|| drop(item))) {
                    panic.get_or_insert(payload);
                }
            }
        }
        let mut node = self.head.node.load(Ordering::Relaxed);
        while !node.is_null() {
            // SAFETY: we own the list; every item left in it was dropped above (or needs
            // no drop). The tail node's `next` is null.
            unsafe {
                let next = (*node).next.load(Ordering::Relaxed);
                Node::free(node, Self::shape(self.options));
                node = next;
            }
        }
        // The node cache frees its spares in its own `Drop`.
        if let Some(payload) = panic {
            std::panic::resume_unwind(payload);
        }
    }
}

impl<T, L: PopLock, const NODE_BYTES: usize, P: PopLock> fmt::Debug
    for TwoLockQueue<T, L, NODE_BYTES, P>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TwoLockQueue")
            .field("len", &self.len())
            .field("slots_per_node", &Self::SLOTS_PER_NODE)
            .field("closed", &self.is_closed())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}
