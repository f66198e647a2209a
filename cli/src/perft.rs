//! `tabula-cli perft`: Othello perft from the start position of a rule set.

use std::process::ExitCode;
use std::time::Instant;

use tabula_core::Game;
use tabula_games::othello::Othello;

/// Arguments of `perft`.
#[derive(clap::Args)]
pub struct Args {
    /// The rule set, by id or name (othello, othello-6x6, grand-othello, reversi, othello-parallel, anti-othello).
    #[arg(long, default_value = "othello")]
    rules: String,
    /// The deepest depth to count.
    #[arg(long)]
    depth: u32,
}

/// Prints `depth leaves seconds leaves/s` for each depth from 1 to the given one.
pub fn run(args: &Args) -> Result<ExitCode, String> {
    let game = Othello::from_rule_set(&args.rules)?;
    let start = game.initial_state();
    say!("depth leaves seconds leaves/s");
    for depth in 1..=args.depth {
        let clock = Instant::now();
        let leaves = game.perft(&start, depth);
        let seconds = clock.elapsed().as_secs_f64();
        say!("{depth} {leaves} {seconds:.3} {:.0}", leaves as f64 / seconds.max(1e-9));
    }
    Ok(ExitCode::SUCCESS)
}
