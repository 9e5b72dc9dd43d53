//! The arithmetic of the performance-driven policy (chapter 3 of the YewPar thesis),
//! shared by the worker-level [`PerformanceDriven`](super::PerformanceDriven) policy
//! and node-level policies built on the pool (magpie-dist's): the exponential
//! smoothing, the thesis's samples of work rate (eq. 3.1) and delay (eq. 3.2), the
//! steal-worthiness score (eq. 3.3) and the refresher's adaptive interval.

use std::time::Duration;

/// Weight of a new sample in the exponential smoothing of eq. (3.1) and (3.2).
pub const ALPHA: f64 = 0.65;
/// Floor of the work rate in the score of eq. (3.3).
pub const MIN_WORK_RATE: f64 = 0.0001;

/// `ALPHA × sample + (1 − ALPHA) × history`.
pub fn smooth(sample: f64, history: f64) -> f64 {
    ALPHA * sample + (1.0 - ALPHA) * history
}

/// Eq. (3.1)'s sample for one period of `work_us` busy and `idle_us` idle
/// microseconds: `ln(2.72 + work/(work + idle)) × ln(2.72 + work + idle)`. Busier and
/// longer periods (slow workers) give larger rates; smooth it with [`smooth`].
pub fn work_rate_sample(work_us: f64, idle_us: f64) -> f64 {
    let period = work_us + idle_us;
    let busy = if period > 0.0 { work_us / period } else { 0.0 };
    (2.72 + busy).ln() * (2.72 + period).ln()
}

/// Eq. (3.2)'s sample for a measured delay of `delay_us` microseconds to a node with
/// `workers` workers: `ln(2.72 + delay × workers)`; smooth it with [`smooth`].
pub fn delay_sample(delay_us: f64, workers: usize) -> f64 {
    (2.72 + delay_us * workers as f64).ln()
}

/// Eq. (3.3): how worth stealing from a victim is, `max(rate, 0.0001) × stealable −
/// delay`. Only a positive score makes a victim a target.
pub fn score(work_rate: f64, stealable: f64, delay: f64) -> f64 {
    work_rate.max(MIN_WORK_RATE) * stealable - delay
}

/// The refresher's next interval: grown by a quarter, at least 1 µs, (up to `max`) after
/// a refresh the caller calls good (`good`), halved (down to `min`) otherwise. The
/// thesis calls a refresh good when some score is positive (node level, magpie-dist);
/// the worker-level policy also wants the best target unchanged, since targets there
/// move within microseconds.
pub fn next_interval(current: Duration, min: Duration, max: Duration, good: bool) -> Duration {
    if good {
        current
            .saturating_add((current / 4).max(Duration::from_micros(1)))
            .min(max)
    } else {
        (current / 2).max(min)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn hand_computed_values() {
        assert!((smooth(10.0, 4.0) - (6.5 + 1.4)).abs() < 1e-12);
        // 300 µs busy of a 1000 µs period: ln(3.02) × ln(1002.72).
        let expected = 3.02f64.ln() * 1002.72f64.ln();
        assert!((work_rate_sample(300.0, 700.0) - expected).abs() < 1e-12);
        assert!((work_rate_sample(0.0, 0.0) - 2.72f64.ln() * 2.72f64.ln()).abs() < 1e-12);
        assert!((delay_sample(50.0, 2) - 102.72f64.ln()).abs() < 1e-12);
        assert!((score(2.0, 3.0, 1.5) - 4.5).abs() < 1e-12);
        assert!(
            (score(0.0, 3.0, 0.0) - 0.0003).abs() < 1e-12,
            "the rate's floor"
        );
        assert!(
            score(8.0, 0.0, 0.1) < 0.0,
            "nothing to steal: never a target"
        );
    }

    #[test]
    fn the_interval_halves_after_a_bad_refresh_and_grows_after_a_good_one() {
        let (min, max) = (Duration::from_millis(1), Duration::from_millis(10));
        let ms = Duration::from_millis;
        assert_eq!(next_interval(ms(8), min, max, false), ms(4));
        assert_eq!(next_interval(ms(1), min, max, false), ms(1));
        assert_eq!(next_interval(ms(4), min, max, true), ms(5));
        assert_eq!(next_interval(ms(9), min, max, true), ms(10));
    }
}
