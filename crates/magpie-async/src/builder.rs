//! [`Builder`]: worker count, victim policy, run-queue geometry and steal batch.

use std::sync::Arc;

use magpie::policy::{Random, VictimPolicy};
use magpie_queue::Config;

use crate::handle::Handle;
use crate::run_queue::RunQueue;
use crate::runtime::Runtime;
use crate::scheduler::Shared;

/// Default run-queue geometry: 32 blocks of 32 tasks (1,024 slots).
///
/// Small blocks matter for an async runtime: a FIFO BWoS thief cannot take from the
/// block its owner is consuming, so the block size bounds how much work can be stuck
/// behind a busy worker. Many blocks matter for a server: a task that overflows the
/// local queue waits in the injector, which a busy worker looks at only once every
/// 31 tasks while the I/O wake-ups it dispatches keep refilling its local queue. With
/// tokio's 256 slots, hyper under 1,000 wrk connections had a p99 latency of 33–93 ms
/// (tokio: 21–47 ms); with 1,024 slots, 10–16 ms, at the same requests/s.
pub const DEFAULT_QUEUE: Config = match Config::new(32, 32) {
    Ok(config) => config,
    Err(_) => panic!("valid geometry"),
};

/// Configures and builds a [`Runtime`].
///
/// ```
/// let rt = magpie_async::Builder::new().worker_threads(2).build().unwrap();
/// assert_eq!(rt.block_on(rt.spawn(async { 1 + 1 })).unwrap(), 2);
/// ```
#[derive(Debug)]
pub struct Builder {
    workers: usize,
    policy: Box<dyn VictimPolicy>,
    queue: Config,
    steal_batch: Option<usize>,
    thread_name: String,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// Defaults: one worker per available core, the `random` victim policy (magpie's
    /// default), [`DEFAULT_QUEUE`], steal batch = one whole block.
    pub fn new() -> Self {
        Self {
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            policy: Box::new(Random),
            queue: DEFAULT_QUEUE,
            steal_batch: None,
            thread_name: "magpie-async".into(),
        }
    }

    /// Number of worker threads (at least 1).
    pub fn worker_threads(mut self, n: usize) -> Self {
        self.workers = n.max(1);
        self
    }

    /// How an idle worker picks the worker to steal from: any of magpie's
    /// [`VictimPolicy`]s (see `magpie::policy::by_name`).
    pub fn victim_policy(mut self, policy: impl VictimPolicy) -> Self {
        self.policy = Box::new(policy);
        self
    }

    /// Like [`victim_policy`](Self::victim_policy), for a boxed policy.
    pub fn victim_policy_boxed(mut self, policy: Box<dyn VictimPolicy>) -> Self {
        self.policy = policy;
        self
    }

    /// Geometry of every worker's BWoS run queue.
    pub fn queue_config(mut self, config: Config) -> Self {
        self.queue = config;
        self
    }

    /// Most tasks one steal takes (it never takes more than one block). Default: the
    /// block size, i.e. the whole stealable part of a block, as the BWoS paper
    /// configured tokio (§6.3.2).
    pub fn steal_batch(mut self, n: usize) -> Self {
        self.steal_batch = Some(n.max(1));
        self
    }

    /// Prefix of the worker threads' names (`{prefix}-{index}`).
    pub fn thread_name(mut self, prefix: impl Into<String>) -> Self {
        self.thread_name = prefix.into();
        self
    }

    /// Starts the workers.
    pub fn build(self) -> std::io::Result<Runtime> {
        let (queues, stealers): (Vec<_>, Vec<_>) =
            (0..self.workers).map(|_| RunQueue::new(self.queue)).unzip();
        let steal_batch = self.steal_batch.unwrap_or(self.queue.entries_per_block());
        let driver = Arc::new(crate::driver::Driver::new()?);
        let shared = Arc::new(Shared::new(
            stealers,
            self.policy,
            steal_batch,
            Some(driver),
        ));
        let handle = Handle::from_shared(shared.clone());
        let mut threads = Vec::with_capacity(self.workers);
        for (index, queue) in queues.into_iter().enumerate() {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("{}-{index}", self.thread_name))
                .spawn(move || crate::worker::run_worker(shared, index, queue));
            match spawned {
                Ok(thread) => threads.push(thread),
                Err(e) => {
                    // Stops (and joins) the workers already started.
                    drop(Runtime::from_parts(handle, threads));
                    return Err(e);
                }
            }
        }
        Ok(Runtime::from_parts(handle, threads))
    }
}
