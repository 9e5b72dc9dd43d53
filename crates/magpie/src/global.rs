//! The global pool behind the free functions, built lazily on first use (like rayon's).

use std::sync::{Arc, Mutex, OnceLock};

use crate::builder::{BuildError, ThreadPoolBuilder};
use crate::registry::Registry;
use crate::ThreadPool;

static GLOBAL: OnceLock<ThreadPool> = OnceLock::new();
static INIT: Mutex<()> = Mutex::new(());

pub(crate) fn init(builder: ThreadPoolBuilder) -> Result<(), BuildError> {
    let _guard = INIT.lock().unwrap_or_else(|e| e.into_inner());
    if GLOBAL.get().is_some() {
        return Err(BuildError::GlobalAlreadyInitialized);
    }
    let pool = builder.build()?;
    let _ = GLOBAL.set(pool);
    Ok(())
}

/// The global pool's registry, building the pool with defaults if needed.
///
/// # Panics
/// If the default pool cannot be built (`MAGPIE_NUM_THREADS` malformed, or the OS
/// refuses threads): there is no caller to return the error to.
pub(crate) fn registry() -> &'static Arc<Registry> {
    if let Some(pool) = GLOBAL.get() {
        return &pool.registry;
    }
    let _guard = INIT.lock().unwrap_or_else(|e| e.into_inner());
    if GLOBAL.get().is_none() {
        let pool = ThreadPoolBuilder::new()
            .build()
            .unwrap_or_else(|e| panic!("magpie: cannot build the global thread pool: {e}"));
        let _ = GLOBAL.set(pool);
    }
    &GLOBAL.get().expect("just initialised").registry
}
