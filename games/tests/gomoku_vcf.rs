//! The VCF solver against the shared puzzles, plus hand-made checks of its rules.

use tabula_core::Player;
use tabula_games::gomoku::datasets::VcfPuzzle;
use tabula_games::gomoku::vcf::VcfSolver;
use tabula_games::gomoku::{Gomoku, WinRule};

const PUZZLES: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/vcf-puzzles.tsv"));

#[test]
fn every_puzzle_is_solved_with_its_length_and_first_move() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (i, line) in PUZZLES.lines().enumerate() {
        let puzzle = VcfPuzzle::parse(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let Some(puzzle) = puzzle else { continue };
        count += 1;
        let check = puzzle.check();
        match check.verdict {
            Err(diff) => failures.push(format!("{}: {diff}", puzzle.id)),
            Ok(_) if check.seconds > 1.0 => failures.push(format!("{}: took {:.2} s", puzzle.id, check.seconds)),
            Ok(_) => {}
        }
    }
    assert!(count >= 30, "only {count} puzzles read");
    assert!(failures.is_empty(), "{} of {count} failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn a_length_no_board_allows_is_refused_not_wrapped() {
    let line = PUZZLES.lines().find(|l| !l.starts_with('#') && !l.trim().is_empty()).expect("a puzzle");
    let mut fields: Vec<&str> = line.split('\t').collect();
    fields[5] = "4294967295";
    let err = VcfPuzzle::parse(&fields.join("\t")).expect_err("too long to be a VCF");
    assert!(err.to_string().contains("4294967295"), "{err}");
}

#[test]
fn open_three_is_a_two_move_win_and_quiet_positions_have_none() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    let state = game.setup(&[(5, 7), (6, 7), (7, 7)], &[(0, 0), (0, 2), (0, 4)], Player::First).expect("position");
    let win = VcfSolver::new(&game).solve(&state, 5, true).expect("a VCF");
    // An open four, then the five.
    assert_eq!(win.length, 2);
    let firsts: Vec<_> = win.first_moves.iter().map(|&m| game.xy(m)).collect();
    assert!(firsts.contains(&(4, 7)) && firsts.contains(&(8, 7)), "{firsts:?}");
    let quiet = game.setup(&[(7, 7)], &[(8, 8)], Player::First).expect("position");
    assert!(VcfSolver::new(&game).solve(&quiet, 6, false).is_none());
}

#[test]
fn white_wins_by_forcing_black_onto_a_forbidden_point() {
    let game = Gomoku::new(15, WinRule::Renju).expect("rules");
    // Black stones 2,7 3,7 5,7 6,7 7,7 make 4,7 an overline point; White's four 4,3..4,6 (closed by Black's 4,2)
    // can only be blocked there.
    let black = [(2, 7), (3, 7), (5, 7), (6, 7), (7, 7), (4, 2), (12, 0)];
    let white = [(4, 3), (4, 4), (4, 5), (0, 14), (2, 14), (4, 14), (6, 14)];
    let state = game.setup(&black, &white, Player::Second).expect("position");
    let win = VcfSolver::new(&game).solve(&state, 3, true).expect("a VCF");
    assert_eq!(win.length, 1, "{win:?}");
    assert_eq!(win.first_moves, vec![game.move_xy(4, 6).expect("on board")]);
}

#[test]
fn caro_four_is_also_stopped_by_closing_its_far_end() {
    let black = [(4, 7), (5, 7), (6, 7)];
    let white = [(2, 7), (0, 14), (14, 14)];
    let free = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    let state = free.setup(&black, &white, Player::First).expect("position");
    assert_eq!(VcfSolver::new(&free).solve(&state, 4, false).map(|w| w.length), Some(2));
    let caro = Gomoku::new(15, WinRule::Caro).expect("rules");
    let state = caro.setup(&black, &white, Player::First).expect("position");
    assert_eq!(VcfSolver::new(&caro).solve(&state, 4, false), None, "O.XXXX. is not an open four in Caro");
    // A closed four X at 3..6 (O at 2): the defender may take the five point or the point past it.
    let four = caro.setup(&[(3, 7), (4, 7), (5, 7), (6, 7)], &white, Player::Second).expect("position");
    let five_point = caro.move_xy(7, 7).expect("on board").index();
    let mut defences = caro.five_defences(four.board(), 1, &[five_point]);
    defences.sort_unstable();
    let expected = [(7, 7), (8, 7)].map(|(x, y)| caro.move_xy(x, y).expect("on board").index());
    assert_eq!(defences, expected);
}

/// Caro's defences against fives, as the search uses them, are exactly the points after which none of the
/// attacker's fives still wins, by the game's own win check, over positions from random games.
#[test]
fn caro_five_defences_are_the_points_that_stop_every_five() {
    use rand::Rng;
    use tabula_core::Game;
    let game = Gomoku::new(15, WinRule::Caro).expect("rules");
    // Whether `attacker` (1 Black, 2 White) wins by playing `f` on the given stones.
    let wins = |black: &[(usize, usize)], white: &[(usize, usize)], attacker: u8, f: (usize, usize)| {
        let side = if attacker == 1 { Player::First } else { Player::Second };
        let Some(mut state) = game.setup(black, white, side) else { return false };
        let Some(mv) = game.move_xy(f.0, f.1) else { return false };
        game.make(&mut state, mv);
        game.outcome(&state).is_some_and(|o| o.result == tabula_core::GameResult::Win(side))
    };
    let mut rng = tabula_core::random::seeded(7);
    let mut checked = 0;
    while checked < 60 {
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for ply in 0..60 {
            let empties: Vec<(usize, usize)> = (4..11)
                .flat_map(|y| (4..11).map(move |x| (x, y)))
                .filter(|c| !black.contains(c) && !white.contains(c))
                .collect();
            if empties.is_empty() {
                break;
            }
            let c = empties[rng.random_range(0..empties.len())];
            let attacker: u8 = if ply % 2 == 0 { 1 } else { 2 };
            if wins(&black, &white, attacker, c) {
                break;
            }
            if attacker == 1 {
                black.push(c)
            } else {
                white.push(c)
            }
            // The attacker has just moved: its five points (next to stones in 4..=10, so within 3..=11), and the
            // defender's answers to them, anywhere on the board.
            let empty = |c: &(usize, usize)| !black.contains(c) && !white.contains(c);
            let near: Vec<(usize, usize)> = (3..12).flat_map(|y| (3..12).map(move |x| (x, y))).filter(empty).collect();
            let fives: Vec<(usize, usize)> =
                near.iter().copied().filter(|&f| wins(&black, &white, attacker, f)).collect();
            if fives.is_empty() {
                continue;
            }
            let all: Vec<(usize, usize)> = (0..15).flat_map(|y| (0..15).map(move |x| (x, y))).filter(empty).collect();
            let side = if attacker == 1 { Player::Second } else { Player::First };
            let state = game.setup(&black, &white, side).expect("an undecided position");
            let index = |c: (usize, usize)| game.move_xy(c.0, c.1).expect("on board").index();
            let mut found =
                game.five_defences(state.board(), attacker, &fives.iter().map(|&f| index(f)).collect::<Vec<_>>());
            found.sort_unstable();
            let mut expected: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&q| {
                    let (mut b, mut w) = (black.clone(), white.clone());
                    if attacker == 1 {
                        w.push(q)
                    } else {
                        b.push(q)
                    }
                    fives.iter().all(|&f| f == q || !wins(&b, &w, attacker, f))
                })
                .map(index)
                .collect();
            expected.sort_unstable();
            assert_eq!(found, expected, "black {black:?} white {white:?}, fives {fives:?}");
            checked += 1;
        }
    }
}
