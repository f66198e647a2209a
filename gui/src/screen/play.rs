//! The play screen: the board, whose turn it is, the counts, the move list, the computer's analysis, the game's
//! controls and the result banner. The game flow (turns, the computer, undo) lives in [`Play`]'s methods; the
//! app connects them to the computer's thinking and to storage.

use std::time::Instant;

use iced::widget::canvas::{self, Cache};
use iced::widget::{button, column, container, row, scrollable, space, text};
use iced::{Background, Border, Color, Element, Fill, Length, Padding, Theme};
use tabula_core::{GameResult, Outcome, Player};
use tabula_games::{Analysis, Cell, Match, MoveReport, Snapshot};

use crate::ai_task::{Finished, Purpose, Thinking};
use crate::animation::{FlipAnimation, IllegalFlash};
use crate::board_canvas::{BoardOptions, BoardStyle, BoardView, Coordinates, StoneIcon};
use crate::focus::Focus;
use crate::keys::{self, Shortcut};
use crate::screen::widgets::{action, card_style, tipped};
use crate::settings::Settings;
use crate::theme::board_palette;
use tabula_games::clock::{Clock, clock_text};
use tabula_games::registry::GameKind;
use tabula_games::setup::{GameSetup, Seat, colour_name};
use tabula_games::swap::{self, Area, Choice, Person, Step};

/// What the play screen asks of the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// A click on a board cell.
    Clicked(Cell),
    /// The human passes (announced when it is the only move).
    Pass,
    /// Take back a move (against the computer: back to the human's previous turn).
    Undo,
    /// Replay an undone move.
    Redo,
    /// Ask the computer for a move suggestion.
    Hint,
    /// Tell the thinking computer to play the best move it has found so far.
    MoveNow,
    /// The human gives up.
    Resign,
    /// Show the position after this many moves.
    View(usize),
    /// Back to the current position.
    ViewLive,
    /// Pause or resume a computer-vs-computer game.
    TogglePause,
    /// Judge every position of the game (Analyze game), or stop the review.
    Review,
    /// Show the values of the best moves on their squares, or hide them.
    Values,
    /// Save this game: the saved-games screen, with its name field.
    OpenSave,
    /// Open another game: the saved-games screen.
    OpenLoad,
    /// Open the new-game form filled in from this game.
    NewGame,
    /// Show the keyboard help.
    Keyboard,
    /// Back to the menu (asking first when a game is in progress).
    Leave,
    /// Ask before resigning.
    AskResign,
    /// The human's choice in a swap opening.
    Choose(Choice),
    /// Something about the network game this screen mirrors.
    Online(crate::screen::online::Msg),
}

/// How much of a sure win (on the -1 to 1 scale of [`tabula_games::Match::advantage`]) a move must lose to be
/// marked a mistake: about 10 discs in Othello, 7 points of win chance in Gomoku.
pub const MISTAKE: f32 = 0.15;

/// The widget id of the move list's entry for the position shown, which the list scrolls to.
pub const VIEWED_MOVE: iced::widget::Id = iced::widget::Id::new("tabula-viewed-move");

/// What a play-screen message asks of the app.
pub enum Action {
    /// Nothing more.
    None,
    /// The game changed: save it, count it, and let the computer move if it is its turn.
    Changed,
    /// Search a move for the human.
    Hint,
    /// Judge the position after this many moves, for the review.
    Review(usize),
    /// Find the values of the best moves.
    Values,
    /// The saved-games screen (saving this game, or opening another).
    SavedGames,
    /// Open the new-game form filled in from this game.
    NewGame,
    /// Show the keyboard help.
    Keyboard,
    /// Back to the menu (asking first when a game is in progress).
    Leave,
    /// Ask before resigning.
    AskResign,
    /// Something about the network game.
    Online(crate::screen::online::Msg),
}

/// A game on the play screen.
pub struct Play {
    /// Who plays what.
    pub setup: GameSetup,
    /// The game itself.
    pub game: Box<dyn Match>,
    /// The ply shown when looking back through the moves; `None` shows the current position.
    pub viewing: Option<usize>,
    /// The computer's search in progress.
    pub thinking: Option<Thinking>,
    /// The computer's last finished analysis, with the side it was for.
    pub analysis: Option<(Player, Analysis)>,
    /// A suggested move for the human.
    pub hint: Option<Cell>,
    /// The computer's judgement of each position of the game (index: moves played), as the side to move there
    /// and the first player's share of a sure win (-1 to 1): from its moves, hints and reviews.
    pub evaluations: Vec<Option<(Player, f32)>>,
    /// A review of the game is running: each position is judged in turn.
    pub reviewing: bool,
    /// The values of the best moves, written on their squares, with the computer's score for each.
    pub values: Vec<(Cell, String)>,
    /// The lines behind those values, best first, for the analysis panel.
    pub value_lines: Vec<Analysis>,
    /// Discs turning over.
    pub animation: Option<FlipAnimation>,
    /// A line about what just happened (a pass, an illegal click, a saved file).
    pub status: Option<String>,
    /// The player who resigned.
    pub resigned: Option<Player>,
    /// Both sides' clocks, in a game with a time control.
    pub clock: Option<Clock>,
    /// Whether the result has been counted in the statistics.
    pub recorded: bool,
    /// A computer-vs-computer game waits.
    pub paused: bool,
    /// The keyboard cursor, once a cursor key has been pressed.
    pub cursor: Option<Cell>,
    /// The last refused move, blinking.
    pub flash: Option<IllegalFlash>,
    /// The colour the other player plays over the network, in an online game.
    pub remote: Option<Player>,
    /// The static board drawing.
    pub cache: Cache,
    numbers: Vec<Option<usize>>,
}

impl Play {
    /// A game of `setup` on `game` (which may already have moves).
    #[must_use]
    pub fn new(setup: GameSetup, game: Box<dyn Match>) -> Play {
        let mut play = Play {
            setup,
            game,
            viewing: None,
            thinking: None,
            analysis: None,
            hint: None,
            evaluations: Vec::new(),
            reviewing: false,
            values: Vec::new(),
            value_lines: Vec::new(),
            animation: None,
            status: None,
            resigned: None,
            clock: None,
            recorded: false,
            paused: false,
            cursor: None,
            flash: None,
            remote: None,
            cache: Cache::new(),
            numbers: Vec::new(),
        };
        play.refresh();
        play
    }

    /// The game being played.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        self.setup.spec.game
    }

    /// Whether the game has ended (by the rules or a resignation).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.resigned.is_some() || self.flagged().is_some() || self.game.is_over()
    }

    /// The result if the game has ended: by resignation, by the clock or by the rules.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match self.resigned.or(self.flagged()) {
            Some(loser) => Some(Outcome::win(loser.opponent())),
            None => self.game.current().outcome,
        }
    }

    /// The player whose time ran out, which loses the game.
    #[must_use]
    pub fn flagged(&self) -> Option<Player> {
        self.clock.as_ref().and_then(Clock::flagged)
    }

    /// Whether a human at this computer is to move (or to choose, in a swap opening) and may act.
    #[must_use]
    pub fn human_to_move(&self) -> bool {
        let to_move = self.game.to_move();
        !self.is_over() && !self.acting().is_computer() && self.remote != Some(to_move)
    }

    /// Whether the computer should be thinking about its move (or its choice) now.
    #[must_use]
    pub fn computer_to_move(&self) -> bool {
        !self.is_over() && !self.paused && self.acting().is_computer()
    }

    /// The seat that acts now: places the next stone, makes the swap opening's choice, or holds the colour to move.
    #[must_use]
    pub fn acting(&self) -> &Seat {
        &self.setup.seats[self.game.acting_seat()]
    }

    /// The seat that holds `colour` now (a swap opening's choice can give the form's Black seat White).
    #[must_use]
    pub fn seat_of(&self, colour: Player) -> &Seat {
        &self.setup.seats[self.game.seat_of(colour)]
    }

    /// The colour the one human playing the computer holds now.
    #[must_use]
    pub fn human_colour(&self) -> Option<Player> {
        let seat = self.setup.lone_human()?.index();
        Some(if self.game.seat_of(Player::First) == seat { Player::First } else { Player::Second })
    }

    /// Makes the human's choice in a swap opening.
    fn choose(&mut self, choice: Choice) -> Action {
        if !self.human_to_move() || self.viewing.is_some() || self.thinking.is_some() {
            return Action::None;
        }
        self.status = Some(match self.game.choose(choice) {
            Ok(()) => format!("You chose: {}.", choice.label().to_lowercase()),
            Err(reason) => reason.to_string(),
        });
        self.hint = None;
        self.refresh();
        Action::Changed
    }

    /// The search for the computer's own move, if one runs (not a hint's).
    #[must_use]
    pub fn move_search(&self) -> Option<&Thinking> {
        self.thinking.as_ref().filter(|t| t.purpose == Purpose::Move)
    }

    /// Stops any search; its answer will be dropped as stale.
    pub fn cancel_thinking(&mut self) {
        self.thinking = None;
        self.reviewing = false;
    }

    /// Recomputes what is derived from the moves (move numbers).
    pub fn refresh(&mut self) {
        // Values belong to the position they were searched in.
        self.values.clear();
        self.value_lines.clear();
        let ply = self.viewing.unwrap_or(self.game.ply());
        let (w, h) = self.game.board_size();
        let mut numbers = vec![None; w * h];
        if self.kind().descriptor().look.numbers_moves {
            for i in 1..=ply {
                if let Some(cell) = self.game.snapshot(i).last_move.and_then(|m| m.placed) {
                    numbers[cell.y * w + cell.x] = Some(i);
                }
            }
        }
        self.numbers = numbers;
    }

    /// Plays the human's click, or explains why not; an illegal click changes nothing but the status line and
    /// makes the cell blink.
    pub fn click(&mut self, cell: Cell, settings: &Settings) -> bool {
        if self.viewing.is_some() || !self.human_to_move() || self.move_search().is_some() {
            return false;
        }
        if let Step::Offer(..) = self.game.swap_step() {
            return match self.game.choose(Choice::Mark(cell)) {
                Ok(()) => {
                    self.status = Some(format!("You offered {}.", self.game.cell_notation(cell).unwrap_or_default()));
                    self.refresh();
                    true
                }
                Err(reason) => {
                    self.refuse(cell, &reason.to_string(), settings);
                    false
                }
            };
        }
        match self.game.play_cell(cell) {
            Ok(report) => {
                self.after_move(&report, settings);
                true
            }
            Err(reason) => {
                self.refuse(cell, &reason.to_string(), settings);
                false
            }
        }
    }

    /// Explains why a move on `cell` was refused: the status line, a blink on the board and, if wanted, a bell.
    pub fn refuse(&mut self, cell: Cell, reason: &str, settings: &Settings) {
        self.status = Some(format!("{}: {reason}", cell_name(cell, self.game.board_size(), self.kind())));
        self.flash = Some(IllegalFlash::new(cell, Instant::now()));
        if settings.sound {
            crate::bell::ring();
        }
    }

    /// Bookkeeping after any move: animation, hint and status.
    pub fn after_move(&mut self, report: &MoveReport, settings: &Settings) {
        self.cancel_thinking();
        if let (Some(clock), Some(mover)) = (&mut self.clock, report.player) {
            clock.moved(mover, Instant::now());
            if self.game.is_over() {
                clock.stop(Instant::now());
            }
        }
        // Judgements of positions past this one belonged to another line.
        self.evaluations.truncate(self.game.ply());
        self.hint = None;
        self.animation = settings.animation.flip_time().and_then(|t| FlipAnimation::new(report, t, Instant::now()));
        self.status = report.placed.is_none().then(|| {
            let who = report.player.map_or("The player", colour_name);
            format!("{who} has no legal move and passes.")
        });
        self.refresh();
    }

    /// Undo: one move between humans; against the computer, back to the human's previous turn.
    pub fn undo(&mut self) {
        if self.flagged().is_some() {
            return;
        }
        self.cancel_thinking();
        self.hint = None;
        self.animation = None;
        self.viewing = None;
        if self.resigned.take().is_some() {
            self.status = Some("Resignation taken back.".into());
            return;
        }
        if !self.game.undo() {
            return;
        }
        match self.setup.lone_human() {
            Some(human) => while self.game.acting_seat() != human.index() && self.game.undo() {},
            None if self.setup.seats.iter().all(Seat::is_computer) => self.paused = true,
            None => {}
        }
        self.status = None;
        self.refresh();
    }

    /// Redo: one move, or against the computer up to the human's next turn.
    pub fn redo(&mut self) {
        self.cancel_thinking();
        self.hint = None;
        self.animation = None;
        self.viewing = None;
        if !self.game.redo() {
            return;
        }
        if let Some(human) = self.setup.lone_human() {
            while self.game.acting_seat() != human.index() && self.game.can_redo() && self.game.redo() {}
        }
        self.status = None;
        self.refresh();
    }

    /// The human to move gives up.
    pub fn resign(&mut self) {
        if self.is_over() {
            return;
        }
        self.cancel_thinking();
        let loser = self.human_colour().unwrap_or(self.game.to_move());
        self.resigned = Some(loser);
        if let Some(clock) = &mut self.clock {
            clock.stop(Instant::now());
        }
        self.status = None;
    }

    /// Applies the computer's chosen move; `false` when it could not be played.
    pub fn apply_computer_move(&mut self, analysis: &Analysis, settings: &Settings) -> bool {
        if let Some(choice) = analysis.choice {
            let chooser = if self.game.acting_seat() == 0 { "first" } else { "second" };
            let done = self.game.choose(choice);
            self.status = Some(match &done {
                Ok(()) if matches!(choice, Choice::Mark(_)) => format!("The {chooser} player {}.", analysis.notation),
                Ok(()) => format!("The {chooser} player chose: {}.", choice.label().to_lowercase()),
                Err(reason) => format!("The computer's choice failed: {reason}"),
            });
            self.cancel_thinking();
            self.refresh();
            return done.is_ok();
        }
        let result = match analysis.cell {
            Some(cell) => self.game.play_cell(cell),
            None => self.game.pass(),
        };
        match result {
            Ok(report) => {
                self.after_move(&report, settings);
                true
            }
            Err(reason) => {
                self.status = Some(format!("The computer's move {} failed: {reason}", analysis.notation));
                false
            }
        }
    }

    /// Moves the keyboard cursor by (dx, dy), stopping at the edges; the first press shows it in the centre.
    pub fn move_cursor(&mut self, dx: i32, dy: i32) {
        let (w, h) = self.game.board_size();
        self.cursor = Some(match self.cursor {
            None => Cell::new(w / 2, h / 2),
            Some(c) => {
                let step = |v: usize, d: i32, n: usize| (v as i64 + i64::from(d)).clamp(0, n as i64 - 1) as usize;
                Cell::new(step(c.x, dx, w), step(c.y, dy, h))
            }
        });
    }

    /// Handles a message of the play screen.
    pub fn update(&mut self, msg: Msg, settings: &Settings) -> Action {
        match msg {
            Msg::Clicked(cell) if self.click(cell, settings) => return Action::Changed,
            Msg::Clicked(_) => {}
            Msg::Pass => {
                if self.human_to_move()
                    && self.game.must_pass()
                    && let Ok(report) = self.game.pass()
                {
                    self.after_move(&report, settings);
                    return Action::Changed;
                }
            }
            Msg::Undo => {
                self.undo();
                return Action::Changed;
            }
            Msg::Redo => {
                self.redo();
                return Action::Changed;
            }
            Msg::Hint => return Action::Hint,
            Msg::Choose(choice) => return self.choose(choice),
            Msg::Values if !self.values.is_empty() => {
                self.values.clear();
                self.value_lines.clear();
            }
            Msg::Values => return Action::Values,
            Msg::Review if self.reviewing => {
                self.reviewing = false;
                self.cancel_thinking();
                self.status = Some("Review stopped.".into());
                return Action::Changed;
            }
            Msg::Review => {
                if self.thinking.is_some() {
                    return Action::None;
                }
                self.reviewing = true;
                self.status = Some("Reviewing the game…".into());
                return self.next_review(0);
            }
            Msg::MoveNow => {
                if let Some(thinking) = self.move_search() {
                    thinking.move_now();
                }
            }
            Msg::Resign => {
                self.resign();
                return Action::Changed;
            }
            Msg::View(ply) => self.view(ply),
            Msg::ViewLive => self.view(self.game.ply()),
            Msg::TogglePause => {
                self.paused = !self.paused;
                if self.paused {
                    self.cancel_thinking();
                    if let Some(clock) = &mut self.clock {
                        clock.stop(Instant::now());
                    }
                }
                return Action::Changed;
            }
            Msg::OpenSave | Msg::OpenLoad => return Action::SavedGames,
            Msg::NewGame => return Action::NewGame,
            Msg::Keyboard => return Action::Keyboard,
            Msg::Leave => return Action::Leave,
            Msg::AskResign => return Action::AskResign,
            Msg::Online(msg) => return Action::Online(msg),
        }
        Action::None
    }

    /// What a key means on the play screen, when no control has the focus: the arrows move the board cursor
    /// (and nothing more is sent).
    pub fn shortcut(&mut self, shortcut: Shortcut) -> Option<Msg> {
        let shown = self.shown_ply();
        Some(match shortcut {
            Shortcut::Cursor(dx, dy) => {
                self.move_cursor(dx, dy);
                return None;
            }
            Shortcut::Place => Msg::Clicked(self.cursor?),
            Shortcut::Undo => Msg::Undo,
            Shortcut::Redo => Msg::Redo,
            Shortcut::Hint if self.move_search().is_some() => Msg::MoveNow,
            Shortcut::Hint => Msg::Hint,
            Shortcut::NewGame => Msg::NewGame,
            Shortcut::Save => Msg::OpenSave,
            Shortcut::Load => Msg::OpenLoad,
            Shortcut::Menu => Msg::Leave,
            Shortcut::First => Msg::View(0),
            Shortcut::Last => Msg::ViewLive,
            Shortcut::Back => Msg::View(shown.saturating_sub(1)),
            Shortcut::Forward => Msg::View(shown + 1),
            Shortcut::FullScreen | Shortcut::KeyboardHelp | Shortcut::FocusNext | Shortcut::FocusPrevious => {
                return None;
            }
        })
    }

    /// The review's next step from position `from`: the first position not yet judged, or the end of the review.
    fn next_review(&mut self, from: usize) -> Action {
        let last = self.game.ply();
        let next = (from..=last).find(|&ply| self.evaluations.get(ply).copied().flatten().is_none());
        match next {
            Some(ply) if ply < last || !self.game.is_over() => Action::Review(ply),
            _ => {
                self.reviewing = false;
                let mistakes = self.mistakes().len();
                self.status = Some(match mistakes {
                    0 => "Review done: no move lost much.".into(),
                    1 => "Review done: one mistake, marked ? in the moves.".into(),
                    n => format!("Review done: {n} mistakes, marked ? in the moves."),
                });
                Action::Changed
            }
        }
    }

    /// Notes the computer's judgement of the position after `ply` moves, where `side` is to move (nothing for an
    /// engine's move without an evaluation).
    fn judge(&mut self, ply: usize, side: Player, analysis: &Analysis) {
        if !analysis.is_judgement() {
            return;
        }
        if self.evaluations.len() <= ply {
            self.evaluations.resize(ply + 1, None);
        }
        let mover = self.game.advantage(analysis.score, analysis.exact);
        let first = if side == Player::First { mover } else { -mover };
        self.evaluations[ply] = Some((side, first));
    }

    /// The moves (by their ply, 1 for the first) that lost the mover more than [`MISTAKE`] of a sure win, by the
    /// judgements of the positions before and after them.
    #[must_use]
    pub fn mistakes(&self) -> Vec<usize> {
        let judged = |ply: usize| self.evaluations.get(ply).copied().flatten();
        (0..self.evaluations.len())
            .filter(|&ply| {
                let (Some((mover, before)), Some((_, after))) = (judged(ply), judged(ply + 1)) else { return false };
                let lost = if mover == Player::First { before - after } else { after - before };
                lost > MISTAKE
            })
            .map(|ply| ply + 1)
            .collect()
    }

    /// Takes the answer of a search: plays the computer's move, shows the hint, or goes on with the review.
    /// `None` when the answer is stale (from a search this game no longer waits for).
    pub fn finish_search(&mut self, finished: Finished, settings: &Settings) -> Option<Action> {
        if self.thinking.as_ref().is_none_or(|t| t.generation != finished.generation) {
            return None;
        }
        self.thinking = None;
        if let Some(error) = finished.error {
            self.reviewing = false;
            self.status = Some(if finished.purpose == Purpose::Move {
                // The game waits rather than asking again at once: the player chooses what happens next.
                self.paused = true;
                format!("{error}. The game waits: press Resume to ask again, or start a new game with another player.")
            } else {
                format!("{error}.")
            });
            return Some(Action::Changed);
        }
        let side = self.game.to_move();
        match (finished.purpose, finished.analysis) {
            (Purpose::Move, Some(analysis)) => {
                self.judge(self.game.ply(), side, &analysis);
                self.apply_computer_move(&analysis, settings);
                self.analysis = Some((side, analysis));
            }
            (Purpose::Move, None) => self.status = Some("The computer found no move.".into()),
            (Purpose::Hint, Some(analysis)) => {
                self.judge(self.game.ply(), side, &analysis);
                self.hint = analysis.cell;
                self.status = Some(format!("Hint: {}", analysis.notation));
                self.analysis = Some((side, analysis));
            }
            (Purpose::Hint, None) => self.status = Some("No hint: there is nothing to play.".into()),
            (Purpose::Values(_), _) => {
                if let Some(best) = finished.lines.first() {
                    self.judge(self.game.ply(), side, best);
                }
                let game = self.game.as_ref();
                self.values =
                    finished.lines.iter().filter_map(|a| Some((a.cell?, game.score_label(a.score, a.exact)))).collect();
                self.value_lines = finished.lines;
                if self.values.is_empty() {
                    self.status = Some("No values: there is nothing to play.".into());
                }
            }
            (Purpose::Review(_), Some(analysis)) if !analysis.is_judgement() => {
                let name = analysis.external.map(|e| e.engine).unwrap_or_default();
                self.reviewing = false;
                self.status = Some(format!(
                    "{name} gives no evaluations, so it cannot review a game: choose Tabula's own search under Hints and \
                     reviews from, in Settings."
                ));
            }
            (Purpose::Review(ply), analysis) => {
                if let Some(analysis) = analysis {
                    let mover = self.game.snapshot(ply).to_move;
                    self.judge(ply, mover, &analysis);
                }
                if self.reviewing {
                    return Some(self.next_review(ply + 1));
                }
            }
        }
        Some(Action::Changed)
    }

    /// Time passes: a finished animation or flash goes away, the clock of the side to move runs (not while
    /// paused), and a side whose time has run out loses; `true` when that ended the game now.
    pub fn tick(&mut self, now: Instant) -> bool {
        if self.animation.as_ref().is_some_and(|a| a.is_done(now)) {
            self.animation = None;
        }
        if self.flash.is_some_and(|f| f.is_done(now)) {
            self.flash = None;
        }
        let over = self.is_over();
        let (to_move, paused) = (self.game.to_move(), self.paused);
        let Some(clock) = &mut self.clock else { return false };
        if over || paused {
            clock.stop(now);
            return false;
        }
        if clock.running() != Some(to_move) {
            clock.start(to_move, now);
        }
        let Some(loser) = clock.flag(now) else { return false };
        self.cancel_thinking();
        self.status = Some(format!("{}'s time ran out.", colour_name(loser)));
        true
    }

    /// The ply shown now.
    #[must_use]
    pub fn shown_ply(&self) -> usize {
        self.viewing.unwrap_or(self.game.ply())
    }

    /// Shows the position after `ply` moves (the current one for the last ply).
    pub fn view(&mut self, ply: usize) {
        self.viewing = (ply < self.game.ply()).then_some(ply);
        self.animation = None;
        self.refresh();
    }

    fn shown(&self) -> Snapshot {
        match self.viewing {
            Some(ply) => self.game.snapshot(ply),
            None => self.game.current(),
        }
    }
}

/// A cell in the game's notation (`f5`, `h8`).
#[must_use]
pub fn cell_name(cell: Cell, size: (usize, usize), game: GameKind) -> String {
    let row = if rows_from_bottom(game) { size.1.saturating_sub(cell.y) } else { cell.y + 1 };
    format!("{}{row}", crate::board_canvas::column_letter(cell.x))
}

/// Whether the game numbers its rows from the bottom.
#[must_use]
pub fn rows_from_bottom(game: GameKind) -> bool {
    game.descriptor().look.rows_from_bottom
}

/// The board options for a game under the settings.
#[must_use]
pub fn board_options(game: GameKind, settings: &Settings) -> BoardOptions {
    BoardOptions {
        style: if game.descriptor().look.on_intersections { BoardStyle::Intersections } else { BoardStyle::Squares },
        palette: board_palette(game, settings.theme),
        coordinates: settings.coordinates.then_some(Coordinates { rows_from_bottom: rows_from_bottom(game) }),
        legal_markers: settings.legal_markers,
        forbidden_markers: settings.forbidden_markers,
    }
}

/// The words for a finished game: the headline and the detail line.
#[must_use]
pub fn result_words(play: &Play, snapshot: &Snapshot) -> Option<(String, String)> {
    let outcome = play.outcome()?;
    let headline = match outcome.result {
        GameResult::Win(p) => match (play.seat_of(p), play.setup.lone_human()) {
            (Seat::Human, Some(_)) => "You win!".to_string(),
            (Seat::Computer(_), Some(_)) => "The computer wins".to_string(),
            (Seat::Engine(name), Some(_)) => format!("{name} wins"),
            _ => format!("{} wins", colour_name(p)),
        },
        GameResult::Draw => "A draw".to_string(),
    };
    let mut detail = Vec::new();
    if let Some([first, second]) = snapshot.final_score() {
        detail.push(format!("{first}–{second}"));
    }
    match (play.resigned, play.flagged()) {
        (Some(loser), _) => detail.push(format!("{} resigned", colour_name(loser))),
        (None, Some(loser)) => detail.push(format!("{}'s time ran out", colour_name(loser))),
        (None, None) => {
            if let Some(reason) = &snapshot.end_reason {
                detail.push(reason.clone());
            }
        }
    }
    detail.push(format!("{} moves", play.game.ply()));
    Some((headline, detail.join(" · ")))
}

/// The play screen; `online` is the network game this one mirrors, if any. The focus ring runs from the board
/// through the side panel.
pub fn view<'a>(
    focus: &Focus<Msg>,
    play: &'a Play,
    settings: &'a Settings,
    now: Instant,
    online: Option<&'a crate::online::Online>,
    window_width: f32,
) -> Element<'a, Msg> {
    let snapshot = play.shown();
    let options = board_options(play.kind(), settings);
    let live = play.viewing.is_none();
    let clickable = live && play.human_to_move() && play.thinking.is_none();
    let result = result_words(play, &snapshot).filter(|_| live);
    let board = BoardView {
        snapshot: snapshot.clone(),
        options,
        numbers: (settings.move_numbers && play.kind().descriptor().look.numbers_moves)
            .then_some(play.numbers.as_slice()),
        preview: clickable.then(|| play.game.to_move()),
        hint: if live { play.hint } else { None },
        cursor: if live { play.cursor } else { None },
        animation: if live { play.animation.as_ref() } else { None },
        flash: if live { play.flash } else { None },
        now,
        cache: &play.cache,
        on_click: clickable.then_some(Msg::Clicked as fn(Cell) -> Msg),
        labels: if live { &play.values } else { &[] },
    };
    let board: Element<'a, Msg> = canvas::Canvas::new(board).width(Fill).height(Fill).into();
    let board_area = container(focus.board(board)).width(Fill).height(Fill).padding(6);
    // The result stands at the top of the side panel, where it covers no stone or coordinate.
    let banner = result.map(|(headline, detail)| banner(headline, detail));
    let panel = side_panel(focus, play, settings, &snapshot, online, banner, now);
    let panel = container(panel).width(Length::Fixed(side_panel_width(window_width))).height(Fill);
    row![board_area, panel].height(Fill).into()
}

/// The width of the side panel in a window `window_width` wide: 30% of it, at least what its three-button rows
/// need and at most 340 px, so that the board gets the rest.
#[must_use]
pub fn side_panel_width(window_width: f32) -> f32 {
    (window_width * 0.3).clamp(284.0, 340.0)
}

fn banner<'a>(headline: String, detail: String) -> Element<'a, Msg> {
    container(column![text(headline).size(24), text(detail).size(15)].spacing(4).align_x(iced::Center))
        .padding([10, 16])
        .width(Fill)
        .center_x(Fill)
        .style(|theme: &Theme| {
            let palette = theme.extended_palette();
            container::Style {
                background: Some(Background::Color(Color { a: 0.93, ..palette.primary.strong.color })),
                text_color: Some(palette.primary.strong.text),
                border: Border { radius: 12.0.into(), ..Border::default() },
                ..container::Style::default()
            }
        })
        .into()
}

fn side_panel<'a>(
    focus: &Focus<Msg>,
    play: &'a Play,
    settings: &'a Settings,
    snapshot: &Snapshot,
    online: Option<&'a crate::online::Online>,
    banner: Option<Element<'a, Msg>>,
    now: Instant,
) -> Element<'a, Msg> {
    let palette = board_palette(play.kind(), settings.theme);
    let rule_name = play
        .kind()
        .rule_sets()
        .into_iter()
        .find(|r| r.id == play.setup.spec.rule_set)
        .map_or_else(|| play.setup.spec.rule_set.clone(), |r| r.name.to_string());
    let title = column![
        text(play.kind().name()).size(26),
        text(format!("{rule_name} · {}×{}", snapshot.size.0, snapshot.size.1)).size(15),
    ];
    let players = column(Player::BOTH.map(|p| {
        let seat = play.seat_of(p);
        let count = snapshot.counts[p.index()];
        let mover = !play.is_over() && snapshot.to_move == p;
        let mut line = row![
            StoneIcon::view(p, palette, 22.0),
            text(format!("{} · {}", colour_name(p), seat_words(play, p, seat))).size(16).width(Fill),
        ]
        .spacing(10)
        .align_y(iced::Center);
        if let Some(clock) = &play.clock {
            let left = clock.left(p, now);
            let shown = if clock.flagged() == Some(p) { "time".to_string() } else { clock_text(left) };
            let short = left < std::time::Duration::from_secs(10);
            let shown = text(shown).size(16).font(iced::Font::MONOSPACE);
            line = line.push(if short { shown.style(text::danger) } else { shown });
        }
        let line = line.push(text(count.to_string()).size(18));
        container(line)
            .padding([4, 8])
            .style(move |theme: &Theme| {
                let palette = theme.extended_palette();
                container::Style {
                    background: mover.then_some(Background::Color(palette.primary.weak.color)),
                    text_color: mover.then_some(palette.primary.weak.text),
                    border: Border { radius: 6.0.into(), ..Border::default() },
                    ..container::Style::default()
                }
            })
            .into()
    }))
    .spacing(4);
    let turn_line = turn_line(play, snapshot);
    let mut info = column![title].push(banner).push(players).push(text(turn_line).size(16)).spacing(12);
    if let Some(name) = play.game.opening_name() {
        info = info.push(text(format!("Opening: {name}")).size(14));
    }
    if let Some(status) = &play.status {
        info = info.push(text(status.clone()).size(15).style(crate::theme::notice_text));
    }
    if play.viewing.is_none() && play.human_to_move() && play.game.must_pass() {
        info = info.push(action(focus, "Pass (no legal move)", Some(Msg::Pass)));
    }
    if let Some(ply) = play.viewing {
        info = info.push(
            row![
                text(format!("Viewing the position after move {ply}")).size(15).width(Fill),
                focus.button(
                    "Back to game",
                    button(text("Back to game").size(14)).padding([4, 8]),
                    Some(Msg::ViewLive)
                ),
            ]
            .align_y(iced::Center),
        );
    }
    let analysis = match online {
        Some(online) => focus.nest(Msg::Online, |focus| crate::screen::online::panel(focus, online)),
        None => analysis_view(play),
    };
    // Built in the order shown, which is the focus ring's order.
    let mistakes = play.mistakes();
    let evaluation = evaluation_view(focus, play, mistakes.clone());
    let moves = move_list(focus, play, &mistakes);
    let controls = match online {
        Some(online) => crate::screen::online::controls(focus, play, online),
        None => controls(focus, play),
    };
    let panel = column![info].push(choice_buttons(focus, play)).push(analysis);
    let panel = panel.push(evaluation).push(moves).push(controls).spacing(14).height(Fill);
    container(panel).width(Fill).height(Fill).padding(14).style(card_style).into()
}

fn seat_words(play: &Play, player: Player, seat: &Seat) -> String {
    match play.remote {
        Some(remote) if remote == player => "opponent".into(),
        Some(_) => "you".into(),
        None => seat.describe(),
    }
}

/// The line under the players: whose turn it is, or that the computer is thinking and how deep.
pub fn turn_line(play: &Play, snapshot: &Snapshot) -> String {
    if play.is_over() {
        return "Game over".into();
    }
    let mover = colour_name(snapshot.to_move);
    if play.thinking.is_none()
        && let Some(words) = swap_words(play, snapshot)
    {
        return words;
    }
    match &play.thinking {
        Some(t) if t.purpose == Purpose::Move && play.game.swap_step() != Step::Play => {
            swap_words(play, snapshot).unwrap_or_default() + " (computer)…"
        }
        Some(t) if t.purpose == Purpose::Move => match play.acting() {
            Seat::Engine(name) => format!("{mover} ({name}) is thinking…"),
            _ => {
                let depth = t.latest().map_or_else(|| "starting".to_string(), |a| format!("depth {}", a.depth));
                format!("{mover} (computer) is thinking… {depth}")
            }
        },
        Some(t) if matches!(t.purpose, Purpose::Review(_)) => "Reviewing the game…".into(),
        Some(_) => "Looking for a good move for you…".into(),
        None if play.paused && play.remote.is_some() => "Paused until the other player is connected".into(),
        None if play.paused => "Paused".into(),
        None if play.human_to_move() && play.game.must_pass() => format!("{mover} has no legal move and must pass"),
        None if play.human_to_move() && play.remote.is_some() => format!("{mover} (you) to move"),
        None if play.human_to_move() => format!("{mover} to move"),
        None if play.remote.is_some() => format!("{mover} (your opponent) to move"),
        None => format!("{mover} (computer) to move"),
    }
}

/// What a swap opening waits for, in words, while it runs.
fn swap_words(play: &Play, snapshot: &Snapshot) -> Option<String> {
    let role = |person: Person| match person {
        Person::Opener => "The first player",
        Person::Responder => "The second player",
    };
    let you = |person: Person| match (&play.setup.seats[person.index()], play.setup.lone_human()) {
        (Seat::Human, Some(_)) => " (you)",
        _ => "",
    };
    let ply = play.game.ply();
    Some(match play.game.swap_step() {
        Step::Play => return None,
        Step::Place(person, area) if area != Area::Anywhere => format!(
            "{}{} places stone {}, {}, {}",
            role(person),
            you(person),
            ply + 1,
            colour_name(snapshot.to_move).to_lowercase(),
            area.words()
        ),
        Step::Place(person @ Person::Opener, _) => format!(
            "{}{} places the opening: stone {} of 3, {}",
            role(person),
            you(person),
            ply + 1,
            colour_name(snapshot.to_move).to_lowercase()
        ),
        Step::Place(person, _) => format!(
            "{}{} places two more: stone {} of 2, {}",
            role(person),
            you(person),
            ply - 2,
            colour_name(snapshot.to_move).to_lowercase()
        ),
        Step::Choose(person, offered) => {
            let options: Vec<String> = offered.iter().map(|c| c.label().to_lowercase()).collect();
            format!("{}{} chooses: {}", role(person), you(person), options.join(", or "))
        }
        Step::Offer(person, count) => format!(
            "{}{} offers {count} fifth stones, no two alike by symmetry: {} marked",
            role(person),
            you(person),
            swap::Procedure::marks(&play.game.decisions()).len()
        ),
        Step::Pick(person) => {
            format!("{}{} picks one of the offered fifth stones (the rings) and plays on", role(person), you(person))
        }
    })
}

/// The buttons of a swap opening's choice, when the human makes it.
fn choice_buttons<'a>(focus: &Focus<Msg>, play: &'a Play) -> Option<Element<'a, Msg>> {
    let Step::Choose(_, offered) = play.game.swap_step() else { return None };
    if !play.human_to_move() || play.viewing.is_some() || play.is_over() {
        return None;
    }
    let idle = play.thinking.is_none();
    let buttons = offered.iter().map(|&c| action(focus, c.label(), idle.then_some(Msg::Choose(c))));
    Some(row(buttons).spacing(6).wrap().into())
}

/// The evaluation graph with the button that starts or stops the review.
fn evaluation_view<'a>(focus: &Focus<Msg>, play: &'a Play, mistakes: Vec<usize>) -> Element<'a, Msg> {
    let idle = play.thinking.is_none() && !play.reviewing && play.remote.is_none();
    let (label, msg) =
        if play.reviewing { ("Stop review", Some(Msg::Review)) } else { ("Analyze", idle.then_some(Msg::Review)) };
    let can_value = idle && play.viewing.is_none() && play.human_to_move() && !play.game.must_pass();
    let (values_label, values_msg) = if play.values.is_empty() {
        ("Values", can_value.then_some(Msg::Values))
    } else {
        ("Hide values", Some(Msg::Values))
    };
    let small = |label: &'a str, msg| focus.button(label, button(text(label).size(13)).padding([2, 8]), msg);
    let title = row![
        tipped(
            text("Evaluation").size(14).into(),
            format!("Up: {} is ahead; down: {}", colour_name(Player::First), colour_name(Player::Second)),
        ),
        space().width(Fill),
        small(values_label, values_msg),
        small(label, msg),
    ]
    .spacing(4)
    .align_y(iced::Center);
    let graph = crate::screen::graph::Graph {
        values: &play.evaluations,
        positions: play.game.ply() + 1,
        shown: play.shown_ply(),
        mistakes,
        on_pick: Msg::View,
    };
    column![title, canvas::Canvas::new(graph).width(Fill).height(Length::Fixed(56.0))].spacing(4).into()
}

fn analysis_view(play: &Play) -> Element<'_, Msg> {
    if !play.value_lines.is_empty() {
        return lines_view(play);
    }
    let thinking = play
        .thinking
        .as_ref()
        .filter(|t| !matches!(t.purpose, Purpose::Review(_)))
        .and_then(|t| t.latest().map(|a| (play.game.to_move(), a)));
    let body: Element<'_, Msg> = match thinking.or_else(|| play.analysis.clone()) {
        Some((side, a)) if a.external.is_some() => engine_answer_view(play, side, &a),
        Some((side, a)) => column![
            row![
                text(format!("Best: {}", a.notation)).size(16).width(Fill),
                text(format!(
                    "{} for {}{}",
                    a.score_words(play.game.as_ref()),
                    colour_name(side),
                    if a.proven { " (exact)" } else { "" }
                ))
                .size(16),
            ],
            text(format!(
                "depth {} · {} nodes · {} kN/s · {:.1} s",
                a.depth,
                a.nodes,
                a.nps / 1000,
                a.elapsed.as_secs_f64()
            ))
            .size(13),
            text(format!("line: {}", a.line.iter().take(10).cloned().collect::<Vec<_>>().join(" "))).size(13),
        ]
        .spacing(3)
        .into(),
        None => text("The computer's analysis appears here while it thinks.").size(13).into(),
    };
    container(column![text("Analysis").size(14), body].spacing(4)).width(Fill).into()
}

/// An external engine's answer: its move, its evaluation if it gave one, and the time it took.
fn engine_answer_view<'a>(play: &Play, side: Player, a: &Analysis) -> Element<'a, Msg> {
    let name = a.external.as_ref().map_or("The engine", |e| e.engine.as_str());
    let judgement = if a.is_judgement() {
        format!("{} for {}", a.score_words(play.game.as_ref()), colour_name(side))
    } else {
        "no evaluation given".into()
    };
    column![
        row![text(format!("{name}: {}", a.notation)).size(16).width(Fill), text(judgement).size(16)],
        text(format!("an external engine · {:.1} s", a.elapsed.as_secs_f64())).size(13),
    ]
    .spacing(3)
    .into()
}

/// The best lines behind the values on the board (multi-line analysis), the first three.
fn lines_view(play: &Play) -> Element<'_, Msg> {
    let side = colour_name(play.game.to_move());
    let rows = play.value_lines.iter().take(3).enumerate().map(|(i, a)| {
        let line = a.line.iter().take(8).cloned().collect::<Vec<_>>().join(" ");
        text(format!("{}. {} {} · {line}", i + 1, a.notation, play.game.score_label(a.score, a.exact))).size(13).into()
    });
    let title = text(format!("Best moves for {side} ({} searched)", play.value_lines.len())).size(14);
    container(column![title].extend(rows).spacing(3)).width(Fill).into()
}

/// The moves, one stop of the focus ring: the arrows step through the positions.
fn move_list<'a>(focus: &Focus<Msg>, play: &'a Play, mistakes: &[usize]) -> Element<'a, Msg> {
    let moves = play.game.move_list();
    let current = play.viewing.unwrap_or(moves.len());
    let mark = |ply: usize| if mistakes.contains(&ply) { "?" } else { "" };
    // Each move carries its own number (the ply, as the board's move numbers and "after move N" count), and
    // the position shown is the container the list scrolls to.
    let entry = |ply: usize, label: String| -> Element<'a, Msg> {
        let style = if ply == current { button::primary } else { button::text };
        let body = button(text(label).size(14)).style(style).padding([2, 6]).width(Fill).on_press(Msg::View(ply));
        let body = container(body).width(Fill);
        if ply == current { body.id(VIEWED_MOVE).into() } else { body.into() }
    };
    let rows = moves.chunks(2).enumerate().map(|(n, pair)| {
        let first = entry(2 * n + 1, format!("{}. {}{}", 2 * n + 1, pair[0], mark(2 * n + 1)));
        let second = match pair.get(1) {
            Some(mv) => entry(2 * n + 2, format!("{}. {mv}{}", 2 * n + 2, mark(2 * n + 2))),
            None => space().width(Fill).into(),
        };
        row![first, second].spacing(4).into()
    });
    let list = column![entry(0, "Start".into())].extend(rows).spacing(1).padding(Padding::ZERO.right(12));
    let plies: Vec<usize> = (0..=moves.len()).collect();
    let list = scrollable(list).height(Fill).width(Fill);
    let list = focus.choice("Moves", &plies, Some(&current), Msg::View, list);
    column![text("Moves").size(14), list].spacing(4).height(Fill).into()
}

fn controls<'a>(focus: &Focus<Msg>, play: &'a Play) -> Element<'a, Msg> {
    let can_undo = (play.game.ply() > 0 || play.resigned.is_some()) && play.flagged().is_none();
    let hint_ok = play.viewing.is_none() && play.human_to_move() && play.thinking.is_none() && !play.game.must_pass();
    let all_computer = play.setup.seats.iter().all(Seat::is_computer);
    // While the computer thinks about its move there is nothing to hint at: the button tells it to move now.
    let hint_or_move_now = if play.move_search().is_some() {
        keyed(focus, "Move now", Shortcut::Hint, Some(Msg::MoveNow))
    } else {
        keyed(focus, "Hint", Shortcut::Hint, hint_ok.then_some(Msg::Hint))
    };
    let first = row![
        keyed(focus, "Undo", Shortcut::Undo, can_undo.then_some(Msg::Undo)),
        keyed(focus, "Redo", Shortcut::Redo, play.game.can_redo().then_some(Msg::Redo)),
        hint_or_move_now,
    ]
    .spacing(6);
    // A game the computer's side had to stop (an engine failed) waits for Resume, whoever plays the other side.
    let resign_or_pause = if all_computer || play.paused {
        action(focus, if play.paused { "Resume" } else { "Pause" }, (!play.is_over()).then_some(Msg::TogglePause))
    } else {
        action(focus, "Resign", (!play.is_over()).then_some(Msg::AskResign))
    };
    let second = row![
        keyed(focus, "Save", Shortcut::Save, Some(Msg::OpenSave)),
        keyed(focus, "Load", Shortcut::Load, Some(Msg::OpenLoad)),
        resign_or_pause,
    ]
    .spacing(6);
    let third = row![
        keyed(focus, "New game", Shortcut::NewGame, Some(Msg::NewGame)),
        keyed(focus, "Keys", Shortcut::KeyboardHelp, Some(Msg::Keyboard)),
        keyed(focus, "Menu", Shortcut::Menu, Some(Msg::Leave)),
    ]
    .spacing(6);
    column![first, second, third].spacing(6).into()
}

/// An action button whose tooltip names its keys.
pub fn keyed<'a>(focus: &Focus<Msg>, label: &'a str, shortcut: Shortcut, message: Option<Msg>) -> Element<'a, Msg> {
    tipped(action(focus, label, message), keys::keys_of(shortcut))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_games::registry::MatchSpec;

    #[test]
    fn a_move_that_throws_away_the_lead_is_a_mistake() {
        let spec = MatchSpec { game: GameKind::Othello, rule_set: "othello".into(), board_size: None };
        let game = crate::test_game::factory(&spec).expect("a game");
        let mut play = Play::new(GameSetup { spec, seats: [Seat::Human, Seat::Human] }, game);
        let f = Player::First;
        let s = Player::Second;
        play.evaluations = vec![Some((f, 0.1)), Some((s, 0.1)), Some((f, 0.5)), Some((s, 0.45)), None, Some((f, 0.0))];
        assert_eq!(
            play.mistakes(),
            [2],
            "White's move gave away 0.4; Black's next lost 0.05; no judgement, no verdict"
        );
    }

    #[test]
    fn the_side_panel_gives_a_small_window_s_room_to_the_board() {
        assert_eq!(side_panel_width(1280.0), 340.0, "wide windows: the full panel");
        assert_eq!(side_panel_width(1000.0), 300.0);
        assert_eq!(side_panel_width(800.0), 284.0, "800x600: what three buttons a row need");
        assert!(800.0 - side_panel_width(800.0) > 500.0, "the board keeps more than 500 px");
    }
}
