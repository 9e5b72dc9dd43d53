//! The async runtime's integration tests, one module per subject, in one test binary.
//! Run one subject with a filter, e.g.
//! `cargo test --release -p magpie-async --test integration reliability::`.
//! `hyper_server.rs` (counts the process's open file descriptors; feature `hyper`)
//! stays in a binary of its own.

mod blocking_time;
mod misuse;
mod net;
mod reliability;
