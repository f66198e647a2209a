//! The app's screens: each owns its view and, where it has any, its own state and messages.

pub mod compare;
pub mod escape_closes;
pub mod graph;
pub mod home;
pub mod keyboard;
pub mod length_chart;
pub mod new_game;
pub mod online;
pub mod play;
pub mod rules;
pub mod saved_games;
pub mod score_chart;
pub mod settings;
pub mod setup;
pub mod statistics;
pub mod widgets;

use tabula_games::registry::GameKind;

/// Where a navigation goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// The home screen.
    Home,
    /// The new-game form for a game.
    NewGame(GameKind),
    /// Back to the unfinished game.
    Continue,
    /// Statistics.
    Statistics,
    /// Rules.
    Rules,
    /// Settings.
    Settings,
    /// Compare rule sets.
    Compare,
    /// The keyboard help.
    Keyboard,
    /// Host or join a network game.
    Online,
    /// The saved games (saving the current game, opening one).
    SavedGames,
    /// Back to the screen the new-game form, the keyboard help or the saved games were opened from: the game when
    /// it was the play screen, else the home screen.
    Back,
}
