//! The worker queues: a BWoS LIFO or FIFO queue of jobs, chosen when the pool is built.
//!
//! One enum per handle keeps the pool non-generic; the flavour never changes after
//! build, so the `match` on the hot path is a perfectly predicted branch.

use magpie_queue::{fifo, lifo, Config, Steal};

use crate::job::JobRef;
use crate::Rng;

/// The order a worker runs its own queue in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QueueFlavour {
    /// Newest first (fork-join: `join` pops its second half back at once). The default.
    #[default]
    Lifo,
    /// Oldest first (fair scheduling of spawned tasks, like an event loop). Meant for
    /// spawn-style work. A `join` in a FIFO pool works, but a worker waiting for its
    /// second half runs its queue's older jobs first; to keep the stack bounded, a
    /// worker with eight pending pushed joins runs further joins inline, so fork-join
    /// parallelism comes from those oldest, biggest jobs.
    Fifo,
}

/// How much a thief takes from a victim in one steal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StealAmount {
    /// Half of the jobs in the victim's oldest shared block, rounded up (the default):
    /// a lone pending job — in fork-join, the biggest subtree — is taken alone, while
    /// a block filled by a loop of spawns goes over half a block per steal. One job
    /// per steal made a thief that kept up with such a loop pay a cross-core steal per
    /// tiny task (1 M spawns from one scope: 110–150 ms against 17–22 ms).
    #[default]
    Half,
    /// One job.
    One,
    /// Half a block of jobs.
    HalfBlock,
    /// A whole block of jobs.
    Block,
}

impl StealAmount {
    /// Most jobs one steal takes.
    pub(crate) fn items(self, entries: usize) -> usize {
        match self {
            StealAmount::One => 1,
            StealAmount::Half => entries.div_ceil(2),
            StealAmount::HalfBlock => (entries / 2).max(1),
            StealAmount::Block => entries,
        }
    }
}

pub(crate) enum LocalQueue {
    Lifo(lifo::Worker<JobRef>),
    Fifo(fifo::Worker<JobRef>),
}

pub(crate) enum QueueStealer {
    Lifo(lifo::Stealer<JobRef>),
    Fifo(fifo::Stealer<JobRef>),
}

impl LocalQueue {
    pub(crate) fn new(flavour: QueueFlavour, config: Config) -> Self {
        match flavour {
            QueueFlavour::Lifo => LocalQueue::Lifo(lifo::Worker::with_config(config)),
            QueueFlavour::Fifo => LocalQueue::Fifo(fifo::Worker::with_config(config)),
        }
    }

    pub(crate) fn stealer(&self) -> QueueStealer {
        match self {
            LocalQueue::Lifo(w) => QueueStealer::Lifo(w.stealer()),
            LocalQueue::Fifo(w) => QueueStealer::Fifo(w.stealer()),
        }
    }

    #[inline]
    pub(crate) fn push(&self, job: JobRef) -> Result<(), JobRef> {
        match self {
            LocalQueue::Lifo(w) => w.push(job),
            LocalQueue::Fifo(w) => w.push(job),
        }
    }

    #[inline]
    pub(crate) fn pop(&self) -> Option<JobRef> {
        match self {
            LocalQueue::Lifo(w) => w.pop(),
            LocalQueue::Fifo(w) => w.pop(),
        }
    }

    /// The oldest block's jobs, to spill to the injector.
    pub(crate) fn pop_block(&self) -> Option<Vec<JobRef>> {
        match self {
            LocalQueue::Lifo(w) => w.pop_block(),
            LocalQueue::Fifo(w) => w.pop_block(),
        }
    }

    /// [`pop_block`](Self::pop_block) into a reused buffer (appended); whether anything
    /// was taken.
    pub(crate) fn pop_block_into(&self, out: &mut Vec<JobRef>) -> bool {
        match self {
            LocalQueue::Lifo(w) => w.pop_block_into(out),
            LocalQueue::Fifo(w) => match w.pop_block() {
                Some(v) => {
                    out.extend(v);
                    true
                }
                None => false,
            },
        }
    }

    /// LIFO: grant the private top block to thieves (see `lifo::Worker::share`).
    /// FIFO has no private block to grant; the caller spills instead.
    pub(crate) fn share(&self) -> bool {
        match self {
            LocalQueue::Lifo(w) => w.share(),
            LocalQueue::Fifo(_) => false,
        }
    }

    /// Whether the owner holds no private (unstealable) job: always true for FIFO,
    /// whose pushes are published at once.
    #[inline]
    pub(crate) fn private_is_empty(&self) -> bool {
        match self {
            LocalQueue::Lifo(w) => w.private_len() == 0,
            LocalQueue::Fifo(_) => true,
        }
    }

    /// Jobs in the owner's private block (FIFO: none, its pushes are published at once).
    #[inline]
    pub(crate) fn private_len(&self) -> usize {
        match self {
            LocalQueue::Lifo(w) => w.private_len(),
            LocalQueue::Fifo(_) => 0,
        }
    }

    /// Whether thieves may find something of ours already (cheap for LIFO: one load).
    pub(crate) fn granted_hint(&self) -> bool {
        match self {
            LocalQueue::Lifo(w) => w.granted_may_have_items(),
            LocalQueue::Fifo(w) => !w.is_empty(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        match self {
            LocalQueue::Lifo(w) => w.is_empty(),
            LocalQueue::Fifo(w) => w.is_empty(),
        }
    }
}

impl QueueStealer {
    /// Steals what `amount` allows (blocks of `entries` jobs) into `out`, oldest first;
    /// returns how many.
    ///
    /// The thief stores them itself rather than through `steal_batch_into`, whose
    /// amount is capped by the room in the thief's current block: a LIFO top block
    /// left near its end by a takeover, then emptied, has room for one, and every batch
    /// steal then took a single job (1 M spawns after a tree walk: 6.7× slower).
    pub(crate) fn steal_some(
        &self,
        amount: StealAmount,
        entries: usize,
        out: &mut Vec<JobRef>,
    ) -> Steal<usize> {
        let max = amount.items(entries);
        let sink = |job| out.push(job);
        match (self, amount) {
            (QueueStealer::Lifo(s), StealAmount::Half) => s.steal_half_with(max, sink),
            (QueueStealer::Lifo(s), _) => s.steal_batch_with(max, sink),
            (QueueStealer::Fifo(s), StealAmount::Half) => s.steal_half_with(max, sink),
            (QueueStealer::Fifo(s), _) => s.steal_batch_with(max, sink),
        }
    }

    pub(crate) fn sample(&self, rng: &mut Rng) -> bool {
        match self {
            QueueStealer::Lifo(s) => s.sample(rng),
            QueueStealer::Fifo(s) => s.sample(rng),
        }
    }

    pub(crate) fn stealable_len(&self) -> usize {
        match self {
            QueueStealer::Lifo(s) => s.stealable_len(),
            QueueStealer::Fifo(s) => s.stealable_len(),
        }
    }
}
