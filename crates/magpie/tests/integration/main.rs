//! The pool's and the parallel iterators' integration tests, one module per subject, in
//! one test binary (one link instead of ten). Run one subject with a filter, e.g.
//! `cargo test --release -p magpie --test integration par_iter_shapes::`.
//! `idle.rs` (measures the whole process's CPU time) and `miri_smoke.rs` (sized for
//! Miri) stay in binaries of their own.

#[path = "../common/mod.rs"]
mod common;

mod panics;
mod par_iter;
mod par_iter_blocks;
mod par_iter_collect;
mod par_iter_compat;
mod par_iter_drain_sort;
mod par_iter_find;
mod par_iter_more;
mod par_iter_shapes;
mod par_iter_slice_split;
mod par_iter_sources;
mod par_iter_stop;
mod par_iter_with;
mod pool;
mod sharing;
mod stress;
