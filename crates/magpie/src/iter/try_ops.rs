//! `try_for_each` (also `_with` and `_init`), `try_reduce` and `try_reduce_with`:
//! consumers that stop at the first failure.
//!
//! A failure is a `Result::Err`, an `Option::None` or a `ControlFlow::Break`, seen
//! through the [`Try`] trait (std's own `Try` is unstable; this is its stable subset,
//! as rayon has). The piece that meets one sets the run's stop flag, like `find_any`:
//! no piece is split any more and the others end at their next item. Which failure
//! comes back when several pieces fail is not fixed (the leftmost of those found).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::plumbing::Producer;
use super::{drive, ParallelIterator};

mod sealed {
    pub trait Sealed {}
    impl<T, E> Sealed for Result<T, E> {}
    impl<T> Sealed for Option<T> {}
    impl<B, C> Sealed for std::ops::ControlFlow<B, C> {}
}

/// A value that is either an output (go on) or a failure (stop): implemented for
/// `Result`, `Option` and `ControlFlow`, and sealed.
pub trait Try: sealed::Sealed + Sized {
    /// The value carried on success.
    type Output;
    /// What a failure carries (`E` for `Result<T, E>`, `()` for `Option`, `B` for
    /// `ControlFlow<B, C>`).
    type Residual;
    /// Wraps a success.
    fn from_output(output: Self::Output) -> Self;
    /// Wraps a failure.
    fn from_residual(residual: Self::Residual) -> Self;
    /// Whether to go on with the output or stop with the failure.
    fn branch(self) -> ControlFlow<Self::Residual, Self::Output>;
}

impl<T, E> Try for Result<T, E> {
    type Output = T;
    type Residual = E;
    fn from_output(output: T) -> Self {
        Ok(output)
    }
    fn from_residual(residual: E) -> Self {
        Err(residual)
    }
    fn branch(self) -> ControlFlow<E, T> {
        match self {
            Ok(x) => ControlFlow::Continue(x),
            Err(e) => ControlFlow::Break(e),
        }
    }
}

impl<T> Try for Option<T> {
    type Output = T;
    type Residual = ();
    fn from_output(output: T) -> Self {
        Some(output)
    }
    fn from_residual((): ()) -> Self {
        None
    }
    fn branch(self) -> ControlFlow<(), T> {
        match self {
            Some(x) => ControlFlow::Continue(x),
            None => ControlFlow::Break(()),
        }
    }
}

impl<B, C> Try for ControlFlow<B, C> {
    type Output = C;
    type Residual = B;
    fn from_output(output: C) -> Self {
        ControlFlow::Continue(output)
    }
    fn from_residual(residual: B) -> Self {
        ControlFlow::Break(residual)
    }
    fn branch(self) -> ControlFlow<B, C> {
        self
    }
}

/// A piece's outcome: its accumulator, or the failure that stopped it (already
/// wrapped back into `R`, which is `Send`, unlike a bare residual).
type Outcome<R, T> = ControlFlow<R, T>;

/// `r` as an outcome, setting `stop` if it is a failure.
fn step<R: Try>(r: R, stop: &AtomicBool) -> Outcome<R, R::Output> {
    match r.branch() {
        ControlFlow::Continue(x) => ControlFlow::Continue(x),
        ControlFlow::Break(residual) => {
            // Relaxed: the flag only saves work; the failure travels through join.
            stop.store(true, Ordering::Relaxed);
            ControlFlow::Break(R::from_residual(residual))
        }
    }
}

/// [`ParallelIterator::try_for_each`].
pub(super) fn try_for_each<I, F, R>(iter: I, f: F) -> R
where
    I: ParallelIterator,
    F: Fn(I::Item) -> R + Sync + Send,
    R: Try<Output = ()> + Send,
{
    let stop = Arc::new(AtomicBool::new(false));
    let leaf = |it: <I::Producer as Producer>::IntoIter| -> Outcome<R, ()> {
        for x in it {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            step(f(x), &stop)?;
        }
        ControlFlow::Continue(())
    };
    let combine = |a: Outcome<R, ()>, b: Outcome<R, ()>| -> Outcome<R, ()> {
        a?;
        b
    };
    match drive(iter, &leaf, &combine, Some(&stop)) {
        ControlFlow::Continue(()) => R::from_output(()),
        ControlFlow::Break(failure) => failure,
    }
}

/// [`ParallelIterator::try_reduce`].
pub(super) fn try_reduce<I, T, ID, OP>(iter: I, identity: ID, op: OP) -> I::Item
where
    I: ParallelIterator,
    I::Item: Try<Output = T>,
    T: Send,
    ID: Fn() -> T + Sync + Send,
    OP: Fn(T, T) -> I::Item + Sync + Send,
{
    let stop = Arc::new(AtomicBool::new(false));
    let leaf = |it: <I::Producer as Producer>::IntoIter| -> Outcome<I::Item, T> {
        let mut acc = identity();
        for x in it {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let x = step(x, &stop)?;
            acc = step(op(acc, x), &stop)?;
        }
        ControlFlow::Continue(acc)
    };
    let combine = |a: Outcome<I::Item, T>, b: Outcome<I::Item, T>| -> Outcome<I::Item, T> {
        let a = a?;
        let b = b?;
        step(op(a, b), &stop)
    };
    match drive(iter, &leaf, &combine, Some(&stop)) {
        ControlFlow::Continue(acc) => I::Item::from_output(acc),
        ControlFlow::Break(failure) => failure,
    }
}

/// [`ParallelIterator::try_reduce_with`].
pub(super) fn try_reduce_with<I, T, OP>(iter: I, op: OP) -> Option<I::Item>
where
    I: ParallelIterator,
    I::Item: Try<Output = T>,
    T: Send,
    OP: Fn(T, T) -> I::Item + Sync + Send,
{
    let stop = Arc::new(AtomicBool::new(false));
    let leaf = |it: <I::Producer as Producer>::IntoIter| -> Outcome<I::Item, Option<T>> {
        let mut acc = None;
        for x in it {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let x = step(x, &stop)?;
            acc = Some(match acc {
                None => x,
                Some(a) => step(op(a, x), &stop)?,
            });
        }
        ControlFlow::Continue(acc)
    };
    let combine = |a: Outcome<I::Item, Option<T>>, b: Outcome<I::Item, Option<T>>| match (a?, b?) {
        (Some(a), Some(b)) => ControlFlow::Continue(Some(step(op(a, b), &stop)?)),
        (a, b) => ControlFlow::Continue(a.or(b)),
    };
    match drive(iter, &leaf, &combine, Some(&stop)) {
        ControlFlow::Continue(acc) => acc.map(I::Item::from_output),
        ControlFlow::Break(failure) => Some(failure),
    }
}
