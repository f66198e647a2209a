//! The engine's judgement of a game: evaluation, candidate moves and move ordering.

use crate::game::Game;
use crate::score::Score;

/// Static judgement of positions, separate from the rules so one game can have several evaluators. Shared by the
/// threads of a search, so any tables it fills must be safe to share (atomics, as the Othello solver's).
pub trait Evaluator<G: Game>: Sync {
    /// The value of a live position from the view of the side to move; positive is good for it. Keep it well
    /// inside `±score::MATE_BOUND`.
    fn evaluate(&self, game: &G, state: &G::State) -> Score;

    /// The moves the search considers (Gomoku: empties near the stones). Defaults to every legal move. Must be
    /// non-empty for a live position, and a subset of the legal moves.
    fn search_moves(&self, game: &G, state: &G::State, moves: &mut Vec<G::Move>) {
        game.legal_moves(state, moves);
    }

    /// A hint for move ordering: higher is searched earlier.
    fn move_score(&self, _game: &G, _state: &G::State, _mv: G::Move) -> i32 {
        0
    }

    /// Whether `mv` is quiet: it neither makes nor stops a threat, so searching it less deep when it comes late in
    /// the order rarely changes the value (late-move reductions). Never, by default.
    fn is_quiet(&self, _game: &G, _state: &G::State, _mv: G::Move) -> bool {
        false
    }

    /// Whether `mv` forces the reply (Gomoku: a four or an open three), so that searching it one ply deeper shows
    /// where the forced sequence leads (search extensions). Never, by default.
    fn is_forcing(&self, _game: &G, _state: &G::State, _mv: G::Move) -> bool {
        false
    }

    /// How far below its static evaluation a search `depth` plies deep could still bring this position, for the
    /// side to move: when the evaluation beats beta by more, the node is cut without a search (futility pruning).
    /// `None` (the default) where the evaluation cannot be trusted so (Gomoku: a threat waiting to be answered).
    fn futility_margin(&self, _game: &G, _state: &G::State, _depth: i32) -> Option<Score> {
        None
    }

    /// The forcing moves that quiescence search follows past the depth limit (Gomoku: fours). Empty by default,
    /// which turns quiescence into a plain static evaluation.
    fn noisy_moves(&self, _game: &G, _state: &G::State, _moves: &mut Vec<G::Move>) {}

    /// In exact mode, solves a position outright when the evaluator has a faster special-purpose solver (Othello:
    /// the last few empties). Returns the exact score from the side to move's view within the window
    /// (fail-soft), counting the nodes it visits, or `None` to let the generic search continue.
    ///
    /// A long solve must call `should_stop` now and then (every few thousand nodes: it may read the clock) with
    /// the nodes visited so far in this call. Once it answers `true` the search is over: return `None` promptly,
    /// keeping nothing learned since (the searcher discards whatever is returned).
    fn solve_exactly(
        &self,
        _game: &G,
        _state: &mut G::State,
        _alpha: Score,
        _beta: Score,
        _nodes: &mut u64,
        _should_stop: &mut dyn FnMut(u64) -> bool,
    ) -> Option<Score> {
        None
    }

    /// Offers the exact solver behind [`Self::solve_exactly`] `threads` threads for the exact search about to
    /// start. Returns `true` when it takes them (it then searches its own tree in parallel, and the searcher runs
    /// no helper threads of its own); by default there is no parallel solver.
    fn parallel_solve(&self, _game: &G, _threads: usize) -> bool {
        false
    }
}
