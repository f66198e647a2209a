//! Keyboard focus across the app's controls. iced 0.14 gives keyboard focus to text fields only, so the app
//! keeps its own ring: the screens build every focusable control through a [`Focus`], which numbers the
//! controls in the order they are built, draws the focused one with a ring and records what it does. The key
//! handler gets the same list by building the view again ([`Focus::into_stops`]), so the controls on screen and
//! the controls Tab visits cannot disagree.

pub mod scroll;

use std::cell::RefCell;

use iced::widget::{Button, Id, TextInput, container};
use iced::{Background, Border, Color, Element, Task, Theme};

use crate::app::Message;
use crate::theme::focus_colour;

/// What a focused control does with the keys.
#[derive(Clone, Debug)]
pub enum Action {
    /// A button: Enter and Space press it.
    Press(Message),
    /// One option among several: the arrows pick the previous or next option, Enter and Space the next one
    /// (round to the first).
    Choose {
        /// The message that picks each option, in order.
        options: Vec<Message>,
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
pub struct Stop {
    /// What the control is called, unique on its screen; it keeps the focus on the control when others appear
    /// or vanish around it.
    pub name: String,
    /// What the keys do to it.
    pub action: Action,
}

impl Action {
    /// The message a key sends to this control: `step` is +1 or -1 for the arrows, 0 for Enter and Space.
    #[must_use]
    pub fn message(&self, step: i32) -> Option<Message> {
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
pub struct Focus {
    at: Option<usize>,
    live: bool,
    stops: RefCell<Vec<Stop>>,
}

impl Focus {
    /// A builder that draws the ring around the `at`-th control it builds.
    #[must_use]
    pub fn new(at: Option<usize>) -> Focus {
        Focus { at, live: true, stops: RefCell::new(Vec::new()) }
    }

    /// A builder whose controls are out of the ring: the screen under an open dialog.
    #[must_use]
    pub fn inert() -> Focus {
        Focus { live: false, ..Focus::new(None) }
    }

    /// The controls built, in ring order.
    #[must_use]
    pub fn into_stops(self) -> Vec<Stop> {
        self.stops.into_inner()
    }

    /// Adds a control to the ring and tells whether it is the focused one.
    fn add(&self, name: &str, action: Action) -> bool {
        if !self.live {
            return false;
        }
        let mut stops = self.stops.borrow_mut();
        stops.push(Stop { name: name.to_string(), action });
        self.at == Some(stops.len() - 1)
    }

    /// `button` sending `message` when clicked or pressed with the keys; disabled and out of the ring without
    /// one.
    pub fn button<'a>(
        &self,
        name: &str,
        button: Button<'a, Message>,
        message: Option<Message>,
    ) -> Element<'a, Message> {
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
        on_select: impl Fn(T) -> Message,
        control: impl Into<Element<'a, Message>>,
    ) -> Element<'a, Message> {
        let action = Action::Choose {
            options: options.iter().cloned().map(on_select).collect(),
            selected: selected.and_then(|s| options.iter().position(|o| o == s)),
        };
        ring(control.into(), self.add(name, action))
    }

    /// `input` under the widget id `id`, which the ring focuses when it reaches it.
    pub fn text_field<'a>(&self, name: &str, id: &'static str, input: TextInput<'a, Message>) -> Element<'a, Message> {
        let focused = self.add(name, Action::Type(Id::new(id)));
        ring(input.id(id).into(), focused)
    }

    /// The board as one stop of the ring.
    pub fn board<'a>(&self, board: Element<'a, Message>) -> Element<'a, Message> {
        ring(board, self.add("board", Action::Board))
    }
}

/// `content` with room for the focus ring around it, drawn when `focused`; the focused ring has the id
/// [`scroll::FOCUSED`].
fn ring(content: Element<'_, Message>, focused: bool) -> Element<'_, Message> {
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
    pub fn step(&mut self, stops: &[Stop], forward: bool) -> Task<Message> {
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
    pub fn settle(&mut self, stops: &[Stop]) {
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
    pub fn current<'s>(&self, stops: &'s [Stop]) -> Option<&'s Stop> {
        stops.get(self.index()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Route;

    fn stops(names: &[&str]) -> Vec<Stop> {
        names.iter().map(|n| Stop { name: (*n).to_string(), action: Action::Board }).collect()
    }

    #[test]
    fn the_ring_starts_at_either_end_and_wraps() {
        let all = stops(&["a", "b", "c"]);
        let mut ring = Ring::default();
        let _ = ring.step(&all, false);
        assert_eq!(ring.name(), Some("c"), "Shift+Tab from nothing goes to the last");
        let _ = ring.step(&all, true);
        assert_eq!(ring.name(), Some("a"), "round to the first");
        let _ = ring.step(&all, false);
        assert_eq!(ring.name(), Some("c"), "and back");
    }

    #[test]
    fn the_focus_follows_its_control_by_name_or_keeps_its_place() {
        let mut ring = Ring::default();
        let _ = ring.step(&stops(&["a", "b", "c"]), true);
        let _ = ring.step(&stops(&["a", "b", "c"]), true);
        ring.settle(&stops(&["new", "a", "b", "c"]));
        assert_eq!((ring.index(), ring.name()), (Some(2), Some("b")), "b moved one down");
        ring.settle(&stops(&["new", "a", "c"]));
        assert_eq!((ring.index(), ring.name()), (Some(2), Some("c")), "b went; c took its place");
        ring.settle(&[]);
        assert_eq!(ring.index(), None);
    }

    #[test]
    fn a_choice_steps_and_stops_at_the_ends_and_enter_goes_round() {
        let go = |i: usize| Message::Go([Route::Home, Route::Rules, Route::Settings][i].clone());
        let choice = |selected| Action::Choose { options: (0..3).map(go).collect(), selected };
        let route = |m: Option<Message>| match m {
            Some(Message::Go(route)) => Some(route),
            _ => None,
        };
        assert_eq!(route(choice(Some(1)).message(1)), Some(Route::Settings));
        assert_eq!(route(choice(Some(1)).message(-1)), Some(Route::Home));
        assert_eq!(route(choice(Some(2)).message(1)), None, "the last stays the last");
        assert_eq!(route(choice(Some(0)).message(-1)), None);
        assert_eq!(route(choice(Some(2)).message(0)), Some(Route::Home), "Enter goes round");
        assert_eq!(route(choice(None).message(1)), Some(Route::Home));
        assert_eq!(route(Action::Press(go(1)).message(0)), Some(Route::Rules));
        assert_eq!(route(Action::Press(go(1)).message(1)), None, "the arrows do not press a button");
    }
}
