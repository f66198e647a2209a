//! The rules of a two-player, perfect-information, turn-based game.

use std::fmt::Debug;
use std::hash::Hash;

/// One of the two players. In both Gomoku and Othello the first player is Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The player who moves first (Black, X).
    First,
    /// The player who moves second (White, O).
    Second,
}

impl Player {
    /// Both players, first mover first.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The other player.
    #[must_use]
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second: an index into per-player arrays.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }
}

/// Who won a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The given player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

/// The end of a game: its result and, for games that keep score (Othello), the winning margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won.
    pub result: GameResult,
    /// The winner's margin (Othello: disc difference, empties to the winner); `None` where a game has no score.
    pub margin: Option<i32>,
}

impl Outcome {
    /// A win without a score margin.
    #[must_use]
    pub fn win(player: Player) -> Outcome {
        Outcome { result: GameResult::Win(player), margin: None }
    }

    /// A draw.
    #[must_use]
    pub fn draw() -> Outcome {
        Outcome { result: GameResult::Draw, margin: None }
    }

    /// The margin seen from `player`: positive if `player` won, negative if lost, zero for a draw.
    /// Games without a margin count a win as 1.
    #[must_use]
    pub fn signed_margin(&self, player: Player) -> i32 {
        match self.result {
            GameResult::Draw => 0,
            GameResult::Win(w) => {
                let m = self.margin.unwrap_or(1);
                if w == player { m } else { -m }
            }
        }
    }
}

/// A move given in text that the game could not read or that is not legal here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct MoveParseError {
    /// What was wrong, for the user.
    pub message: String,
}

impl MoveParseError {
    /// A parse error with the given message.
    pub fn new(message: impl Into<String>) -> MoveParseError {
        MoveParseError { message: message.into() }
    }
}

/// The rules of a game, as a value.
///
/// The rules object holds the variant (board size, win rule, start position) and precomputed tables (Zobrist keys,
/// masks) and is shared by reference, also between the threads of a search; the state is plain data. Switching
/// variants at run time means building another rules value, so the searcher and the GUI stay generic.
pub trait Game: Sync {
    /// A position, including the side to move and the incremental hash.
    type State: Clone + Debug + PartialEq + Send + Sync;
    /// A move; a pass is an explicit move in games that have one.
    type Move: Copy + Debug + PartialEq + Eq + Hash + Send + Sync;
    /// What `make` returns so that `unmake` can restore the previous state exactly.
    type Undo;

    /// The position at the start of a game.
    fn initial_state(&self) -> Self::State;

    /// The player whose turn it is.
    fn side_to_move(&self, state: &Self::State) -> Player;

    /// Appends every legal move to `moves` (which the caller has cleared). A live state has at least one.
    fn legal_moves(&self, state: &Self::State, moves: &mut Vec<Self::Move>);

    /// Whether `mv` is legal in `state`.
    fn is_legal(&self, state: &Self::State, mv: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves);
        moves.contains(&mv)
    }

    /// Plays a legal move and returns the token that undoes it.
    fn make(&self, state: &mut Self::State, mv: Self::Move) -> Self::Undo;

    /// Takes back `mv`, which `make` played and which returned `undo`.
    fn unmake(&self, state: &mut Self::State, mv: Self::Move, undo: Self::Undo);

    /// The outcome if the game is over, `None` while it goes on.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// The 64-bit Zobrist hash of the state, maintained incrementally by `make` and `unmake`.
    fn hash(&self, state: &Self::State) -> u64;

    /// The hash the state will have once `mv` is made, where the game can tell it cheaply beforehand (`None`, the
    /// default, where it cannot): the searcher then starts loading the child's table entry into the cache while
    /// `make` runs.
    fn hash_after(&self, _state: &Self::State, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// A dense index of `mv` in `0..self.move_index_count()`, for history tables and the transposition table
    /// (which stores moves by index: the moves of one position must have distinct indices).
    fn move_index(&self, mv: Self::Move) -> usize;

    /// The number of distinct move indices (at most 65,535).
    fn move_index_count(&self) -> usize;

    /// An upper bound on the number of moves until the game ends, where the game knows one cheaply (Othello: the
    /// empty squares). Levels use it to decide when to solve the game exactly.
    fn remaining_moves(&self, state: &Self::State) -> Option<u32>;

    /// The move in standard notation (`h8`, `f5`, `pass`).
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads a move in standard notation; the state gives context (for example whether a pass is possible).
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, MoveParseError>;
}
