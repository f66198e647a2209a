//! Small building blocks the screens share: page frames, headings, cards and button styles.

use iced::widget::{button, column, container, row, space, text, tooltip};
use iced::{Background, Border, Element, Fill, Length, Theme};

use crate::app::Message;

/// A screen with a title bar (title and a Back button) over its content.
pub fn page<'a>(title: &'a str, back: Message, content: impl Into<Element<'a, Message>>) -> Element<'a, Message> {
    let bar = row![
        button(text("← Back").size(16)).on_press(back).style(button::secondary).padding([6, 14]),
        text(title).size(28),
    ]
    .spacing(20)
    .align_y(iced::Center);
    container(column![bar, content.into()].spacing(20).width(Fill).max_width(980))
        .padding(24)
        .center_x(Fill)
        .height(Fill)
        .into()
}

/// A section heading.
pub fn heading<'a>(label: impl text::IntoFragment<'a>) -> Element<'a, Message> {
    text(label).size(20).into()
}

/// A raised panel.
pub fn card<'a>(content: impl Into<Element<'a, Message>>) -> container::Container<'a, Message> {
    container(content).padding(16).style(card_style)
}

/// The style of a raised panel.
pub fn card_style(theme: &Theme) -> container::Style {
    let palette = theme.extended_palette();
    container::Style {
        background: Some(Background::Color(palette.background.weak.color)),
        border: Border { radius: 10.0.into(), width: 1.0, color: palette.background.strong.color },
        ..container::Style::default()
    }
}

/// A wide menu button.
pub fn menu_button(label: &str, message: Option<Message>) -> Element<'_, Message> {
    button(text(label).size(18).center().width(Fill))
        .on_press_maybe(message)
        .padding([10, 16])
        .width(Length::Fixed(260.0))
        .into()
}

/// A compact action button; disabled when `message` is `None`.
pub fn action<'a>(label: &'a str, message: Option<Message>) -> Element<'a, Message> {
    button(text(label).size(15).center().width(Fill)).on_press_maybe(message).padding([6, 8]).width(Fill).into()
}

/// A choice among several, shown as a row of buttons with the selected one highlighted.
pub fn segmented<'a, T: Clone + PartialEq + 'a>(
    options: &[(T, String)],
    selected: &T,
    on_select: impl Fn(T) -> Message + 'a,
) -> Element<'a, Message> {
    let buttons = options.iter().map(|(value, label)| {
        let style = if value == selected { button::primary } else { button::secondary };
        button(text(label.clone()).size(15)).style(style).padding([6, 14]).on_press(on_select(value.clone())).into()
    });
    row(buttons).spacing(6).into()
}

/// Flexible empty space.
pub fn filler() -> Element<'static, Message> {
    space().width(Fill).into()
}

/// `content` with a tooltip above it; plain `content` when the tip is empty.
pub fn tipped<'a>(content: Element<'a, Message>, tip: String) -> Element<'a, Message> {
    if tip.is_empty() {
        return content;
    }
    tooltip(
        content,
        container(text(tip).size(13)).padding([3, 8]).style(container::bordered_box),
        tooltip::Position::Top,
    )
    .gap(4)
    .into()
}

/// A question over the screen with Yes and No buttons (Enter and Esc answer it too).
pub fn question<'a>(
    screen: Element<'a, Message>,
    prompt: &'a str,
    yes: &'a str,
    answer: fn(bool) -> Message,
) -> Element<'a, Message> {
    let dialog = card(
        column![
            text(prompt).size(18),
            row![
                tipped(button(text(yes).size(15)).on_press(answer(true)).padding([6, 16]).into(), "Enter".into()),
                tipped(
                    button(text("Cancel").size(15))
                        .style(button::secondary)
                        .on_press(answer(false))
                        .padding([6, 16])
                        .into(),
                    "Esc".into()
                ),
            ]
            .spacing(10),
        ]
        .spacing(16)
        .max_width(420),
    );
    let shade = container(dialog).center(Fill).style(|_: &Theme| container::Style {
        background: Some(Background::Color(iced::Color { a: 0.45, ..iced::Color::BLACK })),
        ..container::Style::default()
    });
    iced::widget::stack![screen, iced::widget::opaque(shade)].into()
}
