//! The computer player: a difficulty level applied to the generic searcher, with exact endgames where the level
//! asks for them.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabula_core::{Level, Limits, Score, SearchInfo, SearchOptions, SearchResult, Searcher, score};

use crate::board::BoardGame;

/// Memory for the transposition table of one engine.
pub const TABLE_MEGABYTES: usize = 32;

/// The most search threads an engine takes: more is clamped to this (a settings file or a manager asking for a
/// million threads gets this many, not a failure to start them).
pub const MAX_THREADS: usize = 256;

/// The search threads an engine uses unless told otherwise: every core but one, which is left to the app or the
/// manager around it (at least one).
#[must_use]
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).clamp(1, MAX_THREADS))
}

/// The most forcing moves the threat solver may chain (a level `depth` plies deep chains `depth - 2`).
const MAX_THREATS: u32 = 12;

/// Positions the threat solver may visit per forcing move of its budget, for each question it is asked.
const THREAT_NODES: u64 = 10_000;

/// The share of a move's time the threat solver may spend looking for a forced win before the search starts.
const THREAT_SHARE: f64 = 0.1;

/// How many chosen moves in a row the opponent's threat solver may refute before the engine keeps the last.
const DEFENCES: usize = 3;

/// A computer player for one game, keeping its transposition table (and the endgame evaluator's own tables)
/// between moves.
pub struct Engine<G: BoardGame> {
    game: G,
    searcher: Searcher<G>,
    /// The evaluator for exact solves, made at the first solve and kept: building it can mean filling a table.
    exact: Option<G::Eval>,
}

impl<G: BoardGame> Engine<G> {
    /// An engine for `game` with the default table size.
    #[must_use]
    pub fn new(game: G) -> Self {
        Self::with_table(game, TABLE_MEGABYTES)
    }

    /// An engine whose transposition table uses about `megabytes`.
    #[must_use]
    pub fn with_table(game: G, megabytes: usize) -> Self {
        let searcher = Searcher::new(&game, megabytes);
        Engine { game, searcher, exact: None }
    }

    /// Searches with `threads` threads (from one to [`MAX_THREADS`]) from now on: Lazy SMP in the searcher, or
    /// the exact solver's own parallel search.
    pub fn set_threads(&mut self, threads: usize) {
        self.searcher.set_threads(threads.clamp(1, MAX_THREADS));
    }

    /// The number of threads a search uses.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.searcher.threads()
    }

    /// The rules this engine plays.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Plays `game` from now on, forgetting what earlier searches learned but keeping the table's memory, so that
    /// a change of rules announced just before a move does not spend the move's time filling a new table.
    pub fn set_game(&mut self, game: G) {
        self.searcher.reset(&game);
        self.game = game;
        self.exact = None;
    }

    /// Forgets what earlier searches learned (at a new game).
    pub fn clear(&mut self) {
        self.searcher.clear();
        self.exact = None;
    }

    /// Chooses a move for the side to move at `level`. The search ends at the level's limits or when `stop` is
    /// set; `on_info` hears about every completed depth. Near the end of games that count their remaining moves,
    /// the level's `exact_empties` switches to a perfect-play solve, falling back to the ordinary search when the
    /// solve cannot finish in time.
    pub fn think(
        &mut self,
        state: &G::State,
        level: &Level,
        seed: u64,
        stop: Option<Arc<AtomicBool>>,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        self.think_excluding(state, level, seed, stop, &[], on_info)
    }

    /// Like [`Self::think`], leaving the root moves in `excluded` out: the next line of a multi-line analysis.
    pub fn think_excluding(
        &mut self,
        state: &G::State,
        level: &Level,
        seed: u64,
        stop: Option<Arc<AtomicBool>>,
        excluded: &[G::Move],
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let limits = Limits { stop, ..level.limits() };
        let options = level.options(seed);
        let solve = match (level.exact_empties, self.game.remaining_moves(state)) {
            (Some(empties), Some(remaining)) => remaining <= empties,
            _ => false,
        };
        if !solve {
            return self.search_with_threats(state, level, &limits, &options, excluded, on_info);
        }
        let exact_limits = Limits { depth: None, ..limits.clone() };
        let exact_options = SearchOptions { exact: true, randomness: 0, aspiration: None, ..options.clone() };
        let eval = self.exact.get_or_insert_with(|| self.game.evaluator(true));
        let solved =
            self.searcher.search_excluding(&self.game, eval, state, &exact_limits, &exact_options, excluded, on_info);
        if solved.depth > 0 {
            return solved;
        }
        let elapsed = start.elapsed();
        let fallback_limits =
            Limits { time: limits.time.map(|t| t.saturating_sub(elapsed).max(Duration::from_millis(10))), ..limits };
        let eval = self.game.evaluator(false);
        let mut fallback =
            self.searcher.search_excluding(&self.game, &eval, state, &fallback_limits, &options, excluded, on_info);
        fallback.nodes += solved.nodes;
        fallback.elapsed = start.elapsed();
        fallback
    }

    /// The ordinary search, with the game's threat solver (where it has one) asked first: a forced win it proves
    /// in the first tenth of the time is played at once, since these lines reach far beyond the search's horizon.
    fn search_with_threats(
        &mut self,
        state: &G::State,
        level: &Level,
        limits: &Limits,
        options: &SearchOptions,
        excluded: &[G::Move],
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let eval = self.game.evaluator(false);
        let threats = level.depth.saturating_sub(2).min(MAX_THREATS);
        let mut visited = 0;
        if threats > 0 {
            let deadline = limits.time.map(|t| start + t.mul_f64(THREAT_SHARE));
            let nodes = u64::from(threats) * THREAT_NODES;
            if let Some(win) = self.game.forced_win(state, threats, nodes, deadline, &mut visited)
                && let Some(&first) = win.line.first()
                && !excluded.contains(&first)
            {
                let result = SearchResult {
                    best_move: Some(first),
                    score: score::MATE - win.plies as Score,
                    depth: win.plies,
                    pv: win.line,
                    nodes: visited,
                    elapsed: start.elapsed(),
                    stopped: false,
                    proven: true,
                    exact: false,
                };
                on_info(&result.info());
                return result;
            }
        }
        let search_limits = Limits { time: limits.time.map(|t| t.saturating_sub(start.elapsed())), ..limits.clone() };
        let mut result =
            self.searcher.search_excluding(&self.game, &eval, state, &search_limits, options, excluded, on_info);
        if threats > 0 {
            result = self.defend(state, result, threats, start, limits, options, excluded, &mut visited, on_info);
        }
        SearchResult { nodes: result.nodes + visited, elapsed: start.elapsed(), ..result }
    }

    /// The chosen move checked with the threat solver, asked for the opponent: a move after which the opponent
    /// wins by force is replaced by the best of the others, searched again in the time left, up to
    /// [`DEFENCES`] times. The search's horizon hides such wins, which strong opponents find.
    #[allow(clippy::too_many_arguments)]
    fn defend(
        &mut self,
        state: &G::State,
        mut result: SearchResult<G::Move>,
        threats: u32,
        start: Instant,
        limits: &Limits,
        options: &SearchOptions,
        excluded: &[G::Move],
        visited: &mut u64,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut refuted: Vec<G::Move> = excluded.to_vec();
        for _ in 0..DEFENCES {
            let Some(best) = result.best_move else { break };
            if result.proven || score::is_mate(result.score) {
                break;
            }
            let end = limits.time.map(|t| start + t);
            let stopped = limits.stop.as_ref().is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed));
            if stopped || end.is_some_and(|end| Instant::now() + Duration::from_millis(10) >= end) {
                break;
            }
            let mut after = state.clone();
            self.game.make(&mut after, best);
            let deadline = limits.time.map(|t| (Instant::now() + t.mul_f64(THREAT_SHARE)).min(start + t));
            let nodes = u64::from(threats) * THREAT_NODES;
            if self.game.forced_win(&after, threats, nodes, deadline, visited).is_none() {
                break;
            }
            refuted.push(best);
            let rest = Limits { time: limits.time.map(|t| t.saturating_sub(start.elapsed())), ..limits.clone() };
            let eval = self.game.evaluator(false);
            let other = self.searcher.search_excluding(&self.game, &eval, state, &rest, options, &refuted, on_info);
            *visited += other.nodes;
            // Keep the refuted move when every other loses as surely, or none was searched to the end.
            if other.best_move.is_none() || other.depth == 0 || other.score <= -score::MATE_BOUND {
                break;
            }
            result = SearchResult { nodes: result.nodes, ..other };
        }
        result
    }

    /// The best `lines` moves for the side to move but the `excluded` ones, each searched at `level` without the
    /// ones found before (a multi-line analysis; fewer when the moves worth searching run out or `stop` is set).
    /// `on_line` hears of each line as it is found, best first.
    #[allow(clippy::too_many_arguments)]
    pub fn think_lines(
        &mut self,
        state: &G::State,
        level: &Level,
        seed: u64,
        stop: Option<Arc<AtomicBool>>,
        lines: usize,
        excluded: &[G::Move],
        on_line: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> Vec<SearchResult<G::Move>> {
        let mut found: Vec<G::Move> = excluded.to_vec();
        let mut results = Vec::new();
        for _ in 0..lines {
            let result = self.think_excluding(state, level, seed, stop.clone(), &found, &mut |_| {});
            let Some(best) = result.best_move else { break };
            on_line(&result);
            found.push(best);
            results.push(result);
            if stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
                break;
            }
        }
        results
    }
}
