//! Gomoku and Othello for Tabula, with the interface the front ends use to play them.

pub mod board;
pub mod gomoku;

pub use board::{BoardGame, Cell, Marker, MoveReport, OptionAxis, OptionChoice, RuleSet};
