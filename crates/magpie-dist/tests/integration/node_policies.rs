//! Every node policy gives the exact answers on 1–4 in-process ranks, and the
//! performance-driven policy aims at the rank that holds the work.

use crate::common;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use common::{data, grid, on_ranks_with};
use magpie_dist::wire::Message;
use magpie_dist::{
    local_world, Cluster, LocalTransport, NodeVictimPolicy, PerformanceDriven, RankLoad, Transport,
};
use magpie_search::apps::{clique, knapsack, semigroups, uts};
use magpie_search::SearchConfig;

#[test]
fn every_node_policy_is_exact() {
    let graph = clique::read_dimacs(data("dimacs/brock200_2.clq")).unwrap();
    let genus = semigroups::Semigroups::new(13).unwrap();
    let tree: uts::UtsParams = "default".parse().unwrap();
    let items = knapsack::read_knapsack(data("knapsack/knapsackTest1.kp")).unwrap();
    for policy in ["depthpool", "performance"] {
        grid(|name, ranks, threads, config| {
            let at = format!("{policy}, {name}, {ranks} ranks x {threads} threads");
            let best = on_ranks_with(policy, ranks, threads, config, |c, cfg| {
                c.maximum_clique(&graph, cfg)
            });
            assert_eq!(best.answer.len(), 12, "{at}");
            let counts = on_ranks_with(policy, ranks, threads, config, |c, cfg| {
                c.count_by_genus(&genus, cfg)
            });
            assert_eq!(counts.answer[13], 1001, "{at}");
            let summary = on_ranks_with(policy, ranks, threads, config, |c, cfg| {
                c.uts_count(&tree, cfg)
            });
            assert_eq!(summary.answer.nodes, 1732, "{at}");
            let packed = on_ranks_with(policy, ranks, threads, config, |c, cfg| {
                c.knapsack(&items, cfg)
            });
            assert_eq!(packed.answer.profit.to_string(), "6925", "{at}");
        });
    }
}

type Msg = Message<semigroups::Semigroup, ()>;

/// Receives the next message for a fake rank, if any (messages that are not for the
/// test's `()` report type, such as the real rank's final report, come back as `None`
/// payloads).
fn poll(transport: &mut LocalTransport) -> Option<(usize, Option<Msg>)> {
    let (from, bytes) = transport.try_receive()?;
    Some((from, Msg::decode(&bytes).ok().map(|(_, message)| message)))
}

/// Rank 1's part in the fake-rank tests: a 1-thread genus-5 count under `policy`;
/// whether it ended as a rank that does not report.
fn search_as_rank_1(
    real: LocalTransport,
    policy: Box<dyn NodeVictimPolicy>,
) -> Result<bool, magpie_dist::DistError> {
    let pool = common::pool(1);
    let config = SearchConfig::budget(10).in_pool(&pool);
    let mut cluster = Cluster::new(real).with_policy(policy);
    let space = semigroups::Semigroups::new(5).unwrap();
    cluster.count_by_genus(&space, &config).map(|o| o.is_none())
}

/// The start handshake, played as rank 0: waits for rank 1's `Ready`, says `Start`.
fn start_as_rank_0(fake0: &mut LocalTransport) {
    loop {
        if let Some((1, Some(Message::Ready(Ok(()))))) = poll(fake0) {
            break;
        }
        thread::yield_now();
    }
    fake0.send(1, Msg::Start(Ok(())).encode(1));
}

#[test]
fn the_performance_policy_targets_the_loaded_rank() {
    // Rank 1 is real, with the performance-driven policy and nothing to do; ranks 0
    // and 2 are played by this test. Rank 0 says it is busy with 100 subtrees to
    // give; rank 2 that it is slow and has none. Both refuse every request, so rank 1
    // keeps asking, and its policy keeps refreshing (assisted, after each refusal).
    let mut world = local_world(3);
    let real = world.remove(1);
    let (mut fake0, mut fake2) = (world.remove(0), world.remove(0));
    let loaded = RankLoad {
        work_rate: 8.0,
        stealable: 100,
    };
    let slow = RankLoad {
        work_rate: 0.5,
        stealable: 0,
    };
    let requests = thread::scope(|s| {
        let rank1 = s.spawn(move || search_as_rank_1(real, Box::new(PerformanceDriven::new(5, 1))));
        start_as_rank_0(&mut fake0);
        let mut requests = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        while requests.len() < 40 && Instant::now() < deadline {
            for (me, fake, load) in [(0, &mut fake0, loaded), (2, &mut fake2, slow)] {
                while let Some((from, message)) = poll(fake) {
                    match message {
                        Some(Message::Probe) => fake.send(from, Msg::Load(load).encode(1)),
                        Some(Message::StealRequest) => {
                            requests.push(me);
                            fake.send(from, Msg::Work(Vec::new()).encode(1));
                        }
                        _ => {}
                    }
                }
            }
            thread::yield_now();
        }
        // The end, as rank 0: `Done`, refuse what still comes, `Exit` on the report.
        fake0.send(1, Msg::Done.encode(1));
        'end: loop {
            for (fake, other) in [(&mut fake0, false), (&mut fake2, true)] {
                while let Some((from, message)) = poll(fake) {
                    match message {
                        Some(Message::StealRequest) => {
                            fake.send(from, Msg::Work(Vec::new()).encode(1))
                        }
                        Some(Message::Probe | Message::Load(_)) => {}
                        _ if !other => break 'end,
                        _ => {}
                    }
                }
            }
            thread::yield_now();
        }
        fake0.send(1, Msg::Exit.encode(1));
        assert!(rank1.join().unwrap().unwrap(), "only rank 0 reports");
        requests
    });
    assert_eq!(requests.len(), 40, "rank 1 kept asking");
    // The first requests may go out before the first refresh is complete.
    let later = &requests[3..];
    let at_loaded = later.iter().filter(|&&r| r == 0).count();
    assert!(
        at_loaded * 10 >= later.len() * 9,
        "{at_loaded} of {} requests went to the loaded rank: {requests:?}",
        later.len()
    );
}

/// A performance-driven policy that records the delays it is given.
struct Recording {
    inner: PerformanceDriven,
    delays: Arc<Mutex<Vec<(usize, Duration)>>>,
}

impl NodeVictimPolicy for Recording {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn choose(&mut self, me: usize, ranks: usize) -> usize {
        self.inner.choose(me, ranks)
    }
    fn observe(&mut self, victim: usize, got_work: bool, latency: Duration) {
        self.inner.observe(victim, got_work, latency);
    }
    fn probe_due(&mut self, me: usize, ranks: usize, now: Instant) -> bool {
        self.inner.probe_due(me, ranks, now)
    }
    fn observe_load(&mut self, peer: usize, load: RankLoad, delay: Duration) {
        self.delays.lock().unwrap().push((peer, delay));
        self.inner.observe_load(peer, load, delay);
    }
    fn begin_search(&mut self) {
        self.inner.begin_search();
    }
}

#[test]
fn a_late_load_reply_is_timed_from_the_probe_it_answers() {
    // Rank 1 is real; rank 0 (played here) answers each probe 80 ms late, longer than
    // the refresher waits (50 ms) before it probes again; rank 2 answers at once.
    // Every delay measured to rank 0 must be the 80 ms it really took, not the time
    // since a later probe.
    const LATE: Duration = Duration::from_millis(80);
    let mut world = local_world(3);
    let real = world.remove(1);
    let (mut fake0, mut fake2) = (world.remove(0), world.remove(0));
    let delays = Arc::new(Mutex::new(Vec::new()));
    let recorded = Arc::clone(&delays);
    let load = RankLoad {
        work_rate: 1.0,
        stealable: 0,
    };
    thread::scope(|s| {
        let policy = Box::new(Recording {
            inner: PerformanceDriven::new(5, 1),
            delays: recorded,
        });
        let rank1 = s.spawn(move || search_as_rank_1(real, policy));
        start_as_rank_0(&mut fake0);
        let mut due: VecDeque<Instant> = VecDeque::new();
        let end = Instant::now() + Duration::from_millis(600);
        let mut done = false;
        loop {
            while due.front().is_some_and(|&t| t <= Instant::now()) {
                due.pop_front();
                fake0.send(1, Msg::Load(load).encode(1));
            }
            if !done && Instant::now() >= end {
                fake0.send(1, Msg::Done.encode(1));
                done = true;
            }
            let mut quiet = false;
            for (me, fake) in [(0, &mut fake0), (2, &mut fake2)] {
                while let Some((from, message)) = poll(fake) {
                    match message {
                        Some(Message::Probe) if me == 0 => due.push_back(Instant::now() + LATE),
                        Some(Message::Probe) => fake.send(from, Msg::Load(load).encode(1)),
                        Some(Message::StealRequest) => {
                            fake.send(from, Msg::Work(Vec::new()).encode(1))
                        }
                        Some(Message::Quiet(_)) | None if me == 0 => quiet = true,
                        _ => {}
                    }
                }
            }
            if quiet {
                break;
            }
            thread::sleep(Duration::from_micros(200));
        }
        fake0.send(1, Msg::Exit.encode(1));
        assert!(rank1.join().unwrap().unwrap(), "only rank 0 reports");
    });
    let delays = delays.lock().unwrap();
    let to_rank_0: Vec<Duration> = delays
        .iter()
        .filter(|(peer, _)| *peer == 0)
        .map(|&(_, d)| d)
        .collect();
    assert!(to_rank_0.len() >= 3, "{delays:?}");
    assert!(
        to_rank_0.iter().all(|&d| d >= LATE),
        "delays to rank 0 shorter than its replies took: {to_rank_0:?}"
    );
}
