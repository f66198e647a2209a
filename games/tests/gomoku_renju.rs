//! Renju forbidden points: every fixture of the shared data file, five priority and White's overline.

use tabula_core::{Game, GameResult, Player};
use tabula_games::BoardGame;
use tabula_games::gomoku::datasets::ForbiddenCase;
use tabula_games::gomoku::{Gomoku, WinRule};
use tabula_games::{Cell, Marker, MoveError};

const FIXTURES: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/renju-forbidden.txt"));

fn renju() -> Gomoku {
    Gomoku::new(15, WinRule::Renju).expect("renju rules")
}

#[test]
fn every_fixture_matches() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (i, line) in FIXTURES.lines().enumerate() {
        let case = ForbiddenCase::parse(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let Some(case) = case else { continue };
        count += 1;
        if let Err(diff) = case.check() {
            failures.push(format!("{}: {diff}", case.id));
        }
    }
    assert!(count >= 50, "only {count} fixtures read");
    assert!(failures.is_empty(), "{} of {count} wrong:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn forbidden_moves_are_refused_with_reason() {
    let game = renju();
    let state = game.setup(&[(6, 7), (7, 7), (8, 5), (8, 6)], &[(0, 0), (0, 1), (0, 2), (0, 3)], Player::First);
    let state = state.expect("position");
    assert_eq!(game.move_at(&state, Cell::new(8, 7)), Err(MoveError::Forbidden("double three")));
    assert_eq!(game.move_at(&state, Cell::new(7, 7)), Err(MoveError::Illegal("occupied".into())));
    assert!(game.markers(&state).contains(&(Cell::new(8, 7), Marker::Forbidden)));
    let mv = game.move_xy(8, 7).expect("on board");
    assert!(!game.is_legal(&state, mv));
}

#[test]
fn five_beats_overline_elsewhere_and_wins() {
    let game = renju();
    // H007: 5,7 makes a five horizontally and a four vertically: a five takes priority.
    let black = [(3, 7), (4, 7), (6, 7), (7, 7), (5, 5), (5, 6), (5, 8), (5, 9)];
    let white = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10), (0, 12), (0, 14)];
    let mut state = game.setup(&black, &white, Player::First).expect("position");
    let mv = game.move_at(&state, Cell::new(5, 7)).expect("a five is legal");
    let report = game.describe_move(&state, mv);
    assert_eq!(report.winning_line.len(), 5);
    game.make(&mut state, mv);
    assert_eq!(game.outcome(&state).map(|o| o.result), Some(GameResult::Win(Player::First)));
}

#[test]
fn black_overline_is_forbidden_but_white_overline_wins() {
    let game = renju();
    let row = [(2, 7), (3, 7), (5, 7), (6, 7), (7, 7)];
    let state = game.setup(&row, &[(0, 0), (0, 2), (0, 4), (0, 6), (0, 8)], Player::First).expect("position");
    assert_eq!(game.move_at(&state, Cell::new(4, 7)), Err(MoveError::Forbidden("overline")));
    let black = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8)];
    let mut state = game.setup(&black, &row, Player::Second).expect("position");
    let mv = game.move_at(&state, Cell::new(4, 7)).expect("White may play it");
    assert_eq!(game.describe_move(&state, mv).winning_line.len(), 6);
    game.make(&mut state, mv);
    assert_eq!(game.outcome(&state).map(|o| o.result), Some(GameResult::Win(Player::Second)));
    assert_eq!(game.end_reason(&state).as_deref(), Some("six in a row"), "an overline wins for White, and says so");
}
