//! `magpie tour`: the README's first command. Runs one parallel search (maximum
//! clique of brock200_4 with stack stealing on every core) and the quick queue
//! benchmark, printing each one's result and where the files went.

use std::path::PathBuf;

use clap::Args;
use magpie_bench::queue::{self, QueueOptions};
use magpie_bench::RunOptions;

use crate::search;

#[derive(Args, Debug)]
pub struct TourArgs {
    /// The shared data folder (DIMACS graphs and other instances)
    #[arg(long, value_name = "DIR", default_value = "../shared/data")]
    data: PathBuf,
    /// Where the queue benchmark writes its CSV, SVG and report
    #[arg(long, value_name = "DIR", default_value = "bench-results/tour")]
    out: PathBuf,
}

pub fn tour(args: &TourArgs) -> Result<(), String> {
    let graph = args.data.join("dimacs/brock200_4.clq");
    println!("== 1. search: maximum clique of {} ==", graph.display());
    println!(
        "   (magpie search clique {} ; known ω = 17)\n",
        graph.display()
    );
    let report = search::clique_for_tour(graph).map_err(|e| e.to_string())?;
    print!("{}", report.text());

    println!("\n== 2. benchmark: BWoS queue vs crossbeam-deque and st3, quick mode ==");
    println!("   (magpie bench queue --quick)\n");
    let options = QueueOptions {
        common: RunOptions {
            quick: true,
            reps: None,
            out_dir: args.out.join("queue"),
        },
        only: None,
    };
    let outcome = queue::run(&options).map_err(|e| e.to_string())?;
    println!("\nfiles written:");
    for file in &outcome.files {
        println!("  {}", file.display());
    }
    println!(
        "\nNext: `magpie search --help`, `magpie bench all` (the full benchmarks), BENCHMARKS.md."
    );
    Ok(())
}
