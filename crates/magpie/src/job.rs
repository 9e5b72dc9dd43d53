//! Jobs: type-erased pointers to work, the items the worker queues hold.
//!
//! A [`JobRef`] is two words (data pointer + function pointer), so a queue slot stays
//! small and pushing one is a plain store. [`StackJob`] lives in the stack frame of
//! `join`/`install`, which waits for its latch before returning; [`HeapJob`] is boxed
//! for `spawn`, which does not wait.

use std::any::Any;
use std::cell::UnsafeCell;
use std::panic::{self, AssertUnwindSafe};

use crate::job_cache::{JobCache, SLOT_ALIGN, SLOT_SIZE};
use crate::latch::Latch;
use crate::worker::WorkerThread;

/// Something a worker can run through a [`JobRef`].
pub(crate) trait Job {
    /// Runs the job.
    ///
    /// # Safety
    /// `this` points to a live job that has not run yet; it runs at most once.
    unsafe fn execute(this: *const ());
}

/// A type-erased, copyable pointer to a job.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JobRef {
    pointer: *const (),
    execute_fn: unsafe fn(*const ()),
}

// SAFETY: a JobRef is handed to exactly one thread that runs it; the jobs it points to
// hold only `Send` closures and results, and their owners wait for completion.
unsafe impl Send for JobRef {}

impl JobRef {
    /// # Safety
    /// `data` must stay valid until the job has run, and be run at most once.
    pub(crate) unsafe fn new<J: Job>(data: *const J) -> Self {
        Self {
            pointer: data.cast(),
            execute_fn: J::execute,
        }
    }

    /// The identity of the job (its address), to recognise it when popped back.
    #[inline]
    pub(crate) fn id(&self) -> *const () {
        self.pointer
    }

    /// # Safety
    /// As [`Job::execute`]: the job is live and has not run.
    #[inline]
    pub(crate) unsafe fn execute(self) {
        // SAFETY: forwarded from the caller.
        unsafe { (self.execute_fn)(self.pointer) }
    }
}

/// What a job produced.
pub(crate) enum JobResult<R> {
    None,
    Ok(R),
    Panic(Box<dyn Any + Send>),
}

impl<R> JobResult<R> {
    fn call(func: impl FnOnce() -> R) -> Self {
        match panic::catch_unwind(AssertUnwindSafe(func)) {
            Ok(r) => JobResult::Ok(r),
            Err(p) => JobResult::Panic(p),
        }
    }

    /// The value, or the job's panic resumed in the caller.
    pub(crate) fn into_return_value(self) -> R {
        match self {
            JobResult::Ok(r) => r,
            JobResult::Panic(p) => panic::resume_unwind(p),
            JobResult::None => unreachable!("job result taken before the job ran"),
        }
    }
}

/// A job in the stack frame of the thread that waits for it.
pub(crate) struct StackJob<L, F, R> {
    pub(crate) latch: L,
    func: UnsafeCell<Option<F>>,
    result: UnsafeCell<JobResult<R>>,
}

impl<L: Latch, F: FnOnce() -> R, R> StackJob<L, F, R> {
    pub(crate) fn new(func: F, latch: L) -> Self {
        Self {
            latch,
            func: UnsafeCell::new(Some(func)),
            result: UnsafeCell::new(JobResult::None),
        }
    }

    /// # Safety
    /// The job must outlive every use of the returned reference (the creator waits for
    /// the latch, or pops the reference back, before the frame ends).
    pub(crate) unsafe fn as_job_ref(&self) -> JobRef {
        // SAFETY: forwarded from the caller.
        unsafe { JobRef::new(self) }
    }

    /// Runs the closure on the current thread: the job was popped back by its creator,
    /// so no other thread has it. Borrows rather than moves the job: moving it would
    /// copy the whole frame (and stall on store forwarding) on every join.
    #[inline]
    pub(crate) fn run_inline(&self) -> R {
        // SAFETY: popped back by the creating thread, so no other thread can run it or
        // touch `func`.
        let func = unsafe { (*self.func.get()).take() }.expect("job ran twice");
        func()
    }

    /// The result after the latch is set.
    pub(crate) fn into_result(self) -> R {
        self.result.into_inner().into_return_value()
    }
}

impl<L: Latch, F: FnOnce() -> R, R> Job for StackJob<L, F, R> {
    unsafe fn execute(this: *const ()) {
        if let Some(worker) = WorkerThread::current() {
            // Batched scope counts must not wait behind this (possibly long) job.
            worker.before_job(None);
        }
        // SAFETY: the caller guarantees `this` is a live StackJob that has not run; only
        // the executing thread touches `func`/`result` until the latch is set.
        let this = unsafe { &*this.cast::<Self>() };
        let func = unsafe { (*this.func.get()).take() }.expect("job ran twice");
        // SAFETY: as above; the waiter reads `result` only after the latch is set.
        unsafe { *this.result.get() = JobResult::call(func) };
        // SAFETY: `this` stays valid until the latch is set; `set` does not touch the
        // job after signalling.
        unsafe { L::set(&this.latch as *const L) };
    }
}

/// A job nobody waits for (`spawn`, `Scope::spawn`), in a recycled slot of the spawning
/// worker's [`JobCache`] when it fits, else boxed.
#[repr(C)]
pub(crate) struct HeapJob<F> {
    /// The cache the slot belongs to; null for a box.
    home: *const JobCache,
    func: F,
}

impl<F: FnOnce() + Send> HeapJob<F> {
    const FITS_SLOT: bool =
        core::mem::size_of::<Self>() <= SLOT_SIZE && core::mem::align_of::<Self>() <= SLOT_ALIGN;

    /// Packages `func` as a job. `cache` must be the calling worker's own cache.
    pub(crate) fn into_job_ref(func: F, cache: Option<&JobCache>) -> JobRef {
        match cache {
            Some(cache) if Self::FITS_SLOT => {
                // SAFETY: the caller owns `cache`; the slot is large and aligned enough
                // for `Self` (FITS_SLOT), and runs once via `execute`, which frees it.
                unsafe {
                    let slot = cache.alloc().cast::<Self>();
                    slot.write(Self { home: cache, func });
                    JobRef::new(slot)
                }
            }
            _ => {
                let job = Box::new(Self {
                    home: core::ptr::null(),
                    func,
                });
                // SAFETY: leaked until `execute` reclaims it, exactly once.
                unsafe { JobRef::new(Box::into_raw(job)) }
            }
        }
    }
}

impl<F: FnOnce() + Send> Job for HeapJob<F> {
    unsafe fn execute(this: *const ()) {
        let this = this.cast::<Self>().cast_mut();
        // SAFETY: `this` came from `into_job_ref` and runs once.
        let home = unsafe { (*this).home };
        if home.is_null() {
            // SAFETY: made by `Box::into_raw` in `into_job_ref`.
            let job = unsafe { Box::from_raw(this) };
            (job.func)();
            return;
        }
        // Move the closure out and free the slot before running it, so the job's own
        // spawns can reuse the slot at once.
        // SAFETY: the slot holds an initialised `Self` that nobody else reads.
        let func = unsafe { core::ptr::read(&(*this).func) };
        let worker = WorkerThread::current().expect("jobs run on pool workers");
        // SAFETY: the slot came from `home` and is no longer used; jobs run only on
        // workers of the registry that holds `home`, which keeps it alive.
        unsafe {
            if core::ptr::eq(worker.job_cache(), home) {
                (*home).free_private(this.cast());
            } else {
                worker.outbox().free(&*home, this.cast());
            }
        }
        func();
    }
}
