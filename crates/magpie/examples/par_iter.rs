//! Parallel iterators, rayon-style: word statistics over generated text.
//!
//! `cargo run --release -p magpie --example par_iter`

use magpie::prelude::*;

fn main() {
    // A deterministic "text": 200 000 words of pseudo-random lengths.
    let words: Vec<String> = (0..200_000u64)
        .map(|i| "x".repeat((i.wrapping_mul(0x9e37_79b9) >> 7) as usize % 12 + 1))
        .collect();

    let letters: usize = words.par_iter().map(String::len).sum();
    let long = words.par_iter().filter(|w| w.len() > 8).count();
    let longest = words.par_iter().enumerate().max_by_key(|(_, w)| w.len());
    let mut lengths: Vec<usize> = words.par_iter().map(String::len).collect();
    lengths.par_sort_unstable();
    let median = lengths[lengths.len() / 2];

    assert_eq!(letters, words.iter().map(String::len).sum::<usize>());
    println!(
        "{} words, {letters} letters, {long} longer than 8",
        words.len()
    );
    if let Some((i, w)) = longest {
        println!(
            "the last of the longest words is word {i} ({} letters)",
            w.len()
        );
    }
    println!("median length {median}");
}
