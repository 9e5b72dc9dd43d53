//! [`RandomVictim`]: a uniformly random other rank for every request.

use super::NodeVictimPolicy;

/// A uniformly random other rank for every request.
#[derive(Debug)]
pub struct RandomVictim {
    rng: magpie::Rng,
}

impl RandomVictim {
    /// A random policy seeded with `seed` (seed it with the rank for distinct streams).
    pub fn new(seed: u64) -> Self {
        Self {
            rng: magpie::Rng::new(seed),
        }
    }
}

impl NodeVictimPolicy for RandomVictim {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, me: usize, ranks: usize) -> usize {
        self.rng.other_than(me, ranks)
    }
}

#[cfg(test)]
mod tests {
    use super::{NodeVictimPolicy, RandomVictim};

    #[test]
    fn random_victims_cover_every_other_rank_and_never_the_asker() {
        let mut policy = RandomVictim::new(7);
        let mut seen = [0u32; 4];
        for _ in 0..400 {
            seen[policy.choose(2, 4)] += 1;
        }
        assert_eq!(seen[2], 0);
        assert!(
            seen.iter().enumerate().all(|(r, &n)| r == 2 || n > 50),
            "{seen:?}"
        );
    }
}
