//! fib(n) with a `join` per call and no sequential cutoff: almost all of the time is the
//! runtime's join overhead (fib(32) makes 3.5 M joins), which is the point.

use super::run::{Config, ForkJoin, ForkJoinTask, Workload};

/// fib(n) by naive recursion, both calls forked with `F::join`.
pub fn fib<F: ForkJoin>(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let (a, b) = F::join(|| fib::<F>(n - 1), || fib::<F>(n - 2));
    a + b
}

/// fib(n) by naive recursion with chili's `join` (its default: the heartbeat is checked
/// on every 64th join, or when fewer than 3 joins are pending).
pub fn fib_chili(s: &mut chili::Scope<'_>, n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let (a, b) = s.join(|s| fib_chili(s, n - 1), |s| fib_chili(s, n - 2));
    a + b
}

/// fib(n) iteratively: the expected answer.
pub fn fib_reference(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}

struct FibTask(u32);

impl ForkJoinTask for FibTask {
    type Out = u64;

    fn run<F: ForkJoin>(self) -> u64 {
        fib::<F>(self.0)
    }

    fn run_chili(self, s: &mut chili::Scope<'_>) -> Option<u64> {
        Some(fib_chili(s, self.0))
    }
}

/// fib(`n`) on `configs`.
pub fn workload(n: u32, configs: &[Config]) -> Workload {
    let names = ("fib", format!("n={n}"), format!("fib({n})"));
    Workload::checked(names, configs, fib_reference(n), move || FibTask(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::run::{answers, Rayon, Seq, JOIN_PEERS_SPEEDUP};

    #[test]
    fn reference_values() {
        let v: Vec<u64> = (0..10).map(fib_reference).collect();
        assert_eq!(v, [0, 1, 1, 2, 3, 5, 8, 13, 21, 34]);
        assert_eq!(fib_reference(32), 2_178_309);
    }

    #[test]
    fn runs_and_verifies_on_every_config() {
        assert_eq!(answers(workload(18, &JOIN_PEERS_SPEEDUP)), [2584; 6]);
        assert_eq!(fib::<Rayon>(20), 6765);
        assert_eq!(fib::<Seq>(20), 6765);
    }
}
