//! Idle workers: how a worker with nothing to run goes to sleep, and how new work wakes
//! one up without ever losing the wake-up.
//!
//! "Parking" is [`crate::parker::Parker::park`]: the worker blocks in the I/O driver
//! (epoll) if no other worker holds it, else on its own condvar. The `Waker` the worker
//! leaves in [`Idle`] is its parker's: waking it signals the condvar, or, if the worker
//! is blocked in the driver, mio's `Waker` (an eventfd). A wake delivered before the
//! worker has actually blocked is not lost either: the parker's state word turns it
//! into `NOTIFIED`, which the next `park` consumes without blocking (see `parker`).
//!
//! # The protocol (a Dekker pair on two SeqCst fences)
//!
//! Worker, after its local queue, the injector and every victim came up empty:
//! 0. if a producer woke it (it counts as *searching*), stop searching: decrement
//!    `searching`;
//! 1. under the sleepers lock, push its waker and increment `sleeping` (SeqCst);
//! 2. `fence(SeqCst)` (F_w);
//! 3. look again for work (injector length, victims' stealable lengths, shutdown);
//!    if any, take itself off the list and go on running; else return `Pending`.
//!
//! Producer of work that no awake worker is bound to see (a push to the injector; a
//! shutdown):
//! 1. make the work visible (push; Release/SeqCst stores inside the queue);
//! 2. `fence(SeqCst)` (F_p);
//! 3. if `sleeping > 0` and `searching == 0`, pop one sleeper under the lock, count it
//!    as searching and wake it.
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
//! Why skipping the wake while somebody searches loses nothing (tokio's throttle: a
//! loop pushing from outside the runtime would otherwise wake a worker for nearly every
//! task, and the woken workers take the producer's core): the producer's load of
//! `searching` comes after F_p. If it still counts a worker X, X's decrement (step 0)
//! is not visible to it, so X's F_w comes after F_p, and X's recheck in step 3 sees the
//! work; until then X is awake and looks at the injector anyway. A searcher that finds
//! a task stops searching and, if the injector still holds work, makes the producer's
//! step 3 itself, so the next sleeper is woken for parallelism.
//!
//! Pushes to a worker's own local queue need no wake-up for liveness: that worker is
//! awake and never parks with a non-empty local queue, or it is the driver holder
//! handing out I/O events on its own thread and returns to its loop right after. They
//! do wake a sleeper when nobody is searching, but only for parallelism (a thief may
//! take a block).
//!
//! I/O readiness needs no producer: while any worker is parked, one worker is in the
//! driver or about to enter it. A worker parks on its condvar only when another holds
//! the driver; a holder leaves the driver only to run its loop, which ends in taking the
//! driver again before it parks (or in a non-blocking poll every `EVENT_INTERVAL`
//! tasks). An event that arrives while nobody is in `epoll_wait` stays in epoll's ready
//! list for the next turn.
//!
//! The loom model in `tests` below checks all of this with two workers, a producer on a
//! small counter queue and an I/O source, over the real [`Idle`] and parker and a model
//! of the driver: every item and event is consumed and every thread terminates.

use std::task::Waker;

use crate::sync::{fence, AtomicBool, AtomicUsize, Mutex, Ordering};

/// The list of parked workers' wakers and its length (read without the lock).
#[derive(Debug)]
pub(crate) struct Idle {
    sleepers: Mutex<Vec<(usize, Waker)>>,
    sleeping: AtomicUsize,
    searching: AtomicUsize,
    /// Per worker: popped by `wake_one`, so counted in `searching` (a worker woken by
    /// I/O or spuriously is not, and must not end somebody else's search).
    counted: Box<[AtomicBool]>,
}

impl Idle {
    pub(crate) fn new(workers: usize) -> Self {
        Self {
            sleepers: Mutex::new(Vec::with_capacity(workers)),
            sleeping: AtomicUsize::new(0),
            searching: AtomicUsize::new(0),
            counted: (0..workers).map(|_| AtomicBool::new(false)).collect(),
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
    /// parked worker if there is one and no woken worker is still searching.
    pub(crate) fn notify_one(&self) {
        // SeqCst fence F_p: orders the caller's publication before the loads of
        // `sleeping` and `searching`; pairs with F_w in `register`.
        fence(Ordering::SeqCst);
        // Relaxed: ordered by F_p above. A searcher will see the work (module doc).
        if self.sleeping.load(Ordering::Relaxed) == 0 || self.searching.load(Ordering::Relaxed) > 0
        {
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
            if let Some((me, _)) = &popped {
                // Relaxed: a heuristic flag, read by the woken worker.
                self.counted[*me].store(true, Ordering::Relaxed);
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

    /// Back from parking: whether `wake_one` woke worker `me` (so it counts as
    /// searching until [`end_search`](Self::end_search)).
    pub(crate) fn take_counted(&self, me: usize) -> bool {
        // Relaxed: heuristic flag (a stale value costs one extra or missing wake-up).
        self.counted[me].swap(false, Ordering::Relaxed)
    }

    /// A woken worker found work or is about to park (step 0): it no longer searches.
    /// Only a worker that [`take_counted`](Self::take_counted) said was counted calls it.
    pub(crate) fn end_search(&self) {
        // Relaxed: a parking worker's decrement is ordered by its F_w (`register`), which
        // is what producers' step 3 relies on; saturating as a guard only.
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
    //! loom model of the whole park path: the idle list above, the real [`Parker`] and a
    //! model of the I/O driver (`RUSTFLAGS="--cfg magpie_async_loom" cargo test
    //! --release -p magpie-async --lib park`). Two workers, a producer pushing to the
    //! "injector" (a counter published with Release and taken with a CAS, the way the
    //! real queues publish items) and an I/O source readying a "socket".
    //!
    //! The driver model keeps what the proof needs from epoll and mio: one holder at a
    //! time (`try_lock`); `turn` blocks until an I/O event or a `wake` (mio's eventfd
    //! waker: a flag that stays set until a turn consumes it), and an event posted while
    //! nobody is in `turn` waits for the next turn (epoll's ready list); a turn
    //! "dispatches" the events it found (the woken tasks run on that worker).
    //!
    //! It checks that every injector item and every I/O event is consumed and every
    //! thread terminates: no wake-up is lost between producers, the idle list, the
    //! parker's state word and the driver holder, and a pending I/O event is never left
    //! with both workers asleep on condvars.
    use super::*;
    use crate::parker::{Reactor, Unparker};
    use crate::sync::{AtomicBool, Condvar};
    use loom::sync::Arc;
    use std::time::Duration;

    #[derive(Default)]
    struct Epoll {
        /// mio's waker was woken (the eventfd is readable).
        woken: bool,
        /// I/O events not yet returned by a turn.
        events: usize,
    }

    struct FakeDriver {
        /// The driver lock. An atomic flag rather than a loom `Mutex`: loom 0.7 marks a
        /// thread whose `try_lock` races with an acquisition as blocked, which shows as
        /// a false deadlock; a CAS has exactly `try_lock`'s semantics.
        held: AtomicBool,
        epoll: Mutex<Epoll>,
        cv: Condvar,
        /// Items consumed so far (injector items and dispatched I/O events).
        consumed: AtomicUsize,
    }

    impl FakeDriver {
        /// The kernel readies a registered socket.
        fn post_io(&self) {
            self.epoll.lock().unwrap().events += 1;
            self.cv.notify_all();
        }
    }

    /// Holding the driver; releases it on drop.
    struct Held<'a>(&'a AtomicBool);

    impl Drop for Held<'_> {
        fn drop(&mut self) {
            // Release: pairs with the Acquire of the next `try_lock` (a lock's release).
            self.0.store(false, Ordering::Release);
        }
    }

    impl Reactor for FakeDriver {
        type Guard<'a> = Held<'a>;

        fn try_lock(&self) -> Option<Held<'_>> {
            // Acquire: pairs with `Held::drop`'s Release (a lock's acquisition).
            self.held
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
                // `then`, not `then_some`: a `Held` built on failure would release the
                // lock when dropped.
                .then(|| Held(&self.held))
        }

        fn turn(&self, _guard: &mut Self::Guard<'_>, timeout: Option<Duration>) {
            let mut epoll = self.epoll.lock().unwrap();
            if timeout.is_none() {
                while !epoll.woken && epoll.events == 0 {
                    epoll = self.cv.wait(epoll).unwrap();
                }
            }
            epoll.woken = false;
            let events = std::mem::take(&mut epoll.events);
            drop(epoll);
            // Dispatch: the woken tasks run on this worker. SeqCst: the consumed count
            // is read by the workers' shutdown check (SeqCst load in `worker`); one total
            // order over all count updates keeps the model's bookkeeping simple.
            self.consumed.fetch_add(events, Ordering::SeqCst);
        }

        fn wake(&self) {
            self.epoll.lock().unwrap().woken = true;
            self.cv.notify_all();
        }
    }

    struct Model {
        idle: Idle,
        driver: std::sync::Arc<FakeDriver>,
        queued: AtomicUsize,
        done: AtomicBool,
    }

    fn take(m: &Model) -> bool {
        // Acquire: pairs with the producer's Release publication.
        m.queued
            .fetch_update(Ordering::Acquire, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }

    fn worker(m: &Model, me: usize, total: usize) {
        let unparker = std::sync::Arc::new(Unparker::new(m.driver.clone()));
        let waker = Waker::from(unparker.clone());
        // Counted as searching (woken by `wake_one`), as `WorkerLoop::searching`.
        let mut searching = false;
        loop {
            // SeqCst load: pairs with the SeqCst `fetch_add`s of the count (here and in
            // `turn`). SeqCst swap of `done`: the shutdown flag, published like
            // `Runtime::drop`'s SeqCst store before `notify_all`'s fence; exactly one
            // worker wins it.
            if m.driver.consumed.load(Ordering::SeqCst) == total
                && !m.done.swap(true, Ordering::SeqCst)
            {
                // Everything consumed: shut down like `Runtime::drop` does.
                m.idle.notify_all();
            }
            if take(m) {
                if std::mem::take(&mut searching) {
                    // Found work: stop searching and pass the search on if more waits.
                    m.idle.end_search();
                    if m.queued.load(Ordering::Relaxed) > 0 {
                        m.idle.notify_one();
                    }
                }
                // SeqCst: pairs with the shutdown check's SeqCst load above.
                m.driver.consumed.fetch_add(1, Ordering::SeqCst);
                continue;
            }
            // SeqCst: pairs with the SeqCst swap that sets `done`.
            if m.done.load(Ordering::SeqCst) {
                return;
            }
            if std::mem::take(&mut searching) {
                m.idle.end_search(); // step 0
            }
            m.idle.register(me, &waker);
            if m.queued.load(Ordering::Relaxed) > 0 || m.done.load(Ordering::Relaxed) {
                m.idle.unregister(me);
                searching = m.idle.take_counted(me);
                continue;
            }
            unparker.park();
            m.idle.unregister(me);
            searching = m.idle.take_counted(me);
        }
    }

    /// `items` pushed from outside the workers (each followed by `notify_one`) and `io`
    /// events from an I/O source; a lost wake-up shows as a loom deadlock.
    fn run(items: usize, io: usize, preemptions: usize) {
        let mut model = loom::model::Builder::new();
        // Bounded so the model finishes in reasonable time; bugs of this kind (a missed
        // Dekker pair, a wake sent to the wrong primitive) show up within two or three
        // preemptions.
        model.preemption_bound = Some(preemptions);
        model.check(move || {
            let m = Arc::new(Model {
                idle: Idle::new(2),
                driver: std::sync::Arc::new(FakeDriver {
                    held: AtomicBool::new(false),
                    epoll: Mutex::new(Epoll::default()),
                    cv: Condvar::new(),
                    consumed: AtomicUsize::new(0),
                }),
                queued: AtomicUsize::new(0),
                done: AtomicBool::new(false),
            });
            let total = items + io;
            let mut handles: Vec<_> = (0..2)
                .map(|me| {
                    let m = m.clone();
                    loom::thread::spawn(move || worker(&m, me, total))
                })
                .collect();
            if io > 0 {
                let m = m.clone();
                handles.push(loom::thread::spawn(move || {
                    for _ in 0..io {
                        m.driver.post_io();
                    }
                }));
            }
            for _ in 0..items {
                // Release: publishes the item (pairs with `take`'s Acquire).
                m.queued.fetch_add(1, Ordering::Release);
                m.idle.notify_one();
            }
            for h in handles {
                h.join().unwrap();
            }
            assert_eq!(m.driver.consumed.load(Ordering::Relaxed), total);
        });
    }

    #[test]
    fn one_item_no_lost_wakeup() {
        run(1, 0, 3);
    }

    #[test]
    fn two_items_no_lost_wakeup() {
        run(2, 0, 2);
    }

    #[test]
    fn io_event_reaches_a_worker() {
        run(0, 1, 3);
    }

    #[test]
    fn item_and_io_event_no_lost_wakeup() {
        run(1, 1, 2);
    }
}
