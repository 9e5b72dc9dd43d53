//! [`Decimal`]: an exact non-negative fixed-point number, so that fractional profits
//! and weights are compared without floating-point rounding.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// The most decimals a [`Decimal`] may carry (`10^18` still fits in a `u64`).
pub const MAX_DECIMALS: u32 = 18;

/// The exact non-negative number `units / 10^decimals`.
///
/// Equality and order are by value: `1.50` equals `1.5`.
///
/// ```
/// use magpie_search::apps::knapsack::Decimal;
///
/// let x: Decimal = "481.069368".parse().unwrap();
/// assert_eq!(x.units(), 481_069_368);
/// assert_eq!(x.decimals(), 6);
/// assert_eq!(x.round_to(4), "481.0694".parse().unwrap());
/// assert_eq!(Decimal::new(150, 2), Decimal::new(15, 1));
/// assert_eq!(x.to_string(), "481.069368");
/// ```
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Decimal {
    units: u64,
    decimals: u32,
}

/// Why a string is not a [`Decimal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecimalError {
    /// Not of the form `[+-]digits[.digits]`.
    Malformed,
    /// A well-formed number below zero.
    Negative,
    /// More than [`MAX_DECIMALS`] significant decimals, or too large for 64 bits.
    Overflow,
}

impl fmt::Display for DecimalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Malformed => "not a decimal number",
            Self::Negative => "negative number",
            Self::Overflow => "number too large or too precise for 64-bit fixed point",
        })
    }
}

impl std::error::Error for DecimalError {}

/// `10^exponent`, for exponents up to [`MAX_DECIMALS`].
pub(super) fn power_of_ten(exponent: u32) -> u64 {
    10u64.pow(exponent)
}

impl Decimal {
    /// The number `units / 10^decimals`.
    ///
    /// # Panics
    ///
    /// If `decimals` exceeds [`MAX_DECIMALS`].
    pub fn new(units: u64, decimals: u32) -> Self {
        assert!(decimals <= MAX_DECIMALS, "at most {MAX_DECIMALS} decimals");
        Self { units, decimals }
    }

    /// The integer `value`.
    pub fn integer(value: u64) -> Self {
        Self {
            units: value,
            decimals: 0,
        }
    }

    /// The value in units of `10^-decimals()`.
    pub fn units(self) -> u64 {
        self.units
    }

    /// The number of decimals the units are scaled by.
    pub fn decimals(self) -> u32 {
        self.decimals
    }

    /// The nearest `f64` (for display and statistics only).
    pub fn to_f64(self) -> f64 {
        self.units as f64 / power_of_ten(self.decimals) as f64
    }

    /// The units of the same value at `decimals` decimals, if exact and in range.
    pub fn units_at(self, decimals: u32) -> Option<u64> {
        if decimals > MAX_DECIMALS {
            None
        } else if decimals >= self.decimals {
            self.units
                .checked_mul(power_of_ten(decimals - self.decimals))
        } else {
            let factor = power_of_ten(self.decimals - decimals);
            (self.units % factor == 0).then_some(self.units / factor)
        }
    }

    /// The value rounded to `decimals` decimals, halves away from zero (no change if
    /// it already has at most that many).
    pub fn round_to(self, decimals: u32) -> Self {
        if decimals >= self.decimals {
            return self;
        }
        let factor = power_of_ten(self.decimals - decimals);
        let mut units = self.units / factor;
        if self.units % factor >= factor.div_ceil(2) {
            units += 1;
        }
        Self { units, decimals }
    }

    /// The value scaled to a common number of decimals, as a `u128` (exact).
    fn scaled(self, decimals: u32) -> u128 {
        u128::from(self.units) * u128::from(power_of_ten(decimals - self.decimals))
    }
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Decimal {}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        let decimals = self.decimals.max(other.decimals);
        self.scaled(decimals).cmp(&other.scaled(decimals))
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.decimals == 0 {
            return write!(f, "{}", self.units);
        }
        let factor = power_of_ten(self.decimals);
        write!(
            f,
            "{}.{:0width$}",
            self.units / factor,
            self.units % factor,
            width = self.decimals as usize
        )
    }
}

impl FromStr for Decimal {
    type Err = DecimalError;

    /// Parses `[+-]digits[.digits]` (at least one digit; trailing fractional zeros
    /// are dropped). A negative non-zero value is [`DecimalError::Negative`].
    fn from_str(text: &str) -> Result<Self, DecimalError> {
        let (negative, digits) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
            return Err(DecimalError::Malformed);
        }
        let fraction = fraction.trim_end_matches('0');
        let decimals = u32::try_from(fraction.len()).map_err(|_| DecimalError::Overflow)?;
        if decimals > MAX_DECIMALS {
            return Err(DecimalError::Overflow);
        }
        let mut units: u64 = 0;
        for b in whole.bytes().chain(fraction.bytes()) {
            units = units
                .checked_mul(10)
                .and_then(|u| u.checked_add(u64::from(b - b'0')))
                .ok_or(DecimalError::Overflow)?;
        }
        if negative && units != 0 {
            return Err(DecimalError::Negative);
        }
        Ok(Self { units, decimals })
    }
}

#[cfg(test)]
mod tests {
    use super::{Decimal, DecimalError};

    #[test]
    fn parses_and_prints_exactly() {
        let cases = [
            ("0", "0"),
            ("12", "12"),
            ("+12.50", "12.5"),
            (".25", "0.25"),
            ("3.", "3"),
            ("-0", "0"),
            ("0.000001", "0.000001"),
        ];
        for (text, printed) in cases {
            let d: Decimal = text.parse().unwrap();
            assert_eq!(d.to_string(), printed, "{text}");
        }
    }

    #[test]
    fn rejects_bad_tokens() {
        for text in ["", ".", "-", "1.2.3", "1e5", "abc", "1,5", " 1"] {
            assert_eq!(
                text.parse::<Decimal>(),
                Err(DecimalError::Malformed),
                "{text}"
            );
        }
        assert_eq!("-1.5".parse::<Decimal>(), Err(DecimalError::Negative));
        assert_eq!(
            "18446744073709551616".parse::<Decimal>(),
            Err(DecimalError::Overflow)
        );
        assert_eq!(
            "0.0000000000000000001".parse::<Decimal>(),
            Err(DecimalError::Overflow)
        );
    }

    #[test]
    fn compares_by_value_and_rescales() {
        assert_eq!(Decimal::new(150, 2), Decimal::new(15, 1));
        assert!(Decimal::new(149, 2) < Decimal::new(15, 1));
        assert_eq!(Decimal::new(15, 1).units_at(3), Some(1500));
        assert_eq!(Decimal::new(1500, 3).units_at(1), Some(15));
        assert_eq!(Decimal::new(1501, 3).units_at(1), None);
        assert_eq!(Decimal::new(u64::MAX, 0).units_at(1), None);
        assert_eq!(Decimal::new(1234, 3).round_to(2), Decimal::new(123, 2));
        assert_eq!(Decimal::new(1235, 3).round_to(2), Decimal::new(124, 2));
    }
}
