//! The state the workers share: the injector, every worker's stealer, the idle list,
//! the registry of live tasks and the shutdown flag; and the two scheduling decisions —
//! where a woken task goes ([`schedule`]) and how a task is born
//! ([`Shared::spawn`]).
//!
//! A task woken on a worker thread goes to that worker's local queue (no shared write at
//! all in the common case) — also when the worker holds the I/O driver and is handing
//! out its events: the worker runs those tasks itself when it returns from the driver.
//! Any other wake (another thread, async-io's timer thread) goes to the injector and
//! wakes a parked worker (the producer side of [`crate::park`]).

use std::cell::RefCell;
use std::future::Future;
use std::mem::{ManuallyDrop, MaybeUninit};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::task::{Context, Poll};

use async_task::{ScheduleInfo, WithInfo};
use futures_lite::FutureExt;
use magpie::policy::{Topology, VictimPolicy};
use magpie_queue::fifo;

use crate::driver::Driver;
use crate::injector::Injector;
use crate::join::JoinHandle;
use crate::park::Idle;
use crate::registry::{Entry, Registry};
use crate::sync::{fence, Ordering};
use crate::worker::Local;

/// A task ready to run. Its metadata is the runtime it belongs to, so that its schedule
/// function ([`schedule`]) captures nothing.
pub(crate) type Runnable = async_task::Runnable<Arc<Shared>>;

/// The schedule function of every task. async-task guards each call of a schedule
/// function that captures anything with a clone and a drop of the task's waker (two
/// atomic read-modify-writes per wake-up; without them `yield_now` got about 15 %
/// faster); this one is zero-sized and finds the runtime in the task's metadata.
fn schedule(runnable: Runnable, info: ScheduleInfo) {
    crate::context::with_local(|local| match local {
        // The worker's own `Arc` keeps the runtime alive while the task is pushed
        // (after the push a thief may run and free the task, and its metadata).
        Some(local) if local.runs_for(runnable.metadata()) => {
            local.shared().schedule_on(local, runnable, info);
        }
        // Also after shutdown: the thread dropping the runtime drops the task (see
        // `push_remote`), not this `wake`, whose caller may hold a lock the task's
        // destructor takes.
        _ => runnable.metadata().clone().push_remote(runnable),
    })
}

thread_local! {
    /// Runnables woken while this thread is cancelling a task in [`cancel`], to be
    /// cancelled by its loop; `None` when no `cancel` runs on this thread.
    static CANCELLING: RefCell<Option<Vec<Runnable>>> = const { RefCell::new(None) };
}

/// Cancels a task woken after the runtime dropped its tasks (a runnable that was in
/// transit then): dropping its runnable drops its future.
///
/// Dropping a future can wake another task (a pipeline stage dropping its sender wakes
/// the next stage's receiver), whose schedule function lands here again. Dropped right
/// away, a chain of N such tasks dropped itself recursively, N frames deep: dropping
/// the runtime on a thread with a 2 MiB stack overflowed it with under 10,000 such
/// tasks (a process abort). So only the outermost call on a thread drops; the
/// runnables woken meanwhile wait in [`CANCELLING`] and are dropped by its loop, one
/// after the other.
fn cancel(runnable: Runnable) {
    // `try_with`: during the thread's TLS teardown there is no list; the runnable is
    // then dropped right away, with the closure that was not called.
    let outermost = CANCELLING.try_with(|list| {
        let mut list = list.borrow_mut();
        match list.as_mut() {
            Some(pending) => {
                pending.push(runnable);
                None
            }
            None => {
                *list = Some(Vec::new());
                Some(runnable)
            }
        }
    });
    let mut next = match outermost {
        Ok(Some(runnable)) => runnable,
        Ok(None) => return, // the outermost `cancel` drops it
        Err(_) => return,
    };
    loop {
        // Never unwinds: the future's destructor runs in `CatchDrop`.
        drop(next);
        let popped = CANCELLING.with(|list| {
            let mut list = list.borrow_mut();
            let popped = list.as_mut().and_then(Vec::pop);
            if popped.is_none() {
                *list = None;
            }
            popped
        });
        match popped {
            Some(runnable) => next = runnable,
            None => return,
        }
    }
}

/// A task's future followed by [`TASK_PAD`] bytes that nothing writes after the spawn.
///
/// async-task allocates a task's header and future together, header first, and the
/// allocator often puts the next task right after it. Two tasks polled on different
/// workers then wrote to one cache line on every poll: `yield_many` (200 tasks yielding
/// 1,000 times on 2 workers) ran 2.5–3× slower, both workers busy, whenever the tasks
/// had been allocated side by side (after another runtime's tasks were freed: most
/// repetitions). With the padding, what a task writes (its header, its future) ends at
/// least 128 bytes before the next allocation starts: no shared line, no shared
/// adjacent-line pair. The allocation before a task is not covered; tokio covers both
/// sides by aligning its task cells to 128 bytes, but an over-aligned allocation takes
/// glibc's slower `memalign` path, and that cost `spawn_many` 15–20 % here.
#[repr(C)]
struct Padded<F> {
    future: F,
    _pad: [MaybeUninit<u8>; TASK_PAD],
}

/// Bytes of unwritten padding after each task's future (see [`Padded`]).
const TASK_PAD: usize = 128;

impl<F> Padded<F> {
    fn new(future: F) -> Self {
        Self {
            future,
            _pad: [MaybeUninit::uninit(); TASK_PAD],
        }
    }
}

impl<F: Future> Future for Padded<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        // SAFETY: structural pinning of `future`: it is never moved out of the wrapper,
        // which stays pinned for as long as the future lives.
        unsafe { self.map_unchecked_mut(|padded| &mut padded.future) }.poll(cx)
    }
}

/// A value whose destructor may panic, and whose panic stops in its own `drop`
/// (reported by the panic hook, going no further, as a panicking waker's in the driver).
///
/// async-task drops a task's future inside its `abort_on_panic` when the task is
/// cancelled (`abort`, runtime shutdown), and the output of a task nobody awaits: a
/// future or an output whose destructor panicked aborted the whole process. Wrapped in
/// this, neither destructor unwinds into async-task; the task ends as if it had
/// returned.
pub(crate) struct CatchDrop<T>(ManuallyDrop<T>);

impl<T> CatchDrop<T> {
    pub(crate) fn new(value: T) -> Self {
        Self(ManuallyDrop::new(value))
    }

    /// The value, to be dropped (or kept) by the caller.
    pub(crate) fn into_inner(self) -> T {
        let mut this = ManuallyDrop::new(self);
        // SAFETY: `this` is never dropped nor used again, so the value is taken once and
        // not dropped here. A pinned `CatchDrop` is never passed here by value unless it
        // is `Unpin` (then so is the value).
        unsafe { ManuallyDrop::take(&mut this.0) }
    }
}

impl<T> Drop for CatchDrop<T> {
    fn drop(&mut self) {
        let _ = catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: `drop` runs once and nothing touches the value afterwards. It is
            // dropped in place, so a pinned future is dropped where it was pinned (the
            // drop guarantee of `Pin`).
            unsafe { ManuallyDrop::drop(&mut self.0) }
        }));
    }
}

impl<F: Future> Future for CatchDrop<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        // SAFETY: structural pinning of the wrapped future: it is never moved out, and it
        // is dropped in place by `drop`.
        unsafe { self.map_unchecked_mut(|c| &mut *c.0) }.poll(cx)
    }
}

/// One worker's task counter on its own cache line (read by victim policies).
#[derive(Debug, Default)]
#[repr(align(128))]
pub(crate) struct Counter(pub(crate) AtomicU64);

/// Everything the workers, handles and tasks of one runtime share.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) injector: Injector,
    pub(crate) stealers: Box<[fifo::Stealer<Runnable>]>,
    pub(crate) idle: Idle,
    pub(crate) registry: Arc<Registry>,
    shutdown: AtomicBool,
    /// Set once the runtime has dropped its tasks ([`Shared::drop_all_tasks`]): a task
    /// woken later is dropped by the waking thread, as nobody else will.
    tasks_dropped: AtomicBool,
    pub(crate) policy: Box<dyn VictimPolicy>,
    pub(crate) topology: Topology,
    pub(crate) steal_batch: usize,
    pub(crate) tasks_run: Box<[Counter]>,
    /// The I/O driver the workers poll (`None` only in the single-threaded core tests,
    /// which run under Miri without epoll).
    pub(crate) driver: Option<Arc<Driver>>,
}

impl Shared {
    pub(crate) fn new(
        stealers: Vec<fifo::Stealer<Runnable>>,
        policy: Box<dyn VictimPolicy>,
        steal_batch: usize,
        driver: Option<Arc<Driver>>,
    ) -> Self {
        let workers = stealers.len();
        Self {
            injector: Injector::default(),
            idle: Idle::new(workers),
            registry: Arc::new(Registry::new(workers + 1)),
            shutdown: AtomicBool::new(false),
            tasks_dropped: AtomicBool::new(false),
            policy,
            topology: Topology::uniform(workers),
            steal_batch,
            tasks_run: (0..workers).map(|_| Counter::default()).collect(),
            stealers: stealers.into_boxed_slice(),
            driver,
        }
    }

    pub(crate) fn workers(&self) -> usize {
        self.stealers.len()
    }

    pub(crate) fn is_shutdown(&self) -> bool {
        // Acquire: pairs with the SeqCst store in `begin_shutdown`; a task spawned after
        // it is cancelled at birth, a worker stops.
        self.shutdown.load(Ordering::Acquire)
    }

    /// Sets the shutdown flag and wakes every parked worker.
    pub(crate) fn begin_shutdown(&self) {
        // SeqCst: one side of the Dekker pair with `push_remote`'s fence (a wake racing
        // with shutdown either sees the flag or has its task drained by the runtime).
        self.shutdown.store(true, Ordering::SeqCst);
        self.idle.notify_all();
    }

    /// Whether a parked-to-be worker would find anything to do (step 3 of the park
    /// protocol; called after `Idle::register`'s fence).
    pub(crate) fn has_work(&self, me: usize) -> bool {
        self.is_shutdown()
            || !self.injector.is_empty()
            || self
                .stealers
                .iter()
                .enumerate()
                .any(|(i, s)| i != me && s.stealable_len() > 0)
    }

    /// A woken task on one of this runtime's workers: a task that woke itself
    /// (`yield_now`) to the back of the local FIFO queue, one woken by another task to
    /// the LIFO slot. After shutdown it is queued all the same: the worker drops its
    /// queue when it stops, outside any task (dropped here, inside the waking task's
    /// poll, its destructor could take a lock the waking task holds).
    fn schedule_on(&self, local: &Local, runnable: Runnable, info: ScheduleInfo) {
        if info.woken_while_running || self.is_shutdown() {
            local.push(runnable, self);
        } else {
            local.push_woken(runnable, self);
        }
    }

    /// A new task: the back of the current worker's queue, or the injector.
    fn schedule_new(&self, runnable: Runnable) {
        crate::context::with_local(|local| match local {
            Some(local) if std::ptr::eq(local.shared(), self) => local.push(runnable, self),
            _ => self.push_remote(runnable),
        })
    }

    /// Pushes to the injector and wakes a parked worker (the producer side of the park
    /// protocol).
    ///
    /// After shutdown the task stays in the injector, for the thread dropping the
    /// runtime to drop ([`drop_all_tasks`](Self::drop_all_tasks)): dropped here, its
    /// destructor ran inside the caller's `wake`, and a sender that wakes under its
    /// channel's lock deadlocked on a receiver whose destructor takes that lock.
    pub(crate) fn push_remote(&self, runnable: Runnable) {
        self.injector.push(runnable);
        // SeqCst fence: pairs with the fence after `tasks_dropped`'s store in
        // `drop_all_tasks`: either the runtime's last drain sees this task, or this load
        // sees the flag and the task is dropped here (nobody else would).
        fence(Ordering::SeqCst);
        // Relaxed (both): ordered by the fence above.
        if self.tasks_dropped.load(Ordering::Relaxed) {
            self.cancel_injected();
            return;
        }
        if self.shutdown.load(Ordering::Relaxed) {
            return; // no worker runs it; the runtime's drop drops it
        }
        self.idle.notify_one();
    }

    /// Drops the injector's tasks through [`cancel`] (no recursion when dropping one
    /// wakes another).
    fn cancel_injected(&self) {
        while let Some(runnable) = self.injector.pop() {
            cancel(runnable);
        }
    }

    /// Spawns `future`: wraps it so a panic becomes its output, a panic in its own or its
    /// output's destructor goes no further ([`CatchDrop`]) and it registers at its first
    /// `Pending` (see [`crate::registry`]), and schedules it once.
    pub(crate) fn spawn<F>(self: &Arc<Self>, future: F) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let shared = self.clone();
        let registry = self.registry.clone();
        let outside = self.workers();
        let future = async move {
            let mut inner = std::pin::pin!(AssertUnwindSafe(CatchDrop::new(future)).catch_unwind());
            // Owned by the future: unregisters the task when the future is dropped.
            let mut entry: Option<Entry> = None;
            let output = std::future::poll_fn(|cx| {
                let poll = inner.as_mut().poll(cx);
                if poll.is_pending() && entry.is_none() {
                    let hint = crate::context::with_local(|l| l.map_or(outside, |l| l.index()));
                    entry = Some(registry.register(hint, cx.waker()));
                }
                poll
            })
            .await;
            CatchDrop::new(output)
        };
        let (runnable, task) = async_task::Builder::new()
            .metadata(shared)
            .spawn(|_| Padded::new(future), WithInfo(schedule));
        if self.is_shutdown() {
            drop(runnable); // cancels the task: its handle reports it
        } else {
            self.schedule_new(runnable);
        }
        JoinHandle::new(task)
    }

    /// Drops every task the runtime still holds (after the workers have stopped): the
    /// injector's, then every live task's, by waking it (its schedule puts it in the
    /// injector, drained by the next round). Tasks woken elsewhere meanwhile land in the
    /// injector too; once this returns, a task still in transit is dropped by the thread
    /// that wakes it (see [`push_remote`](Self::push_remote)).
    pub(crate) fn drop_all_tasks(&self) {
        loop {
            self.injector.drain();
            let wakers = self.registry.drain();
            if wakers.is_empty() && self.injector.is_empty() {
                break;
            }
            for waker in wakers {
                waker.wake();
            }
        }
        self.tasks_dropped.store(true, Ordering::SeqCst);
        // SeqCst fence: pairs with `push_remote`'s (see there).
        fence(Ordering::SeqCst);
        self.cancel_injected();
    }
}
