//! `unzip`, `partition` and `partition_map`: one pass over the items, two collections
//! out.
//!
//! Each piece splits its items into a pair of `Vec`s (in order), neighbours' pairs are
//! linked in order, and the two sides are concatenated and then handed to the target
//! collections' `par_extend` (for a `Vec` target that is a parallel move in place).
//! Running the source once matters more than the extra move: the items may be costly
//! to produce, and a source such as an owned `Vec` can only be read once.

use std::collections::LinkedList;

use either::Either;

use super::plumbing::Producer;
use super::{drive, ParallelExtend, ParallelIterator};

/// Runs `iter`, splitting each piece's items with `split` into two `Vec`s, and extends
/// fresh `A` and `B` with the two sides in order.
fn split_into<I, L, R, A, B, S>(iter: I, split: S) -> (A, B)
where
    I: ParallelIterator,
    L: Send,
    R: Send,
    A: Default + Send + ParallelExtend<L>,
    B: Default + Send + ParallelExtend<R>,
    S: Fn(<I::Producer as Producer>::IntoIter) -> (Vec<L>, Vec<R>) + Sync,
{
    let (left, right) = split_pieces(iter, split);
    let (mut a, mut b) = (A::default(), B::default());
    a.par_extend(left);
    b.par_extend(right);
    (a, b)
}

/// Runs `iter`, splitting each piece's items with `split`, and concatenates the
/// pieces' two sides in order.
fn split_pieces<I, L, R, S>(iter: I, split: S) -> (Vec<L>, Vec<R>)
where
    I: ParallelIterator,
    L: Send,
    R: Send,
    S: Fn(<I::Producer as Producer>::IntoIter) -> (Vec<L>, Vec<R>) + Sync,
{
    let leaf = |it| LinkedList::from([split(it)]);
    let combine = |mut a: LinkedList<(Vec<L>, Vec<R>)>, mut b| {
        a.append(&mut b);
        a
    };
    let pieces = drive(iter, &leaf, &combine, None);
    let mut left = Vec::with_capacity(pieces.iter().map(|p| p.0.len()).sum());
    let mut right = Vec::with_capacity(pieces.iter().map(|p| p.1.len()).sum());
    for (mut l, mut r) in pieces {
        left.append(&mut l);
        right.append(&mut r);
    }
    (left, right)
}

/// [`IndexedParallelIterator::unzip_into_vecs`](super::IndexedParallelIterator::unzip_into_vecs):
/// appends the two sides to `a` and `b`.
pub(super) fn unzip_into<I, L, R>(iter: I, a: &mut Vec<L>, b: &mut Vec<R>)
where
    I: ParallelIterator<Item = (L, R)>,
    L: Send,
    R: Send,
{
    let (left, right) = split_pieces(iter, |it| it.unzip());
    a.par_extend(left);
    b.par_extend(right);
}

/// [`ParallelIterator::unzip`].
pub(super) fn unzip<I, L, R, A, B>(iter: I) -> (A, B)
where
    I: ParallelIterator<Item = (L, R)>,
    L: Send,
    R: Send,
    A: Default + Send + ParallelExtend<L>,
    B: Default + Send + ParallelExtend<R>,
{
    split_into(iter, |it| it.unzip())
}

/// [`ParallelIterator::partition`].
pub(super) fn partition<I, A, B, P>(iter: I, predicate: P) -> (A, B)
where
    I: ParallelIterator,
    A: Default + Send + ParallelExtend<I::Item>,
    B: Default + Send + ParallelExtend<I::Item>,
    P: Fn(&I::Item) -> bool + Sync,
{
    split_into(iter, |it| it.partition(&predicate))
}

/// [`ParallelIterator::partition_map`].
pub(super) fn partition_map<I, A, B, L, R, P>(iter: I, op: P) -> (A, B)
where
    I: ParallelIterator,
    A: Default + Send + ParallelExtend<L>,
    B: Default + Send + ParallelExtend<R>,
    L: Send,
    R: Send,
    P: Fn(I::Item) -> Either<L, R> + Sync,
{
    split_into(iter, |it| {
        let (mut left, mut right) = (Vec::new(), Vec::new());
        for item in it {
            match op(item) {
                Either::Left(l) => left.push(l),
                Either::Right(r) => right.push(r),
            }
        }
        (left, right)
    })
}
