//! The settings screen: animation speed, markers, coordinates, theme, default level, computer pace and search
//! threads.

use iced::widget::{Toggler, column, row, scrollable, text, toggler};
use iced::{Element, Fill, Length, Padding};
use tabula_core::Levels;
use tabula_games::engine::MAX_THREADS;

use crate::focus::Focus;
use crate::screen::widgets::{card, heading, page, pick, stepped_slider};
use crate::settings::{AnimationSpeed, Settings, ThemeChoice};

/// A change on the settings screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// Flip animation speed.
    Animation(AnimationSpeed),
    /// Othello legal-move markers on or off.
    LegalMarkers(bool),
    /// Renju forbidden-point markers on or off.
    ForbiddenMarkers(bool),
    /// Gomoku move numbers on or off.
    MoveNumbers(bool),
    /// Board coordinates on or off.
    Coordinates(bool),
    /// Light or dark.
    Theme(ThemeChoice),
    /// The level new games start with.
    DefaultLevel(String),
    /// The least time per computer move, in milliseconds.
    Pace(u64),
    /// The bell on a refused move on or off.
    Sound(bool),
    /// The computer's search threads (0: every core but one).
    Threads(usize),
    /// Back to the home screen (no change).
    Back,
}

/// A choice of search threads in the drop-down list: a count, or 0 for the automatic choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadChoice(pub usize);

impl std::fmt::Display for ThreadChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            0 => match tabula_games::engine::default_threads() {
                1 => f.write_str("Automatic (1 thread)"),
                n => write!(f, "Automatic ({n} threads)"),
            },
            1 => f.write_str("1 thread"),
            n => write!(f, "{n} threads"),
        }
    }
}

/// The choices offered: automatic, then one thread per core up to the machine's cores (and the saved count, if
/// it came from a larger machine), at most the engine's limit.
fn thread_choices(saved: usize) -> Vec<ThreadChoice> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    (0..=cores.max(saved).min(MAX_THREADS)).map(ThreadChoice).collect()
}

/// Applies a change to `settings`.
pub fn apply(settings: &mut Settings, msg: Msg) {
    match msg {
        Msg::Animation(speed) => settings.animation = speed,
        Msg::LegalMarkers(on) => settings.legal_markers = on,
        Msg::ForbiddenMarkers(on) => settings.forbidden_markers = on,
        Msg::MoveNumbers(on) => settings.move_numbers = on,
        Msg::Coordinates(on) => settings.coordinates = on,
        Msg::Theme(theme) => settings.theme = theme,
        Msg::DefaultLevel(name) => settings.default_level = name,
        Msg::Pace(ms) => settings.computer_pace_ms = ms,
        Msg::Sound(on) => settings.sound = on,
        Msg::Threads(n) => settings.search_threads = n,
        Msg::Back => {}
    }
}

fn labelled<'a>(label: &'a str, control: impl Into<Element<'a, Msg>>) -> Element<'a, Msg> {
    row![text(label).size(16).width(Length::Fixed(260.0)), control.into()].align_y(iced::Center).into()
}

/// A labelled drop-down list; one stop of the focus ring, called by its label.
fn list<'a, T: ToString + PartialEq + Clone + 'a>(
    focus: &Focus<Msg>,
    label: &'a str,
    options: Vec<T>,
    selected: T,
    on_select: impl Fn(T) -> Msg + Copy + 'a,
) -> Element<'a, Msg> {
    labelled(label, pick(focus, label, options, Some(selected), on_select, Length::Shrink))
}

/// A labelled on/off switch; one stop of the focus ring, called by its label.
fn switch<'a>(
    focus: &Focus<Msg>,
    label: &'a str,
    switch: Toggler<'a, Msg>,
    on: bool,
    on_toggle: impl Fn(bool) -> Msg + Copy + 'a,
) -> Element<'a, Msg> {
    labelled(label, focus.choice(label, &[false, true], Some(&on), on_toggle, switch.on_toggle(on_toggle)))
}

/// The settings screen; `problem` reports a file that could not be read or written.
pub fn view<'a>(
    focus: &Focus<Msg>,
    settings: &'a Settings,
    levels: &'a Levels,
    problem: Option<&'a str>,
) -> Element<'a, Msg> {
    let level_names: Vec<String> = levels.all().iter().map(|l| l.name.clone()).collect();
    let toggle = |label, on, to: fn(bool) -> Msg| switch(focus, label, toggler(on), on, to);
    let animation = AnimationSpeed::ALL.to_vec();
    let board = card(
        column![
            heading("Board"),
            list(focus, "Flip animation", animation, settings.animation, Msg::Animation),
            toggle("Othello legal-move markers", settings.legal_markers, Msg::LegalMarkers),
            toggle("Renju forbidden-point markers", settings.forbidden_markers, Msg::ForbiddenMarkers),
            toggle("Gomoku move numbers", settings.move_numbers, Msg::MoveNumbers),
            toggle("Coordinates", settings.coordinates, Msg::Coordinates),
        ]
        .spacing(12),
    )
    .width(Fill);
    let theme = list(focus, "Theme", ThemeChoice::ALL.to_vec(), settings.theme, Msg::Theme);
    let level = settings.default_level.clone();
    let level = list(focus, "Default computer level", level_names, level, Msg::DefaultLevel);
    let pace_ms = settings.computer_pace_ms.min(2000) as u32 / 100 * 100;
    let pace = stepped_slider(
        focus,
        "Least time per computer move",
        0..=2000,
        100,
        pace_ms,
        move |v| Msg::Pace(u64::from(v)),
        Length::Fixed(200.0),
    );
    let threads = list(
        focus,
        "Computer's search threads",
        thread_choices(settings.search_threads),
        ThreadChoice(settings.search_threads),
        |t: ThreadChoice| Msg::Threads(t.0),
    );
    let bell = toggler(settings.sound).label("terminal bell, no audio device needed");
    let general = card(
        column![
            heading("General"),
            theme,
            level,
            labelled(
                "Least time per computer move",
                row![pace, text(format!("{:.1} s", settings.computer_pace_ms as f64 / 1000.0)).size(15)]
                    .spacing(10)
                    .align_y(iced::Center),
            ),
            threads,
            switch(focus, "Bell on a refused move", bell, settings.sound, Msg::Sound),
        ]
        .spacing(12),
    )
    .width(Fill);
    let mut content = column![board, general, text("Settings are saved as you change them.").size(13)].spacing(16);
    if let Some(problem) = problem {
        content = content.push(text(problem).style(text::danger));
    }
    // In a short window the settings scroll, so that every one stays reachable; the scrollbar gets its own margin.
    let content = content.padding(Padding::ZERO.right(14));
    page(focus, "Settings", Msg::Back, scrollable(content).height(Fill))
}
