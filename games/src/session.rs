//! A game in progress with its history, and [`Match`], the one game-independent interface the front ends use.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tabula_core::{GameResult, Level, Outcome, Player, Score, SearchInfo};

use crate::board::{BoardGame, Cell, Marker, MoveError, MoveReport};
use crate::engine::Engine;
use crate::external::{self, Connection, EngineError, EngineRules, Protocol};
use crate::swap::{self, Choice, Decision, Step};

/// A picture of one position, everything a board view draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Columns and rows.
    pub size: (usize, usize),
    /// The stone on each cell, row by row from the top.
    pub stones: Vec<Option<Player>>,
    /// Whose turn it is.
    pub to_move: Player,
    /// Marked cells (legal moves, forbidden points).
    pub markers: Vec<(Cell, Marker)>,
    /// What the move that led here changed, if any.
    pub last_move: Option<MoveReport>,
    /// The outcome if the game is over.
    pub outcome: Option<Outcome>,
    /// Why the game ended.
    pub end_reason: Option<String>,
    /// Stones of the first and the second player on the board.
    pub counts: [usize; 2],
    /// The square (top-left and bottom-right cells) the next stone must go in, where a swap opening limits it.
    pub area: Option<(Cell, Cell)>,
}

impl Snapshot {
    /// The final score of a finished game that keeps one (Othello): the stones of the first and the second player,
    /// with the empty cells going to the winner (split on a draw), as the rules count it. `None` while the game is
    /// on or where it has no score.
    #[must_use]
    pub fn final_score(&self) -> Option<[usize; 2]> {
        let outcome = self.outcome.as_ref()?;
        outcome.margin?;
        let empty = self.stones.iter().filter(|s| s.is_none()).count();
        let [mut first, mut second] = self.counts;
        match outcome.result {
            GameResult::Win(Player::First) => first += empty,
            GameResult::Win(Player::Second) => second += empty,
            GameResult::Draw => {
                first += empty / 2;
                second += empty - empty / 2;
            }
        }
        Some([first, second])
    }

    /// The stone on `cell`.
    #[must_use]
    pub fn stone(&self, cell: Cell) -> Option<Player> {
        self.stones.get(cell.y * self.size.0 + cell.x).copied().flatten()
    }

    /// The position shown, as a start to set a board up from.
    #[must_use]
    pub fn position(&self) -> StartPosition {
        let width = self.size.0.max(1);
        let stones = self
            .stones
            .iter()
            .enumerate()
            .filter_map(|(i, stone)| Some((Cell::new(i % width, i / width), (*stone)?)))
            .collect();
        StartPosition { stones, to_move: self.to_move }
    }
}

/// A move the computer chose, with what its search saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move in standard notation.
    pub notation: String,
    /// The cell it places on; `None` for a pass.
    pub cell: Option<Cell>,
    /// The deepest completed depth.
    pub depth: u32,
    /// The score from the mover's view.
    pub score: Score,
    /// The principal variation in notation.
    pub line: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Whether the score is the game-theoretic value.
    pub proven: bool,
    /// Whether it came from an exact search (a final margin where the game counts one).
    pub exact: bool,
    /// The external engine that answered instead of our search, if one did.
    pub external: Option<ExternalAnswer>,
    /// The colour choice this analysis makes, when a swap opening asked for one (then `cell` only shows the
    /// search's move).
    pub choice: Option<Choice>,
}

/// A position set up by hand: the stones on the board and the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartPosition {
    /// Every stone or disc and whose it is.
    pub stones: Vec<(Cell, Player)>,
    /// Who moves first from it.
    pub to_move: Player,
}

/// An external engine's answer as an [`Analysis`]: it has no depth or nodes, and its score is its own evaluation,
/// when it gave one (without one, the score means nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalAnswer {
    /// The engine's name.
    pub engine: String,
    /// Whether it gave an evaluation.
    pub evaluated: bool,
}

impl Analysis {
    /// The score in words for a player, in the game's unit ([`BoardGame::describe_score`] through
    /// [`Match::describe_score`]).
    #[must_use]
    pub fn score_words(&self, game: &dyn Match) -> String {
        game.describe_score(self.score, self.exact)
    }

    /// Whether the score is a judgement of the position (ours, or an engine's evaluation).
    #[must_use]
    pub fn is_judgement(&self) -> bool {
        self.external.as_ref().is_none_or(|e| e.evaluated)
    }
}

/// An external engine's move in a game's position, to run anywhere: the answer checked against the rules.
pub type EngineJob = Box<dyn FnOnce() -> Result<Analysis, EngineError> + Send>;

/// A search to run on another thread: call it with a progress callback; it returns the chosen move, or `None`
/// when the game is over.
pub type ThinkJob = Box<dyn FnOnce(&mut dyn FnMut(Analysis)) -> Option<Analysis> + Send>;

/// A game in progress, as every front end sees it whatever the game: play by cell, undo and redo, view any
/// earlier position, and hand a search to another thread.
pub trait Match: Send {
    /// Columns and rows of the board.
    fn board_size(&self) -> (usize, usize);
    /// The number of moves played on the current line.
    fn ply(&self) -> usize;
    /// The moves of the current line in standard notation.
    fn move_list(&self) -> Vec<String>;
    /// The position after the first `ply` moves of the current line (clamped to the line).
    fn snapshot(&self, ply: usize) -> Snapshot;
    /// The current position.
    fn current(&self) -> Snapshot {
        self.snapshot(self.ply())
    }
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// The side to move now.
    fn to_move(&self) -> Player;
    /// A search score in the game's words ([`BoardGame::describe_score`]).
    fn describe_score(&self, score: Score, exact: bool) -> String;
    /// A search score as a share of a sure win, -1 to 1 ([`BoardGame::advantage`]).
    fn advantage(&self, score: Score, exact: bool) -> f32;
    /// A search score in a few characters for a board square ([`BoardGame::score_label`]).
    fn score_label(&self, score: Score, exact: bool) -> String;
    /// Whether the current position's legality check allows `cell`, and if not why.
    fn check_cell(&self, cell: Cell) -> Result<(), MoveError>;
    /// The notation of the move on `cell` in the current position, or why it is not legal.
    fn cell_notation(&self, cell: Cell) -> Result<String, MoveError>;
    /// Plays on `cell`, or says why not; the redo list is dropped.
    fn play_cell(&mut self, cell: Cell) -> Result<MoveReport, MoveError>;
    /// Whether the side to move must pass (its only legal move).
    fn must_pass(&self) -> bool;
    /// Passes, or says why not.
    fn pass(&mut self) -> Result<MoveReport, MoveError>;
    /// Plays a move given in standard notation.
    fn play_notation(&mut self, text: &str) -> Result<MoveReport, MoveError>;
    /// Takes back the last move; `false` at the start.
    fn undo(&mut self) -> bool;
    /// Replays the last undone move; `false` if there is none.
    fn redo(&mut self) -> bool;
    /// Whether there is a move to redo.
    fn can_redo(&self) -> bool;
    /// What the swap opening waits for now ([`Step::Play`] where the rules have none, or the game started from a
    /// position set up by hand).
    fn swap_step(&self) -> Step;
    /// The choices made in the swap opening, in order.
    fn decisions(&self) -> Vec<Decision>;
    /// Makes the choice the swap opening asks for now, or says why it cannot be made.
    fn choose(&mut self, choice: Choice) -> Result<(), MoveError>;
    /// The name of the standard opening the moves follow ([`BoardGame::opening_name`]); none for a game set up by
    /// hand.
    fn opening_name(&self) -> Option<&'static str>;
    /// A choice as saves write it: its id, and for an offered stone its cell in the game's notation (`mark h8`).
    fn choice_text(&self, choice: Choice) -> String;
    /// The choice [`Self::choice_text`] wrote, read in the current position, or why it cannot be read.
    fn parse_choice(&self, text: &str) -> Result<Choice, MoveError>;
    /// The seat that holds `colour` now: 0 for the setup's first seat (Black at the start), 1 for the other. Only a
    /// swap opening's choice changes it.
    fn seat_of(&self, colour: Player) -> usize;
    /// The seat that acts now: places the next stone, makes the choice, or holds the colour to move.
    fn acting_seat(&self) -> usize;
    /// A search of the current position at `level` on `threads` threads, to run anywhere; `stop` ends it early.
    fn think_job(&self, level: &Level, seed: u64, threads: usize, stop: Arc<AtomicBool>) -> ThinkJob {
        self.think_job_at(self.ply(), level, seed, threads, stop)
    }
    /// A search of the position after the first `ply` moves of the current line (clamped to the line), as
    /// [`Self::think_job`]: the analysis of a game's earlier positions.
    fn think_job_at(&self, ply: usize, level: &Level, seed: u64, threads: usize, stop: Arc<AtomicBool>) -> ThinkJob;
    /// The best `lines` moves of the current position (fewer when fewer are worth searching), each searched at
    /// `level` without the ones before: the values of the moves. Each line is reported through the job's progress
    /// as it is found, best first; the job returns the first.
    fn lines_job(&self, lines: usize, level: &Level, seed: u64, threads: usize, stop: Arc<AtomicBool>) -> ThinkJob;
    /// Starts the game again from a position set up by hand (the moves are dropped), or says what is wrong with
    /// the position.
    fn restart_from(&mut self, start: &StartPosition) -> Result<(), String>;
    /// The position the game started from when it is not the rule set's own start.
    fn set_up_start(&self) -> Option<StartPosition>;
    /// The protocol an external engine needs to play this game, or `None` when no protocol can tell its rule set
    /// or its start (a loaded position): which registered engines may take a seat.
    fn engine_protocol(&self) -> Option<Protocol>;
    /// Asks the external engine on `connection` for its move in the position after the first `ply` moves, with
    /// `turn` to think; `stop` ends the wait. The answer is checked against the rules: an illegal move is an error.
    fn engine_job(
        &self,
        ply: usize,
        connection: Arc<Mutex<Connection>>,
        turn: Duration,
        stop: Arc<AtomicBool>,
    ) -> EngineJob;
}

/// The generic [`Match`]: a game's rules, its start and the moves played, with a redo stack, and the computer
/// player that thinks about it.
pub struct Session<G: BoardGame> {
    game: G,
    start: G::State,
    /// Whether `start` is the rule set's own start (not a position set up by hand): only then do an external
    /// engine's protocol and a swap opening apply. Kept, since the swap opening asks at every turn.
    rules_start: bool,
    state: G::State,
    moves: Vec<G::Move>,
    reports: Vec<MoveReport>,
    /// The swap opening's choices made, with the moves they came after.
    decisions: Vec<Decision>,
    redo: Vec<Action<G::Move>>,
    /// One engine for the whole game, made at the first search, so that what a search learned (its
    /// transposition table) serves the next move and hint. Searches take turns on it.
    engine: Arc<Mutex<Option<Engine<G>>>>,
}

impl<G: BoardGame> Session<G> {
    /// A new game of `game` from its initial position.
    #[must_use]
    pub fn new(game: G) -> Self {
        let start = game.initial_state();
        Session {
            state: start.clone(),
            start,
            rules_start: true,
            game,
            moves: Vec::new(),
            reports: Vec::new(),
            decisions: Vec::new(),
            redo: Vec::new(),
            engine: Arc::default(),
        }
    }

    /// The rules.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The current position.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The moves played.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Plays a move after checking it is legal; the redo list is dropped unless the move is the one it offers.
    pub fn play(&mut self, mv: G::Move) -> Result<MoveReport, MoveError> {
        if self.game.outcome(&self.state).is_some() {
            return Err(MoveError::GameOver);
        }
        if !self.game.is_legal(&self.state, mv) {
            return Err(MoveError::Illegal(format!("{} is not a legal move here", self.game.format_move(mv))));
        }
        self.opening_allows(mv)?;
        if self.redo.last() == Some(&Action::Move(mv)) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(self.apply(mv))
    }

    fn apply(&mut self, mv: G::Move) -> MoveReport {
        let report = self.game.describe_move(&self.state, mv);
        self.game.make(&mut self.state, mv);
        self.moves.push(mv);
        self.reports.push(report.clone());
        report
    }

    /// Refuses a stone the swap opening does not allow now: while a choice or the marking of offered stones is
    /// due, outside the area the next stone must go in, or off the offered stones when one is to be picked.
    fn opening_allows(&self, mv: G::Move) -> Result<(), MoveError> {
        let cell = self.game.cell_of(mv);
        let refuse = |why: String| Err(MoveError::Illegal(why));
        match self.swap_step() {
            Step::Choose(..) => refuse("a colour must be chosen first (the swap opening asks for it)".into()),
            Step::Offer(_, count) => refuse(format!("the {count} offered fifth stones are being marked")),
            Step::Place(_, area) if !cell.is_some_and(|c| area.contains(self.game.board_size(), c)) => {
                refuse(format!("this stone of the opening goes {}", area.words()))
            }
            Step::Pick(_) if !cell.is_some_and(|c| swap::Procedure::marks(&self.decisions).contains(&c)) => {
                refuse("the fifth stone must be one of those offered".into())
            }
            _ => Ok(()),
        }
    }

    /// Checks that `cell` may be offered as a fifth stone: a legal move, not offered yet, and no twin by symmetry
    /// of one offered.
    fn check_mark(&self, cell: Cell) -> Result<(), MoveError> {
        self.game.move_at(&self.state, cell)?;
        let name = self.game.cell_name(cell);
        let marks = swap::Procedure::marks(&self.decisions);
        if marks.contains(&cell) {
            return Err(MoveError::Illegal(format!("{name} is offered already")));
        }
        let twins = swap::twins(&self.game, &self.state, cell);
        match marks.iter().find(|m| twins.contains(m)) {
            Some(&twin) => Err(MoveError::Illegal(format!(
                "{name} is the same as {} by the position's symmetry (offered stones must differ)",
                self.game.cell_name(twin)
            ))),
            None => Ok(()),
        }
    }

    /// The swap opening in force: the rules' own, unless the game started from a position set up by hand.
    fn procedure(&self) -> Option<swap::Procedure> {
        self.game.swap_procedure().filter(|_| self.rules_start)
    }

    /// The game's markers in `state`, with the offered fifth stones while the opening's `step` (in the current
    /// position) has them marked or picked from.
    fn markers(&self, state: &G::State, step: Option<Step>) -> Vec<(Cell, Marker)> {
        let mut markers = self.game.markers(state);
        if let Some(Step::Offer(..) | Step::Pick(_)) = step {
            markers.extend(swap::Procedure::marks(&self.decisions).into_iter().map(|c| (c, Marker::Offered)));
        }
        markers
    }

    fn state_after(&self, ply: usize) -> G::State {
        let mut s = self.start.clone();
        for &mv in &self.moves[..ply.min(self.moves.len())] {
            self.game.make(&mut s, mv);
        }
        s
    }
}

impl<G: BoardGame> Match for Session<G> {
    fn board_size(&self) -> (usize, usize) {
        self.game.board_size()
    }

    fn ply(&self) -> usize {
        self.moves.len()
    }

    fn move_list(&self) -> Vec<String> {
        self.moves.iter().map(|&mv| self.game.format_move(mv)).collect()
    }

    fn snapshot(&self, ply: usize) -> Snapshot {
        let ply = ply.min(self.moves.len());
        let state = if ply == self.moves.len() { self.state.clone() } else { self.state_after(ply) };
        let (w, h) = self.game.board_size();
        let stones: Vec<Option<Player>> =
            (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))).map(|c| self.game.stone(&state, c)).collect();
        let counts = [Player::First, Player::Second].map(|p| stones.iter().filter(|s| **s == Some(p)).count());
        // What the opening waits for belongs to the current position only.
        let step = (ply == self.moves.len()).then(|| self.swap_step());
        Snapshot {
            size: (w, h),
            to_move: self.game.side_to_move(&state),
            markers: self.markers(&state, step),
            area: match step {
                Some(Step::Place(_, area)) => area.corners((w, h)),
                _ => None,
            },
            last_move: ply.checked_sub(1).map(|i| self.reports[i].clone()),
            outcome: self.game.outcome(&state),
            end_reason: self.game.end_reason(&state),
            stones,
            counts,
        }
    }

    fn is_over(&self) -> bool {
        self.game.outcome(&self.state).is_some()
    }

    fn to_move(&self) -> Player {
        self.game.side_to_move(&self.state)
    }

    fn describe_score(&self, score: Score, exact: bool) -> String {
        self.game.describe_score(score, exact)
    }

    fn advantage(&self, score: Score, exact: bool) -> f32 {
        self.game.advantage(score, exact)
    }

    fn score_label(&self, score: Score, exact: bool) -> String {
        self.game.score_label(score, exact)
    }

    fn check_cell(&self, cell: Cell) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let mv = self.game.move_at(&self.state, cell)?;
        match self.swap_step() {
            Step::Offer(..) => self.check_mark(cell),
            _ => self.opening_allows(mv),
        }
    }

    fn cell_notation(&self, cell: Cell) -> Result<String, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        self.game.move_at(&self.state, cell).map(|mv| self.game.format_move(mv))
    }

    fn play_cell(&mut self, cell: Cell) -> Result<MoveReport, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let mv = self.game.move_at(&self.state, cell)?;
        self.play(mv)
    }

    fn must_pass(&self) -> bool {
        !self.is_over() && self.game.pass_move(&self.state).is_some()
    }

    fn pass(&mut self) -> Result<MoveReport, MoveError> {
        let mv = self.game.pass_move(&self.state).ok_or(MoveError::NoPass)?;
        self.play(mv)
    }

    fn play_notation(&mut self, text: &str) -> Result<MoveReport, MoveError> {
        let mv = self.game.parse_move(&self.state, text).map_err(|e| MoveError::Notation(e.to_string()))?;
        self.play(mv)
    }

    fn undo(&mut self) -> bool {
        if let Some(decision) = self.decisions.last().copied().filter(|d| d.ply == self.moves.len()) {
            self.decisions.pop();
            self.redo.push(Action::Choice(decision.choice));
            return true;
        }
        let Some(mv) = self.moves.pop() else { return false };
        self.reports.pop();
        self.state = self.state_after(self.moves.len());
        self.redo.push(Action::Move(mv));
        true
    }

    fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some(Action::Move(mv)) => {
                self.apply(mv);
            }
            Some(Action::Choice(choice)) => self.decisions.push(Decision { ply: self.moves.len(), choice }),
            None => return false,
        }
        true
    }

    fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    fn swap_step(&self) -> Step {
        self.procedure().map_or(Step::Play, |p| p.step(self.moves.len(), &self.decisions))
    }

    fn decisions(&self) -> Vec<Decision> {
        self.decisions.clone()
    }

    fn choose(&mut self, choice: Choice) -> Result<(), MoveError> {
        let procedure = self.procedure().ok_or(MoveError::Illegal("these rules have no swap opening".into()))?;
        procedure.check(self.moves.len(), &self.decisions, choice).map_err(|e| MoveError::Illegal(e.to_string()))?;
        if let Choice::Mark(cell) = choice {
            self.check_mark(cell)?;
        }
        if self.redo.last() == Some(&Action::Choice(choice)) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.decisions.push(Decision { ply: self.moves.len(), choice });
        Ok(())
    }

    fn opening_name(&self) -> Option<&'static str> {
        self.game.opening_name(&self.moves).filter(|_| self.rules_start)
    }

    fn choice_text(&self, choice: Choice) -> String {
        match choice {
            Choice::Mark(cell) => format!("{} {}", choice.id(), self.game.cell_name(cell)),
            _ => choice.id().to_string(),
        }
    }

    fn parse_choice(&self, text: &str) -> Result<Choice, MoveError> {
        if let Some(stone) = text.strip_prefix(swap::MARK_ID).and_then(|t| t.strip_prefix(' ')) {
            let mv = self.game.parse_move(&self.state, stone).map_err(|e| MoveError::Notation(e.to_string()))?;
            let cell = self.game.cell_of(mv).ok_or_else(|| MoveError::Notation(format!("{stone} is no stone")))?;
            return Ok(Choice::Mark(cell));
        }
        Choice::from_id(text).ok_or_else(|| {
            MoveError::Notation(format!("`{text}` is not black, white, place-two, offer or mark and a stone"))
        })
    }

    fn seat_of(&self, colour: Player) -> usize {
        self.procedure().map_or(colour.index(), |p| p.holder(&self.decisions, colour).index())
    }

    fn acting_seat(&self) -> usize {
        let to_move = self.to_move();
        self.procedure().map_or(to_move.index(), |p| p.actor(self.moves.len(), &self.decisions, to_move).index())
    }

    fn think_job_at(&self, ply: usize, level: &Level, seed: u64, threads: usize, stop: Arc<AtomicBool>) -> ThinkJob {
        if ply >= self.moves.len() && self.swap_step() != Step::Play {
            return self.swap_job(level, seed, threads, stop);
        }
        let state = if ply >= self.moves.len() { self.state.clone() } else { self.state_after(ply) };
        self.search_job(state, 1, level, seed, threads, stop)
    }

    fn lines_job(&self, lines: usize, level: &Level, seed: u64, threads: usize, stop: Arc<AtomicBool>) -> ThinkJob {
        self.search_job(self.state.clone(), lines.max(1), level, seed, threads, stop)
    }

    fn engine_protocol(&self) -> Option<Protocol> {
        self.engine_rules().map(EngineRules::protocol)
    }

    fn restart_from(&mut self, start: &StartPosition) -> Result<(), String> {
        let state = self.game.setup_state(&start.stones, start.to_move)?;
        self.rules_start = self.game.recompute_hash(&state) == self.game.recompute_hash(&self.game.initial_state());
        self.start = state.clone();
        self.state = state;
        self.moves.clear();
        self.reports.clear();
        self.decisions.clear();
        self.redo.clear();
        Ok(())
    }

    fn set_up_start(&self) -> Option<StartPosition> {
        (!self.rules_start).then(|| self.snapshot(0).position())
    }

    fn engine_job(
        &self,
        ply: usize,
        connection: Arc<Mutex<Connection>>,
        turn: Duration,
        stop: Arc<AtomicBool>,
    ) -> EngineJob {
        let ply = ply.min(self.moves.len());
        let state = self.state_after(ply);
        let moves = self.moves[..ply].to_vec();
        let game = self.game.clone();
        let rules = self.engine_rules();
        Box::new(move || {
            let mut connection = connection.lock().unwrap_or_else(PoisonError::into_inner);
            let started = std::time::Instant::now();
            let (mv, eval) = external::ask(&game, rules, &state, &moves, &mut connection, turn, &stop)?;
            let notation = game.format_move(mv);
            let score = eval.and_then(|e| game.engine_score(e));
            Ok(Analysis {
                line: vec![notation.clone()],
                notation,
                cell: game.cell_of(mv),
                depth: 0,
                score: score.unwrap_or(0),
                nodes: 0,
                nps: 0,
                elapsed: started.elapsed(),
                proven: false,
                exact: false,
                external: Some(ExternalAnswer { engine: connection.spec().name.clone(), evaluated: score.is_some() }),
                choice: None,
            })
        })
    }
}

impl<G: BoardGame> Session<G> {
    /// How the rule set is told to an external engine, when it can be: the game must have started from the rule
    /// set's own start.
    fn engine_rules(&self) -> Option<EngineRules> {
        self.game.engine_rules().filter(|_| self.rules_start)
    }

    /// A job that runs `work` on the game's engine (made at the first search, kept for the whole game) on
    /// `threads` threads.
    fn engine_work(
        &self,
        threads: usize,
        work: impl FnOnce(&mut Engine<G>, &G, &mut dyn FnMut(Analysis)) -> Option<Analysis> + Send + 'static,
    ) -> ThinkJob {
        let game = self.game.clone();
        let engine = Arc::clone(&self.engine);
        Box::new(move |progress: &mut dyn FnMut(Analysis)| {
            let mut slot = engine.lock().unwrap_or_else(PoisonError::into_inner);
            let engine = slot.get_or_insert_with(|| Engine::new(game.clone()));
            engine.set_threads(threads);
            work(engine, &game, progress)
        })
    }

    /// The computer's turn in the swap opening ([`swap::Program::turn`]): a stone, or a choice
    /// ([`Analysis::choice`]).
    fn swap_job(&self, level: &Level, seed: u64, threads: usize, stop: Arc<AtomicBool>) -> ThinkJob {
        let (state, step, level, made) = (self.state.clone(), self.swap_step(), level.clone(), self.decisions.clone());
        self.engine_work(threads, move |engine, game, progress| {
            let mut program = swap::Program { engine, level: &level, seed, stop: Some(stop) };
            let (choice, result) = program.turn(&state, step, &made)?;
            let mut analysis = describe(game, &result.info(), result.proven);
            if let Some(choice) = choice {
                analysis.notation = match choice {
                    Choice::Mark(cell) => format!("offers {}", game.cell_name(cell)),
                    _ => choice.label().to_string(),
                };
                analysis.cell = None;
                analysis.choice = Some(choice);
            }
            progress(analysis.clone());
            Some(analysis)
        })
    }

    /// A search of `state` for its best `lines` moves, each searched at `level` without the ones found before.
    /// With one line, progress hears of every finished depth; with more, of every finished line.
    fn search_job(
        &self,
        state: G::State,
        lines: usize,
        level: &Level,
        seed: u64,
        threads: usize,
        stop: Arc<AtomicBool>,
    ) -> ThinkJob {
        let level = level.clone();
        self.engine_work(threads, move |engine, game, progress| {
            let describe = |info: &SearchInfo<G::Move>, proven| describe(game, info, proven);
            if lines == 1 {
                let result =
                    engine.think(&state, &level, seed, Some(stop), &mut |info| progress(describe(info, false)));
                result.best_move?;
                return Some(describe(&result.info(), result.proven));
            }
            let results = engine.think_lines(&state, &level, seed, Some(stop), lines, &[], &mut |result| {
                progress(describe(&result.info(), result.proven));
            });
            results.first().map(|result| describe(&result.info(), result.proven))
        })
    }
}

/// A step of the history that undo and redo walk: a move, or a choice of a swap opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action<M> {
    Move(M),
    Choice(Choice),
}

/// A search's report as an [`Analysis`].
fn describe<G: BoardGame>(game: &G, info: &SearchInfo<G::Move>, proven: bool) -> Analysis {
    Analysis {
        notation: info.pv.first().map(|&m| game.format_move(m)).unwrap_or_default(),
        cell: info.pv.first().and_then(|&m| game.cell_of(m)),
        depth: info.depth,
        score: info.score,
        line: info.pv.iter().map(|&m| game.format_move(m)).collect(),
        nodes: info.nodes,
        nps: info.nps,
        elapsed: info.elapsed,
        proven,
        exact: info.exact,
        external: None,
        choice: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::Othello;
    use tabula_core::Game as _;

    #[test]
    fn the_final_score_gives_the_empties_to_the_winner() {
        // Six Black, 57 White and one empty cell.
        let mut stones = vec![Some(Player::Second); 57];
        stones.extend([Some(Player::First); 6]);
        stones.push(None);
        let finished = |result, margin| Snapshot {
            size: (8, 8),
            stones: stones.clone(),
            to_move: Player::First,
            markers: Vec::new(),
            last_move: None,
            outcome: Some(Outcome { result, margin }),
            end_reason: None,
            counts: [6, 57],
            area: None,
        };
        assert_eq!(finished(GameResult::Win(Player::Second), Some(52)).final_score(), Some([6, 58]));
        assert_eq!(finished(GameResult::Win(Player::First), Some(1)).final_score(), Some([7, 57]));
        assert_eq!(finished(GameResult::Win(Player::Second), None).final_score(), None, "a game without a score");
        let mut split = finished(GameResult::Draw, Some(0));
        split.stones = [vec![Some(Player::First); 30], vec![Some(Player::Second); 30], vec![None; 4]].concat();
        split.counts = [30, 30];
        assert_eq!(split.final_score(), Some([32, 32]), "four empties split two and two");
        split.outcome = None;
        assert_eq!(split.final_score(), None, "a game in progress");
    }

    #[test]
    fn a_game_keeps_what_its_searches_learned() {
        let session = Session::new(Othello::from_rule_set("othello").expect("a rule set"));
        let think = || (session.think_job(&Level::custom(7), 1, 1, Arc::default()))(&mut |_| {}).expect("a move");
        let (first, second) = (think(), think());
        assert!(second.nodes * 2 < first.nodes, "{} nodes, then {} nodes", first.nodes, second.nodes);
    }

    fn swap2() -> Session<crate::gomoku::Gomoku> {
        Session::new(crate::gomoku::variants::from_rule_set("freestyle-swap2").expect("a rule set"))
    }

    #[test]
    fn a_swap2_game_asks_for_its_choices_and_undo_walks_them_like_moves() {
        use crate::swap::Person;
        let mut game = swap2();
        for (i, cell) in ["h8", "h9", "i9"].into_iter().enumerate() {
            assert_eq!(game.acting_seat(), 0, "the opener places stone {}", i + 1);
            game.play_notation(cell).expect("legal");
        }
        assert!(matches!(game.swap_step(), Step::Choose(Person::Responder, _)));
        assert_eq!(game.acting_seat(), 1);
        assert!(game.play_notation("j10").is_err(), "no stone before the choice");
        assert!(game.choose(Choice::PlaceTwo).is_ok());
        game.play_notation("j10").expect("White's fourth stone, by the responder");
        assert_eq!(game.acting_seat(), 1, "the responder places the fifth stone too");
        game.play_notation("g7").expect("Black's fifth");
        assert_eq!(game.swap_step(), Step::Choose(Person::Opener, &[Choice::Black, Choice::White]));
        assert!(game.choose(Choice::PlaceTwo).is_err());
        game.choose(Choice::White).expect("the opener takes White");
        assert_eq!((game.seat_of(Player::First), game.seat_of(Player::Second)), (1, 0));
        assert_eq!(game.acting_seat(), 0, "the opener, now White, plays the sixth stone");
        game.play_notation("k11").expect("legal");
        assert_eq!(game.acting_seat(), 1);
        // Undo takes back the stone, then the choice; redo brings both back.
        assert!(game.undo());
        assert_eq!(game.decisions().len(), 2);
        assert!(game.undo());
        assert_eq!(game.decisions().len(), 1);
        assert!(matches!(game.swap_step(), Step::Choose(Person::Opener, _)));
        assert_eq!(game.seat_of(Player::First), 0, "the colours are back as they started");
        assert!(game.redo() && game.redo());
        assert_eq!((game.ply(), game.decisions().len(), game.acting_seat()), (6, 2, 1));
        // A different choice drops what could be redone.
        assert!(game.undo() && game.undo());
        game.choose(Choice::Black).expect("the opener keeps Black");
        assert!(!game.can_redo());
        assert_eq!(game.acting_seat(), 1, "the responder plays White's sixth stone");
    }

    #[test]
    fn the_computer_places_opening_stones_and_chooses_a_colour() {
        let mut game = swap2();
        let level = Level::custom(3);
        for _ in 0..3 {
            let answer = (game.think_job(&level, 7, 1, Arc::default()))(&mut |_| {}).expect("a stone");
            assert_eq!(answer.choice, None);
            game.play_cell(answer.cell.expect("a cell")).expect("a legal stone");
        }
        let answer = (game.think_job(&level, 7, 1, Arc::default()))(&mut |_| {}).expect("a choice");
        let choice = answer.choice.expect("the responder's choice");
        game.choose(choice).expect("one of the choices offered");
        // A game from a position set up by hand plays without the procedure.
        let start = game.current().position();
        game.restart_from(&start).expect("a legal position");
        assert_eq!((game.swap_step(), game.decisions().len()), (Step::Play, 0));
    }

    fn taraguchi() -> Session<crate::gomoku::Gomoku> {
        Session::new(crate::gomoku::variants::from_rule_set("renju-taraguchi-10").expect("a rule set"))
    }

    #[test]
    fn taraguchi_10_keeps_each_stone_in_its_square_and_offers_ten_distinct_fifth_stones() {
        let mut game = taraguchi();
        assert_eq!(game.current().area, Some((Cell::new(7, 7), Cell::new(7, 7))), "the board shades the centre");
        assert_eq!(
            game.play_notation("h9").err().map(|e| e.to_string()),
            Some("this stone of the opening goes on the centre".into())
        );
        game.play_notation("h8").expect("the centre");
        assert!(game.play_notation("i9").is_err(), "the right to swap comes first");
        game.choose(Choice::White).expect("the responder keeps White");
        let err = game.play_notation("j8").err().map(|e| e.to_string());
        assert_eq!(err, Some("this stone of the opening goes inside the central 3x3 square".into()));
        game.play_notation("i8").expect("inside the 3x3");
        game.choose(Choice::Black).expect("the opener keeps Black");
        game.play_notation("g9").expect("inside the 5x5");
        game.choose(Choice::White).expect("the responder keeps White");
        assert!(game.play_notation("l8").is_err(), "outside the 7x7");
        game.play_notation("k8").expect("inside the 7x7");
        game.choose(Choice::Offer).expect("the opener offers");
        assert_eq!(game.current().area, None, "offers go anywhere");
        assert!(game.play_notation("h10").is_err(), "no stone while the offers are marked");
        let rules = game.game.clone();
        let cell = |name: &str| {
            rules.cell_of(rules.parse_move(&rules.initial_state(), name).expect("a cell")).expect("a stone")
        };
        let (h10, h6, i10) = (cell("h10"), cell("h6"), cell("i10"));
        game.choose(Choice::Mark(h10)).expect("a free cell");
        assert!(game.choose(Choice::Mark(h10)).is_err(), "offered already");
        // The four stones h8 i8 g9 k8 lie on row 8 and g9 breaks every other symmetry: no twins here, so mirror
        // images through row 8 are distinct offers. With only h8 and i8 there would be twins.
        game.choose(Choice::Mark(h6)).expect("not a twin: g9 breaks the mirror");
        assert!(game.choose(Choice::Mark(cell("i8"))).is_err(), "occupied");
        game.choose(Choice::Mark(i10)).expect("free");
        assert_eq!(game.current().markers.iter().filter(|m| m.1 == Marker::Offered).count(), 3);
        game.undo();
        assert_eq!(swap::Procedure::marks(&game.decisions), [h10, h6], "undo takes back a mark");
        game.redo();
        let level = Level::custom(2);
        while let Step::Offer(..) = game.swap_step() {
            let answer = (game.think_job(&level, 3, 1, Arc::default()))(&mut |_| {}).expect("a mark");
            game.choose(answer.choice.expect("a mark")).expect("the computer's mark is allowed");
        }
        let marks = swap::Procedure::marks(&game.decisions);
        assert_eq!(marks.len(), swap::TARAGUCHI_OFFERS);
        assert!(matches!(game.swap_step(), Step::Pick(swap::Person::Responder)));
        assert_eq!(game.acting_seat(), 1);
        let off = (0..15).map(|x| Cell::new(x, 0)).find(|c| !marks.contains(c)).expect("a free cell");
        assert!(game.play_cell(off).is_err(), "only an offered stone");
        let answer = (game.think_job(&level, 3, 1, Arc::default()))(&mut |_| {}).expect("a pick");
        let picked = answer.cell.expect("a cell");
        assert!(marks.contains(&picked), "the computer picks an offer");
        game.play_cell(picked).expect("allowed");
        assert_eq!((game.swap_step(), game.acting_seat(), game.to_move()), (Step::Play, 1, Player::Second));
        let text = game.choice_text(Choice::Mark(h10));
        assert_eq!(text, "mark h10");
        assert_eq!(game.parse_choice("offer"), Ok(Choice::Offer));
        assert!(game.parse_choice("mark zz").is_err());
    }

    #[test]
    fn the_computer_plays_a_taraguchi_opening_by_the_rules() {
        let mut game = taraguchi();
        let level = Level::custom(2);
        while game.swap_step() != Step::Play {
            let answer = (game.think_job(&level, 5, 1, Arc::default()))(&mut |_| {}).expect("a turn");
            match (answer.choice, answer.cell) {
                (Some(choice), _) => game.choose(choice).expect("a choice the rules allow"),
                (None, Some(cell)) => game.play_cell(cell).map(|_| ()).expect("a stone the rules allow"),
                (None, None) => panic!("neither a stone nor a choice"),
            }
        }
        assert!(game.ply() >= 5, "the opening ends with the fifth stone");
    }

    #[test]
    fn an_othello_game_names_its_opening() {
        let mut game = Session::new(Othello::from_rule_set("othello").expect("a rule set"));
        assert_eq!(game.opening_name(), None);
        for mv in ["f5", "d6", "c3", "d3", "c4"] {
            game.play_notation(mv).expect("legal");
        }
        assert_eq!(game.opening_name(), Some("Tiger"));
        let anti = Session::new(Othello::from_rule_set("anti-othello").expect("a rule set"));
        assert_eq!(anti.opening_name(), None);
        let start = game.current().position();
        game.restart_from(&start).expect("a legal position");
        assert_eq!(game.opening_name(), None, "a set-up position follows no catalogued opening");
    }
}
