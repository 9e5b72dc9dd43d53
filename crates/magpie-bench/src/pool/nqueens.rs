//! N-queens solution count with bitmasks. At every row the free columns are forked: the
//! set of candidates is split in two halves with `join` until one candidate is left,
//! which is placed and the next row searched the same way (no sequential cutoff).

use super::run::{Config, ForkJoin, ForkJoinTask, Workload};
use crate::BenchError;

/// Known solution counts for `n = 0..=14` (OEIS A000170).
pub const SOLUTIONS: [u64; 15] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];

/// Number of ways to place `n` (≤ 14) non-attacking queens on an `n`×`n` board.
pub fn queens<F: ForkJoin>(n: u32) -> u64 {
    assert!(n < SOLUTIONS.len() as u32, "n-queens supports n <= 14");
    let all = (1u32 << n) - 1;
    place::<F>(all, 0, 0, 0)
}

/// Counts completions given the occupied columns and diagonals of the rows placed.
fn place<F: ForkJoin>(all: u32, cols: u32, d1: u32, d2: u32) -> u64 {
    if cols == all {
        return 1;
    }
    let free = all & !(cols | d1 | d2);
    fork::<F>(all, cols, d1, d2, free)
}

/// Counts completions over the candidate columns `cand` of the current row.
fn fork<F: ForkJoin>(all: u32, cols: u32, d1: u32, d2: u32, cand: u32) -> u64 {
    match cand.count_ones() {
        0 => 0,
        1 => place::<F>(all, cols | cand, (d1 | cand) << 1, (d2 | cand) >> 1),
        k => {
            let lo = lowest_bits(cand, k / 2);
            let (a, b) = F::join(
                || fork::<F>(all, cols, d1, d2, lo),
                || fork::<F>(all, cols, d1, d2, cand & !lo),
            );
            a + b
        }
    }
}

/// The `k` lowest set bits of `x`.
fn lowest_bits(x: u32, k: u32) -> u32 {
    let mut rest = x;
    for _ in 0..k {
        rest &= rest - 1;
    }
    x & !rest
}

struct QueensTask(u32);

impl ForkJoinTask for QueensTask {
    type Out = u64;

    fn run<F: ForkJoin>(self) -> u64 {
        queens::<F>(self.0)
    }
}

/// `n`-queens (`n` ≤ 14) on `configs`.
pub fn workload(n: u32, configs: &[Config]) -> Result<Workload, BenchError> {
    let Some(&want) = SOLUTIONS.get(n as usize) else {
        return Err(BenchError::Invalid(format!(
            "n-queens supports n <= 14, got {n}"
        )));
    };
    let names = ("nqueens", format!("n={n}"), format!("queens {n}"));
    Ok(Workload::checked(names, configs, want, move || {
        QueensTask(n)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::run::{answers, Rayon, FORK_JOIN_SPEEDUP};

    #[test]
    fn lowest_bits_takes_the_low_half() {
        assert_eq!(lowest_bits(0b1011_0110, 2), 0b0000_0110);
        assert_eq!(lowest_bits(0b1011_0110, 0), 0);
        assert_eq!(lowest_bits(0b1011_0110, 5), 0b1011_0110);
    }

    #[test]
    fn counts_match_the_known_values() {
        let pool = crate::pool::run::rayon_pool(2).unwrap();
        for n in 1..=9 {
            assert_eq!(pool.install(|| queens::<Rayon>(n)), SOLUTIONS[n as usize]);
        }
    }

    #[test]
    fn runs_and_verifies_on_every_config() {
        assert_eq!(answers(workload(8, &FORK_JOIN_SPEEDUP).unwrap()), [92; 4]);
        assert!(workload(15, &FORK_JOIN_SPEEDUP).is_err());
    }
}
