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
