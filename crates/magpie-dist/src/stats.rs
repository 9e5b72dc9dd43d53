//! What each rank reports about its part of a run ([`RankStats`]), and the totals.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// One rank's counters for a distributed run, taken when the rank reports after
/// termination: what it sends later (the report itself, refusals of requests still
/// arriving, rank 0's `Exit`) is not in the message and byte counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RankStats {
    /// The rank.
    pub rank: usize,
    /// Nodes this rank's workers expanded.
    pub nodes_expanded: u64,
    /// Subtrees pruned here.
    pub prunes: u64,
    /// Tasks this rank's pool ran.
    pub tasks: u64,
    /// Searches (batches of received subtrees) this rank ran.
    pub batches: u64,
    /// Steal requests this rank sent.
    pub steals_requested: u64,
    /// Replies to them that carried work.
    pub steals_succeeded: u64,
    /// Requests from other ranks this rank answered with work.
    pub steals_served: u64,
    /// Requests from other ranks this rank refused (it had nothing to give).
    pub steals_refused: u64,
    /// Subtrees this rank gave away.
    pub subtrees_sent: u64,
    /// Messages this rank sent (all kinds).
    pub messages_sent: u64,
    /// Bytes in them.
    pub bytes_sent: u64,
    /// Bytes in the work replies among them.
    pub work_bytes_sent: u64,
    /// Wall time with no local work (waiting for work from other ranks).
    pub idle: Duration,
    /// CPU time the whole process used while idle (the cost of waiting: should stay
    /// far below `idle`).
    pub idle_cpu: Duration,
    /// Wall time from the start of the search to this rank's end.
    pub elapsed: Duration,
}

impl RankStats {
    /// Adds `other`'s counters into `self` (durations add up too; `rank` is kept).
    pub fn accumulate(&mut self, other: &RankStats) {
        self.nodes_expanded += other.nodes_expanded;
        self.prunes += other.prunes;
        self.tasks += other.tasks;
        self.batches += other.batches;
        self.steals_requested += other.steals_requested;
        self.steals_succeeded += other.steals_succeeded;
        self.steals_served += other.steals_served;
        self.steals_refused += other.steals_refused;
        self.subtrees_sent += other.subtrees_sent;
        self.messages_sent += other.messages_sent;
        self.bytes_sent += other.bytes_sent;
        self.work_bytes_sent += other.work_bytes_sent;
        self.idle += other.idle;
        self.idle_cpu += other.idle_cpu;
        self.elapsed = self.elapsed.max(other.elapsed);
    }

    /// The sum over `ranks` (elapsed: the longest).
    pub fn total(ranks: &[RankStats]) -> RankStats {
        let mut total = RankStats::default();
        for r in ranks {
            total.accumulate(r);
        }
        total
    }
}

impl fmt::Display for RankStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes {}, tasks {}, steals requested {} (got work {}), served {}, refused {}, \
             messages {} ({} bytes, work {} bytes), idle {:.3}s (cpu {:.3}s)",
            self.nodes_expanded,
            self.tasks,
            self.steals_requested,
            self.steals_succeeded,
            self.steals_served,
            self.steals_refused,
            self.messages_sent,
            self.bytes_sent,
            self.work_bytes_sent,
            self.idle.as_secs_f64(),
            self.idle_cpu.as_secs_f64()
        )
    }
}

/// CPU time used so far by the whole process (all threads).
pub(crate) fn process_cpu_time() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: getrusage writes a whole `rusage` into the pointer on success.
    let ok = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    // SAFETY: initialized by the successful call above.
    let usage = unsafe { usage.assume_init() };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}
