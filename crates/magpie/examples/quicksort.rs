//! Parallel quicksort with `join`, checked against the standard library's sort.
//!
//! `cargo run --release -p magpie --example quicksort -- [LEN] [THREADS]` (default
//! 10 000 000 u32s, all CPUs), or `-- --quick` for a CI-sized run.

use std::time::Instant;

/// Below this length a slice is sorted sequentially: a join costs more than it saves.
const CUTOFF: usize = 4 * 1024;

fn quicksort<T: Ord + Send>(v: &mut [T]) {
    if v.len() <= CUTOFF {
        v.sort_unstable();
        return;
    }
    let mid = partition(v);
    let (lo, hi) = v.split_at_mut(mid);
    magpie::join(|| quicksort(lo), || quicksort(&mut hi[1..]));
}

/// Lomuto partition around the median of three; returns the pivot's final index.
fn partition<T: Ord>(v: &mut [T]) -> usize {
    let (a, b, c) = (0, v.len() / 2, v.len() - 1);
    let median = if (v[a] <= v[b]) == (v[b] <= v[c]) {
        b
    } else if (v[b] <= v[a]) == (v[a] <= v[c]) {
        a
    } else {
        c
    };
    v.swap(median, c);
    let mut store = 0;
    for i in 0..c {
        if v[i] < v[c] {
            v.swap(i, store);
            store += 1;
        }
    }
    v.swap(store, c);
    store
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let mut nums = args.iter().filter(|a| *a != "--quick").map(|a| {
        a.parse::<usize>().unwrap_or_else(|_| {
            eprintln!("quicksort: expected a number, got {a:?}\nusage: quicksort [LEN] [THREADS] [--quick]");
            std::process::exit(2);
        })
    });
    let len = nums
        .next()
        .unwrap_or(if quick { 200_000 } else { 10_000_000 });
    let threads = nums.next().unwrap_or(0);
    let pool = magpie::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| {
            eprintln!("quicksort: {e}");
            std::process::exit(2);
        });

    let mut rng = magpie::Rng::new(42);
    let data: Vec<u32> = (0..len).map(|_| rng.next_bits() as u32).collect();
    let mut expected = data.clone();
    let t = Instant::now();
    expected.sort_unstable();
    let seq = t.elapsed();

    let mut v = data;
    let t = Instant::now();
    pool.install(|| quicksort(&mut v));
    let par = t.elapsed();
    assert!(
        v == expected,
        "parallel quicksort result differs from sort_unstable"
    );
    println!(
        "sorted {len} u32: std sort_unstable {seq:.2?}, magpie quicksort on {} threads {par:.2?}",
        pool.current_num_threads()
    );
    println!("{}", pool.stats());
}
