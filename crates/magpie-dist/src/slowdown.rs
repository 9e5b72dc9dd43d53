//! A rank made slower on purpose: the imbalanced scenario of the node-policy
//! evaluation (YewPar thesis §4.4 runs on contended nodes; here one chooses which
//! ranks are slow and by how much). [`Slowed`] wraps a search space so that a worker
//! searching it needs `factor` times the CPU time: every [`CHECK_EVERY`] expanded nodes it
//! reads its thread's CPU clock and spins for `factor − 1` times the CPU time it used
//! since the last check.
//!
//! Timing each child instead (two clock reads around every `next`) made the slowdown
//! whatever the clock cost, not the factor: a child of a numerical semigroup takes a
//! few nanoseconds, and "3× slower" ran 9× slower, while a clique child, whose work is
//! mostly in the bound, ran 1.3× slower. Even counting children cost too much for the
//! semigroups; nodes are counted. CPU time rather than wall time, so that time
//! the thread waits (parked, or preempted by other ranks on an oversubscribed machine)
//! is not counted as work.

use std::cell::Cell;
use std::time::Duration;

use magpie_search::{Bounded, Enumerator, Objective, SearchSpace};

/// Nodes expanded between two checks of the CPU clock (a system call, ~0.3 µs here):
/// ~40 µs of semigroup work, ~2 ms of clique work. At 256 the checks themselves made
/// the semigroups' 3× run 3.3× slower.
pub const CHECK_EVERY: u32 = 1024;
/// The longest spin of one check (a check after a long stretch of work).
const MAX_SPIN: Duration = Duration::from_millis(100);

/// `space`, searched `factor` times slower.
#[derive(Debug)]
pub struct Slowed<'s, S> {
    space: &'s S,
    /// `factor − 1`.
    extra: f64,
}

impl<'s, S> Slowed<'s, S> {
    /// `space` slowed by `factor` (at least 1).
    pub fn new(space: &'s S, factor: f64) -> Self {
        Self {
            space,
            extra: (factor - 1.0).max(0.0),
        }
    }
}

/// The duty cycle of one thread: counts expanded nodes and says how long to spin.
#[derive(Clone, Copy, Debug, Default)]
struct Meter {
    calls: u32,
    /// The thread's CPU time at the end of the last check.
    since: Option<Duration>,
}

impl Meter {
    /// One node expanded, with the thread's CPU time read by `now` at a check: the CPU
    /// time to spin until, if any.
    fn on_node(&mut self, extra: f64, now: impl FnOnce() -> Duration) -> Option<Duration> {
        self.calls += 1;
        if self.calls < CHECK_EVERY {
            return None;
        }
        self.calls = 0;
        let now = now();
        let until = self
            .since
            .map(|since| now + now.saturating_sub(since).mul_f64(extra).min(MAX_SPIN));
        self.since = Some(now);
        until
    }

    /// The spin of a check ended at CPU time `now`: work is counted from here.
    fn spun(&mut self, now: Duration) {
        self.since = Some(now);
    }
}

thread_local! {
    static METER: Cell<Meter> = const { Cell::new(Meter { calls: 0, since: None }) };
}

/// CPU time used by the calling thread.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is supported
    // on every Linux the crate builds for (an error leaves it zero: no spin).
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Accounts one expanded node on this thread and spins when a check says so.
fn slow_down(extra: f64) {
    let mut meter = METER.get();
    if let Some(until) = meter.on_node(extra, thread_cpu_time) {
        let mut now = thread_cpu_time();
        while now < until {
            std::hint::spin_loop();
            now = thread_cpu_time();
        }
        meter.spun(now);
    }
    METER.set(meter);
}

impl<S: SearchSpace> SearchSpace for Slowed<'_, S> {
    type Node = S::Node;
    type Children<'a>
        = S::Children<'a>
    where
        Self: 'a;

    fn root(&self) -> S::Node {
        self.space.root()
    }

    fn children<'a>(&'a self, node: &'a S::Node) -> Self::Children<'a> {
        slow_down(self.extra);
        self.space.children(node)
    }
}

impl<S: Objective> Objective for Slowed<'_, S> {
    type Value = S::Value;

    fn objective(&self, node: &S::Node) -> S::Value {
        self.space.objective(node)
    }
}

impl<S: Bounded> Bounded for Slowed<'_, S> {
    fn upper_bound(&self, node: &S::Node) -> S::Value {
        self.space.upper_bound(node)
    }

    fn children_above<'a>(&'a self, node: &'a S::Node, threshold: S::Value) -> Self::Children<'a> {
        slow_down(self.extra);
        self.space.children_above(node, threshold)
    }
}

/// An enumerator of `S` recording the nodes of [`Slowed<S>`](Slowed).
#[derive(Debug)]
pub struct SlowedEnumerator<'e, E>(pub &'e E);

impl<S: SearchSpace, E: Enumerator<S>> Enumerator<Slowed<'_, S>> for SlowedEnumerator<'_, E> {
    type Summary = E::Summary;

    fn record(&self, node: &S::Node, depth: usize, summary: &mut E::Summary) {
        self.0.record(node, depth, summary);
    }
}

#[cfg(test)]
mod tests {
    use magpie_search::apps::semigroups::Semigroups;
    use magpie_search::{enumerate, NodesPerDepth, SearchConfig};

    use std::time::Duration;

    use super::{Meter, Slowed, SlowedEnumerator, CHECK_EVERY, MAX_SPIN};

    #[test]
    fn a_slowed_space_has_the_same_tree() {
        let space = Semigroups::new(14).unwrap();
        let config = SearchConfig::sequential();
        let plain = enumerate(&space, &NodesPerDepth, &config);
        let slowed = enumerate(
            &Slowed::new(&space, 4.0),
            &SlowedEnumerator(&NodesPerDepth),
            &config,
        );
        assert_eq!(plain.answer, slowed.answer);
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_meter_spins_extra_times_the_work_since_the_last_check() {
        let mut meter = Meter::default();
        // The first check only starts the count.
        for _ in 1..CHECK_EVERY {
            assert_eq!(meter.on_node(2.0, || unreachable!()), None);
        }
        assert_eq!(meter.on_node(2.0, || ms(10)), None);
        // 3 ms of work since: spin 2 × 3 ms.
        for _ in 1..CHECK_EVERY {
            assert_eq!(meter.on_node(2.0, || unreachable!()), None);
        }
        assert_eq!(meter.on_node(2.0, || ms(13)), Some(ms(19)));
        meter.spun(ms(19));
        // Work is counted from the end of the spin: 1 ms more, 2 ms of spin.
        for _ in 1..CHECK_EVERY {
            meter.on_node(2.0, || unreachable!());
        }
        assert_eq!(meter.on_node(2.0, || ms(20)), Some(ms(22)));
    }

    #[test]
    fn one_spin_is_bounded() {
        let mut meter = Meter {
            calls: CHECK_EVERY - 1,
            since: Some(ms(0)),
        };
        assert_eq!(meter.on_node(2.0, || ms(1000)), Some(ms(1000) + MAX_SPIN));
    }
}
