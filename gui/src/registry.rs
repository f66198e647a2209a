//! A stand-in for `tabula_games::registry` with the same API, so the app builds before the games are merged.
//! It knows the games' names but cannot start a match; it is replaced by the real registry when it lands.

use serde::{Deserialize, Serialize};
use tabula_games::{Match, OptionAxis, OptionChoice, RuleSet};

/// The games Tabula plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Five in a row.
    Gomoku,
    /// Othello / Reversi.
    Othello,
}

impl GameKind {
    /// Every game, in menu order.
    pub const ALL: [GameKind; 2] = [GameKind::Gomoku, GameKind::Othello];

    /// The stable id used in files.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            GameKind::Gomoku => "gomoku",
            GameKind::Othello => "othello",
        }
    }

    /// The name shown to players.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Gomoku => "Gomoku",
            GameKind::Othello => "Othello",
        }
    }

    /// One line for the home card.
    #[must_use]
    pub fn tagline(self) -> &'static str {
        match self {
            GameKind::Gomoku => "Five stones in a row win.",
            GameKind::Othello => "Outflank and flip: the most discs win.",
        }
    }

    /// The rule option axes.
    #[must_use]
    pub fn axes(self) -> Vec<OptionAxis> {
        vec![OptionAxis {
            id: "board",
            name: "Board",
            choices: vec![OptionChoice { id: "standard", name: "Standard", description: "The standard board." }],
            default: 0,
        }]
    }

    /// The named rule sets, the default first.
    #[must_use]
    pub fn rule_sets(self) -> Vec<RuleSet> {
        vec![RuleSet {
            id: "standard",
            name: "Standard",
            description: "The standard rules.",
            choices: vec![("board", "standard")],
        }]
    }

    /// The board sizes allowed for a rule set.
    #[must_use]
    pub fn board_sizes(self, _rule_set: &str) -> Vec<usize> {
        match self {
            GameKind::Gomoku => vec![15],
            GameKind::Othello => vec![8],
        }
    }
}

/// What to play: the game, its rule set and the board size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSpec {
    /// The game.
    pub game: GameKind,
    /// The rule set id.
    pub rule_set: String,
    /// The board size, where the rule set allows a choice.
    pub board_size: Option<usize>,
}

/// Starts a match.
pub fn new_match(spec: &MatchSpec) -> Result<Box<dyn Match>, String> {
    Err(format!("{} is not available in this build yet", spec.game.name()))
}
