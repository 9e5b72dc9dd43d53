//! Parallel iterators on the pool, rayon's `par_iter` for magpie.
//!
//! `use magpie::prelude::*;` brings `par_iter()`, `par_iter_mut()` and `into_par_iter()`
//! on slices, `Vec`s, arrays and integer ranges; on slices the views `par_chunks()`,
//! `par_chunks_exact()`, `par_rchunks()`, `par_split()`, `par_split_inclusive()`,
//! `par_chunk_by()` (each also `_mut`) and `par_windows()`, and the
//! sorts `par_sort()`/`par_sort_unstable()` with their `_by` and `_by_key` forms and
//! `par_sort_by_cached_key()`; `par_drain(range)` on `Vec`s, `VecDeque`s and `String`s;
//! `par_iter()`/`into_par_iter()` on the standard maps, sets and `VecDeque` (and
//! `par_iter_mut()` on the maps and `VecDeque`); on strings `par_chars()`,
//! `par_char_indices()`, `par_bytes()`, `par_encode_utf16()`, `par_lines()`,
//! `par_split()` (also `_inclusive`, `_terminator`), `par_split_whitespace()` (also
//! `_ascii_whitespace`), `par_matches()` and `par_match_indices()`;
//! `par_bridge()` on any `Iterator + Send`; `par_extend()` on the standard collections;
//! the sources [`repeat_n`], [`repeat`], [`once`] and [`empty`]; and `into_par_iter()`
//! on tuples of up to eight indexed iterables, which walk them in lockstep ([`MultiZip`]).
//! The adaptors and consumers carry rayon's names and meaning:
//!
//! ```
//! use magpie::prelude::*;
//!
//! let v: Vec<u64> = (0..1_000).collect();
//! let squares: u64 = v.par_iter().map(|x| x * x).sum();
//! assert_eq!(squares, v.iter().map(|x| x * x).sum());
//! let evens: Vec<u64> = (0..100u64).into_par_iter().filter(|x| x % 2 == 0).collect();
//! assert_eq!(evens, (0..100).step_by(2).collect::<Vec<_>>());
//! ```
//!
//! Indexed adaptors, other collections, fallible work and state per piece:
//!
//! ```
//! use std::collections::HashMap;
//! use std::fmt::Write;
//! use magpie::prelude::*;
//!
//! let words = ["apple", "bob", "kayak", "magpie", "noon"];
//! let tail: Vec<(usize, &str)> = words.par_iter().copied().enumerate().skip(2).rev().collect();
//! assert_eq!(tail, [(4, "noon"), (3, "magpie"), (2, "kayak")]);
//!
//! let lengths: HashMap<&str, usize> = words.par_iter().map(|w| (*w, w.len())).collect();
//! assert_eq!(lengths["magpie"], 6);
//! let (palindromes, others): (Vec<&str>, Vec<&str>) =
//!     words.par_iter().copied().partition(|w| w.chars().rev().eq(w.chars()));
//! assert_eq!((palindromes, others), (vec!["bob", "kayak", "noon"], vec!["apple", "magpie"]));
//!
//! // Stops at the first error; `try_for_each` and `try_reduce` do the same.
//! let parsed: Result<Vec<u32>, _> = ["1", "2", "x"].par_iter().map(|s| s.parse::<u32>()).collect();
//! assert!(parsed.is_err());
//!
//! // One buffer per piece, not per item.
//! let digits: usize = (0..1000u32)
//!     .into_par_iter()
//!     .map_init(String::new, |buf, x| {
//!         buf.clear();
//!         write!(buf, "{x}").unwrap();
//!         buf.len()
//!     })
//!     .sum();
//! assert_eq!(digits, 10 + 90 * 2 + 900 * 3);
//! ```
//!
//! Ordered searches, strings, maps and draining:
//!
//! ```
//! use std::collections::BTreeMap;
//! use magpie::prelude::*;
//!
//! let text = "pear 3\napple 7\nfig 2\nplum 7\n";
//! let best = text.par_lines().map(|l| l.split_once(' ').unwrap()).find_last(|(_, n)| *n == "7");
//! assert_eq!(best, Some(("plum", "7")));
//! let stock: BTreeMap<&str, u32> =
//!     text.par_lines().map(|l| l.split_once(' ').unwrap()).map(|(k, n)| (k, n.parse().unwrap())).collect();
//! assert_eq!(stock.par_iter().map(|(_, n)| n).sum::<u32>(), 19);
//! let first_f = text.par_split_whitespace().find_first(|w| w.starts_with('f'));
//! assert_eq!(first_f, Some("fig"));
//!
//! let mut v: Vec<u32> = (0..10).collect();
//! let evens: Vec<u32> = v.par_drain(2..6).filter(|x| x % 2 == 0).collect();
//! assert_eq!((evens, v), (vec![2, 4], vec![0, 1, 6, 7, 8, 9]));
//! ```
//!
//! Cuts not bound to order, comparisons, and splitting into two:
//!
//! ```
//! use magpie::iter::Either;
//! use magpie::prelude::*;
//!
//! // Any 10 multiples of 7 (which ones depends on timing), in their relative order.
//! let some: Vec<u32> = (0..1_000_000u32).into_par_iter().filter(|x| x % 7 == 0).take_any(10).collect();
//! assert!(some.len() == 10 && some.windows(2).all(|w| w[0] < w[1] && w[1] % 7 == 0));
//!
//! let (a, b) = (vec![1, 2, 3], vec![1, 2, 4]);
//! assert!(a.par_iter().lt(b.par_iter()) && a.par_iter().eq(a.par_iter()));
//!
//! let (numbers, words): (Vec<u32>, Vec<&str>) = ["7", "magpie", "42"]
//!     .par_iter()
//!     .partition_map(|s| s.parse().map_or(Either::Right(*s), Either::Left));
//! assert_eq!((numbers, words), (vec![7, 42], vec!["magpie"]));
//! ```
//!
//! A call runs on the pool of the calling worker (inside [`ThreadPool::install`],
//! [`join`](crate::join) or a scope task), otherwise on the global pool, and blocks
//! until done. How the input is divided is explained in [`plumbing`]: no fixed chunks,
//! more splits only where work is being stolen.
//!
//! # Same as rayon
//! * `collect` and `par_extend` keep the input order (into a `Vec`, `VecDeque`,
//!   `LinkedList` or `String`, and `unzip`/`partition` into both sides); into a map,
//!   the last of equal keys wins, as in a sequential `collect`.
//! * A panic in a closure reaches the caller after the other pieces have finished,
//!   and the pool stays usable.
//! * `any`, `all`, `find_any`, `find_map_any`, `position_any`, `try_for_each`,
//!   `try_reduce` and `collect` into `Result`/`Option` stop the other workers' pieces
//!   soon (at their next item) once the answer is known, and split no further.
//!   After a `filter` or `filter_map`, "soon" is within 32 rejected items
//!   (`leaf_stop.rs`), so `(0..u64::MAX).into_par_iter().filter(..).find_any(..)`
//!   returns once a match is found.
//! * `find_first`, `find_map_first`, `position_first` return the first match in
//!   order, `find_last`, `find_map_last`, `position_last` the last; pieces after
//!   (before) a match stop soon after it is found (see `find_ordered.rs`), also after
//!   a `filter`.
//! * `min`, `min_by`, `min_by_key` return the first of equal minima, `max`, `max_by`,
//!   `max_by_key` the last of equal maxima.
//! * `map_with`/`for_each_with`/`try_for_each_with` clone the state per piece, and
//!   `fold_with` its accumulator; `map_init`/`for_each_init`/`try_for_each_init` call
//!   `init` once per piece; `par_bridge` does not keep the iterator's order.
//! * `while_some` stops every piece soon after a `None`; which values before it come
//!   out depends on timing (as in rayon).
//! * `take_any`, `skip_any`, `take_any_while` and `skip_any_while` choose their items
//!   by timing but keep their relative order; `panic_fuse` stops the other pieces at
//!   their next item once one panics (see `any_order.rs`).
//!
//! # Differences
//! * A `flat_map` or `flat_map_iter` whose inner iterators come out empty for a long
//!   stretch of outer items sees a short-circuit's stop only between the items it
//!   yields (rayon: after every outer item).
//! * `with_min_len` and `with_max_len` are available on every parallel iterator (they
//!   bound positions of the source, so they are meaningful after `filter` too).
//! * `fold` returns one accumulator per piece as a parallel iterator (as rayon), and
//!   how many pieces there are depends on stealing (as rayon).
//! * `flat_map` and `flatten` take parallel iterables as rayon's do, but do not split
//!   the inner iterators: each runs sequentially in the piece that holds its outer
//!   item (as `flat_map_iter`/`flatten_iter`, which rayon recommends for short inner
//!   iterators anyway). For few outer items with long inner ones, reduce a nested
//!   parallel iterator inside `map` instead.
//! * `rev` needs the pieces' sequential iterators to be double-ended (see [`Rev`]);
//!   after `enumerate`, `zip` or `step_by` they must also know their length, which the
//!   `u64`/`i64` ranges and `chain` do not (as in `std`): reverse before those.
//! * [`Try`] (for `try_for_each`, `try_reduce`) is sealed, implemented for `Result`,
//!   `Option` and `ControlFlow`.
//! * Maps and sets are iterated through a `Vec` of their items, collected
//!   sequentially first (as rayon does); the iterator types are those of a `Vec`
//!   ([`IntoIter`]), not rayon's per-collection types.
//! * On Linux, `collect` and `par_extend` into a `Vec` map the output's pages 256 KiB
//!   at a time just before writing them (`MADV_POPULATE_WRITE`; see `prefault.rs`)
//!   when a piece writes 512 KiB or more: the same memory as rayon's, fewer faults.
//! * The iterator of `par_match_indices` and `par_encode_utf16` is a
//!   `Map`/`FlatMapIter`, not a type of its own. The slices' splits are [`SplitSlice`],
//!   [`ChunkBy`] and kin (rayon: `slice::Split`, ...), as [`Split`] is the string's.
//! * `par_lines` splits as `str::lines`: a last line ending in a bare `\r` keeps it
//!   (rayon strips a `\r` from the end of every line).
//! * `par_drain` on a `VecDeque` or a `String` moves the range into a `Vec` first (one
//!   sequential pass; rayon iterates them in place); on a `Vec` it works in place.
//! * The integer ranges are the half-open `a..b` of `u8` to `u64`, `i8` to `i64`,
//!   `usize` and `isize`; rayon's `a..=b`, `char` and 128-bit ranges are not
//!   sources (write `a..b + 1`). The `u64` and `i64` ranges are indexed (rayon's are
//!   not); one longer than `usize::MAX` (possible on a 32-bit target) panics.
//! * [`repeat`] is not itself a parallel iterator (rayon's is, endless and unindexed):
//!   give it a length with `take` or `zip`, or use [`repeat_n`].
//! * `chunks` on an indexed iterator yields [`VecChunks`] (rayon: `iter::Chunks`; the
//!   name `Chunks` is `par_chunks`' here).
//! * `panic_fuse` yields a parallel iterator that is not indexed (a piece the fuse
//!   stops yields fewer items than its positions): put it after `enumerate`, `zip`
//!   and the other indexed adaptors (rayon's `PanicFuse` is indexed).
//! * `by_exponential_blocks` / `by_uniform_blocks`: the blocks survive `map`, `filter`
//!   and the other adaptors that keep positions, not a `chain` after them (its halves
//!   then run as usual).
//! * `intersperse` is a method of indexed iterators only (rayon: of every parallel
//!   iterator): a piece of a `filter` cannot know whether an earlier piece yielded
//!   anything, so it could not tell whether its first item needs a separator before it.
//!
//! [`ThreadPool::install`]: crate::ThreadPool::install

mod any_order;
mod blocks;
mod chain;
mod chunks;
mod chunks_exact;
mod collect;
mod collect_result;
mod collection_sources;
mod collections;
mod drain;
mod driven;
mod enumerate;
mod extend;
mod filter;
mod find;
mod find_ordered;
mod flat_map_iter;
mod fold;
mod indexed;
mod interleave;
mod intersperse;
mod leaf_stop;
mod map;
mod map_with;
mod min_len;
mod min_max;
mod multizip;
mod par_bridge;
mod parallel_iterator;
pub mod plumbing;
mod prefault;
mod range;
mod rchunks;
mod rev;
mod slice;
mod slice_split;
mod sort;
mod sources;
mod step_by;
mod str_split;
mod string;
mod take_skip;
mod try_ops;
mod unzip;
mod vec;
mod while_some;
mod windows;
mod zip;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub use any_order::{
    Admit, AnyOrder, Fuse, Gate, PanicFuse, SkipAny, SkipAnyWhile, SkipCount, SkipWhile, TakeAny,
    TakeAnyWhile, TakeCount, TakeWhile,
};
pub use blocks::{ExponentialBlocks, UniformBlocks};
pub use chain::Chain;
pub use chunks::{
    ChunkFold, Chunked, FoldChunks, FoldChunksWith, FoldFrom, FoldFromClone, IntoVec, VecChunks,
};
pub use chunks_exact::{ChunksExact, ChunksExactMut};
pub use collect::FromParallelIterator;
pub use drain::{Drain, ParallelDrainRange};
pub use driven::Driven;
pub use either::Either;
pub use enumerate::Enumerate;
pub use extend::ParallelExtend;
pub use filter::{Filter, FilterMap};
pub use flat_map_iter::FlatMapIter;
pub use fold::{Fold, FoldWith, TryFold, TryFoldWith};
pub use indexed::IndexedParallelIterator;
pub use interleave::{Interleave, InterleaveShortest};
pub use intersperse::Intersperse;
pub use map::Map;
pub use map_with::{MapInit, MapWith};
pub use min_len::{MaxLen, MinLen};
pub use multizip::{MultiZip, MultiZipIter, MultiZipProducer};
pub use par_bridge::{IterBridge, ParallelBridge};
pub use parallel_iterator::{Inner, ParallelIterator};
pub use range::RangeIter;
pub use rchunks::{RChunks, RChunksExact, RChunksExactMut, RChunksMut};
pub use rev::Rev;
pub use slice::{Chunks, ChunksMut, Iter, IterMut, ParallelSlice, ParallelSliceMut};
pub use slice_split::{
    Boundary, ChunkBy, ChunkByMut, EndsWithSeparator, Part, Separator, SlicePieces, SliceSplit,
    SliceSplitProducer, SplitSlice, SplitSliceInclusive, SplitSliceInclusiveMut, SplitSliceMut,
    Unpaired,
};
pub use sources::{empty, once, repeat, repeat_n, Empty, Once, Repeat, RepeatN, RepeatNIter};
pub use step_by::StepBy;
pub use str_split::{
    AfterSeparator, ByAsciiWhitespace, ByLine, ByMatch, BySeparator, ByWhitespace, Cut, Lines,
    Matches, Pattern, PatternCut, PatternPieces, Split, SplitAsciiWhitespace, SplitInclusive,
    SplitProducer, SplitTerminator, SplitWhitespace, StrSplit,
};
pub use string::{Bytes, CharIndices, Chars, ParallelString};
pub use take_skip::{Skip, Take};
pub use try_ops::Try;
pub use vec::IntoIter;
pub use while_some::WhileSome;
pub use windows::Windows;
pub use zip::Zip;

use plumbing::{bridge, Producer, Reducer};

/// A value that can become a parallel iterator (`into_par_iter`).
pub trait IntoParallelIterator {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items.
    type Item: Send;
    /// Converts into the parallel iterator.
    fn into_par_iter(self) -> Self::Iter;
}

impl<I: ParallelIterator> IntoParallelIterator for I {
    type Iter = I;
    type Item = I::Item;
    fn into_par_iter(self) -> I {
        self
    }
}

/// `par_iter()`: a parallel iterator over shared references, for any collection whose
/// reference converts (`&Vec<T>`, `&[T]`, `&[T; N]`).
pub trait IntoParallelRefIterator<'data> {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items (`&'data T`).
    type Item: Send + 'data;
    /// Iterates over `&self` in parallel.
    fn par_iter(&'data self) -> Self::Iter;
}

impl<'data, C: ?Sized + 'data> IntoParallelRefIterator<'data> for C
where
    &'data C: IntoParallelIterator,
{
    type Iter = <&'data C as IntoParallelIterator>::Iter;
    type Item = <&'data C as IntoParallelIterator>::Item;
    fn par_iter(&'data self) -> Self::Iter {
        self.into_par_iter()
    }
}

/// `par_iter_mut()`: a parallel iterator over mutable references.
pub trait IntoParallelRefMutIterator<'data> {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items (`&'data mut T`).
    type Item: Send + 'data;
    /// Iterates over `&mut self` in parallel.
    fn par_iter_mut(&'data mut self) -> Self::Iter;
}

impl<'data, C: ?Sized + 'data> IntoParallelRefMutIterator<'data> for C
where
    &'data mut C: IntoParallelIterator,
{
    type Iter = <&'data mut C as IntoParallelIterator>::Iter;
    type Item = <&'data mut C as IntoParallelIterator>::Item;
    fn par_iter_mut(&'data mut self) -> Self::Iter {
        self.into_par_iter()
    }
}

/// Runs `iter` with `leaf` on every piece and `combine` on neighbours.
fn drive<I, R>(
    iter: I,
    leaf: &(dyn Fn(<I::Producer as Producer>::IntoIter) -> R + Sync),
    combine: &(dyn Fn(R, R) -> R + Sync),
    stop: Option<&Arc<AtomicBool>>,
) -> R
where
    I: ParallelIterator,
    R: Send,
{
    bridge(
        iter.into_producer(),
        &Reducer {
            leaf,
            combine,
            stop,
        },
    )
}
