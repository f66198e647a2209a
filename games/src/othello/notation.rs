//! Othello notation: squares `a1`..`h8` (columns a-h, rows 1-8 from the top) and `pass`, f5d6 transcripts, and
//! the board string of one character per square followed by the side to move (`X`/`*` Black, `O` White, `-`/`.`
//! empty), as in the FFO `.obf` files.

use tabula_core::{Game, Player};

use super::{Move, Othello, Position};

/// Text that could not be read: where (1-based character position) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at character {position}: {message}")]
pub struct NotationError {
    /// The 1-based position of the offending character in the text.
    pub position: usize,
    /// What was wrong.
    pub message: String,
}

impl NotationError {
    fn new(position: usize, message: impl Into<String>) -> NotationError {
        NotationError { position, message: message.into() }
    }
}

/// A move in notation: `pass`, or column letter and row number (`f5`, `j10`).
#[must_use]
pub fn format_move(n: usize, mv: Move) -> String {
    match mv.square() {
        None => "pass".to_string(),
        Some(sq) => format!("{}{}", char::from(b'a' + (sq % n) as u8), sq / n + 1),
    }
}

/// Reads one square or `pass` (any case, surrounding blanks ignored) for an `n` x `n` board.
pub fn parse_square(n: usize, text: &str) -> Result<Move, NotationError> {
    let start = text.len() - text.trim_start().len();
    let token = text.trim();
    if token.eq_ignore_ascii_case("pass") {
        return Ok(Move::PASS);
    }
    match read_square(n, token.as_bytes(), 0) {
        Ok((mv, used)) if used == token.len() => Ok(mv),
        Ok((_, used)) => {
            Err(NotationError::new(start + used + 1, format!("unexpected text after square in `{token}`")))
        }
        Err(e) => Err(NotationError::new(start + e.position, e.message)),
    }
}

/// Reads a square at `at` in `bytes`: returns the move and the index after it.
fn read_square(n: usize, bytes: &[u8], at: usize) -> Result<(Move, usize), NotationError> {
    let last_column = char::from(b'a' + n as u8 - 1);
    let column = match bytes.get(at) {
        Some(c) if c.is_ascii_alphabetic() => usize::from(c.to_ascii_lowercase() - b'a'),
        Some(c) => {
            return Err(NotationError::new(
                at + 1,
                format!("expected a column a-{last_column}, found `{}`", *c as char),
            ));
        }
        None => return Err(NotationError::new(at + 1, "expected a square, found the end of the text")),
    };
    if column >= n {
        return Err(NotationError::new(
            at + 1,
            format!("column `{}` is off the board (a-{last_column})", bytes[at] as char),
        ));
    }
    let digits = bytes[at + 1..].iter().take_while(|b| b.is_ascii_digit()).count().min(2);
    let row: usize =
        std::str::from_utf8(&bytes[at + 1..at + 1 + digits]).ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    if digits == 0 || row == 0 || row > n {
        return Err(NotationError::new(at + 2, format!("expected a row 1-{n} after the column")));
    }
    Ok((Move::at((row - 1) * n + column), at + 1 + digits))
}

/// Plays a transcript (`f5d6c3`, any case, blanks allowed, passes implicit or written as `pass` or `--`) from the start
/// and returns the moves (passes included) and the final position. Errors name the character and move number.
pub fn parse_transcript(game: &Othello, text: &str) -> Result<(Vec<Move>, Position), NotationError> {
    let bytes = text.as_bytes();
    let mut pos = game.initial_state();
    let mut moves = Vec::new();
    let mut at = 0;
    let mut played = 0;
    while at < bytes.len() {
        if bytes[at].is_ascii_whitespace() {
            at += 1;
            continue;
        }
        let (mv, next) = if bytes[at..].len() >= 4 && bytes[at..at + 4].eq_ignore_ascii_case(b"pass") {
            (Move::PASS, at + 4)
        } else if bytes[at..].starts_with(b"--") {
            (Move::PASS, at + 2)
        } else {
            read_square(game.size(), bytes, at)?
        };
        played += 1;
        if !mv.is_pass() && game.pass_is_forced(&pos) {
            moves.push(Move::PASS);
            game.make(&mut pos, Move::PASS);
        }
        if !game.is_legal(&pos, mv) {
            let why = match mv.square() {
                None => "pass is not legal here".to_string(),
                Some(_) if game.outcome(&pos).is_some() => "the game is already over".to_string(),
                Some(sq) => format!("{} is not legal here ({})", game.format_move(mv), game.illegal_reason(&pos, sq)),
            };
            return Err(NotationError::new(at + 1, format!("move {played}: {why}")));
        }
        moves.push(mv);
        game.make(&mut pos, mv);
        at = next;
    }
    Ok((moves, pos))
}

/// Writes moves as a transcript (`f5d6c3`), leaving out the passes.
#[must_use]
pub fn format_transcript(game: &Othello, moves: &[Move]) -> String {
    moves.iter().filter(|m| !m.is_pass()).map(|&m| game.format_move(m)).collect()
}

/// Reads a board string: one character per square, row by row from the top (`X` or `*` Black, `O` White, `-`
/// or `.` empty; blanks ignored), then the side to move (`X` or `O`). Errors name the character.
pub fn parse_board(game: &Othello, text: &str) -> Result<Position, NotationError> {
    let squares = game.size() * game.size();
    let (mut black, mut white) = (0u128, 0u128);
    let mut filled = 0;
    let mut side = None;
    for (i, c) in text.chars().enumerate() {
        let position = i + 1;
        if c.is_whitespace() {
            continue;
        }
        if filled < squares {
            match c {
                'X' | 'x' | '*' => black |= 1 << filled,
                'O' | 'o' => white |= 1 << filled,
                '-' | '.' => {}
                _ => {
                    return Err(NotationError::new(
                        position,
                        format!("square {}: expected X, O, - or ., found `{c}`", filled + 1),
                    ));
                }
            }
            filled += 1;
        } else if side.is_none() {
            side = Some(match c {
                'X' | 'x' | '*' => Player::First,
                'O' | 'o' => Player::Second,
                _ => {
                    return Err(NotationError::new(
                        position,
                        format!("expected the side to move (X or O), found `{c}`"),
                    ));
                }
            });
        } else {
            return Err(NotationError::new(position, format!("unexpected `{c}` after the side to move")));
        }
    }
    let end = text.chars().count() + 1;
    if filled < squares {
        return Err(NotationError::new(end, format!("expected {squares} squares, found {filled}")));
    }
    let side = side.ok_or_else(|| NotationError::new(end, "missing the side to move (X or O)"))?;
    Ok(game.position(black, white, side))
}

/// Writes a board string: the squares row by row from the top, a space, and the side to move.
#[must_use]
pub fn format_board(game: &Othello, pos: &Position) -> String {
    let squares = game.size() * game.size();
    let black = pos.discs(Player::First);
    let white = pos.discs(Player::Second);
    let mut text: String = (0..squares)
        .map(|sq| {
            if black & (1 << sq) != 0 {
                'X'
            } else if white & (1 << sq) != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    text.push(' ');
    text.push(if pos.side() == Player::First { 'X' } else { 'O' });
    text
}

impl Othello {
    /// Whether the side to move must pass (it has no placement, but the game goes on).
    #[must_use]
    pub fn pass_is_forced(&self, pos: &Position) -> bool {
        self.is_legal(pos, Move::PASS)
    }
}
