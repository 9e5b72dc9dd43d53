//! One I/O source's readiness and wakers (tokio's `ScheduledIo`).
//!
//! The readiness word holds the readiness bits the driver has seen since the last
//! `WouldBlock` and a tick, bumped by every event. A task tries its syscall while the
//! bits say "ready" — no epoll call at all as long as the socket stays readable — and
//! clears the bits only when the syscall says `WouldBlock`, and only if no event came
//! since it read the word (same tick): an edge that arrives between the task's read and
//! its clear is therefore never lost (the registration is edge-triggered, so the kernel
//! would not report it again).
//!
//! Lost-wake-up argument for the wakers: the driver sets the bits, then takes the
//! waiter lock and takes the waker; a task stores its waker under that lock and reads
//! the bits again under it. Either the task's critical section comes first (the driver
//! then finds its waker) or the driver's does (then the bits were set before the
//! driver's unlock, which happens before the task's lock, so the task's re-read sees
//! them).

use std::sync::Mutex;
use std::task::{Context, Poll, Waker};

use slab::Slab;

use std::sync::atomic::{AtomicUsize, Ordering};

/// Readable (or a listener has a connection).
pub(crate) const READABLE: usize = 1;
/// Writable (or a connect finished).
pub(crate) const WRITABLE: usize = 1 << 1;
/// The peer closed its write side (a read returns 0).
pub(crate) const READ_CLOSED: usize = 1 << 2;
/// The write side is closed.
pub(crate) const WRITE_CLOSED: usize = 1 << 3;
/// An error is pending on the socket.
pub(crate) const ERROR: usize = 1 << 4;
/// The runtime has stopped: every wait ends with an error.
pub(crate) const SHUT_DOWN: usize = 1 << 5;

const BITS: usize = 0xffff;
const TICK_SHIFT: u32 = 16;
const TICK_MASK: usize = 0x7fff;

/// Which half of a socket a task waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Read,
    Write,
}

impl Direction {
    /// The bits that make an operation in this direction worth trying.
    fn mask(self) -> usize {
        match self {
            Direction::Read => READABLE | READ_CLOSED | ERROR | SHUT_DOWN,
            Direction::Write => WRITABLE | WRITE_CLOSED | ERROR | SHUT_DOWN,
        }
    }

    /// The bits a `WouldBlock` in this direction disproves (closed and error stay).
    fn clearable(self) -> usize {
        match self {
            Direction::Read => READABLE,
            Direction::Write => WRITABLE,
        }
    }
}

/// A readiness observation: the bits and the tick they were read at.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReadyEvent {
    tick: usize,
    ready: usize,
}

impl ReadyEvent {
    /// Whether the runtime has stopped (see [`SHUT_DOWN`]).
    pub(crate) fn shut_down(&self) -> bool {
        self.ready & SHUT_DOWN != 0
    }
}

#[derive(Debug, Default)]
struct Waiters {
    /// The `poll_*` waiter of each direction: one task at a time (a second task's poll
    /// replaces the first's waker, as with tokio's `poll_read`).
    reader: Option<Waker>,
    writer: Option<Waker>,
    /// Waiting futures that may be many at once (tasks accepting on one listener), each
    /// under the key it removes when dropped; `None` once woken.
    readers: Slab<Option<Waker>>,
    writers: Slab<Option<Waker>>,
}

impl Waiters {
    fn list(&mut self, direction: Direction) -> &mut Slab<Option<Waker>> {
        match direction {
            Direction::Read => &mut self.readers,
            Direction::Write => &mut self.writers,
        }
    }
}

/// A registered source's state, shared by its owner and the driver.
#[derive(Debug)]
pub(crate) struct ScheduledIo {
    readiness: AtomicUsize,
    waiters: Mutex<Waiters>,
    /// The source's token with the driver.
    token: usize,
}

impl ScheduledIo {
    /// A source registered under `token`, assumed to be `initial`-ready (tick 0) until
    /// a syscall says otherwise.
    pub(crate) fn new(initial: usize, token: usize) -> Self {
        Self {
            readiness: AtomicUsize::new(initial & BITS),
            waiters: Mutex::new(Waiters::default()),
            token,
        }
    }

    /// The source's token with the driver.
    pub(crate) fn token(&self) -> usize {
        self.token
    }

    /// The driver saw `bits`: records them (new tick) and moves the wakers of the
    /// directions they make ready into `wake` (woken by the caller, outside any lock).
    pub(crate) fn set_readiness(&self, bits: usize, wake: &mut Vec<Waker>) {
        // AcqRel: the Release half pairs with the Acquire loads in `poll_ready` (the bits
        // are the message); the Acquire half keeps the tick sequence of concurrent
        // clears coherent. Both are over-strong for correctness, which rests on the
        // waiter lock (module doc).
        let _ = self
            .readiness
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |current| {
                let tick = ((current >> TICK_SHIFT) + 1) & TICK_MASK;
                Some((tick << TICK_SHIFT) | (current & BITS) | bits)
            });
        let mut waiters = lock(&self.waiters);
        if bits & Direction::Read.mask() != 0 {
            wake.extend(waiters.reader.take());
            wake.extend(waiters.readers.iter_mut().filter_map(|(_, w)| w.take()));
        }
        if bits & Direction::Write.mask() != 0 {
            wake.extend(waiters.writer.take());
            wake.extend(waiters.writers.iter_mut().filter_map(|(_, w)| w.take()));
        }
    }

    /// Like [`poll_ready`](Self::poll_ready) for one of possibly many futures waiting in
    /// `direction` at once: its waker is kept under `key` (allocated at its first
    /// `Pending`) until an event wakes it; the future calls
    /// [`remove_waiter`](Self::remove_waiter) when dropped.
    pub(crate) fn poll_ready_shared(
        &self,
        cx: &mut Context<'_>,
        direction: Direction,
        key: &mut Option<usize>,
    ) -> Poll<ReadyEvent> {
        if let Some(event) = self.ready(direction) {
            return Poll::Ready(event);
        }
        let mut waiters = lock(&self.waiters);
        let list = waiters.list(direction);
        match key.and_then(|k| list.get_mut(k)) {
            Some(Some(waker)) if waker.will_wake(cx.waker()) => {}
            Some(slot) => *slot = Some(cx.waker().clone()),
            None => *key = Some(list.insert(Some(cx.waker().clone()))),
        }
        // Re-read under the lock, as in `poll_ready`.
        match self.ready(direction) {
            Some(event) => Poll::Ready(event),
            None => Poll::Pending,
        }
    }

    /// A future that waited through [`poll_ready_shared`](Self::poll_ready_shared) is
    /// done or dropped: frees its `key`.
    pub(crate) fn remove_waiter(&self, direction: Direction, key: usize) {
        let waker = lock(&self.waiters).list(direction).try_remove(key);
        drop(waker); // outside the lock
    }

    /// Ready in `direction` now, or `Pending` with the task's waker stored.
    pub(crate) fn poll_ready(
        &self,
        cx: &mut Context<'_>,
        direction: Direction,
    ) -> Poll<ReadyEvent> {
        if let Some(event) = self.ready(direction) {
            return Poll::Ready(event);
        }
        let mut waiters = lock(&self.waiters);
        let slot = match direction {
            Direction::Read => &mut waiters.reader,
            Direction::Write => &mut waiters.writer,
        };
        match slot {
            Some(waker) if waker.will_wake(cx.waker()) => {}
            _ => *slot = Some(cx.waker().clone()),
        }
        // Re-read under the lock (module doc: this is what makes the wake-up not lost).
        match self.ready(direction) {
            Some(event) => Poll::Ready(event),
            None => Poll::Pending,
        }
    }

    fn ready(&self, direction: Direction) -> Option<ReadyEvent> {
        // Acquire: pairs with the Release in `set_readiness`.
        let current = self.readiness.load(Ordering::Acquire);
        (current & direction.mask() != 0).then_some(ReadyEvent {
            tick: (current >> TICK_SHIFT) & TICK_MASK,
            ready: current & BITS,
        })
    }

    /// A syscall in `direction` said `WouldBlock` after `event` was observed: clears the
    /// direction's ready bit unless an event arrived since (another tick).
    pub(crate) fn clear_readiness(&self, event: ReadyEvent, direction: Direction) {
        // AcqRel/Acquire: a read-modify-write on the word `set_readiness` also updates;
        // the tick comparison needs the latest value, which any RMW reads.
        let _ = self
            .readiness
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |current| {
                ((current >> TICK_SHIFT) & TICK_MASK == event.tick)
                    .then_some(current & !direction.clearable())
            });
    }
}

/// The waiter lock; never poisoned in practice (no user code runs under it).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
