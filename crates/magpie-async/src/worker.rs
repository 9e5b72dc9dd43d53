//! A worker thread: its local state ([`Local`]) and its scheduling loop
//! ([`WorkerLoop`]).
//!
//! Each turn takes a task from, in order: the injector every [`FAIRNESS_INTERVAL`]
//! ticks (so remote wakes are not starved by a busy local queue), the local FIFO queue,
//! a batch from the injector, a batch stolen from a victim chosen by the runtime's
//! [`VictimPolicy`](magpie::policy::VictimPolicy). After [`EVENT_INTERVAL`] tasks the
//! loop polls the I/O driver without blocking (if no other worker holds it), so I/O
//! readiness is seen while every worker is busy. With nothing to run it parks by the
//! protocol of [`crate::park`], in the driver (epoll) if it is free, else on its
//! condvar ([`crate::parker`]).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::task::Waker;
use std::time::Duration;

use crate::scheduler::Runnable;
use magpie::policy::{StealOutcome, Thief, Victims};
use magpie::Rng;
use magpie_queue::Steal;

use crate::driver::Driver;
use crate::parker::{Parker, Unparker};
use crate::run_queue::RunQueue;
use crate::scheduler::Shared;
use crate::sync::Ordering;

/// Tasks run between two non-blocking polls of the reactor (tokio's default is 61).
pub(crate) const EVENT_INTERVAL: u32 = 61;
/// Ticks between two looks at the injector ahead of the local queue.
pub(crate) const FAIRNESS_INTERVAL: u32 = 31;
/// Most tasks run from the LIFO slot in a row before the queue gets a turn (tokio: 3).
const MAX_LIFO_POLLS: u32 = 3;
/// Most tasks taken from the injector at once.
const INJECTOR_BATCH: usize = 32;

/// A worker's own state, reachable from its thread through [`crate::context`].
pub(crate) struct Local {
    shared: Arc<Shared>,
    index: usize,
    queue: RunQueue,
    /// Whether the worker is parked and on the idle list. Wakes on this thread then come
    /// from the I/O driver it holds, dispatching events; they go to the local queue (this
    /// thread runs those tasks when the driver returns), and the first one takes the
    /// worker off the idle list so a parallelism wake picks another worker.
    idle_registered: std::cell::Cell<bool>,
    /// The task woken last by the task this worker is running, run next (tokio's LIFO
    /// slot): a message's receiver runs while the message is hot in cache. Not
    /// stealable; used at most [`MAX_LIFO_POLLS`] times in a row.
    lifo: std::cell::Cell<Option<Runnable>>,
    /// Whether a task is being polled right now (only its wakes use the LIFO slot).
    in_task: std::cell::Cell<bool>,
    /// Whether this thread is polling the I/O driver: its wakes come in a batch, so the
    /// parallelism wake waits until the batch is queued ([`Self::end_dispatch`]).
    dispatching: std::cell::Cell<bool>,
    /// A parallelism wake held back during a dispatch.
    wake_deferred: std::cell::Cell<bool>,
}

impl Local {
    pub(crate) fn new(shared: &Arc<Shared>, index: usize, queue: RunQueue) -> Self {
        Self {
            shared: shared.clone(),
            index,
            queue,
            idle_registered: std::cell::Cell::new(false),
            lifo: std::cell::Cell::new(None),
            in_task: std::cell::Cell::new(false),
            dispatching: std::cell::Cell::new(false),
            wake_deferred: std::cell::Cell::new(false),
        }
    }

    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// The runtime this worker belongs to.
    pub(crate) fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Whether this worker belongs to `shared`'s runtime.
    #[inline]
    pub(crate) fn runs_for(&self, shared: &Arc<Shared>) -> bool {
        Arc::ptr_eq(&self.shared, shared)
    }

    /// A wake-up on this worker: into the local queue. Spills to the injector when full.
    ///
    /// Liveness: either the loop is running (it never parks with a non-empty local
    /// queue), or this push comes from the driver's dispatch on this very thread, and
    /// the driver returns to the loop right after.
    #[inline]
    pub(crate) fn push(&self, runnable: Runnable, shared: &Shared) {
        self.push_back(runnable, shared);
    }

    /// A task woken by the task now running on this worker (not by itself): into the
    /// LIFO slot, whose previous occupant moves to the back of the queue.
    #[inline]
    pub(crate) fn push_woken(&self, runnable: Runnable, shared: &Shared) {
        if !self.in_task.get() {
            return self.push_back(runnable, shared);
        }
        if let Some(previous) = self.lifo.replace(Some(runnable)) {
            self.push_back(previous, shared);
        }
    }

    #[inline]
    fn push_back(&self, runnable: Runnable, shared: &Shared) {
        let spilled = self.queue.push(runnable, &shared.injector);
        if self.idle_registered.replace(false) {
            // Off the idle list first, so a parallelism wake below picks another worker.
            shared.idle.unregister(self.index);
        }
        if spilled {
            shared.idle.notify_one();
        } else if self.dispatching.get() {
            self.wake_deferred.set(true);
        } else {
            self.wake_for_parallelism(shared);
        }
    }

    /// Wakes a parked worker if one could steal what this one cannot get to soon (not
    /// needed for liveness: this worker runs its own queue).
    fn wake_for_parallelism(&self, shared: &Shared) {
        if shared.idle.wants_parallelism() && shared.stealers[self.index].stealable_len() > 0 {
            shared.idle.wake_one();
        }
    }

    /// Marks the start of a poll of the I/O driver on this thread.
    fn begin_dispatch(&self) {
        self.dispatching.set(true);
    }

    /// Ends a poll of the I/O driver: one parallelism wake for the whole batch of wakes
    /// it queued (as tokio does after a driver poll), when a thief finds the batch
    /// queued, rather than at the first stealable task. Under `wrk` at 1,000
    /// connections this cut the server's context switches per request 3–4× (voluntary)
    /// and ~20× (involuntary).
    fn end_dispatch(&self, shared: &Shared) {
        self.dispatching.set(false);
        if self.wake_deferred.replace(false) {
            self.wake_for_parallelism(shared);
        }
    }

    /// Pops the oldest local task (the single-threaded core tests drive the queue).
    #[cfg(all(test, not(magpie_async_loom)))]
    pub(crate) fn pop(&self) -> Option<Runnable> {
        self.lifo.take().or_else(|| self.queue.pop())
    }

    /// Drops every task left in the local queue (shutdown).
    pub(crate) fn drain(&self) {
        drop(self.lifo.take());
        while let Some(runnable) = self.queue.pop() {
            drop(runnable);
        }
    }
}

impl std::fmt::Debug for Local {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Local")
            .field("index", &self.index)
            .field("queue", &self.queue)
            .finish_non_exhaustive()
    }
}

/// The view of the workers a victim policy chooses from.
struct View<'a> {
    shared: &'a Shared,
    me: usize,
}

impl Victims for View<'_> {
    fn workers(&self) -> usize {
        self.shared.workers()
    }
    fn me(&self) -> usize {
        self.me
    }
    fn sample(&self, victim: usize, rng: &mut Rng) -> bool {
        self.shared.stealers[victim].sample(rng)
    }
    fn stealable_len(&self, victim: usize) -> usize {
        self.shared.stealers[victim].stealable_len()
    }
    fn tasks_run(&self, victim: usize) -> u64 {
        // Relaxed: a statistic for the policy.
        self.shared.tasks_run[victim].0.load(Ordering::Relaxed)
    }
    fn topology(&self) -> &magpie::policy::Topology {
        &self.shared.topology
    }
}

/// The scheduling loop of one worker.
pub(crate) struct WorkerLoop<'a> {
    shared: &'a Arc<Shared>,
    local: &'a Local,
    driver: Arc<Driver>,
    unparker: Arc<Unparker<Driver>>,
    thief: Option<Box<dyn Thief>>,
    rng: Rng,
    tick: u32,
    lifo_polls: u32,
    searching: bool,
    batch: Vec<Runnable>,
}

impl<'a> WorkerLoop<'a> {
    pub(crate) fn new(shared: &'a Arc<Shared>, local: &'a Local) -> Self {
        let workers = shared.workers();
        let thief = (workers > 1).then(|| shared.policy.thief(local.index, workers));
        let driver = shared
            .driver
            .clone()
            .expect("a runtime's workers have a driver");
        Self {
            shared,
            local,
            unparker: Arc::new(Unparker::new(driver.clone())),
            driver,
            thief,
            rng: Rng::new(0x9e37_79b9_7f4a_7c15 ^ (local.index as u64 + 1)),
            tick: 0,
            lifo_polls: 0,
            searching: false,
            batch: Vec::new(),
        }
    }
    /// The next task to run, if any worker-visible queue has one.
    fn next_task(&mut self) -> Option<Runnable> {
        self.tick = self.tick.wrapping_add(1);
        if self.tick % FAIRNESS_INTERVAL == 0 {
            if let Some(r) = self.shared.injector.pop() {
                return Some(r);
            }
        }
        if let Some(r) = self.local.lifo.take() {
            if self.lifo_polls < MAX_LIFO_POLLS {
                self.lifo_polls += 1;
                return Some(r);
            }
            // Enough in a row: it queues behind the others like any wake.
            self.local.push_back(r, self.shared);
        }
        self.lifo_polls = 0;
        if let Some(r) = self.local.queue.pop() {
            return Some(r);
        }
        if let Some(r) = self.take_from_injector() {
            return Some(r);
        }
        self.steal()
    }

    /// Takes a fair share of the injector: the first to run, the rest into the local
    /// queue.
    fn take_from_injector(&mut self) -> Option<Runnable> {
        if self.shared.injector.is_empty() {
            return None;
        }
        let share = self.shared.injector.len() / self.shared.workers() + 1;
        let max = self.local.queue.room(INJECTOR_BATCH.min(share)) + 1;
        self.batch.clear();
        self.shared.injector.pop_batch(max, &mut self.batch);
        let mut batch = self.batch.drain(..);
        let first = batch.next();
        for r in batch {
            self.local.queue.push_within_room(r);
        }
        first
    }

    /// Steals a batch (a whole block by default) from victims chosen by the policy.
    fn steal(&mut self) -> Option<Runnable> {
        let thief = self.thief.as_mut()?;
        let view = View {
            shared: self.shared,
            me: self.local.index,
        };
        let wants_latency = self.shared.policy.wants_latency();
        for _ in 0..2 * self.shared.workers() {
            let Some(victim) = thief.choose(&view, &mut self.rng) else {
                continue;
            };
            let start = wants_latency.then(std::time::Instant::now);
            let stolen = self.shared.stealers[victim]
                .steal_batch_and_pop(self.local.queue.as_dest(), self.shared.steal_batch);
            let latency = start.map_or(Duration::ZERO, |s| s.elapsed());
            match stolen {
                Steal::Success(r) => {
                    let items = self.local.queue.as_dest().len() + 1;
                    thief.record(victim, StealOutcome::Success { items }, latency);
                    return Some(r);
                }
                Steal::Empty => thief.record(victim, StealOutcome::Empty, latency),
                Steal::Retry => thief.record(victim, StealOutcome::Retry, latency),
            }
        }
        None
    }

    fn run(&self, runnable: Runnable) {
        // Relaxed: a statistic for victim policies.
        self.shared.tasks_run[self.local.index]
            .0
            .fetch_add(1, Ordering::Relaxed);
        // A task's own panic is caught inside its future (it becomes a JoinError), its
        // future's and output's destructors' in `CatchDrop`; this catches the rest (a
        // panicking waker) so the worker survives.
        self.local.in_task.set(true);
        let _ = catch_unwind(AssertUnwindSafe(|| runnable.run()));
        self.local.in_task.set(false);
    }

    fn stop_searching(&mut self) {
        if self.searching {
            self.searching = false;
            self.shared.idle.end_search();
        }
    }

    /// A task was found: stop searching, and if this worker was searching and the
    /// injector holds more, wake the next sleeper (producers do not wake anybody while
    /// a worker searches; see `park`).
    fn found_work(&mut self) {
        if self.searching {
            self.stop_searching();
            if !self.shared.injector.is_empty() {
                self.shared.idle.notify_one();
            }
        }
    }
}

impl WorkerLoop<'_> {
    /// Runs tasks until shutdown.
    fn run_loop(&mut self) {
        // What producers wake: unparks this thread, in the driver or on its condvar.
        let waker = Waker::from(self.unparker.clone());
        let me = self.local.index;
        let mut budget = EVENT_INTERVAL;
        loop {
            if self.shared.is_shutdown() {
                self.stop_searching();
                return;
            }
            if let Some(runnable) = self.next_task() {
                self.found_work();
                self.run(runnable);
                budget -= 1;
                if budget == 0 {
                    budget = EVENT_INTERVAL;
                    // A look at I/O readiness while busy; its wakes land in this
                    // worker's local queue.
                    self.local.begin_dispatch();
                    Parker::poll_driver(&*self.driver);
                    self.local.end_dispatch(self.shared);
                }
                continue;
            }
            // Park protocol, worker side (see `park`): stop searching, register, fence,
            // recheck.
            self.stop_searching();
            self.shared.idle.register(me, &waker);
            if self.shared.has_work(me) {
                self.shared.idle.unregister(me);
                // A producer may have popped this worker meanwhile, counting it.
                self.searching = self.shared.idle.take_counted(me);
                continue;
            }
            self.local.idle_registered.set(true);
            self.local.begin_dispatch();
            self.unparker.park();
            self.local.end_dispatch(self.shared);
            // Woken by a producer (which took it off the list), by I/O events (whose
            // first local push took it off), or spuriously: off the list either way.
            if self.local.idle_registered.replace(false) {
                self.shared.idle.unregister(me);
            }
            // Counted as searching only if a producer's `wake_one` woke it.
            self.searching = self.shared.idle.take_counted(me);
            budget = EVENT_INTERVAL;
        }
    }
}

/// A worker thread's body: runs the loop until shutdown, then drops its queued tasks.
pub(crate) fn run_worker(shared: Arc<Shared>, index: usize, queue: RunQueue) {
    let handle = crate::handle::Handle::from_shared(shared.clone());
    let local = Local::new(&shared, index, queue);
    crate::context::enter(&handle, || {
        crate::context::set_local(&local, || {
            WorkerLoop::new(&shared, &local).run_loop();
        });
    });
    if shared.idle.sleeping() > 0 {
        shared.idle.unregister(index);
    }
    // Off the worker context, so wakes caused by dropping tasks do not come back here.
    local.drain();
}
