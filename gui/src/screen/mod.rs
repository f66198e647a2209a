//! The app's screens: each owns its view and, where it has any, its own state and messages.

pub mod compare;
pub mod home;
pub mod keyboard;
pub mod new_game;
pub mod online;
pub mod play;
pub mod rules;
pub mod settings;
pub mod statistics;
pub mod widgets;
