//! The distributed layer's integration tests on in-process ranks, one module per
//! subject, in one test binary. Run one subject with a filter, e.g.
//! `cargo test --release -p magpie-dist --test integration node_policies::`.

mod common;

mod faults;
mod local_ranks;
mod node_policies;
mod wire;
