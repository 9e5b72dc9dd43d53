//! [`PerformanceDriven`]: the performance-driven policy of the YewPar thesis (ch. 3)
//! between ranks, decentralised: no rank collects for the others.
//!
//! * Every rank measures its own load ([`RankLoad`]): its workers' work rate (eq. 3.1
//!   per task: average task time and idle gap from the pool's task counts and idle
//!   time since the last measurement) and how many subtrees it could give away.
//! * A refresher in each rank's communication loop asks every other rank for its load
//!   (small non-blocking `Probe`/`Load` messages) and times each round trip as the delay
//!   to that rank (eq. 3.2, weighted by the local worker count). When all replies are
//!   in it scores every rank (eq. 3.3) and caches the best positive one; its interval
//!   halves when none scored positive and grows by a quarter when one did (§3.4; a
//!   changed target still counts as found), within `1 ms ..= 50 ms`.
//! * Assisted refresh: a steal from the cached target that comes back empty marks that
//!   rank empty, drops it as the target and probes again at once (at most every
//!   200 µs).
//! * Without a positive target the rank steals from a random victim.
//!
//! The arithmetic is the worker-level policy's, [`magpie::policy::estimate`].

use std::time::{Duration, Instant};

use magpie::policy::estimate::{delay_sample, next_interval, score, smooth};

use super::{NodeVictimPolicy, RankLoad};

/// What this rank knows of another.
#[derive(Clone, Copy, Debug, Default)]
struct Peer {
    work_rate: f64,
    stealable: f64,
    /// Smoothed eq. (3.2) delay.
    delay: f64,
    /// A delay has been measured.
    measured: bool,
}

/// The performance-driven node policy (see the module docs).
#[derive(Debug)]
pub struct PerformanceDriven {
    rng: magpie::Rng,
    /// This rank's worker count (eq. 3.2).
    workers: usize,
    peers: Vec<Peer>,
    me: usize,
    best: Option<usize>,
    interval: Duration,
    min: Duration,
    max: Duration,
    /// When the next timed refresh is due (`None`: at the first chance).
    next_probe: Option<Instant>,
    /// Replies of the refresh under way still out, and when it started.
    waiting: usize,
    probed: Option<Instant>,
    /// An assisted refresh is wanted.
    assist: bool,
    last_assist: Option<Instant>,
}

impl PerformanceDriven {
    /// The shortest refresh interval.
    pub const MIN_INTERVAL: Duration = Duration::from_millis(1);
    /// The longest refresh interval.
    pub const MAX_INTERVAL: Duration = Duration::from_millis(50);
    /// The shortest time between two assisted refreshes.
    pub const ASSIST_GAP: Duration = Duration::from_micros(200);

    /// The policy for a rank with `workers` workers, seeded with `seed` for its random
    /// choices.
    pub fn new(seed: u64, workers: usize) -> Self {
        Self {
            rng: magpie::Rng::new(seed),
            workers: workers.max(1),
            peers: Vec::new(),
            me: 0,
            best: None,
            interval: Self::MIN_INTERVAL,
            min: Self::MIN_INTERVAL,
            max: Self::MAX_INTERVAL,
            next_probe: None,
            waiting: 0,
            probed: None,
            assist: false,
            last_assist: None,
        }
    }

    /// The cached target, if any rank scored positive at the last refresh.
    pub fn target(&self) -> Option<usize> {
        self.best
    }

    /// The current refresh interval.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    fn know(&mut self, me: usize, ranks: usize) {
        self.me = me;
        if self.peers.len() < ranks {
            self.peers.resize(ranks, Peer::default());
        }
    }

    /// The rank with the best positive score (eq. 3.3), if any.
    fn best_scored(&self) -> Option<usize> {
        let mut best = None;
        let mut best_score = 0.0;
        for (rank, peer) in self.peers.iter().enumerate() {
            let s = score(peer.work_rate, peer.stealable, peer.delay);
            if rank != self.me && s > best_score {
                (best, best_score) = (Some(rank), s);
            }
        }
        best
    }

    /// All replies are in: rescore, cache the target, adapt the interval.
    fn refresh(&mut self, now: Instant) {
        let best = self.best_scored();
        // Thesis §3.4: a refresh is good when some rank scores positive (the best may
        // change); only a refresh that finds none worth stealing from shortens the wait.
        self.interval = next_interval(self.interval, self.min, self.max, best.is_some());
        self.best = best;
        self.next_probe = Some(now + self.interval);
    }
}

impl NodeVictimPolicy for PerformanceDriven {
    fn name(&self) -> &str {
        "performance"
    }

    fn choose(&mut self, me: usize, ranks: usize) -> usize {
        self.know(me, ranks);
        match self.best {
            Some(target) if target != me && target < ranks => target,
            _ => self.rng.other_than(me, ranks),
        }
    }

    fn observe(&mut self, victim: usize, got_work: bool, _latency: Duration) {
        if got_work || victim >= self.peers.len() {
            return;
        }
        // It has nothing now, whatever it reported before.
        self.peers[victim].stealable = 0.0;
        if self.best == Some(victim) {
            self.best = self.best_scored();
            let now = Instant::now();
            if self
                .last_assist
                .map_or(true, |t| now - t >= Self::ASSIST_GAP)
            {
                self.assist = true;
            }
        }
    }

    fn probe_due(&mut self, me: usize, ranks: usize, now: Instant) -> bool {
        self.know(me, ranks);
        // A refresh whose replies are lost in a slow network is given up after the
        // longest interval.
        let under_way = self.waiting > 0 && self.probed.is_some_and(|t| now - t < self.max);
        let due = self.assist || self.next_probe.map_or(true, |t| now >= t);
        if under_way || !due || ranks < 2 {
            return false;
        }
        if self.assist {
            self.assist = false;
            self.last_assist = Some(now);
        }
        self.waiting = ranks - 1;
        self.probed = Some(now);
        true
    }

    fn begin_search(&mut self) {
        // A refresh of the last search still waiting for replies would hold back every
        // probe of this one for up to the longest interval.
        self.waiting = 0;
        self.probed = None;
        self.assist = false;
        // What it knows was measured in the last search: refresh it at the first
        // chance, not after the last search's interval.
        self.next_probe = None;
    }

    fn observe_load(&mut self, peer: usize, load: RankLoad, delay: Duration) {
        if peer >= self.peers.len() || peer == self.me {
            return;
        }
        let sample = delay_sample(delay.as_secs_f64() * 1e6, self.workers);
        let p = &mut self.peers[peer];
        p.work_rate = load.work_rate;
        p.stealable = load.stealable as f64;
        // The first sample stands alone: smoothed against the zero of an unmeasured
        // peer (0.65 x sample) it would make that peer look closer than it is.
        p.delay = if p.measured {
            smooth(sample, p.delay)
        } else {
            sample
        };
        p.measured = true;
        self.waiting = self.waiting.saturating_sub(1);
        if self.waiting == 0 {
            self.refresh(Instant::now());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::{NodeVictimPolicy, PerformanceDriven, RankLoad};

    fn load(work_rate: f64, stealable: u64) -> RankLoad {
        RankLoad {
            work_rate,
            stealable,
        }
    }

    /// One refresh of rank 0 of 4 with these loads, each after `delay`.
    fn refresh(policy: &mut PerformanceDriven, loads: [RankLoad; 3], delay: Duration) {
        assert!(policy.probe_due(0, 4, Instant::now() + Duration::from_secs(1)));
        for (peer, load) in loads.into_iter().enumerate() {
            policy.observe_load(peer + 1, load, delay);
        }
    }

    #[test]
    fn targets_the_rank_with_the_most_weighted_work() {
        let mut policy = PerformanceDriven::new(1, 2);
        // Scores (eq. 3.3, delay ln(2.72 + 100 µs × 2 workers) = 5.31):
        // rank 1: 8 × 1 − 5.31 = 2.69; rank 2: 7 × 20 − 5.31 = 134.7; rank 3: 9 × 0 − 5.31.
        let delay = Duration::from_micros(100);
        refresh(
            &mut policy,
            [load(8.0, 1), load(7.0, 20), load(9.0, 0)],
            delay,
        );
        assert_eq!(policy.target(), Some(2));
        for _ in 0..10 {
            assert_eq!(policy.choose(0, 4), 2);
        }
    }

    #[test]
    fn nothing_worth_stealing_means_random_victims_and_a_faster_refresher() {
        let mut policy = PerformanceDriven::new(1, 1);
        policy.interval = Duration::from_millis(8);
        // Delay ln(2.72 + 10 000) = 9.21 outweighs 1 × 5 stealable.
        let slow = Duration::from_millis(10);
        refresh(
            &mut policy,
            [load(1.0, 5), load(1.0, 0), load(1.0, 0)],
            slow,
        );
        assert_eq!(policy.target(), None);
        assert_eq!(policy.interval(), Duration::from_millis(4), "halved");
        let picks: Vec<usize> = (0..100).map(|_| policy.choose(0, 4)).collect();
        assert!((1..4).all(|r| picks.contains(&r)));
    }

    #[test]
    fn the_refresher_slows_down_while_some_rank_is_worth_stealing_from() {
        let mut policy = PerformanceDriven::new(1, 1);
        let fast = Duration::from_micros(10);
        let loads = [load(2.0, 50), load(1.0, 1), load(1.0, 1)];
        refresh(&mut policy, loads, fast);
        assert_eq!(
            policy.interval(),
            Duration::from_micros(1250),
            "a target found: a quarter longer"
        );
        refresh(&mut policy, loads, fast);
        assert_eq!(
            policy.interval(),
            Duration::from_nanos(1_562_500),
            "kept: a quarter longer again"
        );
        // Another rank now scores best: the thesis still calls that a good refresh.
        refresh(
            &mut policy,
            [load(1.0, 1), load(2.0, 50), load(1.0, 1)],
            fast,
        );
        assert_eq!(policy.target(), Some(2));
        assert_eq!(
            policy.interval(),
            Duration::from_nanos(1_953_125),
            "changed but positive: longer, not halved"
        );
        assert!(!policy.probe_due(0, 4, Instant::now()), "not due yet");
    }

    #[test]
    fn an_empty_target_triggers_an_assisted_refresh() {
        let mut policy = PerformanceDriven::new(1, 1);
        let fast = Duration::from_micros(10);
        refresh(
            &mut policy,
            [load(2.0, 50), load(1.0, 3), load(1.0, 0)],
            fast,
        );
        assert_eq!(policy.target(), Some(1));
        assert!(!policy.probe_due(0, 4, Instant::now()));
        policy.observe(1, false, fast);
        assert_eq!(policy.target(), Some(2), "the next best from the cache");
        assert!(
            policy.probe_due(0, 4, Instant::now()),
            "assisted refresh at once"
        );
    }

    #[test]
    fn a_new_search_does_not_wait_for_the_replies_of_the_last_one() {
        let mut policy = PerformanceDriven::new(1, 1);
        let now = Instant::now();
        assert!(policy.probe_due(0, 4, now));
        // The search ends before any reply: the next one must probe at once, not after
        // the longest interval.
        policy.begin_search();
        assert!(policy.probe_due(0, 4, now + Duration::from_millis(1)));
    }

    #[test]
    fn a_new_search_refreshes_what_it_knows_at_once() {
        let mut policy = PerformanceDriven::new(1, 1);
        let fast = Duration::from_micros(10);
        let loads = [load(2.0, 50), load(1.0, 1), load(1.0, 1)];
        refresh(&mut policy, loads, fast);
        refresh(&mut policy, loads, fast);
        // The last search's refresh is complete and the next one is a while away: the
        // loads it saw are the last search's, not this one's.
        policy.begin_search();
        assert!(
            policy.probe_due(0, 4, Instant::now()),
            "the new search waits for the last one's refresh interval"
        );
    }
}
