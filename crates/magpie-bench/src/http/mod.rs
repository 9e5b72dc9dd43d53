//! `magpie bench http` (BWoS §6.3.2): the same hyper server on magpie-async, tokio and
//! smol, 2 workers each, under `wrk -t1` at 100, 500 and 1,000 connections. Every
//! measurement starts a fresh server process (`magpie bench-http-server`) and reads its CPU
//! time from /proc; server and wrk share the 2 cores unpinned.

pub mod server;
pub mod wrk;

use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use serde::Serialize;

use crate::asyncrt::runtimes::{Kind, KINDS};
use crate::stats::Summary;
use crate::svg::{Bar, BarChart, BarSeries};
use crate::{BenchError, Outcome, RunOptions, TargetCheck};

/// Worker threads of every server.
pub const WORKERS: usize = 2;
/// wrk connection counts.
pub const CONNECTIONS: [usize; 3] = [100, 500, 1000];

/// The `magpie` executable that has the hidden `bench-http-server` subcommand: `MAGPIE_BIN`
/// if set, else the running executable.
fn server_exe() -> Result<PathBuf, BenchError> {
    match std::env::var_os("MAGPIE_BIN") {
        Some(p) => Ok(PathBuf::from(p)),
        None => std::env::current_exe()
            .map_err(|e| BenchError::Invalid(format!("cannot find the magpie executable: {e}"))),
    }
}

/// A server child process; killed on drop.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(exe: &PathBuf, kind: Kind) -> Result<Server, BenchError> {
        let mut child = Command::new(exe)
            .args(["bench-http-server", "--runtime", kind.name()])
            .args(["--workers", &WORKERS.to_string()])
            .stdout(Stdio::piped())
            .stdin(Stdio::null())
            .spawn()
            .map_err(|e| BenchError::Worker(format!("cannot start {}: {e}", exe.display())))?;
        let mut line = String::new();
        let stdout = child.stdout.take().expect("piped");
        BufReader::new(stdout)
            .read_line(&mut line)
            .map_err(|e| BenchError::Worker(format!("server did not start: {e}")))?;
        let addr = line.trim().strip_prefix("listening ").map(str::to_string);
        let Some(addr) = addr else {
            let _ = child.kill();
            return Err(BenchError::Worker(format!(
                "server printed {line:?} instead of its address"
            )));
        };
        Ok(Server {
            child,
            url: format!("http://{addr}/"),
        })
    }

    fn cpu(&self) -> Result<f64, BenchError> {
        wrk::cpu_seconds(self.child.id())
            .ok_or_else(|| BenchError::Worker("cannot read the server's CPU time".into()))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Serialize, Clone)]
struct RunRow {
    runtime: &'static str,
    connections: usize,
    rep: usize,
    seconds: u64,
    requests: u64,
    rps: f64,
    p50_ms: f64,
    p99_ms: f64,
    cpu_s_per_10k: f64,
    errors: u64,
}

#[derive(Serialize)]
struct SummaryRow {
    runtime: &'static str,
    connections: usize,
    median_rps: f64,
    min_rps: f64,
    max_rps: f64,
    spread_pct: f64,
    p50_ms: f64,
    p99_ms: f64,
    cpu_s_per_10k: f64,
    errors: u64,
    x_tokio_rps: f64,
}

/// The targets at 1,000 connections, from magpie's and tokio's rows there. A row with
/// socket errors or non-2xx responses has no valid figures: its targets are not met.
fn targets(m: &SummaryRow, t: &SummaryRow) -> Vec<TargetCheck> {
    let clean = m.errors == 0 && t.errors == 0;
    let check = |name: &str, measured: f64, threshold: f64| TargetCheck {
        name: format!("1000 conns: {name}"),
        measured: clean.then_some(measured),
        threshold,
    };
    vec![
        check(
            "magpie req/s / tokio req/s",
            m.median_rps / t.median_rps,
            1.10,
        ),
        check(
            "tokio p99 / magpie p99 (no worse)",
            t.p99_ms / m.p99_ms,
            1.0,
        ),
        check(
            "tokio CPU/request / magpie CPU/request",
            t.cpu_s_per_10k / m.cpu_s_per_10k,
            1.0,
        ),
    ]
}

/// Runs the benchmark; without `wrk` it prints a loud SKIPPED line and returns no files.
pub fn run(options: &RunOptions) -> Result<Outcome, BenchError> {
    if !wrk::available() {
        println!("!!!!!!!! SKIPPED: bench http needs wrk (apt-get install wrk) !!!!!!!!");
        return Ok(Outcome::default());
    }
    let mut out = options.out()?;
    wrk::raise_fd_limit();
    let exe = server_exe()?;
    let secs = if options.quick { 2 } else { 10 };
    let reps = options.reps_or(2, 5);
    let cells = CONNECTIONS.len() * KINDS.len();
    let cell = |i: usize| (CONNECTIONS[i / KINDS.len()], KINDS[i % KINDS.len()]);
    let mut runs: Vec<Vec<RunRow>> = vec![Vec::new(); cells];
    crate::order::interleave("bench http", cells, reps, |rep, i| {
        let (connections, kind) = cell(i);
        let server = Server::start(&exe, kind)?;
        let cpu_before = server.cpu()?;
        let r = wrk::run(&server.url, connections, secs)?;
        let cpu = server.cpu()? - cpu_before;
        drop(server);
        runs[i].push(RunRow {
            runtime: kind.name(),
            connections,
            rep,
            seconds: secs,
            requests: r.requests,
            rps: r.rps,
            p50_ms: r.p50_ms,
            p99_ms: r.p99_ms,
            cpu_s_per_10k: cpu / r.requests.max(1) as f64 * 1e4,
            errors: r.errors,
        });
        Ok(())
    })?;
    let median_of = |i: usize, f: fn(&RunRow) -> f64| {
        crate::stats::median(&runs[i].iter().map(f).collect::<Vec<_>>()).unwrap_or(f64::NAN)
    };
    let rps: Vec<Vec<f64>> = runs
        .iter()
        .map(|r| r.iter().map(|x| x.rps).collect())
        .collect();
    let summaries = Summary::of_each(&rps)?;
    let index = |c: usize, k: usize| c * KINDS.len() + k;
    let tokio = KINDS.iter().position(|&k| k == Kind::Tokio).expect("tokio");
    let mut rows = Vec::new();
    for (c, &connections) in CONNECTIONS.iter().enumerate() {
        for (k, &kind) in KINDS.iter().enumerate() {
            let (i, s) = (index(c, k), summaries[index(c, k)]);
            rows.push(SummaryRow {
                runtime: kind.name(),
                connections,
                median_rps: s.median,
                min_rps: s.min,
                max_rps: s.max,
                spread_pct: s.spread_pct(),
                p50_ms: median_of(i, |r| r.p50_ms),
                p99_ms: median_of(i, |r| r.p99_ms),
                cpu_s_per_10k: median_of(i, |r| r.cpu_s_per_10k),
                errors: runs[i].iter().map(|r| r.errors).sum(),
                x_tokio_rps: s.median / summaries[index(c, tokio)].median,
            });
        }
    }
    let last = CONNECTIONS.len() - 1;
    let targets = targets(&rows[index(last, 0)], &rows[index(last, tokio)]);
    let all_runs: Vec<RunRow> = runs.into_iter().flatten().collect();
    out.rows("http_runs.csv", &all_runs)?;
    out.rows("http_summary.csv", &rows)?;
    out.file("http_rps.svg", &chart(&summaries, reps, secs).render())?;
    let report = report(&rows, &targets, reps, secs, options.quick);
    out.say(&report);
    out.targets = targets;
    out.finish("http_report.txt")
}

fn chart(summaries: &[Summary], reps: usize, secs: u64) -> BarChart {
    BarChart {
        title: format!("hyper hello, {WORKERS} workers, wrk {secs} s, median of {reps}"),
        y_label: "requests/s (bars = min..max)".into(),
        x_label: "wrk connections".into(),
        categories: CONNECTIONS.iter().map(|c| c.to_string()).collect(),
        series: KINDS
            .iter()
            .enumerate()
            .map(|(k, kind)| {
                BarSeries::new(
                    kind.name(),
                    (0..CONNECTIONS.len()).map(|c| Some(Bar::from(summaries[c * KINDS.len() + k]))),
                )
            })
            .collect(),
    }
}

fn report(
    rows: &[SummaryRow],
    targets: &[TargetCheck],
    reps: usize,
    secs: u64,
    quick: bool,
) -> String {
    let mut text = format!(
        "hyper HTTP/1 hello server, {WORKERS} workers per runtime, wrk -t1 {secs} s per point, \
         {reps} interleaved repetitions{}\n\
         cores: 2, shared unpinned by the server's {WORKERS} workers (+ async-io's helper thread \
         for smol) and wrk's 1 thread; loopback only\n\
         {:<8} {:>6} {:>11} {:>11} {:>11} {:>8} {:>8} {:>8} {:>10} {:>7} {:>8}\n",
        if quick { " (QUICK: not evidence)" } else { "" },
        "runtime",
        "conns",
        "median r/s",
        "min",
        "max",
        "spread%",
        "p50 ms",
        "p99 ms",
        "CPUs/10k",
        "errors",
        "x tokio"
    );
    for r in rows {
        let _ = writeln!(
            text,
            "{:<8} {:>6} {:>11.0} {:>11.0} {:>11.0} {:>8.1} {:>8.3} {:>8.3} {:>10.4} {:>7} {:>8.3}",
            r.runtime,
            r.connections,
            r.median_rps,
            r.min_rps,
            r.max_rps,
            r.spread_pct,
            r.p50_ms,
            r.p99_ms,
            r.cpu_s_per_10k,
            r.errors,
            r.x_tokio_rps
        );
    }
    text + &crate::table::targets(targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(runtime: &'static str, rps: f64, errors: u64) -> SummaryRow {
        SummaryRow {
            runtime,
            connections: 1000,
            median_rps: rps,
            min_rps: rps,
            max_rps: rps,
            spread_pct: 0.0,
            p50_ms: 1.0,
            p99_ms: 2.0,
            cpu_s_per_10k: 0.05,
            errors,
            x_tokio_rps: 1.0,
        }
    }

    #[test]
    fn targets_need_runs_without_errors() {
        let passed = |m, t| -> Vec<bool> { targets(&m, &t).iter().map(|c| c.passed()).collect() };
        assert_eq!(
            passed(row("magpie", 1200.0, 0), row("tokio", 1000.0, 0)),
            [true, true, true]
        );
        // Failed requests (wrk counts errors and non-2xx answers) are not throughput.
        assert_eq!(
            passed(row("magpie", 1200.0, 5), row("tokio", 1000.0, 0)),
            [false, false, false]
        );
        assert_eq!(
            passed(row("magpie", 1200.0, 0), row("tokio", 1000.0, 5)),
            [false, false, false]
        );
    }
}
