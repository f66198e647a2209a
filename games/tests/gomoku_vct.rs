//! The VCT solver: threats with open threes that no VCF finds, Renju's forbidden double three, the defences of
//! an open three, and every shared VCF puzzle (a VCF is a VCT).

use tabula_core::{Game, GameResult, Player};
use tabula_games::gomoku::datasets::VcfPuzzle;
use tabula_games::gomoku::notation::parse_moves;
use tabula_games::gomoku::vcf::VcfSolver;
use tabula_games::gomoku::vct::VctSolver;
use tabula_games::gomoku::{Gomoku, GomokuState, Move, WinRule};

const PUZZLES: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/vcf-puzzles.tsv"));

/// White stones in a far corner, out of play.
const FAR_WHITE: [(usize, usize); 4] = [(0, 0), (0, 2), (2, 0), (14, 14)];

fn xy(game: &Gomoku, moves: &[Move]) -> Vec<(usize, usize)> {
    moves.iter().map(|&m| game.xy(m)).collect()
}

/// Replays the line: every move legal, and the attacker (to move in `state`) has won at its end or has two
/// fives to make.
fn assert_line_wins(game: &Gomoku, state: &GomokuState, line: &[Move]) {
    let attacker = game.side_to_move(state);
    let mut s = state.clone();
    for &m in line {
        assert!(game.is_legal(&s, m), "{:?} is not legal in the line {:?}", game.xy(m), xy(game, line));
        game.make(&mut s, m);
    }
    if let Some(outcome) = game.outcome(&s) {
        assert_eq!(outcome.result, GameResult::Win(attacker), "line {:?}", xy(game, line));
    } else {
        // The defender has no answer left: the threat stands.
        assert_eq!(game.side_to_move(&s), attacker.opponent(), "line {:?}", xy(game, line));
    }
}

#[test]
fn a_double_three_is_a_threat_win_that_no_vcf_finds() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    // Black's twos on row 7 and column 7 meet at 7,7: playing there makes two open threes.
    let black = [(5, 7), (6, 7), (7, 5), (7, 6), (12, 12)];
    let state = game.setup(&black, &FAR_WHITE, Player::First).expect("position");
    assert!(VcfSolver::new(&game).solve(&state, 6, false).is_none(), "no fours to play");
    let win = VctSolver::new(&game, 100_000).solve(&state, 4).expect("a VCT");
    assert_line_wins(&game, &state, &win.line);
    // The shortest: the double three itself, since no one stone stops both open fours it threatens; the five
    // comes four plies later.
    assert_eq!(xy(&game, &win.line), vec![(7, 7)]);
    assert_eq!(win.plies, 5);
}

#[test]
fn renju_black_may_not_win_by_a_double_three_but_white_may() {
    let game = Gomoku::new(15, WinRule::Renju).expect("rules");
    let black = [(5, 7), (6, 7), (7, 5), (7, 6), (12, 12)];
    let state = game.setup(&black, &FAR_WHITE, Player::First).expect("position");
    if let Some(win) = VctSolver::new(&game, 100_000).solve(&state, 4) {
        assert_ne!(xy(&game, &win.line[..1]), vec![(7, 7)], "the double three is forbidden to Black");
        assert_line_wins(&game, &state, &win.line);
    }
    // The same shape in White's stones wins for White.
    let white = black;
    let far_black = [(0, 0), (0, 2), (2, 0), (14, 14), (14, 12)];
    let state = game.setup(&far_black, &white, Player::Second).expect("position");
    let win = VctSolver::new(&game, 100_000).solve(&state, 4).expect("White's VCT");
    assert_line_wins(&game, &state, &win.line);
}

#[test]
fn a_quiet_position_has_no_threat_win() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    let state = game.setup(&[(7, 7), (9, 9)], &[(8, 8), (6, 6)], Player::First).expect("position");
    assert!(VctSolver::new(&game, 100_000).solve(&state, 8).is_none());
}

#[test]
fn an_open_three_is_stopped_only_where_no_open_four_is_left() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    let defences = |black: &[(usize, usize)]| {
        let state = game.setup(black, &FAR_WHITE, Player::Second).expect("position");
        let mut points: Vec<(usize, usize)> =
            game.open_four_defences(&state, 1).into_iter().map(|p| game.geometry().coords(p)).collect();
        points.sort_unstable();
        points
    };
    // A solid three with room on both sides: only its two ends.
    assert_eq!(defences(&[(6, 7), (7, 7), (8, 7)]), vec![(5, 7), (9, 7)]);
    // A split three: the gap and both ends.
    assert_eq!(defences(&[(5, 7), (7, 7), (8, 7)]), vec![(4, 7), (6, 7), (9, 7)]);
    // No three: nothing to stop.
    assert_eq!(defences(&[(5, 7), (8, 7)]), Vec::<(usize, usize)>::new());
}

#[test]
fn every_vcf_puzzle_is_a_threat_win_of_at_most_its_length() {
    let mut count = 0;
    for (i, line) in PUZZLES.lines().enumerate() {
        let puzzle = VcfPuzzle::parse(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let Some(puzzle) = puzzle else { continue };
        let (game, state) = puzzle.position().expect("position");
        let found = VctSolver::new(&game, 2_000_000).solve(&state, puzzle.vcf_len.max(1));
        let win = found.unwrap_or_else(|| panic!("{}: no VCT within {} threats", puzzle.id, puzzle.vcf_len));
        assert_line_wins(&game, &state, &win.line);
        // A VCF of n fours ends with its five by ply 2n - 1; a shorter threat win can only be faster.
        assert!(win.plies <= 2 * puzzle.vcf_len.max(1) - 1 + 4, "{}: {} plies", puzzle.id, win.plies);
        assert!(win.plies as usize >= win.line.len() && win.plies % 2 == 1, "{}: {} plies", puzzle.id, win.plies);
        count += 1;
    }
    assert!(count >= 30, "only {count} puzzles read");
}

/// Black to move after 15 moves of a depth-5 game: a threat win 21 plies long, found well within the node limit
/// the Expert level gives the solver (100,000).
#[test]
fn a_long_threat_win_from_a_real_game_is_proven() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    let (_, state) = parse_moves(&game, "h8 j9 h10 l11 j13 l9 h11 h9 g10 i12 i10 f10 k10 j10 l8").expect("moves");
    let mut solver = VctSolver::new(&game, 100_000);
    let win = solver.solve(&state, 10).expect("a VCT");
    assert_line_wins(&game, &state, &win.line);
    assert!(win.plies >= 15, "{} plies", win.plies);
}

/// The deadline ends a search that would run long: with the time already up, it gives up within the 256
/// positions between two readings of the clock.
#[test]
fn a_passed_deadline_stops_the_search() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    let (_, state) = parse_moves(&game, "h8 i8 g9 k7 k6 i5 i9 j6 l8 h6").expect("moves");
    let mut budgeted = VctSolver::new(&game, 5_000);
    assert!(budgeted.solve(&state, 10).is_none());
    assert!(budgeted.nodes() >= 5_000, "the position takes many nodes: {}", budgeted.nodes());
    let mut late = VctSolver::new(&game, 1_000_000).until(Some(std::time::Instant::now()));
    assert!(late.solve(&state, 10).is_none());
    assert!(late.nodes() <= 256, "{} nodes after the deadline", late.nodes());
}
