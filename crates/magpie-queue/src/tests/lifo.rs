use rand::{rngs::SmallRng, SeedableRng};

use crate::{lifo::Worker, Config, ConfigError, Steal};

fn small() -> Worker<u32> {
    Worker::with_config(Config::new(2, 2).unwrap())
}

#[test]
fn config_is_validated() {
    assert_eq!(
        Config::new(1, 8),
        Err(ConfigError::TooFewBlocks { blocks: 1 })
    );
    assert_eq!(Config::new(2, 0), Err(ConfigError::EmptyBlocks));
    assert!(matches!(
        Config::new(2, usize::MAX),
        Err(ConfigError::BlockTooLarge { .. })
    ));
    assert_eq!(Config::default().capacity(), 8192);
    assert!(!ConfigError::EmptyBlocks.to_string().is_empty());
}

#[test]
fn owner_is_lifo_and_fills_to_capacity() {
    let w = small();
    assert_eq!(w.capacity(), 4);
    assert!(w.is_empty());
    for i in 0..4 {
        w.push(i).unwrap();
    }
    assert_eq!(w.push(9), Err(9));
    assert_eq!(w.len(), 4);
    for i in (0..4).rev() {
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
        assert_eq!(n, 15, "round {round}");
        for k in (0..n).rev() {
            assert_eq!(w.pop(), Some(round * 100 + k));
        }
        assert_eq!(w.pop(), None);
    }
}

#[test]
fn thieves_take_oldest_from_granted_blocks_only() {
    let w = small();
    let s = w.stealer();
    w.push(0).unwrap();
    w.push(1).unwrap();
    assert_eq!(s.steal(), Steal::Empty, "the top block is the owner's");
    w.push(2).unwrap(); // grants block 0
    assert_eq!(s.steal(), Steal::Success(0));
    assert_eq!(s.steal(), Steal::Success(1));
    assert_eq!(s.steal(), Steal::Empty);
    assert_eq!(w.pop(), Some(2));
    assert_eq!(w.pop(), None);
}

#[test]
fn takeover_leaves_reserved_entries_to_thieves() {
    let w = Worker::with_config(Config::new(2, 4).unwrap());
    let s = w.stealer();
    for i in 0..5 {
        w.push(i).unwrap();
    }
    assert_eq!(s.steal(), Steal::Success(0));
    assert_eq!(w.pop(), Some(4));
    // Top block empty: the owner takes block 0 back from index 1.
    assert_eq!(w.pop(), Some(3));
    assert_eq!(s.steal(), Steal::Empty, "taken over");
    assert_eq!(w.pop(), Some(2));
    assert_eq!(w.pop(), Some(1));
    assert_eq!(w.pop(), None);
    // Fill again: the block is granted again from where thieves stopped.
    for i in 10..17 {
        w.push(i).unwrap();
    }
    assert_eq!(
        w.push(99),
        Err(99),
        "index 0 of the block is consumed but the block is not free"
    );
    assert_eq!(s.steal(), Steal::Success(10));
}

#[test]
fn batch_steal_moves_a_block_with_one_reservation() {
    let victim = Worker::with_config(Config::new(4, 4).unwrap());
    let thief = Worker::with_config(Config::new(4, 4).unwrap());
    let s = victim.stealer();
    for i in 0..9 {
        victim.push(i).unwrap();
    }
    assert_eq!(s.steal_batch_into(&thief, 10), Steal::Success(4));
    assert_eq!(thief.len(), 4);
    assert_eq!(s.steal_batch_and_pop(&thief, 3), Steal::Success(4));
    assert_eq!(thief.len(), 6);
    assert_eq!(thief.pop(), Some(6));
    assert_eq!(s.steal_batch_into(&thief, 10), Steal::Success(1));
    assert_eq!(s.steal_batch_into(&thief, 10), Steal::Empty);
}

#[test]
fn steal_half_takes_half_of_the_oldest_block_rounded_up() {
    let victim = Worker::with_config(Config::new(4, 8).unwrap());
    let s = victim.stealer();
    for i in 0..17 {
        victim.push(i).unwrap();
    }
    // Blocks [0..8) and [8..16) are granted; 16 is in the owner's top block.
    let mut got = Vec::new();
    let mut take = |max| s.steal_half_with(max, |x| got.push(x));
    assert_eq!(take(64), Steal::Success(4)); // 0..4 of 8
    assert_eq!(take(64), Steal::Success(2)); // 4..6 of the 4 left
    assert_eq!(take(1), Steal::Success(1)); // capped by max
    assert_eq!(take(64), Steal::Success(1)); // the lone 7
    assert_eq!(take(64), Steal::Success(4)); // half of the next block
    assert_eq!(got, (0..12).collect::<Vec<_>>());
    let mut all = Vec::new();
    assert_eq!(s.steal_batch_with(64, |x| all.push(x)), Steal::Success(4));
    assert_eq!(all, [12, 13, 14, 15]);
}

#[test]
fn pop_block_spills_oldest_then_push_succeeds() {
    let w = small();
    for i in 0..4 {
        w.push(i).unwrap();
    }
    assert_eq!(w.push(4), Err(4));
    assert_eq!(w.pop_block(), Some(vec![0, 1]));
    w.push(4).unwrap();
    assert_eq!(w.pop_block(), Some(vec![2, 3]));
    assert_eq!(w.pop_block(), Some(vec![4]));
    assert_eq!(w.pop_block(), None);
}

#[test]
fn slow_thief_does_not_make_push_fail() {
    // A reservation that is never released models a thief stalled mid-copy.
    let w = small();
    let s = w.stealer();
    for i in 0..3 {
        w.push(i).unwrap();
    }
    let shared = &*s.shared;
    let mut taken = Vec::new();
    assert!(shared
        .steal::<crate::lifo::Rules>(2, |x| taken.push(x))
        .is_success());
    // Pretend the thief has not finished: undo its release.
    let block = shared.owner_block(w.top.get() - 1);
    block.debug_unrelease(2);
    assert_eq!(w.pop(), Some(2));
    for i in 10..14 {
        w.push(i)
            .expect("the stalled block is swapped for a spare, not reported full");
    }
    assert_eq!(w.len(), 4);
    block.release_stolen(2);
    for i in (10..14).rev() {
        assert_eq!(w.pop(), Some(i));
    }
}

#[test]
fn sample_tracks_occupancy() {
    let w = Worker::with_config(Config::new(8, 8).unwrap());
    let s = w.stealer();
    let mut rng = SmallRng::seed_from_u64(7);
    let hits = |rng: &mut SmallRng| (0..2000).filter(|_| s.sample(rng)).count();
    assert_eq!(hits(&mut rng), 0);
    while w.push(0).is_ok() {}
    let full = hits(&mut rng);
    assert!(full > 1500, "7 of 8 blocks stealable, got {full}/2000");
    for _ in 0..40 {
        let _ = s.steal();
    }
    let partial = hits(&mut rng);
    assert!(partial < full, "{partial} !< {full}");
}

#[test]
fn share_grants_a_partial_top_block_oldest_first() {
    let w = Worker::with_config(Config::new(4, 8).unwrap());
    let s = w.stealer();
    for i in 0..3 {
        w.push(i).unwrap();
    }
    assert_eq!(s.steal(), Steal::Empty);
    assert_eq!(s.stealable_len(), 0);
    assert!(w.share());
    assert_eq!(s.stealable_len(), 3);
    assert_eq!(s.steal(), Steal::Success(0));
    w.push(10).unwrap(); // a fresh top block
    assert_eq!(w.pop(), Some(10));
    assert_eq!(w.pop(), Some(2)); // takes the shared block back
    assert_eq!(s.steal(), Steal::Empty);
    assert_eq!(w.pop(), Some(1));
    assert_eq!(w.pop(), None);
    assert!(!w.share(), "nothing to share");
}

#[test]
fn share_after_takeover_and_repeatedly_keeps_every_item_once() {
    let w = Worker::with_config(Config::new(4, 8).unwrap());
    let s = w.stealer();
    let mut seen = Vec::new();
    let mut next = 0;
    for round in 0..50 {
        for _ in 0..(round % 7 + 1) {
            if w.push(next).is_ok() {
                next += 1;
            } else {
                seen.extend(w.pop_block().unwrap());
            }
        }
        if round % 3 == 0 {
            w.share();
        }
        if let Steal::Success(v) = s.steal() {
            seen.push(v);
        }
        if round % 2 == 0 {
            seen.extend(w.pop());
        }
    }
    while let Some(v) = w.pop() {
        seen.push(v);
    }
    while let Steal::Success(v) = s.steal() {
        seen.push(v);
    }
    seen.sort_unstable();
    assert_eq!(seen, (0..next).collect::<Vec<_>>());
}

#[test]
fn share_drops_nothing_twice() {
    let w = Worker::with_config(Config::new(2, 4).unwrap());
    for i in 0..3 {
        w.push(Box::new(i)).unwrap();
    }
    assert!(w.share());
    w.push(Box::new(9)).unwrap();
    assert!(!w.share() || w.len() == 1, "second block may not be free");
    drop(w); // Miri checks the boxes are freed exactly once
}

/// A shared block whose items thieves then take completely is released for reuse: the
/// slots `share` skipped (below the moved items) are never reserved, so the block must
/// not wait for them. Before this was accounted, every such block became a spare that
/// never came free: the spare list grew by one per shared block and `advance` scanned
/// all of it (a fifth of a worker's time in a nested `par_iter`).
#[test]
fn shared_blocks_stolen_empty_are_reused_not_parked() {
    let w = Worker::with_config(Config::new(4, 8).unwrap());
    let s = w.stealer();
    for round in 0..200u32 {
        for i in 0..(round % 5 + 1) {
            w.push(round * 10 + i).unwrap();
        }
        assert!(w.share());
        while let Steal::Success(_) = s.steal() {}
        assert_eq!(w.pop(), None);
    }
    assert_eq!(
        w.shared.spare_count(),
        0,
        "no thief is reading: nothing to park"
    );
}

/// A share that finds no free next block changes nothing: the owner still pops every
/// item, down through the blocks below.
#[test]
fn failed_share_leaves_every_item_poppable() {
    let w = Worker::with_config(Config::new(2, 4).unwrap());
    for i in 0..6 {
        w.push(i).unwrap(); // block 0 full and granted, two items on top
    }
    assert!(!w.share(), "block 0 still holds items: no free next block");
    assert_eq!(w.len(), 6);
    let popped: Vec<u32> = std::iter::from_fn(|| w.pop()).collect();
    assert_eq!(popped, [5, 4, 3, 2, 1, 0]);
}

/// A block shared half-empty and taken back unstolen leaves its lower slots skipped;
/// they must not hide the full block under it from the owner.
#[test]
fn pop_reaches_below_a_shared_block_taken_back() {
    let w = Worker::with_config(Config::new(4, 4).unwrap());
    let s = w.stealer();
    for round in 0..50u32 {
        for i in 0..5 {
            w.push(round * 10 + i).unwrap(); // a full block (granted), one item above
        }
        assert!(w.share()); // that item moves to its block's last slot
        let popped: Vec<u32> = std::iter::from_fn(|| w.pop()).collect();
        let want: Vec<u32> = (0..5).rev().map(|i| round * 10 + i).collect();
        assert_eq!(popped, want, "round {round}");
        assert_eq!(s.steal(), Steal::Empty);
        assert_eq!(w.len(), 0);
    }
    assert_eq!(w.shared.spare_count(), 0);
}

/// Random single-threaded operations (no thief is ever mid-copy): no spare is ever
/// parked, `len` is exact, and the owner's `pop` finds an item whenever one is left.
#[test]
fn random_operations_keep_blocks_accounted_and_reachable() {
    use rand::Rng as _;
    // Under Miri (slow, and looking for undefined behaviour rather than coverage) a
    // few sequences per geometry.
    let (seeds, steps) = if cfg!(miri) { (2, 60) } else { (150, 300) };
    for (blocks, entries) in [(2, 1), (2, 2), (2, 3), (3, 4), (4, 5), (2, 8)] {
        for seed in 0..seeds {
            let w = Worker::with_config(Config::new(blocks, entries).unwrap());
            let s = w.stealer();
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut live = std::collections::BTreeSet::new();
            let mut next = 0u32;
            for step in 0..steps {
                let what = format!("{blocks}x{entries}, seed {seed}, step {step}");
                match rng.random_range(0..16) {
                    0..=5 => {
                        if w.push(next).is_ok() {
                            live.insert(next);
                        }
                        next += 1;
                    }
                    6..=8 => match w.pop() {
                        Some(x) => assert!(live.remove(&x), "{what}"),
                        None => assert!(live.is_empty(), "pop found nothing of {live:?}: {what}"),
                    },
                    9 | 10 => {
                        w.share();
                    }
                    11 | 12 => {
                        if let Steal::Success(x) = s.steal() {
                            assert!(live.remove(&x), "{what}");
                        }
                    }
                    13 => {
                        let _ = s.steal_half_with(8, |x| assert!(live.remove(&x)));
                    }
                    14 => {
                        for x in w.pop_block().unwrap_or_default() {
                            assert!(live.remove(&x), "{what}");
                        }
                    }
                    _ => {
                        let _ = s.steal_batch_with(2, |x| assert!(live.remove(&x)));
                    }
                }
                assert_eq!(w.shared.spare_count(), 0, "{what}");
                assert_eq!(w.len(), live.len(), "{what}");
            }
        }
    }
}
