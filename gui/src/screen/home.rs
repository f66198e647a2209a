//! The home screen: a card per game with a small board picture, and the main menu.

use iced::widget::canvas::{Cache, Canvas};
use iced::widget::{button, column, container, row, scrollable, text};
use iced::{Element, Fill, Length};
use tabula_core::Player;
use tabula_games::{Cell, MoveReport, Snapshot};

use crate::board_canvas::BoardView;
use crate::focus::Focus;
use crate::screen::Route;
use crate::screen::play::board_options;
use crate::screen::widgets::{card, menu_button};
use crate::settings::Settings;
use tabula_games::registry::GameKind;

/// A picture of a game in progress for the game's card (a fixed, hand-set position).
#[must_use]
pub fn sample_position(game: GameKind) -> Snapshot {
    let sample = &game.descriptor().look.sample;
    let (size, black, white, last) = (sample.size, sample.first, sample.second, sample.last);
    let mut stones = vec![None; size * size];
    for &(x, y) in black {
        stones[y * size + x] = Some(Player::First);
    }
    for &(x, y) in white {
        stones[y * size + x] = Some(Player::Second);
    }
    Snapshot {
        size: (size, size),
        counts: [black.len(), white.len()],
        stones,
        to_move: Player::Second,
        markers: Vec::new(),
        last_move: Some(MoveReport {
            player: Some(Player::First),
            placed: Some(Cell::new(last.0, last.1)),
            ..MoveReport::default()
        }),
        outcome: None,
        end_reason: None,
        area: None,
    }
}

/// What the home screen asks for.
#[derive(Clone, Debug)]
pub enum Msg {
    /// Go to a screen.
    Go(Route),
    /// Leave the app.
    Quit,
}

/// The home screen. `pictures` are the board pictures of the cards; `can_continue` enables Continue.
pub fn view<'a>(
    focus: &Focus<Msg>,
    pictures: &'a [(Snapshot, Cache)],
    settings: &'a Settings,
    can_continue: bool,
    notice: Option<&'a str>,
) -> Element<'a, Msg> {
    let cards = row(GameKind::ALL.iter().zip(pictures).map(|(&game, (snapshot, cache))| {
        let picture = Canvas::new(BoardView::<Msg>::picture(snapshot.clone(), board_options(game, settings), cache))
            .width(Length::Fixed(196.0))
            .height(Length::Fixed(196.0));
        let label = format!("Play {}", game.name());
        let body = column![
            picture,
            text(game.name()).size(26),
            text(game.tagline()).size(15).center().height(Length::Fixed(42.0)),
            focus.button(
                &label,
                button(text(label.clone()).size(17).center().width(Fill)).padding([8, 12]).width(Fill),
                Some(Msg::Go(Route::NewGame(game))),
            ),
        ]
        .spacing(10)
        .align_x(iced::Center)
        .width(Length::Fixed(214.0));
        card(body).into()
    }))
    .spacing(20);
    let menu = column![
        menu_button(focus, "Continue", can_continue.then_some(Msg::Go(Route::Continue))),
        menu_button(focus, "Saved games", Some(Msg::Go(Route::SavedGames))),
        menu_button(focus, "Play online", Some(Msg::Go(Route::Online))),
        menu_button(focus, "Statistics", Some(Msg::Go(Route::Statistics))),
        menu_button(focus, "Compare rule sets", Some(Msg::Go(Route::Compare))),
        menu_button(focus, "Rules", Some(Msg::Go(Route::Rules))),
        menu_button(focus, "Keyboard", Some(Msg::Go(Route::Keyboard))),
        menu_button(focus, "Settings", Some(Msg::Go(Route::Settings))),
        menu_button(focus, "Quit", Some(Msg::Quit)),
    ]
    .spacing(6);
    // Sized so that the whole page fits an 800x600 window; larger windows centre it.
    let mut page = column![
        column![text("Tabula").size(46), text("Gomoku and Othello against the computer or a friend").size(17)]
            .align_x(iced::Center)
            .spacing(4),
        row![cards, menu].spacing(28).align_y(iced::Center),
    ]
    .spacing(20)
    .align_x(iced::Center);
    if let Some(notice) = notice {
        page = page.push(text(notice).size(14).style(text::danger));
    }
    // Centred in the window; in a short window the page scrolls, so that every button stays reachable.
    container(scrollable(container(page).center_x(Fill).padding(16))).center(Fill).into()
}
