//! `spawn`: fire-and-forget `'static` tasks.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use crate::job::HeapJob;
use crate::registry::Registry;
use crate::worker::WorkerThread;

/// Runs `func` on a pool thread some time later and does not wait for it: in the
/// current pool when called from a worker, else in the global pool.
///
/// A panic in `func` goes to the pool's panic handler
/// ([`ThreadPoolBuilder::panic_handler`](crate::ThreadPoolBuilder::panic_handler));
/// the pool keeps running.
///
/// ```
/// use std::sync::mpsc;
/// let (tx, rx) = mpsc::channel();
/// magpie::spawn(move || tx.send(6 * 7).unwrap());
/// assert_eq!(rx.recv().unwrap(), 42);
/// ```
pub fn spawn<F>(func: F)
where
    F: FnOnce() + Send + 'static,
{
    match WorkerThread::current() {
        Some(worker) => spawn_in(worker.registry_arc(), func),
        None => spawn_in(crate::global::registry(), func),
    }
}

pub(crate) fn spawn_in<F>(registry: &Arc<Registry>, func: F)
where
    F: FnOnce() + Send + 'static,
{
    let job_ref = HeapJob::into_job_ref(
        move || {
            if let Some(worker) = WorkerThread::current() {
                // Batched scope counts must not wait behind a detached task.
                worker.before_job(None);
            }
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(func)) {
                // Jobs run only on workers of the registry they were given to.
                if let Some(worker) = WorkerThread::current() {
                    worker.registry().handle_panic(payload);
                }
            }
        },
        WorkerThread::job_cache_for(registry),
    );
    match WorkerThread::current() {
        Some(worker) if std::ptr::eq(worker.registry(), &**registry) => worker.push(job_ref),
        _ => registry.inject(job_ref),
    }
}
