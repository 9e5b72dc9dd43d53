//! [`Bitset`]: a fixed-capacity set of small integers, one bit each.
//!
//! Sets of up to [`INLINE_CAPACITY`] elements keep their words inline, so cloning one
//! (the search clones a candidate set per child) copies 64 bytes and never allocates;
//! larger sets use a heap vector.

/// The largest capacity stored without a heap allocation.
pub const INLINE_CAPACITY: usize = 64 * INLINE_WORDS;
const INLINE_WORDS: usize = 8;

/// A set of integers in `0..capacity`, stored as 64-bit words.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bitset {
    words: Words,
    capacity: usize,
}

/// The words of a set; unused inline words stay zero (so equality is derived).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
enum Words {
    Inline([u64; INLINE_WORDS]),
    Heap(Vec<u64>),
}

impl Bitset {
    /// The empty set with room for `0..capacity`.
    pub fn new(capacity: usize) -> Self {
        let words = if capacity <= INLINE_CAPACITY {
            Words::Inline([0; INLINE_WORDS])
        } else {
            Words::Heap(vec![0; capacity.div_ceil(64)])
        };
        Self { words, capacity }
    }

    #[inline]
    pub(super) fn words(&self) -> &[u64] {
        match &self.words {
            Words::Inline(words) => &words[..self.capacity.div_ceil(64)],
            Words::Heap(words) => words,
        }
    }

    #[inline]
    fn words_mut(&mut self) -> &mut [u64] {
        let used = self.capacity.div_ceil(64);
        match &mut self.words {
            Words::Inline(words) => &mut words[..used],
            Words::Heap(words) => words,
        }
    }

    /// The set `0..capacity`.
    pub fn full(capacity: usize) -> Self {
        let mut set = Self::new(capacity);
        for i in 0..capacity {
            set.insert(i);
        }
        set
    }

    /// The largest element this set can hold, plus one.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Adds `i`, which must be below the capacity (else it may panic).
    pub fn insert(&mut self, i: usize) {
        self.words_mut()[i / 64] |= 1 << (i % 64);
    }

    /// Removes `i`, which must be below the capacity (else it may panic).
    pub fn remove(&mut self, i: usize) {
        self.words_mut()[i / 64] &= !(1 << (i % 64));
    }

    /// Whether `i` is in the set.
    pub fn contains(&self, i: usize) -> bool {
        i < self.capacity && self.words()[i / 64] & (1 << (i % 64)) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words().iter().all(|&w| w == 0)
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.words().iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The smallest element, if any.
    pub fn first(&self) -> Option<usize> {
        self.words()
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// The elements in both `self` and `other`, as a new set of `self`'s capacity:
    /// a clone followed by [`intersect_with`](Self::intersect_with), in one pass.
    #[inline]
    pub fn intersection(&self, other: &Bitset) -> Bitset {
        match (&self.words, &other.words) {
            (Words::Inline(a), Words::Inline(b)) => Bitset {
                // Words past the capacity are zero in both.
                words: Words::Inline(std::array::from_fn(|i| a[i] & b[i])),
                capacity: self.capacity,
            },
            _ => {
                let mut both = self.clone();
                both.intersect_with(other);
                both
            }
        }
    }

    /// Keeps only the elements also in `other` (same capacity).
    pub fn intersect_with(&mut self, other: &Bitset) {
        for (mine, theirs) in self.words_mut().iter_mut().zip(other.words()) {
            *mine &= theirs;
        }
    }

    /// Removes the elements of `other` (same capacity).
    pub fn subtract(&mut self, other: &Bitset) {
        for (mine, theirs) in self.words_mut().iter_mut().zip(other.words()) {
            *mine &= !theirs;
        }
    }

    /// Whether the two sets (same capacity) share an element.
    pub fn intersects(&self, other: &Bitset) -> bool {
        intersects(self.words(), other.words())
    }

    /// Whether the three sets (same capacity) share an element.
    pub fn intersects_both(&self, a: &Bitset, b: &Bitset) -> bool {
        intersects_both(self.words(), a.words(), b.words())
    }

    /// The common element of the two sets (same capacity) if there is exactly one;
    /// `Err(n)` with `n` = 0 or 2 (meaning two or more) otherwise.
    pub fn single_common(&self, other: &Bitset) -> Result<usize, usize> {
        single_common(self.words(), other.words())
    }

    /// The elements in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words().iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(i * 64 + bit)
            })
        })
    }
}

// Set operations on raw words, shared by `Bitset` and the colouring.

/// `Ok(v)` if `a ∩ b` is exactly `{v}`, else `Err(0)` if empty, `Err(2)` if larger.
#[inline]
pub(super) fn single_common(a: &[u64], b: &[u64]) -> Result<usize, usize> {
    single_common_in(a, b, 0..a.len().min(b.len()))
}

/// [`single_common`] looking only at the words numbered by `words` (the others must
/// hold no common element).
#[inline(always)]
pub(super) fn single_common_in(
    a: &[u64],
    b: &[u64],
    words: impl Iterator<Item = usize>,
) -> Result<usize, usize> {
    let mut found = None;
    for i in words {
        let both = a[i] & b[i];
        if both == 0 {
            continue;
        }
        if found.is_some() || both & (both - 1) != 0 {
            return Err(2);
        }
        found = Some(i * 64 + both.trailing_zeros() as usize);
    }
    found.ok_or(0)
}

/// Whether `a` and `b` share an element.
#[inline]
pub(super) fn intersects(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// Whether `a`, `b` and `c` share an element.
#[inline]
pub(super) fn intersects_both(a: &[u64], b: &[u64], c: &[u64]) -> bool {
    a.iter().zip(b).zip(c).any(|((x, y), z)| x & y & z != 0)
}

#[cfg(test)]
mod tests {
    use super::Bitset;

    #[test]
    fn set_operations() {
        let mut a = Bitset::new(130);
        for i in [0, 63, 64, 129] {
            a.insert(i);
        }
        assert_eq!(a.len(), 4);
        assert_eq!(a.iter().collect::<Vec<_>>(), [0, 63, 64, 129]);
        assert!(a.contains(129) && !a.contains(1) && !a.contains(500));
        let mut b = Bitset::full(130);
        b.remove(63);
        let both = a.intersection(&b);
        a.intersect_with(&b);
        assert_eq!(both, a);
        assert_eq!(a.iter().collect::<Vec<_>>(), [0, 64, 129]);
        b.subtract(&a);
        assert_eq!(b.len(), 130 - 4);
        assert_eq!(a.first(), Some(0));
        assert!(Bitset::new(10).is_empty());
        // Inline and heap storage behave alike.
        let mut big = Bitset::full(super::INLINE_CAPACITY + 70);
        let mut small = Bitset::full(super::INLINE_CAPACITY);
        big.remove(3);
        small.remove(3);
        assert_eq!(big.len(), small.len() + 70);
        assert_eq!(big.first(), Some(0));
        let mut expected = big.clone();
        expected.intersect_with(&Bitset::full(super::INLINE_CAPACITY + 70));
        assert_eq!(
            big.intersection(&Bitset::full(super::INLINE_CAPACITY + 70)),
            expected
        );
        assert_eq!(big.iter().nth(3), Some(4));
        assert_eq!(small.clone(), small);
        assert_eq!(Bitset::new(10).first(), None);
        let mut x = Bitset::new(200);
        let mut y = Bitset::new(200);
        assert_eq!(x.single_common(&y), Err(0));
        assert!(!x.intersects(&y));
        x.insert(150);
        y.insert(150);
        y.insert(3);
        assert_eq!(x.single_common(&y), Ok(150));
        assert!(x.intersects(&y));
        x.insert(3);
        assert_eq!(x.single_common(&y), Err(2));
        let mut z = Bitset::new(200);
        assert!(!x.intersects_both(&y, &z));
        z.insert(150);
        assert!(x.intersects_both(&y, &z));
    }
}
