//! `pbrain-tabula`: Tabula's Gomoku engine behind the Gomocup/Piskvork protocol.
//!
//! One thread reads the manager's lines; the main loop answers them and hands searches to a thinking thread, so
//! a command that arrives while the engine thinks (END above all) is read at once and none is lost.

pub mod protocol;

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::time::Duration;

use tabula_core::{Game, Level, Player};
use tabula_games::engine::TABLE_MEGABYTES;
use tabula_games::gomoku::{Gomoku, GomokuState, WinRule};
use tabula_games::{BoardGame, Cell, Engine};

use protocol::{Command, MAX_LINE, Point, ProtocolError};

/// What the main loop waits for: a line from the manager, the end of input, or a finished search.
enum Event {
    Line(String),
    Eof,
    Thought(Option<Point>, Box<Engine<Gomoku>>),
}

/// The time rules the manager gave with `INFO`, in milliseconds (0 = not given).
#[derive(Clone, Copy, Debug)]
struct Clock {
    timeout_turn: u64,
    timeout_match: u64,
    time_left: u64,
}

impl Clock {
    /// The time to spend on the next move: within the turn limit and a share of the match time left, less a
    /// safety margin for reading, writing and the search's own stop latency.
    fn budget(&self, stones: usize) -> Duration {
        let mut ms = if self.timeout_turn == 0 { 5_000 } else { self.timeout_turn };
        if self.timeout_match > 0 && self.time_left > 0 {
            let moves_left = 40u64.saturating_sub(stones as u64 / 2).max(10);
            ms = ms.min(self.time_left / moves_left);
        }
        let margin = (ms / 10).max(60);
        Duration::from_millis(ms.saturating_sub(margin).max(20))
    }
}

/// The brain's game: rules, position and the moves that built it.
struct Brain {
    win: WinRule,
    size: usize,
    game: Option<Gomoku>,
    state: Option<GomokuState>,
    board_block: Option<Vec<(Point, u8)>>,
    clock: Clock,
    table_megabytes: usize,
    engine: Option<Box<Engine<Gomoku>>>,
}

/// The transposition table's size for an `INFO max_memory` in bytes (0 = no limit): half of what the manager
/// allows, leaving room for the rest of the brain, and at most 1 GiB.
fn table_megabytes(max_memory: u64) -> usize {
    if max_memory == 0 { TABLE_MEGABYTES } else { (max_memory / 2 / (1 << 20)).min(1024) as usize }
}

/// The win rule of an `INFO rule` bitmask: 1 exact five, 4 Renju, 8 Caro; 2 (continuous game) is ignored.
fn win_rule(mask: u32) -> WinRule {
    if mask & 8 != 0 {
        WinRule::Caro
    } else if mask & 4 != 0 {
        WinRule::Renju
    } else if mask & 1 != 0 {
        WinRule::ExactFive
    } else {
        WinRule::Freestyle
    }
}

impl Brain {
    fn new() -> Brain {
        Brain {
            win: WinRule::Freestyle,
            size: 0,
            game: None,
            state: None,
            board_block: None,
            clock: Clock { timeout_turn: 5_000, timeout_match: 0, time_left: 0 },
            table_megabytes: TABLE_MEGABYTES,
            engine: None,
        }
    }

    /// Starts a new game on a `size` board with the current rule.
    fn start(&mut self, size: usize) -> String {
        match Gomoku::new(size, self.win) {
            Ok(game) => {
                self.size = size;
                self.state = Some(game.initial_state());
                self.engine = Some(Box::new(Engine::with_table(game.clone(), self.table_megabytes)));
                self.game = Some(game);
                "OK".into()
            }
            Err(e) => format!("ERROR {e}"),
        }
    }

    fn game_and_state(&mut self) -> Result<(&Gomoku, &mut GomokuState), String> {
        match (&self.game, &mut self.state) {
            (Some(g), Some(s)) => Ok((g, s)),
            _ => Err("ERROR no game started (send START first)".into()),
        }
    }

    /// Places a stone for the side to move; the opponent's move is recorded even where our rules would forbid
    /// it (the manager referees), but never on an occupied point or off the board.
    fn place(&mut self, (x, y): Point) -> Result<(), String> {
        let (game, state) = self.game_and_state()?;
        let (w, h) = game.board_size();
        if x >= w || y >= h {
            return Err(format!("ERROR {x},{y} is off the {w}x{h} board"));
        }
        if game.stone(state, Cell::new(x, y)).is_some() {
            return Err(format!("ERROR {x},{y} is occupied"));
        }
        if game.outcome(state).is_some() {
            return Err("ERROR the game is already over".into());
        }
        let mv = game.move_xy(x, y).ok_or_else(|| format!("ERROR {x},{y} is off the board"))?;
        game.make(state, mv);
        Ok(())
    }

    /// Applies an `INFO` setting; unknown keys are ignored, as the protocol asks.
    fn info(&mut self, key: &str, value: &str) -> Option<String> {
        let number = || value.parse::<u64>().map_err(|_| format!("ERROR INFO {key} needs a number, got '{value}'"));
        let result = match key {
            "timeout_turn" => number().map(|v| self.clock.timeout_turn = v),
            "timeout_match" => number().map(|v| self.clock.timeout_match = v),
            "time_left" => number().map(|v| self.clock.time_left = v),
            "max_memory" => number().map(|v| {
                let megabytes = table_megabytes(v);
                if megabytes != self.table_megabytes {
                    self.table_megabytes = megabytes;
                    if let Some(game) = &self.game {
                        self.engine = Some(Box::new(Engine::with_table(game.clone(), megabytes)));
                    }
                }
            }),
            "rule" => number().map(|v| {
                let rule = win_rule(v as u32);
                if rule != self.win {
                    self.win = rule;
                    if self.size > 0 {
                        // Rules are part of the game value: rebuild it, keeping nothing of the old position.
                        self.start(self.size);
                    }
                }
            }),
            _ => Ok(()),
        };
        result.err()
    }

    /// Rebuilds the position from a `BOARD` block: 1 = own stones, 2 = the opponent's, 3 ignored. The side to
    /// move is us; equal counts make us Black. Forbidden points depend on the position alone, so the order of the
    /// lines (move order under Renju) needs no replay. The engine keeps its table: its entries are keyed by
    /// position. A malformed block leaves the position as it was.
    fn set_board(&mut self, lines: &[(Point, u8)]) -> Result<(), String> {
        let size = self.size;
        if self.game.is_none() {
            return Err("ERROR no game started (send START first)".into());
        }
        let own = lines.iter().filter(|l| l.1 == 1).count();
        let theirs = lines.iter().filter(|l| l.1 == 2).count();
        let me = if own == theirs { Player::First } else { Player::Second };
        if own != theirs && own + 1 != theirs {
            return Err(format!("ERROR {own} own and {theirs} opponent stones cannot be a position with us to move"));
        }
        let (game, _) = self.game_and_state()?;
        let game = game.clone();
        let mut black = Vec::new();
        let mut white = Vec::new();
        for &((x, y), field) in lines.iter().filter(|l| l.1 != 3) {
            if x >= size || y >= size {
                return Err(format!("ERROR {x},{y} is off the board"));
            }
            let owner = if field == 1 { me } else { me.opponent() };
            if owner == Player::First { black.push((x, y)) } else { white.push((x, y)) }
        }
        let state = game.setup(&black, &white, me).ok_or_else(|| "ERROR a point is given twice".to_string())?;
        self.state = Some(state);
        Ok(())
    }

    /// The level the brain plays at: the hardest configured level's knowledge, within the clock.
    fn level(&self) -> Level {
        let stones = self.state.as_ref().map_or(0, |s| s.stones());
        Level {
            name: "pbrain".into(),
            depth: 40,
            time_ms: Some(self.clock.budget(stones).as_millis() as u64),
            randomness: 0,
            exact_empties: None,
        }
    }
}

/// Runs the protocol on the given input and output until `END` or the end of input.
pub fn run(input: impl BufRead + Send + 'static, mut output: impl Write) -> std::io::Result<()> {
    let (events, inbox) = mpsc::channel();
    spawn_reader(input, events.clone());
    let mut brain = Brain::new();
    let mut pending: VecDeque<String> = VecDeque::new();
    let mut thinking: Option<Arc<AtomicBool>> = None;
    let mut input_ended = false;
    loop {
        let event = if thinking.is_none()
            && let Some(line) = pending.pop_front()
        {
            Event::Line(line)
        } else if thinking.is_none() && input_ended {
            return Ok(());
        } else {
            match inbox.recv() {
                Ok(e) => e,
                Err(_) => return Ok(()),
            }
        };
        match event {
            // Answer what was asked before the input ended, then quit.
            Event::Eof => input_ended = true,
            Event::Thought(answer, engine) => {
                thinking = None;
                brain.engine = Some(engine);
                match answer {
                    Some((x, y)) => match brain.place((x, y)) {
                        Ok(()) => writeln!(output, "{x},{y}")?,
                        Err(e) => writeln!(output, "{e}")?,
                    },
                    None => writeln!(output, "ERROR no legal move")?,
                }
                output.flush()?;
            }
            Event::Line(line) => {
                if let Some(stop) = &thinking {
                    // Busy: END stops the search at once unless earlier commands still wait; everything else
                    // waits its turn.
                    if pending.is_empty() && line.trim().eq_ignore_ascii_case("END") {
                        stop.store(true, Ordering::Relaxed);
                        return Ok(());
                    }
                    pending.push_back(line);
                    continue;
                }
                match handle(&mut brain, &line, &events) {
                    Reply::Text(text) => {
                        writeln!(output, "{text}")?;
                        output.flush()?;
                    }
                    Reply::Silent => {}
                    Reply::Thinking(stop) => thinking = Some(stop),
                    Reply::Quit => return Ok(()),
                }
            }
        }
    }
}

/// What a command asks of the main loop.
enum Reply {
    Text(String),
    Silent,
    Thinking(Arc<AtomicBool>),
    Quit,
}

fn handle(brain: &mut Brain, line: &str, events: &Sender<Event>) -> Reply {
    let command = match protocol::parse(line, brain.board_block.is_some()) {
        Ok(c) => c,
        Err(e @ ProtocolError::Malformed(_)) => {
            brain.board_block = None;
            return Reply::Text(e.reply());
        }
        Err(e) => return Reply::Text(e.reply()),
    };
    let result = match command {
        Command::Start(n) => Ok(Some(brain.start(n))),
        Command::RectStart(w, h) if w == h => Ok(Some(brain.start(w))),
        Command::RectStart(w, h) => Err(format!("ERROR rectangular boards ({w}x{h}) are not supported")),
        Command::Restart => {
            if brain.size == 0 {
                Err("ERROR no game to restart (send START first)".into())
            } else {
                Ok(Some(brain.start(brain.size)))
            }
        }
        Command::Begin => brain.game_and_state().map(|_| None),
        Command::Turn(p) => brain.place(p).map(|()| None),
        Command::Board => {
            brain.board_block = Some(Vec::new());
            return Reply::Silent;
        }
        Command::BoardLine(p, f) => {
            if let Some(block) = &mut brain.board_block {
                block.push((p, f));
            }
            return Reply::Silent;
        }
        Command::Done => {
            let lines = brain.board_block.take().unwrap_or_default();
            brain.set_board(&lines).map(|()| None)
        }
        Command::Info(key, value) => return brain.info(&key, &value).map_or(Reply::Silent, Reply::Text),
        Command::Takeback(p) => takeback(brain, p).map(|()| Some("OK".into())),
        Command::About => Ok(Some(format!(
            "name=\"Tabula\", version=\"{}\", author=\"Tabula developers\"",
            env!("CARGO_PKG_VERSION")
        ))),
        Command::End => return Reply::Quit,
    };
    match result {
        Err(e) => Reply::Text(e),
        Ok(Some(text)) => Reply::Text(text),
        Ok(None) => think(brain, events),
    }
}

fn takeback(brain: &mut Brain, (x, y): Point) -> Result<(), String> {
    let (game, state) = brain.game_and_state()?;
    if game.stone(state, Cell::new(x, y)).is_none() {
        return Err(format!("ERROR there is no stone on {x},{y}"));
    }
    let mut black = Vec::new();
    let mut white = Vec::new();
    let (w, h) = game.board_size();
    for cy in 0..h {
        for cx in 0..w {
            match game.stone(state, Cell::new(cx, cy)) {
                Some(p) if (cx, cy) != (x, y) => {
                    if p == Player::First {
                        black.push((cx, cy))
                    } else {
                        white.push((cx, cy))
                    }
                }
                _ => {}
            }
        }
    }
    let side = if black.len() == white.len() { Player::First } else { Player::Second };
    let restored =
        game.setup(&black, &white, side).ok_or_else(|| "ERROR could not rebuild the position".to_string())?;
    *state = restored;
    Ok(())
}

/// Starts a search of the current position on its own thread; its answer comes back as an event.
fn think(brain: &mut Brain, events: &Sender<Event>) -> Reply {
    let level = brain.level();
    let (Some(game), Some(state), Some(mut engine)) = (brain.game.clone(), brain.state.clone(), brain.engine.take())
    else {
        return Reply::Text("ERROR no game started (send START first)".into());
    };
    if game.outcome(&state).is_some() {
        brain.engine = Some(engine);
        return Reply::Text("ERROR the game is over".into());
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let events = events.clone();
    std::thread::spawn(move || {
        let seed = game.hash(&state);
        let result = engine.think(&state, &level, seed, Some(flag), &mut |_| {});
        let answer = result.best_move.and_then(|mv| game.cell_of(mv)).map(|c| (c.x, c.y));
        // The main loop may have quit already; then nobody needs the answer.
        let _ = events.send(Event::Thought(answer, engine));
    });
    Reply::Thinking(stop)
}

/// Reads lines on a thread of their own; oversized lines are cut and reported, never buffered without end.
fn spawn_reader(mut input: impl BufRead + Send + 'static, events: Sender<Event>) {
    std::thread::spawn(move || {
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            let mut limited = std::io::Read::take(&mut input, MAX_LINE as u64 + 1);
            match limited.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => {
                    let _ = events.send(Event::Eof);
                    return;
                }
                Ok(_) => {}
            }
            if buffer.len() > MAX_LINE && buffer.last() != Some(&b'\n') && skip_line(&mut input).is_err() {
                let _ = events.send(Event::Eof);
                return;
            }
            let line = String::from_utf8_lossy(&buffer).trim_end_matches(['\r', '\n']).to_string();
            if events.send(Event::Line(line)).is_err() {
                return;
            }
        }
    });
}

/// Discards input up to and including the next newline without holding it in memory.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        if let Some(end) = chunk.iter().position(|&b| b == b'\n') {
            input.consume(end + 1);
            return Ok(());
        }
        let n = chunk.len();
        input.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_takes_half_the_memory_allowed() {
        assert_eq!(table_megabytes(0), TABLE_MEGABYTES, "no limit");
        assert_eq!(table_megabytes(350 << 20), 175);
        assert_eq!(table_megabytes(1 << 20), 0, "a one-bucket table");
        assert_eq!(table_megabytes(1 << 40), 1024);
    }
}
