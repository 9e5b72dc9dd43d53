//! Panics in user code: they reach the caller with `join`'s, `scope`'s and `install`'s
//! rules, go to the handler for detached tasks, and never take a worker down.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use magpie::{ThreadPool, ThreadPoolBuilder};

use crate::common;
use common::fib;

fn pool(n: usize) -> ThreadPool {
    ThreadPoolBuilder::new().num_threads(n).build().unwrap()
}

#[test]
fn join_panic_waits_for_the_other_half_then_resumes() {
    let pool = pool(2);
    let b_done = AtomicBool::new(false);
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        pool.join(
            || panic!("left"),
            || {
                std::thread::sleep(Duration::from_millis(20));
                b_done.store(true, Ordering::SeqCst);
            },
        )
    }));
    let payload = result.expect_err("the panic propagates");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"left"));
    assert!(
        b_done.load(Ordering::SeqCst),
        "join returned before its other half"
    );
    // The pool still works.
    assert_eq!(pool.install(|| fib(15)), 610);
}

/// Deep joins run inline once private jobs are pending: the panic rule still holds
/// there (the right half runs, the left panic resumes, every leaf is counted once).
#[test]
fn inline_joins_keep_the_panic_rule() {
    fn tree(depth: u32, leaves: &AtomicUsize) {
        if depth == 0 {
            let n = leaves.fetch_add(1, Ordering::SeqCst);
            assert!(n != 700, "leaf 700");
            return;
        }
        magpie::join(|| tree(depth - 1, leaves), || tree(depth - 1, leaves));
    }
    for threads in [1, 2] {
        let pool = pool(threads);
        let leaves = AtomicUsize::new(0);
        let payload = panic::catch_unwind(AssertUnwindSafe(|| pool.install(|| tree(10, &leaves))))
            .unwrap_err();
        assert!(payload.downcast_ref::<&str>() == Some(&"leaf 700"));
        assert_eq!(leaves.load(Ordering::SeqCst), 1024, "every half ran");
        assert_eq!(pool.install(|| fib(15)), 610);
    }
}

#[test]
fn join_resumes_the_first_panic_when_both_panic() {
    let pool = pool(2);
    let payload = panic::catch_unwind(AssertUnwindSafe(|| {
        pool.join(|| panic!("a"), || panic!("b"))
    }))
    .unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"a"));
    let payload =
        panic::catch_unwind(AssertUnwindSafe(|| pool.join(|| 1, || panic!("b")))).unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"b"));
}

#[test]
fn scope_panic_waits_for_all_tasks() {
    let pool = pool(2);
    let done = AtomicUsize::new(0);
    let payload = panic::catch_unwind(AssertUnwindSafe(|| {
        pool.scope(|s| {
            for i in 0..50 {
                let done = &done;
                s.spawn(move |_| {
                    if i == 7 {
                        panic!("task 7");
                    }
                    std::thread::sleep(Duration::from_micros(200));
                    done.fetch_add(1, Ordering::SeqCst);
                });
            }
        })
    }))
    .unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"task 7"));
    assert_eq!(
        done.load(Ordering::SeqCst),
        49,
        "scope returned before its tasks"
    );
    assert_eq!(pool.install(|| fib(12)), 144);
}

#[test]
fn spawn_panic_goes_to_the_handler_and_the_pool_survives() {
    let (tx, rx) = mpsc::channel::<String>();
    let tx = std::sync::Mutex::new(tx);
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .panic_handler(move |p| {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .unwrap_or_default();
            tx.lock().unwrap().send(msg).unwrap();
        })
        .build()
        .unwrap();
    pool.spawn(|| panic!("detached"));
    assert_eq!(
        rx.recv_timeout(Duration::from_secs(10)).unwrap(),
        "detached"
    );
    assert_eq!(pool.install(|| fib(10)), 55);
}

#[test]
fn install_propagates_panics_and_returns_values() {
    let pool = pool(2);
    assert_eq!(pool.install(|| 5), 5);
    let err = panic::catch_unwind(AssertUnwindSafe(|| pool.install(|| panic!("inside"))));
    assert!(err.is_err());
    assert_eq!(pool.install(|| 6), 6);
}

/// A panic in an op installed from another pool's worker reaches that worker's caller,
/// and both pools stay usable.
#[test]
fn a_panic_installed_from_another_pool_propagates() {
    let (a, b) = (pool(1), pool(1));
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        a.install(|| b.install(|| panic!("boom in b")))
    }));
    assert!(result.is_err());
    assert_eq!(a.install(|| b.install(|| 3)), 3);
}

#[test]
fn panicking_hooks_do_not_break_the_pool() {
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .start_handler(|_| panic!("start hook"))
        .exit_handler(|_| panic!("exit hook"))
        .build()
        .unwrap();
    assert_eq!(pool.install(|| fib(15)), 610);
    std::thread::sleep(Duration::from_millis(50)); // let workers park
    assert_eq!(pool.install(|| fib(12)), 144);
}

/// A panic payload whose own `Drop` panics (`panic_any(PanicsOnDrop)`).
struct PanicsOnDrop;

impl Drop for PanicsOnDrop {
    fn drop(&mut self) {
        panic!("the payload's drop");
    }
}

/// Runs `f` on a thread of its own and returns its result, or fails the test if it has
/// not returned within 20 s (a hang detector, not a timing: a dead worker leaves an
/// install or a scope waiting for ever). A panic in `f` resumes here.
fn within<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(panic::catch_unwind(AssertUnwindSafe(f)));
    });
    match rx.recv_timeout(Duration::from_secs(90)) {
        Ok(Ok(r)) => r,
        Ok(Err(payload)) => panic::resume_unwind(payload),
        Err(_) => panic!("hung: the pool no longer serves (a worker died?)"),
    }
}

/// Review finding: the pool dropped such payloads on the worker, outside any
/// `catch_unwind`; the payload's panic ended the worker thread and a one-worker pool
/// served nothing after that.
#[test]
fn a_detached_panic_whose_payload_panics_on_drop_leaves_the_worker_alive() {
    let quiet = Arc::new(pool(1));
    quiet.spawn(|| panic::panic_any(PanicsOnDrop));
    assert_eq!(within(move || quiet.install(|| fib(15))), 610);

    let (tx, rx) = mpsc::channel::<()>();
    let tx = std::sync::Mutex::new(tx);
    let handled = ThreadPoolBuilder::new()
        .num_threads(1)
        .panic_handler(move |payload| {
            std::mem::forget(payload);
            tx.lock().unwrap().send(()).unwrap();
            // A panicking handler: its payload panics on drop too.
            panic::panic_any(PanicsOnDrop);
        })
        .build()
        .unwrap();
    handled.spawn(|| panic::panic_any(PanicsOnDrop));
    rx.recv_timeout(Duration::from_secs(90)).unwrap();
    assert_eq!(within(move || handled.install(|| fib(15))), 610);
}

/// A scope keeps its first panic and drops later ones on the worker that caught them:
/// a later payload that panics on drop must not end that worker or leave the scope's
/// count short (before: the scope never returned).
#[test]
fn a_second_scope_panic_whose_payload_panics_on_drop_is_dropped_quietly() {
    let pool = Arc::new(pool(1));
    let in_scope = Arc::clone(&pool);
    let payload = within(move || {
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            in_scope.scope(|s| {
                s.spawn(|_| panic::panic_any(PanicsOnDrop));
                s.spawn(|_| panic::panic_any(PanicsOnDrop));
            })
        }));
        // Resumed by the scope, this one reaches us: not dropped here.
        let payload = result.unwrap_err();
        let first_kept = payload.is::<PanicsOnDrop>();
        std::mem::forget(payload);
        first_kept
    });
    assert!(payload, "the scope resumed its first panic");
    assert_eq!(within(move || pool.install(|| fib(15))), 610);
}

/// `join` drops the second half's panic and resumes the first: a second payload that
/// panics on drop does not replace the first panic.
#[test]
fn join_drops_a_second_payload_that_panics_on_drop_quietly() {
    let pool = Arc::new(pool(1));
    let in_join = Arc::clone(&pool);
    let first = within(move || {
        let payload = panic::catch_unwind(AssertUnwindSafe(|| {
            in_join.join(|| panic!("a"), || panic::panic_any(PanicsOnDrop))
        }))
        .unwrap_err();
        payload.downcast_ref::<&str>().copied()
    });
    assert_eq!(first, Some("a"));
    assert_eq!(within(move || pool.install(|| fib(15))), 610);
}
