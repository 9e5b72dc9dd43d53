//! Every non-Relaxed atomic ordering of the BWoS queues, by name.
//!
//! Each such ordering in `block`, `shared`, `lifo` and `fifo` is written `ord!("NAME",
//! Release)`. In normal builds that is exactly `Ordering::Release`. In loom builds the
//! environment variable `MAGPIE_WEAKEN=NAME` turns that one ordering into `Relaxed`, so
//! `scripts/ordering-audit.sh` can weaken one ordering at a time and record which loom
//! model then fails — the evidence behind the table in the crate docs (the paper's
//! Table 2). [`NAMES`] must list every name used; loom builds check that.

/// Every named ordering, with the operation it pairs with.
pub const NAMES: &[(&str, &str)] = &[
    (
        "STEAL_DONE",
        "thief s_cnt fetch_add Release -> owner Acquire load in BLOCK_FREE",
    ),
    (
        "BLOCK_FREE",
        "owner s_cnt Acquire load before reusing a block -> STEAL_DONE",
    ),
    (
        "RING_PUBLISH",
        "owner Release store of a swapped-in block pointer -> RING_LOAD",
    ),
    (
        "RING_LOAD",
        "thief Acquire load of a block pointer -> RING_PUBLISH",
    ),
    (
        "CURSOR_ADVANCE",
        "thief (or owner, nudging a far-lagging cursor) Release CAS moving the cursor past consumed blocks -> CURSOR_LOAD",
    ),
    (
        "CURSOR_LOAD",
        "thief Acquire load of the cursor -> CURSOR_ADVANCE (fresher block pointers)",
    ),
    (
        "BLOCK_RESET",
        "owner Release store of a reused block's new tag -> STALE_TAG",
    ),
    (
        "STALE_TAG",
        "thief Acquire load of a later tag before moving the cursor on -> BLOCK_RESET",
    ),
    (
        "LIFO_GRANT",
        "LIFO owner Release store of s_pos handing a full block to thieves -> LIFO_RESERVE",
    ),
    (
        "LIFO_RESERVE",
        "LIFO thief CAS on s_pos, Acquire on success -> LIFO_GRANT",
    ),
    (
        "FIFO_PUBLISH",
        "FIFO owner Release store of b_pos after writing a slot -> FIFO_READ_BPOS",
    ),
    (
        "FIFO_READ_BPOS",
        "FIFO thief Acquire load of b_pos before reserving -> FIFO_PUBLISH",
    ),
    (
        "FIFO_HINT_STORE",
        "FIFO thief Release store of a b_pos it read into the end hint -> FIFO_HINT_LOAD",
    ),
    (
        "FIFO_HINT_LOAD",
        "FIFO thief Acquire load of the end hint before reserving -> FIFO_HINT_STORE",
    ),
];

/// The ordering named `name`: `ord` itself, or `Relaxed` if an audit run weakens it.
#[cfg(not(loom))]
#[inline(always)]
pub(crate) const fn named(
    _name: &'static str,
    ord: core::sync::atomic::Ordering,
) -> core::sync::atomic::Ordering {
    ord
}

/// The ordering named `name`: `ord` itself, or `Relaxed` if `MAGPIE_WEAKEN` names it.
#[cfg(loom)]
pub(crate) fn named(
    name: &'static str,
    ord: core::sync::atomic::Ordering,
) -> core::sync::atomic::Ordering {
    use std::sync::OnceLock;
    static WEAKEN: OnceLock<Option<String>> = OnceLock::new();
    assert!(
        NAMES.iter().any(|(n, _)| *n == name),
        "ordering {name} is missing from ordering::NAMES"
    );
    let weaken = WEAKEN.get_or_init(|| std::env::var("MAGPIE_WEAKEN").ok());
    if weaken.as_deref() == Some(name) {
        core::sync::atomic::Ordering::Relaxed
    } else {
        ord
    }
}

/// `ord!("NAME", Release)`: a named, auditable ordering (see the module docs).
macro_rules! ord {
    ($name:literal, $ord:ident) => {
        $crate::ordering::named($name, core::sync::atomic::Ordering::$ord)
    };
}
pub(crate) use ord;
