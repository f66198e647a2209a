//! The contract every game keeps, checked for every game, rule set and board size the registry offers through the
//! generic [`BoardGame`] interface alone, over seeded random playouts (OpenSpiel's conformance tests):
//!
//! - make then unmake restores the state exactly, its hash included, and so does unmaking a whole game back to
//!   the start;
//! - the incremental hash equals [`BoardGame::recompute_hash`] of the same position;
//! - a live position has a legal move (a pass, where the game has one, is a move), a finished one has none and
//!   says why it ended;
//! - the legal moves, the cells that accept a stone, the pass and the notation agree with each other, and a move
//!   changes exactly the cells its report names;
//! - the moves the search considers and the moves it returns (best move and principal variation) are legal;
//! - a game replays from its moves to the same end.
//!
//! A game added to the registry is covered without new test code.

use std::collections::BTreeSet;

use rand::seq::IndexedRandom;
use tabula_core::random::{self, SeededRng};
use tabula_core::{Evaluator, Limits, SearchOptions, Searcher};
use tabula_games::{BoardGame, Cell, GameVisitor, MatchSpec};
use tabula_tests::every_spec;

/// Each spec plays random games to their end until it has played this many plies in all.
const PLIES_PER_SPEC: usize = 250;
/// A shallow search every this many plies of a playout (and at its first position).
const SEARCH_EVERY: usize = 50;
/// The depth of those searches.
const SEARCH_DEPTH: u32 = 2;
/// The most nodes of one of those searches (a deep VCF line could take seconds otherwise).
const SEARCH_NODES: u64 = 10_000;
/// With this few moves left at most, the search is also run in exact mode, to the end of the game.
const EXACT_FROM: u32 = 6;

/// What the playouts of one spec went through, so the run can show it exercised the passes and exact searches.
#[derive(Debug, Default)]
struct Tally {
    games: usize,
    plies: usize,
    passes: usize,
    exact_searches: usize,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.plies += other.plies;
        self.passes += other.passes;
        self.exact_searches += other.exact_searches;
    }
}

/// Random playouts of the game a spec names.
struct Conformance {
    spec: MatchSpec,
    rng: SeededRng,
}

impl GameVisitor for Conformance {
    type Output = Tally;

    fn visit<G: BoardGame>(self, game: G) -> Tally {
        let (w, h) = game.board_size();
        let label = format!("{} {} {w}x{h}", self.spec.game.id(), self.spec.rule_set);
        let cells = (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))).collect();
        let mut checker = Checker {
            eval: game.evaluator(false),
            exact_eval: game.evaluator(true),
            searcher: Searcher::new(&game, 1),
            game: &game,
            width: w,
            cells,
            label,
            rng: self.rng,
            tally: Tally::default(),
        };
        while checker.tally.plies < PLIES_PER_SPEC {
            checker.playout();
        }
        checker.tally
    }
}

/// The checks, with what they need at hand for one game.
struct Checker<'g, G: BoardGame> {
    game: &'g G,
    eval: G::Eval,
    exact_eval: G::Eval,
    searcher: Searcher<G>,
    /// The board's columns, and its cells row by row.
    width: usize,
    cells: Vec<Cell>,
    label: String,
    rng: SeededRng,
    tally: Tally,
}

impl<G: BoardGame> Checker<'_, G> {
    /// One random game to its end, checking every position and move, then unmade back to the start and replayed.
    fn playout(&mut self) {
        let game = self.game;
        let start = game.initial_state();
        let mut state = start.clone();
        // Per ply: the move, its undo token and the hash before it.
        let mut line: Vec<(G::Move, G::Undo, u64)> = Vec::new();
        let mut moves = Vec::new();
        loop {
            let ply = line.len();
            let label = format!("{} game {} ply {ply}", self.label, self.tally.games);
            moves.clear();
            game.legal_moves(&state, &mut moves);
            self.check_position(&state, &moves, &label);
            if game.outcome(&state).is_some() {
                break;
            }
            if ply.is_multiple_of(SEARCH_EVERY) || game.remaining_moves(&state).is_some_and(|r| r <= EXACT_FROM) {
                self.check_search(&state, &label);
            }
            let mv = *moves.choose(&mut self.rng).expect("a live position has a move");
            if game.cell_of(mv).is_none() {
                self.tally.passes += 1;
            }
            let hash = game.hash(&state);
            let undo = self.check_move(&mut state, mv, &label);
            line.push((mv, undo, hash));
            assert!(line.len() <= 4 * self.cells.len(), "{label}: the game does not end");
        }
        let end = state.clone();
        let played: Vec<G::Move> = line.iter().map(|l| l.0).collect();
        while let Some((mv, undo, hash)) = line.pop() {
            game.unmake(&mut state, mv, undo);
            assert_eq!(game.hash(&state), hash, "{}: unmaking the game, ply {}", self.label, line.len());
            assert_eq!(game.hash(&state), game.recompute_hash(&state), "{}: ply {}", self.label, line.len());
        }
        assert_eq!(state, start, "{}: unmaking every move restores the start", self.label);
        for (ply, &mv) in played.iter().enumerate() {
            assert!(game.is_legal(&state, mv), "{}: replaying ply {ply}", self.label);
            game.make(&mut state, mv);
        }
        assert_eq!(state, end, "{}: the moves replay to the same end", self.label);
        assert_eq!(game.outcome(&state), game.outcome(&end));
        self.tally.games += 1;
        self.tally.plies += played.len();
    }

    /// The position's own checks: hash, legal moves against cells, pass and outcome, the search's candidates.
    fn check_position(&self, state: &G::State, moves: &[G::Move], label: &str) {
        let game = self.game;
        assert_eq!(game.hash(state), game.recompute_hash(state), "{label}: incremental hash");
        if game.outcome(state).is_some() {
            assert!(moves.is_empty(), "{label}: a finished game has no moves: {moves:?}");
            assert!(game.end_reason(state).is_some(), "{label}: a finished game says why");
            assert_eq!(game.pass_move(state), None, "{label}: no pass after the end");
            return;
        }
        assert!(!moves.is_empty(), "{label}: a live position has a legal move");
        assert_eq!(game.end_reason(state), None, "{label}");
        assert!(moves.iter().all(|&m| game.is_legal(state, m)), "{label}: is_legal agrees with legal_moves");
        let passes: Vec<G::Move> = moves.iter().copied().filter(|&m| game.cell_of(m).is_none()).collect();
        assert_eq!(passes, Vec::from_iter(game.pass_move(state)), "{label}: the moves without a cell are the pass");
        // The cells that accept a stone are exactly those of the legal placements, one move each.
        let mut placements = vec![None; self.cells.len()];
        for &mv in moves {
            if let Some(cell) = game.cell_of(mv) {
                let slot = &mut placements[cell.y * self.width + cell.x];
                assert_eq!(slot.replace(mv), None, "{label}: two moves on {cell:?}");
            }
        }
        for (&cell, placement) in self.cells.iter().zip(&placements) {
            assert_eq!(game.move_at(state, cell).ok(), *placement, "{label}: the move on {cell:?}");
        }
        let mut candidates = Vec::new();
        self.eval.search_moves(game, state, &mut candidates);
        assert!(!candidates.is_empty(), "{label}: the search has moves to consider");
        assert!(candidates.iter().all(|&m| game.is_legal(state, m)), "{label}: search moves {candidates:?} are legal");
        candidates.clear();
        self.eval.noisy_moves(game, state, &mut candidates);
        assert!(candidates.iter().all(|&m| game.is_legal(state, m)), "{label}: noisy moves {candidates:?} are legal");
    }

    /// Plays `mv` with every check on the way (notation, report, hash, make then unmake, make again) and returns
    /// the undo token of the move as played.
    fn check_move(&self, state: &mut G::State, mv: G::Move, label: &str) -> G::Undo {
        let game = self.game;
        let text = game.format_move(mv);
        assert_eq!(game.parse_move(state, &text), Ok(mv), "{label}: {text} reads back");
        let before = state.clone();
        let mover = game.side_to_move(state);
        let report = game.describe_move(&before, mv);
        let undo = game.make(state, mv);
        assert_eq!(game.hash(state), game.recompute_hash(state), "{label}: hash after {text}");
        assert_eq!((report.player, report.placed), (Some(mover), game.cell_of(mv)), "{label}: report of {text}");
        let changed: BTreeSet<Cell> =
            self.cells.iter().copied().filter(|&c| game.stone(&before, c) != game.stone(state, c)).collect();
        let reported: BTreeSet<Cell> = report.placed.into_iter().chain(report.flipped.iter().copied()).collect();
        assert_eq!(reported.len(), usize::from(report.placed.is_some()) + report.flipped.len(), "{label}: {text}");
        assert_eq!(changed, reported, "{label}: {text} changes the cells its report names");
        for &cell in &report.flipped {
            assert_eq!(game.stone(&before, cell), Some(mover.opponent()), "{label}: {text} flips {cell:?}");
        }
        assert!(reported.iter().all(|&c| game.stone(state, c) == Some(mover)), "{label}: {text} is the mover's");

        let after = state.clone();
        let hash = game.hash(state);
        game.unmake(state, mv, undo);
        assert_eq!(*state, before, "{label}: unmake(make(s)) == s for {text}");
        assert_eq!(game.hash(state), game.hash(&before), "{label}: unmake restores the hash, {text}");
        let undo = game.make(state, mv);
        assert_eq!(*state, after, "{label}: {text} played again");
        assert_eq!(game.hash(state), hash);
        undo
    }

    /// A shallow search, and near the end an exact one: the best move and the principal variation are legal.
    fn check_search(&mut self, state: &G::State, label: &str) {
        let game = self.game;
        let exact = game.remaining_moves(state).is_some_and(|r| r <= EXACT_FROM);
        let (eval, limits, options) = if exact {
            (&self.exact_eval, Limits::default(), SearchOptions { exact: true, ..SearchOptions::default() })
        } else {
            (&self.eval, Limits { nodes: Some(SEARCH_NODES), ..Limits::depth(SEARCH_DEPTH) }, SearchOptions::default())
        };
        let result = self.searcher.search(game, eval, state, &limits, &options, &mut |_| {});
        let best = result.best_move.unwrap_or_else(|| panic!("{label}: the search answers a live position"));
        assert!(game.is_legal(state, best), "{label}: best move {} (exact: {exact})", game.format_move(best));
        if let Some(&first) = result.pv.first() {
            // (A search stopped in its first iteration has no principal variation, and answers its first move.)
            assert_eq!(first, best, "{label}: the principal variation starts with the best move");
        }
        let mut line = state.clone();
        for (i, &mv) in result.pv.iter().enumerate() {
            assert!(game.is_legal(&line, mv), "{label}: move {i} of the principal variation {:?}", result.pv);
            game.make(&mut line, mv);
        }
        self.tally.exact_searches += usize::from(exact);
    }
}

#[test]
fn every_game_rule_set_and_size_keeps_the_contract() {
    let specs = every_spec();
    let mut total = Tally::default();
    for (i, spec) in specs.iter().enumerate() {
        let conformance = Conformance { spec: spec.clone(), rng: random::seeded(i as u64) };
        total.add(&spec.visit(conformance).unwrap_or_else(|e| panic!("{spec:?}: {e}")));
    }
    assert!(total.passes > 0 && total.exact_searches > 0, "passes and exact searches were checked: {total:?}");
}
