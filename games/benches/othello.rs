//! Othello speed figures: `cargo bench -p tabula-games --bench othello [-- perft|search|ffo]`.
//!
//! Prints perft leaves/s from the start (bulk counting at the last ply), search nodes/s at a fixed depth from a few
//! positions, and exact solve times of FFO #40-#44 with nodes and nodes/s (and a node total as a signature, so a
//! change of behaviour shows).

use std::time::Instant;

use tabula_core::{Game, Limits, SearchOptions, Searcher};
use tabula_games::BoardGame;
use tabula_games::othello::{Othello, Position, notation};

fn ffo_positions(game: &Othello) -> Vec<(usize, Position, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/ffo-40-59.obf");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('%') && !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            let (board, answer) = l.split_once(';').expect("board; answers");
            (40 + i, notation::parse_board(game, board).expect("valid board"), answer.trim().to_string())
        })
        .collect()
}

fn perft(game: &Othello) {
    let start = game.initial_state();
    println!("perft from the start");
    for depth in 9..=11 {
        let clock = Instant::now();
        let leaves = game.perft(&start, depth);
        let s = clock.elapsed().as_secs_f64();
        println!("  depth {depth:>2} {leaves:>12} leaves {s:>7.3} s {:>8.1} M leaves/s", leaves as f64 / s / 1e6);
    }
}

fn search(game: &Othello) {
    println!("search at depth 11 (play mode)");
    let evaluator = game.evaluator(false);
    let mut positions = vec![("start".to_string(), game.initial_state())];
    for (n, pos, _) in ffo_positions(game).into_iter().take(3) {
        positions.push((format!("FFO #{n}"), pos));
    }
    for (name, pos) in positions {
        let mut searcher = Searcher::new(game, 64);
        let r = searcher.search(game, &evaluator, &pos, &Limits::depth(11), &SearchOptions::default(), &mut |_| {});
        let s = r.elapsed.as_secs_f64();
        let best = r.best_move.map_or("-".to_string(), |m| game.format_move(m));
        println!(
            "  {name:<8} {best:>4} {:>+6} {:>11} nodes {s:>7.3} s {:>6.2} M nodes/s",
            r.score,
            r.nodes,
            r.nodes as f64 / s / 1e6
        );
    }
}

fn ffo(game: &Othello) {
    println!("exact solve, FFO #40-#44");
    let options = SearchOptions { exact: true, ..SearchOptions::default() };
    let (mut total_nodes, mut total_s) = (0, 0.0);
    for (n, pos, answer) in ffo_positions(game).into_iter().take(5) {
        let mut searcher = Searcher::new(game, 64);
        let r = searcher.search(game, &game.evaluator(true), &pos, &Limits::default(), &options, &mut |_| {});
        let s = r.elapsed.as_secs_f64();
        let best = r.best_move.map_or("-".to_string(), |m| game.format_move(m));
        total_nodes += r.nodes;
        total_s += s;
        println!(
            "  #{n} {best:>3} {:>+4} {:>11} nodes {s:>7.3} s {:>6.2} M nodes/s   (expected {answer})",
            r.score,
            r.nodes,
            r.nodes as f64 / s / 1e6
        );
    }
    println!("  total {total_nodes} nodes {total_s:.3} s");
}

fn main() {
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| f == name);
    let game = Othello::default();
    if wanted("perft") {
        perft(&game);
    }
    if wanted("search") {
        search(&game);
    }
    if wanted("ffo") {
        ffo(&game);
    }
}
