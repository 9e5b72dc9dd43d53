//! The executor core without threads or I/O: spawning through async-task, the BWoS
//! local queue with overflow to the injector, wakes from the worker and from "outside",
//! panics caught as `JoinError`s, and shutdown dropping queued and parked tasks. Small
//! and single-threaded so it runs under Miri:
//! `cargo +nightly miri test -p magpie-async --lib tests`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};

use magpie::policy::Random;
use magpie_queue::Config;

use crate::join::JoinHandle;
use crate::run_queue::RunQueue;
use crate::scheduler::Shared;
use crate::worker::Local;

struct DropCount(Arc<AtomicUsize>);
impl Drop for DropCount {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// A one-worker core with a tiny queue (2 blocks of 4), so overflow is exercised.
fn core() -> (Arc<Shared>, Local) {
    let (queue, stealer) = RunQueue::new(Config::new(2, 4).unwrap());
    let shared = Arc::new(Shared::new(vec![stealer], Box::new(Random), 4, None));
    let local = Local::new(&shared, 0, queue);
    (shared, local)
}

/// Runs tasks from the local queue and the injector until both are empty.
fn run_until_idle(shared: &Shared, local: &Local) -> usize {
    let mut ran = 0;
    while let Some(r) = local.pop().or_else(|| shared.injector.pop()) {
        r.run();
        ran += 1;
    }
    ran
}

fn result<T>(mut handle: JoinHandle<T>) -> Option<Result<T, crate::JoinError>> {
    let waker = Waker::from(Arc::new(crate::tests::Noop));
    match std::pin::Pin::new(&mut handle).poll_fut(&waker) {
        Poll::Ready(r) => Some(r),
        Poll::Pending => None,
    }
}

struct Noop;
impl std::task::Wake for Noop {
    fn wake(self: Arc<Self>) {}
}

trait PollFut: std::future::Future {
    fn poll_fut(self: std::pin::Pin<&mut Self>, waker: &Waker) -> Poll<Self::Output> {
        self.poll(&mut std::task::Context::from_waker(waker))
    }
}
impl<F: std::future::Future> PollFut for F {}

#[test]
fn spawn_yield_wake_panic_and_shutdown() {
    let (shared, local) = core();
    let drops = Arc::new(AtomicUsize::new(0));
    let parked: Arc<Mutex<Vec<Waker>>> = Arc::default();
    let handles = crate::context::set_local(&local, || {
        let mut handles = Vec::new();
        for i in 0..12usize {
            let (guard, parked) = (DropCount(drops.clone()), parked.clone());
            handles.push(shared.spawn(async move {
                let _guard = guard;
                crate::yield_now().await;
                if i % 4 == 1 {
                    // Wait once for a wake from outside the worker.
                    let mut waited = false;
                    futures_lite::future::poll_fn(|cx| {
                        if waited {
                            return Poll::Ready(());
                        }
                        waited = true;
                        parked.lock().unwrap().push(cx.waker().clone());
                        Poll::Pending
                    })
                    .await;
                }
                if i % 4 == 2 {
                    panic!("task {i} panics");
                }
                i
            }));
        }
        // 12 spawns into 8 slots: the overflow went to the injector.
        assert!(run_until_idle(&shared, &local) >= 12);
        handles
    });
    // Wakes from off the worker go to the injector.
    for w in parked.lock().unwrap().drain(..) {
        w.wake();
    }
    assert_eq!(shared.injector.len(), 3);
    crate::context::set_local(&local, || run_until_idle(&shared, &local));
    for (i, h) in handles.into_iter().enumerate() {
        match result(h).expect("finished") {
            Ok(v) => assert_eq!(v, i),
            Err(e) => assert!(i % 4 == 2 && e.is_panic(), "task {i}: {e}"),
        }
    }
    assert_eq!(drops.load(Ordering::Relaxed), 12);

    // Shutdown with one task queued and one parked on a waker nobody calls.
    let parked_forever: Arc<Mutex<Vec<Waker>>> = Arc::default();
    let guard = DropCount(drops.clone());
    let p = parked_forever.clone();
    let parked_task = shared.spawn(async move {
        let _guard = guard;
        futures_lite::future::poll_fn(|cx| {
            p.lock().unwrap().push(cx.waker().clone());
            Poll::<()>::Pending
        })
        .await;
    });
    crate::context::set_local(&local, || run_until_idle(&shared, &local));
    let guard = DropCount(drops.clone());
    let queued = crate::context::set_local(&local, || {
        shared.spawn(async move {
            let _guard = guard;
        })
    });
    // Only the task that went pending is registered; the queued one is in the queue.
    assert_eq!(shared.registry.len(), 1);
    shared.begin_shutdown();
    local.drain();
    shared.drop_all_tasks();
    assert_eq!(drops.load(Ordering::Relaxed), 14);
    assert_eq!(shared.registry.len(), 0);
    assert!(result(parked_task).unwrap().unwrap_err().is_cancelled());
    assert!(result(queued).unwrap().unwrap_err().is_cancelled());
    drop(parked_forever);
}
