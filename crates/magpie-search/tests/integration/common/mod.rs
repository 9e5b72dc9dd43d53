//! Helpers shared by the integration tests: small pools and every coordination.
#![allow(dead_code)]

use magpie::{ThreadPool, ThreadPoolBuilder};
use magpie_search::SearchConfig;

/// A pool of `threads` workers.
pub fn pool(threads: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a small pool builds")
}

/// A path inside the shared data folder (`../shared/data` beside the repository).
pub fn data(relative: &str) -> String {
    format!(
        "{}/../../../shared/data/{relative}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Every coordination, each named, running in `pool` (plus plain sequential).
pub fn every_coordination(pool: &ThreadPool) -> Vec<(String, SearchConfig<'_>)> {
    let threads = pool.current_num_threads();
    let parallel = [
        ("depth-bounded 1", SearchConfig::depth_bounded(1)),
        ("depth-bounded 2", SearchConfig::depth_bounded(2)),
        ("stack-stealing", SearchConfig::stack_stealing(false)),
        ("stack-stealing all", SearchConfig::stack_stealing(true)),
        ("budget 1", SearchConfig::budget(1)),
        ("budget 100", SearchConfig::budget(100)),
    ];
    let mut configs = vec![("sequential".to_string(), SearchConfig::sequential())];
    for (name, config) in parallel {
        configs.push((format!("{name}, {threads} threads"), config.in_pool(pool)));
    }
    configs
}

/// SplitMix64: a tiny seeded generator, enough for random test instances.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `low..=high`.
    pub fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.next() % (high - low + 1)
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}
