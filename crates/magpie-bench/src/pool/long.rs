//! Two long tasks of equal length forked by one `join`: the BWoS §8 starvation case.
//! Thieves cannot take from an owner's private block, so without magpie's sharing the
//! second task would wait for the first and 2 threads would be no faster than 1. The
//! 1 → 2 thread speedup is the measure (ideal 2).

use super::run::{run_and_check, Config, ForkJoin, ForkJoinTask, Pools, Sample, Workload};
use crate::BenchError;

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

/// Two tasks of `steps` xorshift rounds each, joined.
#[derive(Clone, Debug)]
pub struct TwoLongTasks {
    steps: u64,
    expected: u64,
    configs: Vec<Config>,
}

impl TwoLongTasks {
    /// Two tasks of `steps` rounds each on `configs` (the answer is computed once here,
    /// untimed).
    pub fn new(steps: u64, configs: &[Config]) -> TwoLongTasks {
        TwoLongTasks {
            steps,
            expected: spin(1, steps) ^ spin(2, steps),
            configs: configs.to_vec(),
        }
    }
}

impl Workload for TwoLongTasks {
    fn family(&self) -> &'static str {
        "two-long-tasks"
    }

    fn size(&self) -> String {
        format!("steps={}", self.steps)
    }

    fn label(&self) -> String {
        format!("2 tasks x {}M", self.steps / 1_000_000)
    }

    fn configs(&self) -> Vec<Config> {
        self.configs.clone()
    }

    fn run(&mut self, c: Config, pools: &Pools) -> Result<Sample, BenchError> {
        run_and_check(
            LongTasks(self.steps),
            c,
            pools,
            &self.label(),
            self.expected,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::run::FORK_JOIN_SPEEDUP;

    #[test]
    fn runs_and_verifies_on_every_config() {
        let pools = Pools::build(&FORK_JOIN_SPEEDUP).unwrap();
        let mut w = TwoLongTasks::new(10_000, &FORK_JOIN_SPEEDUP);
        let expected = spin(1, 10_000) ^ spin(2, 10_000);
        for c in w.configs() {
            assert_eq!(w.run(c, &pools).unwrap().answer, expected);
        }
    }
}
