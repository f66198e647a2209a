//! The application: its state, the messages that change it, and which screen shows it. Everything here runs
//! without a window, so tests drive the app through [`App::update`].

use std::time::{Duration, Instant};

use iced::widget::canvas::Cache;
use iced::{Element, Subscription, Task, Theme, time};
use tabula_core::Levels;
use tabula_games::{Snapshot, StartPosition};

use crate::ai_task::Finished;
use crate::computer::{AiRunner, Computer};
use crate::focus::{Focus, Ring, Stop};
use crate::journal::Journal;
use crate::keys::{self, Shortcut};
use crate::online::Online;
use crate::online_play::{self, OnlinePlay};
pub use crate::screen::Route;
use crate::screen::compare::{self, Compare};
use crate::screen::new_game::{self, Form};
use crate::screen::online as online_screen;
use crate::screen::play::{self, Play};
use crate::screen::rules::{self, Rules};
use crate::screen::saved_games::{self, SavedGames};
use crate::screen::{home, settings as settings_screen, setup, statistics};
use crate::series;
use crate::settings::Settings;
use crate::stats::Statistics;
use crate::storage::Paths;
use crate::theme::iced_theme;
use tabula_games::arena::Contender;
use tabula_games::registry::{self, GameKind, MatchSpec};
use tabula_games::save_file::MatchFactory;
use tabula_games::setup::LevelChoice;

/// A question asked before something that cannot be taken back lightly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Leave the game in progress for the menu?
    Leave,
    /// Leave the online game, closing the connection?
    LeaveOnline,
    /// Resign the game?
    Resign,
}

impl Question {
    fn words(self) -> (&'static str, &'static str) {
        match self {
            Question::Leave => ("Leave the game in progress? It is saved: Continue picks it up.", "Leave"),
            Question::LeaveOnline => {
                ("Leave the online game? The other player is told, and the game stays saved here.", "Leave")
            }
            Question::Resign => ("Resign this game?", "Resign"),
        }
    }
}

/// Everything that can happen to the app: a screen's own message, handed down to it, or an app-wide event.
#[derive(Clone, Debug)]
pub enum Message {
    /// Go to a screen.
    Go(Route),
    /// Something on the setup board.
    Setup(setup::Msg),
    /// Close the keyboard help, back to where it was opened.
    CloseHelp,
    /// The answer to the open question.
    Answer(bool),
    /// Time passes (while something moves).
    Tick(Instant),
    /// Something on the home screen.
    Home(home::Msg),
    /// Something on the new-game form.
    NewGame(new_game::Msg),
    /// Something on the play screen.
    Play(play::Msg),
    /// The computer finished a search.
    AiFinished(Finished),
    /// Something on the settings screen.
    Settings(settings_screen::Msg),
    /// Something on the statistics screen.
    Statistics(statistics::Msg),
    /// Something on the rules screen.
    Rules(rules::Msg),
    /// Something on the compare screen.
    Compare(compare::Msg),
    /// A key with a meaning on the play screen.
    Key(keys::Shortcut),
    /// Something on the online screen or in a network game.
    Online(online_screen::Msg),
    /// Something on the saved-games screen.
    SavedGames(saved_games::Msg),
    /// A computer-vs-computer series finished (its generation and tallies).
    SeriesFinished(u64, series::Progress),
    /// A mouse button went down somewhere in the window: the keyboard focus ring goes away.
    MousePressed,
    /// The window opened or changed size: its new width.
    Resized(f32),
}

/// The screen shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// Game cards and the menu.
    Home,
    /// The new-game form.
    NewGame,
    /// A game.
    Play,
    /// Statistics.
    Statistics,
    /// Rules.
    Rules,
    /// Settings.
    Settings,
    /// Compare rule sets.
    Compare,
    /// The keyboard help.
    Keyboard,
    /// Host or join a network game.
    Online,
    /// The saved games.
    SavedGames,
    /// The setup board.
    Setup,
}

/// The whole app.
pub struct App {
    paths: Paths,
    settings: Settings,
    journal: Journal,
    computer: Computer,
    factory: MatchFactory,
    screen: Screen,
    form: Form,
    form_error: Option<String>,
    play: Option<Play>,
    now: Instant,
    notice: Option<String>,
    settings_problem: Option<String>,
    engine_form: settings_screen::EngineForm,
    setup_board: Option<setup::SetupBoard>,
    confirm_reset: bool,
    question: Option<Question>,
    /// The screen the new-game form or the keyboard help was opened from, for [`Route::Back`].
    came_from: Screen,
    net: OnlinePlay,
    saved: SavedGames,
    rules: Rules,
    compare: Compare,
    pictures: Vec<(Snapshot, Cache)>,
    ring: Ring,
    window_width: f32,
}

impl App {
    /// The app with its files under `paths`, the given levels, starting matches with `factory` and running
    /// searches with `runner`.
    #[must_use]
    pub fn new(paths: Paths, levels: Levels, factory: MatchFactory, runner: AiRunner) -> App {
        let (settings, settings_problem) = Settings::load(&paths.settings());
        let (journal, stats_problem) = Journal::open(&paths);
        let default_level = LevelChoice::Named(settings.default_level.clone());
        let mut app = App {
            form: Form::new(GameKind::Othello, default_level),
            paths,
            settings,
            journal,
            computer: Computer::new(levels, runner),
            factory,
            screen: Screen::Home,
            form_error: None,
            play: None,
            now: Instant::now(),
            notice: stats_problem,
            settings_problem,
            engine_form: settings_screen::EngineForm::default(),
            setup_board: None,
            confirm_reset: false,
            question: None,
            came_from: Screen::Home,
            net: OnlinePlay::default(),
            saved: SavedGames::default(),
            rules: Rules::new(GameKind::Gomoku, None),
            compare: Compare::new(GameKind::Gomoku),
            pictures: GameKind::ALL.iter().map(|&g| (home::sample_position(g), Cache::new())).collect(),
            ring: Ring::default(),
            window_width: 1180.0,
        };
        app.rules = Rules::new(GameKind::Gomoku, app.start_position(GameKind::Gomoku));
        app
    }

    /// The app as the desktop program starts it: the user's directories and configuration.
    pub fn boot() -> (App, Task<Message>) {
        let (levels, problem) = match tabula_games::config::load_levels() {
            Ok(levels) => (levels, None),
            Err(e) => (tabula_games::config::default_levels(), Some(format!("Using the built-in levels: {e}"))),
        };
        let mut app = App::new(Paths::from_platform(), levels, registry::new_match, AiRunner::Background);
        if let Some(problem) = problem {
            app.notice = Some(problem);
        }
        (app, Task::none())
    }

    /// The window title.
    #[must_use]
    pub fn title(&self) -> String {
        match (&self.play, self.screen) {
            (Some(play), Screen::Play) => format!("Tabula — {}", play.kind().name()),
            _ => "Tabula".into(),
        }
    }

    /// The colours of the widgets.
    #[must_use]
    pub fn theme(&self) -> Theme {
        iced_theme(self.settings.theme)
    }

    /// The screen shown.
    #[must_use]
    pub fn screen(&self) -> Screen {
        self.screen
    }

    /// The game on the play screen.
    #[must_use]
    pub fn play(&self) -> Option<&Play> {
        self.play.as_ref()
    }

    /// The network game, if one is on.
    #[must_use]
    pub fn online(&self) -> Option<&Online> {
        self.net.online()
    }

    /// The question waiting for an answer.
    #[must_use]
    pub fn question(&self) -> Option<Question> {
        self.question
    }

    /// The statistics.
    #[must_use]
    pub fn statistics(&self) -> &Statistics {
        self.journal.statistics()
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The new-game form.
    #[must_use]
    pub fn form(&self) -> &Form {
        &self.form
    }

    /// Why the new-game form could not start its game, if it could not.
    #[must_use]
    pub fn form_error(&self) -> Option<&str> {
        self.form_error.as_deref()
    }

    /// The engine form of the settings screen.
    #[must_use]
    pub fn engine_form(&self) -> &settings_screen::EngineForm {
        &self.engine_form
    }

    /// The saved-games screen's state.
    #[must_use]
    pub fn saved_games(&self) -> &SavedGames {
        &self.saved
    }

    /// The compare screen's state.
    #[must_use]
    pub fn comparison(&self) -> &Compare {
        &self.compare
    }

    /// The name of the control with the keyboard focus, if one has it.
    #[must_use]
    pub fn focused(&self) -> Option<&str> {
        self.ring.name()
    }

    /// The controls of the focus ring on the screen shown now, in order: the same code that draws them.
    #[must_use]
    pub fn focus_stops(&self) -> Vec<Stop<Message>> {
        let focus = Focus::new(None);
        let _ = self.view_with(&focus);
        focus.into_stops()
    }

    /// What the focus ring belongs to: a screen, or the dialog or panel open over it.
    fn focus_scope(&self) -> (Screen, Option<Question>, bool) {
        (self.screen, self.question, self.confirm_reset)
    }

    /// Runs every queued search on this thread and returns their answers as messages (tests).
    pub fn run_queued_searches(&mut self) -> Vec<Message> {
        self.computer.run_queued().into_iter().map(Message::AiFinished).collect()
    }

    fn start_position(&self, game: GameKind) -> Option<Snapshot> {
        let rule_set = game.rule_sets().first()?.id.to_string();
        let spec = registry::MatchSpec { game, rule_set, board_size: None };
        (self.factory)(&spec).ok().map(|m| m.current())
    }

    fn default_level(&self) -> LevelChoice {
        LevelChoice::Named(self.settings.default_level.clone())
    }

    /// Handles a message. The keyboard focus goes away when the screen, dialog or panel changes, and otherwise
    /// stays on its control as controls appear and vanish; a control that gets the focus scrolls into view.
    pub fn update(&mut self, message: Message) -> Task<Message> {
        let scope = self.focus_scope();
        let before = self.ring.clone();
        let tick = matches!(message, Message::Tick(_));
        let game_moved = matches!(message, Message::Play(_) | Message::AiFinished(_) | Message::Key(_));
        let was_playing = self.screen == Screen::Play;
        let mut task = self.handle(message);
        // The move list follows the position shown: after a move, and when a game (a loaded one) comes up.
        if self.screen == Screen::Play && (game_moved || !was_playing) {
            task = Task::batch([task, crate::focus::scroll::reveal_container(play::VIEWED_MOVE)]);
        }
        if self.focus_scope() != scope {
            self.ring.clear();
        } else if self.ring.index().is_some() && !tick {
            let stops = self.focus_stops();
            self.ring.settle(&stops);
        }
        if self.ring.index().is_some() && self.ring != before {
            return Task::batch([task, crate::focus::scroll::reveal()]);
        }
        task
    }

    fn handle(&mut self, message: Message) -> Task<Message> {
        match message {
            Message::Go(route) => self.go(route),
            Message::CloseHelp => self.back(),
            Message::Answer(yes) => self.answer(yes),
            Message::Tick(now) => {
                self.now = now;
                // A flag ends the game: count it and keep the autosave current.
                let flagged = self.play.as_mut().is_some_and(|play| play.tick(now));
                if flagged { self.sync_play() } else { Task::none() }
            }
            Message::Home(home::Msg::Go(route)) => self.go(route),
            Message::Home(home::Msg::Quit) => iced::exit(),
            Message::NewGame(msg) => {
                self.form_error = None;
                match self.form.update(msg) {
                    Some(new_game::Action::Start) => self.start_game(None),
                    Some(new_game::Action::SetUp) => {
                        match setup::SetupBoard::new(self.form.setup().spec, self.factory) {
                            Ok(board) => {
                                self.setup_board = Some(board);
                                self.screen = Screen::Setup;
                            }
                            Err(e) => self.form_error = Some(e),
                        }
                        Task::none()
                    }
                    Some(new_game::Action::Back) => self.back(),
                    None => Task::none(),
                }
            }
            Message::Play(msg) => self.play_message(msg),
            Message::Setup(msg) => {
                let Some(board) = &mut self.setup_board else { return Task::none() };
                match board.update(msg) {
                    Some(setup::Action::Play(start)) => self.start_game(Some(start)),
                    Some(setup::Action::Back) => {
                        self.screen = Screen::NewGame;
                        Task::none()
                    }
                    None => Task::none(),
                }
            }
            Message::Online(msg) => self.update_online(msg),
            Message::SavedGames(msg) => self.update_saved_games(msg),
            Message::AiFinished(finished) => self.ai_finished(finished),
            Message::Settings(settings_screen::Msg::Back) => self.go(Route::Home),
            Message::Settings(msg) => {
                if let settings_screen::Msg::DefaultLevel(name) = &msg {
                    self.form.levels = [0, 1].map(|_| LevelChoice::Named(name.clone()));
                }
                match settings_screen::update(&mut self.settings, &mut self.engine_form, msg) {
                    settings_screen::Outcome::Nothing => return Task::none(),
                    settings_screen::Outcome::Try(spec) => return self.try_engine(spec),
                    settings_screen::Outcome::Changed => {}
                }
                self.settings_problem = self.settings.save(&self.paths.settings()).err();
                for (_, cache) in &self.pictures {
                    cache.clear();
                }
                self.rules.cache.clear();
                if let Some(play) = &mut self.play {
                    play.cache.clear();
                    play.cancel_thinking();
                    play.refresh();
                }
                self.sync_play()
            }
            Message::Statistics(statistics::Msg::AskReset) => {
                self.confirm_reset = true;
                Task::none()
            }
            Message::Statistics(statistics::Msg::Reset(reset)) => {
                self.confirm_reset = false;
                if reset {
                    self.notice = self.journal.reset_statistics();
                }
                Task::none()
            }
            Message::Statistics(statistics::Msg::Back) | Message::Rules(rules::Msg::Back) => self.go(Route::Home),
            Message::Rules(rules::Msg::Game(game)) => {
                self.rules = Rules::new(game, self.start_position(game));
                Task::none()
            }
            Message::Compare(msg) => match self.compare.update(msg) {
                Some(compare::Action::Replay) => {
                    if let Some(play) = self.play.as_ref().filter(|p| p.kind() == self.compare.game) {
                        self.compare.replay_game(&play.setup.spec, &play.game.move_list(), self.factory);
                    }
                    Task::none()
                }
                Some(compare::Action::RunSeries) => {
                    let levels = self.computer.levels();
                    let level = Contender::Level(self.compare.series_level(levels));
                    let opponent = self.compare.series_opponent.as_deref().and_then(|name| self.settings.engine(name));
                    let second = self.compare.series_second_level.as_deref().and_then(|name| levels.get(name));
                    let second =
                        second.filter(|other| Some(other.name.as_str()) != level.level().map(|l| l.name.as_str()));
                    let pairs = match (opponent, second) {
                        (Some(spec), _) => {
                            let engine =
                                Contender::External { spec: spec.clone(), turn: self.settings.engine_move_time() };
                            vec![[level, engine]]
                        }
                        (None, Some(other)) => {
                            let other = Contender::Level(other.clone());
                            vec![[level.clone(), level], [other.clone(), other]]
                        }
                        (None, None) => vec![[level.clone(), level]],
                    };
                    let generation = self.computer.next_generation();
                    self.compare.start_series(pairs, generation, Message::SeriesFinished)
                }
                Some(compare::Action::Back) => self.go(Route::Home),
                None => Task::none(),
            },
            Message::Key(shortcut) => self.key(shortcut),
            Message::MousePressed => {
                self.ring.clear();
                Task::none()
            }
            Message::Resized(width) => {
                self.window_width = width;
                Task::none()
            }
            Message::SeriesFinished(generation, progress) => {
                self.compare.series_finished(generation, progress);
                Task::none()
            }
        }
    }

    /// The answer to the open question.
    fn answer(&mut self, yes: bool) -> Task<Message> {
        match self.question.take() {
            Some(Question::Leave | Question::LeaveOnline) if yes => {
                if self.net.is_on() {
                    self.net.leave();
                    self.play = None;
                }
                self.go(Route::Home)
            }
            Some(Question::Resign) if yes && self.net.is_on() => {
                self.net.resign();
                self.mirror_online()
            }
            Some(Question::Resign) if yes => self.update_play(play::Msg::Resign),
            _ => Task::none(),
        }
    }

    /// A play-screen message: in a network game, moves and answers go through the connection.
    fn play_message(&mut self, msg: play::Msg) -> Task<Message> {
        if self.net.is_on() { self.online_play(msg) } else { self.update_play(msg) }
    }

    /// Back to the menu from the play screen, asking first when a game is in progress.
    fn leave(&mut self) -> Task<Message> {
        let in_progress = self.net.is_on() || self.play.as_ref().is_some_and(|p| !p.is_over() && p.game.ply() > 0);
        if in_progress && self.screen == Screen::Play {
            self.question = Some(if self.net.is_on() { Question::LeaveOnline } else { Question::Leave });
            return Task::none();
        }
        self.go(Route::Home)
    }

    /// The new-game form filled in from the current game; in a network game, a new game offered to the other
    /// player.
    fn new_game_from(&mut self) -> Task<Message> {
        if self.net.is_on() {
            return self.update_online(online_screen::Msg::OfferNewGame);
        }
        let default_level = self.default_level();
        if let Some(play) = &mut self.play {
            play.cancel_thinking();
            let before = std::mem::replace(&mut self.form, Form::from_setup(&play.setup, default_level));
            self.form.keep_clock(&before);
        }
        self.came_from = self.screen;
        self.screen = Screen::NewGame;
        Task::none()
    }

    fn go(&mut self, route: Route) -> Task<Message> {
        if let Some(play) = &mut self.play {
            play.cancel_thinking();
        }
        self.confirm_reset = false;
        self.question = None;
        self.screen = match route {
            Route::Home => Screen::Home,
            Route::NewGame(game) => {
                if self.form.game != game {
                    let _ = self.form.update(new_game::Msg::Game(game));
                }
                self.form_error = None;
                self.remember_origin();
                Screen::NewGame
            }
            Route::Continue => return self.continue_game(),
            Route::Statistics => Screen::Statistics,
            Route::Rules => Screen::Rules,
            Route::Settings => Screen::Settings,
            Route::Online => {
                self.net.open_forms();
                Screen::Online
            }
            Route::Keyboard => {
                self.remember_origin();
                Screen::Keyboard
            }
            Route::SavedGames => {
                self.remember_origin();
                let current = self.play.as_ref().map(|p| (&p.setup, p.game.as_ref()));
                let clock = self.play.as_ref().and_then(|p| p.clock.as_ref());
                let saves = self.paths.saves();
                let context = saved_games::Context { dir: &saves, factory: self.factory, current, clock };
                self.saved = SavedGames::open(&context);
                Screen::SavedGames
            }
            Route::Back => return self.back(),
            Route::Compare => {
                if let Some(play) = &self.play
                    && play.kind() != self.compare.game
                {
                    let _ = self.compare.update(compare::Msg::Game(play.kind()));
                }
                Screen::Compare
            }
        };
        Task::none()
    }

    /// Notes the screen a side trip (new game, keyboard help, saved games) starts from, for [`Route::Back`].
    fn remember_origin(&mut self) {
        if !matches!(self.screen, Screen::NewGame | Screen::Keyboard | Screen::SavedGames) {
            self.came_from = self.screen;
        }
    }

    /// A saved-games message; an opened game takes the play screen.
    fn update_saved_games(&mut self, msg: saved_games::Msg) -> Task<Message> {
        let current = self.play.as_ref().map(|p| (&p.setup, p.game.as_ref()));
        let clock = self.play.as_ref().and_then(|p| p.clock.as_ref());
        let saves = self.paths.saves();
        let context = saved_games::Context { dir: &saves, factory: self.factory, current, clock };
        match self.saved.update(msg, &context) {
            saved_games::Action::None => Task::none(),
            saved_games::Action::Back => self.back(),
            saved_games::Action::Open(..) if self.net.is_on() => {
                self.saved.notice = Some(Err("Leave the online game before opening another.".into()));
                Task::none()
            }
            saved_games::Action::Open(opened) => {
                if let Some(play) = &mut self.play {
                    play.cancel_thinking();
                }
                let saved_games::Opened { setup, game, clock, status } = *opened;
                let mut fresh = Play::new(setup, game);
                fresh.clock = clock;
                fresh.status = Some(status);
                fresh.recorded = fresh.is_over();
                self.play = Some(fresh);
                self.screen = Screen::Play;
                self.sync_play()
            }
        }
    }

    fn key(&mut self, shortcut: Shortcut) -> Task<Message> {
        match shortcut {
            Shortcut::FullScreen => return toggle_full_screen(),
            Shortcut::FocusNext | Shortcut::FocusPrevious => {
                let stops = self.focus_stops();
                return self.ring.step(&stops, shortcut == Shortcut::FocusNext);
            }
            Shortcut::KeyboardHelp => return self.go(Route::Keyboard),
            _ => {}
        }
        if let Some(task) = self.key_on_focused(shortcut) {
            return task;
        }
        if self.question.is_some() {
            return match shortcut {
                Shortcut::Place => self.answer(true),
                Shortcut::Menu => self.answer(false),
                _ => Task::none(),
            };
        }
        match self.screen {
            Screen::Play => {}
            Screen::Home => return Task::none(),
            Screen::Keyboard | Screen::NewGame | Screen::SavedGames if shortcut == Shortcut::Menu => {
                return self.back();
            }
            Screen::Setup if shortcut == Shortcut::Menu => {
                self.screen = Screen::NewGame;
                return Task::none();
            }
            _ if shortcut == Shortcut::Menu => return self.go(Route::Home),
            _ => return Task::none(),
        }
        let Some(play) = self.play.as_mut() else { return Task::none() };
        match play.shortcut(shortcut) {
            Some(msg) => self.play_message(msg),
            None => Task::none(),
        }
    }

    /// What a key does to the control with the keyboard focus, if it does something to it: Enter and Space
    /// press a button or pick a choice's next option, the arrows step a choice, Enter focuses a text field again
    /// (Esc in a text field takes iced's focus away), and Esc on the play screen gives the keys back to the board.
    fn key_on_focused(&mut self, shortcut: Shortcut) -> Option<Task<Message>> {
        let stops = self.focus_stops();
        let action = self.ring.current(&stops)?.action.clone();
        let nothing_over_the_game = (Screen::Play, None, false);
        let step = match shortcut {
            Shortcut::Place => 0,
            Shortcut::Cursor(dx, dy) if matches!(action, crate::focus::Action::Choose { .. }) => (dx + dy).signum(),
            Shortcut::Menu if self.focus_scope() == nothing_over_the_game => {
                self.ring.clear();
                return Some(Task::none());
            }
            _ => return None,
        };
        if let crate::focus::Action::Type(id) = &action {
            return Some(iced::widget::operation::focus(id.clone()));
        }
        let message = action.message(step);
        match message {
            Some(message) => Some(self.handle(message)),
            None if step != 0 => Some(Task::none()),
            None => None,
        }
    }

    fn back(&mut self) -> Task<Message> {
        if self.came_from == Screen::Play && self.play.is_some() {
            self.screen = Screen::Play;
            return self.sync_play();
        }
        self.go(Route::Home)
    }

    fn update_online(&mut self, msg: online_screen::Msg) -> Task<Message> {
        match self.net.update(msg) {
            online_play::Step::None => Task::none(),
            online_play::Step::Started => {
                if let Some(play) = &mut self.play {
                    play.cancel_thinking();
                }
                self.play = None;
                self.mirror_online()
            }
            online_play::Step::Changed => self.mirror_online(),
            online_play::Step::Back => self.go(Route::Home),
        }
    }

    /// Makes the play screen show the network game as it stands.
    fn mirror_online(&mut self) -> Task<Message> {
        if self.net.mirror(&mut self.play, self.factory, &self.settings) {
            self.screen = Screen::Play;
        }
        self.sync_play()
    }

    /// A play-screen message in a network game.
    fn online_play(&mut self, msg: play::Msg) -> Task<Message> {
        let Some(play) = &mut self.play else { return Task::none() };
        match self.net.forward(play, msg, &self.settings) {
            online_play::Forward::Sent => self.mirror_online(),
            online_play::Forward::Local(msg) => self.update_play(msg),
            online_play::Forward::Ignored => Task::none(),
        }
    }

    fn continue_game(&mut self) -> Task<Message> {
        if self.net.is_on() && self.play.is_some() {
            self.screen = Screen::Play;
            return Task::none();
        }
        if self.play.as_ref().is_some_and(|p| !p.is_over()) {
            self.screen = Screen::Play;
            return self.sync_play();
        }
        match self.journal.unfinished(self.factory) {
            Ok((saved, game)) => {
                let mut play = Play::new(saved.setup, game);
                play.clock = saved.clock;
                self.play = Some(play);
                self.screen = Screen::Play;
                self.sync_play()
            }
            Err(e) => {
                self.notice = Some(format!("Cannot continue: {e}"));
                Task::none()
            }
        }
    }

    /// Tries a registered engine on a blocking thread; the words come back to the Engines card.
    fn try_engine(&self, spec: tabula_games::external::EngineSpec) -> Task<Message> {
        let (factory, turn, name) = (self.factory, self.settings.engine_move_time(), spec.name.clone());
        Task::perform(
            async move {
                let trial = tokio::task::spawn_blocking(move || crate::computer::trial(spec, factory, turn));
                trial.await.unwrap_or_else(|_| "The trial failed.".into())
            },
            move |words| Message::Settings(settings_screen::Msg::Tried(name.clone(), words)),
        )
    }

    /// Starts the game the form describes, from its rule set's start or from `start`, set up by hand.
    fn start_game(&mut self, start: Option<StartPosition>) -> Task<Message> {
        let engines = self.form.setup().seats.iter().any(|s| matches!(s, tabula_games::setup::Seat::Engine(_)));
        let problem = match &start {
            Some(_) if engines => Some("No engine protocol can tell a position set up by hand: choose levels.".into()),
            _ => self.form.engine_problem(&self.settings.engines),
        };
        if let Some(problem) = problem {
            match &mut self.setup_board {
                Some(board) if start.is_some() => board.error = Some(problem),
                _ => self.form_error = Some(problem),
            }
            return Task::none();
        }
        let setup = self.form.setup();
        let game = (self.factory)(&setup.spec).map_err(|e| e.to_string()).and_then(|mut game| {
            if let Some(start) = &start {
                game.restart_from(start)?;
            }
            Ok(game)
        });
        match game {
            Ok(game) => {
                let mut play = Play::new(setup, game);
                play.clock = self.form.time_control().map(tabula_games::clock::Clock::new);
                self.play = Some(play);
                self.screen = Screen::Play;
                self.form_error = None;
                self.sync_play()
            }
            Err(e) => {
                self.form_error = Some(format!("Cannot start the game: {e}"));
                Task::none()
            }
        }
    }

    fn update_play(&mut self, msg: play::Msg) -> Task<Message> {
        let Some(play) = &mut self.play else { return Task::none() };
        let action = play.update(msg, &self.settings);
        self.play_action(action)
    }

    /// Does what the play screen asked for.
    fn play_action(&mut self, action: play::Action) -> Task<Message> {
        let Some(play) = &mut self.play else { return Task::none() };
        match action {
            play::Action::None => Task::none(),
            play::Action::Changed => self.sync_play(),
            play::Action::Hint => self.computer.hint(play, &self.settings).map(Message::AiFinished),
            play::Action::Review(ply) => self.computer.review(play, ply, &self.settings).map(Message::AiFinished),
            play::Action::Values => self.computer.values(play, &self.settings).map(Message::AiFinished),
            play::Action::SavedGames => self.go(Route::SavedGames),
            play::Action::NewGame => self.new_game_from(),
            play::Action::Keyboard => self.go(Route::Keyboard),
            play::Action::Leave => self.leave(),
            play::Action::AskResign => {
                self.question = Some(Question::Resign);
                Task::none()
            }
            play::Action::Online(msg) => self.update_online(msg),
        }
    }

    fn ai_finished(&mut self, finished: Finished) -> Task<Message> {
        let Some(play) = &mut self.play else { return Task::none() };
        match play.finish_search(finished, &self.settings) {
            Some(action) => self.play_action(action),
            None => Task::none(),
        }
    }

    /// After any change to the game: count a finished game, keep the autosave current, and set the computer
    /// thinking when it is its turn.
    fn sync_play(&mut self) -> Task<Message> {
        let Some(play) = &mut self.play else { return Task::none() };
        self.journal.record(play);
        if self.screen != Screen::Play || play.is_over() {
            return Task::none();
        }
        self.computer.think(play, &self.settings).map(Message::AiFinished)
    }

    /// What to listen to: a frame clock while discs turn, a slower one while the computer thinks.
    pub fn subscription(&self) -> Subscription<Message> {
        let mut keys = Subscription::batch([
            iced::keyboard::listen().filter_map(|event| keys::from_event(event).map(Message::Key)),
            iced::event::listen_with(|event, _, _| match event {
                iced::Event::Mouse(iced::mouse::Event::ButtonPressed(_)) => Some(Message::MousePressed),
                iced::Event::Window(iced::window::Event::Opened { size, .. } | iced::window::Event::Resized(size)) => {
                    Some(Message::Resized(size.width))
                }
                _ => None,
            }),
        ]);
        if self.screen == Screen::Compare && self.compare.series.is_some() {
            let clock = time::every(Duration::from_millis(250)).map(Message::Tick);
            return Subscription::batch([keys, clock]);
        }
        if self.net.online().is_some_and(|o| !matches!(o.link, crate::online::Link::Dropped(_))) {
            let poll = time::every(Duration::from_millis(100)).map(|_| Message::Online(online_screen::Msg::Poll));
            keys = Subscription::batch([keys, poll]);
        }
        let Some(play) = self.play.as_ref().filter(|_| self.screen == Screen::Play) else {
            return keys;
        };
        let clock_runs = play.clock.is_some() && !play.is_over() && !play.paused;
        let clock = if play.animation.is_some() || play.flash.is_some() {
            time::every(Duration::from_millis(16)).map(Message::Tick)
        } else if play.thinking.is_some() || clock_runs {
            time::every(Duration::from_millis(150)).map(Message::Tick)
        } else {
            Subscription::none()
        };
        Subscription::batch([keys, clock])
    }

    /// The screen, with the open question over it.
    pub fn view(&self) -> Element<'_, Message> {
        self.view_with(&Focus::new(self.ring.index()))
    }

    /// The screen built through `focus`; an open question takes the focus ring to itself.
    fn view_with(&self, focus: &Focus<Message>) -> Element<'_, Message> {
        let Some(question) = self.question else { return self.screen_view(focus) };
        let screen = self.screen_view(&Focus::inert());
        let (prompt, yes) = question.words();
        crate::screen::widgets::question(focus, screen, prompt, yes, Message::Answer)
    }

    fn screen_view(&self, focus: &Focus<Message>) -> Element<'_, Message> {
        match (self.screen, &self.play) {
            (Screen::Play, Some(play)) => focus.nest(Message::Play, |focus| {
                play::view(focus, play, &self.settings, self.now, self.net.online(), self.window_width)
            }),
            (Screen::Online | Screen::Play, _) => {
                let status = self.net.online().map(Online::link_words);
                focus.nest(Message::Online, |focus| online_screen::view(focus, &self.net.forms, status))
            }
            (Screen::NewGame, _) => focus.nest(Message::NewGame, |focus| {
                let engines = &self.settings.engines;
                new_game::view(focus, &self.form, self.computer.levels(), engines, self.form_error.as_deref())
            }),
            (Screen::Keyboard, _) => crate::screen::keyboard::view(focus, Message::CloseHelp),
            (Screen::Setup, _) => focus.nest(Message::Setup, |focus| match &self.setup_board {
                Some(board) => setup::view(focus, board, &self.settings),
                None => iced::widget::text("No position is being set up.").into(),
            }),
            (Screen::SavedGames, _) => focus.nest(Message::SavedGames, |focus| saved_games::view(focus, &self.saved)),
            (Screen::Statistics, _) => focus.nest(Message::Statistics, |focus| {
                statistics::view(focus, self.journal.statistics(), self.confirm_reset)
            }),
            (Screen::Rules, _) => focus.nest(Message::Rules, |focus| rules::view(focus, &self.rules, &self.settings)),
            (Screen::Settings, _) => focus.nest(Message::Settings, |focus| {
                let (engines, problem) = (&self.engine_form, self.settings_problem.as_deref());
                settings_screen::view(focus, &self.settings, engines, self.computer.levels(), problem)
            }),
            (Screen::Compare, _) => {
                let can_replay = self.play.as_ref().is_some_and(|p| p.kind() == self.compare.game);
                let protocol = MatchSpec::default_for(self.compare.game).engine_protocol();
                let choices = compare::SeriesChoices {
                    level: self.compare.series_level(self.computer.levels()).name,
                    levels: self.computer.levels().all().iter().map(|l| l.name.clone()).collect(),
                    engines: self.settings.engines_for(protocol).map(|e| e.name.clone()).collect(),
                };
                focus.nest(Message::Compare, |focus| compare::view(focus, &self.compare, can_replay, choices))
            }
            (Screen::Home, _) => {
                let can_continue = self.play.as_ref().is_some_and(|p| !p.is_over()) || self.journal.has_unfinished();
                focus.nest(Message::Home, |focus| {
                    home::view(focus, &self.pictures, &self.settings, can_continue, self.notice.as_deref())
                })
            }
        }
    }
}

/// Switches the window between full screen and windowed.
fn toggle_full_screen() -> Task<Message> {
    iced::window::latest().and_then(|id| {
        iced::window::mode(id).then(move |mode| {
            let next = if mode == iced::window::Mode::Fullscreen {
                iced::window::Mode::Windowed
            } else {
                iced::window::Mode::Fullscreen
            };
            iced::window::set_mode(id, next)
        })
    })
}
