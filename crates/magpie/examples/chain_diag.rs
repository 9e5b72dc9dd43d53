//! Diagnostics for the spawn chain (issue 21): per run, the time and what the workers
//! did (steals, parks, shares). `cargo run --release -p magpie --example chain_diag -- [chain|flat] [runs]`
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

fn chain<'s>(s: &magpie::Scope<'s>, i: u64, n: u64, sum: &'s AtomicU64) {
    s.spawn(move |s| {
        sum.fetch_add(i, Ordering::AcqRel);
        if i < n {
            chain(s, i + 1, n, sum);
        }
    });
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "chain".into());
    let runs: usize = args.next().map_or(11, |s| s.parse().unwrap());
    let n = 1_000_000u64;
    let pool = magpie::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut prev = pool.stats();
    let settle: u64 = args.next().map_or(20, |s| s.parse().unwrap());
    for _ in 0..runs {
        std::thread::sleep(std::time::Duration::from_millis(settle));
        let sum = AtomicU64::new(0);
        let t = Instant::now();
        pool.install(|| {
            magpie::scope(|s| {
                if mode == "chain" {
                    chain(s, 1, n, &sum);
                } else {
                    for i in 1..=n {
                        let sum = &sum;
                        s.spawn(move |_| {
                            sum.fetch_add(i, Ordering::AcqRel);
                        });
                    }
                }
            })
        });
        let ms = t.elapsed().as_secs_f64() * 1e3;
        assert_eq!(sum.load(Ordering::Relaxed), n * (n + 1) / 2);
        let now = pool.stats();
        let d = |f: fn(&magpie::WorkerStats) -> u64| -> Vec<u64> {
            now.workers
                .iter()
                .zip(&prev.workers)
                .map(|(a, b)| f(a) - f(b))
                .collect()
        };
        println!(
            "{ms:8.1} ms tasks {:?} steals {:?} attempts {:?} shares {:?} parks {:?} wakes {:?}",
            d(|w| w.tasks_run),
            d(|w| w.steals),
            d(|w| w.steal_attempts),
            d(|w| w.shares),
            d(|w| w.parks),
            d(|w| w.wakes)
        );
        prev = now;
    }
    // The pool must sleep once the work stops: CPU time over the next second.
    let cpu0 = cpu_secs();
    std::thread::sleep(std::time::Duration::from_secs(1));
    let now = pool.stats();
    println!(
        "idle after the last run: {:.2} % of a core over 1 s; parks {:?}",
        100.0 * (cpu_secs() - cpu0),
        now.workers
            .iter()
            .zip(&prev.workers)
            .map(|(a, b)| a.parks - b.parks)
            .collect::<Vec<_>>()
    );
}

/// CPU time of this process so far, in seconds.
fn cpu_secs() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid clock id and a pointer to a live timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}
