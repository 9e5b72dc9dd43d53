//! Items are dropped exactly once whoever ends up holding them.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use crate::{fifo, lifo, Config};

/// Counts its drops in a shared counter.
#[derive(Debug)]
pub(crate) struct Counted(pub(crate) Arc<AtomicUsize>, pub(crate) u32);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Relaxed);
    }
}

fn cfg() -> Config {
    Config::new(3, 4).unwrap()
}

#[test]
fn lifo_drops_everything_left_in_every_state() {
    let drops = Arc::new(AtomicUsize::new(0));
    let w = lifo::Worker::with_config(cfg());
    let s = w.stealer();
    for i in 0..11 {
        w.push(Counted(drops.clone(), i)).unwrap();
    }
    drop(s.steal()); // from a granted block
    drop(w.pop()); // from the top block
    assert_eq!(drops.load(Relaxed), 2);
    drop(w);
    assert_eq!(drops.load(Relaxed), 2, "a stealer still holds the queue");
    drop(s);
    assert_eq!(drops.load(Relaxed), 11);
}

#[test]
fn lifo_drops_after_takeover_and_wrap() {
    let drops = Arc::new(AtomicUsize::new(0));
    let w = lifo::Worker::with_config(cfg());
    let s = w.stealer();
    let mut created = 0;
    for round in 0..4u32 {
        loop {
            created += 1;
            if w.push(Counted(drops.clone(), round)).is_err() {
                break; // the rejected item comes back and is dropped here
            }
        }
        drop(s.steal());
        for _ in 0..5 {
            drop(w.pop());
        }
    }
    let consumed = drops.load(Relaxed);
    let left = w.len();
    drop((w, s));
    assert_eq!(
        drops.load(Relaxed),
        created,
        "consumed {consumed}, left {left}"
    );
}

#[test]
fn fifo_drops_everything_left_in_every_state() {
    let drops = Arc::new(AtomicUsize::new(0));
    let w = fifo::Worker::with_config(cfg());
    let s = w.stealer();
    let mut created = 0;
    for round in 0..4u32 {
        loop {
            created += 1;
            if w.push(Counted(drops.clone(), round)).is_err() {
                break;
            }
        }
        drop(s.steal());
        for _ in 0..5 {
            drop(w.pop());
        }
    }
    drop(s);
    drop(w);
    assert_eq!(drops.load(Relaxed), created);
}

#[test]
fn pop_block_hands_over_ownership() {
    let drops = Arc::new(AtomicUsize::new(0));
    let w = fifo::Worker::with_config(cfg());
    for i in 0..6 {
        w.push(Counted(drops.clone(), i)).unwrap();
    }
    let block = w.pop_block().unwrap();
    assert_eq!(
        block.iter().map(|c| c.1).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    drop(w);
    assert_eq!(drops.load(Relaxed), 2);
    drop(block);
    assert_eq!(drops.load(Relaxed), 6);
}

/// Counts its drops; the one with id 1 panics in its `Drop`.
#[derive(Debug)]
struct Bomb(Arc<AtomicUsize>, u32);

impl Drop for Bomb {
    fn drop(&mut self) {
        self.0.fetch_add(1, Relaxed);
        assert_ne!(self.1, 1, "drop bomb");
    }
}

/// Dropping a queue whose items include one with a panicking `Drop` drops every other
/// item and frees every block (as `Vec` does); the panic reaches the caller.
#[test]
fn an_item_whose_drop_panics_does_not_leak_the_rest() {
    for fifo_flavour in [false, true] {
        let drops = Arc::new(AtomicUsize::new(0));
        // Items in granted blocks, before and after the bomb, and in the owner's block.
        let n = 11;
        let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if fifo_flavour {
                let w = fifo::Worker::with_config(cfg());
                for i in 0..n {
                    w.push(Bomb(drops.clone(), i)).unwrap();
                }
                drop(w);
            } else {
                let w = lifo::Worker::with_config(cfg());
                for i in 0..n {
                    w.push(Bomb(drops.clone(), i)).unwrap();
                }
                drop(w);
            }
        }));
        assert!(dropped.is_err(), "the item's panic reaches the caller");
        assert_eq!(
            drops.load(Relaxed),
            n as usize,
            "items after the panicking one leaked (fifo: {fifo_flavour})"
        );
    }
}

/// The owner pops down through a block it took back and leaves it below as it retreats
/// further: that block's items were all popped, so dropping the queue must not drop
/// them again (the retreat records the block it leaves as empty).
#[test]
fn lifo_drops_nothing_twice_after_retreating_through_a_taken_back_block() {
    let drops = Arc::new(AtomicUsize::new(0));
    let w = lifo::Worker::with_config(Config::new(4, 2).unwrap());
    for i in 0..5 {
        w.push(Counted(drops.clone(), i)).unwrap(); // two full granted blocks, one item on top
    }
    for want in (1..5).rev() {
        // 4 from the top; 3 and 2 from the block taken back; 1 from the one below
        assert_eq!(w.pop().map(|c| c.1), Some(want));
    }
    assert_eq!(drops.load(Relaxed), 4);
    drop(w);
    assert_eq!(drops.load(Relaxed), 5, "each item dropped exactly once");
}
