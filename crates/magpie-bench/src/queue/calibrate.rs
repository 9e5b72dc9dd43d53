//! Thief-pause calibration for experiment 2: short, noisy probe runs search for the
//! pause that gives each target stolen percentage; the measured runs report the
//! percentage they actually achieved.

use serde::Serialize;

use super::run::PAUSE_SCALE;
use super::{Impl, Params};
use crate::BenchError;

/// Relative distance from a target at which calibration stops early.
const TOLERANCE: f64 = 0.1;
/// Largest pause tried (spin iterations).
const MAX_PAUSE: f64 = (1u64 << 24) as f64;

/// A calibrated configuration of experiment 2.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Target stolen percentage (0 = no thief).
    pub target: f64,
    /// Chosen pause in spin iterations (`None` = no thief thread).
    pub pause: Option<f64>,
    /// Stolen % of the chosen calibration probe.
    pub estimate: f64,
}

/// A row of `exp2_thief_calibration.csv`: one probe run of the pause search.
#[derive(Serialize)]
pub struct ProbeRow {
    #[serde(rename = "impl")]
    implementation: &'static str,
    /// Display text of the `f64` (`0`; an `f64` field would give the csv crate's `0.0`).
    pause_spins: String,
    rounds: u64,
    stolen_pct: String,
    owner_ops_per_sec: String,
}

/// Smallest positive pause tried (one spin every 16th attempt).
const MIN_PAUSE: f64 = 1.0 / PAUSE_SCALE;

/// Pause search for one implementation; every probe is recorded in the calibration CSV.
///
/// Stolen % falls as the pause grows, so for each target the search brackets it between
/// a pause that steals at least the target and one that steals less (growing ×4 from the
/// largest known pause), then bisects geometrically. It stops at the first probe within
/// ±10 % of the target or after `calib_steps` bisection steps and takes the probe closest
/// to the target. Probes are short and noisy, so this is approximate by design.
struct Calibrator<F> {
    /// Measures the stolen % at a pause.
    run: F,
    /// Bisection steps per target.
    steps: usize,
    /// Every probe so far: (pause, stolen %).
    samples: Vec<(f64, f64)>,
}

impl<F: FnMut(f64) -> Result<f64, BenchError>> Calibrator<F> {
    fn probe(&mut self, pause: f64) -> Result<f64, BenchError> {
        let pct = (self.run)(pause)?;
        self.samples.push((pause, pct));
        Ok(pct)
    }

    fn close(pct: f64, target: f64) -> bool {
        (pct - target).abs() <= TOLERANCE * target
    }

    /// The recorded sample closest to `target` in log distance.
    fn best(&self, target: f64) -> (f64, f64) {
        let dist = |pct: f64| ((pct + 1e-3) / target).ln().abs();
        self.samples
            .iter()
            .copied()
            .min_by(|a, b| dist(a.1).total_cmp(&dist(b.1)))
            .unwrap_or((0.0, 0.0))
    }

    fn find(&mut self, target: f64) -> Result<(f64, f64), BenchError> {
        if self.samples.is_empty() {
            self.probe(0.0)?;
        }
        let best = self.best(target);
        if Self::close(best.1, target) {
            return Ok(best);
        }
        // Largest pause still stealing at least the target, smallest above it stealing less.
        let Some(mut lo) = self
            .samples
            .iter()
            .filter(|s| s.1 >= target)
            .map(|s| s.0)
            .max_by(f64::total_cmp)
        else {
            // Even without a pause the thief cannot steal this much: best effort.
            return Ok(best);
        };
        let mut hi = self
            .samples
            .iter()
            .filter(|s| s.0 > lo && s.1 < target)
            .map(|s| s.0)
            .min_by(f64::total_cmp);
        let mut h = (lo * 4.0).max(MIN_PAUSE);
        while hi.is_none() && h <= MAX_PAUSE {
            let pct = self.probe(h)?;
            if Self::close(pct, target) {
                return Ok((h, pct));
            }
            if pct < target {
                hi = Some(h);
            } else {
                lo = h;
                h *= 4.0;
            }
        }
        let Some(mut hi) = hi else {
            return Ok(self.best(target));
        };
        for _ in 0..self.steps {
            let mid = quantize((lo.max(MIN_PAUSE / 2.0) * hi).sqrt());
            if mid <= lo || mid >= hi {
                break;
            }
            let pct = self.probe(mid)?;
            if Self::close(pct, target) {
                return Ok((mid, pct));
            }
            if pct >= target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Ok(self.best(target))
    }
}

/// Rounds a pause to the resolution the thief applies (1/16 spin), keeping 3 significant
/// digits for large pauses so CSV values stay readable.
fn quantize(pause: f64) -> f64 {
    let q = (pause * PAUSE_SCALE).round() / PAUSE_SCALE;
    if q >= 100.0 {
        let mag = 10f64.powf(q.log10().floor() - 2.0);
        (q / mag).round() * mag
    } else {
        q
    }
}

/// Calibrates one configuration per target for `imp` (target 0 = no thief), recording
/// every probe run in `probes`. Returns the configurations in the order of `targets`.
pub fn calibrate(
    imp: Impl,
    p: &Params,
    targets: &[f64],
    probes: &mut Vec<ProbeRow>,
) -> Result<Vec<Config>, BenchError> {
    let run = |pause: f64| {
        let r = imp.run(p.cap, p.calib_rounds, Some(pause))?;
        let pct = r.stolen_pct();
        probes.push(ProbeRow {
            implementation: imp.name(),
            pause_spins: pause.to_string(),
            rounds: p.calib_rounds,
            stolen_pct: format!("{pct:.4}"),
            owner_ops_per_sec: format!("{:.0}", r.owner.ops_per_sec()),
        });
        Ok(pct)
    };
    search(run, p.calib_steps, targets)
}

/// The search behind [`calibrate`], over any `run(pause) -> stolen %`.
fn search<F: FnMut(f64) -> Result<f64, BenchError>>(
    run: F,
    steps: usize,
    targets: &[f64],
) -> Result<Vec<Config>, BenchError> {
    let mut c = Calibrator {
        run,
        steps,
        samples: Vec::new(),
    };
    // Highest target first: smaller targets then reuse the earlier probes as brackets.
    let mut order: Vec<usize> = (0..targets.len()).collect();
    order.sort_by(|&a, &b| targets[b].total_cmp(&targets[a]));
    let no_thief = Config {
        target: 0.0,
        pause: None,
        estimate: 0.0,
    };
    let mut out = vec![no_thief; targets.len()];
    for i in order.into_iter().filter(|&i| targets[i] > 0.0) {
        let (pause, estimate) = c.find(targets[i])?;
        out[i] = Config {
            target: targets[i],
            pause: Some(pause),
            estimate,
        };
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantize_to_sixteenths_and_three_digits() {
        assert_eq!(quantize(0.3), 0.3125);
        assert_eq!(quantize(1.0), 1.0);
        assert_eq!(quantize(12345.0), 12300.0);
    }

    /// A smooth model: stolen % = 30 / (1 + pause), so pause ≈ 30 / target - 1.
    fn model(pause: f64) -> Result<f64, BenchError> {
        Ok(30.0 / (1.0 + pause))
    }

    #[test]
    fn finds_targets_on_a_monotone_curve() {
        let targets = [0.0, 1.0, 5.0, 10.0, 20.0];
        let mut probes = 0;
        let out = search(
            |x| {
                probes += 1;
                model(x)
            },
            8,
            &targets,
        )
        .unwrap();
        assert!(out[0].pause.is_none());
        for (c, &t) in out.iter().zip(&targets).skip(1) {
            let pct = model(c.pause.unwrap()).unwrap();
            assert!((pct - t).abs() <= 0.15 * t, "target {t}: got {pct}");
        }
        assert!(probes < 40, "{probes} probes");
    }

    #[test]
    fn unreachable_target_falls_back_to_no_pause() {
        // The thief can steal at most 30 % here.
        let out = search(model, 8, &[50.0]).unwrap();
        assert_eq!(out[0].pause, Some(0.0));
    }
}
