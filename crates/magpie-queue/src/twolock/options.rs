//! Run-time switches for the paper's optimizations (IV.A memory orders and cached push
//! index, IV.B node cache); node size and locks are type parameters of the queue.

use crate::sync::Ordering;

/// Which memory orders the queue's atomics use (paper IV.A / V.A).
///
/// Whatever the mode, the queue is correct; the weaker mode only drops the orderings the
/// algorithm does not need.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MemoryOrderMode {
    /// Every load and store of the queue's shared indices, node pointers and node links is
    /// `SeqCst` — what C++ `load()`/`store()` do without an explicit order. The paper's
    /// baseline `DefaultConfig`. (The locks and the node cache always use their own
    /// minimal orders; push always keeps a private copy of its index, in both modes.)
    SeqCst,
    /// Each side accesses its own index and node pointers `Relaxed` (only its lock
    /// holder writes them; the lock orders the holders); the only cross-side edge is the
    /// producer's `Release` store of the push index and the consumer's `Acquire` load of
    /// it. The paper's `OptimalMemoryOrderConfig`.
    #[default]
    Optimal,
}

/// How pop learns which slots push has filled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Publication {
    /// The paper's: push stores the shared push index after writing a slot (`Release`)
    /// and pop reads it (`Acquire`), or its cached copy ([`Options::cache_push_index`]).
    #[default]
    PushIndex,
    /// Each slot carries a stamp: push stores the slot's queue index into it after the
    /// item (`Release`), and pop takes slot `h` once its stamp reads `h` (`Acquire`). Pop
    /// never reads a line that only producers write, so a consumer that has caught up with
    /// the producers waits for one cache line per item (the slot's) instead of two (the
    /// push index's and the slot's). Costs 8 bytes per slot; `cache_push_index` has no
    /// effect. Not in the paper; see the module docs for how it measured.
    SlotStamps,
}

/// What pop does with a node it has emptied, and where push gets a new one (paper IV.B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeCache {
    /// Pop frees the node, push allocates: the allocator is called inside both critical
    /// sections.
    Disabled,
    /// Keep at most this many emptied nodes for reuse; pop frees the surplus.
    Bounded(usize),
    /// Keep every emptied node until the queue is dropped: after the peak, push never
    /// allocates (but the memory is never returned while the queue lives).
    Unbounded,
}

impl NodeCache {
    /// The paper's bounded cache size (V.C).
    pub const DEFAULT_LIMIT: usize = 16;

    /// The cache's capacity in nodes: `0` when disabled, `usize::MAX` when unbounded.
    pub const fn limit(self) -> usize {
        match self {
            NodeCache::Disabled => 0,
            NodeCache::Bounded(n) => n,
            NodeCache::Unbounded => usize::MAX,
        }
    }
}

impl Default for NodeCache {
    fn default() -> Self {
        NodeCache::Bounded(Self::DEFAULT_LIMIT)
    }
}

/// Run-time options of a [`TwoLockQueue`](super::TwoLockQueue).
///
/// Build one with a struct literal and `..Options::default()`, or start from one of the
/// paper's configurations (the associated constants). Checks on these fields are
/// predictable branches on read-only data, taken once per operation (or per node).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Memory orders of the queue's atomics. Default: [`MemoryOrderMode::Optimal`].
    pub memory_order: MemoryOrderMode,
    /// How pushed slots become visible to pop. Default: [`Publication::PushIndex`].
    pub publication: Publication,
    /// Pop keeps a private copy of the push index and re-reads the shared one (with
    /// `Acquire`) only when it has consumed everything up to its copy. No effect with
    /// [`Publication::SlotStamps`]. Default: `true`.
    pub cache_push_index: bool,
    /// Reuse of emptied nodes. Default: `Bounded(16)`.
    pub node_cache: NodeCache,
    /// Nodes allocated into the cache at construction (the paper pre-fills 16). Capped by
    /// the cache limit; ignored when the cache is disabled. Default: `0`.
    pub prealloc_nodes: usize,
}

impl Options {
    /// The paper's `DefaultConfig`: `SeqCst` everywhere, no index caching, no node cache.
    pub const DEFAULT_CONFIG: Options = Options {
        memory_order: MemoryOrderMode::SeqCst,
        publication: Publication::PushIndex,
        cache_push_index: false,
        node_cache: NodeCache::Disabled,
        prealloc_nodes: 0,
    };
    /// The paper's `OptimalMemoryOrderConfig`: minimal orders only.
    pub const OPTIMAL_MEMORY_ORDER: Options = Options {
        memory_order: MemoryOrderMode::Optimal,
        ..Self::DEFAULT_CONFIG
    };
    /// The paper's `CachePushIndexConfig`: minimal orders plus the cached push index.
    pub const CACHE_PUSH_INDEX: Options = Options {
        cache_push_index: true,
        ..Self::OPTIMAL_MEMORY_ORDER
    };
    /// The paper's `LimitedNodeCacheConfig`: `CACHE_PUSH_INDEX` plus a 16-node cache,
    /// pre-filled with 16 nodes.
    pub const LIMITED_NODE_CACHE: Options = Options {
        node_cache: NodeCache::Bounded(NodeCache::DEFAULT_LIMIT),
        prealloc_nodes: NodeCache::DEFAULT_LIMIT,
        ..Self::CACHE_PUSH_INDEX
    };
    /// The paper's `UnlimitedNodeCacheConfig`: `CACHE_PUSH_INDEX` plus an unbounded cache,
    /// pre-filled with 16 nodes.
    pub const UNLIMITED_NODE_CACHE: Options = Options {
        node_cache: NodeCache::Unbounded,
        prealloc_nodes: NodeCache::DEFAULT_LIMIT,
        ..Self::CACHE_PUSH_INDEX
    };
}

impl Default for Options {
    /// Every optimization on, bounded cache: optimal orders, cached push index,
    /// `Bounded(16)`, no pre-allocation.
    fn default() -> Self {
        Options {
            memory_order: MemoryOrderMode::Optimal,
            publication: Publication::PushIndex,
            cache_push_index: true,
            node_cache: NodeCache::default(),
            prealloc_nodes: 0,
        }
    }
}

/// The concrete orderings a [`MemoryOrderMode`] selects, resolved once at construction.
///
/// They are run-time values, so an atomic access given one compiles to a dispatch on the
/// ordering. The hot paths therefore compare a queue's orders with [`Orders::DEFAULT`]
/// once and then run a copy of their body with that constant, whose accesses compile to
/// plain instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Orders {
    /// A side reading its own index or node pointer (written only under its own lock).
    pub(super) own_load: Ordering,
    /// A side writing its own node pointer or a node's `next` link.
    pub(super) own_store: Ordering,
    /// Push publishing the push index or a slot's stamp (Release or stronger: the slot
    /// write comes before it).
    pub(super) publish: Ordering,
    /// Pop reading the push index or a stamp (Acquire or stronger: pairs with `publish`).
    pub(super) observe: Ordering,
    /// Push linking a new node: Release with stamps (pop reads a fresh node's stamps
    /// after following the link), else as `own_store` (the push index orders it).
    pub(super) link_store: Ordering,
    /// Pop following a link before it knows the next slot is full (stamps only); pairs
    /// with `link_store`.
    pub(super) link_load: Ordering,
    /// Pop storing its index (read by `len`/`is_empty` only).
    pub(super) pop_store: Ordering,
}

impl Orders {
    /// The orders of [`Options::default()`].
    pub(super) const DEFAULT: Orders =
        Orders::new(MemoryOrderMode::Optimal, Publication::PushIndex);
    /// Optimal orders with [`Publication::SlotStamps`].
    pub(super) const OPTIMAL_STAMPS: Orders =
        Orders::new(MemoryOrderMode::Optimal, Publication::SlotStamps);

    pub(super) const fn new(mode: MemoryOrderMode, publication: Publication) -> Self {
        let stamps = matches!(publication, Publication::SlotStamps);
        match mode {
            MemoryOrderMode::SeqCst => Orders {
                own_load: Ordering::SeqCst,
                own_store: Ordering::SeqCst,
                publish: Ordering::SeqCst,
                observe: Ordering::SeqCst,
                link_store: Ordering::SeqCst,
                link_load: Ordering::SeqCst,
                pop_store: Ordering::SeqCst,
            },
            MemoryOrderMode::Optimal => Orders {
                own_load: Ordering::Relaxed,
                own_store: Ordering::Relaxed,
                publish: Ordering::Release,
                observe: Ordering::Acquire,
                link_store: if stamps {
                    Ordering::Release
                } else {
                    Ordering::Relaxed
                },
                link_load: if stamps {
                    Ordering::Acquire
                } else {
                    Ordering::Relaxed
                },
                pop_store: Ordering::Relaxed,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_configs_differ_in_one_knob_each() {
        assert_eq!(
            Options::DEFAULT_CONFIG.memory_order,
            MemoryOrderMode::SeqCst
        );
        assert_eq!(
            Options::OPTIMAL_MEMORY_ORDER,
            Options {
                memory_order: MemoryOrderMode::Optimal,
                ..Options::DEFAULT_CONFIG
            }
        );
        const { assert!(Options::CACHE_PUSH_INDEX.cache_push_index) };
        assert_eq!(Options::LIMITED_NODE_CACHE.node_cache.limit(), 16);
        assert_eq!(Options::UNLIMITED_NODE_CACHE.node_cache.limit(), usize::MAX);
        assert_eq!(NodeCache::Disabled.limit(), 0);
        assert_eq!(Options::default().node_cache, NodeCache::Bounded(16));
        let d = Options::default();
        assert_eq!(Orders::new(d.memory_order, d.publication), Orders::DEFAULT);
    }
}
