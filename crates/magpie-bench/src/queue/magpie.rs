//! Adapters for magpie's own BWoS queues (`magpie_queue::lifo` / `magpie_queue::fifo`).
//!
//! Configured as in the paper: 8 blocks of `cap / 8` entries (8 × 1024 for `C = 8192`).

use magpie_queue::{fifo, lifo, Config, Steal};

use super::impls::{BenchQueue, Thief};

/// Number of blocks magpie's queues are configured with (as in the paper).
pub const BLOCKS: usize = 8;

fn config(cap: usize) -> Config {
    let per_block = (cap / BLOCKS).max(1);
    Config::new(BLOCKS, per_block).expect("valid magpie queue configuration")
}

macro_rules! magpie_flavour {
    ($($(#[$doc:meta])* $ty:ident, $thief:ident, $m:ident;)*) => {
        $(
            $(#[$doc])*
            pub struct $ty($m::Worker<u64>);

            /// Thief handle for a magpie queue; `Retry` counts as a failed attempt.
            pub struct $thief(pub(crate) $m::Stealer<u64>);

            impl Thief for $thief {
                #[inline]
                fn steal_one(&mut self) -> Option<u64> {
                    match self.0.steal() {
                        Steal::Success(x) => Some(x),
                        _ => None,
                    }
                }
            }

            impl BenchQueue for $ty {
                type Thief = $thief;

                fn with_capacity(cap: usize) -> Self {
                    $ty($m::Worker::with_config(config(cap)))
                }

                #[inline]
                fn push(&mut self, x: u64) -> bool {
                    self.0.push(x).is_ok()
                }

                #[inline]
                fn pop(&mut self) -> Option<u64> {
                    self.0.pop()
                }

                fn thief(&self) -> Option<$thief> {
                    Some($thief(self.0.stealer()))
                }
            }
        )*
    };
}
magpie_flavour! {
    /// magpie BWoS LIFO worker.
    MagpieLifo, MagpieLifoThief, lifo;
    /// magpie BWoS FIFO worker.
    MagpieFifo, MagpieFifoThief, fifo;
}
