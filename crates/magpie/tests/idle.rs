//! An idle pool must not burn CPU: after its workers park, the whole process uses at
//! most 1% of one core across an idle second. Alone in its own test binary so that no
//! other test's threads run in the process meanwhile. This measures CPU time consumed,
//! not elapsed time, so a busy machine does not make it flaky.

#![cfg(unix)]

use std::time::Duration;

mod common;
use common::fib;

fn process_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid out-pointer for clock_gettime.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[test]
fn idle_pool_uses_at_most_one_percent_of_a_core() {
    let pool = magpie::ThreadPoolBuilder::new()
        .num_threads(4) // more workers than this machine's cores, on purpose
        .build()
        .unwrap();
    // Work first, so workers have been busy and searching before they go idle.
    assert_eq!(pool.install(|| fib(22)), 17_711);
    // Let the bounded search end and every worker park.
    std::thread::sleep(Duration::from_millis(300));
    let before = process_cpu_time();
    std::thread::sleep(Duration::from_secs(1));
    let used = process_cpu_time() - before;
    let stats = pool.stats();
    assert!(
        used <= Duration::from_millis(10),
        "idle pool used {used:?} of CPU in one second (limit 10 ms = 1% of a core)\n{stats}"
    );
    assert!(stats.total().parks >= 4, "every worker parked:\n{stats}");
    // And it still works after sleeping.
    assert_eq!(pool.install(|| fib(15)), 610);
}
