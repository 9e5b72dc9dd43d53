//! One measured run of the pool experiment (BWoS §6.2.3): rounds of put until full,
//! get until empty and `k · C` steal attempts (victims from the policy; stolen items are
//! consumed) until the time is up, after one untimed warm-up round. Throughput = (puts +
//! gets + steals) / wall time. The queues are drained untimed afterwards and everything
//! taken must match what was put, in count and checksum ([`Tally`]).

use std::sync::atomic::Ordering;
use std::sync::Barrier;
use std::time::{Duration, Instant};

use magpie::policy::{StealOutcome, VictimPolicy};
use magpie::Rng;

use super::steal::{PoolThief, Stolen};
use super::tally::{base, Sink, Tally};
use super::view::{PoolView, Published};
use crate::affinity::pin_current_thread;
use crate::queue::impls::{BenchQueue, CrossbeamFifo, CrossbeamLifo, St3Fifo, St3Lifo};
use crate::queue::magpie::{MagpieFifo, MagpieLifo};
use crate::queue::run::{share, thread_cpu_secs};
use crate::queue::{Family, Flavour, Impl};
use crate::BenchError;

/// The shape of one run.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Workers (= queues) `N` ≥ 2, each with a queue of capacity `cap`.
    pub workers: usize,
    pub cap: usize,
    /// Balancing factor `k` in percent: `k · C / 100` steal attempts per round.
    pub k_pct: u32,
    /// How long each worker runs rounds (it finishes the round it is in).
    pub duration: Duration,
    /// Pin worker `i` to the `i`-th allowed CPU.
    pub pin: bool,
    pub seed: u64,
}

impl Config {
    /// Steal attempts per round: `k · C / 100`.
    pub fn attempts_per_round(&self) -> u64 {
        self.k_pct as u64 * self.cap as u64 / 100
    }
}

/// Counters of one worker over its timed rounds. `stolen` counts single-item steals
/// that succeeded; `attempts` (`k · C` per round) = stolen + `skipped` (the policy chose
/// no victim) + `empty` + `retry` (lost a race); `steal_secs` is the part of `secs` (wall
/// time) spent in steal phases; `cpu_share` = thread CPU time / wall time.
#[derive(Clone, Copy, Debug, Default)]
pub struct WorkerRun {
    pub rounds: u64,
    pub puts: u64,
    pub gets: u64,
    pub stolen: u64,
    pub attempts: u64,
    pub skipped: u64,
    pub empty: u64,
    pub retry: u64,
    pub secs: f64,
    pub steal_secs: f64,
    pub pinned: bool,
    pub cpu_share: Option<f64>,
}

/// Result of one run: per-worker counters, the wall time from the first worker's start
/// to the last one's end, and the items the untimed drain took from the queues.
#[derive(Clone, Debug, Default)]
pub struct PoolRun {
    pub workers: Vec<WorkerRun>,
    pub secs: f64,
    pub drained: u64,
}

impl PoolRun {
    /// The counters of all workers added up (`secs`, `pinned` and `cpu_share` unset).
    pub fn total(&self) -> WorkerRun {
        let mut t = WorkerRun::default();
        macro_rules! add {
            ($($f:ident),*) => { self.workers.iter().for_each(|w| { $(t.$f += w.$f;)* }) };
        }
        add!(rounds, puts, gets, stolen, attempts, skipped, empty, retry, steal_secs);
        t
    }
}

/// What a worker thread hands back: `put_total` counts every value it put (warm-up
/// included), `bad` the invalid victims its policy chose.
struct Finished<Q, S> {
    run: WorkerRun,
    put_total: u64,
    bad: u64,
    start: Instant,
    end: Instant,
    queue: Q,
    sink: S,
}

/// What all workers of a run share.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    cfg: &'a Config,
    barrier: &'a Barrier,
    tasks: &'a [Published],
    wants_latency: bool,
}

/// One worker: warm-up round, start barrier, timed rounds.
fn worker<Q, S>(
    me: usize,
    ctx: &Ctx<'_>,
    mut q: Q,
    view: PoolView<'_, Q::Thief>,
    mut thief: Box<dyn magpie::policy::Thief>,
    mut sink: S,
) -> Finished<Q, S>
where
    Q: BenchQueue,
    Q::Thief: PoolThief,
    S: Sink,
{
    let Ctx {
        cfg,
        barrier,
        tasks,
        wants_latency,
    } = *ctx;
    let pinned = cfg.pin && pin_current_thread(me);
    let n = cfg.workers;
    let mut rng = Rng::new(cfg.seed ^ (me as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let first = base(me);
    let mut v = first;
    // Warm-up: one round without steals (fault in the queue's memory).
    while q.push(v) {
        v += 1;
    }
    while let Some(x) = q.pop() {
        sink.take(x);
    }
    let per_round = cfg.attempts_per_round();
    let mut r = WorkerRun {
        pinned,
        ..WorkerRun::default()
    };
    let mut bad = 0u64;
    barrier.wait();
    let (start, c0) = (Instant::now(), thread_cpu_secs());
    let deadline = start + cfg.duration;
    loop {
        let v0 = v;
        while q.push(v) {
            v += 1;
        }
        r.puts += v - v0;
        while let Some(x) = q.pop() {
            sink.take(x);
            r.gets += 1;
        }
        tasks[me].0.store(r.gets + r.stolen, Ordering::Relaxed);
        let steal_start = Instant::now();
        for _ in 0..per_round {
            let Some(victim) = thief.choose(&view, &mut rng) else {
                r.skipped += 1;
                continue;
            };
            if victim >= n || victim == me {
                bad += 1;
                continue;
            }
            let t = wants_latency.then(Instant::now);
            let outcome = match view.thief(victim).steal() {
                Stolen::Item(x) => {
                    sink.take(x);
                    r.stolen += 1;
                    StealOutcome::Success { items: 1 }
                }
                Stolen::Empty => {
                    r.empty += 1;
                    StealOutcome::Empty
                }
                Stolen::Retry => {
                    r.retry += 1;
                    StealOutcome::Retry
                }
            };
            thief.record(victim, outcome, t.map_or(Duration::ZERO, |t| t.elapsed()));
        }
        r.attempts += per_round;
        r.rounds += 1;
        let now = Instant::now();
        if per_round > 0 {
            r.steal_secs += (now - steal_start).as_secs_f64();
        }
        if now >= deadline {
            break;
        }
    }
    let end = Instant::now();
    r.secs = (end - start).as_secs_f64();
    r.cpu_share = share(c0, thread_cpu_secs(), r.secs);
    Finished {
        run: r,
        put_total: v - first,
        bad,
        start,
        end,
        queue: q,
        sink,
    }
}

/// Takes whatever is left in a queue after the run: owner pops, then steals until the
/// thieves' side reports empty.
fn drain<Q: BenchQueue>(q: &mut Q, t: &Q::Thief, sink: &mut impl Sink) -> Result<u64, BenchError>
where
    Q::Thief: PoolThief,
{
    let mut n = 0;
    while let Some(x) = q.pop() {
        sink.take(x);
        n += 1;
    }
    let mut retries = 0;
    loop {
        match t.steal() {
            Stolen::Item(x) => {
                sink.take(x);
                n += 1;
            }
            Stolen::Empty => return Ok(n),
            Stolen::Retry => {
                retries += 1;
                if retries > 1_000_000 {
                    return Err(BenchError::Worker(
                        "drain: steal keeps reporting Retry on a quiescent queue".into(),
                    ));
                }
            }
        }
    }
}

/// Runs the pool on queues `Q` with `policy`, verifies conservation, and returns the run
/// and every worker's sink followed by the drain's sink (tests inspect them).
pub fn run_with<Q, S>(
    cfg: &Config,
    policy: &dyn VictimPolicy,
    make_sink: impl Fn() -> S,
) -> Result<(PoolRun, Vec<S>), BenchError>
where
    Q: BenchQueue,
    Q::Thief: PoolThief,
    S: Sink,
{
    let n = cfg.workers;
    if n < 2 || cfg.cap == 0 {
        return Err(BenchError::Invalid(format!(
            "pool experiment needs at least 2 workers and a capacity > 0 (got {n}, {})",
            cfg.cap
        )));
    }
    let queues: Vec<Q> = (0..n).map(|_| Q::with_capacity(cfg.cap)).collect();
    let handles = |qs: &[Q]| -> Result<Vec<Q::Thief>, BenchError> {
        qs.iter()
            .map(|q| {
                q.thief()
                    .ok_or_else(|| BenchError::Invalid("queue does not support stealing".into()))
            })
            .collect()
    };
    let mut views: Vec<Vec<Q::Thief>> =
        (0..n).map(|_| handles(&queues)).collect::<Result<_, _>>()?;
    let drainers = handles(&queues)?;
    let thieves: Vec<_> = (0..n).map(|me| policy.thief(me, n)).collect();
    let tasks: Vec<Published> = (0..n).map(|_| Published::default()).collect();
    // The cpus the workers are pinned to (`None`: unpinned), for the policies' topology.
    let allowed = crate::affinity::allowed_cpus();
    let cpus: Vec<Option<usize>> = (0..n)
        .map(|i| allowed.get(i).copied().filter(|_| cfg.pin))
        .collect();
    let topology = magpie::policy::Topology::detect(&cpus);
    let barrier = Barrier::new(n);
    let ctx = Ctx {
        cfg,
        barrier: &barrier,
        tasks: &tasks,
        wants_latency: policy.wants_latency(),
    };
    let finished: Vec<Finished<Q, S>> = std::thread::scope(|s| {
        let hs: Vec<_> = queues
            .into_iter()
            .zip(thieves)
            .enumerate()
            .map(|(me, (q, thief))| {
                let view = PoolView::new(me, cfg.cap, views.remove(0), &tasks, &topology);
                let (sink, ctx) = (make_sink(), &ctx);
                s.spawn(move || worker(me, ctx, q, view, thief, sink))
            })
            .collect();
        hs.into_iter()
            .map(|h| {
                h.join()
                    .map_err(|_| BenchError::Worker("pool worker thread panicked".into()))
            })
            .collect::<Result<Vec<_>, _>>()
    })?;

    let bad: u64 = finished.iter().map(|f| f.bad).sum();
    if bad > 0 {
        return Err(BenchError::Worker(format!(
            "policy {} chose an invalid victim (itself or out of range) {bad} times",
            policy.name()
        )));
    }
    let start = finished.iter().map(|f| f.start).min().expect("n >= 2");
    let end = finished.iter().map(|f| f.end).max().expect("n >= 2");
    let put_totals: Vec<u64> = finished.iter().map(|f| f.put_total).collect();
    let mut run = PoolRun {
        workers: finished.iter().map(|f| f.run).collect(),
        secs: (end - start).as_secs_f64(),
        drained: 0,
    };
    let mut sinks = Vec::with_capacity(n + 1);
    let mut rest = make_sink();
    for (f, t) in finished.into_iter().zip(&drainers) {
        let mut q = f.queue;
        run.drained += drain(&mut q, t, &mut rest)?;
        sinks.push(f.sink);
    }
    sinks.push(rest);
    let mut taken = Tally::default();
    for s in &sinks {
        taken.merge(s.tally());
    }
    taken.verify(
        Tally::of_puts(&put_totals),
        &format!(
            "pool run ({} policy, N = {n}, k = {} %)",
            policy.name(),
            cfg.k_pct
        ),
    )?;
    Ok((run, sinks))
}

/// [`run_with`] with the cheap [`Tally`] sink: what the benchmark measures.
pub fn run<Q>(cfg: &Config, policy: &dyn VictimPolicy) -> Result<PoolRun, BenchError>
where
    Q: BenchQueue,
    Q::Thief: PoolThief,
{
    run_with::<Q, Tally>(cfg, policy, Tally::default).map(|(r, _)| r)
}

/// Runs implementation `imp` (magpie, crossbeam-deque or st3, either flavour).
pub fn run_impl(imp: Impl, cfg: &Config, policy: &dyn VictimPolicy) -> Result<PoolRun, BenchError> {
    match (imp.family, imp.flavour) {
        (Family::Magpie, Flavour::Lifo) => run::<MagpieLifo>(cfg, policy),
        (Family::Magpie, Flavour::Fifo) => run::<MagpieFifo>(cfg, policy),
        (Family::Crossbeam, Flavour::Lifo) => run::<CrossbeamLifo>(cfg, policy),
        (Family::Crossbeam, Flavour::Fifo) => run::<CrossbeamFifo>(cfg, policy),
        (Family::St3, Flavour::Lifo) => run::<St3Lifo>(cfg, policy),
        (Family::St3, Flavour::Fifo) => run::<St3Fifo>(cfg, policy),
        (Family::Sequential, _) => Err(BenchError::Invalid(format!(
            "{}: the pool experiment needs a stealable queue",
            imp.name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::super::exp::Sample;
    use super::super::report::imp;
    use super::super::tally::Record;
    use super::*;
    use magpie::policy::Random;

    fn cfg(workers: usize, k_pct: u32) -> Config {
        Config {
            workers,
            cap: 64,
            k_pct,
            duration: Duration::from_millis(5),
            pin: false,
            seed: 1,
        }
    }

    /// Every value put is taken exactly once (exact multiset, not just the checksum).
    fn exact<Q: BenchQueue>(workers: usize, k_pct: u32)
    where
        Q::Thief: PoolThief,
    {
        let name = std::any::type_name::<Q>();
        let (r, sinks) =
            run_with::<Q, Record>(&cfg(workers, k_pct), &Random, Record::default).unwrap();
        let mut taken: Vec<u64> = sinks.into_iter().flat_map(|s| s.0).collect();
        taken.sort_unstable();
        let mut want: Vec<u64> = Vec::new();
        for w in 0..workers {
            let n = taken
                .iter()
                .filter(|&&v| v >> super::super::tally::VALUE_SHIFT == w as u64);
            want.extend(base(w)..base(w) + n.count() as u64);
        }
        assert_eq!(taken, want, "{name}: not every value once");
        let t = r.total();
        assert!(t.rounds >= workers as u64, "{name}");
        assert_eq!(r.workers.len(), workers);
        assert_eq!(
            t.attempts,
            t.rounds * cfg(workers, k_pct).attempts_per_round()
        );
        for w in &r.workers {
            assert_eq!(
                w.attempts,
                w.skipped + w.empty + w.retry + w.stolen,
                "{name}"
            );
        }
        if k_pct == 0 {
            assert_eq!(t.stolen, 0);
        }
        // Timed puts are all consumed by timed gets and steals, or drained.
        assert!(t.gets + t.stolen + r.drained >= t.puts);
    }

    #[test]
    fn every_item_is_taken_exactly_once() {
        exact::<MagpieLifo>(2, 100);
        exact::<MagpieFifo>(3, 50);
        exact::<CrossbeamLifo>(2, 25);
        exact::<CrossbeamFifo>(3, 100);
        exact::<St3Lifo>(2, 100);
        exact::<St3Fifo>(2, 0);
    }

    #[test]
    fn attempts_follow_the_balancing_factor() {
        assert_eq!(cfg(2, 0).attempts_per_round(), 0);
        assert_eq!(cfg(2, 25).attempts_per_round(), 16);
        assert_eq!(cfg(2, 100).attempts_per_round(), 64);
    }

    #[test]
    fn run_impl_rejects_sequential_and_tiny_pools() {
        let seq = imp(Family::Sequential, Flavour::Lifo);
        assert!(run_impl(seq, &cfg(2, 0), &Random).is_err());
        let magpie = imp(Family::Magpie, Flavour::Fifo);
        assert!(run_impl(magpie, &cfg(1, 0), &Random).is_err());
        let r = run_impl(magpie, &cfg(2, 50), &Random).unwrap();
        assert!(Sample::of(&r).ops_per_sec > 0.0 && r.secs > 0.0);
    }
}
