//! AI sanity: the searcher with the Gomoku evaluator wins in one, blocks fours and open threes, answers within a
//! second at the hardest level, and beats a random mover under every rule; the engine plays proven threat wins at
//! once and leaves the opponent none at a shallow depth.

use std::time::Duration;

use rand::seq::IndexedRandom;
use tabula_core::random::{self, SeededRng};
use tabula_core::{Evaluator, Game, GameResult, Level, Levels, Limits, Player, SearchOptions, Searcher};
use tabula_games::engine::Engine;
use tabula_games::gomoku::notation::parse_moves;
use tabula_games::gomoku::patterns::Pattern;
use tabula_games::gomoku::threats::Flag;
use tabula_games::gomoku::vct::VctSolver;
use tabula_games::gomoku::{Gomoku, GomokuEvaluator, GomokuState, Move, WinRule, color_of};

const CONFIG: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../config/default.toml"));

fn expert() -> Level {
    Levels::parse(CONFIG, "default.toml").expect("config").get("Expert").expect("the Expert level").clone()
}

fn best(game: &Gomoku, state: &GomokuState, level: &Level) -> (Move, Duration) {
    let mut searcher = Searcher::new(game, 16);
    let result = searcher.search(game, &GomokuEvaluator, state, &level.limits(), &level.options(1), &mut |_| {});
    (result.best_move.expect("a move"), result.elapsed)
}

fn position(game: &Gomoku, moves: &str) -> GomokuState {
    parse_moves(game, moves).expect("valid moves").1
}

#[test]
fn takes_a_win_in_one_under_every_rule() {
    let level = expert();
    for rule in WinRule::ALL {
        let game = Gomoku::new(15, rule).expect("rules");
        // Black has a four h8..h11 (closed at h7 by White); White threatens too.
        let state = position(&game, "h8 h7 h9 i9 h10 j10 h11 k11");
        let (mv, _) = best(&game, &state, &level);
        assert_eq!(game.format_move(mv), "h12", "{rule:?}");
    }
}

#[test]
fn quiescence_follows_only_the_fours_near_the_last_stone() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    // Black's three on row 1 (b2-d2) far from the three on column h (h8-h10), placed last.
    let black = [(1, 1), (2, 1), (3, 1), (7, 7), (7, 8), (7, 9)];
    let white = [(14, 14), (12, 14), (14, 12), (0, 14), (14, 0), (10, 14)];
    let state = game.setup(&black, &white, Player::First).expect("a position");
    let point = |x, y| game.move_xy(x, y).expect("on the board").index();
    let all_fours: Vec<usize> = state.threats().flagged(color_of(Player::First), Flag::Four).collect();
    assert!(all_fours.contains(&point(4, 1)), "the far three makes fours too");
    let mut noisy = Vec::new();
    GomokuEvaluator.noisy_moves(&game, &state, &mut noisy);
    let mut noisy: Vec<usize> = noisy.iter().map(|m| m.index()).collect();
    noisy.sort_unstable();
    let mut near = vec![point(7, 5), point(7, 6), point(7, 10), point(7, 11)];
    near.sort_unstable();
    assert_eq!(noisy, near, "only the fours within reach of h10");
}

#[test]
fn blocks_a_four_and_an_open_three() {
    let level = expert();
    for rule in WinRule::ALL {
        let game = Gomoku::new(15, rule).expect("rules");
        let black = color_of(Player::First);
        let leaves = |state: &GomokuState, pattern: Pattern| {
            game.points().iter().any(|&p| {
                let p = usize::from(p);
                state.board().cells[p] == 0 && game.patterns(state.board(), p, black).contains(&pattern)
            })
        };
        // White to move; Black has a closed four h8..h11 (h7 is White's). Caro can also block past the far end.
        let mut state = position(&game, "h8 h7 h9 a1 h10 a3 h11");
        let (mv, _) = best(&game, &state, &level);
        game.make(&mut state, mv);
        assert!(!leaves(&state, Pattern::Five), "{rule:?}: {} leaves Black a five", game.format_move(mv));
        // White to move; Black has an open three g8 h8 i8.
        let mut state = position(&game, "h8 a1 g8 a3 i8");
        let (mv, _) = best(&game, &state, &level);
        game.make(&mut state, mv);
        assert!(!leaves(&state, Pattern::OpenFour), "{rule:?}: {} leaves Black an open four", game.format_move(mv));
    }
}

#[test]
fn expert_answers_within_a_second_on_15x15() {
    let level = expert();
    for rule in WinRule::ALL {
        let game = Gomoku::new(15, rule).expect("rules");
        let state = position(&game, "h8 i9 h10 i8 j9 g7 h6 h9");
        let (_, elapsed) = best(&game, &state, &level);
        assert!(elapsed < Duration::from_millis(1000), "{rule:?}: {elapsed:?}");
    }
}

fn random_move(game: &Gomoku, state: &GomokuState, rng: &mut SeededRng) -> Move {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    *moves.choose(rng).expect("a live position has a move")
}

#[test]
fn beats_a_random_mover_under_every_rule() {
    let level = Level { time_ms: Some(200), ..Level::custom(4) };
    let mut rng = random::seeded(7);
    for rule in WinRule::ALL {
        let game = Gomoku::new(15, rule).expect("rules");
        for ai in Player::BOTH {
            let mut state = game.initial_state();
            let mut searcher = Searcher::new(&game, 16);
            while game.outcome(&state).is_none() {
                let mv = if game.side_to_move(&state) == ai {
                    let limits = Limits { time: Some(Duration::from_millis(200)), ..level.limits() };
                    searcher
                        .search(&game, &GomokuEvaluator, &state, &limits, &SearchOptions::default(), &mut |_| {})
                        .best_move
                        .expect("a move")
                } else {
                    random_move(&game, &state, &mut rng)
                };
                game.make(&mut state, mv);
            }
            let result = game.outcome(&state).map(|o| o.result);
            assert_eq!(result, Some(GameResult::Win(ai)), "{rule:?}, AI plays {ai:?}");
        }
    }
}

/// Black's twos on row 7 and column 7 meet at 7,7 (a double three to make); `extra` adds stones around.
fn crossing_twos(game: &Gomoku, attacker: Player) -> GomokuState {
    let twos = [(5, 7), (6, 7), (7, 5), (7, 6)];
    let far = [(0, 0), (0, 2), (2, 0), (14, 14)];
    match attacker {
        Player::First => game.setup(&twos, &far, Player::First),
        Player::Second => game.setup(&[(10, 10), (11, 11), (0, 0), (0, 2), (2, 0)], &twos, Player::First),
    }
    .expect("position")
}

#[test]
fn the_engine_plays_a_proven_threat_win_at_once() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    let state = crossing_twos(&game, Player::First);
    let result = Engine::new(game.clone()).think(&state, &expert(), 1, None, &mut |_| {});
    // A win in five plies: the double three, any answer, the open four, any answer, the five.
    assert!(result.proven && result.score == tabula_core::score::MATE - 5, "{result:?}");
    assert_eq!(result.best_move.map(|m| game.xy(m)), Some((7, 7)));
}

#[test]
fn the_engine_leaves_the_opponent_no_threat_win() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    // Black to move; White threatens the double three at 7,7 (and Black's own twos are too slow).
    // Even at depth 3 the search sees it (quiescence follows the open four it would lead to).
    let mut state = crossing_twos(&game, Player::Second);
    let result = Engine::new(game.clone()).think(&state, &Level::custom(3), 1, None, &mut |_| {});
    game.make(&mut state, result.best_move.expect("a move"));
    let white_wins = VctSolver::new(&game, 1_000_000).solve(&state, 1);
    assert!(white_wins.is_none(), "after {:?} White wins by {white_wins:?}", result.best_move.map(|m| game.xy(m)));
}

#[test]
fn a_renju_three_whose_open_fours_are_forbidden_forces_no_defence() {
    let game = Gomoku::new(15, WinRule::Renju).expect("rules");
    // Black's three 5,7 6,7 7,7 could become an open four only at 4,7 or 8,7, and each of those would also make a
    // four on its column (closed by White at the top): a double four, forbidden to Black.
    let black = [(5, 7), (6, 7), (7, 7), (4, 4), (4, 5), (4, 6), (8, 4), (8, 5), (8, 6)];
    let white = [(4, 3), (8, 3), (0, 0), (0, 2), (2, 0), (14, 14), (14, 12), (12, 14)];
    let state = game.setup(&black, &white, Player::Second).expect("position");
    for point in [(4, 7), (8, 7)] {
        let p = game.move_xy(point.0, point.1).expect("on the board").index();
        assert!(game.forbidden(state.board(), p, 1).is_some(), "{point:?} should be forbidden to Black");
    }
    let mut moves = Vec::new();
    GomokuEvaluator.search_moves(&game, &state, &mut moves);
    let fours = |m: &Move| {
        let p = m.index();
        (1..=2).any(|c| game.patterns(state.board(), p, c).iter().any(|l| l.is_four()))
    };
    assert!(
        moves.iter().any(|m| !fours(m)),
        "White may play quietly: {:?}",
        moves.iter().map(|&m| game.xy(m)).collect::<Vec<_>>()
    );
}

/// White to move in a game lost to Rapfi: the search alone chooses e9, after which Black wins by continuous
/// threats far beyond its horizon. The engine asks its threat solver about the opponent's chances after the move
/// it chose, rejects e9 and plays a move that leaves Black no such win.
#[test]
fn the_engine_avoids_a_move_that_gives_the_opponent_a_threat_win() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    let state = position(&game, "h8 h7 f8 f9 i10 g8 e10 i7 g7 i6 j5 h6 h10 i9 g9 i11 d10");
    let level = Level { nodes: Some(300_000), ..Level::custom(12) };
    let opponent_wins = |mv| {
        let mut after = state.clone();
        game.make(&mut after, mv);
        VctSolver::new(&game, 100_000).solve(&after, 10).is_some()
    };
    let (searched, _) = best(&game, &state, &level);
    assert_eq!(game.format_move(searched), "e9");
    assert!(opponent_wins(searched), "e9 loses to a threat sequence");
    let chosen = Engine::new(game.clone()).think(&state, &level, 1, None, &mut |_| {}).best_move.expect("a move");
    assert_ne!(chosen, searched);
    assert!(!opponent_wins(chosen), "{} loses too", game.format_move(chosen));
}
