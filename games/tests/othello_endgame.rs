//! The Othello exact solver and AI: FFO #40, a differential test against plain minimax, and play against a random
//! mover.

use rand::seq::IndexedRandom;
use tabula_core::{Game, Limits, Player, SearchOptions, Searcher, random};
use tabula_games::BoardGame;
use tabula_games::othello::endgame::Solver;
use tabula_games::othello::{Othello, Position, notation};

fn exact() -> SearchOptions {
    SearchOptions { exact: true, ..SearchOptions::default() }
}

/// Plain exact minimax through the Game trait: the final margin for the side to move under perfect play.
fn minimax(game: &Othello, state: &mut Position) -> i32 {
    if let Some(outcome) = game.outcome(state) {
        return outcome.signed_margin(game.side_to_move(state));
    }
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let undo = game.make(state, mv);
            let v = -minimax(game, state);
            game.unmake(state, mv, undo);
            v
        })
        .max()
        .unwrap_or(0)
}

/// A position reached by random play with `empties` empty squares left (or the game's end, if sooner).
fn random_position(game: &Othello, seed: u64, empties: u32) -> Position {
    let mut rng = random::seeded(seed);
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    while game.empties(&state) > empties && game.outcome(&state).is_none() {
        moves.clear();
        game.legal_moves(&state, &mut moves);
        game.make(&mut state, *moves.choose(&mut rng).expect("a live position has a move"));
    }
    state
}

/// The FFO positions of the data file with their best moves and score.
fn ffo_positions(game: &Othello) -> Vec<(Position, Vec<String>, i32)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/ffo-40-59.obf");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('%') && !l.trim().is_empty())
        .map(|line| {
            let mut fields = line.split(';').map(str::trim).filter(|f| !f.is_empty());
            let pos = notation::parse_board(game, fields.next().expect("board")).expect("valid board");
            let answers: Vec<(String, i32)> = fields
                .map(|f| {
                    let (mv, score) = f.split_once(':').expect("move:score");
                    (mv.to_ascii_lowercase(), score.parse().expect("score"))
                })
                .collect();
            let score = answers[0].1;
            (pos, answers.into_iter().map(|a| a.0).collect(), score)
        })
        .collect()
}

#[test]
fn ffo_40_and_41_are_solved_exactly() {
    let game = Othello::default();
    let positions = ffo_positions(&game);
    assert_eq!((positions[0].1.as_slice(), positions[0].2), (&["a2".to_string()][..], 38), "FFO #40 is a2 +38");
    for (number, (pos, best, score)) in positions.iter().enumerate().take(2) {
        let mut searcher = Searcher::new(&game, 16);
        let result = searcher.search(&game, &game.evaluator(true), pos, &Limits::default(), &exact(), &mut |_| {});
        let mv = result.best_move.map(|m| game.format_move(m)).unwrap_or_default();
        assert_eq!(result.score, *score, "FFO #{}", 40 + number);
        assert!(best.contains(&mv), "FFO #{}: {mv} is not among {best:?}", 40 + number);
        assert!(result.proven);
    }
}

/// A solve that is told to stop gives up without an answer and leaves its table sound: solving the same position
/// afterwards with the same table still finds the exact score. Through the searcher, a time limit cuts the exact
/// search of FFO #41 (seconds of work) short.
#[test]
fn a_stopped_solve_returns_nothing_and_stores_nothing_wrong() {
    let game = Othello::default();
    let positions = ffo_positions(&game);
    let (pos, _, score) = &positions[0];
    let (p, o) = (pos.player() as u64, pos.opponent() as u64);
    let solver = Solver::new(16);
    for limit in [1_000_u64, 100_000, 1_000_000] {
        let mut nodes = 0;
        let mut asked = 0;
        let stopped = solver.solve(p, o, -64, 64, false, &mut nodes, &mut |n| {
            asked += 1;
            n >= limit
        });
        assert_eq!(stopped, None, "stopped after {limit} nodes");
        assert!(asked > 0 && nodes >= limit && nodes < limit + 100_000, "{nodes} nodes, asked {asked} times");
    }
    assert_eq!(solver.solve(p, o, -64, 64, false, &mut 0, &mut |_| false), Some(*score));

    let (pos, _, _) = &positions[1];
    let limits = Limits { time: Some(std::time::Duration::from_millis(100)), ..Limits::default() };
    let start = std::time::Instant::now();
    let result = Searcher::new(&game, 16).search(&game, &game.evaluator(true), pos, &limits, &exact(), &mut |_| {});
    assert!(start.elapsed() < std::time::Duration::from_secs(1), "took {:?}", start.elapsed());
    assert!(result.stopped && !result.proven);
    assert!(result.best_move.is_some());
}

#[test]
fn exact_search_and_solver_agree_with_plain_minimax() {
    for set in ["othello", "anti-othello", "othello-6x6"] {
        let game = Othello::from_rule_set(set).expect("rule set");
        for seed in 0..40u64 {
            let empties = 1 + (seed % 10) as u32;
            let pos = random_position(&game, seed * 7919 + 1, empties);
            let truth = minimax(&game, &mut pos.clone());
            // The searcher with the fast path, and without it (the generic exact search all the way).
            for eval in [game.evaluator(true), game.evaluator(true).with_solver_empties(0)] {
                let mut searcher = Searcher::new(&game, 4);
                let result = searcher.search(&game, &eval, &pos, &Limits::default(), &exact(), &mut |_| {});
                assert_eq!(result.score, truth, "{set} seed {seed}: {}", notation::format_board(&game, &pos));
            }
            if game.is_8x8() {
                // The solver alone, in narrow windows too (fail-soft bounds must hold).
                let anti = set == "anti-othello";
                let solver = Solver::new(10);
                let (p, o) = (pos.player() as u64, pos.opponent() as u64);
                let mut nodes = 0;
                let mut solve = |alpha, beta| solver.solve(p, o, alpha, beta, anti, &mut nodes, &mut |_| false);
                assert_eq!(solve(-64, 64), Some(truth));
                for window in [(truth - 2, truth - 1), (truth + 1, truth + 2), (truth - 1, truth + 1)] {
                    let v = solve(window.0, window.1).expect("never stopped");
                    if truth <= window.0 {
                        assert!(v <= window.0 && v >= truth, "fail low {v} {truth}");
                    } else if truth >= window.1 {
                        assert!(v >= window.1 && v <= truth, "fail high {v} {truth}");
                    } else {
                        assert_eq!(v, truth);
                    }
                }
            }
        }
    }
}

/// On two or three threads the solver splits its nodes between them; the values are the single-threaded ones,
/// in every window, through the searcher (which leaves the threads to the solver) and the solver alone, and the
/// chosen move keeps the value. On 6x6, where the solver does not play, the searcher's own threads search.
#[test]
fn parallel_exact_search_finds_the_single_threaded_values() {
    let game = Othello::default();
    for seed in 0..6u64 {
        let pos = random_position(&game, seed * 104_729 + 3, 14 + (seed % 3) as u32);
        // A fresh solver table for each search, so that the second does not just read the first one's results.
        let eval = || game.evaluator(true).with_solver_empties(if seed % 2 == 0 { 20 } else { 13 });
        let solve = |threads| {
            let mut searcher = Searcher::new(&game, 4);
            searcher.set_threads(threads);
            searcher.search(&game, &eval(), &pos, &Limits::default(), &exact(), &mut |_| {})
        };
        let (one, two) = (solve(1), solve(2 + (seed % 2) as usize));
        let board = notation::format_board(&game, &pos);
        assert_eq!(one.score, two.score, "seed {seed}: {board}");
        assert!(two.proven && two.best_move.is_some());
        let mut after = pos.clone();
        game.make(&mut after, two.best_move.expect("a move"));
        let reply = Searcher::new(&game, 4).search(&game, &eval(), &after, &Limits::default(), &exact(), &mut |_| {});
        assert_eq!(-reply.score, one.score, "seed {seed}: the chosen move keeps the value");

        let solver = Solver::new(16);
        solver.set_threads(2);
        let (p, o) = (pos.player() as u64, pos.opponent() as u64);
        let truth = one.score;
        for (alpha, beta) in [(-64, 64), (truth - 2, truth - 1), (truth + 1, truth + 2), (truth - 1, truth + 1)] {
            let v = solver.solve(p, o, alpha, beta, false, &mut 0, &mut |_| false).expect("never stopped");
            if truth <= alpha {
                assert!(v <= alpha && v >= truth, "seed {seed}: fail low {v} {truth}");
            } else if truth >= beta {
                assert!(v >= beta && v <= truth, "seed {seed}: fail high {v} {truth}");
            } else {
                assert_eq!(v, truth, "seed {seed}");
            }
        }
    }
    let small = Othello::from_rule_set("othello-6x6").expect("rule set");
    let pos = random_position(&small, 5, 10);
    let truth = minimax(&small, &mut pos.clone());
    let mut searcher = Searcher::new(&small, 4);
    searcher.set_threads(2);
    let r = searcher.search(&small, &small.evaluator(true), &pos, &Limits::default(), &exact(), &mut |_| {});
    assert_eq!((r.score, r.proven), (truth, true));
}

/// A solve on two threads that is told to stop gives up without an answer, whichever thread is working, and
/// leaves its table sound.
#[test]
fn a_stopped_parallel_solve_returns_nothing() {
    let game = Othello::default();
    let pos = random_position(&game, 77, 19);
    let (p, o) = (pos.player() as u64, pos.opponent() as u64);
    let truth = Solver::new(14).solve(p, o, -64, 64, false, &mut 0, &mut |_| false);
    let solver = Solver::new(14);
    solver.set_threads(2);
    for limit in [20_000_u64, 100_000] {
        let mut nodes = 0;
        let stopped = solver.solve(p, o, -64, 64, false, &mut nodes, &mut |n| n >= limit);
        assert_eq!(stopped, None, "stopped after {limit} nodes");
        assert!(nodes >= limit, "{nodes} nodes");
    }
    assert_eq!(solver.solve(p, o, -64, 64, false, &mut 0, &mut |_| false), truth);
}

/// Plays a game between the searcher at `depth` (as `ai`) and a seeded random mover; returns the AI's margin.
fn ai_versus_random(game: &Othello, ai: Player, depth: u32, seed: u64) -> i32 {
    let mut rng = random::seeded(seed);
    let evaluator = game.evaluator(false);
    let mut searcher = Searcher::new(game, 4);
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    while game.outcome(&state).is_none() {
        let mv = if game.side_to_move(&state) == ai {
            let r = searcher.search(
                game,
                &evaluator,
                &state,
                &Limits::depth(depth),
                &SearchOptions::default(),
                &mut |_| {},
            );
            r.best_move.expect("a live position has a move")
        } else {
            moves.clear();
            game.legal_moves(&state, &mut moves);
            *moves.choose(&mut rng).expect("a live position has a move")
        };
        game.make(&mut state, mv);
    }
    game.outcome(&state).map_or(0, |o| o.signed_margin(ai))
}

#[test]
fn the_ai_beats_a_random_mover() {
    let sets = [
        ("othello", 10),
        ("othello-6x6", 6),
        ("grand-othello", 2),
        ("reversi", 4),
        ("othello-parallel", 4),
        ("anti-othello", 4),
    ];
    for (set, games) in sets {
        let game = Othello::from_rule_set(set).expect("rule set");
        let wins = (0..games)
            .filter(|&i| {
                let ai = if i % 2 == 0 { Player::First } else { Player::Second };
                ai_versus_random(&game, ai, 3, i as u64 + 1) > 0
            })
            .count();
        assert!(wins * 10 >= games * 8, "{set}: the AI won only {wins} of {games}");
    }
}

#[test]
fn an_exact_search_takes_the_best_root_move_first_in_most_ffo_positions() {
    use tabula_core::Evaluator;
    let game = Othello::default();
    let eval = game.evaluator(true);
    let (mut first, mut top_three) = (0, 0);
    let (mut moves, mut legal) = (Vec::new(), Vec::new());
    for (pos, best, _) in ffo_positions(&game) {
        moves.clear();
        eval.search_moves(&game, &pos, &mut moves);
        legal.clear();
        game.legal_moves(&pos, &mut legal);
        assert_eq!(moves.len(), legal.len(), "every legal move is searched, once");
        assert!(legal.iter().all(|m| moves.contains(m)));
        let rank = moves.iter().position(|&m| best.contains(&game.format_move(m))).expect("a best move is legal");
        first += usize::from(rank == 0);
        top_three += usize::from(rank < 3);
    }
    // The one-ply look with the hand-set features it replaced: 7 of 20 first, 12 in the first three.
    assert!(first >= 10 && top_three >= 16, "{first} of 20 first, {top_three} in the first three");
}
