//! The Gomocup/Piskvork `pbrain` protocol: reading the manager's commands.

/// A point given by the manager: `x` is the column, `y` the row from the top, both 0-based.
pub type Point = (usize, usize);

/// The most characters a command line may have; longer lines are refused, not buffered without end.
pub const MAX_LINE: usize = 4096;

/// One command from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START N`: a new game on an N x N board.
    Start(usize),
    /// `RECTSTART W,H`: a new game on a W x H board.
    RectStart(usize, usize),
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the brain moves first.
    Begin,
    /// `TURN X,Y`: the opponent played there; the brain answers.
    Turn(Point),
    /// `BOARD`: a position follows, one `X,Y,F` line each, until `DONE`; then the brain moves.
    Board,
    /// `YXBOARD` (Yixin-Board): a position follows as in `BOARD`, but the brain only takes it, without moving.
    YxBoard,
    /// `YXSTOP` (Yixin-Board): stop thinking and play the best move found so far.
    YxStop,
    /// `YXHASHCLEAR` (Yixin-Board): forget what earlier searches learned.
    YxHashClear,
    /// `YXSHOWFORBID` (Yixin-Board): list the points forbidden to Black under Renju.
    YxShowForbid,
    /// `YXSHOWINFO` (Yixin-Board): say what the engine is and what settings it takes.
    YxShowInfo,
    /// `YXNBEST N` (Yixin-Board): find the N best moves of the position (one `MESSAGE` line each, best first),
    /// then answer with the best, without playing it.
    YxNbest(usize),
    /// `SWAP2BOARD`: a swap2 opening position follows as in `BOARD`; at its `DONE` the brain answers the opening.
    Swap2Board,
    /// `X,Y,F` inside a `BOARD` block: F is 1 (own), 2 (opponent) or 3 (ignored).
    BoardLine(Point, u8),
    /// `DONE`: the end of a `BOARD` block; the brain answers.
    Done,
    /// `INFO KEY VALUE`: a setting.
    Info(String, String),
    /// `TAKEBACK X,Y`: remove the stone there.
    Takeback(Point),
    /// `ABOUT`: describe the brain.
    About,
    /// `END`: quit.
    End,
}

/// A line the brain cannot act on: an unknown command or a malformed one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// A command this brain does not know (answered with `UNKNOWN`).
    Unknown(String),
    /// A known command with bad arguments (answered with `ERROR`).
    Malformed(String),
}

impl ProtocolError {
    /// The answer line for the manager.
    #[must_use]
    pub fn reply(&self) -> String {
        match self {
            ProtocolError::Unknown(m) => format!("UNKNOWN {m}"),
            ProtocolError::Malformed(m) => format!("ERROR {m}"),
        }
    }
}

fn number(text: &str, what: &str, line: &str) -> Result<usize, ProtocolError> {
    text.trim()
        .parse()
        .map_err(|_| ProtocolError::Malformed(format!("{what} must be a non-negative number in '{line}'")))
}

fn point(args: &str, line: &str) -> Result<Point, ProtocolError> {
    let (x, y) = args.split_once(',').ok_or_else(|| ProtocolError::Malformed(format!("expected X,Y in '{line}'")))?;
    Ok((number(x, "X", line)?, number(y, "Y", line)?))
}

/// Reads one line. `in_board` says whether a `BOARD` block is open, where `X,Y,F` lines are expected.
pub fn parse(line: &str, in_board: bool) -> Result<Command, ProtocolError> {
    if line.len() > MAX_LINE {
        return Err(ProtocolError::Malformed(format!("line too long ({} characters, at most {MAX_LINE})", line.len())));
    }
    let line = line.trim();
    let (word, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let args = args.trim();
    let upper = word.to_ascii_uppercase();
    if in_board && !matches!(upper.as_str(), "DONE" | "END") {
        let parts: Vec<&str> = line.split(',').collect();
        if parts.len() != 3 {
            return Err(ProtocolError::Malformed(format!("expected X,Y,F or DONE in a BOARD block, got '{line}'")));
        }
        let field = number(parts[2], "F", line)?;
        if !(1..=3).contains(&field) {
            return Err(ProtocolError::Malformed(format!("F must be 1, 2 or 3 in '{line}'")));
        }
        return Ok(Command::BoardLine((number(parts[0], "X", line)?, number(parts[1], "Y", line)?), field as u8));
    }
    match upper.as_str() {
        "START" => Ok(Command::Start(number(args, "board size", line)?)),
        "RECTSTART" => {
            let (w, h) = point(args, line)?;
            Ok(Command::RectStart(w, h))
        }
        "RESTART" => Ok(Command::Restart),
        "BEGIN" => Ok(Command::Begin),
        "TURN" => Ok(Command::Turn(point(args, line)?)),
        "BOARD" => Ok(Command::Board),
        "YXBOARD" => Ok(Command::YxBoard),
        "SWAP2BOARD" => Ok(Command::Swap2Board),
        "YXSTOP" => Ok(Command::YxStop),
        "YXHASHCLEAR" => Ok(Command::YxHashClear),
        "YXSHOWFORBID" => Ok(Command::YxShowForbid),
        "YXSHOWINFO" => Ok(Command::YxShowInfo),
        "YXNBEST" => match number(args, "number of moves", line)? {
            0 => Err(ProtocolError::Malformed(format!("YXNBEST needs at least one move in '{line}'"))),
            n => Ok(Command::YxNbest(n)),
        },
        "DONE" => Ok(Command::Done),
        "TAKEBACK" => Ok(Command::Takeback(point(args, line)?)),
        "ABOUT" => Ok(Command::About),
        "END" => Ok(Command::End),
        "INFO" => {
            let (key, value) = args
                .split_once(char::is_whitespace)
                .ok_or_else(|| ProtocolError::Malformed(format!("expected INFO KEY VALUE in '{line}'")))?;
            Ok(Command::Info(key.to_ascii_lowercase(), value.trim().to_string()))
        }
        "" => Err(ProtocolError::Unknown("empty line".into())),
        _ => Err(ProtocolError::Unknown(format!("command '{word}'"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_command() {
        assert_eq!(parse("START 15", false), Ok(Command::Start(15)));
        assert_eq!(parse("rectstart 20,15", false), Ok(Command::RectStart(20, 15)));
        assert_eq!(parse("TURN 7,8\r", false), Ok(Command::Turn((7, 8))));
        assert_eq!(parse("BOARD", false), Ok(Command::Board));
        assert_eq!(parse("10,10,1", true), Ok(Command::BoardLine((10, 10), 1)));
        assert_eq!(parse("DONE", true), Ok(Command::Done));
        assert_eq!(parse("END", true), Ok(Command::End), "a manager may end in the middle of a block");
        assert_eq!(parse("yxboard", false), Ok(Command::YxBoard));
        assert_eq!(parse("YXNBEST 3", false), Ok(Command::YxNbest(3)));
        assert!(matches!(parse("YXNBEST 0", false), Err(ProtocolError::Malformed(_))));
        assert_eq!(parse("INFO timeout_turn 5000", false), Ok(Command::Info("timeout_turn".into(), "5000".into())));
        assert_eq!(parse("TAKEBACK 3,4", false), Ok(Command::Takeback((3, 4))));
        assert_eq!(parse("END", false), Ok(Command::End));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        assert!(matches!(parse("FLY 1", false), Err(ProtocolError::Unknown(m)) if m.contains("FLY")));
        assert!(matches!(parse("TURN 7", false), Err(ProtocolError::Malformed(m)) if m.contains("X,Y")));
        assert!(matches!(parse("TURN -1,2", false), Err(ProtocolError::Malformed(m)) if m.contains("X must")));
        assert!(matches!(parse("1,2,7", true), Err(ProtocolError::Malformed(m)) if m.contains("F must")));
        assert!(matches!(parse("TURN 1,2", true), Err(ProtocolError::Malformed(_))));
        let long = "A".repeat(MAX_LINE + 1);
        assert!(matches!(parse(&long, false), Err(ProtocolError::Malformed(m)) if m.contains("too long")));
        assert_eq!(parse("START x", false).map_err(|e| e.reply().starts_with("ERROR")), Err(true));
    }
}
