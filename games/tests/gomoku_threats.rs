//! The threat cache against a from-scratch recompute: on random positions under every win rule and several board
//! sizes, the board's incremental line keys and neighbour counts, the cached patterns, values and flags of every
//! point and the totals and counts over the candidate area equal what a direct scan of the board finds, also along
//! sequences of moves taken back one by one; and the hash a move will give, as `hash_after` tells it beforehand (the
//! searcher prefetches by it), is the hash `make` gives.

use rand::Rng;
use rand::seq::IndexedRandom;
use tabula_core::random::{self, SeededRng};
use tabula_core::{Evaluator, Game};
use tabula_games::gomoku::eval::terms;
use tabula_games::gomoku::patterns::{BLACK, EMPTY, Pattern, WHITE};
use tabula_games::gomoku::threats::{Flag, makes_open_four};
use tabula_games::gomoku::values::{Role, SHAPES, SITUATIONS, parse_shape, shape_lines, shape_name, situation_name};
use tabula_games::gomoku::{Gomoku, GomokuEvaluator, GomokuState, Move, WinRule};

const FLAGS: [Flag; 7] =
    [Flag::Five, Flag::Four, Flag::OpenFour, Flag::Forbiddable, Flag::FourPlus, Flag::ThreePlus, Flag::OpenThree];

/// Compares the cache of `state` with a scan of its board.
fn check_against_scan(game: &Gomoku, state: &GomokuState) {
    let board = state.board();
    let threats = state.threats();
    assert_eq!(*board, game.rebuild_board(state), "the incremental keys and counts are a function of the stones");
    assert_eq!(*threats, game.rebuild_threats(state), "the cache is a function of the board");
    for color in [BLACK, WHITE] {
        let values = game.values().color(usize::from(color - 1));
        let mut total = [0; 2];
        let mut flagged: [Vec<usize>; 7] = Default::default();
        for &p in game.points() {
            let p = usize::from(p);
            let lines = game.patterns(board, p, color);
            assert_eq!(*threats.lines(p, color), lines);
            for role in [Role::ToMove, Role::Waiting] {
                assert_eq!(threats.value(p, color, role), values.point_value(role, &lines));
            }
            let empty = board.cells[p] == EMPTY;
            let forbidden = empty && game.forbidden(board, p, color).is_some();
            let expected = [
                lines.contains(&Pattern::Five),
                lines.iter().any(|l| l.is_four()),
                makes_open_four(&lines),
                threats.has(p, color, Flag::Forbiddable),
                lines.iter().filter(|l| l.is_four()).count() == 1
                    && lines
                        .iter()
                        .any(|l| matches!(l, Pattern::OpenThree | Pattern::Three | Pattern::OpenTwo | Pattern::Two)),
                lines.contains(&Pattern::OpenThree)
                    && !lines.iter().any(|l| l.is_four())
                    && lines
                        .iter()
                        .filter(|l| matches!(l, Pattern::OpenThree | Pattern::Three | Pattern::OpenTwo))
                        .count()
                        >= 2,
                lines.contains(&Pattern::OpenThree),
            ];
            for (i, &flag) in FLAGS.iter().enumerate() {
                assert_eq!(threats.has(p, color, flag), expected[i], "{flag:?} at {p}");
            }
            assert!(!forbidden || threats.has(p, color, Flag::Forbiddable), "a forbidden point is flagged");
            if empty {
                assert_eq!(game.legal_for(state, p, color), !forbidden, "legality at {p}");
            }
            let candidate = empty && board.near[p] > 0;
            assert_eq!(threats.is_candidate(p), candidate);
            if candidate {
                total[0] += values.point_value(Role::ToMove, &lines);
                total[1] += values.point_value(Role::Waiting, &lines);
                for (i, list) in flagged.iter_mut().enumerate() {
                    if expected[i] {
                        list.push(p);
                    }
                }
            }
        }
        assert_eq!([threats.total(color, Role::ToMove), threats.total(color, Role::Waiting)], total, "colour {color}");
        for (i, &flag) in FLAGS.iter().enumerate() {
            assert_eq!(threats.flagged(color, flag).collect::<Vec<_>>(), flagged[i], "{flag:?} points");
            assert_eq!(threats.count(color, flag) as usize, flagged[i].len(), "{flag:?} count");
        }
    }
}

/// Where no five or open four decides it, the evaluation is the sum of the shapes' point values, each colour in
/// its role, and the value of the side to move's threat situation: the cache's running totals and a count from
/// scratch agree.
fn check_evaluation(game: &Gomoku, state: &GomokuState) {
    let Some(terms) = terms(game, state) else { return };
    let [own, other] = &terms.shapes;
    let mover = game.side_to_move(state).index();
    let sum = |role: Role, slot: usize, counts: &[(u16, u16)]| {
        let values = game.values().color(slot);
        counts.iter().map(|&(s, c)| values.point_value(role, &shape_lines(usize::from(s))) * i32::from(c)).sum::<i32>()
    };
    let situations = &game.values().color(mover).situations;
    let situation = situations.get(&situation_name(terms.situation)).copied().unwrap_or(0);
    let expected = sum(Role::ToMove, mover, own) - sum(Role::Waiting, 1 - mover, other) + situation;
    assert_eq!(GomokuEvaluator.evaluate(game, state), expected);
}

/// A random move, most often one the engine would consider (so threats arise), else any legal move.
fn random_move(game: &Gomoku, state: &GomokuState, rng: &mut SeededRng) -> Move {
    let mut moves = Vec::new();
    if rng.random_bool(0.8) {
        GomokuEvaluator.search_moves(game, state, &mut moves);
    }
    if moves.is_empty() {
        game.legal_moves(state, &mut moves);
    }
    *moves.choose(rng).expect("a live position has a move")
}

/// Plays random games, checking the cache after every move and along short sequences taken back.
fn random_games(game: &Gomoku, games: usize, seed: u64) {
    let mut rng = random::seeded(seed);
    for _ in 0..games {
        let mut state = game.initial_state();
        check_against_scan(game, &state);
        while game.outcome(&state).is_none() {
            let mut line = Vec::new();
            let mut undos = Vec::new();
            let mut before = Vec::new();
            for _ in 0..rng.random_range(1..=6) {
                if game.outcome(&state).is_some() {
                    break;
                }
                let mv = random_move(game, &state, &mut rng);
                before.push(state.clone());
                let announced = game.hash_after(&state, mv);
                undos.push(game.make(&mut state, mv));
                assert_eq!(announced, Some(game.hash(&state)), "hash_after foretells the hash make gives");
                check_against_scan(game, &state);
                check_evaluation(game, &state);
                line.push(mv);
            }
            for _ in 1..line.len() {
                let mv = line.pop().expect("a move");
                game.unmake(&mut state, mv, undos.pop().expect("an undo"));
                assert_eq!(state, before.pop().expect("a state"), "unmake restores the state and its cache");
            }
        }
    }
}

#[test]
fn cache_matches_a_scan_under_every_rule_and_size() {
    for (i, rule) in WinRule::ALL.into_iter().enumerate() {
        let sizes: &[usize] = if rule == WinRule::Renju { &[15] } else { &[7, 10, 15, 19] };
        for &size in sizes {
            let game = Gomoku::new(size, rule).expect("rules");
            random_games(&game, if size <= 10 { 30 } else { 12 }, 31 * i as u64 + size as u64);
        }
    }
}

/// With shape adjustments on top of the features' values (some up, some down, a different set per colour and
/// role) and situation values, the cache and the evaluation still equal a count from scratch, and the adjustments change the values.
#[test]
fn cache_matches_a_scan_with_shape_adjustments_and_situations() {
    for rule in [WinRule::Freestyle, WinRule::Renju] {
        let base = Gomoku::new(15, rule).expect("rules");
        let base_value = |rule, lines: &[Pattern; 4]| {
            Gomoku::new(15, rule).expect("rules").values().color(0).point_value(Role::ToMove, lines)
        };
        let mut values = base.values().clone();
        for (slot, shift) in [(0usize, 0usize), (1, 1)] {
            let color = values.color_mut(slot);
            for (i, shape) in (1..SHAPES).filter(|&s| parse_shape(&shape_name(s)) == Some(s)).enumerate() {
                if (i + shift) % 3 == 0 {
                    color.to_move_shapes.insert(shape_name(shape), 40 + (i % 7) as i32);
                } else if (i + shift) % 3 == 1 {
                    color.waiting_shapes.insert(shape_name(shape), -((i % 5) as i32));
                }
            }
        }
        values.black.to_move_shapes.insert("open-three+two".into(), 123);
        for s in (0..SITUATIONS).step_by(3) {
            values.color_mut(s % 2).situations.insert(situation_name(s), 50 - (s % 101) as i32);
        }
        let game = base.with_values(values);
        let lines = [Pattern::Dead, Pattern::Two, Pattern::Overline, Pattern::OpenThree];
        let plain = base_value(rule, &lines);
        assert_eq!(game.values().color(0).point_value(Role::ToMove, &lines), plain + 123);
        random_games(&game, 8, 77);
    }
}
