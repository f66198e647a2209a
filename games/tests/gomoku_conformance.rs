//! Conformance over random playouts for every rule set and several board sizes: unmake restores the state (its
//! threat cache included) and the hash, the incremental hash, line keys and threat cache match a fresh recompute, a
//! live state has a legal move, and outcomes are stable when the game is replayed.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tabula_core::{Evaluator, Game};
use tabula_games::BoardGame;
use tabula_games::gomoku::variants::rule_sets;
use tabula_games::gomoku::{Gomoku, GomokuEvaluator, WinRule};

fn playouts(game: &Gomoku, games: usize, seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut finished = 0;
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut state = game.initial_state();
        let mut played = Vec::new();
        while game.outcome(&state).is_none() {
            moves.clear();
            game.legal_moves(&state, &mut moves);
            assert!(!moves.is_empty(), "a live state has a legal move");
            let mut candidates = Vec::new();
            GomokuEvaluator.search_moves(game, &state, &mut candidates);
            assert!(candidates.iter().all(|m| moves.contains(m)), "search moves are legal");
            assert!(!candidates.is_empty(), "search moves exist in a live state");
            let mv = moves[rng.random_range(0..moves.len())];
            let before = state.clone();
            let undo = game.make(&mut state, mv);
            assert_eq!(game.hash(&state), game.recompute_hash(&state));
            game.unmake(&mut state, mv, undo);
            assert_eq!(state, before, "unmake restores the state");
            game.make(&mut state, mv);
            played.push(mv);
            if played.len() % 16 == 0 {
                assert_eq!(*state.board(), game.rebuild_board(&state), "incremental keys and counts");
                assert_eq!(*state.threats(), game.rebuild_threats(&state), "incremental threat cache");
            }
        }
        assert_eq!(*state.board(), game.rebuild_board(&state));
        assert!(game.end_reason(&state).is_some());
        let replayed = game.play_all(&played).expect("the game replays");
        assert_eq!(replayed, state, "outcomes are stable");
        finished += 1;
    }
    finished
}

#[test]
fn random_playouts_under_every_rule_set_and_size() {
    let mut total = 0;
    for (i, set) in rule_sets().iter().enumerate() {
        let base = tabula_games::gomoku::variants::from_rule_set(set.id).expect("rule set");
        let sizes: &[usize] = if base.win_rule() == WinRule::Renju { &[15] } else { &[7, 10, 15, 19] };
        for &size in sizes {
            let game = Gomoku::new(size, base.win_rule()).expect("rules");
            let count = if size <= 10 { 400 } else { 150 };
            total += playouts(&game, count, 17 * i as u64 + size as u64);
        }
    }
    assert!(total >= 2000, "{total} playouts");
}
