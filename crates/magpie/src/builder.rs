//! [`ThreadPoolBuilder`]: every knob of a pool, with defaults that suit fork-join.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use magpie_queue::{Config, ConfigError};

use crate::policy::{Random, VictimPolicy};
use crate::queue::{QueueFlavour, StealAmount};
use crate::ThreadPool;

pub(crate) type PanicHandler = dyn Fn(Box<dyn Any + Send>) + Send + Sync;
pub(crate) type ThreadHook = dyn Fn(usize) + Send + Sync;

/// Default queue geometry per worker: 8 blocks × 128 jobs (16 KiB of job references).
pub const DEFAULT_BLOCKS: usize = 8;
/// See [`DEFAULT_BLOCKS`].
pub const DEFAULT_ENTRIES: usize = 128;

/// Why a pool could not be built.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// `MAGPIE_NUM_THREADS` is set to something other than a number of threads (empty
    /// or 0 mean the default, as for rayon's `RAYON_NUM_THREADS`).
    InvalidEnv {
        /// The variable's value.
        value: String,
    },
    /// More threads than the idle protocol can count.
    TooManyThreads {
        /// The requested number.
        requested: usize,
        /// The maximum.
        max: usize,
    },
    /// The queue geometry is invalid.
    Queue(ConfigError),
    /// The operating system refused to start a worker thread.
    Spawn(std::io::Error),
    /// [`ThreadPoolBuilder::build_global`] was called after the global pool existed.
    GlobalAlreadyInitialized,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::InvalidEnv { value } => write!(
                f,
                "MAGPIE_NUM_THREADS must be a positive integer, got {value:?}"
            ),
            BuildError::TooManyThreads { requested, max } => {
                write!(f, "{requested} threads requested, at most {max} supported")
            }
            BuildError::Queue(e) => write!(f, "invalid worker queue geometry: {e}"),
            BuildError::Spawn(e) => write!(f, "cannot start a worker thread: {e}"),
            BuildError::GlobalAlreadyInitialized => {
                write!(f, "the global thread pool is already initialized")
            }
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Queue(e) => Some(e),
            BuildError::Spawn(e) => Some(e),
            _ => None,
        }
    }
}

/// Configures and builds a [`ThreadPool`].
///
/// ```
/// use magpie::{QueueFlavour, StealAmount, ThreadPoolBuilder};
/// let pool = ThreadPoolBuilder::new()
///     .num_threads(2)
///     .flavour(QueueFlavour::Lifo)
///     .queue_geometry(8, 64)
///     .steal_amount(StealAmount::One)
///     .victim_policy(magpie::policy::Random)
///     .thread_name(|i| format!("compute-{i}"))
///     .build()
///     .expect("valid configuration");
/// assert_eq!(pool.current_num_threads(), 2);
/// ```
pub struct ThreadPoolBuilder {
    pub(crate) num_threads: Option<usize>,
    pub(crate) flavour: QueueFlavour,
    pub(crate) blocks: usize,
    pub(crate) entries: usize,
    pub(crate) policy: Arc<dyn VictimPolicy>,
    pub(crate) steal_amount: StealAmount,
    pub(crate) thread_name: Option<Box<dyn FnMut(usize) -> String>>,
    pub(crate) stack_size: Option<usize>,
    pub(crate) start_handler: Option<Arc<ThreadHook>>,
    pub(crate) exit_handler: Option<Arc<ThreadHook>>,
    pub(crate) panic_handler: Option<Arc<PanicHandler>>,
    pub(crate) pin_threads: bool,
}

impl Default for ThreadPoolBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for ThreadPoolBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadPoolBuilder")
            .field("num_threads", &self.num_threads)
            .field("flavour", &self.flavour)
            .field("blocks", &self.blocks)
            .field("entries", &self.entries)
            .field("policy", &self.policy.name())
            .field("steal_amount", &self.steal_amount)
            .field("pin_threads", &self.pin_threads)
            .finish_non_exhaustive()
    }
}

/// The thread count `MAGPIE_NUM_THREADS` asks for, as `RAYON_NUM_THREADS` does for
/// rayon: unset, empty or 0 means the default (`None`); anything else must be a positive
/// integer.
fn threads_from_env(value: Option<String>) -> Result<Option<usize>, BuildError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let trimmed = value.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    match trimmed.parse::<usize>() {
        Ok(0) => Ok(None),
        Ok(n) => Ok(Some(n)),
        Err(_) => Err(BuildError::InvalidEnv { value }),
    }
}

impl ThreadPoolBuilder {
    /// Defaults: threads from `MAGPIE_NUM_THREADS` (unset, empty or 0: the number of CPUs
    /// available to this process), LIFO queues of [`DEFAULT_BLOCKS`] ×
    /// [`DEFAULT_ENTRIES`], random victims, steal half, no pinning, panics in detached
    /// tasks printed to stderr.
    pub fn new() -> Self {
        Self {
            num_threads: None,
            flavour: QueueFlavour::Lifo,
            blocks: DEFAULT_BLOCKS,
            entries: DEFAULT_ENTRIES,
            policy: Arc::new(Random),
            steal_amount: StealAmount::Half,
            thread_name: None,
            stack_size: None,
            start_handler: None,
            exit_handler: None,
            panic_handler: None,
            pin_threads: false,
        }
    }

    /// Number of worker threads; 0 means the default (`MAGPIE_NUM_THREADS`, else the
    /// number of CPUs available to this process).
    pub fn num_threads(mut self, n: usize) -> Self {
        self.num_threads = (n > 0).then_some(n);
        self
    }

    /// Order in which a worker runs its own queue.
    pub fn flavour(mut self, flavour: QueueFlavour) -> Self {
        self.flavour = flavour;
        self
    }

    /// Each worker's queue: `blocks` (≥ 2) blocks of `entries` (≥ 1) jobs. Checked by
    /// [`build`](Self::build).
    pub fn queue_geometry(mut self, blocks: usize, entries: usize) -> Self {
        self.blocks = blocks;
        self.entries = entries;
        self
    }

    /// The victim-selection policy (see [`crate::policy`]).
    pub fn victim_policy(mut self, policy: impl VictimPolicy) -> Self {
        self.policy = Arc::new(policy);
        self
    }

    /// The victim-selection policy, already boxed (e.g. from [`crate::policy::by_name`]).
    pub fn victim_policy_boxed(mut self, policy: Box<dyn VictimPolicy>) -> Self {
        self.policy = Arc::from(policy);
        self
    }

    /// How many jobs one steal takes.
    pub fn steal_amount(mut self, amount: StealAmount) -> Self {
        self.steal_amount = amount;
        self
    }

    /// Names worker threads (default `magpie-{index}`).
    pub fn thread_name(mut self, name: impl FnMut(usize) -> String + 'static) -> Self {
        self.thread_name = Some(Box::new(name));
        self
    }

    /// Stack size of worker threads in bytes (default: the platform's).
    pub fn stack_size(mut self, bytes: usize) -> Self {
        self.stack_size = Some(bytes);
        self
    }

    /// Runs on each worker thread, with its index, before it takes any job.
    pub fn start_handler(mut self, hook: impl Fn(usize) + Send + Sync + 'static) -> Self {
        self.start_handler = Some(Arc::new(hook));
        self
    }

    /// Runs on each worker thread, with its index, when the pool shuts down.
    pub fn exit_handler(mut self, hook: impl Fn(usize) + Send + Sync + 'static) -> Self {
        self.exit_handler = Some(Arc::new(hook));
        self
    }

    /// Receives the payload of a panic in a detached [`spawn`](crate::spawn)ed task or
    /// in the victim policy's [`Thief`](crate::policy::Thief) (default: a message on
    /// stderr). The pool keeps running either way.
    pub fn panic_handler(
        mut self,
        handler: impl Fn(Box<dyn Any + Send>) + Send + Sync + 'static,
    ) -> Self {
        self.panic_handler = Some(Arc::new(handler));
        self
    }

    /// Pins worker `i` to CPU `i mod CPUs` (Linux; ignored elsewhere). Pinned workers
    /// give the NUMA-aware policies an exact topology.
    pub fn pin_threads(mut self, pin: bool) -> Self {
        self.pin_threads = pin;
        self
    }

    pub(crate) fn resolved_threads(&self) -> Result<usize, BuildError> {
        let n = match self.num_threads {
            Some(n) => n,
            None => match threads_from_env(std::env::var("MAGPIE_NUM_THREADS").ok())? {
                Some(n) => n,
                None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            },
        };
        let max = crate::sleep::MAX_WORKERS;
        if n > max {
            return Err(BuildError::TooManyThreads { requested: n, max });
        }
        Ok(n)
    }

    pub(crate) fn queue_config(&self) -> Result<Config, BuildError> {
        Config::new(self.blocks, self.entries).map_err(BuildError::Queue)
    }

    /// Starts the worker threads.
    pub fn build(self) -> Result<ThreadPool, BuildError> {
        ThreadPool::build(self)
    }

    /// Makes this configuration the global pool used by the free functions
    /// ([`join`](crate::join), [`scope`](crate::scope), [`spawn`](crate::spawn)) outside
    /// any pool. Fails if the global pool already exists (it is created lazily on first
    /// use). The [`thread_name`](Self::thread_name) closure, which runs during this
    /// call, must not use the global pool (it would wait for itself).
    pub fn build_global(self) -> Result<(), BuildError> {
        crate::global::init(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(value: &str) -> Result<Option<usize>, BuildError> {
        threads_from_env(Some(value.to_string()))
    }

    #[test]
    fn magpie_num_threads_reads_like_rayon_num_threads() {
        assert!(matches!(threads_from_env(None), Ok(None)));
        assert!(matches!(env("3"), Ok(Some(3))));
        assert!(matches!(env(" 2\n"), Ok(Some(2))));
        // RAYON_NUM_THREADS=0 (or empty) means "the default", as num_threads(0) does.
        assert!(matches!(env("0"), Ok(None)));
        assert!(matches!(env(""), Ok(None)));
        for bad in ["zero", "-1", "1.5"] {
            assert!(
                matches!(env(bad), Err(BuildError::InvalidEnv { ref value }) if value == bad),
                "{bad}"
            );
        }
    }
}
