//! Piskvork's `.psq` game files: a `Piskvorky WxH, X:Y, R` header, one `x,y[,ms]` line per move (1-based), then
//! optional player lines and `-1`. Tabula writes the Gomocup rule bitmask as `R` (other programs write 0, which
//! reads as freestyle) and the players' descriptions after the moves. A file either reads whole or is refused
//! with the line and the reason: a malformed move line is never the silent end of the game.

use super::rules::WinRule;

/// A game read from or written to a `.psq` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PsqGame {
    /// The board's side.
    pub size: usize,
    /// The rule, from the header's last number.
    pub rule: WinRule,
    /// The moves from Black's first, as 0-based `(x, y)`.
    pub moves: Vec<(usize, usize)>,
    /// The players' lines after the moves, Black then White, when given.
    pub players: [Option<String>; 2],
}

/// Why a `.psq` file cannot be read: the 1-based line and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct PsqError {
    /// The 1-based line.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

fn error(line: usize, message: impl Into<String>) -> PsqError {
    PsqError { line, message: message.into() }
}

/// Reads a `.psq` file.
pub fn parse(text: &str) -> Result<PsqGame, PsqError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let (_, header) = lines.next().ok_or_else(|| error(1, "the file is empty"))?;
    let expected = || error(1, format!("expected a `Piskvorky 15x15, 11:11, 0` header, found `{header}`"));
    let fields: Vec<&str> = header.strip_prefix("Piskvorky").ok_or_else(expected)?.split(',').map(str::trim).collect();
    let (width, height) = fields[0].split_once(['x', 'X']).ok_or_else(expected)?;
    let size: usize = width.trim().parse().map_err(|_| expected())?;
    if height.trim().parse::<usize>().ok() != Some(size) {
        return Err(error(1, format!("only square boards can be read, not {}", fields[0])));
    }
    let rule = match fields.get(2) {
        None => WinRule::Freestyle,
        Some(code) => {
            WinRule::from_gomocup(code.parse().map_err(|_| error(1, format!("rule `{code}` is not a number")))?)
        }
    };
    let mut moves = Vec::new();
    let mut after: Vec<(usize, &str)> = Vec::new();
    for (n, line) in lines {
        let looks_like_move = line.starts_with(|c: char| c.is_ascii_digit());
        if !looks_like_move {
            if line == "-1" {
                break;
            }
            after.push((n, line));
            continue;
        }
        if let Some(&(end, _)) = after.first() {
            return Err(error(n, format!("a move after the end of the move list (line {end})")));
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let coordinate =
            |i: usize| fields.get(i).and_then(|f| f.parse::<usize>().ok()).filter(|v| (1..=size).contains(v));
        let (Some(x), Some(y)) = (coordinate(0), coordinate(1)) else {
            return Err(error(n, format!("expected a move `x,y,time` with x and y from 1 to {size}, found `{line}`")));
        };
        if fields.len() > 3 || fields.get(2).is_some_and(|t| t.parse::<u64>().is_err()) {
            return Err(error(n, format!("expected a move `x,y,time`, found `{line}`")));
        }
        moves.push((x - 1, y - 1));
    }
    let players = [after.first().map(|l| l.1.to_string()), after.get(1).map(|l| l.1.to_string())];
    Ok(PsqGame { size, rule, moves, players })
}

/// Writes a `.psq` file.
#[must_use]
pub fn format(game: &PsqGame) -> String {
    let mut out = format!("Piskvorky {0}x{0}, 11:11, {1}\n", game.size, game.rule.gomocup());
    for (x, y) in &game.moves {
        out.push_str(&format!("{},{},0\n", x + 1, y + 1));
    }
    for player in game.players.iter().flatten() {
        // A player line must not read as a move or as the end.
        let line: String = player.chars().filter(|c| !c.is_control()).collect();
        out.push_str(if line.starts_with(|c: char| c.is_ascii_digit() || c == '-') { "_" } else { "" });
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("-1\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_rule_moves_and_players() {
        let game = PsqGame {
            size: 15,
            rule: WinRule::Renju,
            moves: vec![(7, 7), (8, 8), (0, 14)],
            players: [Some("Human".into()), Some("Computer (Hard)".into())],
        };
        assert_eq!(parse(&format(&game)), Ok(game));
    }

    #[test]
    fn reads_other_programs_files() {
        let text = "Piskvorky 20x20, 6:6, 0\n10,10,0\n11,11,1046\npbrain-a.exe\npbrain-b.exe\n-1\n";
        let game = parse(text).expect("valid");
        assert_eq!((game.size, game.rule, game.moves.len()), (20, WinRule::Freestyle, 2));
        assert_eq!(game.players[1].as_deref(), Some("pbrain-b.exe"));
    }

    #[test]
    fn a_bad_line_anywhere_refuses_the_file() {
        let bad_move = parse("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,x,0\n10,10,0\n-1\n").expect_err("bad move");
        assert_eq!(bad_move.line, 3);
        let off_board = parse("Piskvorky 15x15, 11:11, 0\n16,1,0\n").expect_err("off the board");
        assert!(off_board.message.contains("from 1 to 15"), "{off_board}");
        let resumed = parse("Piskvorky 15x15, 11:11, 0\n8,8,0\nnote\n9,9,0\n").expect_err("moves after the end");
        assert_eq!(resumed.line, 4);
        assert_eq!(parse("Gomoku\n").expect_err("header").line, 1);
        assert!(parse("Piskvorky 15x20, 11:11, 0\n").is_err(), "not square");
    }
}
