//! Strings as parallel sources: the [`ParallelString`] trait (`par_chars`,
//! `par_char_indices`, `par_bytes`, `par_encode_utf16`, and the splits and matches
//! of [`super::str_split`]).
//!
//! A string's positions are its bytes, so the splitter halves it by length; a cut
//! that falls inside a character moves back to the character's first byte, so every
//! piece is a valid `&str`. Pieces are never smaller than [`MIN_PIECE`] bytes (the
//! longest UTF-8 character), so each half of a split gets at least one character.
//! `par_chars` and `par_char_indices` yield fewer items than positions (they are not
//! indexed); `par_bytes` yields one per position and is.

use super::plumbing::Producer;
use super::str_split::{
    ByAsciiWhitespace, ByLine, ByWhitespace, Lines, Matches, Pattern, Split, SplitAsciiWhitespace,
    SplitInclusive, SplitTerminator, SplitWhitespace, StrSplit,
};
use super::{FlatMapIter, IndexedParallelIterator, Map, ParallelIterator};

/// The longest UTF-8 encoding of a character, in bytes: the smallest piece of a
/// string, so that a cut near the middle of a piece of twice this is never at an end.
pub(super) const MIN_PIECE: usize = 4;

/// The last character boundary of `s` at or before `index`.
pub(super) fn floor_boundary(s: &str, index: usize) -> usize {
    let mut i = index.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The first character boundary of `s` at or after `index`.
pub(super) fn ceil_boundary(s: &str, index: usize) -> usize {
    let mut i = index.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Parallel iterators over the characters, bytes and parts of a string (`str`, and
/// `String` through deref), as rayon's `ParallelString`.
pub trait ParallelString {
    /// The string to iterate over.
    fn as_parallel_string(&self) -> &str;

    /// Parallel iterator over the characters, as `str::chars`.
    fn par_chars(&self) -> Chars<'_> {
        Chars {
            s: self.as_parallel_string(),
        }
    }

    /// Parallel iterator over the characters with their byte offsets, as
    /// `str::char_indices`.
    fn par_char_indices(&self) -> CharIndices<'_> {
        CharIndices {
            s: self.as_parallel_string(),
            offset: 0,
        }
    }

    /// Parallel iterator over the bytes, as `str::bytes` (indexed).
    fn par_bytes(&self) -> Bytes<'_> {
        Bytes {
            bytes: self.as_parallel_string().as_bytes(),
        }
    }

    /// Parallel iterator over the substrings between matches of `separator` (a
    /// `char` or a `Fn(char) -> bool`), as `str::split`.
    fn par_split<P: Pattern>(&self, separator: P) -> Split<'_, P> {
        Split::new(self.as_parallel_string(), separator)
    }

    /// Parallel iterator over the lines, as `str::lines` (`\n` or `\r\n` endings, no
    /// empty last line after a final line ending). Like `str::lines`, a last line that
    /// ends in a bare `\r` keeps it (`"a\r"` gives `"a\r"`); rayon strips it.
    fn par_lines(&self) -> Lines<'_> {
        StrSplit::whole(self.as_parallel_string(), ByLine)
    }

    /// Parallel iterator over the substrings between runs of whitespace, as
    /// `str::split_whitespace`.
    fn par_split_whitespace(&self) -> SplitWhitespace<'_> {
        StrSplit::whole(self.as_parallel_string(), ByWhitespace)
    }

    /// Parallel iterator over the substrings between runs of ASCII whitespace, as
    /// `str::split_ascii_whitespace`.
    fn par_split_ascii_whitespace(&self) -> SplitAsciiWhitespace<'_> {
        StrSplit::whole(self.as_parallel_string(), ByAsciiWhitespace)
    }

    /// Parallel iterator over the substrings each ending with a match of `separator`
    /// (the last may end without one), as `str::split_inclusive`.
    fn par_split_inclusive<P: Pattern>(&self, separator: P) -> SplitInclusive<'_, P> {
        SplitInclusive::new(self.as_parallel_string(), separator)
    }

    /// `par_split` without the empty substring after a final separator, as
    /// `str::split_terminator` (`"a,b,"` gives `"a"`, `"b"`; `""` gives nothing).
    fn par_split_terminator<P: Pattern>(&self, terminator: P) -> SplitTerminator<'_, P> {
        Split::terminator(self.as_parallel_string(), terminator)
    }

    /// Parallel iterator over the matches of `pattern` (each one character), as
    /// `str::matches`.
    fn par_matches<P: Pattern>(&self, pattern: P) -> Matches<'_, P> {
        Matches::new(self.as_parallel_string(), pattern)
    }

    /// The matches of `pattern` with their byte offsets, as `str::match_indices`.
    fn par_match_indices<'a, P: Pattern>(
        &'a self,
        pattern: P,
    ) -> Map<Matches<'a, P>, impl Fn(&'a str) -> (usize, &'a str) + Sync + Send> {
        let s = self.as_parallel_string();
        // Every match is a subslice of `s`: its offset is the distance of the addresses.
        let base = s.as_ptr() as usize;
        s.par_matches(pattern)
            .map(move |m: &'a str| (m.as_ptr() as usize - base, m))
    }

    /// Parallel iterator over the string as UTF-16 code units, as
    /// `str::encode_utf16`.
    fn par_encode_utf16(
        &self,
    ) -> FlatMapIter<
        Chars<'_>,
        impl Fn(char) -> std::iter::Take<std::array::IntoIter<u16, 2>> + Sync + Send,
    > {
        self.par_chars().flat_map_iter(|c| {
            let mut units = [0; 2];
            let n = c.encode_utf16(&mut units).len();
            units.into_iter().take(n)
        })
    }
}

impl ParallelString for str {
    fn as_parallel_string(&self) -> &str {
        self
    }
}

/// Parallel iterator over the characters of a string ([`ParallelString::par_chars`]).
#[derive(Debug, Clone)]
pub struct Chars<'a> {
    s: &'a str,
}

/// Parallel iterator over the characters of a string and their byte offsets
/// ([`ParallelString::par_char_indices`]).
#[derive(Debug, Clone)]
pub struct CharIndices<'a> {
    s: &'a str,
    /// The offset of `s` in the whole string.
    offset: usize,
}

/// Parallel iterator over the bytes of a string ([`ParallelString::par_bytes`]).
#[derive(Debug, Clone)]
pub struct Bytes<'a> {
    bytes: &'a [u8],
}

impl<'a> ParallelIterator for Chars<'a> {
    type Item = char;
    type Producer = Self;
    fn into_producer(self) -> Self {
        self
    }
}

impl<'a> Producer for Chars<'a> {
    type Item = char;
    type IntoIter = std::str::Chars<'a>;
    fn len(&self) -> usize {
        self.s.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.s.split_at(floor_boundary(self.s, index));
        (Chars { s: l }, Chars { s: r })
    }
    fn into_iter(self) -> Self::IntoIter {
        self.s.chars()
    }
    fn min_len(&self) -> usize {
        MIN_PIECE
    }
    fn exact(&self) -> bool {
        false
    }
}

impl<'a> ParallelIterator for CharIndices<'a> {
    type Item = (usize, char);
    type Producer = Self;
    fn into_producer(self) -> Self {
        self
    }
}

impl<'a> Producer for CharIndices<'a> {
    type Item = (usize, char);
    type IntoIter = CharIndicesPiece<'a>;
    fn len(&self) -> usize {
        self.s.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let at = floor_boundary(self.s, index);
        let (l, r) = self.s.split_at(at);
        let offset = self.offset;
        (
            CharIndices { s: l, offset },
            CharIndices {
                s: r,
                offset: offset + at,
            },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        CharIndicesPiece {
            inner: self.s.char_indices(),
            offset: self.offset,
        }
    }
    fn min_len(&self) -> usize {
        MIN_PIECE
    }
    fn exact(&self) -> bool {
        false
    }
}

/// A piece of [`CharIndices`] as a sequential iterator: offsets in the whole string.
pub struct CharIndicesPiece<'a> {
    inner: std::str::CharIndices<'a>,
    offset: usize,
}

impl Iterator for CharIndicesPiece<'_> {
    type Item = (usize, char);
    fn next(&mut self) -> Option<(usize, char)> {
        self.inner.next().map(|(i, c)| (self.offset + i, c))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<'a> ParallelIterator for Bytes<'a> {
    type Item = u8;
    type Producer = Self;
    fn into_producer(self) -> Self {
        self
    }
}

impl IndexedParallelIterator for Bytes<'_> {
    fn len(&self) -> usize {
        self.bytes.len()
    }
}

impl<'a> Producer for Bytes<'a> {
    type Item = u8;
    type IntoIter = std::iter::Copied<std::slice::Iter<'a, u8>>;
    fn len(&self) -> usize {
        self.bytes.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.bytes.split_at(index);
        (Bytes { bytes: l }, Bytes { bytes: r })
    }
    fn into_iter(self) -> Self::IntoIter {
        self.bytes.iter().copied()
    }
    fn exact(&self) -> bool {
        true
    }
}
