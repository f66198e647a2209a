//! The new-game screen: the rule set (with its description), the board size and, for Black and White, a human or
//! the computer at a level or one of the registered external engines that can play the rule set.

use std::fmt;

use iced::widget::{button, column, row, scrollable, space, text};
use iced::{Element, Fill, Length, Padding};
use tabula_core::{Level, Levels, Player};
use tabula_games::clock::TimeControl;
use tabula_games::external::{EngineSpec, Protocol};

use crate::focus::Focus;
use crate::screen::widgets::{card, heading, page, pick, segmented, stepped_slider};
use tabula_games::registry::{GameKind, MatchSpec};
use tabula_games::setup::{GameSetup, LevelChoice, MAX_CUSTOM_DEPTH, Seat, colour_name};

/// A change on the form, or a way out of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// Another game.
    Game(GameKind),
    /// Another rule set, by id.
    RuleSet(String),
    /// Another board size.
    BoardSize(usize),
    /// A side played by the computer (true) or a human.
    Computer(Player, bool),
    /// A side's level.
    Level(Player, LevelChoice),
    /// A side played by the registered external engine of this name.
    Engine(Player, String),
    /// A side's custom depth.
    Depth(Player, u32),
    /// The kind of clock.
    Clock(ClockKind),
    /// Seconds a move, for a clock per move.
    MoveSeconds(u32),
    /// Minutes a game, for a clock per game.
    GameMinutes(u32),
    /// Seconds added for each move, for a clock per game.
    IncrementSeconds(u32),
    /// Start the game the form describes.
    Start,
    /// Set up the position to start from, on the setup board.
    SetUp,
    /// Back to where the form was opened from.
    Back,
}

/// What the form asks of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Start the game the form describes.
    Start,
    /// Open the setup board for the form's game.
    SetUp,
    /// Back to where the form was opened from.
    Back,
}

/// A level in the menu, or an external engine. The custom level is called "Custom depth" whatever its depth (the
/// slider under it shows the depth): iced 0.14's pick list, drawn with tiny-skia, scrambled the digits of its
/// selected label when the label changed with every step of the slider.
#[derive(Clone, Debug, PartialEq, Eq)]
enum LevelItem {
    Level(LevelChoice),
    Engine(String),
}

impl fmt::Display for LevelItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelItem::Level(LevelChoice::Named(name)) => f.write_str(name),
            LevelItem::Level(LevelChoice::Custom(_)) => f.write_str("Custom depth"),
            LevelItem::Engine(name) => write!(f, "{name} (engine)"),
        }
    }
}

/// Which clock a game is played with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockKind {
    /// No clock.
    Off,
    /// A time for every move.
    PerMove,
    /// A time for the whole game, with an increment.
    PerGame,
}

/// A rule set in the menu.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RuleItem {
    id: String,
    name: String,
}

impl fmt::Display for RuleItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A board size in the menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SizeItem(usize);

impl fmt::Display for SizeItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}×{0}", self.0)
    }
}

/// The form's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// The game.
    pub game: GameKind,
    /// The rule set id.
    pub rule_set: String,
    /// The chosen board size.
    pub board_size: usize,
    /// Whether the computer plays Black, White.
    pub computer: [bool; 2],
    /// The level of each side when the computer plays it.
    pub levels: [LevelChoice; 2],
    /// The external engine that plays a side instead of the computer's levels, by name.
    pub engines: [Option<String>; 2],
    /// The protocol an external engine needs for the chosen rule set (`None`: no engine can play it).
    pub engine_protocol: Option<Protocol>,
    /// The chosen rule set's swap opening, if it has one: the sides are then the first and the second player.
    pub swap: Option<tabula_games::swap::Procedure>,
    /// The kind of clock.
    pub clock: ClockKind,
    /// Seconds a move (per move).
    pub move_seconds: u32,
    /// Minutes a game (per game).
    pub game_minutes: u32,
    /// Seconds added for each move (per game).
    pub increment_seconds: u32,
}

impl Form {
    /// A form for `game`: its default rule set, the human as Black against the computer at `level`.
    #[must_use]
    pub fn new(game: GameKind, level: LevelChoice) -> Form {
        let rule_set = game.rule_sets().first().map(|r| r.id.to_string()).unwrap_or_default();
        let mut form = Form {
            game,
            rule_set,
            board_size: 0,
            computer: [false, true],
            levels: [level.clone(), level],
            engines: [None, None],
            engine_protocol: None,
            swap: None,
            clock: ClockKind::Off,
            move_seconds: 10,
            game_minutes: 5,
            increment_seconds: 3,
        };
        form.fit_board_size();
        form
    }

    /// A form filled in from an earlier game.
    #[must_use]
    pub fn from_setup(setup: &GameSetup, default_level: LevelChoice) -> Form {
        let mut form = Form::new(setup.spec.game, default_level);
        form.rule_set = setup.spec.rule_set.clone();
        form.fit_board_size();
        if let Some(size) = setup.spec.board_size {
            form.board_size = size;
        }
        for (i, seat) in setup.seats.iter().enumerate() {
            form.computer[i] = seat.is_computer();
            match seat {
                Seat::Computer(level) => form.levels[i] = level.clone(),
                Seat::Engine(name) => form.engines[i] = Some(name.clone()),
                Seat::Human => {}
            }
        }
        form.fit_board_size();
        form
    }

    fn sizes(&self) -> Vec<usize> {
        self.game.board_sizes(&self.rule_set)
    }

    fn fit_board_size(&mut self) {
        let sizes = self.sizes();
        if !sizes.contains(&self.board_size) {
            let declared = self
                .game
                .rule_set(&self.rule_set)
                .and_then(|r| r.choices.iter().find(|c| c.0 == "board").and_then(|c| c.1.parse().ok()))
                .filter(|s| sizes.contains(s));
            self.board_size = declared.or_else(|| sizes.first().copied()).unwrap_or(0);
        }
        self.engine_protocol = self.setup().spec.engine_protocol();
        self.swap = self.setup().spec.swap_procedure();
    }

    /// Applies a change, or tells what the app is to do.
    pub fn update(&mut self, msg: Msg) -> Option<Action> {
        match msg {
            Msg::Game(game) => {
                let before = self.clone();
                *self = Form { levels: before.levels.clone(), ..Form::new(game, before.levels[1].clone()) };
                self.keep_clock(&before);
            }
            Msg::RuleSet(id) => {
                self.rule_set = id;
                self.fit_board_size();
            }
            Msg::BoardSize(size) => {
                self.board_size = size;
                self.fit_board_size();
            }
            Msg::Computer(p, on) => self.computer[p.index()] = on,
            Msg::Level(p, level) => {
                self.levels[p.index()] = level;
                self.engines[p.index()] = None;
            }
            Msg::Engine(p, name) => self.engines[p.index()] = Some(name),
            Msg::Depth(p, depth) => self.levels[p.index()] = LevelChoice::Custom(depth.clamp(1, MAX_CUSTOM_DEPTH)),
            Msg::Clock(kind) => self.clock = kind,
            Msg::MoveSeconds(secs) => self.move_seconds = secs.clamp(1, 600),
            Msg::GameMinutes(minutes) => self.game_minutes = minutes.clamp(1, 180),
            Msg::IncrementSeconds(secs) => self.increment_seconds = secs.min(60),
            Msg::Start => return Some(Action::Start),
            Msg::SetUp => return Some(Action::SetUp),
            Msg::Back => return Some(Action::Back),
        }
        None
    }

    /// Takes the clock choices of `other` (a form for another game, or the one before).
    pub fn keep_clock(&mut self, other: &Form) {
        self.clock = other.clock;
        self.move_seconds = other.move_seconds;
        self.game_minutes = other.game_minutes;
        self.increment_seconds = other.increment_seconds;
    }

    /// The time control chosen, if any.
    #[must_use]
    pub fn time_control(&self) -> Option<TimeControl> {
        let secs = |s: u32| std::time::Duration::from_secs(u64::from(s));
        match self.clock {
            ClockKind::Off => None,
            ClockKind::PerMove => Some(TimeControl::PerMove(secs(self.move_seconds))),
            ClockKind::PerGame => Some(TimeControl::PerGame {
                base: secs(self.game_minutes * 60),
                increment: secs(self.increment_seconds),
            }),
        }
    }

    /// Why the game cannot start with the registered `engines`: an engine that is no longer registered, or one
    /// that cannot play the chosen rule set.
    #[must_use]
    pub fn engine_problem(&self, engines: &[EngineSpec]) -> Option<String> {
        let chosen = (0..2).filter(|&i| self.computer[i]).filter_map(|i| self.engines[i].as_ref());
        chosen.into_iter().find_map(|name| match engines.iter().find(|e| &e.name == name) {
            None => Some(format!("No engine called {name} is registered (Settings, Engines).")),
            Some(e) if Some(e.protocol) != self.engine_protocol => {
                let rules = self.setup().spec.rule_set_name();
                Some(format!("{name} speaks {}, which cannot play {rules}.", e.protocol))
            }
            Some(_) => None,
        })
    }

    /// The game this form describes.
    #[must_use]
    pub fn setup(&self) -> GameSetup {
        let fixed = self.sizes().len() <= 1;
        let seat = |i: usize| match (self.computer[i], &self.engines[i]) {
            (false, _) => Seat::Human,
            (true, Some(name)) => Seat::Engine(name.clone()),
            (true, None) => Seat::Computer(self.levels[i].clone()),
        };
        GameSetup {
            spec: MatchSpec {
                game: self.game,
                rule_set: self.rule_set.clone(),
                board_size: (!fixed && self.board_size > 0).then_some(self.board_size),
            },
            seats: [seat(0), seat(1)],
        }
    }
}

/// The menu of `form`'s rule sets (a menu rather than a row of buttons, which would not fit a narrow window
/// for games with many rule sets); `on_pick` hears the chosen rule set's id.
pub fn rule_set_pick<'a, M: Clone + 'a>(
    focus: &Focus<M>,
    form: &Form,
    on_pick: impl Fn(String) -> M + Copy + 'a,
) -> Element<'a, M> {
    let items: Vec<RuleItem> =
        form.game.rule_sets().iter().map(|r| RuleItem { id: r.id.to_string(), name: r.name.to_string() }).collect();
    let selected = items.iter().find(|i| i.id == form.rule_set).cloned();
    pick(focus, "Rule set", items, selected, move |i: RuleItem| on_pick(i.id), Length::Fixed(260.0))
}

/// The form.
/// The form; `engines` are the registered external engines (those that can play the rule set are offered).
pub fn view<'a>(
    focus: &Focus<Msg>,
    form: &'a Form,
    levels: &'a Levels,
    engines: &'a [EngineSpec],
    error: Option<&'a str>,
) -> Element<'a, Msg> {
    let games: Vec<(GameKind, String)> = GameKind::ALL.iter().map(|&g| (g, g.name().to_string())).collect();
    let game_row = segmented(focus, "Game", &games, &form.game, Msg::Game);
    let rule_sets = form.game.rule_sets();
    let rule_row =
        row![text("Rule set").size(16).width(Length::Fixed(90.0)), rule_set_pick(focus, form, Msg::RuleSet),]
            .align_y(iced::Center);
    let description = rule_sets.iter().find(|r| r.id == form.rule_set).map_or("", |r| r.description);
    let sizes: Vec<SizeItem> = form.sizes().into_iter().map(SizeItem).collect();
    let size_row: Element<'a, Msg> = if sizes.len() > 1 {
        let on_size = move |s: SizeItem| Msg::BoardSize(s.0);
        row![
            text("Board").size(16).width(Length::Fixed(90.0)),
            pick(focus, "Board size", sizes, Some(SizeItem(form.board_size)), on_size, Length::Shrink),
        ]
        .align_y(iced::Center)
        .into()
    } else {
        text(format!("Board: {0}×{0}", form.board_size)).size(16).into()
    };
    let rules = card(
        column![
            heading("Game and rules"),
            game_row,
            rule_row,
            text(description).size(14),
            size_row,
            clock_view(focus, form)
        ]
        .spacing(12),
    )
    .width(Fill);
    let seats = row(Player::BOTH.map(|p| seat_view(focus, form, levels, engines, p))).spacing(16);
    let start = button(text("Start game").size(20).center().width(Fill)).padding([10, 20]).width(Length::Fixed(240.0));
    // In a short window the choices scroll (the scrollbar with its own margin) while Start game and any error stay
    // in view below them.
    let choices = scrollable(column![rules, seats].spacing(18).padding(Padding::ZERO.right(14))).height(Fill);
    let set_up = button(text("Set up a position…").size(16).center()).padding([10, 16]);
    let buttons = row![
        focus.button("Start game", start, Some(Msg::Start)),
        focus.button("Set up a position", set_up, Some(Msg::SetUp))
    ]
    .spacing(12)
    .align_y(iced::Center);
    let mut content = column![choices, buttons].spacing(14);
    if let Some(error) = error {
        content = content.push(text(error).style(text::danger));
    }
    page(focus, "New game", Msg::Back, content)
}

/// The width of the clock's sliders.
const SLIDER: Length = Length::Fixed(260.0);

/// The clock: off, per move (seconds) or per game (minutes and an increment).
fn clock_view<'a>(focus: &Focus<Msg>, form: &'a Form) -> Element<'a, Msg> {
    let kinds = [(ClockKind::Off, "No clock"), (ClockKind::PerMove, "Per move"), (ClockKind::PerGame, "Per game")]
        .map(|(k, l)| (k, l.to_string()));
    let mut body = column![
        row![
            text("Clock").size(16).width(Length::Fixed(90.0)),
            segmented(focus, "Clock", &kinds, &form.clock, Msg::Clock)
        ]
        .align_y(iced::Center)
    ]
    .spacing(8);
    // Under the choice: the slider, then what it is set to.
    let slider_row = |label: String, control: Element<'a, Msg>| -> Element<'a, Msg> {
        row![space().width(Length::Fixed(82.0)), control, text(label).size(15)].spacing(8).align_y(iced::Center).into()
    };
    match form.clock {
        ClockKind::Off => {}
        ClockKind::PerMove => {
            let secs =
                stepped_slider(focus, "Seconds a move", 1..=60, 1, form.move_seconds.min(60), Msg::MoveSeconds, Fill);
            body = body.push(slider_row(format!("{} s a move", form.move_seconds), secs));
        }
        ClockKind::PerGame => {
            let minutes =
                stepped_slider(focus, "Minutes a game", 1..=60, 1, form.game_minutes.min(60), Msg::GameMinutes, SLIDER);
            body = body.push(slider_row(format!("{} min a game", form.game_minutes), minutes));
            let inc = stepped_slider(
                focus,
                "Seconds added a move",
                0..=30,
                1,
                form.increment_seconds.min(30),
                Msg::IncrementSeconds,
                SLIDER,
            );
            body = body.push(slider_row(format!("+ {} s a move", form.increment_seconds), inc));
        }
    }
    body.into()
}

fn seat_view<'a>(
    focus: &Focus<Msg>,
    form: &'a Form,
    levels: &'a Levels,
    engines: &'a [EngineSpec],
    player: Player,
) -> Element<'a, Msg> {
    let i = player.index();
    // Under a swap opening the sides are people whose colours the opening decides.
    let colour = match (form.swap, player) {
        (None, _) => colour_name(player),
        (Some(_), Player::First) => "First player (opens)",
        (Some(_), Player::Second) => "Second player",
    };
    let kinds = [(false, "Human".to_string()), (true, "Computer".to_string())];
    let on_kind = move |on| Msg::Computer(player, on);
    let name = if form.swap.is_some() { colour.to_string() } else { format!("{colour} player") };
    let mut body = column![heading(colour), segmented(focus, &name, &kinds, &form.computer[i], on_kind)].spacing(12);
    if form.computer[i] {
        let custom_depth = match form.levels[i] {
            LevelChoice::Custom(d) => d,
            LevelChoice::Named(_) => 6,
        };
        let mut choices: Vec<LevelItem> =
            levels.all().iter().map(|l| LevelItem::Level(LevelChoice::Named(l.name.clone()))).collect();
        choices.push(LevelItem::Level(LevelChoice::Custom(custom_depth)));
        let playable = engines.iter().filter(|e| Some(e.protocol) == form.engine_protocol);
        choices.extend(playable.map(|e| LevelItem::Engine(e.name.clone())));
        let on_level = move |l: LevelItem| match l {
            LevelItem::Level(level) => Msg::Level(player, level),
            LevelItem::Engine(name) => Msg::Engine(player, name),
        };
        let picked = Some(match &form.engines[i] {
            Some(name) => LevelItem::Engine(name.clone()),
            None => LevelItem::Level(form.levels[i].clone()),
        });
        body = body.push(
            row![
                text("Level").size(16).width(Length::Fixed(60.0)),
                pick(focus, &format!("{colour} level"), choices, picked, on_level, Fill),
            ]
            .align_y(iced::Center),
        );
        if let Some(name) = &form.engines[i] {
            let summary = match engines.iter().find(|e| &e.name == name) {
                Some(e) => format!("An external engine: {} in its own process.", e.program.display()),
                None => format!("{name} is no longer registered."),
            };
            return card(body.push(text(summary).size(13))).width(Fill).into();
        }
        let level = form.levels[i].resolve(levels);
        body = body.push(text(level_summary(&level, form.game.solves_endgames())).size(13));
        if let LevelChoice::Custom(depth) = form.levels[i] {
            let on_depth = move |d| Msg::Depth(player, d);
            body = body.push(
                row![
                    text(format!("Depth {depth}")).size(15).width(Length::Fixed(70.0)),
                    stepped_slider(focus, &format!("{colour} depth"), 1..=MAX_CUSTOM_DEPTH, 1, depth, on_depth, Fill),
                ]
                .spacing(8)
                .align_y(iced::Center),
            );
        }
    }
    card(body).width(Fill).into()
}

/// What a level does, in a sentence for the form: how far it looks, whether the clock can stop it sooner, and
/// where it plays perfectly.
#[must_use]
pub fn level_summary(level: &Level, solves_endgames: bool) -> String {
    let plies = if level.depth == 1 { "1 move".to_string() } else { format!("{} moves", level.depth) };
    let reach = match level.time_ms {
        // The clock usually stops a deep level first: say so rather than promise the depth.
        Some(t) => format!("Looks up to {plies} ahead, as far as {:.1} s a move allows", t as f64 / 1000.0),
        None => format!("Looks {plies} ahead, however long that takes"),
    };
    let perfect = match level.exact_empties {
        Some(empties) if solves_endgames => format!("; plays perfectly from {empties} empty squares"),
        _ => String::new(),
    };
    format!("{reach}{perfect}.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_menu_label_stays_the_same_while_the_depth_slider_moves() {
        let labels: Vec<String> =
            (1..=MAX_CUSTOM_DEPTH).map(|d| LevelItem::Level(LevelChoice::Custom(d)).to_string()).collect();
        assert!(labels.iter().all(|l| l == "Custom depth"), "{labels:?}");
        assert_eq!(LevelItem::Level(LevelChoice::Named("Hard".into())).to_string(), "Hard");
        assert_eq!(LevelItem::Engine("Rapfi".into()).to_string(), "Rapfi (engine)");
    }

    fn engine(name: &str, protocol: Protocol) -> EngineSpec {
        EngineSpec { name: name.into(), protocol, program: "/bin/true".into(), args: Vec::new(), folder: None }
    }

    #[test]
    fn an_engine_takes_a_seat_only_in_a_rule_set_it_can_play() {
        let engines = [engine("Rapfi", Protocol::Pbrain), engine("Edax", Protocol::NBoard)];
        let mut form = Form::new(GameKind::Gomoku, LevelChoice::Named("Medium".into()));
        assert_eq!(form.engine_protocol, Some(Protocol::Pbrain));
        form.update(Msg::Engine(Player::Second, "Rapfi".into()));
        assert_eq!(form.setup().seats[1], Seat::Engine("Rapfi".into()));
        assert_eq!(form.engine_problem(&engines), None);
        assert_eq!(Form::from_setup(&form.setup(), LevelChoice::Named("Easy".into())).setup(), form.setup());
        form.update(Msg::Engine(Player::Second, "Edax".into()));
        let problem = form.engine_problem(&engines).expect("Edax plays Othello");
        assert_eq!(problem, "Edax speaks NBoard (Othello), which cannot play Freestyle.");
        assert_eq!(
            form.engine_problem(&engines[..1]).as_deref(),
            Some("No engine called Edax is registered (Settings, Engines).")
        );
        form.update(Msg::Computer(Player::Second, false));
        assert_eq!(form.engine_problem(&[]), None, "a human side needs no engine");
        form.update(Msg::Computer(Player::Second, true));
        form.update(Msg::Level(Player::Second, LevelChoice::Custom(3)));
        assert_eq!(form.setup().seats[1], Seat::Computer(LevelChoice::Custom(3)), "a level replaces the engine");
        let mut othello = Form::new(GameKind::Othello, LevelChoice::Named("Medium".into()));
        othello.update(Msg::RuleSet("anti-othello".into()));
        assert_eq!(othello.engine_protocol, None, "no protocol plays anti-Othello");
    }

    #[test]
    fn the_clock_choice_gives_its_time_control_and_survives_a_change_of_game() {
        let mut form = Form::new(GameKind::Gomoku, LevelChoice::Named("Medium".into()));
        assert_eq!(form.time_control(), None);
        form.update(Msg::Clock(ClockKind::PerGame));
        form.update(Msg::GameMinutes(2));
        form.update(Msg::IncrementSeconds(500));
        let secs = std::time::Duration::from_secs;
        assert_eq!(form.time_control(), Some(TimeControl::PerGame { base: secs(120), increment: secs(60) }));
        form.update(Msg::Game(GameKind::Othello));
        assert_eq!(form.time_control(), Some(TimeControl::PerGame { base: secs(120), increment: secs(60) }));
        form.update(Msg::Clock(ClockKind::PerMove));
        form.update(Msg::MoveSeconds(0));
        assert_eq!(form.time_control(), Some(TimeControl::PerMove(secs(1))), "at least a second");
    }

    #[test]
    fn a_level_on_the_clock_promises_its_depth_only_as_far_as_the_clock_allows() {
        let timed = Level { time_ms: Some(900), exact_empties: Some(18), ..Level::custom(12) };
        assert_eq!(
            level_summary(&timed, true),
            "Looks up to 12 moves ahead, as far as 0.9 s a move allows; plays perfectly from 18 empty squares."
        );
        assert_eq!(level_summary(&timed, false), "Looks up to 12 moves ahead, as far as 0.9 s a move allows.");
        assert_eq!(level_summary(&Level::custom(1), true), "Looks 1 move ahead, however long that takes.");
    }
}
