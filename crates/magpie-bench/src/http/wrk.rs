//! Driving `wrk` and reading its report; reading a process's CPU time from /proc.

use std::process::Command;

use crate::BenchError;

/// What one wrk run measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WrkResult {
    pub requests: u64,
    /// Requests per second as wrk reports it.
    pub rps: f64,
    /// Median latency, milliseconds (`--latency` distribution).
    pub p50_ms: f64,
    /// 99th percentile latency, milliseconds.
    pub p99_ms: f64,
    /// Socket errors of all kinds (connect, read, write, timeout) plus non-2xx answers.
    pub errors: u64,
}

/// Whether `wrk` can be started.
pub fn available() -> bool {
    Command::new("wrk").arg("--version").output().is_ok()
}

/// Runs `wrk -t1 -c{connections} -d{secs}s --latency` against `url`.
pub fn run(url: &str, connections: usize, secs: u64) -> Result<WrkResult, BenchError> {
    let out = Command::new("wrk")
        .args(["-t1", &format!("-c{connections}"), &format!("-d{secs}s")])
        .args(["--latency", "--timeout", "5s", url])
        .output()
        .map_err(|e| BenchError::Worker(format!("cannot run wrk: {e}")))?;
    let text = String::from_utf8_lossy(&out.stdout);
    parse(&text).ok_or_else(|| {
        BenchError::Worker(format!(
            "cannot read wrk's report (status {}):\n{text}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    })
}

/// A duration as wrk prints it (`812.00us`, `1.23ms`, `2.01s`, `1.00m`) in milliseconds.
fn millis(s: &str) -> Option<f64> {
    let (number, factor) = if let Some(n) = s.strip_suffix("us") {
        (n, 1e-3)
    } else if let Some(n) = s.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1e3)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60e3)
    } else {
        return None;
    };
    number.parse::<f64>().ok().map(|v| v * factor)
}

/// Reads wrk's `--latency` report.
pub fn parse(text: &str) -> Option<WrkResult> {
    let (mut requests, mut rps, mut p50, mut p99, mut errors) = (None, None, None, None, 0);
    for line in text.lines().map(str::trim) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["50%", v] => p50 = millis(v),
            ["99%", v] => p99 = millis(v),
            ["Requests/sec:", v] => rps = v.parse().ok(),
            [n, "requests", "in", ..] => requests = n.parse().ok(),
            ["Socket", "errors:", rest @ ..] => {
                errors += rest
                    .iter()
                    .filter_map(|w| w.trim_end_matches(',').parse::<u64>().ok())
                    .sum::<u64>();
            }
            ["Non-2xx", "or", "3xx", "responses:", n] => errors += n.parse::<u64>().unwrap_or(0),
            _ => {}
        }
    }
    Some(WrkResult {
        requests: requests?,
        rps: rps?,
        p50_ms: p50?,
        p99_ms: p99?,
        errors,
    })
}

/// User + system CPU seconds of process `pid` so far (/proc/PID/stat fields 14 and 15).
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses and may contain spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state): utime is field 14, stime field 15.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    Some((utime + stime) / ticks)
}

/// Raises this process's open-file limit to its hard limit (children inherit it): 1000
/// connections need 2000 descriptors between wrk and the server.
pub fn raise_fd_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is a valid rlimit for getrlimit/setrlimit to read and write.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "Running 2s test @ http://127.0.0.1:40000/
  1 threads and 100 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.03ms  312.11us   9.87ms   90.12%
    Req/Sec    95.01k     3.21k  101.20k    80.00%
  Latency Distribution
     50%  812.00us
     75%    1.10ms
     90%    1.52ms
     99%    2.31ms
  189012 requests in 2.00s, 16.04MB read
  Socket errors: connect 0, read 3, write 0, timeout 2
Requests/sec:  94491.51
Transfer/sec:      8.02MB
";

    #[test]
    fn parses_a_latency_report() {
        let r = parse(REPORT).unwrap();
        assert_eq!(r.requests, 189_012);
        assert!((r.rps - 94_491.51).abs() < 1e-6);
        assert!((r.p50_ms - 0.812).abs() < 1e-9);
        assert!((r.p99_ms - 2.31).abs() < 1e-9);
        assert_eq!(r.errors, 5);
        assert!(parse("garbage").is_none());
        assert_eq!(millis("1.5s"), Some(1500.0));
    }

    #[test]
    fn reads_own_cpu_time() {
        assert!(cpu_seconds(std::process::id()).is_some_and(|s| s >= 0.0));
    }
}
