//! The NBoard protocol: Tabula's Othello engine for NBoard and other Othello GUIs, on stdin and stdout.
//!
//! Commands are answered in order, one at a time, so `ping N` is answered with `pong N` only after everything
//! before it. While a search runs it reports `status` lines. A `ping` (how NBoard says "forget what you were
//! doing") or `quit` that arrives during a search or a hint ends it early: a `go` still answers with the best move
//! found so far, a hint with the moves searched so far, and then the ping is answered.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use tabula_core::{Game, Level, score};
use tabula_games::lines::{Line, read_line};
use tabula_games::othello::{self, Move, Othello, Position};
use tabula_games::{Engine, ggf};

/// The depth NBoard starts with until it sends `set depth`.
const DEFAULT_DEPTH: u32 = 10;

/// The most characters a command line may have.
const MAX_LINE: usize = 1 << 16;

/// The engine's game and settings.
struct Session {
    game: Othello,
    start: Position,
    position: Position,
    /// The moves from `start` to `position`, passes included.
    moves: Vec<Move>,
    depth: u32,
    /// A configured level that replaces `set depth` (`tabula-cli nboard --level NAME`).
    fixed: Option<Level>,
    engine: Engine<Othello>,
    /// Set while a `ping` or `quit` waits to be read: searches stop.
    interrupt: Arc<AtomicBool>,
    /// The game's clock, when the GGF gave one (`TI`): each side's time and what its moves used.
    clock: Option<GameClock>,
}

/// Each player's time for the game and what their moves used so far, in milliseconds.
#[derive(Clone, Copy, Debug)]
struct GameClock {
    total_ms: u64,
    used_ms: [u64; 2],
}

/// Time kept back per move for reading, writing and NBoard's own bookkeeping.
const CLOCK_MARGIN_MS: u64 = 50;

impl Session {
    fn new(interrupt: Arc<AtomicBool>, fixed: Option<Level>, threads: usize) -> Session {
        let game = Othello::new(othello::Rules::default());
        let start = game.initial_state();
        let mut engine = Engine::new(game.clone());
        engine.set_threads(threads);
        Session {
            engine,
            position: start.clone(),
            start,
            moves: Vec::new(),
            game,
            depth: DEFAULT_DEPTH,
            fixed,
            interrupt,
            clock: None,
        }
    }

    /// A fresh engine for `game` (a new board size, or a position that failed to load), searching on as many
    /// threads as the old one.
    fn replace_engine(&mut self, game: &Othello) {
        let threads = self.engine.threads();
        self.engine = Engine::new(game.clone());
        self.engine.set_threads(threads);
    }

    /// The fixed level, or the one for the current depth: search `depth` plies, solve exactly from twice as many
    /// empties.
    fn base_level(&self) -> Level {
        self.fixed.clone().unwrap_or_else(|| Level {
            name: format!("nboard depth {}", self.depth),
            depth: self.depth,
            time_ms: None,
            randomness: 0,
            exact_empties: Some((self.depth * 2).min(24)),
            nodes: None,
        })
    }

    /// The level of the next move: [`Self::base_level`], and with a game clock at most the move's share of the
    /// time left: what remains divided by the moves this side still has to make (at least four), less a margin.
    fn level(&self) -> Level {
        let mut level = self.base_level();
        if let Some(clock) = self.clock {
            let me = self.game.side_to_move(&self.position).index();
            let left = clock.total_ms.saturating_sub(clock.used_ms[me]);
            let empties = u64::from(self.game.remaining_moves(&self.position).unwrap_or(60));
            let share = (left / (empties / 2).max(4)).saturating_sub(CLOCK_MARGIN_MS).max(10);
            level.time_ms = Some(level.time_ms.map_or(share, |t| t.min(share)));
        }
        level
    }

    /// Plays a move given in NBoard notation (`f5`, `PA`, optionally followed by `/eval/time`). A pass the
    /// transcript left out is inserted when the side to move has no placement.
    fn play(&mut self, text: &str) -> Result<(), String> {
        let token = text.split('/').next().unwrap_or("").trim();
        let spent = text.split('/').nth(2).and_then(|t| ggf::clock_ms(t.trim())).unwrap_or(0);
        let token = if token.eq_ignore_ascii_case("pa") { "pass" } else { token };
        let mv = othello::notation::parse_square(self.game.size(), token).map_err(|e| format!("move '{token}' {e}"))?;
        if !mv.is_pass() && !self.game.is_legal(&self.position, mv) && self.game.pass_is_forced(&self.position) {
            self.game.make(&mut self.position, Move::PASS);
            self.moves.push(Move::PASS);
        }
        if !self.game.is_legal(&self.position, mv) {
            return Err(format!("move '{token}' is not legal in this position"));
        }
        self.charge(spent);
        self.game.make(&mut self.position, mv);
        self.moves.push(mv);
        Ok(())
    }

    /// Counts `ms` against the side to move's clock.
    fn charge(&mut self, ms: u64) {
        let me = self.game.side_to_move(&self.position).index();
        if let Some(clock) = &mut self.clock {
            clock.used_ms[me] = clock.used_ms[me].saturating_add(ms);
        }
    }

    /// Replaces the game with one given in GGF.
    fn set_game(&mut self, text: &str) -> Result<(), String> {
        let parsed = ggf::parse(text).map_err(|e| e.to_string())?;
        let rules = othello::Rules {
            size: match parsed.size {
                6 => othello::variants::BoardSize::Six,
                8 => othello::variants::BoardSize::Eight,
                10 => othello::variants::BoardSize::Ten,
                n => return Err(format!("a {n}x{n} board is not supported (6, 8 or 10)")),
            },
            ..othello::Rules::default()
        };
        let game = Othello::new(rules);
        let side = if parsed.black_to_move { 'X' } else { 'O' };
        let start = othello::notation::parse_board(&game, &format!("{} {side}", parsed.board))
            .map_err(|e| format!("GGF board: {e}"))?;
        let previous = (self.game.clone(), self.start.clone(), self.position.clone(), std::mem::take(&mut self.moves));
        if game.size() != self.game.size() {
            self.replace_engine(&game);
        }
        self.game = game;
        self.start = start.clone();
        self.position = start;
        let clock = self.clock.take();
        // TI[0] is a game without a clock.
        self.clock = parsed.time_ms.filter(|&t| t > 0).map(|total_ms| GameClock { total_ms, used_ms: [0, 0] });
        for (i, mv) in parsed.moves.iter().enumerate() {
            let spent = parsed.move_ms.get(i).copied().unwrap_or(0);
            if let Err(e) = self.play(&format!("{mv}//{}", spent as f64 / 1000.0)) {
                (self.game, self.start, self.position, self.moves) = previous;
                self.clock = clock;
                self.replace_engine(&self.game.clone());
                return Err(format!("GGF move {}: {e}", i + 1));
            }
        }
        Ok(())
    }

    /// The score for NBoard, in discs from the side to move's view.
    fn nboard_eval(&self, value: score::Score, exact: bool) -> f64 {
        if exact {
            f64::from(value)
        } else if score::is_mate(value) {
            let cells = (self.game.size() * self.game.size()) as f64;
            if value > 0 { cells } else { -cells }
        } else {
            f64::from(value) / 100.0
        }
    }

    fn solves_exactly(&self) -> bool {
        Self::exact_at(&self.game, &self.level(), &self.position)
    }

    /// Whether `level` solves `position` exactly.
    fn exact_at(game: &Othello, level: &Level, position: &Position) -> bool {
        let empties = game.remaining_moves(position).unwrap_or(u32::MAX);
        level.exact_empties.is_some_and(|e| empties <= e)
    }

    /// NBoard's Analyze Game: every position of the game scored at the level (without the clock), as
    /// `analysis <moves played> <eval>` from the side to move's view, from the last position back to the first
    /// (retrograde, so the exact endgame values are in the table when the earlier positions are searched). A
    /// `ping` stops it.
    fn analyze(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let level = self.base_level();
        let mut positions = vec![self.start.clone()];
        for &mv in &self.moves {
            let mut next = positions[positions.len() - 1].clone();
            self.game.make(&mut next, mv);
            positions.push(next);
        }
        for (played, position) in positions.iter().enumerate().rev() {
            if self.interrupt.load(Ordering::Relaxed) {
                break;
            }
            let eval = match self.game.outcome(position) {
                Some(o) => f64::from(o.signed_margin(self.game.side_to_move(position))),
                None => {
                    let result = self.engine.think(position, &level, 0, Some(self.interrupt.clone()), &mut |_| {});
                    if result.stopped && result.depth == 0 {
                        break;
                    }
                    self.nboard_eval(result.score, result.proven && Self::exact_at(&self.game, &level, position))
                }
            };
            writeln!(out, "analysis {played} {eval:.2}")?;
            out.flush()?;
        }
        Ok(())
    }

    /// Searches the current position, writing `status` lines as depths complete.
    fn search(&mut self, out: &mut impl Write) -> std::io::Result<Option<(Move, f64, f64)>> {
        let started = Instant::now();
        let level = self.level();
        let exact = self.solves_exactly();
        let mut written = Ok(());
        let stop = Some(self.interrupt.clone());
        let result = self.engine.think(&self.position, &level, 0, stop, &mut |info| {
            if written.is_ok() {
                written = writeln!(out, "status depth {} nodes {} nps {}", info.depth, info.nodes, info.nps)
                    .and_then(|()| out.flush());
            }
        });
        written?;
        let Some(mv) = result.best_move else { return Ok(None) };
        Ok(Some((mv, self.nboard_eval(result.score, exact), started.elapsed().as_secs_f64())))
    }

    /// The `n` best moves, each searched one ply shallower after it is played, with its principal variation.
    fn hints(&mut self, n: usize, out: &mut impl Write) -> std::io::Result<()> {
        let mut moves = Vec::new();
        self.game.legal_moves(&self.position, &mut moves);
        let exact = self.solves_exactly();
        let level = self.level();
        let level = Level { depth: level.depth.saturating_sub(1).max(1), ..level };
        let mut scored = Vec::new();
        for mv in moves {
            if self.interrupt.load(Ordering::Relaxed) {
                break;
            }
            let mut child = self.position.clone();
            self.game.make(&mut child, mv);
            let (value, line) = match self.game.outcome(&child) {
                Some(o) => {
                    let margin = o.signed_margin(self.game.side_to_move(&self.position));
                    (if exact { margin } else { margin.signum() * score::MATE_BOUND }, Vec::new())
                }
                None => {
                    let result = self.engine.think(&child, &level, 0, Some(self.interrupt.clone()), &mut |_| {});
                    if result.stopped && result.depth == 0 {
                        break;
                    }
                    (-result.score, result.pv)
                }
            };
            scored.push((mv, value, line));
        }
        scored.sort_by_key(|s| std::cmp::Reverse(s.1));
        let depth = if exact { "100%".to_string() } else { self.level().depth.to_string() };
        for (mv, value, line) in scored.into_iter().take(n.max(1)) {
            let pv: String = std::iter::once(mv)
                .chain(line)
                .map(|m| nboard_move(&othello::notation::format_move(self.game.size(), m)))
                .collect();
            writeln!(out, "search {pv} {:.2} 0 {depth}", self.nboard_eval(value, exact))?;
        }
        Ok(())
    }
}

/// A move as NBoard writes it: upper-case squares, `PA` for a pass.
fn nboard_move(name: &str) -> String {
    if name == "pass" { "PA".to_string() } else { name.to_ascii_uppercase() }
}

/// Runs the protocol until `quit` or the end of input. The input is read on its own thread, so that a `ping` or
/// `quit` can stop a search while it runs. A `level`, when given, is played instead of `set depth`'s; searches use
/// `threads` threads.
pub fn run(
    input: impl BufRead + Send + 'static,
    mut out: impl Write,
    level: Option<Level>,
    threads: usize,
) -> std::io::Result<()> {
    let interrupt = Arc::new(AtomicBool::new(false));
    let lines = read_lines(input, interrupt.clone());
    let mut session = Session::new(interrupt, level, threads);
    for (line, interrupts) in lines.iter() {
        if interrupts {
            lines.interrupt_read();
        }
        let line = match line {
            Line::Text(l) | Line::Unfinished(l) => l,
            Line::TooLong(n) => {
                writeln!(out, "ERROR line too long ({n} bytes, at most {MAX_LINE})")?;
                out.flush()?;
                continue;
            }
            Line::End => return Ok(()),
        };
        if !handle(&mut session, line.trim(), &mut out)? {
            return Ok(());
        }
        out.flush()?;
    }
    Ok(())
}

/// The lines of the input as a reader thread hands them over, each with whether it interrupts a search.
struct Lines {
    receiver: mpsc::Receiver<(Line, bool)>,
    /// Interrupting lines sent and not yet taken.
    pending: Arc<AtomicUsize>,
    interrupt: Arc<AtomicBool>,
}

impl Lines {
    fn iter(&self) -> mpsc::Iter<'_, (Line, bool)> {
        self.receiver.iter()
    }

    /// Notes that an interrupting line was taken: the flag stays up only while another one waits.
    fn interrupt_read(&self) {
        self.interrupt.store(false, Ordering::SeqCst);
        if self.pending.fetch_sub(1, Ordering::SeqCst) > 1 {
            self.interrupt.store(true, Ordering::SeqCst);
        }
    }
}

/// Starts the thread that reads `input` line by line; it raises `interrupt` when a `ping` or `quit` arrives. The
/// thread is not joined: at `quit` it may still be waiting for input that never comes.
fn read_lines(input: impl BufRead + Send + 'static, interrupt: Arc<AtomicBool>) -> Lines {
    let (sender, receiver) = mpsc::channel();
    let pending = Arc::new(AtomicUsize::new(0));
    let (pending_in, interrupt_in) = (pending.clone(), interrupt.clone());
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            let line = read_line(&mut input, MAX_LINE);
            let fatal = matches!(line, Line::End | Line::Unfinished(_));
            let interrupts = matches!(&line, Line::Text(l) | Line::Unfinished(l) if {
                let command = l.split_whitespace().next().unwrap_or("");
                command == "ping" || command == "quit"
            });
            if interrupts {
                pending_in.fetch_add(1, Ordering::SeqCst);
                interrupt_in.store(true, Ordering::SeqCst);
            }
            if sender.send((line, interrupts)).is_err() || fatal {
                return;
            }
        }
    });
    Lines { receiver, pending, interrupt }
}

/// Answers one command; `false` means quit.
fn handle(session: &mut Session, line: &str, out: &mut impl Write) -> std::io::Result<bool> {
    let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    match command {
        "" => {}
        "nboard" => writeln!(out, "set myname Tabula")?,
        "set" => {
            let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let value = value.trim();
            match what {
                "depth" => match value.parse::<u32>() {
                    Ok(d) if (1..=60).contains(&d) => session.depth = d,
                    _ => writeln!(out, "ERROR set depth needs a number from 1 to 60, got '{value}'")?,
                },
                "game" => {
                    if let Err(e) = session.set_game(value) {
                        writeln!(out, "ERROR {e}")?;
                    }
                }
                "contempt" => {
                    if value.parse::<i32>().is_err() {
                        writeln!(out, "ERROR set contempt needs a number, got '{value}'")?;
                    }
                }
                _ => writeln!(out, "ERROR unknown setting '{what}'")?,
            }
        }
        "move" => {
            if let Err(e) = session.play(rest) {
                writeln!(out, "ERROR {e}")?;
            }
        }
        "go" => match session.search(out)? {
            Some((mv, eval, seconds)) => {
                let name = othello::notation::format_move(session.game.size(), mv);
                writeln!(out, "=== {}/{eval:.2}/{seconds:.3}", nboard_move(&name))?;
            }
            None => writeln!(out, "ERROR the game is over")?,
        },
        "hint" => match rest.parse::<usize>() {
            Ok(n) if session.game.outcome(&session.position).is_none() => {
                writeln!(out, "status thinking")?;
                session.hints(n, out)?;
                writeln!(out, "status")?;
            }
            Ok(_) => writeln!(out, "ERROR the game is over")?,
            Err(_) => writeln!(out, "ERROR hint needs a number of moves, got '{rest}'")?,
        },
        "analyze" => {
            writeln!(out, "status analyzing")?;
            session.analyze(out)?;
            writeln!(out, "status")?;
        }
        "ping" => writeln!(out, "pong {rest}")?,
        "learn" => writeln!(out, "learned")?,
        "quit" => return Ok(false),
        other => writeln!(out, "ERROR unknown command '{other}'")?,
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::Player;

    fn talk(lines: &str) -> String {
        let mut out = Vec::new();
        run(std::io::Cursor::new(lines.to_string()), &mut out, None, 1).expect("runs");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn a_fixed_level_replaces_set_depth() {
        let mut s = Session::new(Arc::default(), Some(Level::custom(3)), 1);
        s.depth = 40;
        assert_eq!(s.level(), Level::custom(3));
        s.fixed = None;
        assert_eq!(s.level().depth, 40);
    }

    #[test]
    fn answers_handshake_ping_and_learn() {
        let out = talk("nboard 2\nping 7\nlearn\nquit\nping 8\n");
        assert_eq!(out, "set myname Tabula\npong 7\nlearned\n");
    }

    #[test]
    fn moves_and_ggf_with_passes_set_the_position() {
        let mut s = Session::new(Arc::default(), None, 1);
        s.play("F5").expect("legal");
        s.play("d6/0.5/1.2").expect("legal with annotations");
        assert_eq!(s.game.side_to_move(&s.position), Player::First);
        assert!(s.play("a1").is_err());
        // Black (b1) cannot outflank White's a1, so Black passes and White wipes Black out with c1.
        let board = format!("OX{}", "-".repeat(62));
        s.set_game(&format!("(;GM[Othello]BO[8 {board} *]B[PA]W[C1/2.0];)")).expect("valid game with a pass");
        assert!(s.game.outcome(&s.position).is_some(), "wipe-out ends the game");
        // The same game with the pass left out: it is inserted.
        s.set_game(&format!("(;GM[Othello]BO[8 {board} *]W[c1];)")).expect("implicit pass");
        assert!(s.game.outcome(&s.position).is_some());
        let err = s.set_game(&format!("(;GM[Othello]BO[8 {board} *]B[h8];)")).expect_err("illegal move");
        assert!(err.contains("GGF move 1"), "{err}");
        assert!(s.game.outcome(&s.position).is_some(), "a rejected game leaves the old one");
    }

    /// `talk` on another thread, failing after a minute instead of hanging.
    fn talk_within_a_minute(lines: &'static str) -> String {
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || sender.send(talk(lines)));
        receiver.recv_timeout(std::time::Duration::from_secs(60)).expect("the engine answered within a minute")
    }

    #[test]
    fn the_game_clock_bounds_a_deep_search() {
        let start = "---------------------------O*------*O---------------------------";
        let mut s = Session::new(Arc::default(), None, 1);
        s.depth = 30;
        s.set_game(&format!("(;GM[Othello]TI[1:00]BO[8 {start} *]B[f5//20];)")).expect("valid");
        // White to move with 59 empties: its whole minute for its 29 moves to come.
        assert_eq!(s.level().time_ms, Some(60_000 / 29 - CLOCK_MARGIN_MS));
        s.play("d6/0.5/10").expect("legal");
        // Black has used 20 s: 40 s for its 29 moves (58 empties).
        assert_eq!(s.level().time_ms, Some(40_000 / 29 - CLOCK_MARGIN_MS));

        s.set_game(&format!("(;GM[Othello]TI[0]BO[8 {start} *];)")).expect("valid");
        assert_eq!(s.level().time_ms, None, "TI[0]: no clock");

        let clock = std::time::Instant::now();
        let out = talk_within_a_minute(Box::leak(
            format!("set depth 30\nset game (;GM[Othello]TI[0:06]BO[8 {start} *];)\ngo\n").into_boxed_str(),
        ));
        assert!(out.lines().any(|l| l.starts_with("=== ")), "{out}");
        assert!(
            clock.elapsed() < std::time::Duration::from_secs(3),
            "a 6 s game's first move took {:?}",
            clock.elapsed()
        );
    }

    #[test]
    fn a_ping_stops_a_deep_search_and_a_hint() {
        // Depth 60 from the start would run for ages: the pings behind each command cut them short.
        let out = talk_within_a_minute("set depth 60\ngo\nping 1\nhint 2\nping 2\nquit\n");
        let lines: Vec<&str> = out.lines().collect();
        let answer = lines.iter().position(|l| l.starts_with("=== ")).expect("a move");
        let pong1 = lines.iter().position(|&l| l == "pong 1").expect("pong 1");
        let pong2 = lines.iter().position(|&l| l == "pong 2").expect("pong 2");
        assert!(answer < pong1 && pong1 < pong2, "{out}");
        assert!(["D3", "C4", "F5", "E6"].iter().any(|m| lines[answer].starts_with(&format!("=== {m}/"))), "{out}");
        assert_eq!(&lines[pong1 + 1..pong2], ["status thinking", "status"], "{out}");
    }

    /// Analyze Game scores every position from the last back to the first, the final one by its result, and a
    /// ping stops a long analysis (a ping that follows at once stops it before it begins, as NBoard means it to).
    #[test]
    fn analyze_scores_every_position_of_the_game_backwards() {
        // A game over after eleven moves, 14-1 for Black with 49 empties (W. D. Smith's short non-wipe-out game).
        let moves = "B[f5]W[f4]B[c3]W[e6]B[f7]W[g6]B[g4]W[e8]B[g8]W[g5]B[h5]";
        let start = "---------------------------O*------*O---------------------------";
        let game = format!("(;GM[Othello]BO[8 {start} *]{moves};)");
        let out = talk_within_a_minute(Box::leak(format!("set depth 4\nset game {game}\nanalyze\n").into()));
        let analysis: Vec<(usize, f64)> = out
            .lines()
            .filter_map(|l| l.strip_prefix("analysis "))
            .map(|rest| {
                let (n, eval) = rest.split_once(' ').expect("two numbers");
                (n.parse().expect("a move number"), eval.parse().expect("an eval"))
            })
            .collect();
        assert_eq!(analysis.iter().map(|a| a.0).collect::<Vec<_>>(), (0..=11).rev().collect::<Vec<_>>(), "{out}");
        // White would move after the eleventh: lost 1-63 (the empties go to the winner), from White's view.
        assert_eq!(analysis[0].1, -62.0, "{out}");
        // One move before, Black to move sees the win: a won game counts the whole board.
        assert_eq!(analysis[1], (10, 64.0), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        let begin = lines.iter().position(|&l| l == "status analyzing").expect("the status before");
        assert_eq!(
            (lines.len(), lines[begin + 13]),
            (begin + 14, "status"),
            "twelve positions, then the status: {out}"
        );

        let long = format!("set depth 60\nset game {}\nanalyze\nping 2\n", "(;GM[Othello];)");
        let out = talk_within_a_minute(Box::leak(long.into()));
        assert!(out.lines().any(|l| l == "pong 2"), "{out}");
    }

    #[test]
    fn malformed_lines_get_errors() {
        let out = talk("set depth deep\nset game (;GM[Othello];)\nmove z9\nhint x\nfrobnicate\nping 1\n");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 6, "{out}");
        assert!(lines[..5].iter().all(|l| l.starts_with("ERROR")), "{out}");
        assert_eq!(lines[5], "pong 1");
    }

    #[test]
    fn an_oversized_line_is_skipped_and_reported() {
        let out = talk(&format!("ping 1\n{}\nping 2\n", "x".repeat(3 * MAX_LINE)));
        assert_eq!(out, format!("pong 1\nERROR line too long ({} bytes, at most {MAX_LINE})\npong 2\n", 3 * MAX_LINE));
    }
}
