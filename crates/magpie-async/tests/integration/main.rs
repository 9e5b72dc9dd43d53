//! The async runtime's integration tests, one module per subject, in one test binary.
//! Run one subject with a filter, e.g.
//! `cargo test --release -p magpie-async --test integration reliability::`.
//! `hyper_server.rs` (counts the process's open file descriptors; feature `hyper`)
//! stays in a binary of its own.

mod blocking_time;
mod misuse;
mod net;
mod reliability;

/// Runs the body of the calling test in a child process (this test binary, filtered to
/// that one test): a process abort then fails the test instead of killing every test of
/// the binary. True in the child (run the body there); false in the parent, once the
/// child succeeded. Call it first, on the test's own thread (libtest names it after
/// the test).
pub(crate) fn in_child_process() -> bool {
    const CHILD: &str = "MAGPIE_ASYNC_TEST_CHILD";
    let thread = std::thread::current();
    let test = thread
        .name()
        .expect("libtest names a test's thread after the test");
    if std::env::var(CHILD).as_deref() == Ok(test) {
        return true;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--test-threads=1"])
        .env(CHILD, test)
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    // The last lines of the child's output (the harness reports failures on stdout).
    let tail = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    };
    assert!(
        out.status.success(),
        "{test} in a child: {}\n{}\n{}",
        out.status,
        tail(&out.stdout),
        tail(&out.stderr)
    );
    // A child that matched no test would succeed too.
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("1 passed"),
        "{test} did not run in the child: {}",
        tail(&out.stdout)
    );
    false
}
