//! The manager's side of the Gomocup brain protocol, as Piskvork speaks it: `START` and `INFO rule` for a new
//! board, rule or game, the time limits, then `BEGIN` on an empty board, `TURN x,y` when the position is the
//! brain's last one plus the opponent's move, a `BOARD` block otherwise; then the brain's `x,y`. (Incremental
//! turns keep a brain's own state: AIWine, told a `BOARD` every move, came to play on occupied squares.)

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::{Connection, EngineError, EngineMove, EnginePosition, EngineRules, Protocol, Wait, grace};
use crate::board::Cell;

/// How long a brain may take to start a game (loading its weights).
const START_TIME: Duration = Duration::from_secs(15);

/// How long a brain asked to stop (`YXSTOP`) may take to answer.
const STOP_TIME: Duration = Duration::from_millis(500);

/// Effectively no match clock: the turn's limit is the one that counts.
const NO_MATCH_LIMIT: u64 = 1_000_000_000;

pub(super) fn best_move(
    conn: &mut Connection,
    position: &EnginePosition,
    turn: Duration,
    stop: &AtomicBool,
) -> Result<EngineMove, EngineError> {
    let EngineRules::Gomocup(rule) = position.rules else {
        let needs = position.rules.protocol();
        return Err(EngineError::WrongProtocol { name: conn.spec().name.clone(), speaks: Protocol::Pbrain, needs });
    };
    conn.start()?;
    let (width, height) = position.size;
    let setup = format!("{width}x{height} rule {rule}");
    let new_game = position.moves.is_empty() && conn.known.as_ref().is_none_or(|known| !known.is_empty());
    if conn.told.as_deref() != Some(setup.as_str()) || new_game {
        conn.send(&if width == height { format!("START {width}") } else { format!("RECTSTART {width},{height}") })?;
        let line = next_reply(conn, Wait::new(START_TIME), stop)?;
        if line != "OK" {
            return Err(protocol_error(conn, &line, "START wants OK (does it play this board size?)"));
        }
        conn.send(&format!("INFO rule {rule}"))?;
        conn.told = Some(setup);
        conn.known = Some(Vec::new());
    }
    let turn_ms = u64::try_from(turn.as_millis()).unwrap_or(u64::MAX).max(1);
    for info in [
        format!("INFO timeout_turn {turn_ms}"),
        format!("INFO timeout_match {NO_MATCH_LIMIT}"),
        format!("INFO time_left {NO_MATCH_LIMIT}"),
    ] {
        conn.send(&info)?;
    }
    let stones: Vec<(usize, Cell)> =
        position.moves.iter().enumerate().filter_map(|(i, cell)| Some((i, (*cell)?))).collect();
    let known = conn.known.take().unwrap_or_default();
    let next = position.moves.split_last().filter(|(_, before)| *before == known.as_slice()).and_then(|(mv, _)| *mv);
    if stones.is_empty() {
        conn.send("BEGIN")?;
    } else if let Some(cell) = next {
        conn.send(&format!("TURN {},{}", cell.x, cell.y))?;
    } else {
        let own = position.moves.len() % 2;
        conn.send("BOARD")?;
        for (i, cell) in stones {
            conn.send(&format!("{},{},{}", cell.x, cell.y, if i % 2 == own { 1 } else { 2 }))?;
        }
        conn.send("DONE")?;
    }
    let line = match next_reply(conn, Wait::new(turn + grace(turn)), stop) {
        Err(stopped @ EngineError::Stopped { .. }) => {
            // Yixin-style brains answer at once; for the others the stop stands.
            conn.send("YXSTOP")?;
            next_reply(conn, Wait::new(STOP_TIME), &AtomicBool::new(false)).map_err(|_| stopped)?
        }
        other => other?,
    };
    let cell = parse_cell(&line, position.size).map_err(|problem| protocol_error(conn, &line, problem))?;
    let mut known = position.moves.clone();
    known.push(Some(cell));
    conn.known = Some(known);
    Ok(EngineMove { cell: Some(cell), eval: None })
}

/// The next line that is not a `MESSAGE`, `DEBUG` or `UNKNOWN` aside.
fn next_reply(conn: &mut Connection, wait: Wait, stop: &AtomicBool) -> Result<String, EngineError> {
    loop {
        let line = conn.read_line(wait, stop)?;
        let word = line.split_whitespace().next().unwrap_or_default().to_ascii_uppercase();
        if !matches!(word.as_str(), "MESSAGE" | "DEBUG" | "UNKNOWN") {
            return Ok(line);
        }
    }
}

/// A brain's `x,y` on a board of `size`.
fn parse_cell(line: &str, size: (usize, usize)) -> Result<Cell, String> {
    let (x, y) = line.split_once(',').ok_or("a move is x,y")?;
    let number = |s: &str| s.trim().parse::<usize>().map_err(|_| format!("{s:?} is not a coordinate"));
    let cell = Cell::new(number(x)?, number(y)?);
    if cell.x >= size.0 || cell.y >= size.1 {
        return Err(format!("{},{} is off the {}x{} board", cell.x, cell.y, size.0, size.1));
    }
    Ok(cell)
}

fn protocol_error(conn: &Connection, line: &str, problem: impl Into<String>) -> EngineError {
    EngineError::Protocol { name: conn.spec().name.clone(), line: line.to_string(), problem: problem.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_on_the_board_and_nothing_else_is() {
        assert_eq!(parse_cell("7,8", (15, 15)), Ok(Cell::new(7, 8)));
        assert_eq!(parse_cell(" 0 , 14 ", (15, 15)), Ok(Cell::new(0, 14)));
        assert!(parse_cell("15,0", (15, 15)).is_err_and(|e| e.contains("off the 15x15")));
        assert!(parse_cell("7 7", (15, 15)).is_err());
        assert!(parse_cell("a,1", (15, 15)).is_err());
    }
}
