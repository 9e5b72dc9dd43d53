//! How an idle worker finds work: its own queue, then victims chosen by the pool's
//! policy (taking half of a victim's oldest block by default), then the injector; and
//! the checks a searcher makes before it sleeps.

use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use magpie_queue::Steal;

use super::WorkerThread;
use crate::job::JobRef;
use crate::policy::{StealOutcome, Thief, Topology, Victims};
use crate::queue::LocalQueue;
use crate::registry::Registry;
use crate::stats::bump;
use crate::Rng;

/// How long a victim's only stealable job must stay the same job before a thief takes
/// it (see `lone_job_target`): dozens of tiny tasks, and little next to a task worth
/// stealing (a `join` half that is still running).
const LONE_PATIENCE: Duration = Duration::from_micros(2);
/// Largest batch a worker takes from the injector at once.
pub(super) const INJECTOR_BATCH: usize = 32;
/// Most victims one `steal` looks at: twice the other workers, up to this. Every look
/// reads a victim's block metadata, and a searcher makes dozens of rounds before it
/// parks: unbounded, the pool's idle cost grew with the square of its workers (1,024
/// workers on 2 cores took 6.7 s to start and stop, 2,048 took 46 s). A searcher does
/// not park while work is visible in any queue (`work_visible`), so work a bounded
/// round misses is found in a later one.
const MAX_STEAL_LOOKS: usize = 64;

impl WorkerThread {
    /// Own queue first, then the victims, then the injector.
    pub(crate) fn find_work(&self) -> Option<JobRef> {
        if let Some(job) = self.local.pop() {
            // A FIFO pop makes the rest of the front block the owner's (see `share`):
            // hand it out if anyone is idle, as a push would.
            if matches!(self.local, LocalQueue::Fifo(_))
                && self.can_share
                && self.registry.sleep.anyone_idle()
            {
                self.share();
            }
            return Some(job);
        }
        self.steal().or_else(|| self.take_injected())
    }

    fn steal(&self) -> Option<JobRef> {
        // The thief is taken out of its cell while it is used: a policy is user code
        // and may wait for pool work (an install into another pool, say), which
        // searches again on this thread. That nested search then finds no thief and
        // steals nothing, instead of making a second `&mut` to this one, to `rng` and
        // to the batch buffer.
        // SAFETY: `thief` is touched only by this thread, and no reference to it is
        // live: the one made here ends with this statement.
        let mut thief = unsafe { (*self.thief.get()).take() }?;
        let job = self.steal_with(&mut *thief);
        // SAFETY: as above.
        unsafe { *self.thief.get() = Some(thief) };
        job
    }

    fn steal_with(&self, thief: &mut dyn Thief) -> Option<JobRef> {
        // SAFETY: `rng` is touched only by this thread, here, and a nested search
        // (from the policy's code) leaves `steal` before it gets here.
        let rng = unsafe { &mut *self.rng.get() };
        let registry = &*self.registry;
        let victims = PoolVictims {
            registry,
            me: self.index,
        };
        let counters = self.counters();
        for _ in 0..(2 * (registry.num_threads() - 1)).min(MAX_STEAL_LOOKS) {
            bump(&counters.steal_attempts, 1);
            // A policy is user code: its panic goes to the pool's panic handler (as a
            // spawned task's) and ends this search, instead of unwinding out of the
            // worker's loop and taking the worker, and the jobs in its queue, with it.
            let chosen = panic::catch_unwind(AssertUnwindSafe(|| thief.choose(&victims, rng)));
            let victim = match chosen {
                Ok(Some(victim)) if victim < registry.num_threads() && victim != self.index => {
                    victim
                }
                // Out of range (it would index past the pool's threads) or itself: no
                // victim this time.
                Ok(_) => continue,
                Err(payload) => {
                    registry.handle_panic(payload);
                    return None;
                }
            };
            let look = self.wants_latency.then(Instant::now);
            let stealable = registry.threads[victim].stealer.stealable_len();
            if stealable == 0 {
                // Nothing to take: no attempt (see `lone_job_target`), but the policy
                // hears the Empty an attempt would have found, timed by the look, or
                // `last` keeps choosing a victim that ran dry and `performance` never
                // refreshes an emptied target early.
                let latency = look.map_or(Duration::ZERO, |s| s.elapsed());
                if !self.record(thief, victim, StealOutcome::Empty, latency) {
                    return None;
                }
                continue;
            }
            let Some(victim) = self.lone_job_target(victim, stealable) else {
                // No attempt was made and the victim has a job: nothing to record (a
                // zero latency or an Empty would skew latency- and outcome-driven
                // policies).
                continue;
            };
            let start = self.wants_latency.then(Instant::now);
            // SAFETY: only this thread touches its batch buffer, never re-entrantly
            // (`keep_batch` drains it before anything else can run).
            let batch = unsafe { &mut *self.batch.get() };
            let got = registry.threads[victim].stealer.steal_some(
                registry.steal_amount,
                registry.entries,
                batch,
            );
            let latency = start.map_or(Duration::ZERO, |s| s.elapsed());
            let outcome = match got {
                Steal::Success(items) => StealOutcome::Success { items },
                Steal::Empty => StealOutcome::Empty,
                Steal::Retry => StealOutcome::Retry,
            };
            // The batch is emptied before `record`, policy code, runs.
            let job = match got {
                Steal::Success(items) => {
                    bump(&counters.steals, 1);
                    bump(&counters.items_stolen, items as u64);
                    self.keep_batch(batch)
                }
                Steal::Empty | Steal::Retry => None,
            };
            // A panicking `record` ends the search, but never loses a stolen job.
            if !self.record(thief, victim, outcome, latency) || job.is_some() {
                return job;
            }
        }
        None
    }

    /// `thief.record(..)`; a panic in it goes to the pool's panic handler and makes
    /// this return false (see `steal_with`).
    fn record(
        &self,
        thief: &mut dyn Thief,
        victim: usize,
        outcome: StealOutcome,
        latency: Duration,
    ) -> bool {
        let recorded = panic::catch_unwind(AssertUnwindSafe(|| {
            thief.record(victim, outcome, latency);
        }));
        match recorded {
            Ok(()) => true,
            Err(payload) => {
                self.registry.handle_panic(payload);
                false
            }
        }
    }

    /// Which victim to attempt after a look at `victim` found `stealable` jobs: none if
    /// it shows nothing to steal, or only one job that its owner is about to pop back
    /// itself.
    ///
    /// A chain of spawns (each task spawns the next) shares every new task (the pusher
    /// is alone), so the victim's queue flickers between zero and one stealable job
    /// every few tens of nanoseconds. A thief that steals it moves the whole chain, with
    /// its scope counts and cache lines, to itself; the former owner, now a fresh
    /// searcher, steals it back the same way: the ping-pong that made the 1M chain
    /// bimodal (issue 21: 2,000–7,000 steals per run against 0–2 in fast runs). Two
    /// holes let it through the first version of this rule, which compared the
    /// victim's tasks-run counter at two looks:
    /// * a look that saw *no* job went on to attempt the steal, and the attempt, a
    ///   moment later, took the job the victim had pushed meanwhile (almost all of the
    ///   ping-pong steals); so an empty victim is skipped without an attempt;
    /// * the two looks were nanoseconds apart (one `steal` call), which proves nothing
    ///   against tasks of tens of nanoseconds; and the tasks-run counter is the wrong
    ///   signal for fork-join, whose owner keeps finishing small tasks deep in its
    ///   recursion while its lone job (the big sibling) waits.
    ///
    /// So a lone job is taken only once it has provably been the *same* job for
    /// [`LONE_PATIENCE`]: the victim's `shares` counter (LIFO: one grant per lone-job
    /// push) has not moved, so it pushed nothing new and did not pop the job back — it
    /// is busy with a long task (a `join`'s first half) or descheduled, and the job
    /// would otherwise wait for all of it (BWoS §8). FIFO queues publish every push
    /// without a grant and keep the tasks-run counter. A look that found nothing is
    /// reported to the victim policy as `Empty` (by `steal`); a lone job waited for is
    /// not reported.
    ///
    /// The thief remembers one lone job at a time, and a lone job at another victim
    /// does not replace it before it is resolved: once the remembered one has waited
    /// [`LONE_PATIENCE`], the next lone-job look re-checks it and steals it if it is
    /// still the same job (so the victim returned may differ from the one chosen), else
    /// remembers the new one. Replacing it at every look, as before, let a policy that
    /// alternates between two victims with lone jobs (`seq`, visiting every worker in
    /// turn) take neither for ever: two workers blocked on the jobs they had pushed
    /// were never helped, and `work_visible` kept their thieves from even sleeping.
    ///
    /// Returns the victim to attempt, or `None` to skip this look.
    fn lone_job_target(&self, victim: usize, stealable: usize) -> Option<usize> {
        match stealable {
            // Nothing to take now. Attempting anyway would take whatever the victim
            // shares in the meantime — in a chain, its next task a moment after the
            // push — without the check below: most of the ping-pong steals.
            0 => return None,
            1 => {}
            _ => return Some(victim),
        }
        let now = Instant::now();
        let (seen, seen_mark, since) = self.lone_seen.get();
        let mark = self.lone_mark(victim);
        if seen == victim {
            if mark != seen_mark {
                self.lone_seen.set((victim, mark, now));
                return None;
            }
            return (now.duration_since(since) >= LONE_PATIENCE).then_some(victim);
        }
        if seen != usize::MAX {
            if now.duration_since(since) < LONE_PATIENCE {
                return None; // the remembered lone job is not due yet
            }
            let still_lone = self.registry.threads[seen].stealer.stealable_len() == 1;
            if still_lone && self.lone_mark(seen) == seen_mark {
                return Some(seen);
            }
        }
        self.lone_seen.set((victim, mark, now));
        None
    }

    /// The counter that moves when `victim`'s lone job may have changed (see
    /// `lone_job_target`): LIFO its shares, FIFO its tasks run.
    fn lone_mark(&self, victim: usize) -> u64 {
        let t = &self.registry.threads[victim];
        match self.local {
            LocalQueue::Lifo(_) => &t.counters.shares,
            LocalQueue::Fifo(_) => &t.counters.tasks,
        }
        .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A fair share of the injector: at most its length divided by the workers, so two
    /// long jobs submitted together end up on two workers.
    fn take_injected(&self) -> Option<JobRef> {
        let injector = &self.registry.injector;
        let len = injector.len();
        if len == 0 {
            return None;
        }
        if len == 1 {
            return injector.try_pop();
        }
        let max =
            (len / self.registry.num_threads()).clamp(1, INJECTOR_BATCH.min(self.registry.entries));
        // SAFETY: only this thread touches its batch buffer, never re-entrantly.
        let batch = unsafe { &mut *self.batch.get() };
        injector.pop_batch(max, batch);
        self.keep_batch(batch)
    }

    /// Takes a batch of jobs just stolen or taken from the injector (oldest first):
    /// returns the oldest to run now (what a one-job steal would have taken) and keeps
    /// the rest on this worker's queue, shared if others are idle; what does not fit
    /// goes back to the injector.
    fn keep_batch(&self, batch: &mut Vec<JobRef>) -> Option<JobRef> {
        let mut jobs = batch.drain(..);
        let first = jobs.next()?;
        for job in jobs {
            if let Err(job) = self.local.push(job) {
                self.registry.inject(job);
            }
        }
        if !self.local.is_empty() && self.registry.sleep.anyone_idle() {
            self.share();
        }
        Some(first)
    }

    /// How often the other workers made jobs stealable so far (their `shares`
    /// counters): the sign that work keeps appearing (see `wait_until_cold`).
    pub(super) fn others_shares(&self) -> u64 {
        self.registry
            .threads
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != self.index)
            .map(|(_, t)| t.counters.shares.load(std::sync::atomic::Ordering::Relaxed))
            .fold(0, u64::wrapping_add)
    }

    /// Whether work is visible anywhere a thief could take it (the sleep re-check).
    pub(super) fn work_visible(&self) -> bool {
        !self.registry.injector.is_empty()
            || self
                .registry
                .threads
                .iter()
                .enumerate()
                .any(|(i, t)| i != self.index && t.stealer.stealable_len() > 0)
    }
}

/// The [`Victims`] view of a pool for its policies.
pub(super) struct PoolVictims<'a> {
    pub(super) registry: &'a Registry,
    pub(super) me: usize,
}

impl Victims for PoolVictims<'_> {
    fn workers(&self) -> usize {
        self.registry.num_threads()
    }

    fn me(&self) -> usize {
        self.me
    }

    fn sample(&self, victim: usize, rng: &mut Rng) -> bool {
        self.registry.threads[victim].stealer.sample(rng)
    }

    fn stealable_len(&self, victim: usize) -> usize {
        self.registry.threads[victim].stealer.stealable_len()
    }

    fn tasks_run(&self, victim: usize) -> u64 {
        self.registry.threads[victim]
            .counters
            .tasks
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    fn topology(&self) -> &Topology {
        &self.registry.topology
    }
}
