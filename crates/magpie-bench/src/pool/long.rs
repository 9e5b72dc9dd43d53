//! Two equal long tasks forked by one `join`: the BWoS §8 starvation case (thieves cannot
//! take from an owner's private block). The 1 → 2 thread speedup is the measure (ideal 2).

use super::run::{Config, ForkJoin, ForkJoinTask, Workload};

/// A fixed amount of sequential work: `steps` rounds of xorshift, returning the state
/// (so the compiler cannot drop it, and the answer can be checked).
pub fn spin(seed: u64, steps: u64) -> u64 {
    let mut x = seed | 1;
    for _ in 0..steps {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    x
}

struct LongTasks(u64);

impl ForkJoinTask for LongTasks {
    type Out = u64;

    fn run<F: ForkJoin>(self) -> u64 {
        let (a, b) = F::join(|| spin(1, self.0), || spin(2, self.0));
        a ^ b
    }
}

/// Two tasks of `steps` rounds each, joined, on `configs` (answer computed here, untimed).
pub fn workload(steps: u64, configs: &[Config]) -> Workload {
    let want = spin(1, steps) ^ spin(2, steps);
    let label = format!("2 tasks x {}M", steps / 1_000_000);
    let names = ("two-long-tasks", format!("steps={steps}"), label);
    Workload::checked(names, configs, want, move || LongTasks(steps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::run::{answers, FORK_JOIN_SPEEDUP};

    #[test]
    fn runs_and_verifies_on_every_config() {
        let expected = spin(1, 10_000) ^ spin(2, 10_000);
        assert_eq!(answers(workload(10_000, &FORK_JOIN_SPEEDUP)), [expected; 4]);
    }
}
