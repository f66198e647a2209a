//! Help > Keyboard: every shortcut, listed from the same table the key handler reads.

use iced::widget::{column, row, scrollable, text};
use iced::{Element, Fill, Length};

use crate::app::Message;
use crate::keys::BINDINGS;
use crate::screen::widgets::{card, page};

/// The rows of the keyboard help: the keys and what they do.
#[must_use]
pub fn rows() -> Vec<(String, &'static str)> {
    BINDINGS.iter().map(|b| (b.keys(), b.action)).collect()
}

/// The keyboard help; `back` leaves it.
pub fn view<'a>(back: Message) -> Element<'a, Message> {
    let list = column(rows().into_iter().map(|(keys, action)| {
        row![text(keys).size(15).width(Length::Fixed(260.0)), text(action).size(15)].spacing(12).into()
    }))
    .spacing(6);
    let note = text(
        "Tab and Shift+Tab move between text fields; buttons show their keys in a tooltip. \
         In a question, Enter answers yes and Esc cancels.",
    )
    .size(14);
    let content = column![card(list).width(Fill), note].spacing(12);
    page("Keyboard", back, scrollable(content).height(Fill))
}
