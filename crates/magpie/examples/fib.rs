//! Fork-join Fibonacci with a `join` per call: the classic join-overhead benchmark.
//!
//! `cargo run --release -p magpie --example fib -- 30 [threads]`

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
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
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
