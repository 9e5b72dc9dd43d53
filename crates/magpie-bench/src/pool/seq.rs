//! The sequential bound: [`Seq`] implements [`ForkJoin`] with plain calls, so a
//! workload written once runs without any pool (fib's "x seq" column).

use super::run::{ForkJoin, Spawner};

/// Sequential [`ForkJoin`]: `join` runs `a` then `b`; spawned tasks run in spawn order
/// after the scope body (a queue, so a chain of spawns does not recurse).
#[derive(Clone, Copy, Debug)]
pub struct Seq;

type SeqTask<'s> = Box<dyn FnOnce(&SeqScope<'s>) + 's>;

/// The scope of [`Seq`]: a queue of tasks run when the body returns.
pub struct SeqScope<'s> {
    queue: std::cell::RefCell<std::collections::VecDeque<SeqTask<'s>>>,
}

impl ForkJoin for Seq {
    type Scope<'s> = SeqScope<'s>;

    #[inline]
    fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        (a(), b())
    }

    fn scope<'s, OP, R>(op: OP) -> R
    where
        OP: FnOnce(&SeqScope<'s>) -> R + Send,
        R: Send,
    {
        let s = SeqScope {
            queue: Default::default(),
        };
        let r = op(&s);
        loop {
            let next = s.queue.borrow_mut().pop_front();
            match next {
                Some(task) => task(&s),
                None => return r,
            }
        }
    }
}

impl<'s> Spawner<'s> for SeqScope<'s> {
    fn spawn_task<F>(&self, f: F)
    where
        F: FnOnce(&Self) + Send + 's,
    {
        self.queue.borrow_mut().push_back(Box::new(f));
    }
}
