//! `magpie`: the project's command line.
//!
//! * `magpie tour`: one search and the quick queue benchmark, a first look at both;
//! * `magpie search <app> ...`: exact searches (clique, semigroups, uts, knapsack,
//!   tsp) on any skeleton, pool size and victim policy, as text or JSON;
//! * `magpie bench <name>`: benchmarks that print tables with target checks and write
//!   CSV + SVG files (`magpie bench all` runs every one).
//!
//! Exit status: 0 success, 1 an error (printed), 2 a usage error, 3 out of memory
//! (see [`oom`]).

// Doc comments below are clap help text, shown raw in a terminal: `<name>` is not HTML.
#![allow(rustdoc::invalid_html_tags)]

mod bench_cmd;
mod oom;
mod search;
mod tour;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[global_allocator]
static ALLOCATOR: oom::Allocator = oom::Allocator;

#[derive(Parser, Debug)]
#[command(
    name = "magpie",
    version,
    about = "magpie: a work-stealing runtime on block-based work-stealing queues (BWoS)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// A short tour: one parallel search and the quick queue benchmark
    Tour(tour::TourArgs),
    /// Exact search (YewPar-style skeletons): print the answer and the statistics
    Search(search::SearchArgs),
    /// Run benchmarks: print tables with PASS/MISS target checks, write CSV + SVG
    Bench(bench_cmd::BenchArgs),
    /// The server `magpie bench http` starts in a child process (internal)
    #[command(hide = true)]
    BenchHttpServer(bench_cmd::HttpServerArgs),
}

/// Restores the default SIGPIPE action so `magpie ... | head` ends quietly instead of
/// panicking on a closed stdout.
fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal disposition to SIG_DFL has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    default_sigpipe();
    oom::install_panic_hook();
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Tour(t) => match tour::tour(t) {
            Ok(()) => Ok(()),
            Err(e) => {
                print_error(&e);
                return ExitCode::from(e.exit_code());
            }
        },
        Command::Search(s) => match search::search(s) {
            Ok(()) => Ok(()),
            Err(e) => {
                // Another rank prints the error of a run across ranks.
                if e.printed_here() {
                    print_error(&e);
                }
                return ExitCode::from(e.exit_code());
            }
        },
        Command::Bench(b) => bench_cmd::bench(b).map_err(|e| e.to_string()),
        Command::BenchHttpServer(a) => bench_cmd::http_server(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            print_error(&e);
            ExitCode::FAILURE
        }
    }
}

/// Prints why `magpie` failed, as one line on stderr.
pub(crate) fn print_error(error: &dyn std::fmt::Display) {
    eprintln!("magpie: error: {error}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
