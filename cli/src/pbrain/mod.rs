//! `pbrain-tabula`: Tabula's Gomoku engine behind the Gomocup/Piskvork protocol.
//!
//! One thread reads the manager's lines; the main loop answers them and hands searches to a thinking thread, so
//! a command that arrives while the engine thinks is read at once: `END` stops the search and quits, `ABOUT`,
//! `INFO` and unknown commands are answered at once, and the rest (a bounded queue) wait for the move. A search
//! that panics is reported with `ERROR` and the brain goes on; the end of input stops the search and exits.

pub mod protocol;

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::time::Duration;

use tabula_core::{Game, Level, Player, SearchInfo};
use tabula_games::engine::{MAX_THREADS, TABLE_MEGABYTES};
use tabula_games::gomoku::{Gomoku, GomokuState, WinRule};
use tabula_games::lines::{Line, read_line};
use tabula_games::swap::{self, Choice};
use tabula_games::{BoardGame, Cell, Engine, MoveError};

use protocol::{Command, MAX_LINE, Point, ProtocolError};

/// What the main loop waits for: a line from the manager, the end of input, a finished search (the move, or why
/// there is none; the engine back unless the search panicked), or a table built off the clock.
enum Event {
    Line(String),
    TooLong(usize),
    /// A search depth finished: a `MESSAGE` line for the manager's log or analysis panel.
    Progress(String),
    Eof,
    /// The search's answer; `play` tells whether the brain plays it on its own board (a move) or only says it
    /// (`YXNBEST`'s analysis).
    Thought {
        answer: Result<Option<Point>, String>,
        engine: Option<Box<Engine<Gomoku>>>,
        play: bool,
    },
    Table(u64, Box<Engine<Gomoku>>),
    /// The answer to a `SWAP2BOARD`: the line to say and the position it leaves (the stones the brain placed on
    /// the given ones), or the error; the engine back unless the search panicked.
    Opening {
        answer: Result<Box<(String, GomokuState)>, String>,
        engine: Option<Box<Engine<Gomoku>>>,
    },
}

/// Commands that change the position and so wait for the search to end; more than this while thinking are refused.
const QUEUE_LIMIT: usize = 64;

/// Lines a `BOARD` block may hold (the largest board has 1,024 points).
const BOARD_LINES: usize = 1024;

/// The time rules the manager gave with `INFO`, in milliseconds: `timeout_turn` 0 means as fast as possible,
/// `timeout_match` 0 no match limit, and `time_left` is `None` until the manager says.
#[derive(Clone, Copy, Debug)]
struct Clock {
    timeout_turn: u64,
    timeout_match: u64,
    time_left: Option<u64>,
}

impl Clock {
    /// The time to spend on the next move: within the turn limit and a share of the match time left, less a
    /// safety margin for reading, writing and the search's own stop latency.
    fn budget(&self, stones: usize) -> Duration {
        let mut ms = self.timeout_turn;
        if self.timeout_match > 0
            && let Some(left) = self.time_left
        {
            let moves_left = 40u64.saturating_sub(stones as u64 / 2).max(10);
            ms = ms.min(left / moves_left);
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
    board_block: Option<BoardBlock>,
    clock: Clock,
    table_megabytes: usize,
    engine: Option<Box<Engine<Gomoku>>>,
    /// Counts games and table sizes, so that a table built in the background for an older one is not used.
    generation: u64,
    /// A table that arrived while the engine was thinking, to use from the next move.
    next_engine: Option<Box<Engine<Gomoku>>>,
    /// The deepest iteration (`INFO max_depth`, Yixin-Board).
    max_depth: u32,
    /// Search threads (`INFO thread_num`); one until the manager allows more.
    threads: usize,
    /// The most nodes per move (`INFO max_node`, Yixin-Board); `None` for no limit.
    max_nodes: Option<u64>,
}

/// A `BOARD`, `YXBOARD` or `SWAP2BOARD` block being read: its lines, the first problem with them, and what to do
/// after.
struct BoardBlock {
    lines: Vec<(Point, u8)>,
    error: Option<String>,
    after: AfterBlock,
}

/// What a block asks for once read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AfterBlock {
    /// `BOARD`: move.
    Move,
    /// `YXBOARD`: only take the position.
    Take,
    /// `SWAP2BOARD`: the swap2 opening's answer.
    Swap2,
}

/// The transposition table's size for an `INFO max_memory` in bytes (0 = no limit): half of what the manager
/// allows, leaving room for the rest of the brain, and at most 1 GiB.
fn table_megabytes(max_memory: u64) -> usize {
    if max_memory == 0 { TABLE_MEGABYTES } else { (max_memory / 2 / (1 << 20)).min(1024) as usize }
}

/// The win rule of an `INFO rule` value, as the managers send it: the Gomocup bitmask (1 exact five, 4 Renju,
/// 8 Caro, 0 freestyle; the continuous-game bit is ignored) except that 2 alone is Renju, as Yixin-Board sends it
/// and Rapfi reads it. Yixin-Board's 5 and 6 (freestyle with swap openings) are refused: no opening rules yet.
fn manager_rule(value: u64) -> Result<WinRule, String> {
    match value {
        2 => Ok(WinRule::Renju),
        5 | 6 => Err(format!("ERROR INFO rule {value}: swap openings are not supported")),
        v => u32::try_from(v).map(WinRule::from_gomocup).map_err(|_| format!("ERROR INFO rule {v} is not a rule")),
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
            clock: Clock { timeout_turn: 5_000, timeout_match: 0, time_left: None },
            table_megabytes: TABLE_MEGABYTES,
            engine: None,
            generation: 0,
            next_engine: None,
            max_depth: 40,
            threads: 1,
            max_nodes: None,
        }
    }

    /// Starts a new game on a `size` board with the current rule. If the rule cannot be played on that board,
    /// there is no game until a `START` or `INFO rule` that fits: the brain never plays other rules silently.
    /// The engines keep their tables: managers send `INFO rule` after `START`, and the time of a fresh table
    /// would fall on the first move's clock.
    fn start(&mut self, size: usize) -> Result<(), String> {
        self.size = size;
        match Gomoku::new(size, self.win) {
            Ok(game) => {
                self.state = Some(game.initial_state());
                match &mut self.engine {
                    Some(engine) => engine.set_game(game.clone()),
                    None => self.engine = Some(Box::new(Engine::with_table(game.clone(), self.table_megabytes))),
                }
                if let Some(next) = &mut self.next_engine {
                    next.set_game(game.clone());
                }
                self.game = Some(game);
                Ok(())
            }
            Err(e) => {
                (self.game, self.state, self.engine) = (None, None, None);
                Err(format!("ERROR {e}"))
            }
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
    fn info(&mut self, key: &str, value: &str, events: &Sender<Event>) -> Option<String> {
        let number = || value.parse::<u64>().map_err(|_| format!("ERROR INFO {key} needs a number, got '{value}'"));
        let result = match key {
            "timeout_turn" => number().map(|v| self.clock.timeout_turn = v),
            "timeout_match" => number().map(|v| self.clock.timeout_match = v),
            "max_depth" => number().map(|v| self.max_depth = v.clamp(1, u64::from(Level::MAX_DEPTH)) as u32),
            "thread_num" => number().map(|v| self.threads = v.clamp(1, MAX_THREADS as u64) as usize),
            // 0 (as some managers send for "no limit") lifts it.
            "max_node" => number().map(|v| self.max_nodes = (v > 0).then(|| v.min(Level::MAX_NODES))),
            "time_left" => number().map(|v| self.clock.time_left = Some(v)),
            "max_memory" => number().map(|v| self.resize_table(table_megabytes(v), events)),
            // Yixin-Board gives the table's own size, in kilobytes.
            "hash_size" => number().map(|kb| self.resize_table((kb / 1024).min(1024) as usize, events)),
            "rule" => number().and_then(|v| {
                let rule = manager_rule(v)?;
                if rule != self.win {
                    self.win = rule;
                    if self.size > 0 {
                        // Rules are part of the game value: rebuild it, keeping nothing of the old position.
                        self.start(self.size)?;
                    }
                }
                Ok(())
            }),
            _ => Ok(()),
        };
        result.err()
    }

    /// Rebuilds the position from a `BOARD` block: 1 = own stones, 2 = the opponent's, 3 ignored. The side to
    /// move is us; equal counts make us Black. Forbidden points depend on the position alone, so the order of the
    /// lines (move order under Renju) needs no replay. The engine keeps its table: its entries are keyed by
    /// position. A malformed block leaves the position as it was.
    fn set_board(&mut self, block: BoardBlock) -> Result<(), String> {
        let size = self.size;
        if self.game.is_none() {
            return Err("ERROR no game started (send START first)".into());
        }
        if let Some(error) = block.error {
            return Err(format!("ERROR the block was refused and the position kept: {error}"));
        }
        let lines = &block.lines;
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

    /// Uses a table of `megabytes` from now on. Filling a large table takes a while: it is built off the clock,
    /// and the old one serves until it is ready.
    fn resize_table(&mut self, megabytes: usize, events: &Sender<Event>) {
        if megabytes == self.table_megabytes {
            return;
        }
        self.table_megabytes = megabytes;
        self.generation += 1;
        if let Some(game) = self.game.clone() {
            let (events, generation) = (events.clone(), self.generation);
            std::thread::spawn(move || {
                let _ = events.send(Event::Table(generation, Box::new(Engine::with_table(game, megabytes))));
            });
        }
    }

    /// `YXSHOWFORBID`'s answer: `FORBID`, then `xxyy` for each point Black may not play, then a dot (nothing when
    /// White is to move or the rule has no forbidden points).
    fn forbidden_points(&self) -> String {
        let mut line = String::from("FORBID ");
        if let (Some(game), Some(state)) = (&self.game, &self.state) {
            let (w, h) = game.board_size();
            for y in 0..h {
                for x in 0..w {
                    let cell = Cell::new(x, y);
                    if game.stone(state, cell).is_none()
                        && matches!(game.move_at(state, cell), Err(MoveError::Forbidden(_)))
                    {
                        line.push_str(&format!("{x:02}{y:02}"));
                    }
                }
            }
        }
        line.push('.');
        line
    }

    /// The level the brain plays at: the hardest configured level's knowledge, within the clock.
    fn level(&self) -> Level {
        let stones = self.state.as_ref().map_or(0, |s| s.stones());
        Level {
            name: "pbrain".into(),
            depth: self.max_depth,
            time_ms: Some(self.clock.budget(stones).as_millis() as u64),
            randomness: 0,
            exact_empties: None,
            nodes: self.max_nodes,
        }
    }
}

/// Stones of a swap2 position's two colours (Black has as many as White or one more).
fn swap2_colours(lines: &[(Point, u8)]) -> Result<(Vec<Point>, Vec<Point>), String> {
    let of = |field: u8| lines.iter().filter(|l| l.1 == field).map(|l| l.0).collect::<Vec<_>>();
    let (ones, twos) = (of(1), of(2));
    let stones = ones.len() + twos.len();
    if ![0, 3, 5].contains(&stones) || ones.len().abs_diff(twos.len()) != 1 && stones > 0 {
        return Err(format!("ERROR a swap2 position has 0, 3 or 5 stones, Black one more than White; not {stones}"));
    }
    Ok(if ones.len() > twos.len() { (ones, twos) } else { (twos, ones) })
}

impl Brain {
    /// The position of a `SWAP2BOARD` block. Its fields say whose stones are whose, but whose colour is whose is
    /// what the brain is asked to choose: the colour with more stones is Black, and White is to move (Black on the
    /// empty board).
    fn swap2_position(&self, block: BoardBlock) -> Result<GomokuState, String> {
        let game = self.game.as_ref().ok_or("ERROR no game started (send START first)")?;
        if let Some(error) = block.error {
            return Err(format!("ERROR the block was refused: {error}"));
        }
        let (black, white) = swap2_colours(&block.lines)?;
        let (w, h) = game.board_size();
        if let Some((x, y)) = black.iter().chain(&white).find(|&&(x, y)| x >= w || y >= h) {
            return Err(format!("ERROR {x},{y} is off the board"));
        }
        let to_move = if black.is_empty() { Player::First } else { Player::Second };
        game.setup(&black, &white, to_move).ok_or_else(|| "ERROR a point is given twice".to_string())
    }
}

/// `SWAP2BOARD`: answers the swap2 opening on a thread of its own, as Gomocup asks. On the empty board, three
/// stones ("x1,y1 x2,y2 x3,y3"); after three, `SWAP` (the brain takes Black), a move (it plays White) or two more
/// stones; after five, `SWAP` or a move. The choices and stones come from [`swap`]'s search, in the turn's time.
fn swap2(brain: &mut Brain, block: BoardBlock, events: &Sender<Event>) -> Reply {
    let state = match brain.swap2_position(block) {
        Ok(state) => state,
        Err(e) => return Reply::Text(e),
    };
    brain.state = Some(state.clone());
    let (Some(game), mut level) = (brain.game.clone(), brain.level()) else {
        return Reply::Text("ERROR no game started (send START first)".into());
    };
    let mut engine =
        brain.engine.take().unwrap_or_else(|| Box::new(Engine::with_table(game.clone(), brain.table_megabytes)));
    engine.set_threads(brain.threads);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let events = events.clone();
    std::thread::spawn(move || {
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            swap2_answer(&mut engine, &game, state, &mut level, &flag).map(Box::new)
        }));
        let (answer, engine) = match answered {
            Ok(answer) => (answer, Some(engine)),
            Err(_) => (Err("ERROR the search failed on this position".to_string()), None),
        };
        let _ = events.send(Event::Opening { answer, engine });
    });
    Reply::Thinking(stop)
}

/// The answer to a `SWAP2BOARD` in `state` ([`swap2`]) and the position after the stones it places.
fn swap2_answer(
    engine: &mut Engine<Gomoku>,
    game: &Gomoku,
    mut state: GomokuState,
    level: &mut Level,
    stop: &Arc<AtomicBool>,
) -> Result<(String, GomokuState), String> {
    let seed = game.hash(&state);
    let point = |mv| game.cell_of(mv).map(|c| format!("{},{}", c.x, c.y)).unwrap_or_default();
    let place = |engine: &mut Engine<Gomoku>, state: &mut GomokuState, count: usize, level: &Level| {
        let mut placed = Vec::new();
        for _ in 0..count {
            let mut program =
                swap::Program { engine, level, seed: seed ^ placed.len() as u64, stop: Some(stop.clone()) };
            let stone = program.opening_stone(state, swap::Area::Anywhere);
            let mv = stone.and_then(|r| r.best_move).ok_or("ERROR no stone to place")?;
            game.make(state, mv);
            placed.push(point(mv));
        }
        Ok::<_, String>(placed.join(" "))
    };
    let offered = match state.stones() {
        0 => {
            level.time_ms = level.time_ms.map(|t| t / 3);
            return place(engine, &mut state, 3, level).map(|text| (text, state));
        }
        3 => &[Choice::White, Choice::Black, Choice::PlaceTwo][..],
        _ => &[Choice::Black, Choice::White][..],
    };
    level.time_ms = level.time_ms.map(|t| t / 2);
    let mut program = swap::Program { engine, level, seed, stop: Some(stop.clone()) };
    let (choice, searched) = program.choice(&state, offered);
    match choice {
        Choice::Black => Ok(("SWAP".to_string(), state)),
        Choice::PlaceTwo => place(engine, &mut state, 2, level).map(|text| (text, state)),
        Choice::White | Choice::Offer | Choice::Mark(_) => {
            let mv = searched.best_move.ok_or("ERROR no legal move")?;
            game.make(&mut state, mv);
            Ok((point(mv), state))
        }
    }
}

/// Builds every rule's pattern and threat tables (built once per process, on first use) in the background while
/// the manager sets up: built on `INFO rule` instead, which managers send just before the first move, they took
/// about 50 ms of that move's clock (Renju's).
fn warm_rule_tables() {
    std::thread::spawn(|| {
        for win in WinRule::ALL {
            // Only the tables are wanted: a rule that cannot be played would simply have none.
            let _ = Gomoku::new(tabula_games::gomoku::DEFAULT_SIZE, win);
        }
    });
}

/// Runs the protocol on the given input and output until `END` or the end of input.
pub fn run(input: impl BufRead + Send + 'static, mut output: impl Write) -> std::io::Result<()> {
    let (events, inbox) = mpsc::channel();
    spawn_reader(input, events.clone());
    warm_rule_tables();
    let mut brain = Brain::new();
    let mut pending: VecDeque<String> = VecDeque::new();
    let mut thinking: Option<Arc<AtomicBool>> = None;
    let mut input_ended = false;
    let mut say = |text: &str| -> std::io::Result<()> {
        writeln!(output, "{text}")?;
        output.flush()
    };
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
            // Nobody is left to hear a long think: stop it, say the move it has, and quit.
            Event::Eof => {
                input_ended = true;
                pending.clear();
                if let Some(stop) = &thinking {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            Event::Thought { answer, engine, play } => {
                thinking = None;
                brain.engine = brain.next_engine.take().or(engine);
                match answer {
                    Ok(Some((x, y))) if !play => say(&format!("{x},{y}"))?,
                    Ok(Some((x, y))) => match brain.place((x, y)) {
                        Ok(()) => say(&format!("{x},{y}"))?,
                        Err(e) => say(&e)?,
                    },
                    Ok(None) => say("ERROR no legal move")?,
                    Err(e) => say(&e)?,
                }
            }
            Event::Opening { answer, engine } => {
                thinking = None;
                brain.engine = brain.next_engine.take().or(engine);
                match answer.map(|answer| *answer) {
                    Ok((text, state)) => {
                        brain.state = Some(state);
                        say(&text)?;
                    }
                    Err(e) => say(&e)?,
                }
            }
            Event::Table(generation, mut engine) if generation == brain.generation => {
                // Built for the rules of its time: an `INFO rule` or a `START` on another board may have come since.
                if let Some(game) = &brain.game
                    && (game.win_rule(), game.size()) != (engine.game().win_rule(), engine.game().size())
                {
                    engine.set_game(game.clone());
                }
                if thinking.is_some() { brain.next_engine = Some(engine) } else { brain.engine = Some(engine) }
            }
            Event::Table(..) => {}
            Event::Progress(text) => say(&format!("MESSAGE {text}"))?,
            Event::TooLong(n) => {
                let error = format!("line too long ({n} bytes, at most {MAX_LINE})");
                match &mut brain.board_block {
                    Some(block) if thinking.is_none() && pending.is_empty() => {
                        block.error.get_or_insert(error);
                    }
                    _ => say(&format!("ERROR {error}"))?,
                }
            }
            Event::Line(line) if thinking.is_some() => match while_thinking(&mut brain, &line, &pending, &events) {
                Busy::Answer(text) => say(&text)?,
                Busy::Queue if pending.len() < QUEUE_LIMIT => pending.push_back(line),
                Busy::Queue => say(&format!("ERROR busy: {QUEUE_LIMIT} commands already wait for the move"))?,
                Busy::Quit => {
                    if let Some(stop) = &thinking {
                        stop.store(true, Ordering::Relaxed);
                    }
                    return Ok(());
                }
                Busy::Silent => {}
                Busy::Stop => {
                    if let Some(stop) = &thinking {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            },
            Event::Line(line) => match handle(&mut brain, &line, &events) {
                Reply::Text(text) => say(&text)?,
                Reply::Silent => {}
                Reply::Thinking(stop) => thinking = Some(stop),
                Reply::Quit => return Ok(()),
            },
        }
    }
}

/// What to do with a line that arrives while the engine thinks.
enum Busy {
    /// Answer it now.
    Answer(String),
    /// It changes the position: it waits for the move.
    Queue,
    /// Taken, nothing to say.
    Silent,
    /// `END`: stop and quit.
    Quit,
    /// `YXSTOP`: stop and play.
    Stop,
}

/// What to do with `line` while thinking, `pending` being the commands already waiting: inside a waiting
/// BOARD-like block, the board lines wait with it instead of being taken for commands.
fn while_thinking(brain: &mut Brain, line: &str, pending: &VecDeque<String>, events: &Sender<Event>) -> Busy {
    match protocol::parse(line, block_open(pending)) {
        Ok(Command::End) => Busy::Quit,
        Ok(Command::About) => Busy::Answer(about()),
        Ok(Command::YxStop) => Busy::Stop,
        Ok(Command::YxShowForbid) => Busy::Answer(brain.forbidden_points()),
        Ok(Command::YxShowInfo) => Busy::Answer(show_info()),
        Ok(Command::Info(key, value)) if key != "rule" => {
            brain.info(&key, &value, events).map_or(Busy::Silent, Busy::Answer)
        }
        Err(e @ ProtocolError::Unknown(_)) => Busy::Answer(e.reply()),
        _ => Busy::Queue,
    }
}

/// Whether `lines` end inside a BOARD, YXBOARD or SWAP2BOARD block (opened and not yet closed by DONE).
fn block_open(lines: &VecDeque<String>) -> bool {
    lines.iter().fold(false, |open, line| match protocol::parse(line, open) {
        Ok(Command::Board | Command::YxBoard | Command::Swap2Board) => true,
        Ok(Command::Done) => false,
        _ => open,
    })
}

fn about() -> String {
    format!("name=\"Tabula\", version=\"{}\", author=\"Tabula developers\"", env!("CARGO_PKG_VERSION"))
}

/// `YXSHOWINFO`'s answer, in the lines Yixin-Board reads to set up its engine dialog: the engine and version, and
/// the most threads `INFO thread_num` takes.
fn show_info() -> String {
    format!("MESSAGE Tabula {}\nMESSAGE INFO MAX_THREAD_NUM {MAX_THREADS}", env!("CARGO_PKG_VERSION"))
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
        Err(e @ ProtocolError::Malformed(_)) if brain.board_block.is_some() => {
            // Refused as a whole at DONE: the manager expects no answer inside the block.
            if let Some(block) = &mut brain.board_block {
                block.error.get_or_insert_with(|| e.reply().trim_start_matches("ERROR ").to_string());
            }
            return Reply::Silent;
        }
        Err(e) => return Reply::Text(e.reply()),
    };
    let result = match command {
        Command::Start(n) => brain.start(n).map(|()| Some("OK".into())),
        Command::RectStart(w, h) if w == h => brain.start(w).map(|()| Some("OK".into())),
        Command::RectStart(w, h) => Err(format!("ERROR rectangular boards ({w}x{h}) are not supported")),
        Command::Restart => {
            if brain.size == 0 {
                Err("ERROR no game to restart (send START first)".into())
            } else {
                brain.start(brain.size).map(|()| Some("OK".into()))
            }
        }
        Command::Begin => match brain.game_and_state() {
            Ok((_, state)) if state.stones() > 0 => {
                Err("ERROR BEGIN starts an empty board; this one has stones (send BOARD for a position)".into())
            }
            Ok(_) => Ok(None),
            Err(e) => Err(e),
        },
        Command::Turn(p) => brain.place(p).map(|()| None),
        Command::Board | Command::YxBoard | Command::Swap2Board => {
            let after = match command {
                Command::Board => AfterBlock::Move,
                Command::YxBoard => AfterBlock::Take,
                _ => AfterBlock::Swap2,
            };
            brain.board_block = Some(BoardBlock { lines: Vec::new(), error: None, after });
            return Reply::Silent;
        }
        Command::BoardLine(p, f) => {
            if let Some(block) = &mut brain.board_block {
                if block.lines.len() < BOARD_LINES {
                    block.lines.push((p, f));
                } else {
                    block.error.get_or_insert_with(|| format!("more than {BOARD_LINES} lines"));
                }
            }
            return Reply::Silent;
        }
        Command::Done => match brain.board_block.take() {
            None => Err("ERROR DONE without a BOARD block".into()),
            Some(block) if block.after == AfterBlock::Swap2 => return swap2(brain, block, events),
            Some(block) => {
                let think = block.after == AfterBlock::Move;
                match brain.set_board(block) {
                    Ok(()) if !think => return Reply::Silent,
                    result => result.map(|()| None),
                }
            }
        },
        Command::Info(key, value) => return brain.info(&key, &value, events).map_or(Reply::Silent, Reply::Text),
        Command::Takeback(p) => takeback(brain, p).map(|()| Some("OK".into())),
        Command::About => Ok(Some(about())),
        Command::YxStop => return Reply::Silent,
        Command::YxShowForbid => Ok(Some(brain.forbidden_points())),
        Command::YxShowInfo => Ok(Some(show_info())),
        Command::YxNbest(lines) => return think_lines(brain, lines, events),
        Command::YxHashClear => {
            if let Some(engine) = &mut brain.engine {
                engine.clear();
            }
            Ok(Some("MESSAGE the transposition table is cleared".into()))
        }
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
    search(brain, 1, true, events)
}

/// `YXNBEST`: the best `lines` moves (at most [`MAX_LINES`]), each a search without the ones found before, in
/// equal shares of the turn's time; each reported as a `MESSAGE` line, the best answered without being played.
fn think_lines(brain: &mut Brain, lines: usize, events: &Sender<Event>) -> Reply {
    search(brain, lines.min(MAX_LINES), false, events)
}

/// The most lines `YXNBEST` searches: enough for an analysis panel, few enough that each gets time.
const MAX_LINES: usize = 10;

/// Searches the brain's position for `lines` best moves on a thread of its own; the answer comes as an
/// [`Event::Thought`], played on the brain's board when `play`.
fn search(brain: &mut Brain, lines: usize, play: bool, events: &Sender<Event>) -> Reply {
    let mut level = brain.level();
    let (Some(game), Some(state)) = (brain.game.clone(), brain.state.clone()) else {
        return Reply::Text("ERROR no game started (send START first)".into());
    };
    // After a failed search the engine is built again.
    let mut engine =
        brain.engine.take().unwrap_or_else(|| Box::new(Engine::with_table(game.clone(), brain.table_megabytes)));
    if game.outcome(&state).is_some() {
        brain.engine = Some(engine);
        return Reply::Text("ERROR the game is over".into());
    }
    level.time_ms = level.time_ms.map(|ms| ms / lines as u64);
    engine.set_threads(brain.threads);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let events = events.clone();
    std::thread::spawn(move || {
        let seed = game.hash(&state);
        let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let progress = events.clone();
            if lines == 1 {
                let result = engine.think(&state, &level, seed, Some(flag), &mut |info| {
                    let _ = progress.send(Event::Progress(describe_depth(&game, info)));
                });
                return result.best_move;
            }
            let mut line = 0;
            let results = engine.think_lines(&state, &level, seed, Some(flag), lines, &[], &mut |result| {
                line += 1;
                let _ = progress.send(Event::Progress(format!("({line}) {}", describe_depth(&game, &result.info()))));
            });
            results.first().and_then(|r| r.best_move)
        }));
        let (answer, engine) = match searched {
            Ok(best) => (Ok(best.and_then(|mv| game.cell_of(mv)).map(|c| (c.x, c.y))), Some(engine)),
            // The engine may be half-way through an update: a fresh one takes its place.
            Err(_) => (Err("ERROR the search failed on this position".to_string()), None),
        };
        // The main loop may have quit already; then nobody needs the answer.
        let _ = events.send(Event::Thought { answer, engine, play });
    });
    Reply::Thinking(stop)
}

/// A finished depth as Yixin-Board's analysis panel and the managers' logs show it.
fn describe_depth(game: &Gomoku, info: &SearchInfo<tabula_games::gomoku::Move>) -> String {
    let pv: Vec<String> = info.pv.iter().map(|&m| game.format_move(m)).collect();
    format!(
        "depth {} ev {} n {} n/ms {} tm {} pv {}",
        info.depth,
        info.score,
        info.nodes,
        info.nps / 1000,
        info.elapsed.as_millis(),
        pv.join(" ")
    )
}

/// Reads lines on a thread of their own; an oversized line is skipped and reported, never buffered whole.
fn spawn_reader(mut input: impl BufRead + Send + 'static, events: Sender<Event>) {
    std::thread::spawn(move || {
        loop {
            let line = match read_line(&mut input, MAX_LINE) {
                Line::Text(text) => text,
                Line::TooLong(n) => {
                    if events.send(Event::TooLong(n)).is_err() {
                        return;
                    }
                    continue;
                }
                Line::Unfinished(text) => {
                    let _ = events.send(Event::Line(text));
                    let _ = events.send(Event::Eof);
                    return;
                }
                Line::End => {
                    let _ = events.send(Event::Eof);
                    return;
                }
            };
            if events.send(Event::Line(line)).is_err() {
                return;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_read_as_gomocup_managers_and_yixin_board_send_them() {
        let rule = |v| manager_rule(v).ok();
        assert_eq!(rule(0), Some(WinRule::Freestyle));
        assert_eq!(rule(1), Some(WinRule::ExactFive));
        assert_eq!(rule(2), Some(WinRule::Renju), "Yixin-Board's Renju");
        assert_eq!(rule(3), Some(WinRule::ExactFive), "exact five, continuous");
        assert_eq!(rule(4), Some(WinRule::Renju));
        assert_eq!(rule(8), Some(WinRule::Caro));
        assert!(manager_rule(6).is_err_and(|e| e.contains("swap")));
        assert!(manager_rule(1 << 40).is_err());
    }

    /// Managers send `INFO rule` after `START`, just before the first move: the brain then plays the new rules
    /// with the engine it has, rather than filling a new table on the move's clock.
    #[test]
    fn a_change_of_rules_keeps_the_engine_and_its_table() {
        let (events, _inbox) = std::sync::mpsc::channel();
        let mut brain = Brain::new();
        brain.start(15).expect("a 15x15 freestyle game");
        let before = brain.engine.as_deref().map(std::ptr::from_ref);
        assert_eq!(brain.info("rule", "4", &events), None);
        let engine = brain.engine.as_deref().expect("an engine after the change");
        assert_eq!(engine.game().win_rule(), WinRule::Renju);
        assert_eq!(brain.game.as_ref().map(Gomoku::win_rule), Some(WinRule::Renju));
        assert_eq!(before, Some(std::ptr::from_ref(engine)), "the same engine, not a new one");
        // Another board size too: the same engine searches the new board (its move history resized).
        assert_eq!(brain.info("rule", "0", &events), None);
        brain.start(20).expect("a 20x20 freestyle game");
        let (state, engine) = (brain.state.clone().expect("a position"), brain.engine.as_deref_mut().expect("engine"));
        assert_eq!(before, Some(std::ptr::from_ref(&*engine)));
        let result = engine.think(&state, &Level::custom(2), 1, None, &mut |_| {});
        let game = brain.game.as_ref().expect("a game");
        assert!(result.best_move.is_some_and(|mv| tabula_core::Game::is_legal(game, &state, mv)));
        assert_eq!(game.size(), 20);
    }

    #[test]
    fn the_table_takes_half_the_memory_allowed() {
        assert_eq!(table_megabytes(0), TABLE_MEGABYTES, "no limit");
        assert_eq!(table_megabytes(350 << 20), 175);
        assert_eq!(table_megabytes(1 << 20), 0, "a one-bucket table");
        assert_eq!(table_megabytes(1 << 40), 1024);
    }
}
