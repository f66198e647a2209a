//! Small building blocks the screens share: page frames, headings, cards and button styles. The controls are
//! built through a [`Focus`], which puts them in the keyboard focus ring.

use std::ops::RangeInclusive;

use iced::widget::{button, column, container, pick_list, row, slider, text, tooltip};
use iced::{Background, Border, Element, Fill, Length, Theme};

use crate::focus::Focus;
use crate::screen::escape_closes::EscapeCloses;

/// A screen with a title bar (title and a Back button) over its content. `content` is built first, so Back is
/// the last stop of every page's focus ring.
pub fn page<'a, M: Clone + 'a>(
    focus: &Focus<M>,
    title: &'a str,
    back: M,
    content: impl Into<Element<'a, M>>,
) -> Element<'a, M> {
    let content = content.into();
    let bar = row![
        focus.button("Back", button(text("← Back").size(16)).style(button::secondary).padding([6, 14]), Some(back)),
        text(title).size(28),
    ]
    .spacing(20)
    .align_y(iced::Center);
    container(column![bar, content].spacing(20).width(Fill).max_width(980))
        .padding(24)
        .center_x(Fill)
        .height(Fill)
        .into()
}

/// A section heading.
pub fn heading<'a, M: 'a>(label: impl text::IntoFragment<'a>) -> Element<'a, M> {
    text(label).size(20).into()
}

/// A raised panel.
pub fn card<'a, M: 'a>(content: impl Into<Element<'a, M>>) -> container::Container<'a, M> {
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

/// A wide menu button; disabled when `message` is `None`.
pub fn menu_button<'a, M: Clone + 'a>(focus: &Focus<M>, label: &'a str, message: Option<M>) -> Element<'a, M> {
    let body = button(text(label).size(17).center().width(Fill)).padding([6, 12]).width(Length::Fixed(220.0));
    focus.button(label, body, message)
}

/// A compact action button; disabled when `message` is `None`.
pub fn action<'a, M: Clone + 'a>(focus: &Focus<M>, label: &'a str, message: Option<M>) -> Element<'a, M> {
    let label_text = text(label).size(15).center().width(Fill).wrapping(text::Wrapping::None);
    focus.button(label, button(label_text).padding([6, 4]).width(Fill), message)
}

/// A choice among several, shown as a row of buttons with the selected one highlighted; one stop of the focus
/// ring, called `name`.
pub fn segmented<'a, T: Clone + PartialEq + 'a, M: Clone + 'a>(
    focus: &Focus<M>,
    name: &str,
    options: &[(T, String)],
    selected: &T,
    on_select: impl Fn(T) -> M + Copy + 'a,
) -> Element<'a, M> {
    let buttons = options.iter().map(|(value, label)| {
        let style = if value == selected { button::primary } else { button::secondary };
        button(text(label.clone()).size(15)).style(style).padding([6, 14]).on_press(on_select(value.clone())).into()
    });
    let values: Vec<T> = options.iter().map(|(value, _)| value.clone()).collect();
    focus.choice(name, &values, Some(selected), on_select, row(buttons).spacing(6))
}

/// A drop-down list of `options`, whose open menu Esc closes; one stop of the focus ring, called `name`.
pub fn pick<'a, T: ToString + PartialEq + Clone + 'a, M: Clone + 'a>(
    focus: &Focus<M>,
    name: &str,
    options: Vec<T>,
    selected: Option<T>,
    on_select: impl Fn(T) -> M + Copy + 'a,
    width: Length,
) -> Element<'a, M> {
    let list = EscapeCloses::new(pick_list(options.clone(), selected.clone(), on_select).width(width));
    focus.choice(name, &options, selected.as_ref(), on_select, list)
}

/// A slider over `range` in steps of `step`; one stop of the focus ring, called `name`, whose options are the
/// steps.
pub fn stepped_slider<'a, M: Clone + 'a>(
    focus: &Focus<M>,
    name: &str,
    range: RangeInclusive<u32>,
    step: u32,
    value: u32,
    on_change: impl Fn(u32) -> M + Copy + 'a,
    width: Length,
) -> Element<'a, M> {
    let steps: Vec<u32> = range.clone().step_by(step as usize).collect();
    let control = slider(range, value, on_change).step(step).width(width);
    focus.choice(name, &steps, Some(&value), on_change, control)
}

/// `content` with a tooltip above it once the pointer rests there; plain `content` when the tip is empty.
pub fn tipped<'a, M: 'a>(content: Element<'a, M>, tip: String) -> Element<'a, M> {
    if tip.is_empty() {
        return content;
    }
    tooltip(
        content,
        container(text(tip).size(13)).padding([3, 8]).style(container::bordered_box),
        tooltip::Position::Top,
    )
    .gap(4)
    // Shown only after the pointer rests on the button, so that it does not cover the buttons above while the
    // player moves between them.
    .delay(std::time::Duration::from_millis(600))
    .into()
}

/// A question over the screen with Yes and No buttons (Enter and Esc answer it too); its buttons are the whole
/// focus ring while it is open.
pub fn question<'a, M: Clone + 'a>(
    focus: &Focus<M>,
    screen: Element<'a, M>,
    prompt: &'a str,
    yes: &'a str,
    answer: fn(bool) -> M,
) -> Element<'a, M> {
    let dialog = card(
        column![
            text(prompt).size(18),
            row![
                tipped(
                    focus.button(yes, button(text(yes).size(15)).padding([6, 16]), Some(answer(true))),
                    "Enter".into()
                ),
                tipped(
                    focus.button(
                        "Cancel",
                        button(text("Cancel").size(15)).style(button::secondary).padding([6, 16]),
                        Some(answer(false))
                    ),
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
