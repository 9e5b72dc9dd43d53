//! [`KnapsackInstance`]: items and capacity as exact fixed-point integers.
//!
//! Profits are scaled by `10^p` and weights (with the capacity) by `10^w`, where `p`
//! and `w` are the largest numbers of decimals in the input, so every comparison in
//! the search is on integers and exact.

use super::decimal::Decimal;
use super::error::KnapsackError;
use super::parser::KnapsackFormat;

/// A 0/1 knapsack instance: items with a profit and a positive weight, and a
/// capacity. Items are numbered from 0 in input order.
///
/// Totals of all profits and of all weights fit in a `u64` (in units), which the
/// readers check, so no sum in the search overflows.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KnapsackInstance {
    /// Profits in units of `10^-profit_decimals`.
    profits: Vec<u64>,
    /// Weights in units of `10^-weight_decimals`; all positive.
    weights: Vec<u64>,
    /// The capacity in weight units.
    capacity: u64,
    profit_decimals: u32,
    weight_decimals: u32,
    /// The optimum stated in the file, if the format carries one.
    stated_optimum: Option<Decimal>,
    /// The optimal packing stated in the file (sorted item numbers), if any.
    stated_solution: Option<Vec<usize>>,
    /// The instance's name in the file (Pisinger's format), if any.
    name: Option<String>,
    /// The file format it was read in (`None`: built in code).
    format: Option<KnapsackFormat>,
}

/// One parsed item with the line it came from (for error messages).
pub(super) struct ParsedItem {
    pub(super) profit: Decimal,
    pub(super) weight: Decimal,
    pub(super) line: usize,
}

/// An instance as read, before scaling to common decimals.
pub(super) struct ParsedInstance {
    pub(super) format: KnapsackFormat,
    pub(super) name: Option<String>,
    pub(super) items: Vec<ParsedItem>,
    pub(super) capacity: Decimal,
    pub(super) capacity_line: usize,
    pub(super) stated_optimum: Option<Decimal>,
    /// The items of the stated optimal packing in increasing order, each with the
    /// line that states it.
    pub(super) stated_solution: Option<Vec<(usize, usize)>>,
}

impl KnapsackInstance {
    /// An instance with integer profits and weights; `None` if there are no items
    /// or some weight is zero.
    ///
    /// ```
    /// use magpie_search::apps::knapsack::{Decimal, KnapsackInstance};
    ///
    /// let instance = KnapsackInstance::from_integers(&[(10, 5), (7, 4)], 8).unwrap();
    /// assert_eq!(instance.item_count(), 2);
    /// assert_eq!(instance.capacity(), Decimal::integer(8));
    /// assert!(KnapsackInstance::from_integers(&[(1, 0)], 8).is_none());
    /// ```
    pub fn from_integers(items: &[(u32, u32)], capacity: u64) -> Option<Self> {
        if items.is_empty() || items.iter().any(|&(_, weight)| weight == 0) {
            return None;
        }
        Some(Self {
            profits: items.iter().map(|&(p, _)| u64::from(p)).collect(),
            weights: items.iter().map(|&(_, w)| u64::from(w)).collect(),
            capacity,
            profit_decimals: 0,
            weight_decimals: 0,
            stated_optimum: None,
            stated_solution: None,
            name: None,
            format: None,
        })
    }

    /// Scales parsed items to common decimals, checking that every total fits and
    /// that a stated optimal packing fits in the capacity.
    pub(super) fn from_parsed(parsed: ParsedInstance) -> Result<Self, KnapsackError> {
        let ParsedInstance {
            format,
            name,
            items,
            capacity,
            capacity_line,
            stated_optimum,
            stated_solution,
        } = parsed;
        if items.is_empty() {
            return Err(KnapsackError::EmptyInstance);
        }
        let profit_decimals = items.iter().map(|i| i.profit.decimals()).max();
        let weight_decimals = items.iter().map(|i| i.weight.decimals()).max();
        let profit_decimals = profit_decimals.unwrap_or(0);
        let weight_decimals = weight_decimals.unwrap_or(0).max(capacity.decimals());
        let capacity = capacity
            .units_at(weight_decimals)
            .ok_or(KnapsackError::Overflow {
                line: capacity_line,
            })?;
        let (mut total_profit, mut total_weight) = (0u64, 0u64);
        let mut profits = Vec::with_capacity(items.len());
        let mut weights = Vec::with_capacity(items.len());
        for item in &items {
            let overflow = KnapsackError::Overflow { line: item.line };
            let profit = item.profit.units_at(profit_decimals);
            let weight = item.weight.units_at(weight_decimals);
            let (Some(profit), Some(weight)) = (profit, weight) else {
                return Err(overflow);
            };
            total_profit = total_profit.checked_add(profit).ok_or(overflow)?;
            total_weight = total_weight
                .checked_add(weight)
                .ok_or(KnapsackError::Overflow { line: item.line })?;
            profits.push(profit);
            weights.push(weight);
        }
        let stated_solution = match stated_solution {
            None => None,
            Some(packing) => {
                // Distinct items: the running weight stays below the total, which fits.
                let mut weight = 0u64;
                for &(item, line) in &packing {
                    weight += weights[item];
                    if weight > capacity {
                        return Err(KnapsackError::InfeasibleSolution { line });
                    }
                }
                Some(packing.into_iter().map(|(item, _)| item).collect())
            }
        };
        Ok(Self {
            profits,
            weights,
            capacity,
            profit_decimals,
            weight_decimals,
            stated_optimum,
            stated_solution,
            name,
            format: Some(format),
        })
    }

    /// The number of items.
    pub fn item_count(&self) -> usize {
        self.profits.len()
    }

    /// The profit of item `i` (panics if `i` is not below `item_count()`).
    pub fn profit(&self, i: usize) -> Decimal {
        Decimal::new(self.profits[i], self.profit_decimals)
    }

    /// The weight of item `i` (panics if `i` is not below `item_count()`).
    pub fn weight(&self, i: usize) -> Decimal {
        Decimal::new(self.weights[i], self.weight_decimals)
    }

    /// The capacity.
    pub fn capacity(&self) -> Decimal {
        Decimal::new(self.capacity, self.weight_decimals)
    }

    /// The optimum stated in the file (the `.kp` format's second line, the `z` line
    /// of Pisinger's format), if any.
    pub fn stated_optimum(&self) -> Option<Decimal> {
        self.stated_optimum
    }

    /// The optimal packing stated in the file (Pisinger's `x` column, or the final
    /// 0/1 line of the large-scale and low-dimensional files) as sorted item numbers
    /// from 0, if any. The readers check that it fits in the capacity; other optimal
    /// packings of the same profit may exist.
    pub fn stated_solution(&self) -> Option<&[usize]> {
        self.stated_solution.as_deref()
    }

    /// The instance's name in the file (Pisinger's format), if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The file format the instance was read in (`None` if built in code): where a
    /// file's text is ambiguous its extension decides ([`read_knapsack`]), so a report
    /// says which reading was used.
    ///
    /// [`read_knapsack`]: super::read_knapsack
    pub fn format(&self) -> Option<KnapsackFormat> {
        self.format
    }

    /// The profits in units of `10^-profit_decimals()`.
    pub fn profit_units(&self) -> &[u64] {
        &self.profits
    }

    /// The weights in units of `10^-weight_decimals()`.
    pub fn weight_units(&self) -> &[u64] {
        &self.weights
    }

    /// The capacity in units of `10^-weight_decimals()`.
    pub fn capacity_units(&self) -> u64 {
        self.capacity
    }

    /// The decimals profits are scaled by.
    pub fn profit_decimals(&self) -> u32 {
        self.profit_decimals
    }

    /// The decimals weights and the capacity are scaled by.
    pub fn weight_decimals(&self) -> u32 {
        self.weight_decimals
    }

    /// The total profit and weight of `items`; `None` if an index is out of range
    /// or repeated. (Whether the weight fits is for the caller to compare with
    /// [`capacity`](Self::capacity).)
    pub fn totals(&self, items: &[usize]) -> Option<(Decimal, Decimal)> {
        let mut seen = vec![false; self.item_count()];
        let (mut profit, mut weight) = (0u64, 0u64);
        for &i in items {
            if std::mem::replace(seen.get_mut(i)?, true) {
                return None;
            }
            // Distinct items: bounded by the totals, which fit.
            profit += self.profits[i];
            weight += self.weights[i];
        }
        Some((
            Decimal::new(profit, self.profit_decimals),
            Decimal::new(weight, self.weight_decimals),
        ))
    }
}
