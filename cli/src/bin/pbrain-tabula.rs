//! `pbrain-tabula`: Tabula's Gomoku engine for Gomocup managers (Piskvork and others), on stdin and stdout.

use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = std::io::BufReader::new(std::io::stdin());
    match tabula_cli::pbrain::run(stdin, std::io::stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbrain-tabula: {e}");
            ExitCode::FAILURE
        }
    }
}
