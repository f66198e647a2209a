//! The Generic Game Format (GGF) of Othello servers and NBoard: `(;GM[Othello]...BO[8 ... *]B[d3]W[c5]...;)`.
//! This module reads and writes the text; the Othello rules check the moves.

use std::fmt::Write as _;

/// An Othello game as GGF describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfGame {
    /// The board's side length (`TY` or the number in `BO`).
    pub size: usize,
    /// The start position, row by row from the top: `*` black, `O` white, `-` empty (`X` and `.` are read too).
    pub board: String,
    /// Whether Black moves first from that position.
    pub black_to_move: bool,
    /// The moves in order, each as written (`d3`, `pass`), without the evaluation and time annotations.
    pub moves: Vec<String>,
    /// The players' names, Black then White, when given.
    pub players: [Option<String>; 2],
    /// Each player's time for the game (`TI[5:00]`), in milliseconds, when given.
    pub time_ms: Option<u64>,
    /// The time each move took (`B[f5/0.5/1.2]`: 1.2 s), in milliseconds, 0 where not given; one per move.
    pub move_ms: Vec<u64>,
}

/// Where and why a GGF text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("GGF, character {offset}: {message}")]
pub struct GgfError {
    /// The byte offset of the problem in the text.
    pub offset: usize,
    /// What was wrong.
    pub message: String,
}

fn error(offset: usize, message: impl Into<String>) -> GgfError {
    GgfError { offset, message: message.into() }
}

/// Reads one GGF game. Unknown properties are skipped; the board (`BO`) is required.
pub fn parse(text: &str) -> Result<GgfGame, GgfError> {
    let start = text.find("(;").ok_or_else(|| error(0, "a game must start with '(;'"))?;
    let mut pos = start + 2;
    let bytes = text.as_bytes();
    let mut board = None;
    let mut moves = Vec::new();
    let mut players = [None, None];
    let mut time_ms = None;
    let mut move_ms = Vec::new();
    loop {
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if text[pos..].starts_with(";)") {
            break;
        }
        if pos >= bytes.len() {
            return Err(error(pos, "the game is not closed with ';)'"));
        }
        let name_start = pos;
        while pos < bytes.len() && bytes[pos].is_ascii_uppercase() {
            pos += 1;
        }
        if pos == name_start || pos >= bytes.len() || bytes[pos] != b'[' {
            return Err(error(pos, "expected a property such as BO[...]"));
        }
        let name = &text[name_start..pos];
        let value_start = pos + 1;
        let (value_end, value) = property_value(text, value_start).ok_or_else(|| error(pos, "unclosed '['"))?;
        let value = value.trim();
        match name {
            "BO" => board = Some(parse_board(value, value_start)?),
            "B" | "W" => {
                let mv = value.split('/').next().unwrap_or("").trim().to_ascii_lowercase();
                if mv.is_empty() {
                    return Err(error(value_start, format!("empty move in {name}[]")));
                }
                moves.push(if mv == "pa" { "pass".to_string() } else { mv });
                let seconds = value.split('/').nth(2).map(str::trim).filter(|t| !t.is_empty());
                let seconds = seconds.map(|t| clock_ms(t).ok_or_else(|| error(value_start, format!("bad time '{t}'"))));
                move_ms.push(seconds.transpose()?.unwrap_or(0));
            }
            "PB" => players[0] = Some(value.to_string()),
            "PW" => players[1] = Some(value.to_string()),
            "TI" => {
                let total = value.split('/').next().unwrap_or("").trim();
                time_ms = Some(clock_ms(total).ok_or_else(|| error(value_start, format!("bad time '{total}' in TI")))?);
            }
            _ => {}
        }
        pos = value_end + 1;
    }
    let (size, board, black_to_move) = board.ok_or_else(|| error(start, "the game has no board (BO[...])"))?;
    Ok(GgfGame { size, board, black_to_move, moves, players, time_ms, move_ms })
}

/// A GGF time, `[[h:]m:]s` with fractional seconds allowed, in milliseconds.
#[must_use]
pub fn clock_ms(text: &str) -> Option<u64> {
    let mut seconds = 0.0;
    for part in text.split(':') {
        let value: f64 = part.trim().parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0)?;
        seconds = seconds * 60.0 + value;
    }
    (seconds < 1e9).then(|| (seconds * 1000.0).round() as u64)
}

/// A time as GGF writes it: `m:ss` with fractions where needed.
fn clock_text(ms: u64) -> String {
    let (minutes, seconds) = (ms / 60_000, (ms % 60_000) as f64 / 1000.0);
    if minutes > 0 { format!("{minutes}:{seconds:02}") } else { format!("{seconds}") }
}

/// The value that starts at `start` (just after its `[`): where its closing `]` is, and the text with the escapes
/// `\]` and `\\` undone.
fn property_value(text: &str, start: usize) -> Option<(usize, String)> {
    let mut value = String::new();
    let mut chars = text[start..].char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            ']' => return Some((start + i, value)),
            '\\' => value.push(chars.next()?.1),
            other => value.push(other),
        }
    }
    None
}

/// A name made safe inside `[...]`: `]` and `\` are escaped with a backslash.
fn escaped(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

fn parse_board(value: &str, offset: usize) -> Result<(usize, String, bool), GgfError> {
    let mut parts = value.split_whitespace();
    let size: usize = parts
        .next()
        .and_then(|s| s.parse().ok())
        .filter(|s| (4..=16).contains(s))
        .ok_or_else(|| error(offset, "BO must start with the board size"))?;
    let rest: Vec<&str> = parts.collect();
    let (side, squares) = rest.split_last().ok_or_else(|| error(offset, "BO has no squares"))?;
    let squares: String = squares.concat();
    if squares.chars().count() != size * size {
        return Err(error(offset, format!("BO has {} squares, expected {}", squares.chars().count(), size * size)));
    }
    if let Some(bad) = squares.chars().find(|c| !matches!(c, '*' | 'X' | 'x' | 'O' | 'o' | '-' | '.')) {
        return Err(error(offset, format!("BO has an unknown square '{bad}'")));
    }
    let squares: String = squares
        .chars()
        .map(|c| match c {
            'X' | 'x' => '*',
            'o' => 'O',
            '.' => '-',
            other => other,
        })
        .collect();
    let black_to_move = match *side {
        "*" => true,
        "O" | "o" => false,
        other => return Err(error(offset, format!("BO must end with the side to move (* or O), not '{other}'"))),
    };
    Ok((size, squares, black_to_move))
}

/// Writes a game as GGF.
#[must_use]
pub fn format(game: &GgfGame) -> String {
    let mut out = format!("(;GM[Othello]TY[{}]", game.size);
    for (tag, name) in ["PB", "PW"].iter().zip(&game.players) {
        if let Some(name) = name {
            let _ = write!(out, "{tag}[{}]", escaped(name));
        }
    }
    if let Some(ms) = game.time_ms {
        let _ = write!(out, "TI[{}]", clock_text(ms));
    }
    let _ = write!(out, "BO[{} {} {}]", game.size, game.board, if game.black_to_move { '*' } else { 'O' });
    let mut black = game.black_to_move;
    for (i, mv) in game.moves.iter().enumerate() {
        let mv = if mv == "pass" { "PA" } else { mv };
        let _ = match game.move_ms.get(i).copied().filter(|&ms| ms > 0) {
            Some(ms) => write!(out, "{}[{mv}//{}]", if black { 'B' } else { 'W' }, clock_text(ms)),
            None => write!(out, "{}[{mv}]", if black { 'B' } else { 'W' }),
        };
        black = !black;
    }
    out.push_str(";)");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------O*------*O---------------------------";

    #[test]
    fn reads_nboard_style_game_with_pass() {
        let text =
            format!("(;GM[Othello]PC[NBoard]PB[me]PW[you]RE[?]TI[5:00]TY[8]BO[8 {START} *]B[F5//1.2]W[d6]B[PA];)");
        let g = parse(&text).expect("valid");
        assert_eq!(g.size, 8);
        assert_eq!(g.board, START);
        assert!(g.black_to_move);
        assert_eq!(g.moves, ["f5", "d6", "pass"]);
        assert_eq!(g.players, [Some("me".into()), Some("you".into())]);
        assert_eq!(g.time_ms, Some(300_000));
        assert_eq!(g.move_ms, [1200, 0, 0]);
        assert_eq!(parse(&format(&g)).expect("round trip"), g);
    }

    #[test]
    fn names_with_brackets_and_backslashes_round_trip_without_adding_moves() {
        let mut g = parse(&format!("(;GM[Othello]BO[8 {START} *]B[f5];)")).expect("valid");
        g.players = [Some("X]B[f5]C[".into()), Some("back\\slash\\".into())];
        let text = format(&g);
        let again = parse(&text).expect("round trip");
        assert_eq!(again.moves, ["f5"], "{text}");
        assert_eq!(again, g);
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(parse("GM[Othello]").expect_err("no start").offset, 0);
        let missing_board = parse("(;GM[Othello]B[f5];)").expect_err("no board");
        assert!(missing_board.message.contains("BO"));
        let short = parse("(;BO[8 ---- *];)").expect_err("short board");
        assert!(short.message.contains("expected 64"), "{short}");
        let unclosed = parse("(;BO[8 ").expect_err("unclosed");
        assert!(unclosed.message.contains("unclosed"));
        let side = parse(&format!("(;BO[8 {START} X];)")).expect_err("bad side");
        assert!(side.message.contains("side to move"));
        let open = parse(&format!("(;BO[8 {START} *]B[f5]")).expect_err("not closed");
        assert!(open.message.contains("not closed"));
    }
}
