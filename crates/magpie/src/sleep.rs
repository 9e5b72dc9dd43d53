//! The idle protocol: how workers with nothing to do stop burning CPU, and how new work
//! wakes exactly one of them.
//!
//! # States
//! A worker is *busy*, *searching* (looking for work in other queues and the injector
//! for a bounded time) or *sleeping* (blocked on its condition variable). One word,
//! `state`, counts searchers (high bits) and sleepers (low bits); a stack `idle` lists
//! the sleepers.
//!
//! # Rules
//! 1. A worker that runs out of work calls [`Sleep::start_searching`]. If it finds work
//!    it calls [`Sleep::work_found`]; if it was the last searcher and someone sleeps, it
//!    wakes one more (there may be more work where it found some, and nobody else is
//!    looking) — tokio's chained wake-up.
//! 2. A searcher that gives up calls [`Sleep::sleep`]: under the `idle` lock it pushes
//!    itself and converts searcher → sleeper in one RMW, then issues a SeqCst fence and
//!    *re-checks* every place work can appear (the `recheck` closure: the injector, the
//!    other queues, the latch it waits for). Only if that finds nothing does it block.
//!    A searcher decides *when* to give up outside this module (`worker.rs`): after a
//!    bounded number of rounds, and only if no other worker shared jobs during its last
//!    rounds (their `shares` counters did not move; rayon's jobs-event counter plays
//!    this part). While work keeps being shared — a chain of spawns shares every task
//!    — parking would only make the next share wake it again at once: a futex wake on
//!    the sharer's hot path per cycle, and a woken thief that often preempts the sharer
//!    and takes its job (the bimodal spawn chain of issue 21). Such a searcher looks
//!    only every `STAY_AWAKE_PAUSE` (a timed sleep, still counted as a searcher): at
//!    full speed its looks cost the sharer cache misses on the lines it writes per
//!    task. Work injected meanwhile waits at most that pause (plus timer slack); the
//!    searcher finds it at its next look. This only delays sleeping; it cannot lose a
//!    wake-up.
//! 3. Whoever makes work visible to other workers (a push to the injector, a spill, an
//!    owner sharing its block, a FIFO owner pushing into a block thieves can see)
//!    calls [`Sleep::notify_work`]: SeqCst fence, then read
//!    `state`; if nobody searches and someone sleeps, wake one ([`Sleep::wake_one`]
//!    converts it to a searcher under the `idle` lock, so a second notification does not
//!    wake a second sleeper for the same work: no thundering herd). One exception: an
//!    owner sharing its block while it keeps running (`WorkerThread::share`) notifies
//!    only if a Relaxed load sees someone idle, without the fence; a wake-up it misses
//!    costs parallelism, never progress, since the owner runs those jobs itself. An
//!    owner about to block (`WorkerThread::share_private`) always notifies.
//! 4. A latch setter that sees its waiter announced sleep wakes that worker
//!    ([`Sleep::wake_specific`]).
//!
//! # Why no wake-up is lost
//! The sleeper writes `state` (RMW) then fences then reads the work locations; the
//! notifier writes a work location then fences then reads `state`. With both fences
//! SeqCst one of them comes first in the single total order: if the sleeper's fence is
//! first, the notifier's read sees the sleeper counted and wakes someone; if the
//! notifier's fence is first, the sleeper's re-check sees the work and it does not
//! sleep. A notifier that sees a searcher relies on rule 1–2: that searcher either
//! re-checks before sleeping (and sees the work) or finds work and, being the last
//! searcher, passes the wake-up on. Latch wake-ups are the same argument with the
//! latch's SLEEPING state and the `idle` mutex. `tests::loom` model-checks these cases.
//!
//! Work an owner pushes into its private top block is not visible to thieves and needs
//! no notification; an owner that sees idle workers shares it (see `worker.rs`).

use crate::sync::{fence, lock, AtomicUsize, Condvar, Mutex};
use std::sync::atomic::Ordering::{Relaxed, SeqCst};

/// One sleeper in the low bits, one searcher above them.
const SLEEPER: usize = 1;
const SEARCHER: usize = 1 << 16;
/// Most workers a pool may have (sleepers are counted in 16 bits).
pub(crate) const MAX_WORKERS: usize = SEARCHER - 1;

#[repr(align(128))]
struct Padded(AtomicUsize);

struct Parker {
    woken: Mutex<bool>,
    cond: Condvar,
}

pub(crate) struct Sleep {
    state: Padded,
    idle: Mutex<Vec<usize>>,
    parkers: Box<[Parker]>,
}

impl Sleep {
    /// Every worker starts as a searcher: a new worker's first act is to look for work,
    /// and owners must share with it from the start.
    pub(crate) fn new(workers: usize) -> Self {
        assert!(workers <= MAX_WORKERS);
        Self {
            state: Padded(AtomicUsize::new(workers * SEARCHER)),
            idle: Mutex::new(Vec::with_capacity(workers)),
            parkers: (0..workers)
                .map(|_| Parker {
                    woken: Mutex::new(false),
                    cond: Condvar::new(),
                })
                .collect(),
        }
    }

    /// Whether any worker is searching or sleeping: the owner's cheap test (one Relaxed
    /// load of a read-mostly line) before it bothers to share its private work.
    #[inline]
    pub(crate) fn anyone_idle(&self) -> bool {
        self.state.0.load(Relaxed) != 0
    }

    /// Searching plus sleeping workers: a racy hint for schedulers built on the pool.
    #[inline]
    pub(crate) fn idle_count(&self) -> usize {
        let s = self.state.0.load(Relaxed);
        s / SEARCHER + s % SEARCHER
    }

    /// (searchers, sleepers), for tests.
    #[cfg(all(test, not(loom)))]
    pub(crate) fn counts(&self) -> (usize, usize) {
        let s = self.state.0.load(Relaxed);
        (s / SEARCHER, s % SEARCHER)
    }

    /// The caller ran out of work and starts searching.
    pub(crate) fn start_searching(&self) {
        // Relaxed: the count is a hint for notifiers; correctness rests on the fences
        // in `sleep` / `notify_work`.
        self.state.0.fetch_add(SEARCHER, Relaxed);
    }

    /// The caller, a searcher, found work. Returns whether it woke a sleeper.
    pub(crate) fn work_found(&self) -> bool {
        // SeqCst: ordered with the fence of a notifier that saw us searching and so did
        // not wake anyone; if we were the last searcher we pass the wake-up on.
        let before = self.state.0.fetch_sub(SEARCHER, SeqCst);
        before / SEARCHER == 1 && before % SEARCHER > 0 && self.wake_one()
    }

    /// Work became visible to other workers: wake a sleeper unless someone searches.
    /// Returns whether it woke one.
    pub(crate) fn notify_work(&self) -> bool {
        // SeqCst fence pairs with the fence in `sleep` (see the module docs).
        fence(SeqCst);
        let s = self.state.0.load(Relaxed);
        s / SEARCHER == 0 && s % SEARCHER > 0 && self.wake_one()
    }

    /// Wakes one sleeper, now counted as a searcher. Returns whether one was asleep.
    pub(crate) fn wake_one(&self) -> bool {
        let woken = {
            let mut idle = lock(&self.idle);
            let Some(worker) = idle.pop() else {
                return false;
            };
            // SeqCst: the conversion is seen by notifiers' SeqCst-fenced reads.
            self.state.0.fetch_add(SEARCHER - SLEEPER, SeqCst);
            worker
        };
        self.unpark(woken);
        true
    }

    /// Wakes `worker` if it sleeps (its latch was set, or the pool terminates).
    pub(crate) fn wake_specific(&self, worker: usize) {
        {
            let mut idle = lock(&self.idle);
            if let Some(pos) = idle.iter().position(|&w| w == worker) {
                idle.swap_remove(pos);
                self.state.0.fetch_add(SEARCHER - SLEEPER, SeqCst);
            }
        }
        // Also when not listed: it may be between announcing and listing itself; the
        // flag makes its next wait return at once (it then re-checks).
        self.unpark(worker);
    }

    fn unpark(&self, worker: usize) {
        let parker = &self.parkers[worker];
        *lock(&parker.woken) = true;
        parker.cond.notify_one();
    }

    /// The caller, a searcher, gives up: sleep until woken, unless `recheck` (run after
    /// announcing) finds a reason to stay awake. Returns counted as a searcher again,
    /// and whether it actually blocked.
    pub(crate) fn sleep(&self, me: usize, recheck: impl FnOnce() -> bool) -> bool {
        {
            let mut idle = lock(&self.idle);
            idle.push(me);
            // SeqCst: part of the announcement the fence below orders before the recheck.
            self.state.0.fetch_sub(SEARCHER - SLEEPER, SeqCst);
        }
        // SeqCst fence pairs with the one in `notify_work` (see the module docs).
        fence(SeqCst);
        let blocked = if recheck() {
            false
        } else {
            let parker = &self.parkers[me];
            let mut woken = lock(&parker.woken);
            while !*woken {
                woken = parker.cond.wait(woken).unwrap_or_else(|e| e.into_inner());
            }
            true
        };
        // Leave the idle list if no waker took us out (recheck succeeded, or a stale
        // wake flag ended the wait), and consume any wake flag meant for this sleep.
        {
            let mut idle = lock(&self.idle);
            if let Some(pos) = idle.iter().position(|&w| w == me) {
                idle.swap_remove(pos);
                self.state.0.fetch_add(SEARCHER - SLEEPER, SeqCst);
            }
        }
        *lock(&self.parkers[me].woken) = false;
        blocked
    }

    /// The caller stops searching without having found work (e.g. its latch was set).
    pub(crate) fn stop_searching(&self) {
        // Same reasoning as `work_found`: a notifier may have relied on us.
        let _ = self.work_found();
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::Sleep;
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    fn wait_for(what: &str, cond: impl Fn() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !cond() {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// No thundering herd: a notification wakes nobody while a worker searches, and
    /// the last searcher's hand-off wakes exactly one of two sleepers.
    #[test]
    fn one_notification_wakes_one_sleeper() {
        let sleep = Arc::new(Sleep::new(3));
        let woken = Arc::new(AtomicUsize::new(0));
        let quit = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..2)
            .map(|me| {
                let (sleep, woken, quit) = (sleep.clone(), woken.clone(), quit.clone());
                std::thread::spawn(move || loop {
                    // A woken worker finds nothing and goes back to sleep.
                    sleep.sleep(me, || quit.load(SeqCst) == 1);
                    if quit.load(SeqCst) == 1 {
                        sleep.stop_searching();
                        return;
                    }
                    woken.fetch_add(1, SeqCst);
                })
            })
            .collect();
        // Worker 2 (this thread) keeps searching: notifications wake nobody.
        wait_for("two sleepers", || sleep.counts() == (1, 2));
        sleep.notify_work();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(woken.load(SeqCst), 0, "a searcher exists, nobody is woken");
        // Worker 2 finds work: as the last searcher it hands off to exactly one sleeper.
        sleep.work_found();
        wait_for("one woken and asleep again", || {
            woken.load(SeqCst) == 1 && sleep.counts() == (0, 2)
        });
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(woken.load(SeqCst), 1, "one hand-off woke one sleeper");
        quit.store(1, SeqCst);
        sleep.wake_specific(0);
        sleep.wake_specific(1);
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(sleep.counts(), (0, 0));
    }

    #[test]
    fn recheck_cancels_the_sleep() {
        let sleep = Sleep::new(1);
        assert!(!sleep.sleep(0, || true));
        assert_eq!(sleep.counts(), (1, 0), "back to searching");
        sleep.stop_searching();
        assert_eq!(sleep.counts(), (0, 0));
    }
}

/// Model checks of the protocol (`RUSTFLAGS="--cfg loom" cargo test -p magpie --lib`).
/// loom reports a deadlock if a worker sleeps forever, i.e. if a wake-up is lost.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::Sleep;
    use crate::latch::CoreLatch;
    use crate::sync::AtomicUsize;
    use loom::sync::Arc;
    use std::sync::atomic::Ordering::Relaxed;

    /// A worker that finds no work sleeps; another thread publishes work (Relaxed: the
    /// protocol's fences must do all the ordering) and notifies.
    #[test]
    fn published_work_is_never_missed() {
        loom::model(|| {
            let sleep = Arc::new(Sleep::new(1));
            let work = Arc::new(AtomicUsize::new(0));
            let (s2, w2) = (sleep.clone(), work.clone());
            let worker = loom::thread::spawn(move || {
                let mut woke = false;
                loop {
                    // One consumer: a load then a store takes the work.
                    let got = w2.load(Relaxed);
                    assert!(!(woke && got == 0), "woken but saw no work");
                    if got == 1 {
                        w2.store(0, Relaxed);
                        s2.work_found();
                        return;
                    }
                    woke = s2.sleep(0, || w2.load(Relaxed) == 1);
                }
            });
            work.store(1, Relaxed);
            sleep.notify_work();
            worker.join().unwrap();
        });
    }

    /// A worker waiting for a latch sleeps on it; the setter wakes exactly it.
    #[test]
    fn latch_setter_wakes_its_waiter() {
        loom::model(|| {
            let sleep = Arc::new(Sleep::new(1));
            let latch = Arc::new(CoreLatch::new());
            let (s2, l2) = (sleep.clone(), latch.clone());
            let waiter = loom::thread::spawn(move || {
                while !l2.probe() {
                    if l2.get_sleepy() {
                        s2.sleep(0, || l2.probe());
                        l2.wake_up();
                    }
                }
                s2.stop_searching();
            });
            // SAFETY: the latch lives in an Arc we hold.
            if unsafe { CoreLatch::set(&*latch) } {
                sleep.wake_specific(0);
            }
            waiter.join().unwrap();
        });
    }

    /// Two workers, two units of work published one after the other into a locked
    /// queue (like the injector): both units are taken and both workers end, whatever
    /// the interleaving (the last-searcher hand-off and no lost wake-up). Preemption
    /// bound 2 keeps the model small.
    #[test]
    fn two_workers_two_notifications() {
        let mut model = loom::model::Builder::new();
        model.preemption_bound = Some(2);
        model.check(|| {
            let sleep = Arc::new(Sleep::new(2));
            let queue = Arc::new(crate::sync::Mutex::new(0usize));
            let done = Arc::new(AtomicUsize::new(0));
            let workers: Vec<_> = (0..2)
                .map(|me| {
                    let (s, q, d) = (sleep.clone(), queue.clone(), done.clone());
                    loom::thread::spawn(move || loop {
                        let took = {
                            let mut q = crate::sync::lock(&q);
                            let took = *q > 0;
                            if took {
                                *q -= 1;
                            }
                            took
                        };
                        if took {
                            s.work_found();
                            if d.fetch_add(1, Relaxed) + 1 == 2 {
                                s.wake_specific(1 - me); // everything done: end the other
                                return;
                            }
                            s.start_searching();
                            continue;
                        }
                        if d.load(Relaxed) == 2 {
                            s.stop_searching();
                            return;
                        }
                        s.sleep(me, || *crate::sync::lock(&q) > 0 || d.load(Relaxed) == 2);
                    })
                })
                .collect();
            for _ in 0..2 {
                *crate::sync::lock(&queue) += 1;
                sleep.notify_work();
            }
            for w in workers {
                w.join().unwrap();
            }
        });
    }
}
