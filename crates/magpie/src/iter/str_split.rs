//! The splits of a string: `par_split`, `par_lines` and `par_split_whitespace`
//! (see [`ParallelString`](super::ParallelString)).
//!
//! A piece is a part of the string that starts and ends where the sequential split
//! would: the splitter's cut near the middle moves to the nearest separator after it
//! (or, if there is none, before it), and the two parts are the text on either side.
//! Then the sequential split of the whole is the sequential splits of the parts, in
//! order, so each piece simply runs the standard iterator (`str::lines`,
//! `str::split_whitespace`, or a `split` on the pattern):
//! * `par_split` drops the separator between the parts (`"a,b"` is `"a"` and `"b"`;
//!   an empty part still yields one empty substring, as `str::split` does);
//! * `par_lines` keeps the `\n` at the end of the left part (`str::lines` there
//!   yields no empty line after it and strips a `\r` before it);
//! * `par_split_whitespace` cuts just before a whitespace character.
//!
//! A part with no separator cannot be cut; it says so through `min_len`, so the
//! splitter stops trying (one search of the part, not one per level). Positions are
//! bytes, as for [`Chars`](super::string::Chars); the separators between parts
//! occupy positions that no piece owns.

use std::sync::Arc;

use super::plumbing::Producer;
use super::string::{ceil_boundary, floor_boundary};
use super::ParallelIterator;

mod sealed {
    /// Finding a pattern in a string: the first or last match's byte offset and
    /// length.
    pub trait Matcher {
        fn find_in(&self, s: &str) -> Option<(usize, usize)>;
        fn rfind_in(&self, s: &str) -> Option<(usize, usize)>;
    }
}
use sealed::Matcher;

/// What `par_split` accepts as a separator: a `char`, or a `Fn(char) -> bool` that
/// says which characters separate (sealed, as rayon's).
pub trait Pattern: Matcher + Sync + Send {}

impl Matcher for char {
    fn find_in(&self, s: &str) -> Option<(usize, usize)> {
        s.find(*self).map(|i| (i, self.len_utf8()))
    }
    fn rfind_in(&self, s: &str) -> Option<(usize, usize)> {
        s.rfind(*self).map(|i| (i, self.len_utf8()))
    }
}

impl<F: Fn(char) -> bool> Matcher for F {
    fn find_in(&self, s: &str) -> Option<(usize, usize)> {
        let (i, c) = s.char_indices().find(|&(_, c)| self(c))?;
        Some((i, c.len_utf8()))
    }
    fn rfind_in(&self, s: &str) -> Option<(usize, usize)> {
        let (i, c) = s.char_indices().rev().find(|&(_, c)| self(c))?;
        Some((i, c.len_utf8()))
    }
}

impl Pattern for char {}
impl<F: Fn(char) -> bool + Sync + Send> Pattern for F {}

/// The match of `m` whose start is nearest after `at` in `s[lo..hi]` (or, if there
/// is none, the last one before it); `lo` and `hi` are character boundaries.
fn near(m: &impl Matcher, s: &str, lo: usize, at: usize, hi: usize) -> Option<(usize, usize)> {
    let at = ceil_boundary(s, at).clamp(lo, hi);
    match m.find_in(&s[at..hi]) {
        Some((i, n)) => Some((at + i, n)),
        None => m.rfind_in(&s[lo..at]).map(|(i, n)| (lo + i, n)),
    }
}

/// How one kind of split cuts a part of the string, and what a part yields.
pub trait Cut: Sync + Send + Sized {
    /// A part's sequential iterator.
    type Pieces<'a>: Iterator<Item = &'a str>;
    /// Where to cut `s` near `at` (`0 < at < s.len()`): the end of the left part and
    /// the start of the right one; `None` if `s` has no separator.
    fn cut(&self, s: &str, at: usize) -> Option<(usize, usize)>;
    /// The sequential split of the part `s`.
    fn pieces<'a>(this: &Arc<Self>, s: &'a str) -> Self::Pieces<'a>;
}

/// [`Cut`] of `par_split`: at a match of the pattern, which neither part keeps.
pub struct BySeparator<P>(P);

/// [`Cut`] of `par_lines`: just after a `\n`, which the left part keeps.
pub struct ByLine;

/// [`Cut`] of `par_split_whitespace`: just before a whitespace character.
pub struct ByWhitespace;

impl<P: Pattern> Cut for BySeparator<P> {
    type Pieces<'a> = SplitPiece<'a, P>;
    fn cut(&self, s: &str, at: usize) -> Option<(usize, usize)> {
        near(&self.0, s, 0, at, s.len()).map(|(i, n)| (i, i + n))
    }
    fn pieces<'a>(this: &Arc<Self>, s: &'a str) -> SplitPiece<'a, P> {
        SplitPiece {
            rest: Some(s),
            cut: Arc::clone(this),
        }
    }
}

impl Cut for ByLine {
    type Pieces<'a> = std::str::Lines<'a>;
    fn cut(&self, s: &str, at: usize) -> Option<(usize, usize)> {
        // Not the last character: the right part must not be empty.
        let hi = floor_boundary(s, s.len() - 1);
        near(&'\n', s, 0, at, hi).map(|(i, _)| (i + 1, i + 1))
    }
    fn pieces<'a>(_: &Arc<Self>, s: &'a str) -> std::str::Lines<'a> {
        s.lines()
    }
}

impl Cut for ByWhitespace {
    type Pieces<'a> = std::str::SplitWhitespace<'a>;
    fn cut(&self, s: &str, at: usize) -> Option<(usize, usize)> {
        // Not the first character: the left part must not be empty.
        let lo = ceil_boundary(s, 1);
        near(&char::is_whitespace, s, lo, at, s.len()).map(|(i, _)| (i, i))
    }
    fn pieces<'a>(_: &Arc<Self>, s: &'a str) -> std::str::SplitWhitespace<'a> {
        s.split_whitespace()
    }
}

/// A part of `par_split` as a sequential iterator: `str::split` on the pattern.
pub struct SplitPiece<'a, P> {
    rest: Option<&'a str>,
    cut: Arc<BySeparator<P>>,
}

impl<'a, P: Pattern> Iterator for SplitPiece<'a, P> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match self.cut.0.find_in(rest) {
            Some((i, n)) => {
                self.rest = Some(&rest[i + n..]);
                Some(&rest[..i])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// The producer of the splits: a part of the string (`None`: nothing at all, which
/// differs from an empty part for `par_split`).
pub struct SplitProducer<'a, C> {
    part: Option<&'a str>,
    cut: Arc<C>,
    /// The part has no separator, so it cannot be cut.
    whole: bool,
}

impl<'a, C: Cut> SplitProducer<'a, C> {
    fn new(s: &'a str, cut: C) -> Self {
        SplitProducer {
            part: Some(s),
            cut: Arc::new(cut),
            whole: false,
        }
    }

    fn with(&self, part: Option<&'a str>, whole: bool) -> Self {
        SplitProducer {
            part,
            cut: Arc::clone(&self.cut),
            whole,
        }
    }
}

impl<'a, C: Cut> Producer for SplitProducer<'a, C> {
    type Item = &'a str;
    type IntoIter = std::iter::Flatten<std::option::IntoIter<C::Pieces<'a>>>;
    fn len(&self) -> usize {
        self.part.map_or(0, str::len)
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let nothing = self.with(None, false);
        let s = match self.part {
            Some(s) if index > 0 && index < s.len() && !self.whole => s,
            _ if index == 0 => return (nothing, self),
            _ => return (self, nothing),
        };
        match self.cut.cut(s, index) {
            Some((end, start)) => (
                self.with(Some(&s[..end]), false),
                self.with(Some(&s[start..]), false),
            ),
            None => (self.with(Some(s), true), nothing),
        }
    }
    fn into_iter(self) -> Self::IntoIter {
        let cut = self.cut;
        self.part.map(|s| C::pieces(&cut, s)).into_iter().flatten()
    }
    fn min_len(&self) -> usize {
        if self.whole {
            usize::MAX
        } else {
            1
        }
    }
    fn exact(&self) -> bool {
        false
    }
}

/// Parallel iterator over the substrings between matches of a pattern
/// ([`ParallelString::par_split`](super::ParallelString::par_split)).
#[derive(Debug, Clone)]
pub struct Split<'a, P> {
    s: &'a str,
    separator: P,
}

impl<'a, P: Pattern> Split<'a, P> {
    pub(super) fn new(s: &'a str, separator: P) -> Self {
        Split { s, separator }
    }
}

impl<'a, P: Pattern> ParallelIterator for Split<'a, P> {
    type Item = &'a str;
    type Producer = SplitProducer<'a, BySeparator<P>>;
    fn into_producer(self) -> Self::Producer {
        SplitProducer::new(self.s, BySeparator(self.separator))
    }
}

/// Parallel iterator over the lines of a string
/// ([`ParallelString::par_lines`](super::ParallelString::par_lines)).
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    s: &'a str,
}

impl<'a> Lines<'a> {
    pub(super) fn new(s: &'a str) -> Self {
        Lines { s }
    }
}

impl<'a> ParallelIterator for Lines<'a> {
    type Item = &'a str;
    type Producer = SplitProducer<'a, ByLine>;
    fn into_producer(self) -> Self::Producer {
        SplitProducer::new(self.s, ByLine)
    }
}

/// Parallel iterator over the whitespace-separated words of a string
/// ([`ParallelString::par_split_whitespace`](super::ParallelString::par_split_whitespace)).
#[derive(Debug, Clone)]
pub struct SplitWhitespace<'a> {
    s: &'a str,
}

impl<'a> SplitWhitespace<'a> {
    pub(super) fn new(s: &'a str) -> Self {
        SplitWhitespace { s }
    }
}

impl<'a> ParallelIterator for SplitWhitespace<'a> {
    type Item = &'a str;
    type Producer = SplitProducer<'a, ByWhitespace>;
    fn into_producer(self) -> Self::Producer {
        SplitProducer::new(self.s, ByWhitespace)
    }
}
