//! Parallel iterators, rayon-style: word statistics over generated text (sums, counts,
//! sorts, sets, partitions, windows, fallible reductions and `par_bridge`).
//!
//! `cargo run --release -p magpie --example par_iter`

use std::collections::HashSet;

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

    // Distinct lengths into a set, a split into two lists, neighbours through windows.
    let distinct: HashSet<usize> = words.par_iter().map(String::len).collect();
    let (short, long): (Vec<&String>, Vec<&String>) = words.par_iter().partition(|w| w.len() <= 6);
    let rises = words
        .par_windows(2)
        .filter(|pair| pair[1].len() > pair[0].len())
        .count();
    println!(
        "{} distinct lengths; {} short and {} long words; {rises} words longer than the one before",
        distinct.len(),
        short.len(),
        long.len()
    );

    // Fallible work stops at the first failure; `position_any` stops at some match.
    let checked: Result<usize, String> = words
        .par_iter()
        .map(|w| match w.len() {
            0 => Err(String::from("an empty word")),
            n => Ok(n),
        })
        .try_reduce(|| 0, |a, b| Ok(a + b));
    assert_eq!(checked, Ok(letters));
    if let Some(i) = words.par_iter().position_any(|w| w.len() == 12) {
        println!("word {i} has 12 letters");
    }

    // Any sequential iterator, here the words of one long string, through par_bridge.
    let text = words[..10_000].join(" ");
    let bridged: usize = text.split(' ').par_bridge().map(str::len).sum();
    assert_eq!(
        bridged,
        words[..10_000].iter().map(String::len).sum::<usize>()
    );
    println!("the first 10 000 words again, through par_bridge: {bridged} letters");
}
