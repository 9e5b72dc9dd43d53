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

/// The second test of a target in the thesis (§3.3): a steal pays only if its delay
/// plus the time the thief needs for the stolen task is shorter than the time the
/// victim needs to finish its remaining tasks itself, `delay + own_task < stealable ×
/// victim_task / victim_workers` (times in µs). A thief whose tasks take longer than the
/// victim's thus leaves a victim with little work alone. With a task time not yet
/// measured (0: no task finished) there is nothing to compare and the steal counts as
/// worth it.
pub fn worth_stealing(
    delay_us: f64,
    own_task_us: f64,
    victim_task_us: f64,
    victim_stealable: f64,
    victim_workers: usize,
) -> bool {
    if own_task_us <= 0.0 || victim_task_us <= 0.0 {
        return true;
    }
    delay_us + own_task_us < victim_stealable * victim_task_us / victim_workers.max(1) as f64
}

/// The refresher's next interval: halved (down to `min`) when a refresh changed the
/// best target or found none, grown by a quarter, at least 1 µs, (up to `max`) when it
/// kept the target.
pub fn next_interval(
    current: Duration,
    min: Duration,
    max: Duration,
    kept_target: bool,
) -> Duration {
    if kept_target {
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
    fn a_steal_is_worth_it_only_if_it_finishes_sooner() {
        // A thief 3× slower (3000 µs tasks) than its victim (1000 µs), 200 µs away:
        // 200 + 3000 < 3 × 1000 fails, 4 × 1000 / 1 worker passes, 4 × 1000 / 2 fails.
        assert!(!worth_stealing(200.0, 3000.0, 1000.0, 3.0, 1));
        assert!(worth_stealing(200.0, 3000.0, 1000.0, 4.0, 1));
        assert!(!worth_stealing(200.0, 3000.0, 1000.0, 4.0, 2));
        // A fast thief helps a slow victim with a single task: 200 + 1000 < 3000.
        assert!(worth_stealing(200.0, 1000.0, 3000.0, 1.0, 1));
        // Nothing measured yet on either side: no objection.
        assert!(worth_stealing(200.0, 0.0, 1000.0, 1.0, 1));
        assert!(worth_stealing(200.0, 3000.0, 0.0, 1.0, 1));
    }

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
    fn the_interval_shrinks_on_change_and_grows_while_the_target_holds() {
        let (min, max) = (Duration::from_millis(1), Duration::from_millis(10));
        let ms = Duration::from_millis;
        assert_eq!(next_interval(ms(8), min, max, false), ms(4));
        assert_eq!(next_interval(ms(1), min, max, false), ms(1));
        assert_eq!(next_interval(ms(4), min, max, true), ms(5));
        assert_eq!(next_interval(ms(9), min, max, true), ms(10));
    }
}
