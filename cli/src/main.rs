//! `tabula-cli`: headless Tabula. Each subcommand lives in its own module; this file only dispatches.

mod check_forbidden;
mod check_vcf;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Headless Tabula: checks, benchmarks and engine tools.
#[derive(Parser)]
#[command(name = "tabula-cli", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::CheckForbidden { file } => check_forbidden::run(&file),
        Command::CheckVcf { file } => check_vcf::run(&file),
    }
}
