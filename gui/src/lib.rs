//! The Tabula desktop app: Gomoku and Othello on an iced canvas, against the computer or a friend.

pub mod ai_task;
pub mod animation;
pub mod app;
pub mod bell;
pub mod board_canvas;
pub mod computer;
pub mod focus;
pub mod journal;
pub mod keys;
pub mod library;
pub mod online;
pub mod online_play;
pub mod screen;
pub mod series;
pub mod settings;
pub mod stats;
pub mod storage;
pub mod theme;

#[cfg(test)]
mod app_tests;
#[cfg(test)]
mod test_game;
