//! [`Semigroup`]: a numerical semigroup stored as its decomposition numbers, the
//! representation of Fromentin & Hivert, in which removing a generator is one pass of
//! byte subtractions and the removable generators are read off directly.

use std::fmt;
use std::ops::Range;

use super::error::SemigroupError;

/// The largest genus a [`Semigroup`] can have. Far beyond what can be enumerated
/// (genus 45 alone has about 10¹⁰ semigroups); it fixes the node's size.
pub const MAX_GENUS: usize = 64;

/// Decomposition numbers are kept for `0..CAPACITY`: every node that has children
/// (genus below [`MAX_GENUS`]) only reads entries below its conductor plus its
/// multiplicity, which is at most `3 * genus + 1`.
const CAPACITY: usize = 3 * MAX_GENUS;

/// A numerical semigroup: a submonoid of (ℕ, +) with finite complement (its gaps).
///
/// Stored as the decomposition numbers `d(x) = #{(y, z) ∈ S² : y + z = x, y ≤ z}` for
/// `x < 3 * MAX_GENUS`: `x ∈ S` iff `d(x) > 0`, and an element `x > 0` is a minimal
/// generator iff `d(x) == 1` (only `0 + x`). Everything is inline: 195 bytes, no
/// allocation.
#[derive(Clone, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "super::gaps::Gaps", into = "super::gaps::Gaps")
)]
pub struct Semigroup {
    decompositions: [u8; CAPACITY],
    /// The smallest `c` with `c + ℕ ⊆ S` (the Frobenius number plus one).
    conductor: u8,
    /// The smallest non-zero element.
    multiplicity: u8,
    /// The number of gaps.
    genus: u8,
}

impl Semigroup {
    /// ℕ itself, the root of the tree: genus 0, conductor 0, multiplicity 1.
    pub fn naturals() -> Self {
        let mut decompositions = [0; CAPACITY];
        for (x, count) in decompositions.iter_mut().enumerate() {
            // The pairs (y, x - y) with y ≤ x - y; below 256 as x < 3 * MAX_GENUS.
            *count = (x / 2 + 1) as u8;
        }
        Self {
            decompositions,
            conductor: 0,
            multiplicity: 1,
            genus: 0,
        }
    }

    /// The semigroup whose gaps are `gaps` (in any order, without repeats).
    pub fn from_gaps(gaps: &[usize]) -> Result<Self, SemigroupError> {
        if gaps.len() > MAX_GENUS {
            return Err(SemigroupError::GenusTooLarge { genus: gaps.len() });
        }
        let genus = gaps.len();
        let mut is_gap = [false; CAPACITY];
        for &gap in gaps {
            if gap == 0 {
                return Err(SemigroupError::ZeroGap);
            }
            // A numerical semigroup's Frobenius number is below twice its genus.
            if gap >= 2 * genus {
                return Err(SemigroupError::GapTooLarge { gap, genus });
            }
            if is_gap[gap] {
                return Err(SemigroupError::RepeatedGap { gap });
            }
            is_gap[gap] = true;
        }
        let mut decompositions = [0; CAPACITY];
        for (x, count) in decompositions.iter_mut().enumerate() {
            for y in 0..=x / 2 {
                if !is_gap[y] && !is_gap[x - y] {
                    if is_gap[x] {
                        return Err(SemigroupError::NotClosed {
                            left: y,
                            right: x - y,
                        });
                    }
                    *count += 1;
                }
            }
        }
        let conductor = gaps.iter().max().map_or(0, |&frobenius| frobenius + 1);
        let multiplicity = (1..).find(|&x| !is_gap[x]).unwrap_or(1);
        // All three are below 2 * MAX_GENUS + 2 <= 255.
        Ok(Self {
            decompositions,
            conductor: conductor as u8,
            multiplicity: multiplicity as u8,
            genus: genus as u8,
        })
    }

    /// The number of gaps; the node's depth in the tree.
    pub fn genus(&self) -> usize {
        usize::from(self.genus)
    }

    /// The smallest `c` such that every integer from `c` on is an element.
    pub fn conductor(&self) -> usize {
        usize::from(self.conductor)
    }

    /// The largest gap, `None` for ℕ (whose Frobenius number is conventionally -1).
    pub fn frobenius_number(&self) -> Option<usize> {
        self.conductor().checked_sub(1)
    }

    /// The smallest non-zero element.
    pub fn multiplicity(&self) -> usize {
        usize::from(self.multiplicity)
    }

    /// Whether `x` is an element.
    pub fn contains(&self, x: usize) -> bool {
        x >= self.conductor() || self.decompositions[x] > 0
    }

    /// The gaps, in increasing order.
    pub fn gaps(&self) -> impl Iterator<Item = usize> + '_ {
        (1..self.conductor()).filter(|&x| !self.contains(x))
    }

    /// The minimal generators above the Frobenius number, in increasing order: removing
    /// one gives a child in the tree.
    pub fn removable_generators(&self) -> impl Iterator<Item = usize> + '_ {
        self.generator_candidates()
            .filter(|&x| self.is_removable_generator(x))
    }

    /// Where the removable generators lie: from the conductor `c` to `c + m` excluded
    /// (`m` the multiplicity), since any larger `x` is `m + (x - m)` with both terms
    /// non-zero elements. For ℕ, `c` is taken as 1 (its generator).
    pub(super) fn generator_candidates(&self) -> Range<usize> {
        let start = self.conductor().max(1);
        start..start + self.multiplicity()
    }

    /// Whether `x` is in [`removable_generators`](Self::removable_generators).
    pub(super) fn is_removable_generator(&self, x: usize) -> bool {
        x > 0 && x >= self.conductor() && self.decompositions[x] == 1
    }

    /// The child `self \ {generator}`, where `generator` is removable and the genus is
    /// below [`MAX_GENUS`].
    pub(super) fn without_generator(&self, generator: usize) -> Self {
        debug_assert!(self.is_removable_generator(generator));
        debug_assert!(self.genus() < MAX_GENUS);
        let mut child = self.clone();
        // Removing g drops, for every x >= g with x - g still in S, the pair {g, x - g}.
        let lost_pairs = child.decompositions[generator..]
            .iter_mut()
            .zip(&self.decompositions);
        for (count, &partner) in lost_pairs {
            *count -= u8::from(partner != 0);
        }
        // generator < 3 * MAX_GENUS, so generator + 1 fits.
        child.conductor = (generator + 1) as u8;
        if generator == self.multiplicity() {
            // Every integer above the old conductor is an element.
            child.multiplicity = child.conductor;
        }
        child.genus += 1;
        child
    }
}

impl fmt::Debug for Semigroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Semigroup")
            .field("genus", &self.genus())
            .field("conductor", &self.conductor())
            .field("multiplicity", &self.multiplicity())
            .field("gaps", &self.gaps().collect::<Vec<_>>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the cached fields and the decomposition numbers against the gaps.
    fn check_consistent(semigroup: &Semigroup) {
        let gaps: Vec<usize> = semigroup.gaps().collect();
        assert_eq!(gaps.len(), semigroup.genus());
        let rebuilt = Semigroup::from_gaps(&gaps).expect("a valid semigroup");
        assert_eq!(&rebuilt, semigroup);
    }

    #[test]
    fn naturals_has_no_gaps_and_generator_one() {
        let n = Semigroup::naturals();
        assert_eq!(n.genus(), 0);
        assert_eq!(n.frobenius_number(), None);
        assert_eq!(n.removable_generators().collect::<Vec<_>>(), vec![1]);
        check_consistent(&n);
    }

    #[test]
    fn removing_generators_keeps_the_representation_exact() {
        let mut level = vec![Semigroup::naturals()];
        for _ in 0..8 {
            let mut next = Vec::new();
            for semigroup in &level {
                for generator in semigroup.removable_generators() {
                    let child = semigroup.without_generator(generator);
                    assert_eq!(child.frobenius_number(), Some(generator));
                    check_consistent(&child);
                    next.push(child);
                }
            }
            level = next;
        }
        assert_eq!(level.len(), 67);
    }

    #[test]
    fn generators_of_a_known_semigroup() {
        // <3, 5> = {0, 3, 5, 6, 8, 9, 10, ...}: gaps 1, 2, 4, 7.
        let s = Semigroup::from_gaps(&[1, 2, 4, 7]).expect("valid");
        assert_eq!(s.multiplicity(), 3);
        assert_eq!(s.conductor(), 8);
        // Minimal generators 3 and 5 are below the Frobenius number 7: no children.
        assert_eq!(s.removable_generators().count(), 0);
        // <3, 4, 5>: gaps 1, 2; generators 3, 4, 5 are all above F = 2.
        let t = Semigroup::from_gaps(&[2, 1]).expect("valid");
        assert_eq!(t.removable_generators().collect::<Vec<_>>(), vec![3, 4, 5]);
    }

    #[test]
    fn invalid_gap_sets_are_rejected() {
        assert_eq!(Semigroup::from_gaps(&[0]), Err(SemigroupError::ZeroGap));
        // 1 is an element, so 1 + 1 = 2 cannot be a gap.
        assert_eq!(
            Semigroup::from_gaps(&[2, 3]),
            Err(SemigroupError::NotClosed { left: 1, right: 1 })
        );
        assert_eq!(
            Semigroup::from_gaps(&[1, 5]),
            Err(SemigroupError::GapTooLarge { gap: 5, genus: 2 })
        );
        assert_eq!(
            Semigroup::from_gaps(&[1, 1]),
            Err(SemigroupError::RepeatedGap { gap: 1 })
        );
        let too_many: Vec<usize> = (1..=MAX_GENUS + 1).collect();
        assert_eq!(
            Semigroup::from_gaps(&too_many),
            Err(SemigroupError::GenusTooLarge {
                genus: MAX_GENUS + 1
            })
        );
    }
}
