//! Playing without a mouse: the keys of the play screen and what they do. The help text is generated from the
//! same table the key handler uses, so it lists exactly the shortcuts that exist.

use iced::keyboard::key::Named;
use iced::keyboard::{self, Key, Modifiers};

/// Something a key asks for on the play screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    /// Move the board cursor by (columns, rows); it stops at the edges.
    Cursor(i32, i32),
    /// Place a stone or disc at the cursor.
    Place,
    /// Take back a move.
    Undo,
    /// Replay an undone move.
    Redo,
    /// Ask for a hint.
    Hint,
    /// Open the new-game form.
    NewGame,
    /// Open the save panel.
    Save,
    /// Open the load panel.
    Load,
    /// Back to the menu.
    Menu,
    /// Show the start position.
    First,
    /// Show the current position.
    Last,
    /// Show one move earlier.
    Back,
    /// Show one move later.
    Forward,
}

/// Every shortcut with its keys, for the help text.
pub const HELP: [(&str, &str); 13] = [
    ("Arrow keys, W A S D", "move the board cursor"),
    ("Enter, Space", "place a stone or disc at the cursor"),
    ("Ctrl+Z", "undo"),
    ("Ctrl+Y, Ctrl+Shift+Z", "redo"),
    ("H", "hint"),
    ("N", "new game"),
    ("Ctrl+S", "save"),
    ("Ctrl+O", "load"),
    ("Esc", "back to the menu"),
    ("Home", "view the start position"),
    ("End", "view the current position"),
    ("Page Up", "view one move earlier"),
    ("Page Down", "view one move later"),
];

/// The shortcut of a key press, if it has one.
#[must_use]
pub fn shortcut(key: &Key, modifiers: Modifiers) -> Option<Shortcut> {
    let ctrl = modifiers.command() || modifiers.control();
    match key {
        Key::Named(named) => match named {
            Named::ArrowLeft => Some(Shortcut::Cursor(-1, 0)),
            Named::ArrowRight => Some(Shortcut::Cursor(1, 0)),
            Named::ArrowUp => Some(Shortcut::Cursor(0, -1)),
            Named::ArrowDown => Some(Shortcut::Cursor(0, 1)),
            Named::Enter | Named::Space => Some(Shortcut::Place),
            Named::Escape => Some(Shortcut::Menu),
            Named::Home => Some(Shortcut::First),
            Named::End => Some(Shortcut::Last),
            Named::PageUp => Some(Shortcut::Back),
            Named::PageDown => Some(Shortcut::Forward),
            _ => None,
        },
        Key::Character(c) => match (c.to_ascii_lowercase().as_str(), ctrl, modifiers.shift()) {
            ("z", true, false) => Some(Shortcut::Undo),
            ("z", true, true) | ("y", true, _) => Some(Shortcut::Redo),
            ("s", true, _) => Some(Shortcut::Save),
            ("o", true, _) => Some(Shortcut::Load),
            (_, true, _) => None,
            ("w", ..) => Some(Shortcut::Cursor(0, -1)),
            ("a", ..) => Some(Shortcut::Cursor(-1, 0)),
            ("s", ..) => Some(Shortcut::Cursor(0, 1)),
            ("d", ..) => Some(Shortcut::Cursor(1, 0)),
            ("h", ..) => Some(Shortcut::Hint),
            ("n", ..) => Some(Shortcut::NewGame),
            _ => None,
        },
        Key::Unidentified => None,
    }
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
        assert_eq!(shortcut(&ch("q"), Modifiers::empty()), None);
    }

    #[test]
    fn the_help_names_every_key_the_handler_knows() {
        let keys: String = HELP.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(" ");
        for needle in [
            "Arrow",
            "W A S D",
            "Enter",
            "Space",
            "Ctrl+Z",
            "Ctrl+Y",
            "Ctrl+Shift+Z",
            "H",
            "N",
            "Ctrl+S",
            "Ctrl+O",
            "Esc",
            "Home",
            "End",
            "Page Up",
            "Page Down",
        ] {
            assert!(keys.contains(needle), "{needle}");
        }
    }
}
