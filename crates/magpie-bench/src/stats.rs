//! Summary statistics over repetitions (median, min, max, quartiles, spread, mean and
//! sd), ratios of medians, and [`CellSummaries`] to find an experiment's cell by its key.

/// Summary of a set of repetitions of one measurement (e.g. ops/s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Number of samples.
    pub n: usize,
    /// Median (mean of the two middle samples for even counts).
    pub median: f64,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
    /// First quartile (linear interpolation between closest ranks).
    pub q1: f64,
    /// Third quartile (linear interpolation between closest ranks).
    pub q3: f64,
}

impl Summary {
    /// Summarises `samples`; returns `None` when empty or when a sample is not finite.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        if samples.is_empty() || samples.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let mut v = samples.to_vec();
        v.sort_by(f64::total_cmp);
        Some(Summary {
            n: v.len(),
            median: quantile_sorted(&v, 0.5),
            min: v[0],
            max: v[v.len() - 1],
            q1: quantile_sorted(&v, 0.25),
            q3: quantile_sorted(&v, 0.75),
        })
    }

    /// [`Summary::of`], with an error when there is no valid sample.
    pub fn try_of(samples: &[f64]) -> Result<Summary, crate::BenchError> {
        Summary::of(samples).ok_or_else(|| crate::BenchError::Worker("no valid samples".into()))
    }

    /// Summarises each sample set in turn; an error if any set has no valid sample.
    pub fn of_each(sets: &[Vec<f64>]) -> Result<Vec<Summary>, crate::BenchError> {
        sets.iter().map(|s| Summary::try_of(s)).collect()
    }

    /// Relative spread `(max - min) / median` in percent (0 when the median is 0).
    pub fn spread_pct(&self) -> f64 {
        if self.median == 0.0 {
            0.0
        } else {
            (self.max - self.min) / self.median * 100.0
        }
    }

    /// `median, min, max, q1, q3` with `decimals` decimals, then the spread in percent
    /// with one: the summary columns of the benchmarks' CSV files.
    pub fn csv_fields(&self, decimals: usize) -> [String; 6] {
        let f = |x: f64| format!("{x:.decimals$}");
        [
            f(self.median),
            f(self.min),
            f(self.max),
            f(self.q1),
            f(self.q3),
            format!("{:.1}", self.spread_pct()),
        ]
    }
}

/// The summaries of an experiment's cells, looked up by each cell's key (for example
/// `(producers, consumers)` and an implementation).
#[derive(Clone, Debug)]
pub struct CellSummaries<K> {
    keys: Vec<K>,
    sums: Vec<Summary>,
}

impl<K: Copy + PartialEq> CellSummaries<K> {
    /// Summarises `samples[i]` as cell `keys[i]`; an error if a cell has no valid sample.
    pub fn new(keys: &[K], samples: &[Vec<f64>]) -> Result<Self, crate::BenchError> {
        if keys.len() != samples.len() {
            return Err(crate::BenchError::Invalid(format!(
                "{} cells but {} sample sets",
                keys.len(),
                samples.len()
            )));
        }
        Ok(CellSummaries {
            keys: keys.to_vec(),
            sums: Summary::of_each(samples)?,
        })
    }

    /// The summary of cell `key`, if the experiment has that cell.
    pub fn get(&self, key: K) -> Option<Summary> {
        self.keys
            .iter()
            .position(|&k| k == key)
            .map(|i| self.sums[i])
    }

    /// `median(a) / median(b)`, if both cells exist and `b`'s median is not 0.
    pub fn ratio(&self, a: K, b: K) -> Option<f64> {
        ratio_of_medians(&self.get(a)?, &self.get(b)?)
    }

    /// Every cell with its summary, in the order of the keys.
    pub fn iter(&self) -> impl Iterator<Item = (K, &Summary)> {
        self.keys.iter().copied().zip(&self.sums)
    }
}

/// Median of `samples` (`None` when empty).
pub fn median(samples: &[f64]) -> Option<f64> {
    Summary::of(samples).map(|s| s.median)
}

/// Mean and sample standard deviation of `xs` (0, 0 when empty; sd 0 for one sample).
pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, var.sqrt())
}

/// Ratio of medians `a.median / b.median` (`None` when `b`'s median is 0).
pub fn ratio_of_medians(a: &Summary, b: &Summary) -> Option<f64> {
    if b.median == 0.0 {
        None
    } else {
        Some(a.median / b.median)
    }
}

/// Quantile `q` in `[0, 1]` of an ascending, non-empty slice, interpolating linearly.
fn quantile_sorted(v: &[f64], q: f64) -> f64 {
    let pos = q * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let frac = pos - lo as f64;
    v[lo] + (v[hi] - v[lo]) * frac
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_odd_and_even() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[7.0]), Some(7.0));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn summary_fields() {
        let s = Summary::of(&[5.0, 1.0, 3.0, 2.0, 4.0]).unwrap();
        assert_eq!((s.n, s.min, s.max, s.median), (5, 1.0, 5.0, 3.0));
        assert_eq!((s.q1, s.q3), (2.0, 4.0));
        assert!((s.spread_pct() - 400.0 / 3.0).abs() < 1e-9);
        assert_eq!(
            s.csv_fields(0),
            ["3", "1", "5", "2", "4", "133.3"].map(String::from)
        );
    }

    #[test]
    fn rejects_non_finite() {
        assert!(Summary::of(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn ratio() {
        let a = Summary::of(&[10.0, 10.0]).unwrap();
        let b = Summary::of(&[2.0, 3.0, 2.0]).unwrap();
        assert_eq!(ratio_of_medians(&a, &b), Some(5.0));
        let z = Summary::of(&[0.0]).unwrap();
        assert_eq!(ratio_of_medians(&a, &z), None);
    }

    #[test]
    fn cell_summaries_look_up_by_key() {
        let keys = [(1, 'a'), (1, 'b'), (2, 'a')];
        let samples = vec![vec![4.0, 6.0, 5.0], vec![2.0], vec![0.0, 0.0]];
        let cells = CellSummaries::new(&keys, &samples).unwrap();
        assert_eq!(cells.get((1, 'b')).map(|s| s.median), Some(2.0));
        assert_eq!(cells.get((2, 'b')), None);
        assert_eq!(cells.ratio((1, 'a'), (1, 'b')), Some(2.5));
        assert_eq!(cells.ratio((1, 'a'), (2, 'a')), None); // zero median
        assert_eq!(cells.ratio((1, 'a'), (3, 'z')), None); // no such cell
        let order: Vec<_> = cells.iter().map(|(k, _)| k).collect();
        assert_eq!(order, keys);
        assert!(CellSummaries::new(&keys, &samples[..2]).is_err());
        assert!(CellSummaries::new(&keys[..1], &[vec![]]).is_err());
    }
}
