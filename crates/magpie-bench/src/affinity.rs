//! Thread-to-core pinning. Pinning can fail (not Linux, restricted cpuset, too few
//! cores): callers get `false` and must say so rather than report unpinned numbers as pinned.

/// CPUs this process may run on (Linux: from `sched_getaffinity`; elsewhere `0..n`).
pub fn allowed_cpus() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `cpu_set_t` is plain data; zeroed is a valid empty set, and the size
        // passed matches the buffer.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0 {
                let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
                    .filter(|&c| libc::CPU_ISSET(c, &set))
                    .collect();
                if !cpus.is_empty() {
                    return cpus;
                }
            }
        }
    }
    let n = std::thread::available_parallelism().map_or(1, |n| n.get());
    (0..n).collect()
}

/// Number of CPUs available to this process.
pub fn available_cores() -> usize {
    allowed_cpus().len()
}

/// Pins the calling thread to the `index`-th allowed CPU.
///
/// Returns whether pinning took effect: `false` when `index` is beyond the allowed CPUs,
/// when the system call fails, or on platforms without support (then it is a no-op).
pub fn pin_current_thread(index: usize) -> bool {
    let cpus = allowed_cpus();
    let Some(&cpu) = cpus.get(index) else {
        return false;
    };
    pin_to_cpu(cpu)
}

#[cfg(target_os = "linux")]
fn pin_to_cpu(cpu: usize) -> bool {
    // SAFETY: as above; `cpu < CPU_SETSIZE` because it came from `allowed_cpus`.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

#[cfg(not(target_os = "linux"))]
fn pin_to_cpu(_cpu: usize) -> bool {
    false
}

/// The 1-minute load average from `/proc/loadavg` (`None` where unavailable).
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `"load average (1 min) L"`, plus a warning line when the machine was already busy
/// (load ≥ 0.5) before a benchmark started; `hint` says where the noise shows.
pub fn load_note(cores: usize, hint: &str) -> String {
    match load_average() {
        None => "load average (1 min) n/a".into(),
        Some(l) if l >= 0.5 => format!(
            "load average (1 min) {l:.2}\nWARNING: machine busy before the run (load {l:.2} on \
             {cores} cores): expect noise; {hint}"
        ),
        Some(l) => format!("load average (1 min) {l:.2}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_note_names_the_load() {
        assert!(load_note(2, "see spread %").starts_with("load average (1 min) "));
    }

    #[test]
    fn at_least_one_cpu() {
        assert!(available_cores() >= 1);
    }

    #[test]
    fn out_of_range_index_is_not_pinned() {
        let n = available_cores();
        std::thread::spawn(move || assert!(!pin_current_thread(n)))
            .join()
            .unwrap();
    }
}
