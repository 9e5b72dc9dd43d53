//! The order in which a benchmark runs its cells in each repetition.
//!
//! Cells are interleaved so a noisy machine's drift hits all alike, in a fresh seeded
//! permutation per repetition: under a fixed rotation every cell keeps its predecessor,
//! whose leftovers (allocator, caches, scheduler) once moved a two-lock ratio from
//! 1.04–1.47 to 0.65–0.91.

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// The indices `0..cells` in the order repetition `rep` runs them: a permutation drawn
/// from a generator seeded with `rep`, so neighbours change from one repetition to the
/// next.
pub fn for_repetition(cells: usize, rep: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..cells).collect();
    let mut rng = SmallRng::seed_from_u64(0x6d61_6770_6965 ^ rep as u64);
    order.shuffle(&mut rng);
    order
}

/// Runs `reps` repetitions over `cells` cells, each repetition in the order
/// [`for_repetition`] gives, with a progress bar on stderr ([`crate::progress`]);
/// `run(rep, cell)` measures one cell (`rep` counts from 0). Stops at the first error.
pub fn interleave<E>(
    what: &str,
    cells: usize,
    reps: usize,
    mut run: impl FnMut(usize, usize) -> Result<(), E>,
) -> Result<(), E> {
    let bar = crate::progress::bar(what, cells * reps);
    for rep in 0..reps {
        bar.set_message(format!("repetition {}/{reps}", rep + 1));
        for cell in for_repetition(cells, rep) {
            run(rep, cell)?;
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_reproducible_and_varied() {
        let a = for_repetition(20, 0);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
        assert_eq!(a, for_repetition(20, 0));
        // Predecessors differ between repetitions (rotation would keep them).
        let pred = |o: &[usize]| {
            let mut p = vec![usize::MAX; o.len()];
            for w in o.windows(2) {
                p[w[1]] = w[0];
            }
            p
        };
        let (p0, p1) = (pred(&a), pred(&for_repetition(20, 1)));
        assert!(p0.iter().zip(&p1).filter(|(x, y)| x == y).count() < 10);
        assert!(for_repetition(0, 3).is_empty());
    }

    #[test]
    fn interleave_runs_every_cell_once_per_repetition() {
        let mut seen = vec![vec![0; 5]; 3];
        interleave::<()>("test", 5, 3, |rep, cell| {
            seen[rep][cell] += 1;
            Ok(())
        })
        .unwrap();
        assert!(seen.iter().flatten().all(|&n| n == 1));
        let mut calls = 0;
        let err = interleave("test", 5, 3, |_, _| {
            calls += 1;
            if calls == 2 {
                Err("stop")
            } else {
                Ok(())
            }
        });
        assert_eq!((err, calls), (Err("stop"), 2));
    }
}
