//! What the front ends and tools know about a game, declared once in the game's own module: its names, its rule
//! variants, the sizes it is played on, how its board is drawn, its arena openings and bench positions. The
//! registry ([`crate::registry`]) only lists the games; everything that differs between them is read from here,
//! so a new game is its own folder plus one registry line (../shared/DESIGN.md section 4).

use crate::board::{BoardGame, OptionAxis, RuleSet};

/// The facts of one game.
pub struct GameDescriptor {
    /// The stable identifier, in saves, configuration and on the command line (`gomoku`).
    pub id: &'static str,
    /// The name shown to players.
    pub name: &'static str,
    /// One line about the game, for its card on the home screen.
    pub tagline: &'static str,
    /// Whether the computer plays perfectly once few empty squares remain (a level's `exact_empties`): true for
    /// games that count down to a fixed end, so that an exact solve is possible.
    pub solves_endgames: bool,
    /// The option axes the game declares.
    pub axes: fn() -> Vec<OptionAxis>,
    /// The named rule sets, the default first.
    pub rule_sets: fn() -> Vec<RuleSet>,
    /// Other names players use for a rule set, as (alias, rule set id).
    pub aliases: &'static [(&'static str, &'static str)],
    /// The board sizes a rule set allows; a single entry when the rule set fixes the size.
    pub board_sizes: fn(&RuleSet) -> Vec<usize>,
    /// Plies of the random openings of an arena series where the rule set has no balanced suite.
    pub arena_opening_plies: usize,
    /// The positions `tabula-cli bench` searches.
    pub bench: BenchPositions,
    /// How the board looks.
    pub look: BoardLook,
}

/// A benchmark: a rule set, a search depth and the moves (in notation, space-separated) that lead to each
/// position.
pub struct BenchPositions {
    /// The rule set's id.
    pub rule_set: &'static str,
    /// The search depth.
    pub depth: u32,
    /// The move lines, one per position.
    pub lines: &'static [&'static str],
}

/// How a game's board is drawn: the facts a front end needs, not the pixels.
pub struct BoardLook {
    /// Stones stand on the grid's intersections (a Go board) rather than inside squares.
    pub on_intersections: bool,
    /// Rows are numbered from the bottom (Gomoku managers' habit) rather than from the top (Othello's a1).
    pub rows_from_bottom: bool,
    /// Each stone can show the number of the move that placed it (stones never change once placed).
    pub numbers_moves: bool,
    /// What the board is made of, which sets its colours.
    pub material: Material,
    /// A position in progress for the game's card.
    pub sample: SamplePosition,
}

/// What a board is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Material {
    /// A wooden board (Go, Gomoku).
    Wood,
    /// Green baize (Othello).
    Baize,
}

/// A hand-set position for a game's card: the board's side, the first and second player's stones as (x, y), and
/// the last move.
pub struct SamplePosition {
    /// Squares (or lines) per side.
    pub size: usize,
    /// The first player's stones.
    pub first: &'static [(usize, usize)],
    /// The second player's stones.
    pub second: &'static [(usize, usize)],
    /// The last move (a stone of the first player), shown marked.
    pub last: (usize, usize),
}

/// A game the registry can list: its descriptor and how its rules are built from option choices.
pub trait RegisteredGame: BoardGame {
    /// The game's facts.
    const DESCRIPTOR: GameDescriptor;
    /// The game with the given (axis id, choice id) pairs; unlisted axes take their default.
    fn from_choices(choices: &[(&str, &str)]) -> Result<Self, String>;
}
