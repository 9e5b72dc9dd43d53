//! A worker thread: its own queue, its pushes and sharing, its scope counts, and how it
//! waits for a latch while staying useful; how it finds work is in `worker/find_work.rs`.

use std::cell::{Cell, UnsafeCell};
use std::marker::PhantomData;
use std::ptr;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::job::JobRef;
use crate::job_cache::{JobCache, Outbox};
use crate::latch::{CoreLatch, CountLatch};
use crate::policy::Thief;
use crate::queue::LocalQueue;
use crate::registry::Registry;
use crate::stats::{bump, WorkerCounters};
use crate::Rng;

mod find_work;

use find_work::INJECTOR_BATCH;

/// Search rounds that only spin before a worker yields its CPU between rounds.
const SPIN_ROUNDS: u32 = 8;
/// Search rounds (spinning, then yielding) before an idle worker parks. Together about
/// 10–100 µs: long enough to catch the next stealable job of a running computation,
/// short enough that an idle pool sleeps at once.
const SEARCH_ROUNDS: u32 = 40;
/// How long a searcher that stays awake because work keeps being shared (see
/// `wait_until_cold`) waits between looks.
const STAY_AWAKE_PAUSE: Duration = Duration::from_micros(20);
/// Scope counts a worker takes ahead for spawns, and finished scope jobs it reports at
/// once (see `take_spawn_credit`).
const SCOPE_BATCH: usize = 64;

thread_local! {
    static CURRENT: Cell<*const WorkerThread> = const { Cell::new(ptr::null()) };
}

pub(crate) struct WorkerThread {
    registry: Arc<Registry>,
    index: usize,
    local: LocalQueue,
    thief: UnsafeCell<Option<Box<dyn Thief>>>,
    rng: UnsafeCell<Rng>,
    batch: UnsafeCell<Vec<JobRef>>,
    /// Reused by `spill` (a full queue spills a block per `entries` pushes).
    spill_buf: UnsafeCell<Vec<JobRef>>,
    wants_latency: bool,
    /// Whether there are other workers to share with.
    can_share: bool,
    /// This worker's statistics (in the registry, which `registry` keeps alive).
    counters: *const WorkerCounters,
    /// Scope counts taken ahead for spawns: (scope latch, unused credits).
    scope_credit: Cell<(*const CountLatch, usize)>,
    /// Scope jobs finished here but not yet reported: (scope latch, count).
    scope_done: Cell<(*const CountLatch, usize)>,
    /// Job slots freed here for other workers' caches.
    outbox: Outbox,
    /// The last lone job seen at a victim: (victim, its shares counter — FIFO: tasks-run
    /// counter — then, when first seen); see `lone_job_target`.
    lone_seen: Cell<(usize, u64, Instant)>,
    /// Joins on this thread's stack whose second half went through the queue and is not
    /// back yet (FIFO pools bound their stack with it: see `may_inline_join`).
    joins_pushed: Cell<usize>,
    /// `!Send` / `!Sync`: a worker is used only by its own thread.
    _not_send: PhantomData<*const ()>,
}

/// Pending pushed joins past which a FIFO pool's `join` runs inline (see
/// `WorkerThread::may_inline_join`).
pub(crate) const FIFO_JOINS_PUSHED_MAX: usize = 8;

/// Ends a pushed join's count (see `WorkerThread::join_pushed`), also on unwinding.
pub(crate) struct JoinPushedGuard<'a>(&'a Cell<usize>);

impl Drop for JoinPushedGuard<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() - 1);
    }
}

/// Clears the thread-local worker pointer when the worker's thread leaves its loop.
pub(crate) struct CurrentGuard;

impl Drop for CurrentGuard {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(ptr::null()));
    }
}

impl WorkerThread {
    pub(crate) fn new(registry: Arc<Registry>, index: usize, local: LocalQueue) -> Self {
        let n = registry.num_threads();
        let thief = (n >= 2).then(|| registry.policy.thief(index, n));
        let wants_latency = registry.policy.wants_latency();
        let counters: *const WorkerCounters = &registry.threads[index].counters;
        Self {
            registry,
            index,
            local,
            thief: UnsafeCell::new(thief),
            rng: UnsafeCell::new(Rng::new(0x6d61_6770_6965 ^ index as u64)),
            batch: UnsafeCell::new(Vec::with_capacity(INJECTOR_BATCH)),
            spill_buf: UnsafeCell::new(Vec::new()),
            wants_latency,
            can_share: n >= 2,
            counters,
            scope_credit: Cell::new((ptr::null(), 0)),
            scope_done: Cell::new((ptr::null(), 0)),
            outbox: Outbox::new(),
            lone_seen: Cell::new((usize::MAX, 0, Instant::now())),
            joins_pushed: Cell::new(0),
            _not_send: PhantomData,
        }
    }

    /// Registers `self` as this thread's worker until the guard drops.
    pub(crate) fn set_current(&self) -> CurrentGuard {
        CURRENT.with(|c| {
            assert!(c.get().is_null(), "a thread runs one worker");
            c.set(self);
        });
        CurrentGuard
    }

    /// The worker running on this thread, if any.
    #[inline]
    pub(crate) fn current() -> Option<&'static WorkerThread> {
        let p = CURRENT.with(Cell::get);
        // SAFETY: the pointer is set by `set_current` for the lifetime of the worker's
        // main loop, which outlives every job (and so every caller) on this thread, and
        // is cleared before the worker is dropped.
        unsafe { p.as_ref() }
    }

    #[inline]
    pub(crate) fn registry(&self) -> &Registry {
        &self.registry
    }

    #[inline]
    pub(crate) fn registry_arc(&self) -> &Arc<Registry> {
        &self.registry
    }

    #[inline]
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// This worker's job-slot cache (see `job_cache.rs`).
    #[inline]
    pub(crate) fn job_cache(&self) -> &JobCache {
        &self.registry.threads[self.index].job_cache
    }

    /// Slots this worker freed for other workers' caches, returned in batches.
    #[inline]
    pub(crate) fn outbox(&self) -> &Outbox {
        &self.outbox
    }

    /// The cache to allocate a job for `registry` from: this worker's own, if it is a
    /// worker of `registry` (slots must not outlive their registry).
    #[inline]
    pub(crate) fn job_cache_for(registry: &Registry) -> Option<&'static JobCache> {
        WorkerThread::current()
            .filter(|w| core::ptr::eq(w.registry(), registry))
            .map(|w| w.job_cache())
    }

    #[inline]
    fn counters(&self) -> &WorkerCounters {
        // SAFETY: points into `self.registry`, which this worker keeps alive.
        unsafe { &*self.counters }
    }

    /// Pushes a job on this worker's queue. A full queue spills its oldest block to the
    /// injector; private work is shared when other workers are idle.
    ///
    /// When to share (BWoS §8: thieves cannot reach the owner's private block):
    /// * some worker is idle (one Relaxed load), or
    /// * the job is the owner's only pending one (the private block was empty and
    ///   nothing is granted). A worker that becomes idle just after this push would
    ///   otherwise wait for the whole of the sibling task; sharing the lone job closes
    ///   that window at the cost of one block grant per empty-queue push, which deep
    ///   recursion (fork-join) almost never pays.
    #[inline]
    pub(crate) fn push(&self, job: JobRef) {
        let was_alone = self.local.private_is_empty();
        if let Err(job) = self.local.push(job) {
            self.spill(job);
        } else if self.can_share && (was_alone || self.registry.sleep.anyone_idle()) {
            self.share();
        }
    }

    /// Whether `join` may run both halves inline (see `join.rs`): this worker holds
    /// at least `INLINE_DEPTH` private jobs and no worker is idle.
    ///
    /// A FIFO queue has no private jobs, and its owner pops the *oldest* job first: a
    /// join waiting for its second half runs every older pending job before it, nested
    /// in its frame, and each of those does the same, so the stack grew with the jobs
    /// pending (fib(26) overflowed 2 MiB). There the count is of this thread's pending
    /// pushed joins, and past `FIFO_JOINS_PUSHED_MAX` of them a join runs inline even
    /// with idle workers: those jobs, the oldest and so the biggest, are stealable
    /// already, and a job run nested in a wait then inlines its joins.
    #[inline]
    pub(crate) fn may_inline_join(&self) -> bool {
        let pending = match self.local {
            LocalQueue::Lifo(_) => self.local.private_len(),
            LocalQueue::Fifo(_) => {
                let pushed = self.joins_pushed.get();
                if pushed >= FIFO_JOINS_PUSHED_MAX {
                    return true;
                }
                pushed
            }
        };
        pending >= crate::join::INLINE_DEPTH && !self.registry.sleep.anyone_idle()
    }

    /// Counts a join whose second half goes through the queue until the guard drops.
    #[inline]
    pub(crate) fn join_pushed(&self) -> JoinPushedGuard<'_> {
        self.joins_pushed.set(self.joins_pushed.get() + 1);
        JoinPushedGuard(&self.joins_pushed)
    }

    #[cold]
    fn spill(&self, job: JobRef) {
        // SAFETY: only this thread touches its spill buffer, and `spill` does not
        // re-enter itself (injecting runs no job).
        let buf = unsafe { &mut *self.spill_buf.get() };
        if self.local.pop_block_into(buf) {
            bump(&self.counters().spills, 1);
            if self.registry.inject_batch(buf.drain(..)) {
                bump(&self.counters().wakes, 1);
            }
        }
        if let Err(job) = self.local.push(job) {
            self.registry.inject(job);
        }
    }

    /// Other workers are idle: make the private top block stealable, or (FIFO, which
    /// has no private block to grant) hand the oldest block to the injector.
    ///
    /// A FIFO owner's front block, the one it pops from, is its own (taken over from
    /// thieves when it popped there): the jobs left in it are out of the thieves' reach
    /// although the queue is not empty. So for FIFO "thieves already have something"
    /// means they can see a job (`stealable_len`), not that the queue holds one. (Before,
    /// it meant `!is_empty`, always true after a push: no FIFO share ever happened, and
    /// a worker that popped one of the tasks it had spawned ran all the others itself
    /// while the other workers slept; tasks that wait for each other hung.)
    #[cold]
    fn share(&self) {
        let thieves_have_some = match self.local {
            LocalQueue::Lifo(_) => self.local.granted_hint(),
            LocalQueue::Fifo(_) => self.registry.threads[self.index].stealer.stealable_len() > 0,
        };
        if thieves_have_some {
            // Thieves already have something of ours to take. FIFO: a push into a
            // block thieves can see (the back block, once the front one is full) is
            // what published it, with no share to notify for it: notify here, or a
            // sleeping worker sleeps on beside the visible job (rule 3 of `sleep.rs`).
            if matches!(self.local, LocalQueue::Fifo(_))
                && self.registry.sleep.anyone_idle()
                && self.registry.sleep.notify_work()
            {
                bump(&self.counters().wakes, 1);
            }
            return;
        }
        if self.local.share() {
            bump(&self.counters().shares, 1);
            // The owner runs its shared jobs itself if nobody takes them, so a missed
            // wake-up here costs parallelism, never progress: skip the fence when
            // nobody is idle.
            if self.registry.sleep.anyone_idle() && self.registry.sleep.notify_work() {
                bump(&self.counters().wakes, 1);
            }
        } else if matches!(self.local, LocalQueue::Fifo(_)) {
            if let Some(block) = self.local.pop_block() {
                bump(&self.counters().shares, 1);
                if self.registry.inject_batch(block) {
                    bump(&self.counters().wakes, 1);
                }
            }
        }
    }

    /// Lets thieves have the private jobs: before an install into another pool (the
    /// worker may go on with a long job while it waits), when a job that waited goes on
    /// after running others meanwhile (`wait_until_cold`), or when a long task asks
    /// ([`crate::share_queued_jobs`]).
    ///
    /// Unlike [`share`](Self::share), this grants the private block even when thieves
    /// can still take an older one of ours, and always notifies: the owner will not run
    /// these jobs itself for a while (it may block until one of them has run), so
    /// neither an older granted block nor a skipped wake-up may hide them.
    pub(crate) fn share_private(&self) {
        if self.can_share && !self.local.private_is_empty() && self.local.share() {
            bump(&self.counters().shares, 1);
            if self.registry.sleep.notify_work() {
                bump(&self.counters().wakes, 1);
            }
        }
    }

    /// Before a blocking wait ([`crate::block_in_place`]): every job this worker holds
    /// becomes reachable by the others. LIFO grants the private block
    /// ([`share_private`](Self::share_private)); FIFO hands the jobs left in its front
    /// block, which thieves cannot take, to the injector (which wakes a sleeper); if
    /// that block is used up, the oldest granted one goes instead, which harms nothing.
    pub(crate) fn offer_queued_jobs(&self) {
        match self.local {
            LocalQueue::Lifo(_) => self.share_private(),
            LocalQueue::Fifo(_) => {
                if !self.can_share {
                    return;
                }
                if let Some(block) = self.local.pop_block() {
                    bump(&self.counters().shares, 1);
                    if self.registry.inject_batch(block) {
                        bump(&self.counters().wakes, 1);
                    }
                }
            }
        }
    }

    #[inline]
    pub(crate) fn pop(&self) -> Option<JobRef> {
        self.local.pop()
    }

    /// Runs a job taken from a queue.
    #[inline]
    pub(crate) fn execute(&self, job: JobRef) {
        bump(&self.counters().tasks, 1);
        // SAFETY: every JobRef in a queue is live and runs once: whoever pops or
        // steals it is its only runner.
        unsafe { job.execute() };
    }

    /// Counts a job popped back and run inline (`join`'s second half).
    #[inline]
    pub(crate) fn count_task(&self) {
        bump(&self.counters().tasks, 1);
    }

    /// Accounts for one spawn into the scope whose latch is `latch`.
    ///
    /// Every spawn and every finished job of a scope would otherwise be an atomic
    /// read-modify-write on the scope's counter, shared by all workers: the hottest line
    /// in spawn-heavy work. Instead a worker adds [`SCOPE_BATCH`] counts at once and
    /// uses them as credits, and reports finished jobs [`SCOPE_BATCH`] at a time. Held
    /// credits and unreported completions both keep the count above zero, so the scope
    /// can never finish early; every worker reports everything it holds before it goes
    /// idle and before a job that waited goes on after running others meanwhile
    /// (`wait_until_cold`), and a scope's owner before it waits, so it always finishes.
    pub(crate) fn take_spawn_credit(&self, latch: &CountLatch) {
        let (held, n) = self.scope_credit.get();
        if ptr::eq(held, latch) && n > 0 {
            self.scope_credit.set((held, n - 1));
            return;
        }
        self.return_credits();
        latch.add(SCOPE_BATCH);
        self.scope_credit.set((latch, SCOPE_BATCH - 1));
    }

    /// Accounts for one finished job of the scope whose latch is `latch`.
    ///
    /// # Safety
    /// `latch` is the live latch of a scope that counts the finished job; it is not
    /// touched after this call (the scope may be gone once its count reaches zero).
    pub(crate) unsafe fn report_scope_done(&self, latch: *const CountLatch) {
        let (held, n) = self.scope_done.get();
        if ptr::eq(held, latch) {
            if n + 1 < SCOPE_BATCH {
                self.scope_done.set((held, n + 1));
                return;
            }
            self.scope_done.set((ptr::null(), 0));
            // SAFETY: we hold n + 1 counts of this live scope (unreported jobs).
            unsafe { CountLatch::sub(latch, n + 1) };
            return;
        }
        self.flush_done();
        self.scope_done.set((latch, 1));
    }

    /// Called before a job runs: batched counts of any scope other than `scope` are
    /// reported first, so that they never wait behind a job that may run long or block
    /// (a detached task waiting for that very scope, say).
    #[inline]
    pub(crate) fn before_job(&self, scope: Option<&CountLatch>) {
        let keep = scope.map_or(ptr::null(), |l| l as *const CountLatch);
        let (done, n) = self.scope_done.get();
        if n > 0 && !ptr::eq(done, keep) {
            self.flush_done();
        }
        let (credit, c) = self.scope_credit.get();
        if c > 0 && !ptr::eq(credit, keep) {
            self.return_credits();
        }
    }

    fn return_credits(&self) {
        let (held, n) = self.scope_credit.replace((ptr::null(), 0));
        if n > 0 {
            // SAFETY: the credits are counts we added; the scope lives while they do.
            unsafe { CountLatch::sub(held, n) };
        }
    }

    fn flush_done(&self) {
        let (held, n) = self.scope_done.replace((ptr::null(), 0));
        if n > 0 {
            // SAFETY: as in `report_scope_done`.
            unsafe { CountLatch::sub(held, n) };
        }
    }

    /// Reports every scope count this worker holds, and returns freed job slots to
    /// their caches.
    pub(crate) fn flush_scope_counts(&self) {
        self.flush_done();
        self.return_credits();
        // SAFETY: the outbox only holds slots of this registry's caches, alive while
        // this worker holds the registry.
        unsafe { self.outbox.flush() };
    }

    /// Runs other work until `latch` is set: the owner of a stolen join half, a scope
    /// owner, and the main loop (whose latch is the terminate signal) all wait here.
    #[inline]
    pub(crate) fn wait_until(&self, latch: &CoreLatch) {
        if !latch.probe() {
            self.wait_until_cold(latch, false);
        }
    }

    /// The worker's main loop: it starts counted as a searcher (see `Sleep::new`), so
    /// owners share work with it from the moment the pool is built.
    pub(crate) fn run_until(&self, terminate: &CoreLatch) {
        self.wait_until_cold(terminate, true);
    }

    #[cold]
    fn wait_until_cold(&self, latch: &CoreLatch, searching: bool) {
        let sleep = &self.registry.sleep;
        let mut searching_since = searching.then(|| self.begin_idle());
        let mut rounds = 0u32;
        let mut shares_seen = self.others_shares();
        let mut ran_jobs = false;
        while !latch.probe() {
            if let Some(job) = self.find_work() {
                if let Some(since) = searching_since.take() {
                    self.add_idle(since);
                    if sleep.work_found() {
                        bump(&self.counters().wakes, 1);
                    }
                }
                rounds = 0;
                ran_jobs = true;
                self.execute(job);
                continue;
            }
            if searching_since.is_none() {
                // Going idle: report batched scope counts first (see take_spawn_credit),
                // they may be what the latch we wait for, or another worker's, needs.
                self.flush_scope_counts();
                if latch.probe() {
                    break;
                }
                searching_since = Some(self.begin_idle());
                shares_seen = self.others_shares();
                sleep.start_searching();
            }
            rounds += 1;
            if rounds <= SPIN_ROUNDS {
                for _ in 0..(1 << rounds) {
                    std::hint::spin_loop();
                }
                continue;
            }
            if rounds <= SEARCH_ROUNDS {
                std::thread::yield_now();
                continue;
            }
            // Work is flowing: another worker shared jobs during this search (a chain of
            // spawns shares every task). Parking now would only have its next share wake
            // us again at once — a futex wake on its hot path per park, and a woken
            // thief that preempts it and takes its job (issue 21). Keep searching
            // (yielding) instead, as rayon's sleepy workers do while its jobs-event
            // counter moves; a quiet pool still parks after one quiet search.
            let shares = self.others_shares();
            if shares != shares_seen {
                shares_seen = shares;
                // Look again only now and then: every look reads lines the sharer
                // writes per task (its queue's block metadata, its counters), and a
                // thief polling at full speed halved a chain's speed. A sleeping
                // searcher still counts as one, so shares do not wake anyone.
                std::thread::sleep(STAY_AWAKE_PAUSE);
                rounds = SEARCH_ROUNDS - 1;
                continue;
            }
            rounds = 0;
            if !latch.get_sleepy() {
                continue; // set meanwhile
            }
            bump(&self.counters().parks, 1);
            // SAFETY: this worker owns its cache.
            unsafe { self.job_cache().trim() };
            sleep.sleep(self.index, || latch.probe() || self.work_visible());
            latch.wake_up();
        }
        if let Some(since) = searching_since {
            self.add_idle(since);
            sleep.stop_searching();
        }
        if ran_jobs {
            // The jobs run here may have left batched counts of their scopes, and the
            // job that waited goes on now: it may run long or block, even until one
            // of those scopes finishes (a detached task waiting for it). Report them.
            self.flush_done();
            self.return_credits();
            // For the same reason, jobs taken or pushed here (the rest of a stolen or
            // injected batch, their spawns) must not stay in the private block, out
            // of the other workers' reach, while the waiting job goes on.
            self.share_private();
        }
    }

    /// Starts an idle stretch now: published so that statistics count it while it lasts.
    fn begin_idle(&self) -> Instant {
        let now = Instant::now();
        let since = crate::registry::nanos(now.saturating_duration_since(self.registry.epoch));
        self.counters()
            .idle_since_ns
            .store(since.saturating_add(1), Relaxed);
        now
    }

    /// Ends the idle stretch begun at `since` (by `begin_idle`).
    fn add_idle(&self, since: Instant) {
        let ns = crate::registry::nanos(since.elapsed());
        self.counters().idle_since_ns.store(0, Relaxed);
        bump(&self.counters().idle_ns, ns);
    }

    /// After terminate: run whatever work is left where this worker can find it.
    ///
    /// One `find_work` that finds nothing does not end it while work is visible: a round
    /// looks at a bounded number of victims and first waits out a victim's lone job (see
    /// `lone_job_target`). A worker blocked in a task on the job it spawned (a detached
    /// task waiting for its child) waits for exactly such a job; drained without it, the
    /// blocked worker never ended and the pool's drop never returned.
    pub(crate) fn drain(&self) {
        loop {
            while let Some(job) = self.find_work() {
                self.execute(job);
            }
            if !self.work_visible() {
                break;
            }
            std::thread::yield_now();
        }
        self.flush_scope_counts();
    }
}
