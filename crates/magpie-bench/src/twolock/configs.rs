//! The implementations under test: the paper's configurations of the two-lock queue
//! (section V, each optimization alone, then combined), magpie's default, and the peers.

use std::time::Duration;

use magpie_queue::twolock::{
    HybridLock, Options, PopLock, Publication, StdLock, TasLock, TicketLock, TwoLockQueue,
};

use super::peers::{Bounded, Inject, MutexDeque, Seg};
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
    /// `DEFAULT` with the hybrid push lock the paper advises (IV.D) instead of the TAS
    /// lock: shows what the push-lock choice is worth.
    PushHybrid,
    /// `DEFAULT` with per-slot publication stamps instead of the push index.
    SlotStamps,
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
    pub const ALL: [Impl; 19] = [
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
        Impl::PushHybrid,
        Impl::SlotStamps,
        Impl::MutexDeque,
        Impl::SegQueue,
        Impl::Injector,
        Impl::ArrayQueue,
    ];

    /// The reduced set run at the P, K points outside the full matrix: magpie's default,
    /// the paper's final combinations and their base (optimal orders), the default with
    /// the paper's push lock or with slot stamps, and the peers.
    pub const REDUCED: [Impl; 10] = [
        Impl::OptimalOrder,
        Impl::FinalTas,
        Impl::FinalTicket,
        Impl::Default,
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
            Impl::PushHybrid => "push-hybrid",
            Impl::SlotStamps => "slot-stamps",
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
                "TwoLockQueue::new(): Options::default() (Bounded(16)), 128B, pop=hybrid push=TAS"
            }
            Impl::PushHybrid => "DEFAULT with push=hybrid (the paper's push-lock advice)",
            Impl::SlotStamps => "DEFAULT with Publication::SlotStamps (per-slot stamps)",
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
            | Impl::PushHybrid
            | Impl::SlotStamps => Group::Final,
            Impl::MutexDeque | Impl::SegQueue | Impl::Injector | Impl::ArrayQueue => Group::Peer,
        }
    }

    /// Whether it is a configuration of magpie's two-lock queue.
    pub fn is_twolock(self) -> bool {
        self.group() != Group::Peer
    }

    /// One verified run of `n` items with `p` producers and `k` consumers.
    pub fn run(self, p: usize, k: usize, n: u64, cap: Option<Duration>) -> Result<Run, BenchError> {
        let label = self.name();
        let tl = |o| tl_with::<StdLock, 128, StdLock>(o, p, k, n, cap, label);
        let cpi = Options::CACHE_PUSH_INDEX;
        match self {
            Impl::PaperDefault => tl(Options::DEFAULT_CONFIG),
            Impl::OptimalOrder => tl(Options::OPTIMAL_MEMORY_ORDER),
            Impl::CachePushIndex => tl(cpi),
            Impl::Node64 => tl_with::<StdLock, 64, StdLock>(cpi, p, k, n, cap, label),
            Impl::Node1024 => tl_with::<StdLock, 1024, StdLock>(cpi, p, k, n, cap, label),
            Impl::LimitedCache => tl(Options::LIMITED_NODE_CACHE),
            Impl::UnlimitedCache => tl(Options::UNLIMITED_NODE_CACHE),
            Impl::PopTas => tl_with::<TasLock, 128, StdLock>(cpi, p, k, n, cap, label),
            Impl::PopTicket => tl_with::<TicketLock, 128, StdLock>(cpi, p, k, n, cap, label),
            Impl::PopHybrid => tl_with::<HybridLock, 128, StdLock>(cpi, p, k, n, cap, label),
            Impl::FinalTas => {
                tl_with::<TasLock, 128, StdLock>(Options::UNLIMITED_NODE_CACHE, p, k, n, cap, label)
            }
            Impl::FinalTicket => tl_with::<TicketLock, 128, StdLock>(
                Options::UNLIMITED_NODE_CACHE,
                p,
                k,
                n,
                cap,
                label,
            ),
            Impl::Default => run::throughput(TwoLockQueue::<u64>::new, p, k, n, cap, label),
            Impl::PushHybrid => {
                tl_with::<HybridLock, 128, HybridLock>(Options::default(), p, k, n, cap, label)
            }
            Impl::SlotStamps => tl_with::<HybridLock, 128, TasLock>(
                Options {
                    publication: Publication::SlotStamps,
                    ..Options::default()
                },
                p,
                k,
                n,
                cap,
                label,
            ),
            Impl::MutexDeque => run::throughput(MutexDeque::new, p, k, n, cap, label),
            Impl::SegQueue => run::throughput(Seg::new, p, k, n, cap, label),
            Impl::Injector => run::throughput(Inject::new, p, k, n, cap, label),
            Impl::ArrayQueue => run::throughput(Bounded::new, p, k, n, cap, label),
        }
    }
}

/// A run of the two-lock queue with pop lock `L`, `NB`-byte nodes, push lock `P`.
fn tl_with<L: PopLock, const NB: usize, P: PopLock>(
    options: Options,
    p: usize,
    k: usize,
    n: u64,
    cap: Option<Duration>,
    label: &str,
) -> Result<Run, BenchError> {
    run::throughput(
        || TwoLockQueue::<u64, L, NB, P>::with_options(options),
        p,
        k,
        n,
        cap,
        label,
    )
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
