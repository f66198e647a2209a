//! Gomoku notation: points as `h8` (columns `a`, `b`, ... from the left, rows 1, 2, ... from the bottom, the Renju
//! convention) and move lists (Piskvork's `.psq` files are in [`super::psq`]). Errors say where in the text they
//! happened.

use std::fmt;

use super::{Gomoku, GomokuState, Move};
use crate::board::Cell;
use tabula_core::Game;

/// Text that could not be read, with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct NotationError {
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column (character) in that line.
    pub column: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl NotationError {
    fn at(line: usize, column: usize, message: impl Into<String>) -> NotationError {
        NotationError { line, column, message: message.into() }
    }
}

/// A point in `h8` notation; `y` counts rows from the top, the notation from the bottom.
#[must_use]
pub fn format_point(size: usize, x: usize, y: usize) -> String {
    format!("{}{}", char::from(b'a' + x as u8), size - y)
}

/// Reads a point like `h8` (case-insensitive) on a board of side `size`, returning the column and the row from the
/// top. The error's column is the 1-based character where the problem is.
pub fn parse_point(size: usize, text: &str) -> Result<(usize, usize), NotationError> {
    let mut chars = text.chars();
    let Some(letter) = chars.next() else {
        return Err(NotationError::at(1, 1, "expected a point like h8, found nothing"));
    };
    let letter = letter.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return Err(NotationError::at(1, 1, format!("expected a column letter, found `{letter}`")));
    }
    let x = usize::from(letter as u8 - b'a');
    if x >= size {
        let last = char::from(b'a' + size as u8 - 1);
        return Err(NotationError::at(1, 1, format!("column `{letter}` is off the board (a to {last})")));
    }
    let digits = chars.as_str();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(NotationError::at(1, 2, format!("expected a row number after `{letter}`, found `{digits}`")));
    }
    let row: usize = digits.parse().map_err(|_| NotationError::at(1, 2, format!("bad row number `{digits}`")))?;
    if row == 0 || row > size {
        return Err(NotationError::at(1, 2, format!("row {row} is off the board (1 to {size})")));
    }
    Ok((x, size - row))
}

/// Reads a move list such as `h8 i9 j10` or `h8i9j10` (commas and spaces separate) and plays it from the start,
/// failing at the first unreadable or illegal move with its position.
pub fn parse_moves(game: &Gomoku, text: &str) -> Result<(Vec<Move>, GomokuState), NotationError> {
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_whitespace() || chars[i] == ',' || chars[i] == ';' {
                i += 1;
                continue;
            }
            let start = i;
            i += 1;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let token: String = chars[start..i].iter().collect();
            let (x, y) = parse_point(game.size(), &token)
                .map_err(|e| NotationError::at(line_no + 1, start + e.column, e.message))?;
            let mv = crate::board::BoardGame::move_at(game, &state, Cell::new(x, y))
                .map_err(|why| NotationError::at(line_no + 1, start + 1, format!("`{token}` is not legal: {why}")))?;
            game.make(&mut state, mv);
            moves.push(mv);
        }
    }
    Ok((moves, state))
}

/// A move list in `h8` notation, separated by spaces.
#[must_use]
pub fn format_moves(game: &Gomoku, moves: &[Move]) -> String {
    moves.iter().map(|&m| game.format_move(m)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::WinRule;

    #[test]
    fn points_round_trip() {
        assert_eq!(parse_point(15, "h8"), Ok((7, 7)));
        assert_eq!(parse_point(15, "A1"), Ok((0, 14)));
        assert_eq!(parse_point(15, "o15"), Ok((14, 0)));
        assert_eq!(format_point(15, 7, 7), "h8");
        assert_eq!(format_point(19, 0, 0), "a19");
        assert!(parse_point(15, "p1").is_err());
        assert!(parse_point(15, "a16").is_err());
        assert_eq!(parse_point(15, "a0").map_err(|e| e.column), Err(2));
        assert!(parse_point(15, "").is_err());
    }

    #[test]
    fn move_lists_and_errors() {
        let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
        let (moves, _) = parse_moves(&game, "h8 i9,j10\nh9i10").expect("valid");
        assert_eq!(format_moves(&game, &moves), "h8 i9 j10 h9 i10");
        let err = parse_moves(&game, "h8 i9\nh8").expect_err("occupied");
        assert_eq!((err.line, err.column), (2, 1));
        assert!(err.message.contains("occupied"), "{err}");
        let err = parse_moves(&game, "h8 z9").expect_err("off board");
        assert_eq!((err.line, err.column), (1, 4));
    }
}
