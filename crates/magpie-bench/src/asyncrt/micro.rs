//! The scheduler microbenchmarks, after tokio's own `benches/rt_multi_threaded.rs`:
//! each function runs one iteration of a workload on a runtime and returns when every
//! task of it has finished.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::runtimes::{Rt, Spawner};

/// The workloads, in table order.
pub const WORKLOADS: [&str; 5] = [
    "spawn_many_local",
    "spawn_many_remote",
    "yield_many",
    "ping_pong",
    "chained_spawn",
];

/// Tasks spawned by the spawn-many workloads (tokio: 10,000 / 1,000,000 in newer versions).
const SPAWNS: usize = 10_000;
/// yield_many: tasks and yields per task (tokio: 200 x 1,000).
const YIELD_TASKS: usize = 200;
const YIELDS: usize = 1_000;
/// ping_pong: pairs (tokio: 1,000).
const PINGS: usize = 1_000;
/// chained_spawn: chain length (tokio: 1,000).
const CHAIN: usize = 1_000;

/// Runs one iteration of workload `w` on `rt`.
pub fn run(w: usize, rt: &Rt) {
    let sp = rt.spawner();
    let (done, finished) = async_channel::bounded::<()>(1);
    match w {
        0 => {
            let inner = sp.clone();
            sp.spawn(async move { spawn_many(&inner, done) });
        }
        1 => spawn_many(&sp, done),
        2 => yield_many(&sp, done),
        3 => ping_pong(&sp, done),
        4 => chain(sp, CHAIN, done),
        _ => unreachable!("workload index"),
    }
    rt.block_on(finished.recv()).expect("the last task signals");
}

/// A countdown shared by the tasks; the last one signals `done`.
fn countdown(n: usize, done: async_channel::Sender<()>) -> impl Fn() + Clone + Send + 'static {
    let left = Arc::new(AtomicUsize::new(n));
    move || {
        if left.fetch_sub(1, Ordering::AcqRel) == 1 {
            let _ = done.try_send(());
        }
    }
}

fn spawn_many(sp: &Spawner, done: async_channel::Sender<()>) {
    let finish = countdown(SPAWNS, done);
    for _ in 0..SPAWNS {
        let finish = finish.clone();
        sp.spawn(async move { finish() });
    }
}

fn yield_many(sp: &Spawner, done: async_channel::Sender<()>) {
    let finish = countdown(YIELD_TASKS, done);
    for _ in 0..YIELD_TASKS {
        let finish = finish.clone();
        sp.spawn(async move {
            for _ in 0..YIELDS {
                futures_lite::future::yield_now().await;
            }
            finish();
        });
    }
}

fn ping_pong(sp: &Spawner, done: async_channel::Sender<()>) {
    let finish = countdown(PINGS, done);
    for _ in 0..PINGS {
        let (finish, inner) = (finish.clone(), sp.clone());
        sp.spawn(async move {
            let (ping_tx, ping_rx) = async_channel::bounded::<()>(1);
            let (pong_tx, pong_rx) = async_channel::bounded::<()>(1);
            inner.spawn(async move {
                let _ = ping_rx.recv().await;
                let _ = pong_tx.send(()).await;
            });
            let _ = ping_tx.send(()).await;
            let _ = pong_rx.recv().await;
            finish();
        });
    }
}

fn chain(sp: Spawner, left: usize, done: async_channel::Sender<()>) {
    if left == 0 {
        let _ = done.try_send(());
        return;
    }
    let next = sp.clone();
    sp.spawn(async move { chain(next, left - 1, done) });
}
