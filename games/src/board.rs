//! What every board game offers beyond the core rules: cells, stones, move reports and rule declarations. The
//! GUI, the CLI and the protocols talk to both games through this one interface.

use tabula_core::{Evaluator, Game, Player, Score};

/// A square of the board: `x` is the column from the left, `y` the row from the top, both 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    /// Column from the left, 0-based.
    pub x: usize,
    /// Row from the top, 0-based.
    pub y: usize,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    #[must_use]
    pub const fn new(x: usize, y: usize) -> Cell {
        Cell { x, y }
    }
}

/// What a move changed, for animation and for the move list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveReport {
    /// The player who moved.
    pub player: Option<Player>,
    /// The cell of the placed stone or disc; `None` for a pass.
    pub placed: Option<Cell>,
    /// Discs turned over (Othello), in order of distance from the placed disc along each direction.
    pub flipped: Vec<Cell>,
    /// The cells of the winning line if the move won (Gomoku).
    pub winning_line: Vec<Cell>,
}

/// A mark the board shows on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// A legal move for the side to move (Othello).
    Legal,
    /// A point forbidden to the side to move (Renju).
    Forbidden,
    /// A stone offered in a swap opening, for the other player to pick ([`crate::swap::Step::Offer`]).
    Offered,
}

/// One axis of rule options (board size, win rule, start position), declared as data so menus, help text and the
/// comparison screen can be generated from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionAxis {
    /// A stable identifier (`board`, `win`, `start`).
    pub id: &'static str,
    /// The name shown to players.
    pub name: &'static str,
    /// The choices, each with a description.
    pub choices: Vec<OptionChoice>,
    /// The index of the default choice.
    pub default: usize,
}

/// One choice on an option axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionChoice {
    /// A stable identifier (`15`, `renju`, `alternative`).
    pub id: &'static str,
    /// The name shown to players.
    pub name: &'static str,
    /// One or two sentences of plain explanation.
    pub description: &'static str,
}

/// A named bundle of option choices ("Renju", "Anti-Othello").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// A stable identifier (`renju`, `anti-othello`), used on the command line and in save files.
    pub id: &'static str,
    /// The name shown to players.
    pub name: &'static str,
    /// The rules in plain words.
    pub description: &'static str,
    /// The chosen item of each axis, as (axis id, choice id); axes not listed take their default.
    pub choices: Vec<(&'static str, &'static str)>,
    /// What is known of the game under perfect play, with its source, where it has been solved; shown beside
    /// the results of measured series.
    pub known_result: Option<&'static str>,
}

/// Why a move cannot be played: what the GUI says after a click, a save file's replay after a bad move, an
/// engine protocol after a bad command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The cell is not on the board.
    #[error("outside the board")]
    OffBoard,
    /// The game's rules do not allow the move, in the game's words ("occupied", "no discs to flip", "f5 is not a
    /// legal move here").
    #[error("{0}")]
    Illegal(String),
    /// A forbidden point of the side to move (Renju's fouls for Black), by the foul's name ("double three").
    #[error("forbidden: {0}")]
    Forbidden(&'static str),
    /// Passing is not a legal move now.
    #[error("passing is not allowed now")]
    NoPass,
    /// The move's notation could not be read.
    #[error("{0}")]
    Notation(String),
}

/// A win a game's threat solver proved: one line of it and the most plies it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedWin<M> {
    /// Winner and loser moves alternating, the winner's first, up to the five or a threat with no answer.
    pub line: Vec<M>,
    /// Plies from the position to the end of the game at the latest, however the loser answers.
    pub plies: u32,
}

/// A game on a rectangular board of cells, with everything the front ends need.
pub trait BoardGame: Game + Clone + Send + Sync + 'static {
    /// The engine's judgement of this game.
    type Eval: Evaluator<Self> + Send + Sync;

    /// The evaluator the AI uses; `exact` selects the one tuned for solving endgames (move ordering only).
    fn evaluator(&self, exact: bool) -> Self::Eval;

    /// Columns and rows.
    fn board_size(&self) -> (usize, usize);

    /// The stone or disc on `cell`, if any.
    fn stone(&self, state: &Self::State, cell: Cell) -> Option<Player>;

    /// The move that places a stone on `cell`, or why that is not legal.
    fn move_at(&self, state: &Self::State, cell: Cell) -> Result<Self::Move, MoveError>;

    /// The pass move, if passing is legal now.
    fn pass_move(&self, state: &Self::State) -> Option<Self::Move>;

    /// The cell a move places on; `None` for a pass.
    fn cell_of(&self, mv: Self::Move) -> Option<Cell>;

    /// A position with `stones` on the board and `to_move` to move, for a board set up by hand; an error says what
    /// is wrong with it (a cell off the board or given twice, a position the rules cannot hold).
    fn setup_state(&self, stones: &[(Cell, Player)], to_move: Player) -> Result<Self::State, String> {
        let _ = (stones, to_move);
        Err("this game cannot be set up by hand".into())
    }

    /// `cell` in the game's notation (`f5`, `h8`), whether or not a move there is legal: for messages.
    fn cell_name(&self, cell: Cell) -> String {
        format!("({}, {})", cell.x, cell.y)
    }

    /// What playing `mv` in `before` changes (placed stone, flips, winning line).
    fn describe_move(&self, before: &Self::State, mv: Self::Move) -> MoveReport;

    /// Cells to mark for the side to move: legal moves (Othello) or forbidden points (Renju).
    fn markers(&self, state: &Self::State) -> Vec<(Cell, Marker)>;

    /// Why the game ended, in a few words ("five in a row", "both passed", "board full").
    fn end_reason(&self, state: &Self::State) -> Option<String>;

    /// The hash of `state` computed from its stones and side to move alone, as a check on the incremental
    /// [`Game::hash`]: the two must always agree.
    fn recompute_hash(&self, state: &Self::State) -> u64;

    /// A search score from the mover's view in words a player reads: the game's own unit where it has one
    /// (Othello's discs, Gomoku's chance to win), "win in 5" for a proven win. `exact` says the score came from an
    /// exact search ([`tabula_core::SearchInfo::exact`]). By default the bare number.
    fn describe_score(&self, score: Score, _exact: bool) -> String {
        tabula_core::score::format_score(score)
    }

    /// A search score from the mover's view in a few characters, to write on a board square: the unit of
    /// [`Self::describe_score`] without its words. By default "win" or "loss" when proven, else the number.
    fn score_label(&self, score: Score, _exact: bool) -> String {
        match tabula_core::score::mate_distance(score) {
            Some(_) if score > 0 => "win".into(),
            Some(_) => "loss".into(),
            None => score.to_string(),
        }
    }

    /// A search score from the mover's view as a share of a sure win, from -1 (lost) to 1 (won), for graphs of a
    /// game: proven wins and losses at the ends, otherwise the game's own scale. By default a score of 1,000 (a
    /// large lead in the searcher's units) counts as most of a win.
    fn advantage(&self, score: Score, _exact: bool) -> f32 {
        match tabula_core::score::mate_distance(score) {
            Some(_) => score.signum() as f32,
            None => (f64::from(score) / 1000.0).tanh() as f32,
        }
    }

    /// A forced win for the side to move that the game's own threat solver proves with at most `threats` forcing
    /// moves and `nodes` positions, by `deadline` if there is one (Gomoku: continuous fours and open threes); `None`
    /// where it finds none in that effort or the game has no such solver. Adds the positions it visited to
    /// `visited`. The engine plays such a win at once: these lines reach far beyond the search's
    /// horizon.
    fn forced_win(
        &self,
        _state: &Self::State,
        _threats: u32,
        _nodes: u64,
        _deadline: Option<std::time::Instant>,
        _visited: &mut u64,
    ) -> Option<ForcedWin<Self::Move>> {
        None
    }

    /// How an external engine is told this rule set ([`crate::external`]); `None` where no engine protocol plays
    /// it.
    fn engine_rules(&self) -> Option<crate::external::EngineRules> {
        None
    }

    /// An external engine's evaluation (in its protocol's unit) as this game's search score; `None` where the
    /// protocol's unit does not map onto the game's.
    fn engine_score(&self, _eval: f64) -> Option<Score> {
        None
    }

    /// The rule set's suite of balanced openings (see [`crate::openings`]), for series that should measure the
    /// engines or the rule set rather than the colour; empty where there is none.
    fn balanced_openings(&self) -> Vec<Vec<Self::Move>> {
        Vec::new()
    }

    /// The name of the standard opening that `moves`, played from the rules' own start, follow (Othello's Tiger,
    /// Rose, ...); `None` where they follow none or the game names none.
    fn opening_name(&self, _moves: &[Self::Move]) -> Option<&'static str> {
        None
    }

    /// The swap opening the rules play ([`crate::swap`]): who places the first stones and who chooses a colour;
    /// `None` where the players simply alternate from the first move.
    fn swap_procedure(&self) -> Option<crate::swap::Procedure> {
        None
    }
}
