//! loom models of the BWoS queues (run: `RUSTFLAGS="--cfg loom" cargo test --release
//! -p magpie-queue --test loom_bwos`).
//!
//! Sizes are shrunk so every edge is reachable: 2 blocks × 2 entries (the paper's
//! verification client, Figure 9) or 2 × 1 for wrap-around. Items are distinct powers of
//! two, so "every item consumed exactly once" is checked by bit arithmetic: no bit seen
//! twice, and the union equals the pushed set.
//!
//! Bounds: loom explores every interleaving with at most N preemptions per execution
//! (and, for each load, every store its C11 model lets it read). N is 3 for every model
//! except the FIFO Figure 9 client, which uses 1: its 12 published pushes give thieves
//! so many stores to read from that N = 1 already takes 3–5 minutes on one thread (LIFO
//! Figure 9 with N = 3: ~10 s; `scripts/test-all.sh` runs it beside the other steps).
//! `LOOM_MAX_PREEMPTIONS` overrides N for all models but one, which says why.
//! `scripts/ordering-audit.sh` reruns the models with one ordering weakened at a time.
#![cfg(loom)]

use loom::sync::atomic::{AtomicU64, Ordering::SeqCst};
use loom::sync::Arc;
use loom::thread;
use magpie_queue::{fifo, lifo, Config, Steal};

fn model(f: impl Fn() + Sync + Send + 'static) {
    model_bounded(3, f)
}

fn model_bounded(preemptions: usize, f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    if builder.preemption_bound.is_none() {
        builder.preemption_bound = Some(preemptions);
    }
    builder.check(f);
}

/// Items already consumed, as a bit set; panics on a duplicate.
#[derive(Default)]
struct Seen(AtomicU64);

impl Seen {
    fn add(&self, item: u64) {
        let before = self.0.fetch_or(item, SeqCst);
        assert_eq!(before & item, 0, "item {item:#x} consumed twice");
    }
    fn get(&self) -> u64 {
        self.0.load(SeqCst)
    }
}

/// The owner/thief operations the models use, for both flavours.
trait Queue: Send + Sized + 'static {
    type Stealer: Clone + Send + Sync + 'static;
    fn make(cfg: Config) -> Self;
    fn stealer(&self) -> Self::Stealer;
    fn push(&self, x: u64) -> Result<(), u64>;
    fn pop(&self) -> Option<u64>;
    fn steal(s: &Self::Stealer) -> Steal<u64>;
    fn steal_batch(s: &Self::Stealer, local: &Self, max: usize) -> Steal<u64>;
}

macro_rules! impl_queue {
    ($m:ident) => {
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
            fn steal(s: &Self::Stealer) -> Steal<u64> {
                s.steal()
            }
            fn steal_batch(s: &Self::Stealer, local: &Self, max: usize) -> Steal<u64> {
                s.steal_batch_and_pop(local, max)
            }
        }
    };
}
impl_queue!(lifo);
impl_queue!(fifo);

/// The owner's side of a model: pushes powers of two, records what it pushed and popped.
struct Owner<Q> {
    q: Q,
    next_bit: u32,
    pushed: u64,
    popped: u64,
}

impl<Q: Queue> Owner<Q> {
    fn new(q: Q) -> Self {
        Self {
            q,
            next_bit: 0,
            pushed: 0,
            popped: 0,
        }
    }
    /// Figure 9's `put`: the item doubles whether or not the push succeeds.
    fn put(&mut self, times: usize) {
        for _ in 0..times {
            let item = 1u64 << self.next_bit;
            self.next_bit += 1;
            if self.q.push(item).is_ok() {
                self.pushed |= item;
            }
        }
    }
    fn get(&mut self, times: usize) {
        for _ in 0..times {
            if let Some(item) = self.q.pop() {
                assert_eq!(self.popped & item, 0, "popped twice");
                assert_ne!(self.pushed & item, 0, "popped an item never pushed");
                self.popped |= item;
            }
        }
    }
    /// Figure 9's T3: after the threads joined, get everything left.
    fn drain_and_check(mut self, stolen: u64) {
        while let Some(item) = self.q.pop() {
            assert_eq!(self.popped & item, 0, "popped twice");
            self.popped |= item;
        }
        assert_eq!(self.popped & stolen, 0, "an item both popped and stolen");
        assert_eq!(self.popped | stolen, self.pushed, "items lost");
    }
}

fn thief<Q: Queue>(s: Q::Stealer, seen: Arc<Seen>, steals: usize) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        for _ in 0..steals {
            if let Steal::Success(item) = Q::steal(&s) {
                seen.add(item);
            }
        }
    })
}

/// The paper's verification client (Figure 9): 2 blocks × 2 entries; the owner runs
/// put×3 get×2 put×4 get×3 put×5 get×4 while thieves steal once and twice; then the
/// owner drains and the sums must match.
fn figure9<Q: Queue>(preemptions: usize) {
    model_bounded(preemptions, || {
        let q = Q::make(Config::new(2, 2).unwrap());
        let seen = Arc::new(Seen::default());
        let t1 = thief::<Q>(q.stealer(), seen.clone(), 1);
        let t2 = thief::<Q>(q.stealer(), seen.clone(), 2);
        let mut owner = Owner::new(q);
        owner.put(3);
        owner.get(2);
        owner.put(4);
        owner.get(3);
        owner.put(5);
        owner.get(4);
        t1.join().unwrap();
        t2.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}

#[test]
fn lifo_figure9_client() {
    figure9::<lifo::Worker<u64>>(3);
}

#[test]
fn fifo_figure9_client() {
    figure9::<fifo::Worker<u64>>(1);
}

/// Wrap-around with one-entry blocks: every push and pop crosses a block, and the
/// owner laps the ring while a thief may still be copying out of a block it needs,
/// which exercises the spare-block swap.
fn wrap_around<Q: Queue>() {
    model(|| {
        let q = Q::make(Config::new(2, 1).unwrap());
        let seen = Arc::new(Seen::default());
        let t = thief::<Q>(q.stealer(), seen.clone(), 2);
        let mut owner = Owner::new(q);
        owner.put(2);
        owner.get(1);
        owner.put(2);
        owner.get(1);
        owner.put(1);
        t.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}

/// LIFO wrap-around: the generic model above never reaches the reuse for LIFO (the
/// push that needs the oldest block again failed in every execution, since a LIFO
/// block comes back only once a thief has taken its item). Here the thief steals until
/// it gets the first item and the owner retries the push that needs that item's block,
/// so every execution reuses it, possibly while the thief is still copying out (then
/// through a spare).
#[test]
fn lifo_wrap_around() {
    model(|| {
        let q = lifo::Worker::<u64>::with_config(Config::new(2, 1).unwrap());
        let seen = Arc::new(Seen::default());
        let (s, seen2) = (q.stealer(), seen.clone());
        let t = thread::spawn(move || {
            loop {
                if let Steal::Success(item) = s.steal() {
                    seen2.add(item);
                    break;
                }
                thread::yield_now();
            }
            if let Steal::Success(item) = s.steal() {
                seen2.add(item);
            }
        });
        let mut owner = Owner::new(q);
        owner.put(2); // the first block is granted when the second item comes
        owner.get(1);
        owner.put(1);
        let item = 1 << owner.next_bit;
        owner.next_bit += 1;
        while owner.q.push(item).is_err() {
            thread::yield_now(); // the first block's item is not stolen yet
        }
        owner.pushed |= item;
        owner.get(1);
        owner.put(1); // needs the second block again: succeeds if its item was stolen
        t.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}

#[test]
fn fifo_wrap_around() {
    wrap_around::<fifo::Worker<u64>>();
}

/// The owner takes a block back (LIFO: pops below its top block; FIFO: the consumer
/// enters a granted block) while a thief is stealing from it.
fn takeover_races_steal<Q: Queue>(push: usize) {
    model(move || {
        let q = Q::make(Config::new(2, 2).unwrap());
        let seen = Arc::new(Seen::default());
        let mut owner = Owner::new(q);
        owner.put(push);
        let t = thief::<Q>(owner.q.stealer(), seen.clone(), 1);
        owner.get(push);
        t.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}

#[test]
fn lifo_takeover_races_steal() {
    // Three pushes grant the first block; popping three takes it back.
    takeover_races_steal::<lifo::Worker<u64>>(3);
}

#[test]
fn fifo_takeover_races_steal() {
    takeover_races_steal::<fifo::Worker<u64>>(2);
}

/// Grant (LIFO) / publish (FIFO) racing a steal: the thief must see the items written
/// before the block was handed over.
fn grant_races_steal<Q: Queue>() {
    model(|| {
        let q = Q::make(Config::new(2, 2).unwrap());
        let seen = Arc::new(Seen::default());
        let t = thief::<Q>(q.stealer(), seen.clone(), 2);
        let mut owner = Owner::new(q);
        owner.put(3);
        t.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}

#[test]
fn lifo_grant_races_steal() {
    grant_races_steal::<lifo::Worker<u64>>();
}

#[test]
fn fifo_grant_races_steal() {
    grant_races_steal::<fifo::Worker<u64>>();
}

/// A batch steal into the thief's own queue races the owner's pops and a refill.
fn batch_steal<Q: Queue>() {
    model(|| {
        let q = Q::make(Config::new(2, 2).unwrap());
        let seen = Arc::new(Seen::default());
        let mut owner = Owner::new(q);
        owner.put(3);
        let s = owner.q.stealer();
        let seen2 = seen.clone();
        let t = thread::spawn(move || {
            let local = Q::make(Config::new(2, 2).unwrap());
            if let Steal::Success(item) = Q::steal_batch(&s, &local, 2) {
                seen2.add(item);
            }
            while let Some(item) = local.pop() {
                seen2.add(item);
            }
        });
        owner.get(2);
        owner.put(2);
        t.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}

#[test]
fn lifo_batch_steal() {
    batch_steal::<lifo::Worker<u64>>();
}

#[test]
fn fifo_batch_steal() {
    batch_steal::<fifo::Worker<u64>>();
}

/// Two thieves reserve entries of the same block while the owner pops towards them.
fn two_thieves_one_block<Q: Queue>(push: usize) {
    model(move || {
        let q = Q::make(Config::new(2, 2).unwrap());
        let seen = Arc::new(Seen::default());
        let mut owner = Owner::new(q);
        owner.put(push);
        let t1 = thief::<Q>(owner.q.stealer(), seen.clone(), 1);
        let t2 = thief::<Q>(owner.q.stealer(), seen.clone(), 1);
        owner.get(1);
        t1.join().unwrap();
        t2.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}

#[test]
fn lifo_two_thieves_one_block() {
    two_thieves_one_block::<lifo::Worker<u64>>(3);
}

#[test]
fn fifo_two_thieves_one_block() {
    two_thieves_one_block::<fifo::Worker<u64>>(2);
}

/// FIFO end hint: two thieves steal while the owner publishes. One thief's b_pos read
/// reaches the other through the block's end hint, which must carry the owner's slot
/// writes with it (FIFO_HINT_STORE / FIFO_HINT_LOAD).
#[test]
fn fifo_end_hint_two_thieves() {
    model(|| {
        let q = fifo::Worker::<u64>::with_config(Config::new(2, 2).unwrap());
        let seen = Arc::new(Seen::default());
        let t1 = thief::<fifo::Worker<u64>>(q.stealer(), seen.clone(), 1);
        let t2 = thief::<fifo::Worker<u64>>(q.stealer(), seen.clone(), 1);
        let mut owner = Owner::new(q);
        owner.put(2);
        t1.join().unwrap();
        t2.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}

/// A shared block comes back for reuse as soon as its one stolen item is copied out:
/// `share` moved the item to the block's last slot, so the slot below it is never
/// reserved and is not waited for. The owner then laps the ring and writes both slots
/// of that block again (or of a spare, if the thief is still copying): the reuse must
/// never overwrite a slot the thief reads, and nothing may be lost or doubled. The
/// thief steals until it succeeds and the owner retries the push that needs the block,
/// so every execution reaches the reuse (forgoing one slot too many fails here with a
/// concurrent read and write of the slot).
#[test]
fn lifo_shared_block_reused_after_its_steal() {
    model(|| {
        let q = lifo::Worker::<u64>::with_config(Config::new(2, 2).unwrap());
        let seen = Arc::new(Seen::default());
        let (s, seen2) = (q.stealer(), seen.clone());
        let t = thread::spawn(move || loop {
            if let Steal::Success(item) = s.steal() {
                seen2.add(item);
                return;
            }
            thread::yield_now();
        });
        let mut owner = Owner::new(q);
        owner.put(1);
        assert!(owner.q.share(), "a free next block exists");
        owner.put(2); // fills the other block
        let item = 1 << 3;
        while owner.q.push(item).is_err() {
            thread::yield_now(); // the shared block is not consumed yet
        }
        owner.pushed |= item;
        owner.next_bit = 4;
        owner.put(1); // the reused block's other slot
        t.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}

/// The owner takes back a block it shared half-empty (unstolen), pops its item and
/// goes on down into the full block under it while a thief steals: the skipped slots
/// must not stop the owner, and nothing may be consumed twice or lost.
#[test]
fn lifo_pop_below_a_shared_block_races_steal() {
    model(|| {
        let q = lifo::Worker::<u64>::with_config(Config::new(3, 2).unwrap());
        let seen = Arc::new(Seen::default());
        let t = thief::<lifo::Worker<u64>>(q.stealer(), seen.clone(), 1);
        let mut owner = Owner::new(q);
        owner.put(3); // a full block, granted, and one item above it
        assert!(owner.q.share(), "a free next block exists");
        owner.get(3);
        t.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}

/// `lifo::Worker::share` grants a partial top block (its items moved to the block's
/// end) while a thief steals and the owner then takes the rest back: the thief must
/// see the moved items, and nothing may be consumed twice or lost.
#[test]
fn lifo_share_races_steal() {
    model(|| {
        let q = lifo::Worker::<u64>::with_config(Config::new(2, 4).unwrap());
        let seen = Arc::new(Seen::default());
        let t = thief::<lifo::Worker<u64>>(q.stealer(), seen.clone(), 2);
        let mut owner = Owner::new(q);
        owner.put(2);
        assert!(owner.q.share(), "a free next block exists");
        owner.get(1);
        owner.put(1);
        owner.get(2);
        t.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}

/// Spins (yielding, as loom needs) until `flag` is set. SeqCst: the waiter synchronises
/// with the setter.
fn wait(flag: &loom::sync::atomic::AtomicBool) {
    while !flag.load(SeqCst) {
        thread::yield_now();
    }
}

/// A thief's cursor must never pass a live block on the strength of a block pointer it
/// loaded for a ring slot from before that slot's current block was installed, when that
/// old block has since been reused in another slot (LIFO, 3 blocks x 1 entry).
///
/// The owner fills positions 3, 4, 5 (items 1, 2, 4). Thief A steals item 1 (position 3)
/// and stalls copying it, so entering position 6 parks that block (B0) and installs a
/// fresh one in slot 0 (item 8). Thief B steals item 2 (position 4) and stalls too; thief
/// M moves the cursor to 5 while position 5 is still the owner's. A finishes and steals
/// item 4 (position 5); entering position 7 then finds B stalled in slot 1's block and
/// installs the released spare B0 there (item 16). M never synchronised with the owner
/// after it entered position 6, so the model lets its ring loads for slot 0 still return
/// B0, whose tag now says 7: M moves the cursor from 5 (exhausted) to 6, loads B0 for
/// slot 0 again and must not take tag 7 for a later incarnation of slot 0. It did, and
/// jumped past position 6: the owner then entered position 8 (item 32), M stole item 16
/// and the owner's drain stopped at the exhausted position 7, so item 8 was lost (and
/// the queue stayed full for good, slot 0 never consumed).
///
/// Preemption bound 0, whatever `LOOM_MAX_PREEMPTIONS` says: the flags order every step
/// (with preemptions the threads' spinning exceeds loom's branch limit), and the failure
/// needs no preemption, only loads that return older stores, which loom explores for
/// every load at any bound. 99 executions, well under a second.
#[test]
fn lifo_cursor_ignores_a_block_reused_in_another_slot() {
    use loom::sync::atomic::{AtomicBool, Ordering::Relaxed};
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(0);
    builder.check(|| {
        let q = lifo::Worker::<u64>::with_config(Config::new(3, 1).unwrap());
        let seen = Arc::new(Seen::default());
        // a_stole / b_stole: A and B hold their reservations; m_moved: M's first steal is
        // done; a_done: A released B0 and stole item 4; m_done: M's stale steal is done;
        // entered_6 / _7 / _8: the owner entered that position.
        let flags: Arc<[AtomicBool; 8]> = Arc::new(Default::default());
        let [a_stole, b_stole, m_moved, a_done, m_done, entered_6, entered_7, entered_8] =
            [0, 1, 2, 3, 4, 5, 6, 7];
        let steal_until = |s: &lifo::Stealer<u64>, mut sink: Box<dyn FnMut(u64) + '_>| loop {
            if s.steal_batch_with(1, &mut *sink).is_success() {
                return;
            }
            thread::yield_now();
        };
        let (s, f, sn) = (q.stealer(), flags.clone(), seen.clone());
        let a = thread::spawn(move || {
            steal_until(
                &s,
                Box::new(|x| {
                    sn.add(x);
                    f[a_stole].store(true, SeqCst);
                    wait(&f[entered_6]); // still copying while the owner enters 6
                }),
            );
            steal_until(&s, Box::new(|x| sn.add(x)));
            f[a_done].store(true, SeqCst);
        });
        let (s, f, sn) = (q.stealer(), flags.clone(), seen.clone());
        let b = thread::spawn(move || {
            wait(&f[a_stole]);
            steal_until(
                &s,
                Box::new(|x| {
                    sn.add(x);
                    f[b_stole].store(true, SeqCst);
                    wait(&f[entered_7]); // still copying while the owner enters 7
                }),
            );
        });
        let (s, f, sn) = (q.stealer(), flags.clone(), seen.clone());
        let m = thread::spawn(move || {
            wait(&f[b_stole]);
            // Position 4 is exhausted and 5 is the owner's: the cursor moves to 5.
            let _ = s.steal_batch_with(1, |x| sn.add(x));
            f[m_moved].store(true, SeqCst);
            // Relaxed: M learns that the owner entered 7 without synchronising with it.
            while !f[entered_7].load(Relaxed) {
                thread::yield_now();
            }
            let _ = s.steal_batch_with(1, |x| sn.add(x));
            f[m_done].store(true, SeqCst);
            wait(&f[entered_8]);
            steal_until(&s, Box::new(|x| sn.add(x)));
        });
        let mut owner = Owner::new(q);
        let put = |owner: &mut Owner<lifo::Worker<u64>>| {
            let bits = owner.pushed;
            owner.put(1);
            assert_ne!(owner.pushed, bits, "the scenario's push failed");
        };
        for _ in 0..3 {
            put(&mut owner); // positions 3, 4, 5
        }
        wait(&flags[a_stole]);
        wait(&flags[m_moved]);
        put(&mut owner); // enters 6: B0 is still being read, so a fresh block
        flags[entered_6].store(true, SeqCst);
        wait(&flags[a_done]);
        put(&mut owner); // enters 7: slot 1's block is being read, B0 is released
        flags[entered_7].store(true, SeqCst);
        wait(&flags[m_done]);
        put(&mut owner); // enters 8
        flags[entered_8].store(true, SeqCst);
        a.join().unwrap();
        b.join().unwrap();
        m.join().unwrap();
        owner.drain_and_check(seen.get());
    });
}
