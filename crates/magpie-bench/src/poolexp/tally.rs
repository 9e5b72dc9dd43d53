//! Item conservation: worker `w` puts `w · 2^40, w · 2^40 + 1, …`, and whoever takes an
//! item (get, steal or the untimed drain) feeds it to a [`Sink`]: [`Tally`] (count and
//! wrapping sum) in timed runs, [`Record`] (the exact values) in tests.

use crate::BenchError;

/// Values of worker `w` start at `w << VALUE_SHIFT`.
pub const VALUE_SHIFT: u32 = 40;

/// The first value worker `w` puts.
pub fn base(w: usize) -> u64 {
    (w as u64) << VALUE_SHIFT
}

/// Count and wrapping sum of the values taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Items taken.
    pub count: u64,
    /// Wrapping sum of their values.
    pub sum: u64,
}

impl Tally {
    /// Adds one value.
    #[inline(always)]
    pub fn add(&mut self, v: u64) {
        self.count += 1;
        self.sum = self.sum.wrapping_add(v);
    }

    /// Adds another tally.
    pub fn merge(&mut self, o: Tally) {
        self.count += o.count;
        self.sum = self.sum.wrapping_add(o.sum);
    }

    /// The tally of the values `start .. start + n` (closed form).
    pub fn range(start: u64, n: u64) -> Tally {
        let (a, n) = (u128::from(start), u128::from(n));
        // Σ_{i<n} (a + i) = n·a + n(n-1)/2; fits u128 for a, n < 2^63.
        let s = n * a + n * n.saturating_sub(1) / 2;
        Tally {
            count: n as u64,
            sum: s as u64,
        }
    }

    /// The tally of everything put: worker `w` put `puts[w]` values from [`base`]`(w)`.
    pub fn of_puts(puts: &[u64]) -> Tally {
        let mut t = Tally::default();
        (puts.iter().enumerate()).for_each(|(w, &n)| t.merge(Tally::range(base(w), n)));
        t
    }

    /// `Ok` when `self` (everything taken) equals `put`, else a loud error.
    pub fn verify(&self, put: Tally, what: &str) -> Result<(), BenchError> {
        if *self == put {
            Ok(())
        } else {
            Err(BenchError::Worker(format!(
                "{what}: ITEMS LOST OR DUPLICATED: {} items taken (got + stolen + drained) of {} put, \
                 value checksum {} vs {}",
                self.count, put.count, self.sum, put.sum
            )))
        }
    }
}

/// Where taken items go.
pub trait Sink: Send {
    /// One item taken.
    fn take(&mut self, v: u64);
    /// Count and sum of what was taken.
    fn tally(&self) -> Tally;
}

impl Sink for Tally {
    #[inline(always)]
    fn take(&mut self, v: u64) {
        self.add(v);
    }

    fn tally(&self) -> Tally {
        *self
    }
}

/// Records every value taken, for exact multiset checks in tests.
#[derive(Clone, Debug, Default)]
pub struct Record(pub Vec<u64>);

impl Sink for Record {
    fn take(&mut self, v: u64) {
        self.0.push(v);
    }

    fn tally(&self) -> Tally {
        let mut t = Tally::default();
        self.0.iter().for_each(|&v| t.add(v));
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_matches_a_loop() {
        for (start, n) in [(0, 0), (0, 1), (5, 10), (base(3), 1000), (u64::MAX / 4, 7)] {
            let mut t = Tally::default();
            for v in start..start + n {
                t.add(v);
            }
            assert_eq!(Tally::range(start, n), t, "{start} {n}");
        }
    }

    #[test]
    fn loss_and_duplication_are_caught() {
        let put = Tally::of_puts(&[3, 2]);
        let mut ok = Record::default();
        for v in [0, 1, 2, base(1), base(1) + 1] {
            ok.take(v);
        }
        assert!(ok.tally().verify(put, "ok").is_ok());
        let mut dup = ok.clone();
        dup.0[0] = 1; // item 0 lost, item 1 twice
        assert!(dup.tally().verify(put, "dup").is_err());
        let mut lost = ok;
        lost.0.pop();
        let err = lost.tally().verify(put, "lost").unwrap_err().to_string();
        assert!(err.contains("ITEMS LOST OR DUPLICATED"), "{err}");
    }
}
