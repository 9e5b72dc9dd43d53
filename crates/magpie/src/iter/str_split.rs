//! The splits of a string: `par_split`, `par_split_inclusive`, `par_split_terminator`,
//! `par_lines`, `par_split_whitespace`, `par_split_ascii_whitespace` and
//! `par_matches` (see [`ParallelString`](super::ParallelString)).
//!
//! A piece is a part of the string that starts and ends where the sequential split
//! would: the splitter's cut near the middle moves to the nearest separator after it
//! (or, if there is none, before it), and the two parts are the text on either side.
//! Then the sequential split of the whole is the sequential splits of the parts, in
//! order, so each piece simply runs the sequential iterator on its part:
//! * `par_split` drops the separator between the parts (`"a,b"` is `"a"` and `"b"`;
//!   an empty part still yields one empty substring, as `str::split` does);
//!   `par_split_terminator` is `par_split` of the string without its final
//!   separator, which is what `str::split_terminator` drops;
//! * `par_split_inclusive` and `par_lines` keep the separator (`\n`) at the end of the
//!   left part (`str::lines` there yields no empty line after it and strips a `\r`
//!   before it);
//! * the whitespace splits cut just before a whitespace character;
//! * `par_matches` may cut at any character boundary: a match is one character.
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

/// What the splits and `par_matches` accept as a pattern, as rayon's: a `char`, a set
/// of them (`&[char]`, `[char; N]`, `&[char; N]`), or a `Fn(char) -> bool` that says
/// which characters match (sealed).
///
/// ```
/// use magpie::prelude::*;
///
/// let fields: Vec<&str> = "a,b;c".par_split([',', ';']).collect();
/// assert_eq!(fields, ["a", "b", "c"]);
/// ```
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

/// A set of characters, any of which matches.
impl Matcher for [char] {
    fn find_in(&self, s: &str) -> Option<(usize, usize)> {
        (|c| self.contains(&c)).find_in(s)
    }
    fn rfind_in(&self, s: &str) -> Option<(usize, usize)> {
        (|c| self.contains(&c)).rfind_in(s)
    }
}

impl Matcher for &[char] {
    fn find_in(&self, s: &str) -> Option<(usize, usize)> {
        (**self).find_in(s)
    }
    fn rfind_in(&self, s: &str) -> Option<(usize, usize)> {
        (**self).rfind_in(s)
    }
}

impl<const N: usize> Matcher for [char; N] {
    fn find_in(&self, s: &str) -> Option<(usize, usize)> {
        self[..].find_in(s)
    }
    fn rfind_in(&self, s: &str) -> Option<(usize, usize)> {
        self[..].rfind_in(s)
    }
}

impl<const N: usize> Matcher for &[char; N] {
    fn find_in(&self, s: &str) -> Option<(usize, usize)> {
        self[..].find_in(s)
    }
    fn rfind_in(&self, s: &str) -> Option<(usize, usize)> {
        self[..].rfind_in(s)
    }
}

impl Pattern for char {}
impl Pattern for &[char] {}
impl<const N: usize> Pattern for [char; N] {}
impl<const N: usize> Pattern for &[char; N] {}
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

/// [`Cut`] of `par_split` and `par_split_terminator`: at a match of the pattern,
/// which neither part keeps.
#[derive(Clone, Debug)]
pub struct BySeparator<P>(P);

/// [`Cut`] of `par_split_inclusive`: just after a match, which the left part keeps.
#[derive(Clone, Debug)]
pub struct AfterSeparator<P>(P);

/// [`Cut`] of `par_matches`: at any character boundary.
#[derive(Clone, Debug)]
pub struct ByMatch<P>(P);

/// [`Cut`] of `par_lines`: just after a `\n`, which the left part keeps.
#[derive(Clone, Debug)]
pub struct ByLine;

/// [`Cut`] of `par_split_whitespace`: just before a whitespace character.
#[derive(Clone, Debug)]
pub struct ByWhitespace;

/// [`Cut`] of `par_split_ascii_whitespace`: just before an ASCII whitespace byte.
#[derive(Clone, Debug)]
pub struct ByAsciiWhitespace;

/// The end of `s` but its last character: a cut must leave the right part non-empty.
fn before_last(s: &str) -> usize {
    floor_boundary(s, s.len() - 1)
}

impl<P: Pattern> Cut for BySeparator<P> {
    type Pieces<'a> = PatternPieces<'a, Self>;
    fn cut(&self, s: &str, at: usize) -> Option<(usize, usize)> {
        near(&self.0, s, 0, at, s.len()).map(|(i, n)| (i, i + n))
    }
    fn pieces<'a>(this: &Arc<Self>, s: &'a str) -> PatternPieces<'a, Self> {
        PatternPieces::new(this, s)
    }
}

impl<P: Pattern> Cut for AfterSeparator<P> {
    type Pieces<'a> = PatternPieces<'a, Self>;
    fn cut(&self, s: &str, at: usize) -> Option<(usize, usize)> {
        near(&self.0, s, 0, at, before_last(s)).map(|(i, n)| (i + n, i + n))
    }
    fn pieces<'a>(this: &Arc<Self>, s: &'a str) -> PatternPieces<'a, Self> {
        PatternPieces::new(this, s)
    }
}

impl<P: Pattern> Cut for ByMatch<P> {
    type Pieces<'a> = PatternPieces<'a, Self>;
    fn cut(&self, s: &str, at: usize) -> Option<(usize, usize)> {
        let at = ceil_boundary(s, at);
        (at < s.len()).then_some((at, at))
    }
    fn pieces<'a>(this: &Arc<Self>, s: &'a str) -> PatternPieces<'a, Self> {
        PatternPieces::new(this, s)
    }
}

impl Cut for ByLine {
    type Pieces<'a> = std::str::Lines<'a>;
    fn cut(&self, s: &str, at: usize) -> Option<(usize, usize)> {
        near(&'\n', s, 0, at, before_last(s)).map(|(i, _)| (i + 1, i + 1))
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

impl Cut for ByAsciiWhitespace {
    type Pieces<'a> = std::str::SplitAsciiWhitespace<'a>;
    fn cut(&self, s: &str, at: usize) -> Option<(usize, usize)> {
        let lo = ceil_boundary(s, 1);
        let ascii_space = |c: char| c.is_ascii_whitespace();
        near(&ascii_space, s, lo, at, s.len()).map(|(i, _)| (i, i))
    }
    fn pieces<'a>(_: &Arc<Self>, s: &'a str) -> std::str::SplitAsciiWhitespace<'a> {
        s.split_ascii_whitespace()
    }
}

/// A [`Cut`] by a pattern, and what its parts yield around each match.
pub trait PatternCut: Cut {
    /// The pattern.
    type P: Pattern;
    /// The pattern of this cut.
    fn pattern(&self) -> &Self::P;
    /// What a part yields for a match at `[i, i + n)` of `rest`: the text before it,
    /// the text up to its end, or the match itself.
    fn before(rest: &str, i: usize, n: usize) -> &str;
    /// What a part yields for the `rest` after its last match (`None`: nothing).
    fn tail(rest: &str) -> Option<&str>;
}

impl<P: Pattern> PatternCut for BySeparator<P> {
    type P = P;
    fn pattern(&self) -> &P {
        &self.0
    }
    fn before(rest: &str, i: usize, _: usize) -> &str {
        &rest[..i]
    }
    fn tail(rest: &str) -> Option<&str> {
        Some(rest)
    }
}

impl<P: Pattern> PatternCut for AfterSeparator<P> {
    type P = P;
    fn pattern(&self) -> &P {
        &self.0
    }
    fn before(rest: &str, i: usize, n: usize) -> &str {
        &rest[..i + n]
    }
    fn tail(rest: &str) -> Option<&str> {
        (!rest.is_empty()).then_some(rest)
    }
}

impl<P: Pattern> PatternCut for ByMatch<P> {
    type P = P;
    fn pattern(&self) -> &P {
        &self.0
    }
    fn before(rest: &str, i: usize, n: usize) -> &str {
        &rest[i..i + n]
    }
    fn tail(_: &str) -> Option<&str> {
        None
    }
}

/// A part of a split by a pattern as a sequential iterator: `str::split`,
/// `str::split_inclusive` or `str::matches` on the pattern.
pub struct PatternPieces<'a, C> {
    rest: Option<&'a str>,
    cut: Arc<C>,
}

impl<'a, C> PatternPieces<'a, C> {
    fn new(cut: &Arc<C>, s: &'a str) -> Self {
        PatternPieces {
            rest: Some(s),
            cut: Arc::clone(cut),
        }
    }
}

impl<'a, C: PatternCut> Iterator for PatternPieces<'a, C> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match self.cut.pattern().find_in(rest) {
            Some((i, n)) => {
                self.rest = Some(&rest[i + n..]);
                Some(C::before(rest, i, n))
            }
            None => {
                self.rest = None;
                C::tail(rest)
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
    fn new(part: Option<&'a str>, cut: C) -> Self {
        SplitProducer {
            part,
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

/// A parallel iterator over the parts of a string that the [`Cut`] `C` makes: the
/// type behind [`Split`], [`Lines`] and the other aliases.
#[derive(Debug, Clone)]
pub struct StrSplit<'a, C> {
    /// The string (`None`: nothing to split, as `split_terminator` of `""`).
    part: Option<&'a str>,
    cut: C,
}

impl<'a, C: Cut> ParallelIterator for StrSplit<'a, C> {
    type Item = &'a str;
    type Producer = SplitProducer<'a, C>;
    fn into_producer(self) -> Self::Producer {
        SplitProducer::new(self.part, self.cut)
    }
}

/// Parallel iterator over the substrings between matches of a pattern
/// ([`ParallelString::par_split`](super::ParallelString::par_split)).
pub type Split<'a, P> = StrSplit<'a, BySeparator<P>>;
/// [`ParallelString::par_split_inclusive`](super::ParallelString::par_split_inclusive).
pub type SplitInclusive<'a, P> = StrSplit<'a, AfterSeparator<P>>;
/// [`ParallelString::par_split_terminator`](super::ParallelString::par_split_terminator).
pub type SplitTerminator<'a, P> = StrSplit<'a, BySeparator<P>>;
/// [`ParallelString::par_matches`](super::ParallelString::par_matches).
pub type Matches<'a, P> = StrSplit<'a, ByMatch<P>>;
/// Parallel iterator over the lines of a string
/// ([`ParallelString::par_lines`](super::ParallelString::par_lines)).
pub type Lines<'a> = StrSplit<'a, ByLine>;
/// Parallel iterator over the whitespace-separated words of a string
/// ([`ParallelString::par_split_whitespace`](super::ParallelString::par_split_whitespace)).
pub type SplitWhitespace<'a> = StrSplit<'a, ByWhitespace>;
/// [`ParallelString::par_split_ascii_whitespace`](super::ParallelString::par_split_ascii_whitespace).
pub type SplitAsciiWhitespace<'a> = StrSplit<'a, ByAsciiWhitespace>;

impl<'a, P: Pattern> Split<'a, P> {
    pub(super) fn new(s: &'a str, separator: P) -> Self {
        let cut = BySeparator(separator);
        StrSplit { part: Some(s), cut }
    }

    /// `str::split_terminator`: `str::split` of `s` without its final separator, and
    /// nothing at all for `""`.
    pub(super) fn terminator(s: &'a str, separator: P) -> Self {
        let part = s.char_indices().next_back().map(|(i, _)| {
            let ends_with_separator = separator.find_in(&s[i..]).is_some();
            if ends_with_separator {
                &s[..i]
            } else {
                s
            }
        });
        StrSplit {
            part,
            cut: BySeparator(separator),
        }
    }
}

impl<'a, P: Pattern> SplitInclusive<'a, P> {
    pub(super) fn new(s: &'a str, separator: P) -> Self {
        let cut = AfterSeparator(separator);
        StrSplit { part: Some(s), cut }
    }
}

impl<'a, P: Pattern> Matches<'a, P> {
    pub(super) fn new(s: &'a str, pattern: P) -> Self {
        let cut = ByMatch(pattern);
        StrSplit { part: Some(s), cut }
    }
}

impl<'a, C> StrSplit<'a, C> {
    pub(super) fn whole(s: &'a str, cut: C) -> Self {
        StrSplit { part: Some(s), cut }
    }
}
