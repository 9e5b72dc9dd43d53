//! The measurement plan: one cell per (`N`, implementation, `k`, policy), repetitions
//! interleaved over all cells ([`crate::order`]). At `k = 0` nothing is stolen, so each
//! implementation has one `k = 0` cell (policy "none"). The policies are every one of
//! [`magpie::policy::NAMES`] with its default settings.

use magpie::policy::VictimPolicy;

use super::run::{run_impl, Config, PoolRun};
use super::Params;
use crate::csv::Csv;
use crate::queue::Impl;
use crate::BenchError;

/// Balancing factors `k` in percent of the capacity, as in the paper's Fig. 12.
pub const K_PCT: [u32; 4] = [0, 25, 50, 100];

/// Policy label of the `k = 0` cells.
pub const NO_POLICY: &str = "none";

/// The baseline policy's name (uniformly random victim).
pub const RANDOM: &str = "random";

/// The policy called `name`.
pub fn policy(name: &str) -> Result<Box<dyn VictimPolicy>, BenchError> {
    magpie::policy::by_name(name).map_err(|e| BenchError::Invalid(e.to_string()))
}

/// One configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Workers (= queues).
    pub workers: usize,
    /// Queue implementation.
    pub imp: Impl,
    /// Balancing factor, percent.
    pub k_pct: u32,
    /// Victim policy ([`NO_POLICY`] at `k = 0`).
    pub policy: &'static str,
}

/// What one repetition of a cell measured.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// (puts + gets + successful steals) / wall time.
    pub ops_per_sec: f64,
    /// Items through the pool: puts / wall time.
    pub items_per_sec: f64,
    /// Stolen / put, percent.
    pub stolen_pct: f64,
    /// Successful steals / attempts, percent.
    pub success_pct: f64,
    /// Mean time of one steal attempt (policy choice + steal), ns; 0 without attempts.
    pub ns_per_attempt: f64,
    /// Smallest worker CPU share.
    pub min_cpu_share: Option<f64>,
}

impl Sample {
    /// The rates and shares of run `r`.
    pub fn of(r: &PoolRun) -> Sample {
        let t = r.total();
        let pct = |a: u64, b: u64| {
            if b == 0 {
                0.0
            } else {
                a as f64 / b as f64 * 100.0
            }
        };
        Sample {
            ops_per_sec: (t.puts + t.gets + t.stolen) as f64 / r.secs,
            items_per_sec: t.puts as f64 / r.secs,
            stolen_pct: pct(t.stolen, t.puts),
            success_pct: pct(t.stolen, t.attempts),
            ns_per_attempt: if t.attempts == 0 {
                0.0
            } else {
                t.steal_secs * 1e9 / t.attempts as f64
            },
            min_cpu_share: r
                .workers
                .iter()
                .filter_map(|w| w.cpu_share)
                .min_by(f64::total_cmp),
        }
    }
}

/// The implementations compared: magpie, crossbeam-deque and st3, LIFO then FIFO.
pub fn impls() -> Vec<Impl> {
    Impl::all().into_iter().filter(|i| i.stealable()).collect()
}

/// The policies run at `k`: just [`NO_POLICY`] at `k = 0`, else `policies`.
pub fn policies_at<'a>(k_pct: u32, policies: &'a [&'static str]) -> &'a [&'static str] {
    if k_pct == 0 {
        &[NO_POLICY]
    } else {
        policies
    }
}

/// The cells for `workers` workers and the given policies.
pub fn cells(workers: usize, policies: &[&'static str]) -> Vec<Cell> {
    let mut out = Vec::new();
    for imp in impls() {
        for k_pct in K_PCT {
            for &policy in policies_at(k_pct, policies) {
                out.push(Cell {
                    workers,
                    imp,
                    k_pct,
                    policy,
                });
            }
        }
    }
    out
}

/// The CSV columns that name a cell (both CSV files start with them).
const CELL_COLUMNS: [&str; 8] = [
    "workers",
    "cores",
    "oversubscribed",
    "impl",
    "family",
    "flavour",
    "policy",
    "k_pct",
];

impl Cell {
    /// The values of the cell columns on a machine with `cores` cores.
    pub fn fields(&self, cores: usize) -> Vec<String> {
        vec![
            self.workers.to_string(),
            cores.to_string(),
            (self.workers > cores).to_string(),
            self.imp.name().to_string(),
            self.imp.family.name().to_string(),
            self.imp.flavour.name().to_string(),
            self.policy.to_string(),
            self.k_pct.to_string(),
        ]
    }
}

/// A CSV whose columns name a cell, followed by `rest`.
pub fn cell_csv(rest: &[&str]) -> Csv {
    Csv::new(&[&CELL_COLUMNS[..], rest].concat())
}

/// Header of the per-repetition CSV.
pub fn runs_csv() -> Csv {
    cell_csv(&[
        "rep",
        "capacity",
        "seconds",
        "rounds",
        "puts",
        "gets",
        "stolen",
        "steal_attempts",
        "skipped",
        "empty",
        "retry",
        "drained",
        "ops_per_sec",
        "items_per_sec",
        "stolen_pct",
        "steal_success_pct",
        "ns_per_steal_attempt",
        "pinned",
        "min_cpu_share",
    ])
}

/// Measures one repetition of `cell`.
pub fn measure_one(cell: &Cell, p: &Params, rep: usize) -> Result<PoolRun, BenchError> {
    let policy = policy(if cell.policy == NO_POLICY {
        RANDOM
    } else {
        cell.policy
    })?;
    let cfg = Config {
        workers: cell.workers,
        cap: p.cap,
        k_pct: cell.k_pct,
        duration: p.duration,
        pin: cell.workers <= p.cores,
        seed: 0x5EED ^ ((rep as u64) << 16) ^ cell.k_pct as u64,
    };
    run_impl(cell.imp, &cfg, policy.as_ref())
}

/// Measures every cell `p.reps` times (interleaved), appending one row per run to `csv`.
pub fn measure(
    cells: &[Cell],
    p: &Params,
    csv: &mut Csv,
    label: &str,
) -> Result<Vec<Vec<Sample>>, BenchError> {
    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); cells.len()];
    crate::order::interleave(
        &format!("poolexp {label}"),
        cells.len(),
        p.reps,
        |rep, c| {
            let cell = &cells[c];
            let r = measure_one(cell, p, rep)?;
            let (s, t) = (Sample::of(&r), r.total());
            let mut row = cell.fields(p.cores);
            row.extend([
                (rep + 1).to_string(),
                p.cap.to_string(),
                format!("{:.6}", r.secs),
                t.rounds.to_string(),
                t.puts.to_string(),
                t.gets.to_string(),
                t.stolen.to_string(),
                t.attempts.to_string(),
                t.skipped.to_string(),
                t.empty.to_string(),
                t.retry.to_string(),
                r.drained.to_string(),
                format!("{:.0}", s.ops_per_sec),
                format!("{:.0}", s.items_per_sec),
                format!("{:.3}", s.stolen_pct),
                format!("{:.3}", s.success_pct),
                format!("{:.1}", s.ns_per_attempt),
                (!r.workers.is_empty() && r.workers.iter().all(|w| w.pinned)).to_string(),
                s.min_cpu_share.map_or(String::new(), |c| format!("{c:.3}")),
            ]);
            csv.row(&row);
            samples[c].push(s);
            Ok::<(), BenchError>(())
        },
    )?;
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_builds_its_policy() {
        assert!(magpie::policy::NAMES.contains(&RANDOM));
        for &n in magpie::policy::NAMES {
            assert_eq!(policy(n).unwrap().name(), n);
        }
        assert!(policy("no-such-policy").is_err());
    }

    #[test]
    fn one_k0_cell_per_impl_and_every_policy_elsewhere() {
        let c = cells(2, &["a", "b"]);
        assert_eq!(c.len(), impls().len() * (1 + 3 * 2));
        assert_eq!(impls().len(), 6);
        assert!(c.iter().all(|c| (c.k_pct == 0) == (c.policy == NO_POLICY)));
    }

    #[test]
    fn measure_writes_one_row_per_run() {
        let p = Params {
            cap: 64,
            reps: 2,
            duration: std::time::Duration::from_millis(2),
            cores: 2,
            quick: true,
        };
        let c: Vec<Cell> = cells(2, &[RANDOM])
            .into_iter()
            .filter(|c| c.k_pct == 0 || c.k_pct == 100)
            .collect();
        let mut csv = runs_csv();
        let s = measure(&c, &p, &mut csv, "test").unwrap();
        assert_eq!(csv.len(), c.len() * 2);
        assert!(s
            .iter()
            .all(|v| v.len() == 2 && v.iter().all(|x| x.ops_per_sec > 0.0)));
    }
}
