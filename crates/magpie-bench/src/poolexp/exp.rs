//! The measurement plan: one cell per (`N`, implementation, `k`, policy), repetitions
//! interleaved over all cells ([`crate::order`]). At `k = 0` nothing is stolen, so each
//! implementation has one `k = 0` cell (policy "none"). The policies are every one of
//! [`magpie::policy::NAMES`] with its default settings.

use magpie::policy::VictimPolicy;
use serde::Serialize;

use super::run::{run_impl, Config, PoolRun};
use super::Params;
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

/// One configuration: workers (= queues), queue, `k` in percent and victim policy
/// ([`NO_POLICY`] at `k = 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub workers: usize,
    pub imp: Impl,
    pub k_pct: u32,
    pub policy: &'static str,
}

/// What one repetition of a cell measured: ops = puts + gets + successful steals, items
/// = puts, per second of wall time; stolen / put and successful / attempted steals in
/// percent; the mean time of one steal attempt (0 without attempts); the smallest
/// worker CPU share.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub ops_per_sec: f64,
    pub items_per_sec: f64,
    pub stolen_pct: f64,
    pub success_pct: f64,
    pub ns_per_attempt: f64,
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

/// The columns that name a cell: each CSV record is a `(CellColumns, row)` pair.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct CellColumns {
    workers: usize,
    cores: usize,
    oversubscribed: bool,
    #[serde(rename = "impl")]
    imp: &'static str,
    family: &'static str,
    flavour: &'static str,
    policy: &'static str,
    k_pct: u32,
}

impl Cell {
    /// The cell's columns on a machine with `cores` cores.
    pub fn columns(&self, cores: usize) -> CellColumns {
        CellColumns {
            workers: self.workers,
            cores,
            oversubscribed: self.workers > cores,
            imp: self.imp.name(),
            family: self.imp.family.name(),
            flavour: self.imp.flavour.name(),
            policy: self.policy,
            k_pct: self.k_pct,
        }
    }
}

/// The rest of a `poolexp_runs.csv` record: one repetition of a cell.
#[derive(Clone, Debug, Serialize)]
pub struct RunRow {
    rep: usize,
    capacity: usize,
    seconds: String,
    rounds: u64,
    puts: u64,
    gets: u64,
    stolen: u64,
    steal_attempts: u64,
    skipped: u64,
    empty: u64,
    retry: u64,
    drained: u64,
    ops_per_sec: String,
    items_per_sec: String,
    stolen_pct: String,
    steal_success_pct: String,
    ns_per_steal_attempt: String,
    pinned: bool,
    min_cpu_share: Option<String>,
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

/// Measures every cell `p.reps` times (interleaved), appending one row per run to `runs`.
pub fn measure(
    cells: &[Cell],
    p: &Params,
    runs: &mut Vec<(CellColumns, RunRow)>,
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
            let row = RunRow {
                rep: rep + 1,
                capacity: p.cap,
                seconds: format!("{:.6}", r.secs),
                rounds: t.rounds,
                puts: t.puts,
                gets: t.gets,
                stolen: t.stolen,
                steal_attempts: t.attempts,
                skipped: t.skipped,
                empty: t.empty,
                retry: t.retry,
                drained: r.drained,
                ops_per_sec: format!("{:.0}", s.ops_per_sec),
                items_per_sec: format!("{:.0}", s.items_per_sec),
                stolen_pct: format!("{:.3}", s.stolen_pct),
                steal_success_pct: format!("{:.3}", s.success_pct),
                ns_per_steal_attempt: format!("{:.1}", s.ns_per_attempt),
                pinned: !r.workers.is_empty() && r.workers.iter().all(|w| w.pinned),
                min_cpu_share: s.min_cpu_share.map(|c| format!("{c:.3}")),
            };
            runs.push((cell.columns(p.cores), row));
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
        let mut runs = Vec::new();
        let s = measure(&c, &p, &mut runs, "test").unwrap();
        assert_eq!(runs.len(), c.len() * 2);
        assert!(s
            .iter()
            .all(|v| v.len() == 2 && v.iter().all(|x| x.ops_per_sec > 0.0)));
    }
}
