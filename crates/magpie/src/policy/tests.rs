//! Policy tests over a fake [`Victims`] with configurable lengths, samples, task counters
//! and topology.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use super::monitor::Trigger;
use super::topology::{detect_in, parse_cpu_list};
use super::*;

struct Fake {
    me: usize,
    lens: Vec<usize>,
    samples: Vec<bool>,
    tasks: Vec<u64>,
    topology: Topology,
    /// Victims whose `stealable_len` / `sample` was read, in order.
    len_reads: RefCell<Vec<usize>>,
    sample_reads: RefCell<Vec<usize>>,
}

impl Fake {
    fn new(me: usize, workers: usize) -> Self {
        Self {
            me,
            lens: vec![0; workers],
            samples: vec![true; workers],
            tasks: vec![0; workers],
            topology: Topology::uniform(workers),
            len_reads: RefCell::default(),
            sample_reads: RefCell::default(),
        }
    }

    fn lens(mut self, lens: &[usize]) -> Self {
        self.lens = lens.to_vec();
        self
    }

    fn samples(mut self, samples: &[bool]) -> Self {
        self.samples = samples.to_vec();
        self
    }

    fn topology(mut self, topology: Topology) -> Self {
        self.topology = topology;
        self
    }

    fn take_len_reads(&self) -> Vec<usize> {
        self.len_reads.take()
    }
}

impl Victims for Fake {
    fn workers(&self) -> usize {
        self.lens.len()
    }
    fn me(&self) -> usize {
        self.me
    }
    fn sample(&self, victim: usize, _rng: &mut Rng) -> bool {
        self.sample_reads.borrow_mut().push(victim);
        self.samples[victim]
    }
    fn stealable_len(&self, victim: usize) -> usize {
        self.len_reads.borrow_mut().push(victim);
        self.lens[victim]
    }
    fn tasks_run(&self, victim: usize) -> u64 {
        self.tasks[victim]
    }
    fn topology(&self) -> &Topology {
        &self.topology
    }
}

const SUCCESS: StealOutcome = StealOutcome::Success { items: 1 };
const NO_TIME: Duration = Duration::ZERO;

fn two_caches_two_nodes() -> Topology {
    // Workers 0–3 on node 0 (caches 0, 0, 1, 1), workers 4–7 on node 1 (caches 2, 2, 3, 3).
    Topology::from_ids(vec![0, 0, 1, 1, 2, 2, 3, 3], vec![0, 0, 0, 0, 1, 1, 1, 1])
}

#[test]
fn no_policy_ever_returns_me() {
    let mut rng = Rng::new(1);
    for &name in NAMES {
        for workers in 2..=8 {
            let topology = if workers == 8 {
                two_caches_two_nodes()
            } else {
                Topology::uniform(workers)
            };
            let policy = by_name(name).unwrap();
            for me in 0..workers {
                let mut thief = policy.thief(me, workers);
                for round in 0..200 {
                    let lens: Vec<usize> = (0..workers).map(|_| rng.below(4)).collect();
                    let samples: Vec<bool> = (0..workers).map(|_| rng.below(2) == 0).collect();
                    let fake = Fake::new(me, workers)
                        .lens(&lens)
                        .samples(&samples)
                        .topology(topology.clone());
                    if let Some(v) = thief.choose(&fake, &mut rng) {
                        assert!(v < workers && v != me, "{name}: {me} chose {v}");
                        let outcome =
                            [SUCCESS, StealOutcome::Empty, StealOutcome::Retry][round % 3];
                        thief.record(v, outcome, Duration::from_nanos(rng.below(500) as u64));
                    }
                }
            }
        }
    }
}

#[test]
fn seq_visits_every_other_worker_in_order() {
    let mut thief = Seq.thief(2, 5);
    let fake = Fake::new(2, 5);
    let mut rng = Rng::new(0);
    let order: Vec<_> = (0..9)
        .map(|_| thief.choose(&fake, &mut rng).unwrap())
        .collect();
    assert_eq!(order, [3, 4, 0, 1, 3, 4, 0, 1, 3]);
}

#[test]
fn last_sticks_to_a_successful_victim_until_it_is_empty() {
    let fake = Fake::new(0, 4);
    for seed in 0..50 {
        let mut rng = Rng::new(seed);
        let mut thief = Last.thief(0, 4);
        let first = thief.choose(&fake, &mut rng).unwrap();
        thief.record(first, SUCCESS, NO_TIME);
        for _ in 0..5 {
            assert_eq!(thief.choose(&fake, &mut rng), Some(first));
            thief.record(first, StealOutcome::Retry, NO_TIME);
        }
        thief.record(first, StealOutcome::Empty, NO_TIME);
        let next = thief.choose(&fake, &mut rng).unwrap();
        assert!(
            next != first && next != 0,
            "seed {seed}: {first} then {next}"
        );
    }
}

/// Checks that each choice read `k` distinct other victims and took the longest of them.
fn check_best_of(policy: &dyn VictimPolicy, workers: usize, k: usize) {
    let mut rng = Rng::new(3);
    let lens: Vec<usize> = (0..workers).map(|w| (w * 7919) % 13).collect();
    let fake = Fake::new(1, workers).lens(&lens);
    let mut thief = policy.thief(1, workers);
    let mut chosen = HashSet::new();
    for _ in 0..500 {
        let v = thief.choose(&fake, &mut rng).unwrap();
        let reads = fake.take_len_reads();
        let distinct: HashSet<_> = reads.iter().copied().collect();
        assert_eq!((reads.len(), distinct.len()), (k, k), "{reads:?}");
        assert!(!distinct.contains(&1));
        let longest = reads.iter().map(|&r| lens[r]).max().unwrap();
        assert!(
            distinct.contains(&v) && lens[v] == longest,
            "{v} of {reads:?}"
        );
        chosen.insert(v);
    }
    assert!(chosen.len() > 1, "sampling is random");
}

#[test]
fn best_of_two_and_many_pick_the_longest_sampled() {
    check_best_of(&BestOfTwo, 8, 2);
    check_best_of(&BestOfMany, 8, 4);
    check_best_of(&BestOfMany, 9, 4);
    // Three workers: both others are compared, so the longer always wins.
    let fake = Fake::new(0, 3).lens(&[0, 1, 9]);
    let mut thief = BestOfTwo.thief(0, 3);
    for seed in 0..20 {
        assert_eq!(thief.choose(&fake, &mut Rng::new(seed)), Some(2));
    }
    // Two workers: a single candidate, nothing read.
    let fake = Fake::new(1, 2);
    assert_eq!(
        BestOfTwo.thief(1, 2).choose(&fake, &mut Rng::new(0)),
        Some(0)
    );
    assert_eq!(
        BestOfMany.thief(1, 2).choose(&fake, &mut Rng::new(0)),
        Some(0)
    );
    assert!(fake.take_len_reads().is_empty());
}

#[test]
fn probabilistic_returns_only_accepted_victims() {
    let mut rng = Rng::new(5);
    let none = Fake::new(0, 6).samples(&[false; 6]);
    let mut thief = Probabilistic::default().thief(0, 6);
    assert_eq!(thief.choose(&none, &mut rng), None);
    assert_eq!(none.sample_reads.take().len(), 5, "workers − 1 candidates");
    let mut one = Probabilistic::with_attempts(1).thief(0, 6);
    assert_eq!(one.choose(&none, &mut rng), None);
    assert_eq!(none.sample_reads.take().len(), 1);

    let only_three = Fake::new(0, 6).samples(&[true, false, false, true, false, false]);
    let mut hits = 0;
    for _ in 0..200 {
        match thief.choose(&only_three, &mut rng) {
            Some(3) => hits += 1,
            None => {}
            other => panic!("rejected victim chosen: {other:?}"),
        }
    }
    assert!(hits > 100, "{hits}");
}

#[test]
fn numa_prefers_the_same_cache_then_widens() {
    let mut rng = Rng::new(9);
    let fake = Fake::new(0, 8).topology(two_caches_two_nodes());
    let mut thief = NumaAware::default().thief(0, 8);
    let mut choose = |thief: &mut Box<dyn Thief>| thief.choose(&fake, &mut rng).unwrap();
    // Tiers of worker 0: {1}; {1, 2, 3}; everyone. Each tried as often as it is large.
    assert_eq!(choose(&mut thief), 1);
    let node: HashSet<_> = (0..3).map(|_| choose(&mut thief)).collect();
    assert_eq!(node, HashSet::from([1, 2, 3]));
    let all: HashSet<_> = (0..7).map(|_| choose(&mut thief)).collect();
    assert_eq!(all, (1..8).collect());
    assert_eq!(choose(&mut thief), 1, "back to the nearest tier");
    choose(&mut thief);
    thief.record(2, SUCCESS, NO_TIME);
    assert_eq!(
        choose(&mut thief),
        1,
        "a success restarts from the nearest tier"
    );

    // Uniform topology: one tier, every other worker.
    let uniform = Fake::new(2, 5);
    let mut thief = NumaAware::default().thief(2, 5);
    let seen: HashSet<_> = (0..4)
        .map(|_| thief.choose(&uniform, &mut rng).unwrap())
        .collect();
    assert_eq!(seen, HashSet::from([0, 1, 3, 4]));
}

#[test]
fn numa_probabilistic_accepts_the_nearest_sampled_victim() {
    let mut rng = Rng::new(11);
    let mut samples = [false; 8];
    samples[1] = true;
    samples[6] = true;
    let fake = Fake::new(0, 8)
        .topology(two_caches_two_nodes())
        .samples(&samples);
    let mut thief = NumaProbabilistic::default().thief(0, 8);
    assert_eq!(thief.choose(&fake, &mut rng), Some(1));
    assert_eq!(fake.sample_reads.take(), [1]);
    samples[1] = false;
    let far = Fake::new(0, 8)
        .topology(two_caches_two_nodes())
        .samples(&samples);
    let found = (0..4).find_map(|_| thief.choose(&far, &mut rng));
    assert_eq!(found, Some(6), "widens to the other node");
    let empty = Fake::new(0, 8).samples(&[false; 8]);
    assert_eq!(thief.choose(&empty, &mut rng), None);
}

#[test]
fn performance_prefers_the_best_score() {
    let hour = Duration::from_secs(3600);
    let policy = PerformanceDriven::with_intervals(hour, hour);
    assert!(policy.wants_latency());
    let mut thief = policy.thief(0, 4);
    let monitor = policy.monitor().unwrap();
    let mut fake = Fake::new(0, 4).lens(&[0, 10, 100, 0]);
    fake.tasks = vec![0, 5000, 100, 0];
    // 1 ms after the start: rates 0.65 × 5 and 0.65 × 0.1 tasks/µs, so worker 1 scores
    // 3.25 × 10 = 32.5 and worker 2 only 0.065 × 100 = 6.5 despite its longer queue.
    assert!(monitor.try_refresh(&fake, 1_000_000, Trigger::Due));
    assert!((monitor.work_rate(1) - 3.25).abs() < 1e-9);
    assert_eq!(monitor.best(), Some(1));
    assert_eq!(thief.choose(&fake, &mut Rng::new(0)), Some(1));
    // A 100 µs steal from worker 1 makes its delay 65 µs, which outweighs its work.
    thief.record(1, SUCCESS, Duration::from_micros(100));
    assert!((monitor.delay(1) - 65.0).abs() < 1e-6);
    assert!(monitor.try_refresh(&fake, 2_000_000 + 2 * hour.as_nanos() as u64, Trigger::Due));
    assert_eq!(monitor.best(), Some(2));
    // Nothing stealable anywhere: no target, thieves fall back to random.
    let idle = Fake::new(0, 4);
    assert!(monitor.try_refresh(&idle, 4 * hour.as_nanos() as u64, Trigger::Due));
    assert_eq!(monitor.best(), None);
}

#[test]
fn performance_interval_adapts_within_bounds() {
    let (min, max) = (Duration::from_millis(1), Duration::from_millis(4));
    let policy = PerformanceDriven::with_intervals(min, max);
    let _thief = policy.thief(0, 3);
    let monitor = policy.monitor().unwrap();
    let mut now = 0;
    let mut refresh = |lens: &[usize]| {
        now += 10_000_000;
        assert!(monitor.try_refresh(&Fake::new(0, 3).lens(lens), now, Trigger::Due));
        monitor.interval()
    };
    assert_eq!(refresh(&[0, 5, 1]), min, "the first best is a change");
    let mut previous = min;
    for _ in 0..20 {
        let interval = refresh(&[0, 5, 1]);
        assert!(interval >= previous && interval <= max, "{interval:?}");
        previous = interval;
    }
    assert_eq!(
        previous, max,
        "a stable target grows the interval to the bound"
    );
    for i in 0..20 {
        let interval = refresh(if i % 2 == 0 { &[0, 1, 5] } else { &[0, 5, 1] });
        assert!(interval <= previous && interval >= min, "{interval:?}");
        previous = interval;
    }
    assert_eq!(previous, min, "a changing target shrinks it to the bound");
}

#[test]
fn performance_empty_target_triggers_an_assisted_refresh() {
    let hour = Duration::from_secs(3600);
    let policy = PerformanceDriven::with_intervals(hour, hour);
    let mut thief = policy.thief(0, 3);
    let mut other = policy.thief(1, 3);
    let mut rng = Rng::new(2);
    let before = Fake::new(0, 3).lens(&[0, 5, 1]);
    assert_eq!(
        thief.choose(&before, &mut rng),
        Some(1),
        "first choice refreshes"
    );
    let after = Fake::new(0, 3).lens(&[0, 0, 7]);
    assert_eq!(thief.choose(&after, &mut rng), Some(1), "cached until due");
    thief.record(2, StealOutcome::Empty, NO_TIME);
    assert_eq!(
        thief.choose(&after, &mut rng),
        Some(1),
        "2 was not the target"
    );
    thief.record(1, StealOutcome::Empty, NO_TIME);
    // Assisted refreshes are at most one per 50 µs: let that pass.
    std::thread::sleep(Duration::from_millis(1));
    assert_eq!(thief.choose(&after, &mut rng), Some(2), "assisted refresh");
    // The thieves of one pool share the cached target.
    let from_one = Fake::new(1, 3).lens(&[0, 0, 7]);
    assert_eq!(other.choose(&from_one, &mut rng), Some(2));
    // A second pool gets fresh estimates.
    let first = policy.monitor().unwrap();
    let _again = policy.thief(0, 3);
    assert!(!Arc::ptr_eq(&first, &policy.monitor().unwrap()));
}

#[test]
fn by_name_round_trips_every_name() {
    assert_eq!(NAMES.iter().collect::<HashSet<_>>().len(), NAMES.len());
    for &name in NAMES {
        assert_eq!(by_name(name).unwrap().name(), name);
    }
    for bad in ["", "Random", "best_of_two", "worst-of-three"] {
        let err = by_name(bad).unwrap_err();
        assert_eq!(err.name(), bad);
        let message = err.to_string();
        assert!(NAMES.iter().all(|n| message.contains(n)), "{message}");
        let _: &dyn std::error::Error = &err;
    }
}

#[test]
fn cpu_lists_parse() {
    assert_eq!(
        parse_cpu_list("0-3,8-11"),
        Some(vec![0, 1, 2, 3, 8, 9, 10, 11])
    );
    assert_eq!(parse_cpu_list("5"), Some(vec![5]));
    assert_eq!(parse_cpu_list(" 2,0-1\n"), Some(vec![0, 1, 2]));
    assert_eq!(parse_cpu_list(""), Some(vec![]));
    assert_eq!(parse_cpu_list("\n"), Some(vec![]));
    for bad in [
        "3-1",
        "a",
        "1-",
        "-1",
        "1,,2",
        "1-2-3",
        "+1",
        "0-99999999",
        "1,",
    ] {
        assert_eq!(parse_cpu_list(bad), None, "{bad:?}");
    }
}

#[test]
fn topology_counts_and_compares() {
    let t = two_caches_two_nodes();
    assert_eq!((t.workers(), t.nodes(), t.caches()), (8, 2, 4));
    assert!(t.same_cache(0, 1) && !t.same_cache(1, 2) && t.same_node(1, 2));
    assert!(!t.same_node(3, 4));
    assert_eq!(Topology::uniform(3).nodes(), 1);
}

#[test]
fn topology_detects_a_fake_sysfs_and_falls_back() {
    let root = std::env::temp_dir().join(format!("magpie-sysfs-{}", std::process::id()));
    let write = |path: &str, text: &str| {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("cpu/online", "0-3\n");
    for cpu in 0..4 {
        let shared = if cpu < 2 { "0-1\n" } else { "2-3\n" };
        write(&format!("cpu/cpu{cpu}/cache/index0/level"), "1\n");
        write(
            &format!("cpu/cpu{cpu}/cache/index0/shared_cpu_list"),
            &format!("{cpu}\n"),
        );
        write(&format!("cpu/cpu{cpu}/cache/index3/level"), "3\n");
        write(
            &format!("cpu/cpu{cpu}/cache/index3/shared_cpu_list"),
            shared,
        );
    }
    write("node/node0/cpulist", "0-2\n");
    write("node/node1/cpulist", "3\n");
    // Worker 0 pinned to cpu 1, worker 1 to cpu 2; workers 2–5 spread as cpus 2, 3, 0, 1.
    let t = detect_in(&root, &[Some(1), Some(2), None, None, None, None]);
    assert_eq!(t.workers(), 6);
    assert!(t.same_cache(0, 4) && t.same_cache(0, 5) && t.same_cache(1, 2) && t.same_cache(1, 3));
    assert!(!t.same_cache(0, 1));
    assert!(t.same_node(0, 1) && !t.same_node(1, 3) && t.same_node(3, 3));
    assert_eq!((t.caches(), t.nodes()), (2, 2));

    // Without cache information each node is a cache; without anything, uniform.
    std::fs::remove_dir_all(root.join("cpu/cpu0/cache")).unwrap();
    let t = detect_in(&root, &[Some(0), Some(2), Some(3)]);
    assert!(t.same_cache(0, 1) && !t.same_cache(1, 2));
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(detect_in(&root, &[None, Some(7)]), Topology::uniform(2));
    let real = Topology::detect(&[None, None, Some(0)]);
    assert_eq!(real.workers(), 3);
}

/// Chooses the other worker of a two-worker pool every time and counts what the pool
/// reports back.
#[derive(Debug, Default)]
struct OtherOfTwo {
    choices: Arc<std::sync::atomic::AtomicUsize>,
    empties: Arc<std::sync::atomic::AtomicUsize>,
}

struct OtherOfTwoThief {
    choices: Arc<std::sync::atomic::AtomicUsize>,
    empties: Arc<std::sync::atomic::AtomicUsize>,
}

impl Thief for OtherOfTwoThief {
    fn choose(&mut self, victims: &dyn Victims, _rng: &mut Rng) -> Option<usize> {
        self.choices
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some(1 - victims.me())
    }

    fn record(&mut self, _victim: usize, outcome: StealOutcome, _latency: Duration) {
        if outcome == StealOutcome::Empty {
            self.empties
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

impl VictimPolicy for OtherOfTwo {
    fn name(&self) -> &str {
        "other-of-two"
    }

    fn thief(&self, _me: usize, _workers: usize) -> Box<dyn Thief> {
        Box::new(OtherOfTwoThief {
            choices: Arc::clone(&self.choices),
            empties: Arc::clone(&self.empties),
        })
    }
}

#[test]
fn a_victim_with_nothing_to_steal_is_reported_empty() {
    // The worker skips an attempt on a victim that shows nothing stealable; the policy
    // must still hear that it was empty, or `last` keeps choosing a victim that ran dry
    // (while another has work) and `performance` never makes its assisted refresh.
    let policy = OtherOfTwo::default();
    let (choices, empties) = (Arc::clone(&policy.choices), Arc::clone(&policy.empties));
    let pool = crate::ThreadPoolBuilder::new()
        .num_threads(2)
        .victim_policy(policy)
        .build()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while empties.load(std::sync::atomic::Ordering::Relaxed) == 0
        && std::time::Instant::now() < deadline
    {
        // Wakes a worker, which searches (and so chooses) after the job.
        pool.install(|| ());
        std::thread::sleep(Duration::from_millis(1));
    }
    let choices = choices.load(std::sync::atomic::Ordering::Relaxed);
    assert!(choices > 0, "the workers never searched");
    assert!(
        empties.load(std::sync::atomic::Ordering::Relaxed) > 0,
        "{choices} choices of an idle worker, none reported empty"
    );
}
