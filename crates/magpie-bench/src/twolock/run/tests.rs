use super::*;
use crate::twolock::peers::{bounded, MutexDeque};
use magpie_queue::twolock::TwoLockQueue;

#[test]
fn shares_cover_all_values_once() {
    for producers in 1..=5 {
        let mut next = 1;
        for p in 0..producers {
            let (lo, hi) = share(1000, producers, p);
            assert_eq!(lo, next);
            next = hi;
        }
        assert_eq!(next, 1001);
    }
}

#[test]
fn throughput_runs_verify() {
    let r = throughput(TwoLockQueue::<u64>::new, 2, 2, 20_000, None, "twolock").unwrap();
    assert_eq!(r.items, 20_000);
    assert!(r.secs > 0.0);
    throughput(MutexDeque::default, 3, 1, 10_000, None, "mutex").unwrap();
    throughput(bounded, 1, 3, 50_000, None, "bounded").unwrap();
}

/// A `Mutex<VecDeque>` with a fault, to check that the benchmark fails (or caps) rather
/// than hangs or passes.
enum Fault {
    /// Drops every 1000th item.
    Lose,
    /// Delivers every 1000th item twice.
    Duplicate,
    /// Sleeps before every push: slow enough to hit a short cap.
    Slow,
}

struct Faulty(Fault, MutexDeque);

impl Faulty {
    fn new(fault: Fault) -> impl FnOnce() -> Faulty {
        move || Faulty(fault, MutexDeque::default())
    }
}

impl MpmcQueue for Faulty {
    fn try_push(&self, v: u64) -> Result<(), u64> {
        match self.0 {
            Fault::Lose if v % 1000 == 0 => return Ok(()),
            Fault::Duplicate if v % 1000 == 0 => self.1.try_push(v)?,
            Fault::Slow => thread::sleep(Duration::from_micros(20)),
            _ => {}
        }
        self.1.try_push(v)
    }

    fn try_pop(&self) -> Option<u64> {
        self.1.try_pop()
    }
}

#[test]
fn lost_items_fail_loudly() {
    let err = throughput_with(
        Faulty::new(Fault::Lose),
        2,
        2,
        5_000,
        "lossy",
        Limits {
            stall: Duration::from_millis(300),
            cap: None,
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("ITEMS LOST"), "{err}");
}

#[test]
fn duplicated_items_fail_loudly() {
    let err = throughput(Faulty::new(Fault::Duplicate), 1, 1, 5_000, None, "dup")
        .unwrap_err()
        .to_string();
    assert!(err.contains("DUPLICATED"), "{err}");
}

#[test]
fn capped_runs_are_truncated_and_verified() {
    let r = throughput(
        Faulty::new(Fault::Slow),
        2,
        2,
        1_000_000,
        Some(Duration::from_millis(100)),
        "slow",
    )
    .unwrap();
    assert!(r.truncated);
    assert!(r.items > 0 && r.items < 1_000_000, "{}", r.items);
    let r = throughput(
        MutexDeque::default,
        2,
        2,
        10_000,
        Some(Duration::from_secs(20)),
        "m",
    )
    .unwrap();
    assert!(!r.truncated);
    assert_eq!(r.items, 10_000);
}

#[test]
fn one_side_runs_verify() {
    for side in [Side::Push, Side::Pop] {
        for threads in [1, 2] {
            let r = one_side(TwoLockQueue::<u64>::new, side, threads, 20_000, "tl").unwrap();
            assert_eq!(r.items, 20_000);
            one_side(MutexDeque::default, side, threads, 5_000, "mutex").unwrap();
        }
    }
    // A bounded queue that cannot hold N is an error, not a hang.
    for side in [Side::Push, Side::Pop] {
        let err = one_side(bounded, side, 1, 1_000_000, "bounded").unwrap_err();
        assert!(err.to_string().contains("cannot hold"), "{err}");
    }
    let err = one_side(Faulty::new(Fault::Lose), Side::Push, 2, 5_000, "lossy")
        .unwrap_err()
        .to_string();
    assert!(err.contains("ITEMS LOST"), "{err}");
}

#[test]
fn drain_modes_verify() {
    for mode in [DrainMode::Batch, DrainMode::Single] {
        for prefill in [true, false] {
            let r = drain(TwoLockQueue::<u64>::new, 10_000, mode, prefill, "drain").unwrap();
            assert_eq!(r.items, 10_000);
        }
    }
}
