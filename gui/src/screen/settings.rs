//! The settings screen: animation speed, markers, coordinates, theme, default level and computer pace.

use iced::widget::{column, pick_list, row, slider, text, toggler};
use iced::{Element, Fill, Length};
use tabula_core::Levels;

use crate::app::{Message, Route};
use crate::screen::widgets::{card, heading, page};
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
    }
}

fn labelled<'a>(label: &'a str, control: impl Into<Element<'a, Message>>) -> Element<'a, Message> {
    row![text(label).size(16).width(Length::Fixed(260.0)), control.into()].align_y(iced::Center).into()
}

/// The settings screen; `problem` reports a file that could not be read or written.
pub fn view<'a>(settings: &'a Settings, levels: &'a Levels, problem: Option<&'a str>) -> Element<'a, Message> {
    let msg = |m: Msg| Message::Settings(m);
    let level_names: Vec<String> = levels.all().iter().map(|l| l.name.clone()).collect();
    let board = card(
        column![
            heading("Board"),
            labelled(
                "Flip animation",
                pick_list(AnimationSpeed::ALL, Some(settings.animation), move |s| msg(Msg::Animation(s)))
            ),
            labelled(
                "Othello legal-move markers",
                toggler(settings.legal_markers).on_toggle(move |b| msg(Msg::LegalMarkers(b)))
            ),
            labelled(
                "Renju forbidden-point markers",
                toggler(settings.forbidden_markers).on_toggle(move |b| msg(Msg::ForbiddenMarkers(b))),
            ),
            labelled(
                "Gomoku move numbers",
                toggler(settings.move_numbers).on_toggle(move |b| msg(Msg::MoveNumbers(b)))
            ),
            labelled("Coordinates", toggler(settings.coordinates).on_toggle(move |b| msg(Msg::Coordinates(b)))),
        ]
        .spacing(12),
    )
    .width(Fill);
    let general = card(
        column![
            heading("General"),
            labelled("Theme", pick_list(ThemeChoice::ALL, Some(settings.theme), move |t| msg(Msg::Theme(t)))),
            labelled(
                "Default computer level",
                pick_list(level_names, Some(settings.default_level.clone()), move |n| msg(Msg::DefaultLevel(n))),
            ),
            labelled(
                "Least time per computer move",
                row![
                    slider(0..=2000u32, settings.computer_pace_ms.min(2000) as u32, move |v| msg(Msg::Pace(
                        u64::from(v)
                    )))
                    .step(100u32)
                    .width(Length::Fixed(200.0)),
                    text(format!("{:.1} s", settings.computer_pace_ms as f64 / 1000.0)).size(15),
                ]
                .spacing(10),
            ),
            labelled(
                "Bell on a refused move",
                toggler(settings.sound)
                    .on_toggle(move |b| msg(Msg::Sound(b)))
                    .label("terminal bell, no audio device needed"),
            ),
        ]
        .spacing(12),
    )
    .width(Fill);
    let mut content = column![board, general, text("Settings are saved as you change them.").size(13)].spacing(16);
    if let Some(problem) = problem {
        content = content.push(text(problem).style(text::danger));
    }
    page("Settings", Message::Go(Route::Home), content)
}
