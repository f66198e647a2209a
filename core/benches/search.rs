//! Prints the searcher's speed on the toy games: `cargo bench -p tabula-core`.

#[path = "../tests/support/mod.rs"]
#[allow(dead_code, reason = "the bench uses only part of the test support")]
mod support;

use std::time::Instant;

use support::random_tree::{RandomEval, RandomTree};
use support::tictactoe::{LineCounter, TicTacToe};
use tabula_core::{Evaluator, Game, Limits, SearchOptions, Searcher};

fn bench<G: Game, E: Evaluator<G>>(name: &str, game: &G, eval: &E, limits: &Limits, options: &SearchOptions) {
    let start = Instant::now();
    let mut total_nodes = 0;
    let mut runs = 0;
    while start.elapsed().as_secs_f64() < 2.0 {
        let mut searcher = Searcher::new(game, 1);
        let r = searcher.search(game, eval, &game.initial_state(), limits, options, &mut |_| {});
        total_nodes += r.nodes;
        runs += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{name:<34} {runs:>6} runs {:>12} nodes/run {:>12.0} nodes/s",
        total_nodes / runs,
        total_nodes as f64 / secs
    );
}

fn main() {
    let ttt = TicTacToe::default();
    bench("tic-tac-toe full solve", &ttt, &LineCounter, &Limits::default(), &SearchOptions::default());
    let plain = SearchOptions {
        transposition_table: false,
        pvs: false,
        aspiration: None,
        killers: false,
        history: false,
        ..SearchOptions::default()
    };
    bench("tic-tac-toe full solve, no pruning aids", &ttt, &LineCounter, &Limits::default(), &plain);
    let tree = RandomTree { seed: 1, max_branching: 10, height: 40 };
    bench("random tree depth 7", &tree, &RandomEval, &Limits::depth(7), &SearchOptions::default());
}
