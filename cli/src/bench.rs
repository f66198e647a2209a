//! `tabula-cli bench`: a fixed set of positions per game searched to a fixed depth with a fixed seed. It prints
//! nodes, time and speed, and a signature of node counts and scores that changes whenever search behaviour does.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use tabula_core::{Limits, SearchOptions, Searcher};
use tabula_games::checksum::Fnv;
use tabula_games::{BoardGame, GameKind, GameVisitor, MatchSpec};

/// Arguments of `bench`.
#[derive(clap::Args)]
pub struct Args {
    /// The depth of every search (default: 5 for Gomoku, 8 for Othello).
    #[arg(long)]
    depth: Option<u32>,
    /// Only this game (gomoku or othello); both by default.
    #[arg(long)]
    game: Option<String>,
    /// Search threads; with more than one, node counts (and so the signature) vary from run to run.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=tabula_games::engine::MAX_THREADS as i64))]
    threads: u16,
}

/// One searched position.
struct Measured {
    nodes: u64,
    score: i32,
    time: Duration,
}

struct Bench {
    moves: &'static [&'static str],
    depth: u32,
    threads: usize,
}

impl GameVisitor for Bench {
    type Output = Result<Vec<Measured>, String>;
    fn visit<G: BoardGame>(self, game: G) -> Self::Output {
        let evaluator = game.evaluator(false);
        let mut results = Vec::new();
        for (i, line) in self.moves.iter().enumerate() {
            let mut state = game.initial_state();
            for text in line.split_whitespace() {
                let mv = game.parse_move(&state, text).map_err(|e| format!("bench position {}: {e}", i + 1))?;
                game.make(&mut state, mv);
            }
            let mut searcher = Searcher::new(&game, 16);
            searcher.set_threads(self.threads);
            let options = SearchOptions { seed: 1, ..SearchOptions::default() };
            let clock = Instant::now();
            let r = searcher.search(&game, &evaluator, &state, &Limits::depth(self.depth), &options, &mut |_| {});
            results.push(Measured { nodes: r.nodes, score: r.score, time: clock.elapsed() });
        }
        Ok(results)
    }
}

/// FNV-1a over the node counts and scores.
fn signature(results: &[Measured]) -> u64 {
    let mut hash = Fnv::new();
    for r in results {
        hash.write(&r.nodes.to_le_bytes());
        hash.write(&r.score.to_le_bytes());
    }
    hash.finish()
}

/// Runs the benchmark for both games and prints a line per position and a total per game.
pub fn run(args: &Args) -> Result<ExitCode, String> {
    let games = match &args.game {
        None => GameKind::ALL.to_vec(),
        Some(id) => vec![GameKind::parse(id)?],
    };
    for game in games {
        let bench = &game.descriptor().bench;
        let depth = args.depth.unwrap_or(bench.depth);
        let spec = MatchSpec { game, rule_set: bench.rule_set.to_string(), board_size: None };
        let results = spec.visit(Bench { moves: bench.lines, depth, threads: usize::from(args.threads) })??;
        let threads = if args.threads > 1 { format!(", {} threads", args.threads) } else { String::new() };
        say!("{} ({}), depth {depth}{threads}", game.name(), spec.rule_set_name());
        for (i, r) in results.iter().enumerate() {
            say!(
                "  position {}: {:>10} nodes {:>8.3} s {:>10.0} nodes/s  score {:+}",
                i + 1,
                r.nodes,
                r.time.as_secs_f64(),
                r.nodes as f64 / r.time.as_secs_f64().max(1e-9),
                r.score
            );
        }
        let nodes: u64 = results.iter().map(|r| r.nodes).sum();
        let time: f64 = results.iter().map(|r| r.time.as_secs_f64()).sum();
        say!(
            "  total: {nodes} nodes {time:.3} s {:.0} nodes/s  signature {:016x}",
            nodes as f64 / time.max(1e-9),
            signature(&results)
        );
    }
    Ok(ExitCode::SUCCESS)
}
