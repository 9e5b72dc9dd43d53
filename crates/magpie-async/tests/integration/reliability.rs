//! Reliability: many tasks with random wake-ups and yields, panics, aborts, shutdown
//! with pending tasks, block_on from outside, timers.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use magpie_async::{yield_now, Builder, Handle, Runtime, Timer};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn runtime() -> Runtime {
    Builder::new().worker_threads(2).build().unwrap()
}

/// Wakers waiting to be called, each with the flag its task checks.
type Mailbox = Arc<Mutex<Vec<(Arc<AtomicUsize>, Waker)>>>;

/// A future that is pending until some other party (a thread or another task) takes its
/// waker from the shared mailbox and wakes it.
struct WaitForWake {
    mailbox: Mailbox,
    flag: Arc<AtomicUsize>,
    registered: bool,
}

impl Future for WaitForWake {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.flag.load(Ordering::Acquire) == 1 {
            return Poll::Ready(());
        }
        if !self.registered {
            self.registered = true;
            let flag = self.flag.clone();
            self.mailbox
                .lock()
                .unwrap()
                .push((flag, cx.waker().clone()));
        }
        Poll::Pending
    }
}

#[test]
fn hundred_thousand_tasks_with_random_wakes_and_yields_complete_exactly_once() {
    const TASKS: usize = 100_000;
    let rt = runtime();
    let runs: Arc<Vec<AtomicUsize>> = Arc::new((0..TASKS).map(|_| AtomicUsize::new(0)).collect());
    let mailbox: Mailbox = Arc::default();
    let done = Arc::new(AtomicUsize::new(0));

    // Wakers are called from two outside threads and from waker tasks on the runtime.
    let stop = Arc::new(AtomicUsize::new(0));
    let wake_some = {
        let (mailbox, stop) = (mailbox.clone(), stop.clone());
        move |seed: u64| {
            let mut rng = SmallRng::seed_from_u64(seed);
            while stop.load(Ordering::Acquire) == 0 {
                let batch: Vec<_> = {
                    let mut m = mailbox.lock().unwrap();
                    let n = m.len().min(rng.random_range(1..64));
                    m.drain(..n).collect()
                };
                if batch.is_empty() {
                    std::thread::yield_now();
                }
                for (flag, waker) in batch {
                    flag.store(1, Ordering::Release);
                    if rng.random_bool(0.5) {
                        waker.wake_by_ref();
                    } else {
                        waker.wake();
                    }
                }
            }
        }
    };
    let outside: Vec<_> = (0..2)
        .map(|i| {
            let f = wake_some.clone();
            std::thread::spawn(move || f(i))
        })
        .collect();

    rt.block_on(async {
        let mut handles = Vec::with_capacity(TASKS);
        let mut rng = SmallRng::seed_from_u64(7);
        for i in 0..TASKS {
            let (runs, mb, done) = (runs.clone(), mailbox.clone(), done.clone());
            let yields = rng.random_range(0..3);
            let waits = rng.random_bool(0.3);
            handles.push(magpie_async::spawn(async move {
                for _ in 0..yields {
                    yield_now().await;
                }
                if waits {
                    let flag = Arc::new(AtomicUsize::new(0));
                    WaitForWake {
                        mailbox: mb,
                        flag,
                        registered: false,
                    }
                    .await;
                }
                runs[i].fetch_add(1, Ordering::Relaxed);
                done.fetch_add(1, Ordering::Relaxed);
                i
            }));
            if i % 1000 == 0 {
                // A waker task on the runtime wakes some too.
                let mailbox = mailbox.clone();
                magpie_async::spawn(async move {
                    let batch: Vec<_> = {
                        let mut m = mailbox.lock().unwrap();
                        let n = m.len().min(100);
                        m.drain(..n).collect()
                    };
                    for (flag, waker) in batch {
                        flag.store(1, Ordering::Release);
                        waker.wake();
                    }
                });
            }
        }
        for (i, h) in handles.into_iter().enumerate() {
            assert_eq!(h.await.unwrap(), i);
        }
    });
    stop.store(1, Ordering::Release);
    for t in outside {
        t.join().unwrap();
    }
    assert_eq!(done.load(Ordering::Relaxed), TASKS);
    assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == 1));
}

/// A `JoinError` travels like any error: `Send + Sync`, into `io::Error` and boxed
/// errors, keeping the panic's message; its payload still comes back by value.
#[test]
fn a_join_error_converts_into_the_usual_error_types() {
    fn send_sync<T: Send + Sync + 'static>() {}
    send_sync::<magpie_async::JoinError>();
    let rt = runtime();
    let join = |message: &'static str| {
        rt.block_on(rt.spawn(async move { panic!("{message}") }))
            .unwrap_err()
    };
    let io = std::io::Error::other(join("into io"));
    assert!(io.to_string().contains("into io"), "{io}");
    let boxed: Box<dyn std::error::Error + Send + Sync> = join("into a box").into();
    assert!(boxed.to_string().contains("into a box"), "{boxed}");
    let payload = join("payload").try_into_panic().unwrap();
    assert_eq!(
        payload.downcast_ref::<String>().map(String::as_str),
        Some("payload")
    );
}

#[test]
fn a_panicking_task_is_a_join_error_and_the_runtime_keeps_running() {
    let rt = runtime();
    let err = rt
        .block_on(rt.spawn(async { panic!("task boom") }))
        .unwrap_err();
    assert!(err.is_panic() && !err.is_cancelled());
    assert!(err.to_string().contains("task boom"), "{err}");
    // Many panics interleaved with normal tasks: every normal one completes.
    let results = rt.block_on(async {
        let hs: Vec<_> = (0..1000)
            .map(|i| {
                magpie_async::spawn(async move {
                    yield_now().await;
                    if i % 3 == 0 {
                        panic!("panic {i}");
                    }
                    i
                })
            })
            .collect();
        let mut out = Vec::new();
        for h in hs {
            out.push(h.await);
        }
        out
    });
    for (i, r) in results.into_iter().enumerate() {
        assert_eq!(r.is_err(), i % 3 == 0);
        if let Ok(v) = r {
            assert_eq!(v, i);
        }
    }
    assert_eq!(rt.block_on(rt.spawn(async { 5 })).unwrap(), 5);
}

/// Counts drops of the futures it is attached to.
struct DropGuard(Arc<AtomicUsize>);
impl Drop for DropGuard {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn dropping_the_runtime_drops_every_pending_task() {
    const EACH: usize = 200;
    let drops = Arc::new(AtomicUsize::new(0));
    let parked: Arc<Mutex<Vec<Waker>>> = Arc::default();
    let rt = runtime();
    for _ in 0..EACH {
        // Pending forever on a waker nobody calls (held in `parked`, outside the runtime).
        let (guard, parked) = (DropGuard(drops.clone()), parked.clone());
        rt.spawn(async move {
            let _guard = guard;
            futures_lite::future::poll_fn(|cx| {
                parked.lock().unwrap().push(cx.waker().clone());
                Poll::<()>::Pending
            })
            .await;
        });
        // Pending on a long timer: its waker sits in the async-io reactor.
        let guard = DropGuard(drops.clone());
        rt.spawn(async move {
            let _guard = guard;
            Timer::after(Duration::from_secs(3600)).await;
        });
        // Forever yielding: always in a run queue.
        let guard = DropGuard(drops.clone());
        rt.spawn(async move {
            let _guard = guard;
            loop {
                yield_now().await;
            }
        });
    }
    // Never polled: spawned from a detached handle after the runtime is gone.
    let handle = rt.handle().clone();
    std::thread::sleep(Duration::from_millis(50));
    drop(rt);
    assert_eq!(drops.load(Ordering::SeqCst), 3 * EACH);
    let guard = DropGuard(drops.clone());
    let late = handle.spawn(async move {
        let _guard = guard;
    });
    assert_eq!(drops.load(Ordering::SeqCst), 3 * EACH + 1);
    assert!(futures_lite::future::block_on(late)
        .unwrap_err()
        .is_cancelled());
    assert_eq!(handle.live_tasks(), 0);
    // Wakers held outside still work (the task is gone, waking is a no-op).
    for w in parked.lock().unwrap().drain(..) {
        w.wake();
    }
}

#[test]
fn abort_cancels_a_pending_task_and_keeps_a_finished_result() {
    let rt = runtime();
    let drops = Arc::new(AtomicUsize::new(0));
    let guard = DropGuard(drops.clone());
    let mut h = rt.spawn(async move {
        let _guard = guard;
        Timer::after(Duration::from_secs(3600)).await;
        1
    });
    std::thread::sleep(Duration::from_millis(10));
    h.abort();
    let err = rt.block_on(h).unwrap_err();
    assert!(err.is_cancelled() && !err.is_panic());
    assert_eq!(drops.load(Ordering::SeqCst), 1);

    let mut done = rt.spawn(async { 7 });
    while !done.is_finished() {
        std::thread::yield_now();
    }
    done.abort();
    assert_eq!(rt.block_on(done).unwrap(), 7);

    // Abort of a task that keeps yielding (always queued or running).
    let mut spinning = rt.spawn(async {
        loop {
            yield_now().await;
        }
    });
    spinning.abort();
    assert!(rt.block_on(spinning).unwrap_err().is_cancelled());
}

#[test]
fn abort_of_an_idle_task_leaves_the_drop_of_its_future_to_a_worker() {
    // One worker, kept busy, so that no worker can take the aborted task's runnable.
    let rt = Builder::new().worker_threads(1).build().unwrap();
    let drops = Arc::new(AtomicUsize::new(0));
    let guard = DropGuard(drops.clone());
    let (polled_tx, polled_rx) = std::sync::mpsc::channel();
    let mut idle = rt.spawn(async move {
        let _guard = guard;
        polled_tx.send(()).unwrap();
        std::future::pending::<()>().await;
    });
    polled_rx.recv().unwrap();
    let (busy_tx, busy_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let busy = rt.spawn(async move {
        busy_tx.send(()).unwrap();
        release_rx.recv().unwrap(); // blocks the only worker
    });
    busy_rx.recv().unwrap();
    idle.abort();
    assert!(idle.is_finished());
    // `abort` only schedules the task: its future is still alive while no worker is free.
    assert_eq!(drops.load(Ordering::SeqCst), 0);
    release_tx.send(()).unwrap();
    rt.block_on(busy).unwrap();
    // Awaiting the handle waits for a worker to drop the future.
    assert!(rt.block_on(idle).unwrap_err().is_cancelled());
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}

#[test]
fn block_on_and_spawn_from_outside_threads_and_handle_current() {
    let rt = runtime();
    let handle = rt.handle().clone();
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let handle = handle.clone();
            std::thread::spawn(move || {
                let hs: Vec<_> = (0..100)
                    .map(|i| handle.spawn(async move { t * 1000 + i }))
                    .collect();
                handle.block_on(async {
                    let mut sum = 0;
                    for h in hs {
                        sum += h.await.unwrap();
                    }
                    sum
                })
            })
        })
        .collect();
    for (t, th) in threads.into_iter().enumerate() {
        assert_eq!(
            th.join().unwrap(),
            (0..100).map(|i| t * 1000 + i).sum::<usize>()
        );
    }
    // Handle::current inside a task spawns onto the same runtime.
    let v = rt.block_on(rt.spawn(async {
        let inner = Handle::current().spawn(async { Handle::current().worker_threads() });
        inner.await.unwrap()
    }));
    assert_eq!(v.unwrap(), 2);
    assert!(Handle::try_current().is_none());
}

#[test]
fn timers_fire_and_tasks_sleep_concurrently() {
    let rt = runtime();
    let start = Instant::now();
    let n = rt.block_on(async {
        let hs: Vec<_> = (0..50)
            .map(|i| {
                magpie_async::spawn(async move {
                    Timer::after(Duration::from_millis(20 + i % 5)).await;
                    1
                })
            })
            .collect();
        let mut n = 0;
        for h in hs {
            n += h.await.unwrap();
        }
        n
    });
    assert_eq!(n, 50);
    // Fired, not before their deadline (no upper bound asserted: timing is not tested).
    assert!(start.elapsed() >= Duration::from_millis(20));
}

/// Wakes the waker in its slot when dropped (a channel's sender closing its channel).
struct WakeOnDrop(Arc<Mutex<Option<Waker>>>);
impl Drop for WakeOnDrop {
    fn drop(&mut self) {
        if let Some(waker) = self.0.lock().unwrap().take() {
            waker.wake();
        }
    }
}

#[test]
fn dropping_the_runtime_drops_a_long_chain_of_tasks_that_wake_each_other() {
    const TASKS: usize = 100_000;
    // A stack overflow aborts the process.
    if !crate::in_child_process() {
        return;
    }
    let drops = Arc::new(AtomicUsize::new(0));
    let rt = runtime();
    let slots: Vec<Arc<Mutex<Option<Waker>>>> = (0..TASKS).map(|_| Arc::default()).collect();
    let (polled_tx, polled_rx) = std::sync::mpsc::channel();
    for i in 0..TASKS {
        // Task i waits on slot i and, when dropped, wakes task i + 1 (as a pipeline stage
        // dropping its sender wakes the next stage's receiver).
        let next = slots.get(i + 1).cloned().map(WakeOnDrop);
        let (mine, guard, polled_tx) = (
            slots[i].clone(),
            DropGuard(drops.clone()),
            polled_tx.clone(),
        );
        drop(rt.spawn(async move {
            let _guard = guard;
            let _next = next;
            let mut sent = false;
            futures_lite::future::poll_fn(|cx| {
                *mine.lock().unwrap() = Some(cx.waker().clone());
                if !std::mem::replace(&mut sent, true) {
                    polled_tx.send(()).unwrap();
                }
                Poll::<()>::Pending
            })
            .await;
        }));
    }
    for _ in 0..TASKS {
        polled_rx.recv().unwrap();
    }
    drop(slots);
    // On a thread with the default (2 MiB) stack, as a test's or a server's own thread.
    std::thread::spawn(move || drop(rt)).join().unwrap();
    assert_eq!(drops.load(Ordering::SeqCst), TASKS);
}
