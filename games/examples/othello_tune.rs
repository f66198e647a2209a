//! Tunes the Othello evaluation weights by self-play (coordinate ascent):
//! `cargo run --release -p tabula-games --example othello_tune -- [rounds] [openings] [depth]` (defaults 2 48 3).
//!
//! Each candidate scales one weight of the current set by 3/2 or 2/3 and plays the current set twice from each of
//! `openings` random 6-ply openings (once with each colour) at a fixed depth. A candidate scoring at least 54% (a
//! draw counts half) replaces the current set. The openings are the same for every match, so results replay.

use tabula_core::{Game, Limits, Player, SearchOptions, Searcher};
use tabula_games::othello::{Move, Othello, OthelloEval, Position, Weights};

/// A position after `plies` random moves from the start, from a fixed seed.
fn opening(game: &Othello, mut seed: u64, plies: usize) -> Position {
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        game.legal_moves(&state, &mut moves);
        if moves.is_empty() {
            break;
        }
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        game.make(&mut state, moves[(seed >> 33) as usize % moves.len()]);
    }
    state
}

/// Plays one game; returns the result for `first` (who plays Black): 2 win, 1 draw, 0 loss.
fn play(game: &Othello, start: &Position, first: &OthelloEval, second: &OthelloEval, depth: u32) -> u32 {
    let mut searchers = [Searcher::new(game, 4), Searcher::new(game, 4)];
    let mut state = start.clone();
    while game.outcome(&state).is_none() {
        let side = game.side_to_move(&state);
        let (eval, searcher) =
            if side == Player::First { (first, &mut searchers[0]) } else { (second, &mut searchers[1]) };
        let r = searcher.search(game, eval, &state, &Limits::depth(depth), &SearchOptions::default(), &mut |_| {});
        let mv: Move = r.best_move.unwrap_or(Move::PASS);
        game.make(&mut state, mv);
    }
    let margin = game.outcome(&state).map_or(0, |o| o.signed_margin(Player::First));
    match margin.signum() {
        1 => 2,
        0 => 1,
        _ => 0,
    }
}

/// The candidate's share of the points (0.0 to 1.0) against the incumbent.
fn match_score(game: &Othello, openings: &[Position], candidate: Weights, incumbent: Weights, depth: u32) -> f64 {
    // The hand-set features only: on 8x8 the learned patterns would otherwise judge for both sides.
    let (c, i) =
        (OthelloEval::new(game, candidate).without_patterns(), OthelloEval::new(game, incumbent).without_patterns());
    let mut points = 0;
    for start in openings {
        points += play(game, start, &c, &i, depth);
        points += 2 - play(game, start, &i, &c, depth);
    }
    f64::from(points) / (4.0 * openings.len() as f64)
}

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let rounds = args.first().copied().unwrap_or(2);
    let count = args.get(1).copied().unwrap_or(48);
    let depth = args.get(2).copied().unwrap_or(3);
    let game = Othello::default();
    let openings: Vec<Position> = (0..u64::from(count)).map(|s| opening(&game, s * 7 + 3, 6)).collect();
    let names = ["mobility", "potential", "corner", "x_square", "c_square", "stable", "parity"];
    let mut current = Weights::default();
    println!("start {current:?}");
    for round in 1..=rounds {
        for (i, name) in names.iter().enumerate() {
            for (num, den) in [(3, 2), (2, 3)] {
                let mut values = current.to_array();
                values[i] = (values[i] * num / den).max(1);
                let candidate = Weights::from_array(values);
                let score = match_score(&game, &openings, candidate, current, depth);
                let accepted = score >= 0.54;
                println!(
                    "round {round} {name:<9} x{num}/{den} -> {:>4}: {:5.1}%{}",
                    values[i],
                    score * 100.0,
                    if accepted { "  accepted" } else { "" }
                );
                if accepted {
                    current = candidate;
                    break;
                }
            }
        }
        println!("after round {round}: {current:?}");
    }
}
