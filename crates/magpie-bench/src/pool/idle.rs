//! Idle CPU: process CPU time (`getrusage`) while a pool that has just run a tiny job
//! sleeps, in % of one core (issue 4's bound for magpie: ≤ 1 %). The clock is
//! process-wide, so no other pool may be alive.

use std::time::{Duration, Instant};

use super::run::{unsupported, Config, Runtime, RuntimePool, THREADS};
use crate::BenchError;

/// User + system CPU time of the whole process, seconds.
pub fn process_cpu_secs() -> Result<f64, BenchError> {
    // SAFETY: `rusage` is plain data, so all-zero is a valid value; `getrusage` only
    // writes into the struct passed.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid, writable `rusage`.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) } != 0 {
        return Err(BenchError::Worker(format!(
            "getrusage failed: {}",
            std::io::Error::last_os_error()
        )));
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    Ok(tv(ru.ru_utime) + tv(ru.ru_stime))
}

/// CPU used by the process while the caller sleeps `span`, in % of one core.
fn idle_pct(span: Duration) -> Result<f64, BenchError> {
    let c0 = process_cpu_secs()?;
    let t0 = Instant::now();
    std::thread::sleep(span);
    let c1 = process_cpu_secs()?;
    let wall = t0.elapsed().as_secs_f64();
    Ok((c1 - c0) / wall * 100.0)
}

/// A tiny job that gives both workers something to do (a join, or two spawned tasks);
/// whether it returned the right result.
fn warm_job(pool: &RuntimePool) -> Result<bool, BenchError> {
    Ok(match pool {
        RuntimePool::Magpie(p) => p.install(|| magpie::join(|| 1, || 2)) == (1, 2),
        RuntimePool::Rayon(p) => p.install(|| rayon::join(|| 1, || 2)) == (1, 2),
        RuntimePool::Tokio(p) => p.block_on(async {
            let a = tokio::spawn(async { 1 });
            let b = tokio::spawn(async { 2 });
            matches!((a.await, b.await), (Ok(1), Ok(2)))
        }),
        RuntimePool::Chili(_) => return Err(unsupported("idle", Runtime::Chili)),
    })
}

/// Idle CPU samples (% of one core) of one runtime: `reps` idle spans of `span` each,
/// each right after a tiny job. The pool is built first and dropped after (untimed).
pub fn measure(rt: Runtime, reps: usize, span: Duration) -> Result<Vec<f64>, BenchError> {
    let pool = RuntimePool::new(Config::new(rt, THREADS))?;
    let mut out = Vec::with_capacity(reps);
    for _ in 0..reps {
        if !warm_job(&pool)? {
            return Err(BenchError::Worker(format!(
                "idle: warm-up job on {} returned a wrong result",
                rt.name()
            )));
        }
        out.push(idle_pct(span)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_clock_advances_with_work() {
        let c0 = process_cpu_secs().unwrap();
        let t0 = Instant::now();
        let mut x = 0u64;
        while t0.elapsed() < Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        assert!(process_cpu_secs().unwrap() > c0);
    }

    #[test]
    fn measures_every_runtime() {
        for rt in Runtime::ALL {
            let v = measure(rt, 1, Duration::from_millis(20)).unwrap();
            assert_eq!(v.len(), 1);
            assert!(v[0].is_finite() && v[0] >= 0.0, "{v:?}");
        }
    }
}
