//! `tabula-cli`: Tabula without a window. Each subcommand lives in its own module; this file only dispatches.

mod perft;
mod solve;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Headless Tabula: perft, endgame solving and more.
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Solve(args) => solve::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("tabula-cli: {message}");
            ExitCode::FAILURE
        }
    }
}
