//! Gomoku and Othello for Tabula, with the interface the front ends use to play them.

pub mod arena;
pub mod board;
pub mod checksum;
pub mod clock;
pub mod config;
pub mod descriptor;
pub mod engine;
pub mod exchange;
pub mod external;
pub mod files;
pub mod ggf;
pub mod gomoku;
pub mod lines;
pub mod openings;
pub mod othello;
pub mod registry;
pub mod save_file;
pub mod session;
pub mod setup;
pub mod swap;

pub use board::{BoardGame, Cell, Marker, MoveError, MoveReport, OptionAxis, OptionChoice, RuleSet};
pub use engine::Engine;
pub use registry::{GameKind, GameVisitor, MatchSpec, SpecError, new_match};
pub use session::{Analysis, EngineJob, ExternalAnswer, Match, Session, Snapshot, StartPosition, ThinkJob};
