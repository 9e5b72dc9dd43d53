//! The [`Victims`] view a worker's victim policy sees: its thief handle on every queue,
//! the capacity, the published consumption counters and the topology; through
//! [`PoolThief`] one policy runs unchanged on magpie, crossbeam-deque and st3.

use std::sync::atomic::{AtomicU64, Ordering};

use magpie::policy::{Topology, Victims};
use magpie::Rng;

use super::steal::PoolThief;

/// A worker's published count of items it has taken (got + stolen), on its own cache
/// lines. The owner stores it once per round (Relaxed), not per item.
#[derive(Debug, Default)]
#[repr(align(128))]
pub struct Published(pub AtomicU64);

/// What worker `me`'s policy may inspect about the pool.
pub struct PoolView<'a, T> {
    me: usize,
    cap: usize,
    thieves: Vec<T>,
    tasks: &'a [Published],
    topology: &'a Topology,
}

impl<'a, T: PoolThief> PoolView<'a, T> {
    /// The view of worker `me`: `thieves[j]` steals from worker `j`'s queue of capacity
    /// `cap`.
    pub fn new(
        me: usize,
        cap: usize,
        thieves: Vec<T>,
        tasks: &'a [Published],
        topology: &'a Topology,
    ) -> Self {
        assert!(me < thieves.len() && thieves.len() == tasks.len());
        PoolView {
            me,
            cap,
            thieves,
            tasks,
            topology,
        }
    }

    /// The thief handle on worker `victim`'s queue.
    #[inline]
    pub fn thief(&self, victim: usize) -> &T {
        &self.thieves[victim]
    }
}

impl<T: PoolThief> Victims for PoolView<'_, T> {
    #[inline]
    fn workers(&self) -> usize {
        self.thieves.len()
    }

    #[inline]
    fn me(&self) -> usize {
        self.me
    }

    #[inline]
    fn sample(&self, victim: usize, rng: &mut Rng) -> bool {
        self.thieves[victim].sample(self.cap, rng)
    }

    #[inline]
    fn stealable_len(&self, victim: usize) -> usize {
        self.thieves[victim].stealable_len()
    }

    #[inline]
    fn tasks_run(&self, victim: usize) -> u64 {
        self.tasks[victim].0.load(Ordering::Relaxed)
    }

    fn topology(&self) -> &Topology {
        self.topology
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::impls::{BenchQueue, CrossbeamLifo};

    #[test]
    fn the_view_reports_each_victims_queue() {
        let mut qs: Vec<CrossbeamLifo> = (0..3).map(|_| CrossbeamLifo::with_capacity(16)).collect();
        for x in 0..16 {
            assert!(qs[2].push(x));
        }
        let tasks: Vec<Published> = (0..3).map(|_| Published::default()).collect();
        tasks[1].0.store(7, Ordering::Relaxed);
        let topo = Topology::uniform(3);
        let thieves = qs.iter().map(|q| q.thief().unwrap()).collect();
        let view = PoolView::new(0, 16, thieves, &tasks, &topo);
        let mut rng = Rng::new(1);
        assert_eq!((view.workers(), view.me()), (3, 0));
        assert_eq!(view.stealable_len(1), 0);
        assert_eq!(view.stealable_len(2), 16);
        assert!(!view.sample(1, &mut rng));
        assert!(view.sample(2, &mut rng), "a full queue is always accepted");
        assert_eq!(view.tasks_run(1), 7);
        assert_eq!(view.topology().workers(), 3);
        assert!(matches!(
            view.thief(2).steal(),
            super::super::steal::Stolen::Item(0)
        ));
    }
}
