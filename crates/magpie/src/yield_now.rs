//! Cooperative yielding to the pool, as rayon's `yield_now` and `yield_local`: a worker
//! that waits for something outside the pool (a polling loop, a flag another task sets)
//! runs one pending job meanwhile instead of spinning.

use crate::worker::WorkerThread;

/// What [`yield_now`] or [`yield_local`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Yield {
    /// It ran one job (which may have run nested work of its own).
    Executed,
    /// It found no job to run.
    Idle,
}

/// Runs one pending job of the calling worker's pool: from its own queue, else stolen
/// from another worker (the pool's victim policy), else from the injector. `None` when
/// the caller is not a pool worker.
///
/// Unlike `std::thread::yield_now` it does not yield to the operating system: a polling
/// loop that gets [`Yield::Idle`] may want to do that too.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
///
/// let pool = magpie::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// let done = AtomicBool::new(false);
/// pool.scope(|s| {
///     s.spawn(|_| done.store(true, Ordering::Release));
///     // One worker: the spawned task runs only if this loop lets it.
///     while !done.load(Ordering::Acquire) {
///         magpie::yield_now();
///     }
/// });
/// assert_eq!(magpie::yield_now(), None, "not a worker here");
/// ```
pub fn yield_now() -> Option<Yield> {
    WorkerThread::current().map(|worker| ran(worker.find_work(), worker))
}

/// Like [`yield_now`], but only from the calling worker's own queue: no stealing, no
/// injector. `None` when the caller is not a pool worker.
pub fn yield_local() -> Option<Yield> {
    WorkerThread::current().map(|worker| ran(worker.pop(), worker))
}

fn ran(job: Option<crate::job::JobRef>, worker: &WorkerThread) -> Yield {
    match job {
        Some(job) => {
            worker.execute(job);
            Yield::Executed
        }
        None => Yield::Idle,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    use super::*;
    use crate::ThreadPoolBuilder;

    #[test]
    fn a_lone_worker_runs_its_queued_jobs_when_it_yields() {
        let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let ran = AtomicUsize::new(0);
        pool.scope(|s| {
            assert_eq!(yield_local(), Some(Yield::Idle), "nothing queued yet");
            s.spawn(|_| {
                ran.fetch_add(1, Relaxed);
            });
            s.spawn(|_| {
                ran.fetch_add(1, Relaxed);
            });
            assert_eq!(yield_local(), Some(Yield::Executed));
            assert_eq!(yield_now(), Some(Yield::Executed));
            assert_eq!(ran.load(Relaxed), 2);
            assert_eq!(yield_now(), Some(Yield::Idle));
        });
        assert_eq!(yield_local(), None);
        let other = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        assert_eq!(
            pool.install(|| other.yield_now()),
            None,
            "another pool's worker"
        );
        assert_eq!(pool.install(|| pool.yield_now()), Some(Yield::Idle));
    }

    #[test]
    fn yield_now_takes_work_from_outside_the_worker() {
        let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let outer = &pool;
        pool.install(move || {
            // Injected from outside while the only worker runs this closure: only a
            // yield can run it.
            std::thread::scope(|t| {
                t.spawn(|| outer.spawn(move || tx.send(7).unwrap()));
            });
            let mut got = rx.try_recv();
            while got.is_err() {
                yield_now();
                got = rx.try_recv();
            }
            assert_eq!(got, Ok(7));
        });
    }
}
