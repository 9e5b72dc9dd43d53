//! The registry: everything the workers of one pool share — their stealers and
//! statistics, the injector, the idle protocol, the victim policy — and how threads
//! outside the pool hand it work.

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use magpie_queue::twolock::TwoLockQueue;

use crate::builder::{BuildError, PanicHandler, ThreadHook, ThreadPoolBuilder};
use crate::job::{JobRef, StackJob};
use crate::job_cache::JobCache;
use crate::latch::{CoreLatch, CrossLatch, LockLatch};
use crate::policy::{Topology, VictimPolicy};
use crate::queue::{LocalQueue, QueueStealer, StealAmount};
use crate::sleep::Sleep;
use crate::stats::{PoolStats, WorkerCounters};
use crate::unwind::drop_payload;
use crate::worker::WorkerThread;

pub(crate) struct ThreadInfo {
    pub(crate) stealer: QueueStealer,
    pub(crate) counters: WorkerCounters,
    /// Set when the pool shuts down; the worker's main loop waits on it.
    pub(crate) terminate: CoreLatch,
    /// Recycled slots for the jobs this worker spawns.
    pub(crate) job_cache: JobCache,
}

pub(crate) struct Registry {
    pub(crate) threads: Box<[ThreadInfo]>,
    /// Work from outside the pool and blocks spilled by full worker queues.
    pub(crate) injector: TwoLockQueue<JobRef>,
    pub(crate) sleep: Sleep,
    pub(crate) policy: Arc<dyn VictimPolicy>,
    pub(crate) topology: Topology,
    pub(crate) steal_amount: StealAmount,
    pub(crate) entries: usize,
    /// When the pool was built: the origin of the workers' idle-stretch timestamps.
    pub(crate) epoch: Instant,
    panic_handler: Option<Arc<PanicHandler>>,
    start_handler: Option<Arc<ThreadHook>>,
    exit_handler: Option<Arc<ThreadHook>>,
    terminating: AtomicBool,
}

impl Registry {
    /// Builds the registry and starts its workers.
    pub(crate) fn new(
        mut builder: ThreadPoolBuilder,
    ) -> Result<(Arc<Registry>, Vec<JoinHandle<()>>), BuildError> {
        let n = builder.resolved_threads()?;
        let config = builder.queue_config()?;
        let locals: Vec<LocalQueue> = (0..n)
            .map(|_| LocalQueue::new(builder.flavour, config))
            .collect();
        let cpus = online_cpus();
        let pinned: Vec<Option<usize>> = (0..n)
            .map(|i| builder.pin_threads.then(|| cpus[i % cpus.len()]))
            .collect();
        let registry = Arc::new(Registry {
            threads: locals
                .iter()
                .map(|local| ThreadInfo {
                    stealer: local.stealer(),
                    counters: WorkerCounters::default(),
                    terminate: CoreLatch::new(),
                    job_cache: JobCache::new(),
                })
                .collect(),
            injector: TwoLockQueue::new(),
            sleep: Sleep::new(n),
            policy: builder.policy.clone(),
            topology: Topology::detect(&pinned),
            steal_amount: builder.steal_amount,
            entries: builder.entries,
            epoch: Instant::now(),
            panic_handler: builder.panic_handler.take(),
            start_handler: builder.start_handler.take(),
            exit_handler: builder.exit_handler.take(),
            terminating: AtomicBool::new(false),
        });
        let mut handles: Vec<JoinHandle<()>> = Vec::with_capacity(n);
        // Stops the workers started so far: the pool is not built after all.
        let stop = |registry: &Registry, handles: Vec<JoinHandle<()>>| {
            registry.terminate();
            for h in handles {
                let _ = h.join();
            }
        };
        for (index, local) in locals.into_iter().enumerate() {
            let name = match builder.thread_name.as_mut() {
                // A panic in the user's closure reaches the caller, but only after the
                // workers already started have stopped: they would park for ever.
                Some(f) => {
                    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(index))) {
                        Ok(name) => name,
                        Err(payload) => {
                            stop(&registry, handles);
                            std::panic::resume_unwind(payload);
                        }
                    }
                }
                None => format!("magpie-{index}"),
            };
            let mut thread = std::thread::Builder::new().name(name);
            if let Some(size) = builder.stack_size {
                thread = thread.stack_size(size);
            }
            let registry2 = registry.clone();
            let cpu = pinned[index];
            match thread.spawn(move || main_loop(registry2, index, local, cpu)) {
                Ok(h) => handles.push(h),
                Err(e) => {
                    stop(&registry, handles);
                    return Err(BuildError::Spawn(e));
                }
            }
        }
        Ok((registry, handles))
    }

    pub(crate) fn num_threads(&self) -> usize {
        self.threads.len()
    }

    /// Hands `job` to the pool from outside (or from another pool's worker).
    pub(crate) fn inject(&self, job: JobRef) {
        if self.injector.push(job).is_err() {
            unreachable!("the injector is never closed");
        }
        let _ = self.sleep.notify_work();
    }

    /// Hands a spilled block to the injector, where every worker can take it. Returns
    /// whether that woke a sleeping worker (the caller's `wakes` statistic).
    pub(crate) fn inject_batch(&self, jobs: impl IntoIterator<Item = JobRef>) -> bool {
        if self.injector.push_batch(jobs).is_err() {
            unreachable!("the injector is never closed");
        }
        self.sleep.notify_work()
    }

    pub(crate) fn wake_specific(&self, worker: usize) {
        self.sleep.wake_specific(worker);
    }

    /// Runs `op` on a worker of this pool, the calling thread not being one of them,
    /// until it returns; panics propagate. A thread outside every pool blocks; a worker
    /// of another pool runs its own pool's jobs meanwhile (see `in_worker_cross`).
    pub(crate) fn in_worker_cold<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread) -> R + Send,
        R: Send,
    {
        if let Some(worker) = WorkerThread::current() {
            return self.in_worker_cross(worker, op);
        }
        let job = StackJob::new(
            || {
                let worker = WorkerThread::current().expect("injected jobs run on workers");
                op(worker)
            },
            LockLatch::new(),
        );
        // SAFETY: we block on the latch below, so the job outlives its reference.
        self.inject(unsafe { job.as_job_ref() });
        job.latch.wait();
        job.into_result()
    }

    /// Runs `op` on a worker of this pool while `current`, a worker of another pool,
    /// waits as for a stolen join half: running its own pool's jobs, so that `op` may
    /// use that pool too (an install back into it, even with one worker, would wait
    /// for ever on a blocked `current`). As rayon's cross-pool install.
    fn in_worker_cross<OP, R>(&self, current: &WorkerThread, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread) -> R + Send,
        R: Send,
    {
        // `current` may go on with a long job of its pool while `op` runs: report its
        // batched scope counts and make its private jobs stealable first.
        current.flush_scope_counts();
        current.share_private();
        let job = StackJob::new(
            || {
                let worker = WorkerThread::current().expect("injected jobs run on workers");
                op(worker)
            },
            CrossLatch::new(Arc::clone(current.registry_arc()), current.index()),
        );
        // SAFETY: we wait for the latch below, so the job outlives its reference.
        self.inject(unsafe { job.as_job_ref() });
        current.wait_until(&job.latch.core);
        job.into_result()
    }

    /// Runs `op` on a worker of this pool: directly if the caller is one.
    pub(crate) fn in_worker<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread) -> R + Send,
        R: Send,
    {
        match WorkerThread::current() {
            Some(worker) if std::ptr::eq(worker.registry(), self) => op(worker),
            _ => self.in_worker_cold(op),
        }
    }

    /// Reports a panic of a detached task.
    pub(crate) fn handle_panic(&self, payload: Box<dyn std::any::Any + Send>) {
        match &self.panic_handler {
            Some(handler) => {
                // A panicking handler must not take the worker down with it.
                let handled =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(payload)));
                if let Err(nested) = handled {
                    drop_payload(nested);
                }
            }
            None => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .copied()
                    .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                    .unwrap_or("<non-string payload>");
                // Not `eprintln!`, which panics when stderr is gone: this runs on a
                // worker, outside any `catch_unwind`.
                let _ = writeln!(
                    std::io::stderr(),
                    "magpie: a spawned task or a victim policy panicked: {msg}"
                );
                drop_payload(payload);
            }
        }
    }

    /// Asks every worker to finish the work it can find and exit.
    pub(crate) fn terminate(&self) {
        if self.terminating.swap(true, Relaxed) {
            return;
        }
        for (i, info) in self.threads.iter().enumerate() {
            // SAFETY: the latch lives in the registry, which we are borrowing.
            unsafe { CoreLatch::set(&info.terminate) };
            self.sleep.wake_specific(i);
        }
    }

    pub(crate) fn stats(&self) -> PoolStats {
        PoolStats::collect(
            self.policy.name(),
            self.threads.iter().map(|t| &t.counters),
            nanos(self.epoch.elapsed()),
        )
    }
}

/// `d` in nanoseconds, saturating (at 584 years).
pub(crate) fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

fn main_loop(registry: Arc<Registry>, index: usize, local: LocalQueue, cpu: Option<usize>) {
    if let Some(cpu) = cpu {
        pin_to(cpu);
    }
    let worker = WorkerThread::new(registry.clone(), index, local);
    let _current = worker.set_current();
    // A panicking hook must not kill the worker: the idle protocol counts every worker
    // as a searcher from the start, and a vanished one would never stop searching.
    if let Some(hook) = &registry.start_handler {
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| hook(index))).is_err() {
            eprintln!("magpie: the start handler of worker {index} panicked");
        }
    }
    worker.run_until(&registry.threads[index].terminate);
    worker.drain();
    if let Some(hook) = &registry.exit_handler {
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| hook(index))).is_err() {
            eprintln!("magpie: the exit handler of worker {index} panicked");
        }
        // The hook may have run pool work: report what it left batched.
        worker.drain();
    }
}

/// CPUs this process may run on, in order (at least one entry).
fn online_cpus() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity fills it.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointer and size for pid 0 (this thread).
        if unsafe { libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set) } == 0 {
            let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
                // SAFETY: `i` is below CPU_SETSIZE.
                .filter(|&i| unsafe { libc::CPU_ISSET(i, &set) })
                .collect();
            if !cpus.is_empty() {
                return cpus;
            }
        }
    }
    let n = std::thread::available_parallelism().map_or(1, |n| n.get());
    (0..n).collect()
}

/// Pins the calling thread to `cpu` (best effort; Linux only).
fn pin_to(cpu: usize) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET on an index below
        // CPU_SETSIZE (online_cpus only yields those) is in bounds.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            // Failure (e.g. a restricted cpuset) leaves the thread unpinned; pinning
            // is an optimisation.
            let _ = libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cpu;
}

// The registry is shared by every worker thread.
const _: () = {
    const fn is_send_sync<T: Send + Sync>() {}
    is_send_sync::<Registry>()
};
