//! The GUI's side of the NBoard protocol: `nboard 2` once, then per move the game as GGF with a clock that
//! gives about the turn's time per move, a `ping` to skip anything stale, `go`, and the engine's `=== move`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::{Connection, EngineError, EngineMove, EnginePosition, Wait, grace};
use crate::board::Cell;
use crate::ggf::{self, GgfGame};

/// The standard start position, as GGF writes it.
const START: &str = "---------------------------O*------*O---------------------------";

/// How long an engine may take to answer a `ping` (it may still be loading).
const PING_TIME: Duration = Duration::from_secs(15);

pub(super) fn best_move(
    conn: &mut Connection,
    position: &EnginePosition,
    turn: Duration,
    stop: &AtomicBool,
) -> Result<EngineMove, EngineError> {
    if conn.start()? {
        conn.send("nboard 2")?;
    }
    let moves: Vec<String> = position.moves.iter().map(|cell| cell.map_or_else(|| "pass".into(), square)).collect();
    let placed = position.moves.iter().filter(|m| m.is_some()).count();
    let own_moves_left = (60usize.saturating_sub(placed)).div_ceil(2).max(1) as u64;
    let clock = u64::try_from(turn.as_millis()).unwrap_or(u64::MAX / 64).max(1) * own_moves_left;
    let game = GgfGame {
        size: 8,
        board: START.into(),
        black_to_move: true,
        moves,
        players: [None, None],
        time_ms: Some(clock),
        move_ms: Vec::new(),
    };
    conn.send(&format!("set game {}", ggf::format(&game)))?;
    let ping = position.moves.len() + 1;
    conn.send(&format!("ping {ping}"))?;
    let pong = format!("pong {ping}");
    let wait = Wait::new(PING_TIME);
    while conn.read_line(wait, stop)? != pong {}
    conn.send("go")?;
    let wait = Wait::new(turn + grace(turn));
    loop {
        let line = conn.read_line(wait, stop)?;
        if let Some(answer) = line.strip_prefix("===") {
            return parse_answer(answer).map_err(|problem| EngineError::Protocol {
                name: conn.spec().name.clone(),
                line: line.clone(),
                problem,
            });
        }
    }
}

/// A square's name as NBoard writes it (`F5`).
fn square(cell: Cell) -> String {
    format!("{}{}", char::from(b'A' + cell.x as u8), cell.y + 1)
}

/// What follows `===`: `F5/1.5/0.3`, `PA` for a pass.
fn parse_answer(answer: &str) -> Result<EngineMove, String> {
    let mut parts = answer.trim().split('/');
    let mv = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
    let eval = parts.next().and_then(|e| e.trim().parse::<f64>().ok()).filter(|e| e.is_finite());
    if mv == "pa" || mv == "pass" {
        return Ok(EngineMove { cell: None, eval });
    }
    let bytes = mv.as_bytes();
    match bytes {
        [col @ b'a'..=b'h', row @ b'1'..=b'8'] => {
            Ok(EngineMove { cell: Some(Cell::new(usize::from(col - b'a'), usize::from(row - b'1'))), eval })
        }
        _ => Err(format!("{mv:?} is not a square of the 8x8 board")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_with_their_evaluation_and_bad_squares_refused() {
        let f5 = parse_answer(" F5/1.50/0.3").expect("a move");
        assert_eq!((f5.cell, f5.eval), (Some(Cell::new(5, 4)), Some(1.5)));
        assert_eq!(parse_answer(" PA").expect("a pass").cell, None);
        assert_eq!(parse_answer(" d3").expect("no evaluation").eval, None);
        assert!(parse_answer(" I9/0").is_err());
        assert!(parse_answer("").is_err());
        assert_eq!(square(Cell::new(5, 4)), "F5");
    }
}
