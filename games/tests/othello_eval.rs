//! The learned Othello evaluation plays better than the hand-set one it replaced, at equal depth, from paired
//! openings (each played with both colours).

use tabula_core::{Game, Limits, Player, SearchOptions, Searcher};
use tabula_games::othello::{Othello, OthelloEval, Position, Weights};

/// A seeded random opening of `plies` legal moves.
fn opening(game: &Othello, mut seed: u64, plies: usize) -> Position {
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        game.legal_moves(&state, &mut moves);
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        game.make(&mut state, moves[(seed >> 33) as usize % moves.len()]);
    }
    state
}

/// Plays one game from `start` with `black` and `white` searching `depth` plies; Black's final margin.
fn play(game: &Othello, start: &Position, black: &OthelloEval, white: &OthelloEval, depth: u32) -> i32 {
    let mut searchers = [Searcher::new(game, 2), Searcher::new(game, 2)];
    let mut state = start.clone();
    while game.outcome(&state).is_none() {
        let side = game.side_to_move(&state);
        let (eval, searcher) =
            if side == Player::First { (black, &mut searchers[0]) } else { (white, &mut searchers[1]) };
        let r = searcher.search(game, eval, &state, &Limits::depth(depth), &SearchOptions::default(), &mut |_| {});
        game.make(&mut state, r.best_move.expect("a live position has a move"));
    }
    game.outcome(&state).map_or(0, |o| o.signed_margin(Player::First))
}

#[test]
fn the_learned_evaluation_beats_the_hand_set_one_at_equal_depth() {
    let game = Othello::default();
    let learned = OthelloEval::new(&game, Weights::default());
    let hand = learned.clone().without_patterns();
    let (mut points, mut margin) = (0.0, 0);
    for i in 0..8 {
        let start = opening(&game, 1000 + i, 6);
        for (black, white, sign) in [(&learned, &hand, 1), (&hand, &learned, -1)] {
            let m = sign * play(&game, &start, black, white, 3);
            margin += m;
            points += match m.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
        }
    }
    assert!(points >= 12.0, "the learned evaluation scored {points} of 16 (margin {margin:+})");
}
