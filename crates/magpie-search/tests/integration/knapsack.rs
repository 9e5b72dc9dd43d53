//! 0/1 knapsack: known optima of the shared instances under every coordination,
//! random instances against exact oracles, and the readers' error cases.

use crate::common;

use magpie_search::optimise;

use std::time::Instant;

use magpie_search::apps::knapsack::{
    detect_format, knapsack, parse_knapsack, parse_kp, parse_low_dimensional, read_knapsack,
    Decimal, KnapsackError, KnapsackFormat, KnapsackInstance, KnapsackSpace, Solution,
};

/// Checks that `solution` is a feasible packing whose totals are as reported.
fn check_packing(instance: &KnapsackInstance, solution: &Solution, context: &str) {
    let (profit, weight) = instance
        .totals(&solution.items)
        .unwrap_or_else(|| panic!("{context}: items repeated or out of range"));
    assert_eq!(profit, solution.profit, "{context}: profit");
    assert_eq!(weight, solution.weight, "{context}: weight");
    assert!(weight <= instance.capacity(), "{context}: over capacity");
    assert!(
        solution.items.windows(2).all(|w| w[0] < w[1]),
        "{context}: items not sorted"
    );
}

/// Runs every coordination with 1 and 2 threads; each must find `optimum` (after
/// rounding to its decimals, as optima files round).
fn check_optimum(instance: &KnapsackInstance, optimum: Decimal, name: &str) {
    for threads in [1, 2] {
        let pool = common::pool(threads);
        for (coordination, config) in common::every_coordination(&pool) {
            let context = format!("{name}, {coordination}");
            let outcome = knapsack(instance, &config);
            check_packing(instance, &outcome.answer, &context);
            assert_eq!(
                outcome.answer.profit.round_to(optimum.decimals()),
                optimum,
                "{context}: profit {}",
                outcome.answer.profit
            );
        }
    }
}

fn load(relative: &str) -> KnapsackInstance {
    let path = common::data(relative);
    read_knapsack(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn kp_instances_reach_their_stated_optima() {
    for (file, optimum) in [("knapsackTest1.kp", 6925), ("knapPI_1_50_1000_1.kp", 8373)] {
        let instance = load(&format!("knapsack/{file}"));
        assert_eq!(instance.stated_optimum(), Some(Decimal::integer(optimum)));
        let start = Instant::now();
        let outcome = knapsack(&instance, &magpie_search::SearchConfig::sequential());
        eprintln!(
            "{file}: sequential {:.6}s, {} nodes",
            start.elapsed().as_secs_f64(),
            outcome.stats.nodes_expanded
        );
        check_optimum(&instance, Decimal::integer(optimum), file);
    }
}

#[test]
fn low_dimensional_instances_match_optima_file() {
    let optima = std::fs::read_to_string(common::data("knapsack/low-dimensional/OPTIMA.txt"))
        .expect("OPTIMA.txt");
    let mut checked = 0;
    for line in optima.lines().filter(|l| !l.trim().is_empty()) {
        let mut fields = line.split_whitespace();
        let (Some(name), Some(value), None) = (fields.next(), fields.next(), fields.next()) else {
            panic!("OPTIMA.txt: bad line {line:?}");
        };
        let optimum: Decimal = value.parse().expect("an optimum");
        let instance = load(&format!("knapsack/low-dimensional/{name}.txt"));
        assert_eq!(instance.stated_optimum(), None);
        let start = Instant::now();
        let outcome = knapsack(&instance, &magpie_search::SearchConfig::sequential());
        eprintln!(
            "{name}: sequential {:.6}s, {} nodes, profit {}",
            start.elapsed().as_secs_f64(),
            outcome.stats.nodes_expanded,
            outcome.answer.profit
        );
        check_optimum(&instance, optimum, name);
        checked += 1;
    }
    assert_eq!(checked, 10);
}

#[test]
fn fractional_instance_is_exact() {
    // f5: the exact optimum is 481.069368 (items 2 4 6 7 9 10 11 13 14).
    let instance = load("knapsack/low-dimensional/f5_l-d_kp_15_375.txt");
    assert_eq!(instance.profit_decimals(), 6);
    let outcome = knapsack(&instance, &magpie_search::SearchConfig::sequential());
    assert_eq!(outcome.answer.profit, "481.069368".parse().unwrap());
    assert_eq!(outcome.answer.items, vec![2, 4, 6, 7, 9, 10, 11, 13, 14]);
}

use common::SplitMix;

/// A random instance as integer units, with how many decimals they carry.
struct Random {
    profits: Vec<u64>,
    weights: Vec<u64>,
    capacity: u64,
    profit_decimals: u32,
    weight_decimals: u32,
}

/// `units / 10^decimals` written out in decimal.
fn decimal_text(units: u64, decimals: u32) -> String {
    if decimals == 0 {
        return units.to_string();
    }
    let factor = 10u64.pow(decimals);
    format!(
        "{}.{:0width$}",
        units / factor,
        units % factor,
        width = decimals as usize
    )
}

impl Random {
    /// Profits in `0..=max_profit` and weights in `1..=max_weight` (units).
    fn generate(rng: &mut SplitMix, items: usize, max_profit: u64, max_weight: u64) -> Self {
        let profit_decimals = rng.range(0, 3) as u32;
        let weight_decimals = rng.range(0, 1) as u32;
        let profits: Vec<u64> = (0..items).map(|_| rng.range(0, max_profit)).collect();
        let weights: Vec<u64> = (0..items).map(|_| rng.range(1, max_weight)).collect();
        let total: u64 = weights.iter().sum();
        let capacity = rng.range(0, total);
        Self {
            profits,
            weights,
            capacity,
            profit_decimals,
            weight_decimals,
        }
    }

    /// The instance in the low-dimensional format (CRLF), or in `.kp` (LF).
    fn text(&self, kp: bool) -> String {
        let capacity = decimal_text(self.capacity, self.weight_decimals);
        let mut text = if kp {
            format!("{capacity}\n0\n")
        } else {
            format!("{} \r\n{capacity}\r\n", self.profits.len())
        };
        for (&p, &w) in self.profits.iter().zip(&self.weights) {
            let p = decimal_text(p, self.profit_decimals);
            let w = decimal_text(w, self.weight_decimals);
            text.push_str(&format!("{p} {w}{}", if kp { "\n" } else { "\r\n" }));
        }
        text
    }

    /// The optimum by exhaustive search over all subsets (profit units).
    fn brute_force(&self) -> u64 {
        let n = self.profits.len();
        (0u32..1 << n)
            .filter_map(|mask| {
                let chosen = (0..n).filter(|&i| mask & (1 << i) != 0);
                let weight: u64 = chosen.clone().map(|i| self.weights[i]).sum();
                (weight <= self.capacity).then(|| chosen.map(|i| self.profits[i]).sum())
            })
            .max()
            .unwrap_or(0)
    }

    /// The optimum by dynamic programming over the capacity (profit units).
    fn dynamic_programming(&self) -> u64 {
        let capacity = self.capacity as usize;
        let mut best = vec![0u64; capacity + 1];
        for (&p, &w) in self.profits.iter().zip(&self.weights) {
            let w = w as usize;
            for c in (w..=capacity).rev() {
                best[c] = best[c].max(best[c - w] + p);
            }
        }
        best[capacity]
    }
}

/// Every coordination with 1 and 2 threads finds `optimum` (in profit units).
fn check_random(random: &Random, kp: bool, optimum: u64, round: usize) {
    let instance = parse_knapsack(&random.text(kp)).expect("generated text parses");
    let expected = Decimal::new(optimum, random.profit_decimals);
    let space = KnapsackSpace::new(&instance);
    for threads in [1, 2] {
        let pool = common::pool(threads);
        for (coordination, config) in common::every_coordination(&pool) {
            let context = format!("round {round}, {coordination}");
            let answer = knapsack(&instance, &config).answer;
            check_packing(&instance, &answer, &context);
            assert_eq!(answer.profit, expected, "{context}");
            // Without the greedy seed, the search must find the optimum itself.
            let unseeded = optimise(&space, &config).answer;
            let profit = Decimal::new(unseeded.value, instance.profit_decimals());
            assert_eq!(profit, expected, "{context}, unseeded");
            assert_eq!(space.solution_of(&unseeded.node).profit, expected);
        }
    }
}

#[test]
fn small_random_instances_match_brute_force() {
    let mut rng = SplitMix(0x6b6e_6170);
    for round in 0..30 {
        let items = rng.range(1, 12) as usize;
        // Every third instance has many identical items.
        let (max_profit, max_weight) = if round % 3 == 0 { (2, 3) } else { (1000, 60) };
        let random = Random::generate(&mut rng, items, max_profit, max_weight);
        check_random(&random, round % 2 == 0, random.brute_force(), round);
    }
}

#[test]
fn larger_random_instances_match_dynamic_programming() {
    let mut rng = SplitMix(0xd9);
    for round in 0..12 {
        let items = rng.range(15, 40) as usize;
        let (max_profit, max_weight) = if round % 3 == 0 { (5, 8) } else { (1000, 200) };
        let random = Random::generate(&mut rng, items, max_profit, max_weight);
        check_random(&random, round % 2 == 1, random.dynamic_programming(), round);
    }
}

/// Identical items: any number of copies may be needed (the first two cases defeat
/// the greedy first incumbent, so the search itself must take the copies).
#[test]
fn identical_items_are_taken_as_often_as_they_fit() {
    let cases = [
        ("3 10\n10 6\n8 5\n8 5\n".to_string(), 16),
        ("5 15\n10 6\n8 5\n8 5\n8 5\n1 1\n".to_string(), 24),
        ("10 20\n".to_string() + &"5 3\n".repeat(10), 30),
        (
            "9 23\n".to_string() + &"4 2\n".repeat(4) + &"7 5\n".repeat(5),
            37,
        ),
        ("6 100\n".to_string() + &"1 1\n".repeat(6), 6),
    ];
    for (text, optimum) in cases {
        let instance = parse_low_dimensional(&text).unwrap();
        let expected = Decimal::integer(optimum);
        for threads in [1, 2] {
            let pool = common::pool(threads);
            for (coordination, config) in common::every_coordination(&pool) {
                let answer = knapsack(&instance, &config).answer;
                check_packing(&instance, &answer, &coordination);
                assert_eq!(answer.profit, expected, "{text:?}, {coordination}");
            }
        }
    }
}

#[test]
fn readers_accept_crlf_cr_blank_lines_and_spaces() {
    let variants = [
        "4 \r\n20\r\n9 6\r\n11 5\r\n13 9\r\n15 7",
        "4 20\n\n9 6\n11\t5  \n13 9\n15 7\n\n",
        "4\r20\r9 6\r11 5\r13 9\r15 7\r",
    ];
    for text in variants {
        assert_eq!(
            detect_format(text),
            KnapsackFormat::LowDimensional,
            "{text:?}"
        );
        let instance = parse_knapsack(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(instance.item_count(), 4);
        assert_eq!(instance.capacity(), Decimal::integer(20));
        let answer = knapsack(&instance, &magpie_search::SearchConfig::sequential()).answer;
        assert_eq!(answer.profit, Decimal::integer(35));
    }
    let kp = "20\r\n35\r\n9 6\r\n11 5\r\n13 9\r\n15 7\r\n";
    assert_eq!(detect_format(kp), KnapsackFormat::Kp);
    let instance = parse_knapsack(kp).unwrap();
    assert_eq!(instance.stated_optimum(), Some(Decimal::integer(35)));
    assert_eq!(instance.item_count(), 4);
}

#[test]
fn items_heavier_than_the_capacity_and_zero_capacity() {
    let instance = parse_low_dimensional("3 5\n100 6\n1 5\n2 5\n").unwrap();
    let answer = knapsack(&instance, &magpie_search::SearchConfig::sequential()).answer;
    assert_eq!(answer.items, vec![2]);
    let empty = parse_low_dimensional("2 0\n100 6\n1 5\n").unwrap();
    let answer = knapsack(&empty, &magpie_search::SearchConfig::sequential()).answer;
    assert!(answer.items.is_empty());
    assert_eq!(answer.profit, Decimal::integer(0));
}

fn kp_error(text: &str) -> KnapsackError {
    match parse_kp(text) {
        Ok(_) => panic!("{text:?} parsed"),
        Err(e) => e,
    }
}

fn low_error(text: &str) -> KnapsackError {
    match parse_low_dimensional(text) {
        Ok(_) => panic!("{text:?} parsed"),
        Err(e) => e,
    }
}

#[test]
fn every_error_variant_is_reported_with_its_line() {
    use KnapsackError as E;
    let missing = read_knapsack("/nonexistent/knapsack.kp").unwrap_err();
    assert!(matches!(missing, E::Io { .. }), "{missing:?}");
    assert!(std::error::Error::source(&missing).is_some());

    type Check = fn(&KnapsackError) -> bool;
    let cases: Vec<(KnapsackError, Check)> = vec![
        (kp_error(""), |e| matches!(e, E::MissingHeader)),
        (kp_error("10\n\n"), |e| matches!(e, E::MissingHeader)),
        (low_error("3\n"), |e| matches!(e, E::MissingHeader)),
        (kp_error("10 20\n5\n1 1\n"), |e| {
            matches!(e, E::MalformedLine { line: 1, .. })
        }),
        (kp_error("10\r\n5\r\n1 2 3\r\n"), |e| {
            matches!(e, E::MalformedLine { line: 3, .. })
        }),
        (low_error("1 2 3\n1 1\n"), |e| {
            matches!(e, E::MalformedLine { line: 1, .. })
        }),
        (low_error("1\n\n10 3\n1 1\n"), |e| {
            matches!(e, E::MalformedLine { line: 3, .. })
        }),
        (
            kp_error("10\n5\n1 x\n"),
            |e| matches!(e, E::MalformedNumber { line: 3, token } if token == "x"),
        ),
        (kp_error("10\n5\n1.2.3 4\n"), |e| {
            matches!(e, E::MalformedNumber { line: 3, .. })
        }),
        (low_error("2.5 10\n1 1\n"), |e| {
            matches!(e, E::MalformedNumber { line: 1, .. })
        }),
        (kp_error("10\n5\n2 2\n-1 2\n"), |e| {
            matches!(e, E::NegativeProfit { line: 4 })
        }),
        (kp_error("10\n-5\n1 2\n"), |e| {
            matches!(e, E::NegativeProfit { line: 2 })
        }),
        (kp_error("10\n5\n1 0\n"), |e| {
            matches!(e, E::NonPositiveWeight { line: 3 })
        }),
        (low_error("1 10\n1 -2\n"), |e| {
            matches!(e, E::NonPositiveWeight { line: 2 })
        }),
        (kp_error("-10\n5\n1 2\n"), |e| {
            matches!(e, E::NegativeCapacity { line: 1 })
        }),
        (low_error("3 10\n1 2\n"), |e| {
            matches!(
                e,
                E::CountMismatch {
                    line: 1,
                    declared: 3,
                    found: 1
                }
            )
        }),
        (low_error("1 10\n1 2\n3 4\n"), |e| {
            matches!(
                e,
                E::CountMismatch {
                    line: 1,
                    declared: 1,
                    found: 2
                }
            )
        }),
        (kp_error("10\n5\n"), |e| matches!(e, E::EmptyInstance)),
        (low_error("0 10\n"), |e| matches!(e, E::EmptyInstance)),
        (kp_error("99999999999999999999\n5\n1 1\n"), |e| {
            matches!(e, E::Overflow { line: 1 })
        }),
        (kp_error("10\n5\n18446744073709551615 1\n1 1\n"), |e| {
            matches!(e, E::Overflow { line: 4 })
        }),
        (kp_error("10\n5\n1 0.5\n1 18446744073709551615\n"), |e| {
            matches!(e, E::Overflow { line: 4 })
        }),
    ];
    for (error, expected) in &cases {
        assert!(expected(error), "unexpected {error:?}");
        let message = error.to_string();
        assert!(!message.is_empty() && !message.contains('\n'), "{message}");
        assert!(std::error::Error::source(error).is_none());
    }
    assert_eq!(
        kp_error("10\n5\n1 x\n").to_string(),
        "line 3: `x` is not a number"
    );
}
