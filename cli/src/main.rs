//! `tabula-cli`: Tabula without a window. Each subcommand lives in its own module; this file only dispatches.

/// Writes a line to standard output like `println!`, but where that panics (a closed pipe, as in
/// `tabula-cli perft --depth 12 | head`, or a full disk) returns from the command with an error that says so.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*).map_err(|e| format!("writing to standard output: {e}"))?
    }};
}

mod arena;
mod bench;
mod check_forbidden;
mod check_vcf;
mod fit_gomoku;
mod openings;
mod perft;
mod solve;
mod train;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Headless Tabula: rule checks, perft, endgame solving, arena and benchmarks.
#[derive(Parser)]
#[command(name = "tabula-cli", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Counts Othello move-tree leaves from the start, one line per depth: depth, leaves, seconds, leaves/s.
    Perft(perft::Args),
    /// Solves every position of an Othello .obf file exactly and checks the listed best moves and scores.
    Solve(solve::Args),
    /// Checks Renju forbidden points against a file in the format of shared/data/renju-forbidden.txt.
    CheckForbidden {
        /// The fixture file.
        file: PathBuf,
    },
    /// Runs the VCF solver on a file in the format of shared/data/vcf-puzzles.tsv.
    CheckVcf {
        /// The puzzle file.
        file: PathBuf,
    },
    /// Plays computer-versus-computer series to compare rule sets (first-player edge) or two levels.
    Arena(Box<arena::Args>),
    /// Fits the Gomoku pattern values to the engine's own games and writes the values file.
    FitGomoku(fit_gomoku::Args),
    /// Generates balanced opening suites (openings whose deep-search value is near even), one file per rule set.
    Openings(openings::Args),
    /// Searches fixed positions of each game to a fixed depth: nodes, time, nodes/s and a behaviour signature.
    Bench(bench::Args),
    /// Fits the Othello pattern evaluation to real games and writes its weight file.
    Train(train::Args),
    /// Speaks the NBoard protocol on stdin and stdout, so NBoard and other Othello GUIs can use Tabula's engine.
    Nboard {
        /// Play at this configured level (Beginner ... Expert, with its time limit) instead of `set depth`.
        #[arg(long)]
        level: Option<String>,
        /// Search threads (default: every core but one).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=tabula_games::engine::MAX_THREADS as i64))]
        threads: Option<u16>,
    },
}

/// Runs the NBoard protocol, at a configured level when one is named.
fn nboard(level: Option<&str>, threads: Option<u16>) -> Result<ExitCode, String> {
    let level = match level {
        Some(name) => Some(arena::find_level(&tabula_games::config::load_levels().map_err(|e| e.to_string())?, name)?),
        None => None,
    };
    let stdin = std::io::BufReader::new(std::io::stdin());
    let threads = threads.map_or_else(tabula_games::engine::default_threads, usize::from);
    tabula_cli::nboard::run(stdin, std::io::stdout(), level, threads)
        .map(|()| ExitCode::SUCCESS)
        .map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Command::Perft(args) => perft::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::CheckForbidden { file } => check_forbidden::run(&file),
        Command::CheckVcf { file } => check_vcf::run(&file),
        Command::Arena(args) => arena::run(&args),
        Command::FitGomoku(args) => fit_gomoku::run(&args),
        Command::Openings(args) => openings::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Nboard { level, threads } => nboard(level.as_deref(), threads),
    };
    match outcome {
        Ok(code) => code,
        Err(message) => {
            eprintln!("tabula-cli: {message}");
            ExitCode::FAILURE
        }
    }
}
