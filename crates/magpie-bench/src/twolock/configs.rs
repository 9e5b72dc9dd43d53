//! The implementations under test: the paper's configurations of the two-lock queue
//! (section V, each optimization alone, then combined), magpie's default, and the peers.

use std::time::Duration;

use magpie_queue::twolock::{
    HybridLock, Options, PopLock, Publication, StdLock, TasLock, TicketLock, TwoLockQueue,
    DEFAULT_NODE_BYTES,
};

use crossbeam_deque::Injector;
use crossbeam_queue::SegQueue;

use super::peers::{bounded, MpmcQueue, MutexDeque};
use super::run::{self, Run, Side};
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

/// Declares [`Impl`] with, per implementation, its name, paper series and description.
macro_rules! impls {
    ($($v:ident, $name:literal, $group:ident, $describe:literal;)*) => {
        /// One implementation (queue type + configuration).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Impl {
            $(#[doc = concat!("`", $describe, "`")] $v,)*
        }

        impl Impl {
            /// Every implementation, in table order.
            pub const ALL: [Impl; [$($name),*].len()] = [$(Impl::$v),*];

            /// Short unique name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Impl::$v => $name,)*
                }
            }

            /// The configuration spelled out.
            pub fn describe(self) -> &'static str {
                match self {
                    $(Impl::$v => $describe,)*
                }
            }

            /// Which paper series it belongs to.
            pub fn group(self) -> Group {
                match self {
                    $(Impl::$v => Group::$group,)*
                }
            }
        }
    };
}

impls! {
    PaperDefault, "paper-default", MemoryOrder,
        "SeqCst, no push-index cache, 128B nodes, no node cache, pop=std push=std";
    OptimalOrder, "optimal-order", MemoryOrder,
        "acq/rel only on push index, 128B, no node cache, pop=std push=std";
    CachePushIndex, "cache-push-index", MemoryOrder,
        "optimal orders + cached push index, 128B, no node cache, pop=std push=std";
    Node64, "node-64B", NodeSize,
        "cache-push-index with 64B nodes (8 items)";
    Node1024, "node-1024B", NodeSize,
        "cache-push-index with 1024B nodes (128 items)";
    LimitedCache, "node-cache-16", NodeCache,
        "cache-push-index + node cache Bounded(16), 16 pre-allocated";
    UnlimitedCache, "node-cache-unlim", NodeCache,
        "cache-push-index + node cache Unbounded, 16 pre-allocated";
    PopTas, "pop-tas", PopLock,
        "cache-push-index, pop=TAS spinlock push=std";
    PopTicket, "pop-ticket", PopLock,
        "cache-push-index, pop=ticket spinlock push=std";
    PopHybrid, "pop-hybrid", PopLock,
        "cache-push-index, pop=hybrid spin/park push=std";
    FinalTas, "final-tas", Final,
        "cache-push-index + unbounded node cache (16 pre-alloc), 128B, pop=TAS push=std";
    FinalTicket, "final-ticket", Final,
        "cache-push-index + unbounded node cache (16 pre-alloc), 128B, pop=ticket push=std";
    Default, "DEFAULT", Final,
        "TwoLockQueue::new(): Options::default() (Bounded(16)), 1024B, pop=hybrid push=TAS";
    Default128, "default-128B", Final,
        "DEFAULT with 128B nodes (the paper's best node size)";
    PushHybrid, "push-hybrid", Final,
        "DEFAULT with push=hybrid (the paper's push-lock advice)";
    SlotStamps, "slot-stamps", Final,
        "DEFAULT with Publication::SlotStamps (per-slot stamps)";
    DefaultPopTas, "default-pop-tas", Final,
        "DEFAULT with pop=TAS (unlock is a store, not a swap)";
    MutexDeque, "Mutex<VecDeque>", Peer,
        "std::sync::Mutex<VecDeque<u64>>";
    SegQueue, "SegQueue", Peer,
        "crossbeam_queue::SegQueue<u64>";
    Injector, "Injector", Peer,
        "crossbeam_deque::Injector<u64>, steal() retried on Retry";
    ArrayQueue, "ArrayQueue(8192)", Peer,
        "crossbeam_queue::ArrayQueue<u64>(8192); producer backs off when full";
}

impl Impl {
    /// The set of the overview figure: magpie's default, the paper's final combinations
    /// and their base (optimal orders), the default with the paper's node size, push lock
    /// or slot stamps, and the peers.
    pub const OVERVIEW: [Impl; 11] = [
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

    /// Whether it is a configuration of magpie's two-lock queue.
    pub fn is_twolock(self) -> bool {
        self.group() != Group::Peer
    }

    /// One verified run of `work` on a fresh queue of this implementation (one match
    /// over the implementations serves every experiment).
    pub fn run(self, work: Workload) -> Result<Run, BenchError> {
        const NB: usize = DEFAULT_NODE_BYTES;
        let cpi = Options::CACHE_PUSH_INDEX;
        let label = self.name();
        match self {
            Impl::PaperDefault => work.run(std_locks(Options::DEFAULT_CONFIG), label),
            Impl::OptimalOrder => work.run(std_locks(Options::OPTIMAL_MEMORY_ORDER), label),
            Impl::CachePushIndex => work.run(std_locks(cpi), label),
            Impl::Node64 => work.run(tl::<StdLock, 64, StdLock>(cpi), label),
            Impl::Node1024 => work.run(tl::<StdLock, 1024, StdLock>(cpi), label),
            Impl::LimitedCache => work.run(std_locks(Options::LIMITED_NODE_CACHE), label),
            Impl::UnlimitedCache => work.run(std_locks(Options::UNLIMITED_NODE_CACHE), label),
            Impl::PopTas => work.run(tl::<TasLock, 128, StdLock>(cpi), label),
            Impl::PopTicket => work.run(tl::<TicketLock, 128, StdLock>(cpi), label),
            Impl::PopHybrid => work.run(tl::<HybridLock, 128, StdLock>(cpi), label),
            Impl::FinalTas => work.run(final_tas(), label),
            Impl::FinalTicket => work.run(
                tl::<TicketLock, 128, StdLock>(Options::UNLIMITED_NODE_CACHE),
                label,
            ),
            Impl::Default => work.run(TwoLockQueue::<u64>::new, label),
            Impl::Default128 => work.run(tl::<HybridLock, 128, TasLock>(Options::default()), label),
            Impl::PushHybrid => {
                work.run(tl::<HybridLock, NB, HybridLock>(Options::default()), label)
            }
            Impl::SlotStamps => work.run(
                tl::<HybridLock, NB, TasLock>(Options {
                    publication: Publication::SlotStamps,
                    ..Options::default()
                }),
                label,
            ),
            Impl::DefaultPopTas => work.run(tl::<TasLock, NB, TasLock>(Options::default()), label),
            Impl::MutexDeque => work.run(MutexDeque::default, label),
            Impl::SegQueue => work.run(SegQueue::new, label),
            Impl::Injector => work.run(Injector::new, label),
            Impl::ArrayQueue => work.run(bounded, label),
        }
    }
}

/// What one run does with a fresh queue.
#[derive(Clone, Copy, Debug)]
pub enum Workload {
    /// [`run::throughput`]: producers and consumers at once, with a time cap.
    Throughput {
        /// Producer threads.
        producers: usize,
        /// Consumer threads.
        consumers: usize,
        /// Items pushed in all.
        items: u64,
        /// Time cap of the run (see [`run::Limits::cap`]).
        cap: Option<Duration>,
    },
    /// [`run::one_side`]: only producers or only consumers.
    OneSide {
        /// Push or pop.
        side: Side,
        /// Threads of that side.
        threads: usize,
        /// Items pushed or popped in all.
        items: u64,
    },
}

impl Workload {
    /// Runs this workload on the queue `make` builds; `label` names the run in errors.
    fn run<Q: MpmcQueue>(self, make: impl FnOnce() -> Q, label: &str) -> Result<Run, BenchError> {
        match self {
            Workload::Throughput {
                producers,
                consumers,
                items,
                cap,
            } => run::throughput(make, producers, consumers, items, cap, label),
            Workload::OneSide {
                side,
                threads,
                items,
            } => run::one_side(make, side, threads, items, label),
        }
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

/// Constructor of [`Impl::FinalTas`] (also used by the drain experiment).
pub fn final_tas() -> impl FnOnce() -> TwoLockQueue<u64, TasLock, 128, StdLock> {
    tl(Options::UNLIMITED_NODE_CACHE)
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
            let work = Workload::Throughput {
                producers: 2,
                consumers: 2,
                items: 5_000,
                cap: None,
            };
            let r = i.run(work).unwrap();
            assert_eq!(r.items, 5_000, "{}", i.name());
        }
        assert!(Impl::OVERVIEW.iter().all(|i| Impl::ALL.contains(i)));
    }
}
