//! The meeting point of a rank's search thread and its communication loop: the
//! [`Link`] (work going out, as the engine's [`RemoteSink`]) and the [`Inbox`] (work
//! coming in).

use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use magpie_search::RemoteSink;

use crate::stats::process_cpu_time;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Work for this rank's search thread.
#[derive(Debug)]
struct Incoming<N> {
    /// Subtrees (with their depths) not yet searched.
    nodes: Vec<(N, usize)>,
    /// The search thread is running a batch.
    searching: bool,
    /// The run is over (terminated or stopped): the search thread ends.
    finished: bool,
}

/// Time the search thread spent waiting for work.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Idle {
    pub(crate) wall: Duration,
    pub(crate) cpu: Duration,
}

/// What a rank shares between its search thread and its communication loop.
#[derive(Debug)]
pub(crate) struct Link<N> {
    incoming: Mutex<Incoming<N>>,
    wake: Condvar,
    /// A remote request waits and the outbox is empty: tasks should give work.
    wanted: AtomicBool,
    /// Subtrees the search gave up for other ranks.
    outbox: Mutex<Vec<(N, usize)>>,
    /// Split-off subtrees waiting in the running search (its last report).
    stealable: AtomicUsize,
    /// The run ended with an error: the running batch's result will not be used.
    cancelled: AtomicBool,
}

impl<N: Send + 'static> Link<N> {
    pub(crate) fn new(initial: Vec<(N, usize)>) -> Self {
        Self {
            incoming: Mutex::new(Incoming {
                nodes: initial,
                searching: false,
                finished: false,
            }),
            wake: Condvar::new(),
            wanted: AtomicBool::new(false),
            outbox: Mutex::new(Vec::new()),
            stealable: AtomicUsize::new(0),
            cancelled: AtomicBool::new(false),
        }
    }

    /// Communication loop: whether a batch runs, and how many split-off subtrees it
    /// holds (for load reports).
    pub(crate) fn activity(&self) -> (bool, usize) {
        let searching = lock(&self.incoming).searching;
        (searching, self.stealable.load(Ordering::Relaxed))
    }

    /// Search thread: waits for work; `None` once the run is over. Adds the wait to
    /// `idle`.
    pub(crate) fn next_batch(&self, idle: &mut Idle) -> Option<Vec<(N, usize)>> {
        let mut incoming = lock(&self.incoming);
        incoming.searching = false;
        if incoming.nodes.is_empty() && !incoming.finished {
            let (wall, cpu) = (Instant::now(), process_cpu_time());
            while incoming.nodes.is_empty() && !incoming.finished {
                incoming = self.wake.wait(incoming).unwrap_or_else(|e| e.into_inner());
            }
            idle.wall += wall.elapsed();
            idle.cpu += process_cpu_time().saturating_sub(cpu);
        }
        if incoming.finished {
            return None;
        }
        self.stealable.store(0, Ordering::Relaxed);
        incoming.searching = true;
        Some(std::mem::take(&mut incoming.nodes))
    }

    /// Communication loop: whether the rank has no work at all (no batch running,
    /// none waiting, nothing given up and not yet sent). While a batch runs, only the
    /// search adds to the outbox, so once `searching` is seen false under the lock
    /// the outbox cannot grow until this loop adds work.
    pub(crate) fn is_passive(&self) -> bool {
        let incoming = lock(&self.incoming);
        !incoming.searching && incoming.nodes.is_empty() && lock(&self.outbox).is_empty()
    }

    /// Communication loop: work that arrived for this rank.
    pub(crate) fn deliver(&self, nodes: Vec<(N, usize)>) {
        if nodes.is_empty() {
            return;
        }
        lock(&self.incoming).nodes.extend(nodes);
        self.wake.notify_one();
    }

    /// Communication loop: asks the running search for work (or stops asking).
    pub(crate) fn want(&self, wanted: bool) {
        // Relaxed: a hint the tasks poll; the work itself goes through the outbox lock.
        self.wanted.store(wanted, Ordering::Relaxed);
    }

    /// Communication loop: everything the search gave up so far.
    pub(crate) fn take_outbox(&self) -> Vec<(N, usize)> {
        std::mem::take(&mut *lock(&self.outbox))
    }

    /// Communication loop: the run is over; discard waiting work (a decision search
    /// that stopped) and let the search thread end.
    pub(crate) fn finish(&self) {
        let mut incoming = lock(&self.incoming);
        incoming.finished = true;
        incoming.nodes.clear();
        lock(&self.outbox).clear();
        drop(incoming);
        self.wake.notify_all();
    }

    /// Communication loop: the run ended with an error (another rank failed, or a
    /// message could not be read): the running batch returns at its next node.
    pub(crate) fn cancel(&self) {
        // Relaxed: a flag the tasks poll; nothing is read through it.
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Communication loop: discard waiting and given-up work (a decision search
    /// stopped), without ending the search thread.
    pub(crate) fn discard(&self) {
        lock(&self.incoming).nodes.clear();
        lock(&self.outbox).clear();
    }
}

impl<N: Send + 'static> RemoteSink for Link<N> {
    fn wants_work(&self) -> bool {
        self.wanted.load(Ordering::Relaxed)
    }

    fn send(&self, node: Box<dyn Any + Send>, depth: usize) {
        let node = *node
            .downcast::<N>()
            .unwrap_or_else(|_| unreachable!("a search sends its own node type"));
        lock(&self.outbox).push((node, depth));
        self.want(false);
    }

    fn stealable(&self, count: usize) {
        // Relaxed: a hint for load reports.
        self.stealable.store(count, Ordering::Relaxed);
    }

    fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}
