//! The learned Othello evaluation plays better than the hand-set one it replaced, at equal depth, from paired
//! openings (each played with both colours).

use tabula_core::{Game, Limits, Player, SearchOptions, Searcher, random};
use tabula_games::arena::random_opening;
use tabula_games::othello::{Othello, OthelloEval, Position, Weights};

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
    let mut rng = random::seeded(1000);
    for _ in 0..16 {
        let mut start = game.initial_state();
        for mv in random_opening(&game, 6, &mut rng) {
            game.make(&mut start, mv);
        }
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
    assert!(points >= 24.0, "the learned evaluation scored {points} of 32 (margin {margin:+})");
}
