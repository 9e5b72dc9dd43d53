//! [`ObjectiveValue`]: objective types that fit in one atomic word.

/// An objective value that an incumbent can publish in a single `AtomicU64`, so that
/// every worker reads the best value so far with one load.
///
/// `to_ordered_bits` must be strictly monotone: `a < b` iff
/// `a.to_ordered_bits() < b.to_ordered_bits()`, and `from_ordered_bits` its inverse.
pub trait ObjectiveValue: Copy + Ord + Send + Sync + std::fmt::Debug + 'static {
    /// The order-preserving encoding.
    fn to_ordered_bits(self) -> u64;
    /// The inverse of [`to_ordered_bits`](Self::to_ordered_bits).
    fn from_ordered_bits(bits: u64) -> Self;

    /// The largest value below `self`, if the type has one and knows it. A decision
    /// search for `target` asks a [`Bounded`](crate::Bounded) space for the children
    /// above `target.predecessor()`, so that a space can skip the children that cannot
    /// reach the target without building them. The default, `None`, asks for all
    /// children (always correct).
    fn predecessor(self) -> Option<Self> {
        None
    }
}

macro_rules! unsigned_value {
    ($($t:ty),*) => {$(
        impl ObjectiveValue for $t {
            fn to_ordered_bits(self) -> u64 {
                self as u64
            }
            fn from_ordered_bits(bits: u64) -> Self {
                bits as $t
            }
            fn predecessor(self) -> Option<Self> {
                self.checked_sub(1)
            }
        }
    )*};
}
unsigned_value!(u8, u16, u32, u64, usize);

macro_rules! signed_value {
    ($($t:ty),*) => {$(
        impl ObjectiveValue for $t {
            fn to_ordered_bits(self) -> u64 {
                // Flipping the sign bit maps the signed order onto the unsigned one.
                (self as i64 as u64) ^ (1 << 63)
            }
            fn from_ordered_bits(bits: u64) -> Self {
                (bits ^ (1 << 63)) as i64 as $t
            }
            fn predecessor(self) -> Option<Self> {
                self.checked_sub(1)
            }
        }
    )*};
}
signed_value!(i8, i16, i32, i64, isize);

#[cfg(test)]
mod tests {
    use super::ObjectiveValue;

    #[test]
    fn signed_encoding_preserves_order_and_round_trips() {
        let values = [i64::MIN, -5, -1, 0, 1, 7, i64::MAX];
        for pair in values.windows(2) {
            assert!(pair[0].to_ordered_bits() < pair[1].to_ordered_bits());
        }
        for v in values {
            assert_eq!(i64::from_ordered_bits(v.to_ordered_bits()), v);
        }
        assert_eq!(i32::from_ordered_bits((-3i32).to_ordered_bits()), -3);
    }

    #[test]
    fn predecessors_stop_at_the_smallest_value() {
        assert_eq!(5u32.predecessor(), Some(4));
        assert_eq!(0usize.predecessor(), None);
        assert_eq!((-7i16).predecessor(), Some(-8));
        assert_eq!(i64::MIN.predecessor(), None);
    }
}
