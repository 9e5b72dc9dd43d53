//! `join_context`: [`join`](crate::join) whose closures learn whether they run on
//! another thread than the caller's, as rayon's. Adaptive splitting in user code reads
//! it: a closure that was stolen (migrated) is where idle workers are, so it divides its
//! input further, and one that runs inline on the caller's worker need not.

use crate::current_thread_index;

/// What a closure of [`join_context`] knows of where it runs.
#[derive(Clone, Copy, Debug)]
pub struct FnContext {
    migrated: bool,
}

impl FnContext {
    /// Whether the closure runs on another thread than the one that called
    /// [`join_context`]: the second closure when another worker stole it, and both
    /// when the call came from outside the pool.
    pub fn migrated(&self) -> bool {
        self.migrated
    }
}

/// [`join`](crate::join), with each closure told through its [`FnContext`] whether it
/// migrated.
///
/// ```
/// let pool = magpie::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let (a, b) = pool.install(|| magpie::join_context(|ctx| ctx.migrated(), |_| 7));
/// assert!(!a, "the first closure runs inline on the calling worker");
/// assert_eq!(b, 7);
/// let (a, _) = magpie::join_context(|ctx| ctx.migrated(), |_| ());
/// assert!(a, "called from outside: both run on the global pool's workers");
/// ```
pub fn join_context<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let caller = current_thread_index();
    // A thread outside every pool has no index: whatever runs on a worker migrated.
    let context = move || FnContext {
        migrated: caller.is_none() || current_thread_index() != caller,
    };
    crate::join(move || oper_a(context()), move || oper_b(context()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ThreadPoolBuilder;

    #[test]
    fn a_stolen_second_closure_knows_it_migrated() {
        let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        // Whether the second closure is stolen depends on timing; either way its
        // context must say whether it ran on another thread.
        let ((a, me), (b, them)) = pool.install(|| {
            join_context(
                |ctx| (ctx.migrated(), current_thread_index()),
                |ctx| (ctx.migrated(), current_thread_index()),
            )
        });
        assert!(!a);
        assert_eq!(b, me != them, "migrated exactly when on another thread");
    }
}
