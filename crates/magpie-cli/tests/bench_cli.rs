//! `magpie bench` end to end, for what needs no measurement: how it fails.

use std::process::Command;

/// `bench all` needs the shared data folder for `search` and `clique`; without it, it
/// must say so at once rather than after the benchmarks that come before them.
#[test]
fn bench_all_without_the_data_folder_fails_before_running_anything() {
    let out_dir = std::env::temp_dir().join(format!("magpie-bench-all-{}", std::process::id()));
    let missing = out_dir.join("no-such-data");
    let out = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(["bench", "all", "--quick", "--out"])
        .arg(&out_dir)
        .env("MAGPIE_DATA", &missing)
        .output()
        .expect("the magpie binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let ran_queue = out_dir.join("queue").exists();
    let _ = std::fs::remove_dir_all(&out_dir);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!ran_queue, "bench all ran the queue benchmark first");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        stderr.starts_with("magpie: error: ") && stderr.contains("MAGPIE_DATA"),
        "{stderr}"
    );
}
