//! Playing without a mouse: every key with a meaning and what it does, in one table. The key handler and the
//! keyboard help both read [`BINDINGS`], so the help lists exactly the shortcuts that exist.

use iced::keyboard::key::Named;
use iced::keyboard::{self, Key, Modifiers};

/// Something a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    /// Move the board cursor by (columns, rows); it stops at the edges. On a focused choice: the previous
    /// (left, up) or next (right, down) option.
    Cursor(i32, i32),
    /// Place a stone or disc at the cursor, press the focused control, or confirm the open question.
    Place,
    /// Take back a move.
    Undo,
    /// Replay an undone move.
    Redo,
    /// Ask for a hint, or tell the thinking computer to move now.
    Hint,
    /// Open the new-game form.
    NewGame,
    /// Save the game: the saved-games screen.
    Save,
    /// Open another game: the saved-games screen.
    Load,
    /// Back to the menu, asking first when a game is in progress (or dismiss the open question, or on the play
    /// screen take the focus away from a control).
    Menu,
    /// Show the start position.
    First,
    /// Show the current position.
    Last,
    /// Show one move earlier.
    Back,
    /// Show one move later.
    Forward,
    /// Full screen on or off.
    FullScreen,
    /// The keyboard help.
    KeyboardHelp,
    /// Move the keyboard focus to the next control.
    FocusNext,
    /// Move the keyboard focus to the previous control.
    FocusPrevious,
}

/// A key as the table names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyName {
    /// A named key (arrows, Enter, F11…).
    Named(Named),
    /// A character key, compared without case.
    Char(char),
}

/// A key with the modifiers it must be pressed with (no others).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chord {
    /// The key.
    pub key: KeyName,
    /// Ctrl (or Command on macOS).
    pub ctrl: bool,
    /// Shift.
    pub shift: bool,
    /// Alt.
    pub alt: bool,
}

const fn plain(key: KeyName) -> Chord {
    Chord { key, ctrl: false, shift: false, alt: false }
}

const fn named(key: Named) -> Chord {
    plain(KeyName::Named(key))
}

const fn char_key(c: char) -> Chord {
    plain(KeyName::Char(c))
}

const fn ctrl(c: char) -> Chord {
    Chord { ctrl: true, ..char_key(c) }
}

const fn alt(key: Named) -> Chord {
    Chord { alt: true, ..named(key) }
}

/// A shortcut, the keys that ask for it, and what it does in words.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// What the keys ask for.
    pub shortcut: Shortcut,
    /// The keys, any of which works.
    pub chords: &'static [Chord],
    /// What happens, for the help.
    pub action: &'static str,
}

const fn bind(shortcut: Shortcut, chords: &'static [Chord], action: &'static str) -> Binding {
    Binding { shortcut, chords, action }
}

/// Every key with a meaning. The arrow keys move the board cursor, so stepping through the move list uses
/// Alt+arrows, `[` `]` and Page Up/Down.
pub const BINDINGS: &[Binding] = &[
    bind(Shortcut::Cursor(0, -1), &[named(Named::ArrowUp), char_key('w')], "board cursor up; focused choice: previous"),
    bind(
        Shortcut::Cursor(-1, 0),
        &[named(Named::ArrowLeft), char_key('a')],
        "board cursor left; focused choice: previous",
    ),
    bind(Shortcut::Cursor(0, 1), &[named(Named::ArrowDown), char_key('s')], "board cursor down; focused choice: next"),
    bind(
        Shortcut::Cursor(1, 0),
        &[named(Named::ArrowRight), char_key('d')],
        "board cursor right; focused choice: next",
    ),
    bind(
        Shortcut::Place,
        &[named(Named::Enter), named(Named::Space)],
        "place at the cursor; press the focused control (a choice: next option); yes in a question",
    ),
    bind(Shortcut::Undo, &[ctrl('z')], "undo (online: ask to undo)"),
    bind(Shortcut::Redo, &[ctrl('y'), Chord { shift: true, ..ctrl('z') }], "redo"),
    bind(Shortcut::Hint, &[char_key('h')], "hint; while the computer thinks: move now"),
    bind(Shortcut::NewGame, &[char_key('n')], "new game (online: offer one)"),
    bind(Shortcut::Save, &[ctrl('s')], "save the game (the saved games)"),
    bind(Shortcut::Load, &[ctrl('o')], "open a saved game"),
    bind(
        Shortcut::Menu,
        &[named(Named::Escape)],
        "back to the menu (asks during a game); no in a question; in a game, first hands the keys back to the board",
    ),
    bind(Shortcut::First, &[named(Named::Home)], "view the start position"),
    bind(Shortcut::Last, &[named(Named::End)], "view the current position"),
    bind(Shortcut::Back, &[alt(Named::ArrowLeft), char_key('['), named(Named::PageUp)], "view one move earlier"),
    bind(Shortcut::Forward, &[alt(Named::ArrowRight), char_key(']'), named(Named::PageDown)], "view one move later"),
    bind(Shortcut::FullScreen, &[named(Named::F11)], "full screen on or off"),
    bind(Shortcut::KeyboardHelp, &[named(Named::F1)], "this keyboard help"),
    bind(Shortcut::FocusNext, &[named(Named::Tab)], "focus the next control"),
    bind(Shortcut::FocusPrevious, &[Chord { shift: true, ..named(Named::Tab) }], "focus the previous control"),
];

fn key_label(key: KeyName) -> String {
    match key {
        KeyName::Char(c) => c.to_ascii_uppercase().to_string(),
        KeyName::Named(n) => match n {
            Named::ArrowUp => "↑".into(),
            Named::ArrowDown => "↓".into(),
            Named::ArrowLeft => "←".into(),
            Named::ArrowRight => "→".into(),
            Named::Escape => "Esc".into(),
            Named::PageUp => "Page Up".into(),
            Named::PageDown => "Page Down".into(),
            other => format!("{other:?}"),
        },
    }
}

impl Chord {
    /// The chord as written in the help ("Ctrl+Shift+Z").
    #[must_use]
    pub fn label(&self) -> String {
        let mut parts = Vec::new();
        if self.ctrl {
            parts.push("Ctrl".to_string());
        }
        if self.alt {
            parts.push("Alt".to_string());
        }
        if self.shift {
            parts.push("Shift".to_string());
        }
        parts.push(key_label(self.key));
        parts.join("+")
    }

    fn matches(&self, key: &Key, modifiers: Modifiers) -> bool {
        let same_key = match (self.key, key) {
            (KeyName::Named(want), Key::Named(got)) => want == *got,
            (KeyName::Char(want), Key::Character(got)) => got.eq_ignore_ascii_case(want.encode_utf8(&mut [0; 4])),
            _ => false,
        };
        same_key
            && self.ctrl == (modifiers.command() || modifiers.control())
            && self.shift == modifiers.shift()
            && self.alt == modifiers.alt()
    }
}

impl Binding {
    /// The keys as written in the help ("Ctrl+Y, Ctrl+Shift+Z").
    #[must_use]
    pub fn keys(&self) -> String {
        self.chords.iter().map(Chord::label).collect::<Vec<_>>().join(", ")
    }
}

/// The keys of a shortcut as written in tooltips, or an empty string when it has none.
#[must_use]
pub fn keys_of(shortcut: Shortcut) -> String {
    BINDINGS.iter().find(|b| b.shortcut == shortcut).map(Binding::keys).unwrap_or_default()
}

/// The shortcut of a key press, if it has one.
#[must_use]
pub fn shortcut(key: &Key, modifiers: Modifiers) -> Option<Shortcut> {
    BINDINGS.iter().find(|b| b.chords.iter().any(|c| c.matches(key, modifiers))).map(|b| b.shortcut)
}

/// The shortcut of a keyboard event that no widget used.
#[must_use]
pub fn from_event(event: keyboard::Event) -> Option<Shortcut> {
    match event {
        keyboard::Event::KeyPressed { key, modifiers, .. } => shortcut(&key, modifiers),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(c: &str) -> Key {
        Key::Character(c.into())
    }

    #[test]
    fn keys_map_to_shortcuts() {
        assert_eq!(shortcut(&ch("z"), Modifiers::CTRL), Some(Shortcut::Undo));
        assert_eq!(shortcut(&ch("Z"), Modifiers::CTRL | Modifiers::SHIFT), Some(Shortcut::Redo));
        assert_eq!(shortcut(&ch("y"), Modifiers::CTRL), Some(Shortcut::Redo));
        assert_eq!(shortcut(&ch("s"), Modifiers::CTRL), Some(Shortcut::Save));
        assert_eq!(shortcut(&ch("s"), Modifiers::empty()), Some(Shortcut::Cursor(0, 1)));
        assert_eq!(shortcut(&Key::Named(Named::Space), Modifiers::empty()), Some(Shortcut::Place));
        assert_eq!(shortcut(&Key::Named(Named::ArrowLeft), Modifiers::empty()), Some(Shortcut::Cursor(-1, 0)));
        assert_eq!(shortcut(&Key::Named(Named::ArrowLeft), Modifiers::ALT), Some(Shortcut::Back));
        assert_eq!(shortcut(&ch("]"), Modifiers::empty()), Some(Shortcut::Forward));
        assert_eq!(shortcut(&Key::Named(Named::F11), Modifiers::empty()), Some(Shortcut::FullScreen));
        assert_eq!(shortcut(&Key::Named(Named::Tab), Modifiers::SHIFT), Some(Shortcut::FocusPrevious));
        assert_eq!(shortcut(&ch("q"), Modifiers::empty()), None);
        assert_eq!(shortcut(&ch("w"), Modifiers::CTRL), None);
    }

    #[test]
    fn the_help_lists_every_binding_and_every_binding_works() {
        for binding in BINDINGS {
            assert!(!binding.keys().is_empty() && !binding.action.is_empty());
            for chord in binding.chords {
                let key = match chord.key {
                    KeyName::Named(n) => Key::Named(n),
                    KeyName::Char(c) => Key::Character(c.to_string().into()),
                };
                let mut modifiers = Modifiers::empty();
                modifiers.set(Modifiers::CTRL, chord.ctrl);
                modifiers.set(Modifiers::SHIFT, chord.shift);
                modifiers.set(Modifiers::ALT, chord.alt);
                assert_eq!(shortcut(&key, modifiers), Some(binding.shortcut), "{}", chord.label());
            }
        }
        assert_eq!(keys_of(Shortcut::Redo), "Ctrl+Y, Ctrl+Shift+Z");
        assert_eq!(keys_of(Shortcut::Back), "Alt+←, [, Page Up");
    }
}
