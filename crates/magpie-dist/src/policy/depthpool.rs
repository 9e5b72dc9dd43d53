//! [`DepthPoolVictim`]: how YewPar's depth-pool scheduler picks remote victims (thesis
//! §2.2.2): at random until a steal succeeds, then that victim again until it refuses.

use std::time::Duration;

use super::NodeVictimPolicy;

/// Random until a steal succeeds, then the same victim while it has work.
#[derive(Debug)]
pub struct DepthPoolVictim {
    rng: magpie::Rng,
    /// The victim that gave work last, while it keeps giving.
    locked: Option<usize>,
}

impl DepthPoolVictim {
    /// The policy, seeded with `seed` for its random choices.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: magpie::Rng::new(seed),
            locked: None,
        }
    }
}

impl NodeVictimPolicy for DepthPoolVictim {
    fn name(&self) -> &str {
        "depthpool"
    }

    fn choose(&mut self, me: usize, ranks: usize) -> usize {
        match self.locked {
            Some(victim) if victim != me && victim < ranks => victim,
            _ => self.rng.other_than(me, ranks),
        }
    }

    fn observe(&mut self, victim: usize, got_work: bool, _latency: Duration) {
        self.locked = got_work.then_some(victim);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{DepthPoolVictim, NodeVictimPolicy};

    #[test]
    fn sticks_to_a_victim_while_it_gives_work() {
        let mut policy = DepthPoolVictim::new(3);
        policy.observe(2, true, Duration::ZERO);
        for _ in 0..20 {
            assert_eq!(policy.choose(0, 4), 2);
        }
        policy.observe(2, false, Duration::ZERO);
        let others: Vec<usize> = (0..200).map(|_| policy.choose(0, 4)).collect();
        assert!(others.contains(&1) && others.contains(&3), "random again");
        assert!(!others.contains(&0));
    }
}
