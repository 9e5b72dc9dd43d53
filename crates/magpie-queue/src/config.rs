//! Queue geometry: how many blocks, how many entries per block.

use core::fmt;

/// The geometry of a BWoS queue: `blocks` × `entries_per_block` slots.
///
/// The paper (§6.1) finds throughput flat once there are at least 8 blocks of at least 64
/// entries; the default is 8 blocks × 1024 entries (capacity 8192). Fewer entries per block
/// let thieves see work sooner (an owner's partial block cannot be stolen); more blocks
/// make the occupancy sample used by probabilistic stealing finer.
///
/// ```
/// use magpie_queue::Config;
/// let cfg = Config::new(16, 256)?;
/// assert_eq!(cfg.capacity(), 4096);
/// assert!(Config::new(1, 256).is_err()); // a BWoS queue needs at least two blocks
/// # Ok::<(), magpie_queue::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    blocks: usize,
    entries_per_block: usize,
}

/// Why a [`Config`] was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConfigError {
    /// Fewer than two blocks: the owner and the thieves need a block each.
    TooFewBlocks {
        /// The number of blocks asked for.
        blocks: usize,
    },
    /// Zero entries per block.
    EmptyBlocks,
    /// More entries per block than [`Config::MAX_ENTRIES_PER_BLOCK`].
    BlockTooLarge {
        /// The number of entries per block asked for.
        entries_per_block: usize,
    },
    /// `blocks × entries_per_block` does not fit in `usize`.
    CapacityOverflow,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::TooFewBlocks { blocks } => {
                write!(f, "a BWoS queue needs at least 2 blocks, got {blocks}")
            }
            ConfigError::EmptyBlocks => write!(f, "a block needs at least 1 entry"),
            ConfigError::BlockTooLarge { entries_per_block } => write!(
                f,
                "{entries_per_block} entries per block exceeds the maximum of {}",
                Config::MAX_ENTRIES_PER_BLOCK
            ),
            ConfigError::CapacityOverflow => {
                write!(f, "blocks x entries_per_block overflows usize")
            }
        }
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// The largest block: block indices share a 64-bit word with a 32-bit round tag.
    pub const MAX_ENTRIES_PER_BLOCK: usize = (u32::MAX / 2) as usize;

    /// A validated geometry of `blocks` blocks of `entries_per_block` slots each.
    pub const fn new(blocks: usize, entries_per_block: usize) -> Result<Self, ConfigError> {
        if blocks < 2 {
            return Err(ConfigError::TooFewBlocks { blocks });
        }
        if entries_per_block == 0 {
            return Err(ConfigError::EmptyBlocks);
        }
        if entries_per_block > Self::MAX_ENTRIES_PER_BLOCK {
            return Err(ConfigError::BlockTooLarge { entries_per_block });
        }
        if blocks.checked_mul(entries_per_block).is_none() {
            return Err(ConfigError::CapacityOverflow);
        }
        Ok(Self {
            blocks,
            entries_per_block,
        })
    }

    /// Number of blocks.
    pub const fn blocks(&self) -> usize {
        self.blocks
    }

    /// Entries per block.
    pub const fn entries_per_block(&self) -> usize {
        self.entries_per_block
    }

    /// Total slots, `blocks × entries_per_block`.
    pub const fn capacity(&self) -> usize {
        self.blocks * self.entries_per_block
    }
}

impl Default for Config {
    /// 8 blocks × 1024 entries, the paper's configuration.
    fn default() -> Self {
        Self {
            blocks: 8,
            entries_per_block: 1024,
        }
    }
}
