//! Stress: one owner and three thieves on one queue, every item seen exactly once.
//!
//! The owner pushes unique items with random geometry and a random mix of push, pop,
//! spill (`pop_block` when full) and, for LIFO, `share` of its top block; thieves use every steal flavour, batch steals into
//! their own queue included. `MAGPIE_STRESS_ITEMS` sets the item count per geometry
//! (default 250 000 × 8 geometries × 2 flavours = 4 M items); `MAGPIE_STRESS_SEED` fixes
//! the seed (printed on failure).
#![cfg(not(loom))]

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

use magpie_queue::{fifo, lifo, Config, Steal};
use rand::{rngs::SmallRng, Rng, SeedableRng};

fn items() -> u64 {
    std::env::var("MAGPIE_STRESS_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(250_000)
}

fn seed() -> u64 {
    std::env::var("MAGPIE_STRESS_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        })
}

/// Marks `item` seen; panics on a duplicate.
fn see(seen: &[AtomicU8], item: u64, who: &str) {
    let prev = seen[item as usize].fetch_add(1, Relaxed);
    assert_eq!(prev, 0, "item {item} seen twice (second time by {who})");
}

fn check_all_seen(seen: &[AtomicU8], geometry: Config, seed: u64) {
    let missing: Vec<usize> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.load(Relaxed) != 1)
        .map(|(i, _)| i)
        .take(5)
        .collect();
    assert!(
        missing.is_empty(),
        "items never seen: {missing:?} (geometry {geometry:?}, seed {seed})"
    );
}

/// What the generic driver needs from a flavour.
trait Queue: Send + 'static {
    type Stealer: Clone + Send + Sync + 'static;
    fn make(cfg: Config) -> Self;
    fn stealer(&self) -> Self::Stealer;
    fn push(&self, x: u64) -> Result<(), u64>;
    fn pop(&self) -> Option<u64>;
    fn pop_block(&self) -> Option<Vec<u64>>;
    /// LIFO: lets thieves have the owner's top block (`lifo::Worker::share`); FIFO
    /// thieves can always reach every block, so there it does nothing.
    fn share(&self);
    /// One steal of a kind chosen by `choice`, into `local` when batching.
    fn steal(s: &Self::Stealer, local: &Self, choice: u32, rng: &mut SmallRng) -> Steal<u64>;
}

macro_rules! impl_queue {
    ($m:ident, $random:expr, $share:expr) => {
        impl Queue for $m::Worker<u64> {
            type Stealer = $m::Stealer<u64>;
            fn make(cfg: Config) -> Self {
                $m::Worker::with_config(cfg)
            }
            fn stealer(&self) -> Self::Stealer {
                $m::Worker::stealer(self)
            }
            fn push(&self, x: u64) -> Result<(), u64> {
                $m::Worker::push(self, x)
            }
            fn pop(&self) -> Option<u64> {
                $m::Worker::pop(self)
            }
            fn pop_block(&self) -> Option<Vec<u64>> {
                $m::Worker::pop_block(self)
            }
            fn share(&self) {
                $share(self)
            }
            fn steal(
                s: &Self::Stealer,
                local: &Self,
                choice: u32,
                rng: &mut SmallRng,
            ) -> Steal<u64> {
                match choice % 4 {
                    0 => s.steal(),
                    1 => s.steal_batch_and_pop(local, rng.random_range(1..64)),
                    2 => s
                        .steal_batch_into(local, rng.random_range(1..64))
                        .map(|_| u64::MAX),
                    _ => $random(s, rng),
                }
            }
        }
    };
}

impl_queue!(
    lifo,
    |s: &lifo::Stealer<u64>, _rng: &mut SmallRng| s.steal(),
    |w: &lifo::Worker<u64>| {
        w.share();
    }
);
impl_queue!(
    fifo,
    |s: &fifo::Stealer<u64>, rng: &mut SmallRng| s.steal_random(rng),
    |_: &fifo::Worker<u64>| {}
);

fn run<Q: Queue>() {
    let seed = seed();
    let mut rng = SmallRng::seed_from_u64(seed);
    let n = items();
    for _ in 0..8 {
        let geometry = Config::new(rng.random_range(2..12), rng.random_range(1..80)).unwrap();
        let seen: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        let done = AtomicBool::new(false);
        let owner = Q::make(geometry);
        let stealer = owner.stealer();
        std::thread::scope(|scope| {
            for t in 0..3u64 {
                let (stealer, seen, done) = (stealer.clone(), &seen, &done);
                let thief_seed = seed ^ (t + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                scope.spawn(move || {
                    let mut rng = SmallRng::seed_from_u64(thief_seed);
                    let local = Q::make(Config::new(4, 32).unwrap());
                    loop {
                        let finished = done.load(Relaxed);
                        match Q::steal(&stealer, &local, rng.random(), &mut rng) {
                            Steal::Success(u64::MAX) => {}
                            Steal::Success(x) => see(seen, x, "thief"),
                            Steal::Retry => {}
                            Steal::Empty if finished => break,
                            Steal::Empty => std::hint::spin_loop(),
                        }
                        while let Some(x) = local.pop() {
                            see(seen, x, "thief's local queue");
                        }
                    }
                });
            }
            let mut next = 0u64;
            while next < n {
                let r: u32 = rng.random_range(0..100);
                if r < 60 {
                    match owner.push(next) {
                        Ok(()) => next += 1,
                        Err(_) if r % 2 == 0 => {
                            for x in owner.pop_block().unwrap_or_default() {
                                see(&seen, x, "owner spill");
                            }
                        }
                        Err(_) => {}
                    }
                } else if r < 63 {
                    owner.share();
                } else if let Some(x) = owner.pop() {
                    see(&seen, x, "owner");
                }
            }
            // Leave some items for the thieves, then drain the rest.
            while let Some(x) = owner.pop() {
                see(&seen, x, "owner drain");
                if rng.random_ratio(1, 3) {
                    std::thread::yield_now();
                }
            }
            done.store(true, Relaxed);
        });
        // Thieves stopped after seeing Empty with `done` set; whatever is still in
        // granted blocks was stealable: take it now.
        loop {
            match Q::steal(&stealer, &owner, 0, &mut rng) {
                Steal::Success(x) => see(&seen, x, "final steal"),
                Steal::Retry => continue,
                Steal::Empty => break,
            }
        }
        check_all_seen(&seen, geometry, seed);
    }
}

#[test]
fn lifo_one_owner_three_thieves_every_item_once() {
    run::<lifo::Worker<u64>>();
}

#[test]
fn fifo_one_owner_three_thieves_every_item_once() {
    run::<fifo::Worker<u64>>();
}
