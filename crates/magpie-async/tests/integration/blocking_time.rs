//! `spawn_blocking`, `sleep` and `timeout`: results, panics, cancellation, and that
//! blocking code never occupies a worker.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use magpie_async::{Builder, Runtime};

fn runtime(workers: usize) -> Runtime {
    Builder::new().worker_threads(workers).build().unwrap()
}

#[test]
fn spawn_blocking_returns_its_value() {
    let rt = runtime(2);
    let v = rt.block_on(async { magpie_async::spawn_blocking(|| 6 * 7).await });
    assert_eq!(v.unwrap(), 42);
    // From outside the runtime too, through the runtime and a handle.
    assert_eq!(rt.block_on(rt.spawn_blocking(|| "x")).unwrap(), "x");
    let h = rt.handle().clone();
    assert_eq!(rt.block_on(h.spawn_blocking(|| 1u8)).unwrap(), 1);
}

#[test]
fn a_panic_in_a_blocking_closure_is_a_join_error() {
    let rt = runtime(2);
    let err = rt
        .block_on(rt.spawn_blocking(|| -> u32 { panic!("blocking boom") }))
        .unwrap_err();
    assert!(err.is_panic());
    assert_eq!(err.to_string(), "task panicked: blocking boom");
    // The runtime keeps working.
    assert_eq!(rt.block_on(rt.spawn(async { 5 })).unwrap(), 5);
}

/// With one worker, a blocking closure waits for a message that only an async task on
/// that worker sends: if the closure ran on the worker, this would never finish.
#[test]
fn blocking_code_does_not_occupy_a_worker() {
    let rt = runtime(1);
    let (tx, rx) = mpsc::channel::<u32>();
    let waiter = rt.spawn_blocking(move || rx.recv().unwrap() + 1);
    let sender = rt.spawn(async move {
        magpie_async::yield_now().await;
        tx.send(41).unwrap();
    });
    rt.block_on(sender).unwrap();
    assert_eq!(rt.block_on(waiter).unwrap(), 42);
}

#[test]
fn many_blocking_closures_all_finish() {
    let rt = runtime(2);
    let handles: Vec<_> = (0..64u64)
        .map(|i| {
            rt.spawn_blocking(move || {
                std::thread::sleep(Duration::from_millis(2));
                i
            })
        })
        .collect();
    let sum: u64 = rt.block_on(async {
        let mut sum = 0;
        for h in handles {
            sum += h.await.unwrap();
        }
        sum
    });
    assert_eq!(sum, (0..64).sum());
}

#[test]
fn sleep_waits_at_least_its_duration() {
    let rt = runtime(2);
    let start = Instant::now();
    let fired = rt
        .block_on(rt.spawn(magpie_async::sleep(Duration::from_millis(20))))
        .unwrap();
    // A lower bound only: timers never fire early (no upper bound on a shared machine).
    assert!(fired >= start + Duration::from_millis(20));
    assert!(start.elapsed() >= Duration::from_millis(20));
}

struct SetOnDrop(Arc<AtomicBool>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[test]
fn timeout_gives_the_output_or_elapsed_and_drops_the_future() {
    let rt = runtime(2);
    let ok = rt.block_on(rt.spawn(magpie_async::timeout(Duration::from_secs(60), async { 3 })));
    assert_eq!(ok.unwrap(), Ok(3));

    let dropped = Arc::new(AtomicBool::new(false));
    let guard = SetOnDrop(dropped.clone());
    let slow = async move {
        let _guard = guard;
        magpie_async::sleep(Duration::from_secs(60)).await;
        "never"
    };
    let res = rt.block_on(rt.spawn(magpie_async::timeout(Duration::from_millis(10), slow)));
    let elapsed = res.unwrap().unwrap_err();
    assert_eq!(elapsed.duration(), Duration::from_millis(10));
    assert_eq!(elapsed.to_string(), "deadline of 10ms elapsed");
    assert!(
        dropped.load(Ordering::SeqCst),
        "the timed-out future was dropped"
    );
}

/// `Handle` promises that what is spawned after the runtime was dropped is cancelled at
/// once: for `spawn_blocking`, its closure must not run.
#[test]
fn spawn_blocking_after_the_runtime_is_gone_does_not_run_the_closure() {
    let rt = runtime(2);
    let handle = rt.handle().clone();
    drop(rt);
    let ran = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for _ in 0..200 {
        let ran = ran.clone();
        let task = handle.spawn_blocking(move || {
            ran.fetch_add(1, Ordering::SeqCst);
        });
        assert!(futures_lite::future::block_on(task)
            .unwrap_err()
            .is_cancelled());
    }
    // A closure handed to the pool would have run by now.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(ran.load(Ordering::SeqCst), 0, "closures ran after shutdown");
}
