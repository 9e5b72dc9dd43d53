//! `intersperse`: a clone of a separator between every two items of an indexed
//! iterator (`a, s, b, s, c`).
//!
//! The result is indexed too: with `n` items it has `2n - 1` positions, items at the
//! even ones. A piece is a base piece plus whether a separator comes before its first
//! item (`lead`) and after its last (`trail`); in a piece, position `p` holds an item
//! exactly when `p ≥ lead` and `p - lead` is even, so a cut anywhere, even between an
//! item and its separator, is a cut of the base and two flags.

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`IndexedParallelIterator::intersperse`].
pub struct Intersperse<I: ParallelIterator> {
    base: I,
    separator: I::Item,
}

impl<I> std::fmt::Debug for Intersperse<I>
where
    I: ParallelIterator + std::fmt::Debug,
    I::Item: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Intersperse")
            .field("base", &self.base)
            .field("separator", &self.separator)
            .finish()
    }
}

impl<I: ParallelIterator> Intersperse<I> {
    pub(super) fn new(base: I, separator: I::Item) -> Self {
        Intersperse { base, separator }
    }
}

impl<I> ParallelIterator for Intersperse<I>
where
    I: IndexedParallelIterator,
    I::Item: Clone + Send,
{
    type Item = I::Item;
    type Producer = IntersperseProducer<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        IntersperseProducer::new(self.base.into_producer(), self.separator, false, false)
    }
}

impl<I> IndexedParallelIterator for Intersperse<I>
where
    I: IndexedParallelIterator,
    I::Item: Clone + Send,
{
    fn len(&self) -> usize {
        positions(self.base.len(), false, false)
    }
}

/// Positions of a piece of `items` items with the given separators at its ends.
///
/// # Panics
/// If that is more than `usize::MAX` (as rayon's).
fn positions(items: usize, lead: bool, trail: bool) -> usize {
    match items {
        0 => usize::from(lead || trail),
        n => n
            .checked_add(n - 1 + usize::from(lead) + usize::from(trail))
            .expect("intersperse: the length overflows usize"),
    }
}

/// Whether position `p` of a piece holds an item (else the separator).
fn is_item(p: usize, lead: bool) -> bool {
    p >= usize::from(lead) && (p - usize::from(lead)) % 2 == 0
}

/// The producer of [`Intersperse`].
pub struct IntersperseProducer<P: Producer> {
    base: P,
    separator: P::Item,
    lead: bool,
    trail: bool,
}

impl<P: Producer> IntersperseProducer<P> {
    /// A piece without items holds at most one separator: it is called `lead`.
    fn new(base: P, separator: P::Item, lead: bool, trail: bool) -> Self {
        let empty = base.len() == 0;
        IntersperseProducer {
            base,
            separator,
            lead: lead || (empty && trail),
            trail: trail && !empty,
        }
    }
}

impl<P> Producer for IntersperseProducer<P>
where
    P: Producer,
    P::Item: Clone + Send,
{
    type Item = P::Item;
    type IntoIter = IntersperseIter<P::IntoIter>;
    fn len(&self) -> usize {
        positions(self.base.len(), self.lead, self.trail)
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let len = self.len();
        let k = index.min(len);
        let lead = usize::from(self.lead);
        // Items among positions [0, k): the first at `lead`, then every other one.
        let items = if k <= lead { 0 } else { (k - lead).div_ceil(2) };
        let (l, r) = self.base.split_at(items);
        let left_trail = k > lead && !is_item(k - 1, self.lead);
        let right_lead = k < len && !is_item(k, self.lead);
        let right_trail = self.trail && k < len;
        let left_lead = self.lead && k > 0;
        (
            IntersperseProducer::new(l, self.separator.clone(), left_lead, left_trail),
            IntersperseProducer::new(r, self.separator, right_lead, right_trail),
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        IntersperseIter {
            back: self.len(),
            front: 0,
            lead: self.lead,
            base: self.base.into_iter(),
            separator: self.separator,
        }
    }
    // The base's bounds in this piece's positions: `m` items span `2m - 1` of them.
    fn min_len(&self) -> usize {
        self.base
            .min_len()
            .saturating_mul(2)
            .saturating_sub(1)
            .max(1)
    }
    fn max_len(&self) -> usize {
        self.base.max_len().saturating_mul(2)
    }
    fn exact(&self) -> bool {
        self.base.exact()
    }
}

/// The sequential iterator of a piece of [`Intersperse`]: positions `front..back`,
/// items taken from the base at item positions, clones of the separator elsewhere.
#[derive(Debug)]
pub struct IntersperseIter<I: Iterator> {
    base: I,
    separator: I::Item,
    lead: bool,
    front: usize,
    back: usize,
}

impl<I: Iterator> Iterator for IntersperseIter<I>
where
    I::Item: Clone,
{
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        if self.front == self.back {
            return None;
        }
        let p = self.front;
        self.front += 1;
        if is_item(p, self.lead) {
            self.base.next()
        } else {
            Some(self.separator.clone())
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl<I: DoubleEndedIterator> DoubleEndedIterator for IntersperseIter<I>
where
    I::Item: Clone,
{
    fn next_back(&mut self) -> Option<I::Item> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        if is_item(self.back, self.lead) {
            self.base.next_back()
        } else {
            Some(self.separator.clone())
        }
    }
}

impl<I: Iterator> ExactSizeIterator for IntersperseIter<I> where I::Item: Clone {}

#[cfg(test)]
mod tests {
    use super::{is_item, positions};

    #[test]
    #[should_panic(expected = "overflows")]
    fn a_length_past_usize_max_panics() {
        positions(usize::MAX / 2 + 1, true, false);
    }

    #[test]
    fn positions_and_item_places() {
        assert_eq!(positions(0, false, false), 0);
        assert_eq!(positions(0, true, false), 1);
        assert_eq!(positions(1, false, false), 1);
        assert_eq!(positions(3, false, false), 5);
        assert_eq!(positions(3, true, true), 7);
        assert_eq!(positions(usize::MAX / 2 + 1, false, false), usize::MAX);
        let items: Vec<bool> = (0..5).map(|p| is_item(p, true)).collect();
        assert_eq!(items, [false, true, false, true, false]);
        let items: Vec<bool> = (0..5).map(|p| is_item(p, false)).collect();
        assert_eq!(items, [true, false, true, false, true]);
    }
}
