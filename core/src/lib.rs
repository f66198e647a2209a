//! Tabula's game-independent core: the [`Game`] and [`Evaluator`] traits, a generic alpha-beta [`Searcher`] and
//! difficulty levels as data. Nothing here knows a particular game.

pub mod difficulty;
pub mod evaluator;
pub mod game;
pub mod random;
pub mod score;
pub mod search;
pub mod table;

pub use difficulty::{ConfigError, Level, Levels};
pub use evaluator::Evaluator;
pub use game::{Game, GameResult, MoveParseError, Outcome, Player};
pub use score::Score;
pub use search::{Limits, SearchInfo, SearchOptions, SearchResult, Searcher};
pub use table::{Bound, TranspositionTable};
