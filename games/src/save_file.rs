//! Tabula's own saved-game format: TOML naming the game, rule set, board size, both players and the moves.
//!
//! ```toml
//! format = 1
//! game = "othello"
//! rule_set = "classic"
//! board_size = 8
//! moves = ["f5", "d6", "c3"]
//!
//! [black]
//! player = "human"
//!
//! [white]
//! player = "computer"
//! level = "Medium"     # or `depth = 7` for a custom level
//! ```
//!
//! An external engine's seat is `player = "engine"` with `engine = "Rapfi"`, the name it is registered under. A game
//! on the clock has a `[clock]` table: `per_move_ms` or `game_ms` (with `increment_ms`), and `black_left_ms` and
//! `white_left_ms`, the time each side had left. A game from a position set up by hand has a `[start]` table:
//! `to_move` ("black" or "white") and `board`, one string per row from the top (`x` Black, `o` White, `.` empty).
//! A game under a swap opening lists its choices in order (`choices = ["place-two", "white"]`, each taken when the
//! replay reaches the point that asks for it; an offered fifth stone is `"mark h8"`); there `[black]` is the seat
//! of the first player, who opened, and `[white]` the other's, whatever colours the choices gave them.

use serde::{Deserialize, Serialize};

use std::time::Duration;

use tabula_core::Player;

use crate::Match;
use crate::board::Cell;
use crate::clock::{Clock, TimeControl};
use crate::registry::{GameKind, MatchSpec, SpecError};
use crate::session::StartPosition;
use crate::setup::{GameSetup, LevelChoice, MAX_CUSTOM_DEPTH, Seat};
use crate::swap::Step;

/// The version written into new files.
pub const FORMAT: u32 = 1;

/// Starts a match for a spec; the registry's `new_match`, or a stand-in in tests.
pub type MatchFactory = fn(&MatchSpec) -> Result<Box<dyn Match>, SpecError>;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatRecord {
    player: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    level: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    engine: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    per_move_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    game_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    increment_ms: Option<u64>,
    black_left_ms: u64,
    white_left_ms: u64,
}

/// The longest time a saved clock may hold: a day.
const MOST_CLOCK_MS: u64 = 86_400_000;

impl ClockRecord {
    fn of(clock: &Clock, left: [Duration; 2]) -> ClockRecord {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let (per_move_ms, game_ms, increment_ms) = match clock.control() {
            TimeControl::PerMove(t) => (Some(ms(t)), None, None),
            TimeControl::PerGame { base, increment } => (None, Some(ms(base)), Some(ms(increment))),
        };
        ClockRecord { per_move_ms, game_ms, increment_ms, black_left_ms: ms(left[0]), white_left_ms: ms(left[1]) }
    }

    fn clock(&self) -> Result<Clock, String> {
        let all =
            [self.per_move_ms, self.game_ms, self.increment_ms, Some(self.black_left_ms), Some(self.white_left_ms)];
        if all.into_iter().flatten().any(|ms| ms > MOST_CLOCK_MS) {
            return Err("[clock]: times must be at most a day (86400000 ms)".into());
        }
        let ms = Duration::from_millis;
        let control = match (self.per_move_ms, self.game_ms, self.increment_ms) {
            (Some(t), None, None) if t > 0 => TimeControl::PerMove(ms(t)),
            (None, Some(base), increment) if base > 0 => {
                TimeControl::PerGame { base: ms(base), increment: ms(increment.unwrap_or(0)) }
            }
            _ => return Err("[clock]: give either `per_move_ms` or `game_ms` (with `increment_ms`), above 0".into()),
        };
        Ok(Clock::resume(control, [ms(self.black_left_ms), ms(self.white_left_ms)]))
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StartRecord {
    to_move: String,
    board: Vec<String>,
}

impl StartRecord {
    fn of(start: &StartPosition, (w, h): (usize, usize)) -> StartRecord {
        let mut rows = vec![vec!['.'; w]; h];
        for (cell, player) in &start.stones {
            if let Some(c) = rows.get_mut(cell.y).and_then(|row| row.get_mut(cell.x)) {
                *c = if *player == Player::First { 'x' } else { 'o' };
            }
        }
        let to_move = if start.to_move == Player::First { "black" } else { "white" };
        StartRecord { to_move: to_move.into(), board: rows.into_iter().map(String::from_iter).collect() }
    }

    fn start(&self, (w, h): (usize, usize)) -> Result<StartPosition, String> {
        let to_move = match self.to_move.as_str() {
            "black" => Player::First,
            "white" => Player::Second,
            other => return Err(format!("[start]: to_move `{other}` must be \"black\" or \"white\"")),
        };
        if self.board.len() != h {
            return Err(format!("[start]: the board has {} rows, this game {h}", self.board.len()));
        }
        let mut stones = Vec::new();
        for (y, row) in self.board.iter().enumerate() {
            if row.chars().count() != w {
                return Err(format!("[start]: row {} has {} cells, this game {w}", y + 1, row.chars().count()));
            }
            for (x, c) in row.chars().enumerate() {
                match c {
                    'x' | 'X' => stones.push((Cell::new(x, y), Player::First)),
                    'o' | 'O' => stones.push((Cell::new(x, y), Player::Second)),
                    '.' | '-' => {}
                    other => return Err(format!("[start]: row {}, cell {}: `{other}` is not x, o or .", y + 1, x + 1)),
                }
            }
        }
        Ok(StartPosition { stones, to_move })
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRecord {
    format: u32,
    game: GameKind,
    rule_set: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    board_size: Option<usize>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    choices: Vec<String>,
    black: SeatRecord,
    white: SeatRecord,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    start: Option<StartRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clock: Option<ClockRecord>,
}

/// A game as stored: who played what, and the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// The game and the players.
    pub setup: GameSetup,
    /// The moves in standard notation.
    pub moves: Vec<String>,
    /// The swap opening's choices in order, as [`Match::choice_text`] writes them.
    pub choices: Vec<String>,
    /// The game's clocks, stopped, when it is played on the clock.
    pub clock: Option<Clock>,
    /// The position set up by hand that the game started from, if it did not start from the rule set's own, with
    /// the board's size.
    pub start: Option<(StartPosition, (usize, usize))>,
}

impl SavedGame {
    /// The game of `setup` with the moves of `game`.
    #[must_use]
    pub fn of(setup: &GameSetup, game: &dyn Match) -> SavedGame {
        let start = game.set_up_start().map(|start| (start, game.board_size()));
        let choices = game.decisions().iter().map(|d| game.choice_text(d.choice)).collect();
        SavedGame { setup: setup.clone(), moves: game.move_list(), choices, clock: None, start }
    }

    /// This game with `clock`, stopped at `now` (each side keeps what it had left then).
    #[must_use]
    pub fn with_clock(mut self, clock: Option<&Clock>, now: std::time::Instant) -> SavedGame {
        self.clock = clock.map(|c| {
            let left = [Player::First, Player::Second].map(|p| c.left(p, now));
            Clock::resume(c.control(), left)
        });
        self
    }

    /// The file's text.
    #[must_use]
    pub fn to_toml(&self) -> String {
        let seat = |s: &Seat| {
            let record = |player: &str| SeatRecord { player: player.into(), level: None, depth: None, engine: None };
            match s {
                Seat::Human => record("human"),
                Seat::Computer(LevelChoice::Named(name)) => {
                    SeatRecord { level: Some(name.clone()), ..record("computer") }
                }
                Seat::Computer(LevelChoice::Custom(depth)) => SeatRecord { depth: Some(*depth), ..record("computer") },
                Seat::Engine(name) => SeatRecord { engine: Some(name.clone()), ..record("engine") },
            }
        };
        let record = FileRecord {
            format: FORMAT,
            game: self.setup.spec.game,
            rule_set: self.setup.spec.rule_set.clone(),
            board_size: self.setup.spec.board_size,
            moves: self.moves.clone(),
            choices: self.choices.clone(),
            black: seat(&self.setup.seats[0]),
            white: seat(&self.setup.seats[1]),
            start: self.start.as_ref().map(|(start, size)| StartRecord::of(start, *size)),
            clock: self.clock.as_ref().map(|c| {
                let left = [Player::First, Player::Second].map(|p| c.left(p, std::time::Instant::now()));
                ClockRecord::of(c, left)
            }),
        };
        let body = toml::to_string_pretty(&record).unwrap_or_default();
        format!("# A game saved by Tabula.\n{body}")
    }

    /// Reads a file's text and replays its moves with `factory`. Any problem (syntax, an unknown game or rule
    /// set, an illegal move) is an error naming it; `source` names the file in messages.
    pub fn parse(text: &str, source: &str, factory: MatchFactory) -> Result<(SavedGame, Box<dyn Match>), String> {
        let record: FileRecord = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            match line {
                Some(line) => format!("{source}, line {line}: {}", e.message().trim()),
                None => format!("{source}: {}", e.message().trim()),
            }
        })?;
        let fail = |message: String| format!("{source}: {message}");
        if record.format != FORMAT {
            return Err(fail(format!(
                "format {} is not supported (this version reads format {FORMAT})",
                record.format
            )));
        }
        let game = record.game;
        let Some(rule_set) = game.rule_set(&record.rule_set) else {
            return Err(fail(format!("{} has no rule set `{}`", game.name(), record.rule_set)));
        };
        if let Some(size) = record.board_size
            && !game.board_sizes(rule_set.id).contains(&size)
        {
            return Err(fail(format!("board size {size} is not allowed for rule set `{}`", rule_set.id)));
        }
        let seats = [seat_of(&record.black, "black").map_err(fail)?, seat_of(&record.white, "white").map_err(fail)?];
        let clock = record.clock.as_ref().map(ClockRecord::clock).transpose().map_err(fail)?;
        let spec = MatchSpec { game, rule_set: rule_set.id.to_string(), board_size: record.board_size };
        let mut session = factory(&spec).map_err(|e| fail(e.to_string()))?;
        let start = match &record.start {
            Some(start) => {
                let size = session.board_size();
                let start = start.start(size).map_err(fail)?;
                session.restart_from(&start).map_err(|e| fail(format!("[start]: {e}")))?;
                Some((start, size))
            }
            None => None,
        };
        let mut pending = record.choices.iter().enumerate();
        let mut choose_due = |session: &mut Box<dyn Match>| -> Result<(), String> {
            while let Step::Choose(..) | Step::Offer(..) = session.swap_step() {
                let Some((i, text)) = pending.next() else { break };
                let choice = session.parse_choice(text).map_err(|e| fail(format!("choice {} ({text}): {e}", i + 1)))?;
                session.choose(choice).map_err(|e| fail(format!("choice {} ({text}): {e}", i + 1)))?;
            }
            Ok(())
        };
        for (i, mv) in record.moves.iter().enumerate() {
            choose_due(&mut session)?;
            session.play_notation(mv).map_err(|e| fail(format!("move {} ({mv}): {e}", i + 1)))?;
        }
        choose_due(&mut session)?;
        if let Some((i, text)) = pending.next() {
            return Err(fail(format!("choice {} ({text}) is not asked for by the game's moves", i + 1)));
        }
        let saved =
            SavedGame { setup: GameSetup { spec, seats }, moves: record.moves, choices: record.choices, clock, start };
        Ok((saved, session))
    }
}

fn seat_of(record: &SeatRecord, side: &str) -> Result<Seat, String> {
    match (record.player.as_str(), &record.engine) {
        ("engine", Some(name)) if !name.trim().is_empty() && record.level.is_none() && record.depth.is_none() => {
            return Ok(Seat::Engine(name.clone()));
        }
        ("engine", _) => return Err(format!("[{side}]: an engine player needs `engine` (its name) and nothing else")),
        (_, Some(_)) => return Err(format!("[{side}]: only an engine player has an `engine` name")),
        _ => {}
    }
    match (record.player.as_str(), &record.level, record.depth) {
        ("human", None, None) => Ok(Seat::Human),
        ("human", _, _) => Err(format!("[{side}]: a human player has no level or depth")),
        ("computer", Some(name), None) if !name.trim().is_empty() => {
            Ok(Seat::Computer(LevelChoice::Named(name.clone())))
        }
        ("computer", None, Some(depth)) if (1..=MAX_CUSTOM_DEPTH).contains(&depth) => {
            Ok(Seat::Computer(LevelChoice::Custom(depth)))
        }
        ("computer", None, Some(depth)) => Err(format!("[{side}]: depth {depth} is outside 1..={MAX_CUSTOM_DEPTH}")),
        ("computer", _, _) => Err(format!("[{side}]: a computer player needs either `level` or `depth`")),
        (other, _, _) => Err(format!("[{side}]: player `{other}` must be \"human\", \"computer\" or \"engine\"")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::new_match;
    use crate::swap::Choice;

    fn othello(seats: [Seat; 2]) -> GameSetup {
        let spec = MatchSpec { game: GameKind::Othello, rule_set: "othello".into(), board_size: None };
        GameSetup { spec, seats }
    }

    #[test]
    fn every_kind_of_seat_comes_back() {
        let seats = [Seat::Engine("Edax".into()), Seat::Computer(LevelChoice::Custom(7))];
        let saved = SavedGame {
            setup: othello(seats),
            moves: vec!["f5".into(), "d6".into()],
            choices: Vec::new(),
            clock: None,
            start: None,
        };
        let text = saved.to_toml();
        assert!(text.contains("player = \"engine\"\nengine = \"Edax\""), "{text}");
        let (back, game) = SavedGame::parse(&text, "g.toml", new_match).expect("parse");
        assert_eq!(back, saved);
        assert_eq!(game.ply(), 2);
        let human =
            SavedGame { setup: othello([Seat::Human, Seat::Computer(LevelChoice::Named("Hard".into()))]), ..saved };
        assert_eq!(SavedGame::parse(&human.to_toml(), "g.toml", new_match).expect("parse").0, human);
    }

    #[test]
    fn a_clock_comes_back_with_the_time_each_side_had_left() {
        let secs = Duration::from_secs;
        let control = TimeControl::PerGame { base: secs(300), increment: secs(3) };
        let clock = Clock::resume(control, [secs(120), secs(200)]);
        let saved = SavedGame {
            setup: othello([Seat::Human, Seat::Human]),
            moves: vec!["f5".into()],
            choices: Vec::new(),
            clock: Some(clock.clone()),
            start: None,
        };
        let text = saved.to_toml();
        assert!(text.contains("[clock]\ngame_ms = 300000\nincrement_ms = 3000\nblack_left_ms = 120000"), "{text}");
        let back = SavedGame::parse(&text, "g.toml", new_match).expect("parse").0;
        assert_eq!(back.clock, Some(clock));
        let bad = text.replace("game_ms = 300000\n", "");
        let err = SavedGame::parse(&bad, "g.toml", new_match).err().expect("no time control");
        assert!(err.starts_with("g.toml: [clock]: give either `per_move_ms` or `game_ms`"), "{err}");
        let huge = text.replace("black_left_ms = 120000", "black_left_ms = 99999999999");
        assert!(SavedGame::parse(&huge, "g.toml", new_match).err().expect("too long").contains("at most a day"));
    }

    #[test]
    fn a_game_from_a_set_up_position_comes_back_from_its_start() {
        use crate::board::Cell;
        let setup = othello([Seat::Human, Seat::Human]);
        let mut game = new_match(&setup.spec).expect("othello");
        // A corner fight: White to move, with discs the standard start never has.
        let stones = vec![
            (Cell::new(0, 0), Player::First),
            (Cell::new(1, 1), Player::Second),
            (Cell::new(2, 2), Player::First),
            (Cell::new(3, 3), Player::Second),
            (Cell::new(4, 4), Player::First),
        ];
        game.restart_from(&StartPosition { stones: stones.clone(), to_move: Player::Second }).expect("a position");
        assert!(game.engine_protocol().is_none(), "no engine protocol tells a set-up start");
        let mv = game.current().markers.first().map(|(c, _)| *c).expect("White has a move");
        game.play_cell(mv).expect("legal");
        let saved = SavedGame::of(&setup, game.as_ref());
        let text = saved.to_toml();
        assert!(
            text.contains("[start]\nto_move = \"white\"\nboard = [\n    \"x.......\",\n    \".o......\","),
            "{text}"
        );
        let (back, replayed) = SavedGame::parse(&text, "g.toml", new_match).expect("parse");
        assert_eq!(back, saved);
        assert_eq!(replayed.current(), game.current(), "the same position after the same move");
        assert_eq!(replayed.set_up_start().map(|s| s.stones), Some(stones));

        let problem = |from: &str, to: &str| {
            SavedGame::parse(&text.replacen(from, to, 1), "g.toml", new_match).err().expect("an error")
        };
        assert_eq!(problem("\"x.......\",", ""), "g.toml: [start]: the board has 7 rows, this game 8");
        assert_eq!(problem("x.......", "x......"), "g.toml: [start]: row 1 has 7 cells, this game 8");
        assert_eq!(problem("x.......", "x..?...."), "g.toml: [start]: row 1, cell 4: `?` is not x, o or .");
        assert_eq!(
            problem("to_move = \"white\"", "to_move = \"red\""),
            "g.toml: [start]: to_move `red` must be \"black\" or \"white\""
        );
        let spec = MatchSpec { game: GameKind::Gomoku, rule_set: "freestyle".into(), board_size: None };
        let mut gomoku = new_match(&spec).expect("gomoku");
        let start = |stones: Vec<(Cell, Player)>| StartPosition { stones, to_move: Player::First };
        let twice = start(vec![(Cell::new(7, 7), Player::First), (Cell::new(7, 7), Player::Second)]);
        assert_eq!(gomoku.restart_from(&twice), Err("h8 is given twice".into()));
        let off = start(vec![(Cell::new(15, 0), Player::First)]);
        assert_eq!(gomoku.restart_from(&off), Err("(15, 0) is off the 15x15 board".into()));
        let mut othello_game = new_match(&setup.spec).expect("othello");
        assert_eq!(
            othello_game.restart_from(&start(vec![(Cell::new(8, 0), Player::First)])),
            Err("i1 is off the board".into())
        );
        let plain = SavedGame::of(&setup, new_match(&setup.spec).expect("othello").as_ref());
        assert!(!plain.to_toml().contains("[start]"), "the rule set's own start is not written");
    }

    #[test]
    fn a_swap2_game_comes_back_with_its_choices() {
        let spec = MatchSpec { game: GameKind::Gomoku, rule_set: "freestyle-swap2".into(), board_size: None };
        let setup = GameSetup { spec: spec.clone(), seats: [Seat::Human, Seat::Computer(LevelChoice::Custom(3))] };
        let mut game = new_match(&spec).expect("gomoku");
        for mv in ["h8", "h9", "i9"] {
            game.play_notation(mv).expect("legal");
        }
        game.choose(Choice::PlaceTwo).expect("offered");
        game.play_notation("j10").expect("legal");
        game.play_notation("g7").expect("legal");
        game.choose(Choice::White).expect("offered");
        let text = SavedGame::of(&setup, game.as_ref()).to_toml();
        assert!(text.contains("choices = [\n    \"place-two\",\n    \"white\",\n]"), "{text}");
        let (saved, back) = SavedGame::parse(&text, "g.toml", new_match).expect("parse");
        assert_eq!(saved.choices, ["place-two", "white"]);
        assert_eq!((back.decisions(), back.seat_of(Player::Second)), (game.decisions(), 0), "the opener has White");
        let problem = |text: String| SavedGame::parse(&text, "g.toml", new_match).err().expect("an error");
        let err = problem(text.replace("\"white\"", "\"red\""));
        assert_eq!(err, "g.toml: choice 2 (red): `red` is not black, white, place-two, offer or mark and a stone");
        let err = problem(text.replace("\"place-two\",", "\"black\","));
        assert_eq!(err, "g.toml: choice 2 (white) is not asked for by the game's moves", "Black settled the colours");
        let err = problem(text.replace("\"white\",", "\"white\", \"black\","));
        assert_eq!(err, "g.toml: choice 3 (black) is not asked for by the game's moves");
        let err = problem(text.replace("choices = [\n    \"place-two\",\n    \"white\",\n]\n", ""));
        assert_eq!(err, "g.toml: move 4 (j10): a colour must be chosen first (the swap opening asks for it)");
        // A game saved while the opener still has to choose comes back waiting for that choice.
        let (_, waiting) = SavedGame::parse(&text.replace("\"white\",", ""), "g.toml", new_match).expect("parse");
        assert!(matches!(waiting.swap_step(), Step::Choose(crate::swap::Person::Opener, _)));
    }

    #[test]
    fn a_taraguchi_game_comes_back_with_its_offered_stones() {
        let spec = MatchSpec { game: GameKind::Gomoku, rule_set: "renju-taraguchi-10".into(), board_size: None };
        let setup = GameSetup { spec: spec.clone(), seats: [Seat::Human, Seat::Human] };
        let mut game = new_match(&spec).expect("gomoku");
        for (stone, choice) in [("h8", "white"), ("i8", "black"), ("g9", "white"), ("k8", "offer")] {
            game.play_notation(stone).expect("inside its square");
            game.choose(game.parse_choice(choice).expect("a choice")).expect("allowed");
        }
        let cells = ["h10", "h6", "i10", "j10", "k10", "l10", "m10", "n10", "o10", "a1"];
        for stone in cells {
            game.choose(game.parse_choice(&format!("mark {stone}")).expect("a stone")).expect("free and distinct");
        }
        game.play_notation("j10").expect("an offered stone");
        let text = SavedGame::of(&setup, game.as_ref()).to_toml();
        assert!(text.contains("\"mark h10\""), "{text}");
        let (_, back) = SavedGame::parse(&text, "t.toml", new_match).expect("parse");
        assert_eq!((back.decisions(), back.move_list()), (game.decisions(), game.move_list()));
        let err = SavedGame::parse(&text.replace("\"mark h6\"", "\"mark h8\""), "t.toml", new_match).err();
        assert_eq!(err.as_deref(), Some("t.toml: choice 6 (mark h8): h8: occupied"));
        let err = SavedGame::parse(&text.replace("\"mark j10\"", "\"mark b2\""), "t.toml", new_match).err();
        assert_eq!(err.as_deref(), Some("t.toml: move 5 (j10): the fifth stone must be one of those offered"));
    }

    #[test]
    fn a_seat_that_mixes_kinds_is_an_error_naming_the_side() {
        let file = |black: &str| {
            format!(
                "format = 1\ngame = \"othello\"\nrule_set = \"othello\"\n[black]\n{black}\n[white]\nplayer = \"human\"\n"
            )
        };
        let problem = |black: &str| SavedGame::parse(&file(black), "g.toml", new_match).err().expect("an error");
        assert_eq!(
            problem("player = \"engine\""),
            "g.toml: [black]: an engine player needs `engine` (its name) and nothing else"
        );
        assert_eq!(
            problem("player = \"engine\"\nengine = \"Edax\"\nlevel = \"Hard\""),
            "g.toml: [black]: an engine player needs `engine` (its name) and nothing else"
        );
        assert_eq!(
            problem("player = \"computer\"\nengine = \"Edax\""),
            "g.toml: [black]: only an engine player has an `engine` name"
        );
        assert_eq!(
            problem("player = \"robot\""),
            "g.toml: [black]: player `robot` must be \"human\", \"computer\" or \"engine\""
        );
    }
}
