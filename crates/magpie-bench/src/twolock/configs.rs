//! The implementations under test: the paper's configurations of the two-lock queue
//! (section V, each optimization alone, then combined), magpie's default, and the peers.

use std::time::Duration;

use magpie_queue::twolock::{
    HybridLock, Options, PopLock, Publication, StdLock, TasLock, TicketLock, TwoLockQueue,
    DEFAULT_NODE_BYTES,
};

use super::peers::{Bounded, Inject, MpmcQueue, MutexDeque, Seg};
use super::run::{self, Run};
use crate::BenchError;

/// Which paper figure (series of section V) an implementation belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// V.A, Fig. 1: memory orders and the cached push index.
    MemoryOrder,
    /// V.B, Fig. 2: node size.
    NodeSize,
    /// V.C, Fig. 3: node cache.
    NodeCache,
    /// V.D, Fig. 4: pop lock kind.
    PopLock,
    /// V.E, Fig. 5: final combinations (and magpie's default).
    Final,
    /// Other queues.
    Peer,
}

impl Group {
    /// Short name for tables and CSV.
    pub fn name(self) -> &'static str {
        match self {
            Group::MemoryOrder => "V.A orders",
            Group::NodeSize => "V.B node size",
            Group::NodeCache => "V.C node cache",
            Group::PopLock => "V.D pop lock",
            Group::Final => "V.E final",
            Group::Peer => "peer",
        }
    }
}

/// One implementation (queue type + configuration).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impl {
    /// Paper `DefaultConfig`: SeqCst everywhere, no index cache, no node cache, std locks.
    PaperDefault,
    /// Paper `OptimalMemoryOrderConfig`.
    OptimalOrder,
    /// Paper `CachePushIndexConfig` (128-byte nodes, std locks): the base of V.B–V.D.
    CachePushIndex,
    /// `CachePushIndex` with 64-byte nodes (paper `L2CacheTolerant...`).
    Node64,
    /// `CachePushIndex` with 1024-byte nodes (paper `BigNode...`).
    Node1024,
    /// Paper `LimitedNodeCacheConfig`: 16-node cache, pre-filled.
    LimitedCache,
    /// Paper `UnlimitedNodeCacheConfig`: unbounded cache, pre-filled with 16.
    UnlimitedCache,
    /// `CachePushIndex` with a test-and-set pop lock.
    PopTas,
    /// `CachePushIndex` with a ticket pop lock.
    PopTicket,
    /// `CachePushIndex` with the hybrid spin-then-park pop lock.
    PopHybrid,
    /// Paper V.E final: 128 B, cached push index, unbounded node cache, TAS pop lock.
    FinalTas,
    /// Paper V.E final: as `FinalTas` with a ticket pop lock.
    FinalTicket,
    /// magpie's default `TwoLockQueue::<u64>::new()`.
    Default,
    /// `DEFAULT` with the paper's 128-byte nodes instead of 1024-byte ones: what the
    /// node-size choice is worth once a bounded node cache is in place.
    Default128,
    /// `DEFAULT` with the hybrid push lock the paper advises (IV.D) instead of the TAS
    /// lock: shows what the push-lock choice is worth.
    PushHybrid,
    /// `DEFAULT` with per-slot publication stamps instead of the push index.
    SlotStamps,
    /// `DEFAULT` with the test-and-set pop lock instead of the hybrid one: a faster pop
    /// (its unlock is a plain store), to show what the pop-lock choice is worth.
    DefaultPopTas,
    /// `Mutex<VecDeque<u64>>`.
    MutexDeque,
    /// crossbeam-queue `SegQueue`.
    SegQueue,
    /// crossbeam-deque `Injector`.
    Injector,
    /// crossbeam-queue `ArrayQueue` (bounded, 8192).
    ArrayQueue,
}

impl Impl {
    /// Every implementation, in table order.
    pub const ALL: [Impl; 21] = [
        Impl::PaperDefault,
        Impl::OptimalOrder,
        Impl::CachePushIndex,
        Impl::Node64,
        Impl::Node1024,
        Impl::LimitedCache,
        Impl::UnlimitedCache,
        Impl::PopTas,
        Impl::PopTicket,
        Impl::PopHybrid,
        Impl::FinalTas,
        Impl::FinalTicket,
        Impl::Default,
        Impl::Default128,
        Impl::PushHybrid,
        Impl::SlotStamps,
        Impl::DefaultPopTas,
        Impl::MutexDeque,
        Impl::SegQueue,
        Impl::Injector,
        Impl::ArrayQueue,
    ];

    /// The reduced set run at the P, K points outside the full matrix: magpie's default,
    /// the paper's final combinations and their base (optimal orders), the default with
    /// the paper's node size, push lock or slot stamps, and the peers.
    pub const REDUCED: [Impl; 11] = [
        Impl::OptimalOrder,
        Impl::FinalTas,
        Impl::FinalTicket,
        Impl::Default,
        Impl::Default128,
        Impl::PushHybrid,
        Impl::SlotStamps,
        Impl::MutexDeque,
        Impl::SegQueue,
        Impl::Injector,
        Impl::ArrayQueue,
    ];

    /// Short unique name.
    pub fn name(self) -> &'static str {
        match self {
            Impl::PaperDefault => "paper-default",
            Impl::OptimalOrder => "optimal-order",
            Impl::CachePushIndex => "cache-push-index",
            Impl::Node64 => "node-64B",
            Impl::Node1024 => "node-1024B",
            Impl::LimitedCache => "node-cache-16",
            Impl::UnlimitedCache => "node-cache-unlim",
            Impl::PopTas => "pop-tas",
            Impl::PopTicket => "pop-ticket",
            Impl::PopHybrid => "pop-hybrid",
            Impl::FinalTas => "final-tas",
            Impl::FinalTicket => "final-ticket",
            Impl::Default => "DEFAULT",
            Impl::Default128 => "default-128B",
            Impl::PushHybrid => "push-hybrid",
            Impl::SlotStamps => "slot-stamps",
            Impl::DefaultPopTas => "default-pop-tas",
            Impl::MutexDeque => "Mutex<VecDeque>",
            Impl::SegQueue => "SegQueue",
            Impl::Injector => "Injector",
            Impl::ArrayQueue => "ArrayQueue(8192)",
        }
    }

    /// The configuration spelled out.
    pub fn describe(self) -> &'static str {
        match self {
            Impl::PaperDefault => {
                "SeqCst, no push-index cache, 128B nodes, no node cache, pop=std push=std"
            }
            Impl::OptimalOrder => {
                "acq/rel only on push index, 128B, no node cache, pop=std push=std"
            }
            Impl::CachePushIndex => {
                "optimal orders + cached push index, 128B, no node cache, pop=std push=std"
            }
            Impl::Node64 => "cache-push-index with 64B nodes (8 items)",
            Impl::Node1024 => "cache-push-index with 1024B nodes (128 items)",
            Impl::LimitedCache => "cache-push-index + node cache Bounded(16), 16 pre-allocated",
            Impl::UnlimitedCache => "cache-push-index + node cache Unbounded, 16 pre-allocated",
            Impl::PopTas => "cache-push-index, pop=TAS spinlock push=std",
            Impl::PopTicket => "cache-push-index, pop=ticket spinlock push=std",
            Impl::PopHybrid => "cache-push-index, pop=hybrid spin/park push=std",
            Impl::FinalTas => {
                "cache-push-index + unbounded node cache (16 pre-alloc), 128B, pop=TAS push=std"
            }
            Impl::FinalTicket => {
                "cache-push-index + unbounded node cache (16 pre-alloc), 128B, pop=ticket push=std"
            }
            Impl::Default => {
                "TwoLockQueue::new(): Options::default() (Bounded(16)), 1024B, pop=hybrid push=TAS"
            }
            Impl::Default128 => "DEFAULT with 128B nodes (the paper's best node size)",
            Impl::PushHybrid => "DEFAULT with push=hybrid (the paper's push-lock advice)",
            Impl::SlotStamps => "DEFAULT with Publication::SlotStamps (per-slot stamps)",
            Impl::DefaultPopTas => "DEFAULT with pop=TAS (unlock is a store, not a swap)",
            Impl::MutexDeque => "std::sync::Mutex<VecDeque<u64>>",
            Impl::SegQueue => "crossbeam_queue::SegQueue<u64>",
            Impl::Injector => "crossbeam_deque::Injector<u64>, steal() retried on Retry",
            Impl::ArrayQueue => {
                "crossbeam_queue::ArrayQueue<u64>(8192); producer backs off when full"
            }
        }
    }

    /// Which paper series it belongs to.
    pub fn group(self) -> Group {
        match self {
            Impl::PaperDefault | Impl::OptimalOrder => Group::MemoryOrder,
            Impl::CachePushIndex => Group::MemoryOrder,
            Impl::Node64 | Impl::Node1024 => Group::NodeSize,
            Impl::LimitedCache | Impl::UnlimitedCache => Group::NodeCache,
            Impl::PopTas | Impl::PopTicket | Impl::PopHybrid => Group::PopLock,
            Impl::FinalTas
            | Impl::FinalTicket
            | Impl::Default
            | Impl::Default128
            | Impl::PushHybrid
            | Impl::SlotStamps
            | Impl::DefaultPopTas => Group::Final,
            Impl::MutexDeque | Impl::SegQueue | Impl::Injector | Impl::ArrayQueue => Group::Peer,
        }
    }

    /// Whether it is a configuration of magpie's two-lock queue.
    pub fn is_twolock(self) -> bool {
        self.group() != Group::Peer
    }

    /// One verified run of `n` items with `p` producers and `k` consumers.
    pub fn run(self, p: usize, k: usize, n: u64, cap: Option<Duration>) -> Result<Run, BenchError> {
        self.drive(Throughput {
            producers: p,
            consumers: k,
            items: n,
            cap,
            label: self.name(),
        })
    }

    /// Hands the constructor of this implementation's queue to the driver `d`, which runs
    /// one measured loop on it (one match over the implementations serves every
    /// experiment).
    pub fn drive<D: Driver>(self, d: D) -> Result<Run, BenchError> {
        const NB: usize = DEFAULT_NODE_BYTES;
        let cpi = Options::CACHE_PUSH_INDEX;
        match self {
            Impl::PaperDefault => d.go(std_locks(Options::DEFAULT_CONFIG)),
            Impl::OptimalOrder => d.go(std_locks(Options::OPTIMAL_MEMORY_ORDER)),
            Impl::CachePushIndex => d.go(std_locks(cpi)),
            Impl::Node64 => d.go(tl::<StdLock, 64, StdLock>(cpi)),
            Impl::Node1024 => d.go(tl::<StdLock, 1024, StdLock>(cpi)),
            Impl::LimitedCache => d.go(std_locks(Options::LIMITED_NODE_CACHE)),
            Impl::UnlimitedCache => d.go(std_locks(Options::UNLIMITED_NODE_CACHE)),
            Impl::PopTas => d.go(tl::<TasLock, 128, StdLock>(cpi)),
            Impl::PopTicket => d.go(tl::<TicketLock, 128, StdLock>(cpi)),
            Impl::PopHybrid => d.go(tl::<HybridLock, 128, StdLock>(cpi)),
            Impl::FinalTas => d.go(tl::<TasLock, 128, StdLock>(Options::UNLIMITED_NODE_CACHE)),
            Impl::FinalTicket => d.go(tl::<TicketLock, 128, StdLock>(
                Options::UNLIMITED_NODE_CACHE,
            )),
            Impl::Default => d.go(TwoLockQueue::<u64>::new),
            Impl::Default128 => d.go(tl::<HybridLock, 128, TasLock>(Options::default())),
            Impl::PushHybrid => d.go(tl::<HybridLock, NB, HybridLock>(Options::default())),
            Impl::SlotStamps => d.go(tl::<HybridLock, NB, TasLock>(Options {
                publication: Publication::SlotStamps,
                ..Options::default()
            })),
            Impl::DefaultPopTas => d.go(tl::<TasLock, NB, TasLock>(Options::default())),
            Impl::MutexDeque => d.go(MutexDeque::new),
            Impl::SegQueue => d.go(Seg::new),
            Impl::Injector => d.go(Inject::new),
            Impl::ArrayQueue => d.go(Bounded::new),
        }
    }
}

/// One measured loop, generic over the queue type: [`Impl::drive`] calls [`Driver::go`]
/// with the constructor of the implementation's queue.
pub trait Driver {
    /// Runs the loop on a queue built by `make`.
    fn go<Q: MpmcQueue, F: FnOnce() -> Q>(self, make: F) -> Result<Run, BenchError>;
}

/// The throughput loop ([`run::throughput`]) as a [`Driver`].
struct Throughput<'a> {
    producers: usize,
    consumers: usize,
    items: u64,
    cap: Option<Duration>,
    label: &'a str,
}

impl Driver for Throughput<'_> {
    fn go<Q: MpmcQueue, F: FnOnce() -> Q>(self, make: F) -> Result<Run, BenchError> {
        run::throughput(
            make,
            self.producers,
            self.consumers,
            self.items,
            self.cap,
            self.label,
        )
    }
}

/// Constructor of a two-lock queue with pop lock `L`, `NB`-byte nodes, push lock `P`.
fn tl<L: PopLock, const NB: usize, P: PopLock>(
    options: Options,
) -> impl FnOnce() -> TwoLockQueue<u64, L, NB, P> {
    move || TwoLockQueue::with_options(options)
}

/// Constructor of a two-lock queue with `std` locks on both sides and 128-byte nodes.
fn std_locks(options: Options) -> impl FnOnce() -> TwoLockQueue<u64, StdLock, 128, StdLock> {
    tl(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_unique_and_every_impl_runs() {
        let mut names: Vec<&str> = Impl::ALL.iter().map(|i| i.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Impl::ALL.len());
        for i in Impl::ALL {
            let r = i.run(2, 2, 5_000, None).unwrap();
            assert_eq!(r.items, 5_000, "{}", i.name());
        }
        assert!(Impl::REDUCED.iter().all(|i| Impl::ALL.contains(i)));
    }
}
