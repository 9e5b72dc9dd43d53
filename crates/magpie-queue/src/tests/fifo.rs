use rand::{rngs::SmallRng, SeedableRng};

use crate::{fifo::Worker, Config, Steal};

fn small() -> Worker<u32> {
    Worker::with_config(Config::new(2, 2).unwrap())
}

#[test]
fn owner_is_fifo_and_fills_to_capacity() {
    let w = small();
    for i in 0..4 {
        w.push(i).unwrap();
    }
    assert_eq!(w.push(9), Err(9));
    assert_eq!(w.len(), 4);
    for i in 0..4 {
        assert_eq!(w.pop(), Some(i));
    }
    assert_eq!(w.pop(), None);
    assert!(w.is_empty());
}

#[test]
fn refills_after_draining_many_times() {
    let w = Worker::with_config(Config::new(3, 5).unwrap());
    for round in 0..20u32 {
        let mut n = 0;
        while w.push(round * 100 + n).is_ok() {
            n += 1;
        }
        assert!(n >= 10, "round {round}: only {n} fit");
        for k in 0..n {
            assert_eq!(w.pop(), Some(round * 100 + k));
        }
        assert_eq!(w.pop(), None);
    }
}

#[test]
fn interleaved_push_pop_keeps_order() {
    let w = Worker::with_config(Config::new(4, 3).unwrap());
    let (mut next_in, mut next_out) = (0u32, 0u32);
    for step in 0..500u32 {
        let pushes = step % 5;
        for _ in 0..pushes {
            if w.push(next_in).is_ok() {
                next_in += 1;
            }
        }
        for _ in 0..(step % 4) {
            if let Some(v) = w.pop() {
                assert_eq!(v, next_out);
                next_out += 1;
            }
        }
    }
    while let Some(v) = w.pop() {
        assert_eq!(v, next_out);
        next_out += 1;
    }
    assert_eq!(next_in, next_out);
}

#[test]
fn thieves_steal_from_the_block_being_filled() {
    let w = small();
    let s = w.stealer();
    assert_eq!(s.steal(), Steal::Empty);
    w.push(0).unwrap();
    assert_eq!(s.steal(), Steal::Success(0));
    w.push(1).unwrap();
    w.push(2).unwrap();
    assert_eq!(w.pop(), Some(1), "the consumer takes over the first block");
    assert_eq!(
        s.steal(),
        Steal::Success(2),
        "the thief passes the consumer's block"
    );
    assert_eq!(s.steal(), Steal::Empty);
    assert_eq!(w.pop(), None);
}

#[test]
fn random_steal_and_batches_lose_and_duplicate_nothing() {
    let victim = Worker::with_config(Config::new(4, 4).unwrap());
    let thief = Worker::with_config(Config::new(4, 4).unwrap());
    let s = victim.stealer();
    for i in 0..16 {
        victim.push(i).unwrap();
    }
    let mut rng = SmallRng::seed_from_u64(1);
    let mut got = Vec::new();
    for _ in 0..8 {
        if let Steal::Success(v) = s.steal_random(&mut rng) {
            got.push(v);
        }
    }
    assert!(
        !got.is_empty(),
        "8 random probes of a full queue found nothing"
    );
    if let Steal::Success(v) = s.steal_batch_and_pop(&thief, 3) {
        got.push(v);
        assert!(thief.len() <= 2, "at most max - 1 pushed");
    }
    if let Steal::Success(v) = s.steal_batch_random_and_pop(&thief, 16, &mut rng) {
        got.push(v);
    }
    got.extend(std::iter::from_fn(|| thief.pop()));
    got.extend(std::iter::from_fn(|| s.steal().success()));
    got.extend(std::iter::from_fn(|| victim.pop()));
    got.sort_unstable();
    assert_eq!(got, (0..16).collect::<Vec<_>>());
}

#[test]
fn slow_thief_does_not_make_push_fail() {
    let w = Worker::with_config(Config::new(3, 2).unwrap());
    let s = w.stealer();
    for i in 0..4 {
        w.push(i).unwrap();
    }
    let shared = &*s.shared;
    let mut taken = Vec::new();
    assert!(shared
        .steal::<crate::fifo::Rules>(2, |x| taken.push(x))
        .is_success());
    assert_eq!(taken, vec![0, 1]);
    let first = shared.owner_block(shared.blocks());
    first.debug_unrelease(2);
    assert_eq!(w.pop(), Some(2));
    assert_eq!(w.pop(), Some(3));
    for i in 10..14 {
        w.push(i)
            .expect("the stalled block is swapped for a spare, not reported full");
    }
    first.release_stolen(2);
    for i in 10..14 {
        assert_eq!(w.pop(), Some(i));
    }
}

#[test]
fn partly_stolen_blocks_are_reused_in_place() {
    // Thieves take part of each block, the owner the rest: once every steal is
    // finished, each block must count as released at its next reuse, so no spare is
    // ever parked or allocated (a wrong release target parks one per block).
    let w = Worker::with_config(Config::new(3, 4).unwrap());
    let s = w.stealer();
    let mut got = Vec::new();
    for round in 0..10u32 {
        let mut n = 0;
        while w.push(round * 100 + n).is_ok() {
            n += 1;
        }
        got.extend(std::iter::from_fn(|| s.steal().success()).take(round as usize % 4 + 1));
        got.extend(std::iter::from_fn(|| w.pop()));
    }
    assert_eq!(s.shared.spare_count(), 0);
    assert_eq!(got.len(), 10 * 12);
}

#[test]
fn sample_tracks_occupancy() {
    let w = Worker::with_config(Config::new(8, 8).unwrap());
    let s = w.stealer();
    let mut rng = SmallRng::seed_from_u64(3);
    let hits = |rng: &mut SmallRng| (0..2000).filter(|_| s.sample(rng)).count();
    assert_eq!(hits(&mut rng), 0);
    while w.push(0).is_ok() {}
    assert!(hits(&mut rng) > 1600);
    while w.pop().is_some() {}
    assert_eq!(hits(&mut rng), 0);
}

#[test]
fn a_cursor_left_behind_for_many_laps_catches_up_at_once() {
    let w = Worker::with_config(Config::new(3, 2).unwrap());
    let s = w.stealer();
    for round in 0..200u32 {
        for i in 0..5 {
            w.push(round * 10 + i).unwrap();
        }
        for _ in 0..5 {
            assert!(w.pop().is_some());
        }
    }
    w.push(7).unwrap();
    w.push(8).unwrap();
    w.push(9).unwrap();
    // ~400 blocks behind: one call must find the items, not report Retry for each lap.
    assert!(matches!(s.steal(), Steal::Success(7..=9)));
}

#[test]
fn a_lagging_cursor_over_two_blocks_steals_without_a_spurious_retry() {
    // Two stale-tag jumps, a step past the consumer's block, then the steal: one more
    // than a lap of iterations (Retry, with no race at all, before).
    let w = Worker::with_config(Config::new(2, 1).unwrap());
    let s = w.stealer();
    for i in 0..2 {
        w.push(i).unwrap();
        assert_eq!(w.pop(), Some(i));
    }
    w.push(7).unwrap();
    w.push(8).unwrap();
    // 7 may sit in the consumer's block (then the owner's); 8 is stealable.
    assert!(matches!(s.steal(), Steal::Success(7 | 8)));
}

#[test]
fn the_owner_keeps_a_cursor_nobody_moves_close_behind() {
    // Tags compare modulo 2^32: a cursor 2^31 blocks behind would see every tag as
    // earlier and thieves would find nothing. No thief moves it here; the owner does
    // (every CURSOR_CHECK_EVERY positions, past CURSOR_MAX_LAG: 4 and 8 in tests).
    let w = Worker::with_config(Config::new(2, 1).unwrap());
    let s = w.stealer();
    for i in 0..if cfg!(miri) { 300 } else { 10_000 } {
        w.push(i).unwrap();
        assert_eq!(w.pop(), Some(i));
        let lag = (i as u64 + 2).saturating_sub(w.shared.cursor_position());
        assert!(lag <= 8 + 4 + 2, "cursor {} behind at {i}", lag);
    }
    w.push(7).unwrap();
    assert_eq!(s.steal(), Steal::Success(7));
}

#[test]
fn a_panicking_steal_sink_drops_the_rest_and_frees_the_block() {
    use super::drops::Counted;
    use std::panic::{self, AssertUnwindSafe};
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    use std::sync::Arc;

    let drops = Arc::new(AtomicUsize::new(0));
    let w = Worker::with_config(Config::new(2, 4).unwrap());
    let s = w.stealer();
    for i in 0..4 {
        w.push(Counted(drops.clone(), i)).unwrap();
    }
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        s.steal_batch_with(4, |item| {
            assert_ne!(item.1, 1, "a sink that panics on item 1");
        })
    }));
    assert!(outcome.is_err());
    // Items 0 and 1 dropped by the sink, 2 and 3 by the steal on its way out.
    assert_eq!(drops.load(Relaxed), 4);
    // The block was released: cycling items through it never parks it as a spare.
    for i in 4..200 {
        w.push(Counted(drops.clone(), i)).unwrap();
        drop(w.pop());
    }
    assert_eq!(w.shared.spare_count(), 0);
    drop((w, s));
    assert_eq!(drops.load(Relaxed), 200);
}
