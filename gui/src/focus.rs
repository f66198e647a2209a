//! Keyboard focus across the app's controls. iced 0.14 gives keyboard focus to text fields only, so the app
//! keeps its own ring: the screens build every focusable control through a [`Focus`], which numbers the
//! controls in the order they are built, draws the focused one with a ring and records what it does. The key
//! handler gets the same list by building the view again ([`Focus::into_stops`]), so the controls on screen and
//! the controls Tab visits cannot disagree.

pub mod scroll;

use std::cell::RefCell;

use iced::widget::{Button, Id, TextInput, container};
use iced::{Background, Border, Color, Element, Task, Theme};

use crate::theme::focus_colour;

/// What a focused control does with the keys.
#[derive(Clone, Debug)]
pub enum Action<M> {
    /// A button: Enter and Space press it.
    Press(M),
    /// One option among several: the arrows pick the previous or next option, Enter and Space the next one
    /// (round to the first).
    Choose {
        /// The message that picks each option, in order.
        options: Vec<M>,
        /// The option picked now, if it is one of them.
        selected: Option<usize>,
    },
    /// A text field: the ring hands it iced's focus, so typing goes in.
    Type(Id),
    /// The board: the keys move the board cursor and place, as when nothing has focus.
    Board,
}

/// A control in the ring.
#[derive(Clone, Debug)]
pub struct Stop<M> {
    /// What the control is called, unique on its screen; it keeps the focus on the control when others appear
    /// or vanish around it.
    pub name: String,
    /// What the keys do to it.
    pub action: Action<M>,
}

impl<M> Stop<M> {
    /// The same control, sending `wrap` of its messages: a screen's stops as the app's.
    #[must_use]
    pub fn map<N>(self, wrap: &impl Fn(M) -> N) -> Stop<N> {
        let action = match self.action {
            Action::Press(m) => Action::Press(wrap(m)),
            Action::Choose { options, selected } => {
                Action::Choose { options: options.into_iter().map(wrap).collect(), selected }
            }
            Action::Type(id) => Action::Type(id),
            Action::Board => Action::Board,
        };
        Stop { name: self.name, action }
    }
}

impl<M: Clone> Action<M> {
    /// The message a key sends to this control: `step` is +1 or -1 for the arrows, 0 for Enter and Space.
    #[must_use]
    pub fn message(&self, step: i32) -> Option<M> {
        match self {
            Action::Press(message) if step == 0 => Some(message.clone()),
            Action::Choose { options, selected } => {
                let last = options.len().checked_sub(1)?;
                let next = match (*selected, step) {
                    (None, _) => 0,
                    (Some(i), 0) => (i + 1) % options.len(),
                    (Some(i), s) if s < 0 => i.checked_sub(1)?,
                    (Some(i), _) if i < last => i + 1,
                    (Some(_), _) => return None,
                };
                options.get(next).cloned()
            }
            Action::Press(_) | Action::Type(_) | Action::Board => None,
        }
    }
}

/// The builder the screens make their focusable controls with, for one frame.
#[derive(Debug)]
pub struct Focus<M> {
    at: Option<usize>,
    live: bool,
    stops: RefCell<Vec<Stop<M>>>,
}

impl<M: Clone> Focus<M> {
    /// A builder that draws the ring around the `at`-th control it builds.
    #[must_use]
    pub fn new(at: Option<usize>) -> Focus<M> {
        Focus { at, live: true, stops: RefCell::new(Vec::new()) }
    }

    /// A builder whose controls are out of the ring: the screen under an open dialog.
    #[must_use]
    pub fn inert() -> Focus<M> {
        Focus { live: false, ..Focus::new(None) }
    }

    /// The controls built, in ring order.
    #[must_use]
    pub fn into_stops(self) -> Vec<Stop<M>> {
        self.stops.into_inner()
    }

    /// The part of the view that `build` makes with its own message type `C`, shown here with `wrap` of its
    /// messages: a screen inside the app. Its controls join this ring in the order they are built.
    pub fn nest<'a, C: Clone + 'a>(
        &self,
        wrap: impl Fn(C) -> M + Clone + 'a,
        build: impl FnOnce(&Focus<C>) -> Element<'a, C>,
    ) -> Element<'a, M>
    where
        M: 'a,
    {
        let before = self.stops.borrow().len();
        let inner = Focus { at: self.at.and_then(|at| at.checked_sub(before)), live: self.live, ..Focus::new(None) };
        let element = build(&inner);
        self.stops.borrow_mut().extend(inner.into_stops().into_iter().map(|stop| stop.map(&wrap)));
        element.map(wrap)
    }

    /// Adds a control to the ring and tells whether it is the focused one.
    fn add(&self, name: &str, action: Action<M>) -> bool {
        if !self.live {
            return false;
        }
        let mut stops = self.stops.borrow_mut();
        stops.push(Stop { name: name.to_string(), action });
        self.at == Some(stops.len() - 1)
    }

    /// `button` sending `message` when clicked or pressed with the keys; disabled and out of the ring without
    /// one.
    pub fn button<'a>(&self, name: &str, button: Button<'a, M>, message: Option<M>) -> Element<'a, M>
    where
        M: 'a,
    {
        let focused = message.clone().is_some_and(|m| self.add(name, Action::Press(m)));
        ring(button.on_press_maybe(message).into(), focused)
    }

    /// `control`, which offers `options` and sends `on_select` of the one picked; `selected` is the one
    /// picked now.
    pub fn choice<'a, T: PartialEq + Clone>(
        &self,
        name: &str,
        options: &[T],
        selected: Option<&T>,
        on_select: impl Fn(T) -> M,
        control: impl Into<Element<'a, M>>,
    ) -> Element<'a, M>
    where
        M: 'a,
    {
        let action = Action::Choose {
            options: options.iter().cloned().map(on_select).collect(),
            selected: selected.and_then(|s| options.iter().position(|o| o == s)),
        };
        ring(control.into(), self.add(name, action))
    }

    /// `input` under the widget id `id`, which the ring focuses when it reaches it.
    pub fn text_field<'a>(&self, name: &str, id: &'static str, input: TextInput<'a, M>) -> Element<'a, M>
    where
        M: 'a,
    {
        let focused = self.add(name, Action::Type(Id::new(id)));
        ring(input.id(id).into(), focused)
    }

    /// The board as one stop of the ring.
    pub fn board<'a>(&self, board: Element<'a, M>) -> Element<'a, M>
    where
        M: 'a,
    {
        ring(board, self.add("board", Action::Board))
    }
}

/// `content` with room for the focus ring around it, drawn when `focused`; the focused ring has the id
/// [`scroll::FOCUSED`].
fn ring<'a, M: 'a>(content: Element<'a, M>, focused: bool) -> Element<'a, M> {
    let ring = container(content);
    let ring = if focused { ring.id(scroll::FOCUSED) } else { ring };
    ring.padding(4)
        .style(move |theme: &Theme| container::Style {
            border: Border {
                width: 3.0,
                radius: 7.0.into(),
                color: if focused { focus_colour(theme) } else { Color::TRANSPARENT },
            },
            background: None::<Background>,
            ..container::Style::default()
        })
        .into()
}

/// The widget id no text field has: focusing it takes iced's focus away from every text field.
const NO_FIELD: &str = "tabula-no-text-field";

/// Where the keyboard focus is: the place of the focused control in the ring and its name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ring {
    at: Option<(usize, String)>,
}

impl Ring {
    /// The place of the focused control, if one is.
    #[must_use]
    pub fn index(&self) -> Option<usize> {
        self.at.as_ref().map(|(i, _)| *i)
    }

    /// The name of the focused control, if one is.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.at.as_ref().map(|(_, name)| name.as_str())
    }

    /// No control has the focus (the mouse was used, or the screen changed).
    pub fn clear(&mut self) {
        self.at = None;
    }

    /// Moves the focus to the next control (`forward`) or the previous one, round the ring; the first or last
    /// when none had it. The task hands iced's focus to the text field reached, or away from any text field.
    pub fn step<M, T>(&mut self, stops: &[Stop<M>], forward: bool) -> Task<T> {
        let n = stops.len();
        if n == 0 {
            self.clear();
            return Task::none();
        }
        let next = match (self.index().map(|i| i.min(n - 1)), forward) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(i), true) => (i + 1) % n,
            (Some(i), false) => (i + n - 1) % n,
        };
        self.at = Some((next, stops[next].name.clone()));
        let field = match &stops[next].action {
            Action::Type(id) => id.clone(),
            _ => Id::new(NO_FIELD),
        };
        iced::widget::operation::focus(field)
    }

    /// Keeps the focus on its control after the controls changed: the one with the same name, or the one now
    /// in its place when it has gone.
    pub fn settle<M>(&mut self, stops: &[Stop<M>]) {
        let Some((i, name)) = &self.at else { return };
        self.at = match stops.iter().position(|s| &s.name == name) {
            Some(found) => Some((found, name.clone())),
            None if stops.is_empty() => None,
            None => {
                let i = (*i).min(stops.len() - 1);
                Some((i, stops[i].name.clone()))
            }
        };
    }

    /// The focused control among `stops`.
    #[must_use]
    pub fn current<'s, M>(&self, stops: &'s [Stop<M>]) -> Option<&'s Stop<M>> {
        stops.get(self.index()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stops(names: &[&str]) -> Vec<Stop<()>> {
        names.iter().map(|n| Stop { name: (*n).to_string(), action: Action::Board }).collect()
    }

    #[test]
    fn the_ring_starts_at_either_end_and_wraps() {
        let all = stops(&["a", "b", "c"]);
        let mut ring = Ring::default();
        let _: Task<()> = ring.step(&all, false);
        assert_eq!(ring.name(), Some("c"), "Shift+Tab from nothing goes to the last");
        let _: Task<()> = ring.step(&all, true);
        assert_eq!(ring.name(), Some("a"), "round to the first");
        let _: Task<()> = ring.step(&all, false);
        assert_eq!(ring.name(), Some("c"), "and back");
    }

    #[test]
    fn the_focus_follows_its_control_by_name_or_keeps_its_place() {
        let mut ring = Ring::default();
        let _: Task<()> = ring.step(&stops(&["a", "b", "c"]), true);
        let _: Task<()> = ring.step(&stops(&["a", "b", "c"]), true);
        ring.settle(&stops(&["new", "a", "b", "c"]));
        assert_eq!((ring.index(), ring.name()), (Some(2), Some("b")), "b moved one down");
        ring.settle(&stops(&["new", "a", "c"]));
        assert_eq!((ring.index(), ring.name()), (Some(2), Some("c")), "b went; c took its place");
        ring.settle::<()>(&[]);
        assert_eq!(ring.index(), None);
    }

    #[test]
    fn a_choice_steps_and_stops_at_the_ends_and_enter_goes_round() {
        let choice = |selected| Action::Choose { options: vec!["home", "rules", "settings"], selected };
        assert_eq!(choice(Some(1)).message(1), Some("settings"));
        assert_eq!(choice(Some(1)).message(-1), Some("home"));
        assert_eq!(choice(Some(2)).message(1), None, "the last stays the last");
        assert_eq!(choice(Some(0)).message(-1), None);
        assert_eq!(choice(Some(2)).message(0), Some("home"), "Enter goes round");
        assert_eq!(choice(None).message(1), Some("home"));
        assert_eq!(Action::Press("rules").message(0), Some("rules"));
        assert_eq!(Action::Press("rules").message(1), None, "the arrows do not press a button");
    }

    #[test]
    fn a_nested_part_joins_the_ring_in_order_with_its_messages_wrapped() {
        let outer: Focus<(u8, &str)> = Focus::new(Some(2));
        let _: Element<'_, (u8, &str)> = outer.button("first", iced::widget::button("1"), Some((0, "first")));
        let mut focused_inside = Vec::new();
        let _ = outer.nest(
            |m: &str| (1, m),
            |inner| {
                for name in ["a", "b"] {
                    focused_inside.push(inner.add(name, Action::Press(name)));
                }
                iced::widget::text("inner").into()
            },
        );
        assert_eq!(focused_inside, [false, true], "the outer ring's third stop is the inner part's second");
        let stops = outer.into_stops();
        let names: Vec<&str> = stops.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["first", "a", "b"]);
        assert_eq!(stops[2].action.message(0), Some((1, "b")));
    }
}
