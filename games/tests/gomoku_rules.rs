//! Gomoku win rules: fives in all four directions, inside and at the edges, for every rule; overlines under exact
//! five and Renju; Caro's closed fives; a full board; the end reason and how search scores read.

use tabula_core::{Game, GameResult, Player};
use tabula_games::gomoku::{Gomoku, WinRule};
use tabula_games::{BoardGame, Cell};

type Xy = (usize, usize);

/// The five cells of a line from `start` along `(dx, dy)`.
fn line(start: Xy, dx: isize, dy: isize, len: usize) -> Vec<Xy> {
    (0..len as isize).map(|k| ((start.0 as isize + k * dx) as usize, (start.1 as isize + k * dy) as usize)).collect()
}

/// Puts `stones` (minus `gap`) for the mover, then plays `gap`; returns the result and the report's winning line.
fn play_gap(game: &Gomoku, mover: Player, stones: &[Xy], gap: Xy, others: &[Xy]) -> (Option<GameResult>, Vec<Xy>) {
    let own: Vec<Xy> = stones.iter().copied().filter(|&c| c != gap).collect();
    let (black, white) = if mover == Player::First { (&own[..], others) } else { (others, &own[..]) };
    let mut state = game.setup(black, white, mover).expect("valid position");
    let mv = game.move_at(&state, Cell::new(gap.0, gap.1)).expect("legal");
    let report = game.describe_move(&state, mv);
    assert_eq!(report.placed, Some(Cell::new(gap.0, gap.1)));
    assert_eq!(report.player, Some(mover));
    game.make(&mut state, mv);
    let mut cells: Vec<Xy> = report.winning_line.iter().map(|c| (c.x, c.y)).collect();
    cells.sort_unstable();
    (game.outcome(&state).map(|o| o.result), cells)
}

fn sorted(mut cells: Vec<Xy>) -> Vec<Xy> {
    cells.sort_unstable();
    cells
}

#[test]
fn fives_win_in_every_direction_and_at_the_edges() {
    for rule in WinRule::ALL {
        for size in [7, 15, 19] {
            let Ok(game) = Gomoku::new(size, rule) else { continue };
            let n = size - 1;
            let lines = [
                line((0, 0), 1, 0, 5),
                line((n - 4, n), 1, 0, 5),
                line((0, 0), 0, 1, 5),
                line((n, n - 4), 0, 1, 5),
                line((0, 0), 1, 1, 5),
                line((n - 4, n - 4), 1, 1, 5),
                line((n, 0), -1, 1, 5),
                line((4, n - 4), -1, 1, 5),
                line((1, 2), 1, 1, 5),
                line((size / 2, 1), 0, 1, 5),
            ];
            for cells in &lines {
                for (gap_index, mover) in [(0, Player::First), (2, Player::Second), (4, Player::First)] {
                    let (result, won) = play_gap(&game, mover, cells, cells[gap_index], &[]);
                    assert_eq!(result, Some(GameResult::Win(mover)), "{rule:?} {size} {cells:?}");
                    assert_eq!(won, sorted(cells.clone()), "{rule:?} {size} {cells:?}");
                }
            }
        }
    }
}

#[test]
fn overlines_under_each_rule() {
    let six = line((2, 7), 1, 0, 6);
    for rule in WinRule::ALL {
        let game = Gomoku::new(15, rule).expect("rules");
        for mover in Player::BOTH {
            let gap = six[3];
            if rule == WinRule::Renju && mover == Player::First {
                let own: Vec<Xy> = six.iter().copied().filter(|&c| c != gap).collect();
                let state = game.setup(&own, &[], mover).expect("position");
                assert_eq!(
                    game.move_at(&state, Cell::new(gap.0, gap.1)),
                    Err(tabula_games::MoveError::Forbidden("overline"))
                );
                continue;
            }
            let (result, won) = play_gap(&game, mover, &six, gap, &[]);
            match rule {
                WinRule::ExactFive => assert_eq!((result, won.len()), (None, 0), "{mover:?}: the game goes on"),
                _ => assert_eq!((result, won), (Some(GameResult::Win(mover)), sorted(six.clone())), "{rule:?}"),
            }
        }
    }
}

#[test]
fn caro_five_closed_at_both_ends_does_not_win_but_the_edge_does_not_close() {
    let game = Gomoku::new(15, WinRule::Caro).expect("rules");
    let five = line((3, 5), 1, 0, 5);
    let (result, _) = play_gap(&game, Player::First, &five, five[2], &[(2, 5), (8, 5)]);
    assert_eq!(result, None, "closed at both ends");
    let (result, _) = play_gap(&game, Player::First, &five, five[2], &[(2, 5)]);
    assert_eq!(result, Some(GameResult::Win(Player::First)), "closed at one end only");
    let edge = line((0, 9), 1, 0, 5);
    let (result, _) = play_gap(&game, Player::Second, &edge, edge[4], &[(5, 9)]);
    assert_eq!(result, Some(GameResult::Win(Player::Second)), "the edge does not close");
    let diagonal = line((5, 3), 1, 1, 5);
    let (result, _) = play_gap(&game, Player::First, &diagonal, diagonal[0], &[(4, 2), (10, 8)]);
    assert_eq!(result, None, "closed diagonal");
    let corner = line((10, 0), 1, 1, 5);
    let (result, _) = play_gap(&game, Player::First, &corner, corner[0], &[]);
    assert_eq!(result, Some(GameResult::Win(Player::First)), "edges at both ends do not close");
    // The same closed five wins under freestyle.
    let free = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    let (result, _) = play_gap(&free, Player::First, &five, five[2], &[(2, 5), (8, 5)]);
    assert_eq!(result, Some(GameResult::Win(Player::First)));
}

#[test]
fn a_full_board_without_five_is_a_draw() {
    for rule in [WinRule::Freestyle, WinRule::ExactFive, WinRule::Caro] {
        let game = Gomoku::new(7, rule).expect("rules");
        // Colours by (x + 2y) mod 4: runs of at most two in every direction.
        let colour = |x: usize, y: usize| if (x + 2 * y) % 4 < 2 { Player::First } else { Player::Second };
        let all: Vec<Xy> = (0..7).flat_map(|y| (0..7).map(move |x| (x, y))).filter(|&c| c != (6, 6)).collect();
        let black: Vec<Xy> = all.iter().copied().filter(|&(x, y)| colour(x, y) == Player::First).collect();
        let white: Vec<Xy> = all.iter().copied().filter(|&(x, y)| colour(x, y) == Player::Second).collect();
        let mut state = game.setup(&black, &white, colour(6, 6)).expect("position");
        let mv = game.move_at(&state, Cell::new(6, 6)).expect("last point");
        game.make(&mut state, mv);
        assert_eq!(game.outcome(&state).map(|o| o.result), Some(GameResult::Draw));
        assert_eq!(game.end_reason(&state).as_deref(), Some("board full"));
    }
}

#[test]
fn notation_matches_the_renju_convention() {
    let game = Gomoku::new(15, WinRule::Renju).expect("rules");
    let state = game.initial_state();
    let centre = game.parse_move(&state, "h8").expect("centre");
    assert_eq!(game.cell_of(centre), Some(Cell::new(7, 7)));
    let corner = game.parse_move(&state, "a1").expect("corner");
    assert_eq!(game.cell_of(corner), Some(Cell::new(0, 14)));
    assert_eq!(game.format_move(corner), "a1");
    assert!(game.parse_move(&state, "z1").is_err());
}

#[test]
fn the_end_reason_names_the_length_of_the_winning_line() {
    let free = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    for (len, words) in [(5, "five in a row"), (6, "six in a row"), (7, "seven in a row")] {
        let stones = line((3, 7), 1, 0, len);
        let black: Vec<Xy> = stones.iter().copied().filter(|&c| c != stones[2]).collect();
        let white = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10)];
        let mut state = free.setup(&black, &white[..black.len().min(6)], Player::First).expect("position");
        let mv = free.move_at(&state, Cell::new(stones[2].0, stones[2].1)).expect("legal");
        free.make(&mut state, mv);
        assert_eq!(free.end_reason(&state).as_deref(), Some(words), "a line of {len}");
    }
}

#[test]
fn scores_read_as_a_chance_to_win() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    assert_eq!(game.describe_score(0, false), "50% win chance");
    assert_eq!(game.describe_score(1000, false), "73% win chance");
    assert_eq!(game.describe_score(-1000, false), "27% win chance");
    assert_eq!(game.describe_score(tabula_core::score::mated_in(4), false), "loss in 4");
}
