//! Fork-join Fibonacci with a `join` per call: the classic join-overhead benchmark.
//!
//! `cargo run --release -p magpie --example fib -- [N] [THREADS]` (default N = 30, all
//! CPUs), or `-- --quick` for a CI-sized run.

use std::time::Instant;

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = magpie::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

fn fib_seq(n: u64) -> u64 {
    if n < 2 {
        n
    } else {
        fib_seq(n - 1) + fib_seq(n - 2)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let mut nums = args.iter().filter(|a| *a != "--quick");
    let n: u64 = match nums.next() {
        Some(a) => a.parse().unwrap_or_else(|_| usage(a)),
        None if quick => 24,
        None => 30,
    };
    let threads: usize = match nums.next() {
        Some(a) => a.parse().unwrap_or_else(|_| usage(a)),
        None => 0,
    };
    let pool = magpie::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| {
            eprintln!("fib: {e}");
            std::process::exit(2);
        });

    let t = Instant::now();
    let expected = fib_seq(n);
    let seq = t.elapsed();

    let t = Instant::now();
    let got = pool.install(|| fib(n));
    let par = t.elapsed();

    assert_eq!(got, expected);
    println!(
        "fib({n}) = {got}: sequential {seq:.2?}, magpie join on {} threads {par:.2?}",
        pool.current_num_threads()
    );
    println!("{}", pool.stats());
}

fn usage(bad: &str) -> ! {
    eprintln!("fib: expected a number, got {bad:?}\nusage: fib [N] [THREADS] [--quick]");
    std::process::exit(2);
}
