//! What a user can get wrong, or what user code can do to the runtime: block inside a
//! task, drop the runtime from its own task, keep a socket past the runtime, wake a
//! panicking waker from the I/O driver, panic in a task's destructor, wake a task under a
//! lock its destructor takes while the runtime is dropped. Each ends with a
//! clear panic or error and never with a hang or an abort; a guard thread turns a hang
//! into a failure, a child process an abort.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::task::{Context, Wake, Waker};
use std::time::Duration;

use futures_lite::AsyncWriteExt;
use magpie_async::net::{TcpListener, TcpStream};
use magpie_async::{Builder, Handle, Runtime};

/// Runs `f` on a thread; its result, or a failure if it takes more than 20 s.
fn within_20s<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .expect("finished within 20 s (a hang otherwise)")
}

fn runtime(workers: usize) -> Runtime {
    Builder::new().worker_threads(workers).build().unwrap()
}

#[test]
fn block_on_inside_a_task_panics_instead_of_deadlocking() {
    for workers in [1, 2] {
        let outcome = within_20s(move || {
            let rt = runtime(workers);
            rt.block_on(
                rt.spawn(async { Handle::current().block_on(magpie_async::spawn(async { 1 })) }),
            )
        });
        let error = outcome.expect_err("the task panicked");
        assert!(error.is_panic(), "{error:?}");
    }
    // From the blocking pool it is allowed.
    let rt = runtime(2);
    let handle = rt.handle().clone();
    let nested =
        rt.block_on(rt.spawn_blocking(move || handle.block_on(handle.spawn(async { 5 })).unwrap()));
    assert_eq!(nested.unwrap(), 5);
}

#[test]
fn dropping_the_runtime_inside_its_own_task_panics() {
    let rt = runtime(2);
    let handle = rt.handle().clone();
    let task = handle.spawn(async move { drop(rt) });
    let error = within_20s(move || futures_lite::future::block_on(task)).unwrap_err();
    assert!(error.is_panic(), "{error:?}");
    // The runtime was left running: it still runs tasks.
    let value = within_20s(move || futures_lite::future::block_on(handle.spawn(async { 3 })));
    assert_eq!(value.unwrap(), 3);
}

#[test]
fn io_after_the_runtime_is_gone_fails_instead_of_waiting() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let rt = runtime(2);
    let handle = rt.handle().clone();
    // A stream made on the runtime and kept past it, with nothing to read.
    let (kept, _peer) = rt.block_on(async {
        let stream = TcpStream::connect(addr).await.unwrap();
        (stream, listener.accept().unwrap())
    });
    drop(rt);
    within_20s(move || {
        let mut buf = [0u8; 8];
        let read = futures_lite::future::block_on(futures_lite::future::poll_fn(|cx| {
            kept.poll_read_slice(cx, &mut buf)
        }));
        assert!(read.is_err(), "{read:?}");
        // New sources through the handle of the stopped runtime: an error at once.
        let connect = handle.block_on(TcpStream::connect(addr));
        assert!(connect.is_err());
        assert!(handle
            .block_on(async { TcpListener::bind("127.0.0.1:0") })
            .is_err());
    });
}

/// A waker whose `wake` panics (a foreign future's, polling our I/O).
struct PanickingWaker(AtomicUsize);

impl Wake for PanickingWaker {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
        panic!("a waker that panics");
    }
}

#[test]
fn a_panicking_waker_woken_by_the_driver_does_not_stop_the_worker() {
    within_20s(|| {
        let rt = runtime(1);
        let (server_side, mut client) = rt.block_on(async {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            let client = TcpStream::connect(listener.local_addr().unwrap())
                .await
                .unwrap();
            (listener.accept().await.unwrap().0, client)
        });
        let waker = Arc::new(PanickingWaker(AtomicUsize::new(0)));
        let mut buf = [0u8; 4];
        let foreign = Waker::from(waker.clone());
        let mut cx = Context::from_waker(&foreign);
        assert!(server_side.poll_read_slice(&mut cx, &mut buf).is_pending());
        // The byte makes the driver (polled by the only worker) wake that waker.
        rt.block_on(async { client.write_all(b"x").await.unwrap() });
        while waker.0.load(Ordering::SeqCst) == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        // The worker survived it and still runs tasks.
        for i in 0..100 {
            assert_eq!(rt.block_on(rt.spawn(async move { i })).unwrap(), i);
        }
    });
}

/// Panics when dropped (a future or value with a buggy destructor).
struct PanicOnDrop;

impl Drop for PanicOnDrop {
    fn drop(&mut self) {
        panic!("a destructor that panics");
    }
}

/// Counts its drops.
struct DropCount(Arc<AtomicUsize>);

impl Drop for DropCount {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn aborting_a_task_whose_future_panics_on_drop_is_a_cancelled_join_error() {
    if !crate::in_child_process() {
        return;
    }
    within_20s(|| {
        let rt = runtime(2);
        let (polled_tx, polled_rx) = mpsc::channel();
        let mut task = rt.spawn(async move {
            let _bomb = PanicOnDrop;
            polled_tx.send(()).unwrap();
            std::future::pending::<()>().await;
        });
        polled_rx.recv().unwrap();
        task.abort();
        // The worker drops the future (whose destructor panics); the handle must still
        // learn that the task is gone.
        let error = rt.block_on(task).unwrap_err();
        assert!(error.is_cancelled(), "{error:?}");
        // The runtime goes on.
        assert_eq!(rt.block_on(rt.spawn(async { 4 })).unwrap(), 4);
    });
}

#[test]
fn dropping_the_runtime_drops_every_task_even_if_some_panic_on_drop() {
    const EACH: usize = 50;
    if !crate::in_child_process() {
        return;
    }
    within_20s(|| {
        let drops = Arc::new(AtomicUsize::new(0));
        let rt = runtime(2);
        let (polled_tx, polled_rx) = mpsc::channel();
        for _ in 0..EACH {
            // Parked on a waker nobody calls (reached through the registry).
            let (count, polled_tx) = (DropCount(drops.clone()), polled_tx.clone());
            drop(rt.spawn(async move {
                let _count = count;
                let _bomb = PanicOnDrop;
                polled_tx.send(()).unwrap();
                std::future::pending::<()>().await;
            }));
            // Always queued (dropped from a run queue).
            let count = DropCount(drops.clone());
            drop(rt.spawn(async move {
                let _count = count;
                let _bomb = PanicOnDrop;
                loop {
                    magpie_async::yield_now().await;
                }
            }));
        }
        for _ in 0..EACH {
            polled_rx.recv().unwrap();
        }
        let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(rt)));
        assert!(dropped.is_ok(), "dropping the runtime panicked");
        assert_eq!(drops.load(Ordering::SeqCst), 2 * EACH);
    });
}

#[test]
fn a_detached_task_whose_output_panics_on_drop_does_not_abort_the_process() {
    if !crate::in_child_process() {
        return;
    }
    within_20s(|| {
        let rt = runtime(2);
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let (done_tx, done_rx) = mpsc::channel();
        // Detached before it finishes: the runtime drops its output.
        drop(rt.spawn(async move {
            magpie_async::spawn_blocking(move || go_rx.recv())
                .await
                .unwrap()
                .unwrap();
            let _ = done_tx.send(());
            PanicOnDrop
        }));
        go_tx.send(()).unwrap();
        done_rx.recv().unwrap();
        // The workers go on.
        for i in 0..100 {
            assert_eq!(rt.block_on(rt.spawn(async move { i })).unwrap(), i);
        }
    });
}

#[test]
fn a_task_that_panics_while_owning_its_runtime_does_not_abort_the_process() {
    if !crate::in_child_process() {
        return;
    }
    let rt = runtime(2);
    let handle = rt.handle().clone();
    let task = handle.spawn(async move {
        let _rt = rt;
        panic!("a task that owns its runtime panics");
    });
    let error = within_20s(move || futures_lite::future::block_on(task)).unwrap_err();
    assert!(error.is_panic(), "{error:?}");
    // The runtime was left running: it still runs tasks.
    let value = within_20s(move || futures_lite::future::block_on(handle.spawn(async { 3 })));
    assert_eq!(value.unwrap(), 3);
}

/// A channel's shared state: the receiver's waker, woken by the sender under the lock.
#[derive(Default)]
struct Channel {
    waker: Option<Waker>,
    receivers: usize,
}

/// The receiver's side: dropping it takes the channel's lock (a receiver deregistering).
struct Receiver(Arc<std::sync::Mutex<Channel>>);

impl Drop for Receiver {
    fn drop(&mut self) {
        self.0.lock().unwrap().receivers -= 1;
    }
}

/// Spawns a task waiting on `channel`, whose destructor takes the channel's lock, and
/// returns once it has registered its waker.
fn spawn_waiting_receiver(rt: &Runtime, channel: &Arc<std::sync::Mutex<Channel>>) {
    let (polled_tx, polled_rx) = mpsc::channel();
    channel.lock().unwrap().receivers = 1;
    let receiver = Receiver(channel.clone());
    drop(rt.spawn(async move {
        let receiver = receiver;
        std::future::poll_fn(|cx| {
            receiver.0.lock().unwrap().waker = Some(cx.waker().clone());
            let _ = polled_tx.send(());
            std::task::Poll::<()>::Pending
        })
        .await;
    }));
    polled_rx.recv().unwrap();
}

/// Wakes the receiver while holding the channel's lock (as many channels do).
fn wake_under_lock(channel: &std::sync::Mutex<Channel>) {
    let mut state = channel.lock().unwrap();
    if let Some(waker) = state.waker.take() {
        waker.wake();
    }
    drop(state);
}

#[test]
fn a_wake_under_a_lock_during_shutdown_does_not_run_the_task_destructor_there() {
    let channel = Arc::new(std::sync::Mutex::new(Channel::default()));
    let rt = runtime(1);
    let handle = rt.handle().clone();
    spawn_waiting_receiver(&rt, &channel);
    // The only worker is kept busy, so dropping the runtime stays in progress (the
    // shutdown flag is set, the worker not yet joined) while the sender wakes.
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let (busy_tx, busy_rx) = mpsc::channel();
    drop(rt.spawn(async move {
        busy_tx.send(()).unwrap();
        let _ = release_rx.recv();
    }));
    busy_rx.recv().unwrap();
    let dropper = std::thread::spawn(move || drop(rt));
    // Spawns are cancelled at birth once the shutdown flag is set.
    while !handle.spawn(async {}).is_finished() {
        std::thread::yield_now();
    }
    // The sender wakes the receiver under the channel's lock (as many channels do).
    let sender = channel.clone();
    within_20s(move || wake_under_lock(&sender));
    release_tx.send(()).unwrap();
    dropper.join().unwrap();
    // The runtime dropped the task, destructor included.
    assert_eq!(channel.lock().unwrap().receivers, 0);
}

#[test]
fn a_task_waking_another_under_a_lock_during_shutdown_does_not_deadlock_its_worker() {
    let channel = Arc::new(std::sync::Mutex::new(Channel::default()));
    let rt = runtime(1);
    let handle = rt.handle().clone();
    spawn_waiting_receiver(&rt, &channel);
    // The sender is a task on the only worker; it wakes the receiver under the lock once
    // the runtime is being dropped.
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let (busy_tx, busy_rx) = mpsc::channel();
    let sender = channel.clone();
    drop(rt.spawn(async move {
        busy_tx.send(()).unwrap();
        let _ = go_rx.recv();
        wake_under_lock(&sender);
    }));
    busy_rx.recv().unwrap();
    let dropper = std::thread::spawn(move || drop(rt));
    while !handle.spawn(async {}).is_finished() {
        std::thread::yield_now();
    }
    go_tx.send(()).unwrap();
    within_20s(move || dropper.join().unwrap());
    assert_eq!(channel.lock().unwrap().receivers, 0);
}
