//! Idle workers: how a worker with nothing to run goes to sleep, and how new work wakes
//! one up without ever losing the wake-up.
//!
//! A worker's scheduling loop runs inside [`async_io::block_on`]; "parking" means the loop
//! returns `Pending` and `block_on` then either blocks in the async-io reactor (epoll) —
//! at most one thread holds the reactor lock — or on its thread parker. The `Waker` of
//! that `block_on` is what [`Idle`] stores: waking it unparks the thread, or, if the
//! thread is blocked in the reactor, notifies the reactor (async-io's own protocol).
//! A wake delivered before the worker has actually blocked is not lost either: `block_on`
//! checks its parker token (a sticky flag) before and after every block.
//!
//! # The protocol (a Dekker pair on two SeqCst fences)
//!
//! Worker, after its local queue, the injector and every victim came up empty:
//! 1. under the sleepers lock, push its waker and increment `sleeping` (SeqCst);
//! 2. `fence(SeqCst)` (F_w);
//! 3. look again for work (injector length, victims' stealable lengths, shutdown);
//!    if any, take itself off the list and go on running; else return `Pending`.
//!
//! Producer of work that no awake worker is bound to see (a push to the injector; a
//! shutdown):
//! 1. make the work visible (push; Release/SeqCst stores inside the queue);
//! 2. `fence(SeqCst)` (F_p);
//! 3. if `sleeping > 0`, pop one sleeper under the lock and wake it.
//!
//! Why no wake-up is lost: F_w and F_p are totally ordered. If F_p comes first, the
//! worker's step-3 loads see the pushed work (C++ fence-fence rule: a store sequenced
//! before F_p is visible to loads sequenced after a later F_w), so it does not sleep. If
//! F_w comes first, the producer's load of `sleeping` sees the increment, so it pops a
//! sleeper — maybe another one, but every sleeper it can pop rechecks all queues when
//! woken, and a worker only stays asleep after a recheck that found nothing. A sleeper
//! popped by two producers at once is impossible (the pop is under the lock); a sleeper
//! that removed itself after a successful recheck simply is not found, and the producer
//! wakes the next one, or nobody when the list is empty, which is fine because the
//! remover is awake and will see the work.
//!
//! Pushes to a worker's own local queue need no wake-up for liveness: that worker is
//! awake and never parks with a non-empty local queue. They do wake a sleeper when
//! nobody is searching, but only for parallelism (a thief may take a block).
//!
//! The loom model in `tests` below checks the protocol with two workers and a producer
//! on a small counter queue: every item is consumed and every thread terminates.

use std::task::Waker;

use crate::sync::{fence, AtomicUsize, Mutex, Ordering};

/// The list of parked workers' wakers and its length (read without the lock).
#[derive(Debug)]
pub(crate) struct Idle {
    sleepers: Mutex<Vec<(usize, Waker)>>,
    sleeping: AtomicUsize,
    searching: AtomicUsize,
}

impl Idle {
    pub(crate) fn new(workers: usize) -> Self {
        Self {
            sleepers: Mutex::new(Vec::with_capacity(workers)),
            sleeping: AtomicUsize::new(0),
            searching: AtomicUsize::new(0),
        }
    }

    /// Step 1 and 2 of the worker's side: registers `waker` as worker `me`'s, then
    /// fences. The caller must look for work again before parking (step 3).
    pub(crate) fn register(&self, me: usize, waker: &Waker) {
        let mut sleepers = self.sleepers.lock().unwrap();
        if let Some(slot) = sleepers.iter_mut().find(|(w, _)| *w == me) {
            slot.1.clone_from(waker);
        } else {
            sleepers.push((me, waker.clone()));
            // SeqCst: part of the Dekker pair with `notify_one`'s fence (see module doc).
            self.sleeping.fetch_add(1, Ordering::SeqCst);
        }
        drop(sleepers);
        // SeqCst fence F_w: orders the increment above before the recheck's loads;
        // pairs with F_p in `notify_one`.
        fence(Ordering::SeqCst);
    }

    /// Takes worker `me` off the list if it is still there (after a recheck found work,
    /// or after being woken, when a producer already removed it: then a no-op).
    pub(crate) fn unregister(&self, me: usize) {
        let mut sleepers = self.sleepers.lock().unwrap();
        if let Some(i) = sleepers.iter().position(|(w, _)| *w == me) {
            sleepers.swap_remove(i);
            // Relaxed: the count is only a hint guarded by the lock for its exactness;
            // the protocol's ordering comes from the fences.
            self.sleeping.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// The producer's side (steps 2 and 3): call after making work visible. Wakes one
    /// parked worker if there is one.
    pub(crate) fn notify_one(&self) {
        // SeqCst fence F_p: orders the caller's publication before the load of
        // `sleeping`; pairs with F_w in `register`.
        fence(Ordering::SeqCst);
        // Relaxed: ordered by F_p above.
        if self.sleeping.load(Ordering::Relaxed) == 0 {
            return;
        }
        self.wake_one();
    }

    /// Whether waking a parked worker for parallelism (not liveness) makes sense now:
    /// somebody sleeps and nobody is already searching for work.
    pub(crate) fn wants_parallelism(&self) -> bool {
        // Relaxed: heuristics only; a stale value costs a wake-up or a little latency.
        self.sleeping.load(Ordering::Relaxed) > 0 && self.searching.load(Ordering::Relaxed) == 0
    }

    /// Pops one parked worker, if any, counts it as searching and wakes it.
    pub(crate) fn wake_one(&self) {
        let waker = {
            let mut sleepers = self.sleepers.lock().unwrap();
            let popped = sleepers.pop();
            if popped.is_some() {
                // Relaxed: see `unregister`.
                self.sleeping.fetch_sub(1, Ordering::Relaxed);
                // Relaxed: heuristic counter (the woken worker searches).
                self.searching.fetch_add(1, Ordering::Relaxed);
            }
            popped
        };
        if let Some((_, waker)) = waker {
            waker.wake();
        }
    }

    /// Wakes every parked worker (shutdown). The caller publishes the shutdown flag
    /// first; the fence pairs with F_w as in `notify_one`.
    pub(crate) fn notify_all(&self) {
        fence(Ordering::SeqCst);
        let all = {
            let mut sleepers = self.sleepers.lock().unwrap();
            // Relaxed: see `unregister`.
            self.sleeping.store(0, Ordering::Relaxed);
            std::mem::take(&mut *sleepers)
        };
        for (_, waker) in all {
            waker.wake();
        }
    }

    /// A woken worker found work or went back to sleep: it no longer searches.
    pub(crate) fn end_search(&self) {
        // Relaxed: heuristic counter; saturating so a worker that was never counted
        // (woken by its own recheck) does not underflow it.
        let _ = self
            .searching
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| s.checked_sub(1));
    }

    /// Number of workers on the list (a snapshot).
    pub(crate) fn sleeping(&self) -> usize {
        // Relaxed: a statistic.
        self.sleeping.load(Ordering::Relaxed)
    }
}

#[cfg(all(test, magpie_async_loom))]
mod tests {
    //! loom model of the protocol: `RUSTFLAGS="--cfg magpie_async_loom" cargo test
    //! --release -p magpie-async --lib park`. The queue is a counter published with Release and
    //! taken with a CAS, the way the real queues publish items.
    use super::*;
    use loom::sync::atomic::AtomicBool;
    use loom::sync::Arc;
    use std::task::Wake;

    struct Unpark(loom::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: std::sync::Arc<Self>) {
            self.0.unpark();
        }
        fn wake_by_ref(self: &std::sync::Arc<Self>) {
            self.0.unpark();
        }
    }

    struct Model {
        idle: Idle,
        queued: AtomicUsize,
        done: AtomicBool,
    }

    fn take(m: &Model) -> bool {
        // Acquire: pairs with the producer's Release publication.
        m.queued
            .fetch_update(Ordering::Acquire, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }

    fn worker(m: &Model, me: usize, consumed: &AtomicUsize, total: usize) {
        let waker = Waker::from(std::sync::Arc::new(Unpark(loom::thread::current())));
        loop {
            if take(m) {
                if consumed.fetch_add(1, Ordering::Relaxed) + 1 == total {
                    // The last item: shut down like `Runtime::drop` does.
                    m.done.store(true, Ordering::SeqCst);
                    m.idle.notify_all();
                }
                continue;
            }
            if m.done.load(Ordering::SeqCst) {
                return;
            }
            m.idle.register(me, &waker);
            if m.queued.load(Ordering::Relaxed) > 0 || m.done.load(Ordering::Relaxed) {
                m.idle.unregister(me);
                continue;
            }
            loom::thread::park();
            m.idle.unregister(me);
        }
    }

    /// `total` items pushed from outside the workers, each followed by `notify_one`; if
    /// a wake-up were lost, both workers would park forever and loom reports a deadlock.
    fn run(total: usize, preemptions: usize) {
        let mut model = loom::model::Builder::new();
        // Bounded so the model finishes in seconds; bugs of this kind (a missed Dekker
        // pair) show up within two or three preemptions.
        model.preemption_bound = Some(preemptions);
        model.check(move || {
            let m = Arc::new(Model {
                idle: Idle::new(2),
                queued: AtomicUsize::new(0),
                done: AtomicBool::new(false),
            });
            let consumed = Arc::new(AtomicUsize::new(0));
            let handles: Vec<_> = (0..2)
                .map(|me| {
                    let (m, consumed) = (m.clone(), consumed.clone());
                    loom::thread::spawn(move || worker(&m, me, &consumed, total))
                })
                .collect();
            for _ in 0..total {
                // Release: publishes the item (pairs with `take`'s Acquire).
                m.queued.fetch_add(1, Ordering::Release);
                m.idle.notify_one();
            }
            for h in handles {
                h.join().unwrap();
            }
            assert_eq!(consumed.load(Ordering::Relaxed), total);
        });
    }

    #[test]
    fn one_item_no_lost_wakeup() {
        run(1, 3);
    }

    #[test]
    fn two_items_no_lost_wakeup() {
        run(2, 2);
    }
}
