//! Help > Keyboard: every shortcut, listed from the same table the key handler reads.

use iced::widget::{column, row, scrollable, text};
use iced::{Element, Fill, Length};

use crate::focus::Focus;
use crate::keys::BINDINGS;
use crate::screen::widgets::{card, page};

/// The rows of the keyboard help: the keys and what they do.
#[must_use]
pub fn rows() -> Vec<(String, &'static str)> {
    BINDINGS.iter().map(|b| (b.keys(), b.action)).collect()
}

/// The keyboard help; `back` leaves it.
pub fn view<'a, M: Clone + 'a>(focus: &Focus<M>, back: M) -> Element<'a, M> {
    let list = column(rows().into_iter().map(|(keys, action)| {
        row![text(keys).size(15).width(Length::Fixed(260.0)), text(action).size(15)].spacing(12).into()
    }))
    .spacing(6);
    let note = text(
        "Tab and Shift+Tab move the focus (an orange ring) through a screen's controls, top to bottom and left to \
         right; Back comes last, and in a game the board comes first. Enter or Space presses the focused button; on \
         a focused choice (a row of options, a list, a switch, a slider) the arrows pick the previous or next option \
         and Enter or Space the next one. A focused text field takes what you type until Tab moves on. While a \
         question is open, the focus stays in it; Esc closes an open drop-down list. In a game the arrows and Enter play on the \
         board unless a side-panel control has the focus; Esc gives the keys back to the board. A mouse click \
         hides the focus. Buttons show their keys in a tooltip. In a question, Enter answers yes and Esc cancels.",
    )
    .size(14);
    let content = column![card(list).width(Fill), note].spacing(12);
    page(focus, "Keyboard", back, scrollable(content).height(Fill))
}
