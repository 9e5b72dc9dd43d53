//! The serialized form of a [`Semigroup`]: its list of gaps, validated when read back.

use super::error::SemigroupError;
use super::semigroup::Semigroup;

/// A semigroup as its gaps, small and readable; deserializing rebuilds (and checks)
/// the decomposition numbers.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Gaps {
    gaps: Vec<usize>,
}

impl From<Semigroup> for Gaps {
    fn from(semigroup: Semigroup) -> Self {
        Self {
            gaps: semigroup.gaps().collect(),
        }
    }
}

impl TryFrom<Gaps> for Semigroup {
    type Error = SemigroupError;

    fn try_from(serialized: Gaps) -> Result<Self, SemigroupError> {
        Semigroup::from_gaps(&serialized.gaps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semigroups_survive_the_round_trip_through_their_gaps() {
        let semigroup = Semigroup::from_gaps(&[1, 2, 4, 7]).expect("<3, 5>");
        let gaps = Gaps::from(semigroup.clone());
        assert_eq!(gaps.gaps, [1, 2, 4, 7]);
        assert_eq!(Semigroup::try_from(gaps), Ok(semigroup));
        let not_closed = Gaps { gaps: vec![2, 3] };
        assert!(Semigroup::try_from(not_closed).is_err());
    }
}
