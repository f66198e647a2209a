//! A generic negamax alpha-beta searcher with iterative deepening.
//!
//! The node function is written as numbered steps, as in Stockfish's `search.cpp`, so each idea can be found:
//! limits, game end, exact fast path, horizon, transposition table, move generation and ordering, principal
//! variation search, cutoff bookkeeping, table store.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rand::Rng;

use crate::evaluator::Evaluator;
use crate::game::{Game, GameResult, Outcome, Player};
use crate::random;
use crate::score::{self, INFINITY, Score};
use crate::table::{Bound, MAX_MOVE_INDEX, TranspositionTable};

/// The deepest ply the searcher will reach, quiescence included.
pub const MAX_PLY: usize = 128;

/// The deepest nominal depth of iterative deepening.
pub const MAX_DEPTH: u32 = 100;

/// The depth recorded for exact-mode results, which are valid to the end of the game whatever the depth asked.
const EXACT_DEPTH: i32 = 1_000;

/// Late-move reductions start with this move of a node (0-based): the first ones are searched fully.
const LMR_FIRST_MOVE: usize = 3;

/// Late-move reductions apply from this many plies above the horizon.
const LMR_MIN_DEPTH: i32 = 3;

/// How many plies less to search a quiet move that comes `i`-th (0-based) in a node `depth` plies from the horizon,
/// at first (see [`SearchOptions::late_move_reductions`]): none for the first moves and near the horizon, more the
/// later and deeper the move.
fn late_move_reduction(depth: i32, i: usize) -> i32 {
    if depth < LMR_MIN_DEPTH || i < LMR_FIRST_MOVE {
        return 0;
    }
    let r = 1 + i32::from(i >= 2 * LMR_FIRST_MOVE + 2) + i32::from(depth >= 2 * LMR_MIN_DEPTH && i >= 16);
    r.min(depth - 2)
}

/// From which move (0-based) a node `depth` plies from the horizon skips its quiet moves outright (move-count
/// pruning), off the principal variation: few moves near the horizon, all of them higher up.
fn late_move_limit(depth: i32) -> usize {
    match depth {
        ..=1 => 8,
        2 => 12,
        3 => 20,
        _ => usize::MAX,
    }
}

/// The most plies quiescence follows past the horizon (Gomoku: twelve fours and their answers).
const MAX_QUIESCENCE_PLIES: usize = 24;

/// How often (in nodes) the clock is read.
const CLOCK_INTERVAL: u64 = 256;

/// When a search must stop. Every limit is optional; with none, the search runs to [`MAX_DEPTH`] or the end.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration to complete.
    pub depth: Option<u32>,
    /// The most nodes to visit.
    pub nodes: Option<u64>,
    /// The longest time to think.
    pub time: Option<Duration>,
    /// A flag another thread sets to end the search early.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Limits to a fixed depth.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }
}

/// Which search techniques to use. All of them keep the root value that plain minimax would find; the defaults
/// turn every technique on.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Use the transposition table for cutoffs and move ordering.
    pub transposition_table: bool,
    /// Principal variation search: null windows after the first move.
    pub pvs: bool,
    /// The half-width of aspiration windows around the previous iteration's score; `None` for full windows.
    pub aspiration: Option<Score>,
    /// Killer moves (two per ply) in move ordering.
    pub killers: bool,
    /// The history heuristic in move ordering.
    pub history: bool,
    /// Follow the evaluator's noisy moves past the horizon.
    pub quiescence: bool,
    /// The most nodes quiescence may spend below one horizon node; past them every line stands pat. Forcing moves
    /// of both sides can multiply into millions of lines (Gomoku's fours), and a depth-limited search has no clock
    /// to end them.
    pub quiescence_nodes: u64,
    /// Search to the end of the game: no horizon, and finished games score their margin rather than a mate value.
    pub exact: bool,
    /// Late-move reductions and pruning: quiet moves (as [`Evaluator::is_quiet`] says) that come late in the order
    /// are first searched less deep, and fully only when they look better than the best so far; near the horizon,
    /// off the principal variation, the latest are not searched at all. The one technique here that may change the
    /// root value, traded for depth; off by default, so default searches equal minimax.
    pub late_move_reductions: bool,
    /// Forcing moves (as [`Evaluator::is_forcing`] says) are searched one ply deeper, up to twice the iteration's
    /// depth from the root, so that forced sequences are seen to their end. Changes the root value; off by default.
    pub extensions: bool,
    /// Futility pruning: off the principal variation, a node whose static evaluation beats beta by the
    /// evaluator's margin ([`Evaluator::futility_margin`]) returns the evaluation unsearched. Changes the root
    /// value; off by default.
    pub futility: bool,
    /// Choose at random among root moves scoring within this margin of the best (0: always the best).
    pub randomness: Score,
    /// The seed for root randomness, so games can be replayed.
    pub seed: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            transposition_table: true,
            pvs: true,
            aspiration: Some(50),
            killers: true,
            history: true,
            quiescence: true,
            quiescence_nodes: 10_000,
            exact: false,
            late_move_reductions: false,
            extensions: false,
            futility: false,
            randomness: 0,
            seed: 0,
        }
    }
}

/// Progress reported after each completed depth.
#[derive(Clone, Debug)]
pub struct SearchInfo<M> {
    /// The depth just completed.
    pub depth: u32,
    /// Its score, from the side to move's view.
    pub score: Score,
    /// The principal variation, the root move first.
    pub pv: Vec<M>,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Whether the search is exact ([`SearchOptions::exact`]): its scores are then final margins in games that
    /// count them (Othello's discs), not evaluations.
    pub exact: bool,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the game is over.
    pub best_move: Option<M>,
    /// The score of the deepest completed iteration, from the side to move's view.
    pub score: Score,
    /// The deepest completed iteration (0 if even depth 1 was cut short).
    pub depth: u32,
    /// The principal variation of that iteration.
    pub pv: Vec<M>,
    /// Nodes visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Whether a limit or the stop flag cut the search short.
    pub stopped: bool,
    /// Whether the result is the game-theoretic value (the search saw every line to its end).
    pub proven: bool,
    /// Whether the search was exact, its score a final margin where the game counts one ([`SearchInfo::exact`]).
    pub exact: bool,
}

impl<M: Copy + PartialEq> SearchResult<M> {
    /// The result as the report of its deepest iteration: its principal variation begins with the move chosen
    /// (the move alone when randomness chose another than the line's first).
    #[must_use]
    pub fn info(&self) -> SearchInfo<M> {
        let pv = match self.best_move {
            Some(best) if self.pv.first() != Some(&best) => vec![best],
            _ => self.pv.clone(),
        };
        let nps = (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64;
        SearchInfo {
            depth: self.depth,
            score: self.score,
            pv,
            nodes: self.nodes,
            nps,
            elapsed: self.elapsed,
            exact: self.exact,
        }
    }
}

/// A reusable searcher for one game: it keeps the transposition table and move-ordering tables between searches.
///
/// With more than one thread it searches Lazy SMP style: every thread searches the same root, sharing only the
/// lock-free transposition table, so what one thread learns cuts the others' trees short. Helper threads differ
/// from the main one in which iterations they search (some skip depths, so they run ahead) and, in exact mode,
/// in which root move they try first. The deepest iteration any thread completes is the answer; the main thread
/// keeps the clock, and its end (or any thread completing the depth limit) stops the others.
/// With one thread the search is exactly the single-threaded one. An exact search whose evaluator has a parallel
/// solver ([`Evaluator::parallel_solve`]) leaves the threads to the solver instead.
pub struct Searcher<G: Game> {
    table: TranspositionTable,
    /// One per thread, the main thread's first.
    workers: Vec<Worker<G>>,
    last_search_exact: bool,
}

/// A thread's own move-ordering tables.
struct Worker<G: Game> {
    history: Vec<i32>,
    killers: Vec<[Option<G::Move>; 2]>,
}

impl<G: Game> Clone for Worker<G> {
    fn clone(&self) -> Self {
        Worker { history: self.history.clone(), killers: self.killers.clone() }
    }
}

impl<G: Game> Worker<G> {
    fn new(game: &G) -> Self {
        Worker { history: vec![0; game.move_index_count() * 2], killers: vec![[None, None]; MAX_PLY + 1] }
    }
}

/// What the threads of one search share besides the table.
struct Shared<M> {
    /// Set when the main thread is done, to stop the helpers.
    done: AtomicBool,
    /// Nodes counted by all threads, each adding its own in batches (only with helpers).
    nodes: AtomicU64,
    /// Whether helper threads run.
    parallel: bool,
    /// The deepest iteration any thread has completed ([`PROVEN`] once one proved the result): when it reaches
    /// the depth limit, every thread stops.
    deepest: AtomicU32,
    /// That iteration's result, which the search answers when it is deeper than the main thread's own.
    best: Mutex<Option<SearchResult<M>>>,
}

/// [`Shared::deepest`] once a thread has proven the result.
const PROVEN: u32 = u32::MAX;

/// The skipped iterations of the first helper threads (Stockfish's skip blocks): helper `i` searches depth `d`
/// only when `(d + phase) / size` is even, so half the helpers run a ply or more ahead of the main thread and
/// they spread over different depths.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether helper thread `helper` (1-based) skips the iteration of `depth`.
fn helper_skips(helper: usize, depth: u32) -> bool {
    let i = (helper - 1) % SKIP_SIZE.len();
    (depth + SKIP_PHASE[i]) / SKIP_SIZE[i] % 2 == 1
}

/// Panics for a game with more move indices than the transposition table can store (a programming error in the
/// game, not bad input).
fn assert_move_indices_fit<G: Game>(game: &G) {
    assert!(
        game.move_index_count() <= MAX_MOVE_INDEX as usize + 1,
        "the transposition table stores move indices up to {MAX_MOVE_INDEX}"
    );
}

impl<G: Game> Searcher<G> {
    /// A single-threaded searcher with a transposition table of about `table_megabytes`.
    #[must_use]
    pub fn new(game: &G, table_megabytes: usize) -> Self {
        assert_move_indices_fit(game);
        Searcher {
            table: TranspositionTable::with_megabytes(table_megabytes),
            workers: vec![Worker::new(game)],
            last_search_exact: false,
        }
    }

    /// Searches with `threads` threads (at least one) from now on.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        if threads != self.workers.len() {
            let main = self.workers[0].clone();
            self.workers.resize(threads, main);
        }
    }

    /// The number of threads a search uses.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Forgets everything learned and sizes the move history for `game`, keeping the table's memory: a new game
    /// under other rules or on another board costs no new table (filling a large one takes a good part of a
    /// second).
    pub fn reset(&mut self, game: &G) {
        assert_move_indices_fit(game);
        self.table.clear();
        let threads = self.workers.len();
        self.workers = vec![Worker::new(game); threads];
    }

    /// Forgets everything learned (table, history), for example at a new game.
    pub fn clear(&mut self) {
        self.table.clear();
        for worker in &mut self.workers {
            worker.history.iter_mut().for_each(|h| *h = 0);
        }
    }

    /// Searches `state` and returns the best move found. `on_depth` is called after each iteration the main
    /// thread completes; nodes count every thread's.
    pub fn search<E: Evaluator<G>>(
        &mut self,
        game: &G,
        evaluator: &E,
        state: &G::State,
        limits: &Limits,
        options: &SearchOptions,
        on_depth: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        self.search_excluding(game, evaluator, state, limits, options, &[], on_depth)
    }

    /// Like [`Self::search`], but the root moves in `excluded` are not considered: the best of the others, which
    /// is the next line of a multi-line analysis when `excluded` holds the lines found before. No move is
    /// returned when every root move is excluded.
    #[allow(clippy::too_many_arguments, reason = "search's arguments and the excluded root moves")]
    pub fn search_excluding<E: Evaluator<G>>(
        &mut self,
        game: &G,
        evaluator: &E,
        state: &G::State,
        limits: &Limits,
        options: &SearchOptions,
        excluded: &[G::Move],
        on_depth: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        if options.exact != self.last_search_exact {
            // Exact scores are disc margins, not evaluations: the two must not meet in the table.
            self.table.clear();
            self.last_search_exact = options.exact;
        }
        self.table.new_search();
        for worker in &mut self.workers {
            worker.history.iter_mut().for_each(|h| *h /= 2);
            worker.killers.iter_mut().for_each(|k| *k = [None, None]);
        }
        let threads = self.workers.len();
        let (main, mut helpers) = self.workers.split_first_mut().expect("a searcher has a main thread");
        if options.exact && evaluator.parallel_solve(game, threads) {
            // The solver uses the threads itself: splitting its tree beats sharing a table (Othello: FFO
            // #40-#45 in 27 s on two threads against 35 s with helper searches, 44 s on one thread).
            helpers = &mut [];
        }
        let shared = Shared {
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            parallel: !helpers.is_empty(),
            deepest: AtomicU32::new(0),
            best: Mutex::new(None),
        };
        let table = &self.table;
        let start = Instant::now();
        let run = |worker, helper, limits| Run {
            game,
            evaluator,
            options,
            limits,
            table,
            worker,
            shared: &shared,
            helper,
            start,
            target_depth: MAX_DEPTH,
            nodes: 0,
            flushed: 0,
            aborted: false,
            hit_horizon: false,
            quiescence_end: 0,
            iteration_depth: 0,
            excluded,
            previous_best: None,
            improved: None,
            pv: vec![Vec::new(); MAX_PLY + 2],
            move_buffers: vec![Vec::new(); MAX_PLY + 1],
            ordered: vec![Vec::new(); MAX_PLY + 1],
            root: Vec::new(),
        };
        if helpers.is_empty() {
            return run(main, 0, limits).iterate(&mut state.clone(), on_depth);
        }
        // Helpers run until the main thread is done, a thread reaches the depth limit, the caller stops the search
        // or the nodes run out, whatever the main thread's time.
        let helper_limits = Limits { time: None, ..limits.clone() };
        let mut result = std::thread::scope(|scope| {
            for (i, worker) in helpers.iter_mut().enumerate() {
                let mut helper = run(worker, i + 1, &helper_limits);
                let mut state = state.clone();
                scope.spawn(move || helper.iterate(&mut state, &mut |_| {}));
            }
            let result = run(main, 0, limits).iterate(&mut state.clone(), on_depth);
            shared.done.store(true, Ordering::Relaxed);
            result
        });
        // A helper's deeper iteration (a skipping helper runs ahead) or its proof is the better answer.
        let best = shared.best.into_inner().unwrap_or_else(PoisonError::into_inner);
        let nodes = shared.nodes.load(Ordering::Relaxed);
        if let Some(best) = best.filter(|b| b.depth > result.depth || (b.proven && !result.proven)) {
            let complete = best.proven || limits.depth.is_some_and(|d| best.depth >= d);
            result = SearchResult { nodes, elapsed: result.elapsed, stopped: result.stopped && !complete, ..best };
            // The caller hears of the iteration that answers, though the main thread did not complete it.
            on_depth(&result.info());
        }
        result.nodes = nodes;
        result
    }
}

/// A root move with what the current iteration learned of it.
#[derive(Clone, Debug)]
struct RootMove<M> {
    mv: M,
    /// The exact score when known (within the randomness margin of the best), else `None`.
    score: Option<Score>,
}

/// The state of one thread of a search call.
struct Run<'a, G: Game, E: Evaluator<G>> {
    game: &'a G,
    evaluator: &'a E,
    options: &'a SearchOptions,
    limits: &'a Limits,
    table: &'a TranspositionTable,
    worker: &'a mut Worker<G>,
    shared: &'a Shared<G::Move>,
    /// 0 for the main thread, 1, 2, ... for the helpers.
    helper: usize,
    start: Instant,
    /// The depth limit of the iterations: once any thread has completed it, all stop.
    target_depth: u32,
    /// This thread's nodes.
    nodes: u64,
    /// How many of them are added to the shared count.
    flushed: u64,
    aborted: bool,
    hit_horizon: bool,
    /// The node count past which the quiescence under way stands pat (see [`SearchOptions::quiescence_nodes`]).
    quiescence_end: u64,
    /// The nominal depth of the current iteration, which bounds extensions.
    iteration_depth: usize,
    /// Root moves left out of this search.
    excluded: &'a [G::Move],
    /// The best root move of the last completed iteration.
    previous_best: Option<G::Move>,
    /// In the iteration under way, the line of a root move that raised alpha after [`Self::previous_best`] was
    /// searched first in the same pass: proven better than it at the new depth, so an iteration cut short still
    /// answers it.
    improved: Option<Vec<G::Move>>,
    pv: Vec<Vec<G::Move>>,
    move_buffers: Vec<Vec<G::Move>>,
    /// Each ply's moves with their ordering keys and places, handed out best first by [`next_best`].
    ordered: Vec<Vec<(u64, u32, G::Move)>>,
    root: Vec<RootMove<G::Move>>,
}

/// An `i32` as a `u64` of 32 bits that sorts in the same order.
fn signed_key(value: i32) -> u64 {
    u64::from(value.cast_unsigned() ^ 0x8000_0000)
}

/// Fills `ordered` with `moves`, each with its key and its place in `moves`, for [`next_best`].
fn key_moves<M: Copy>(ordered: &mut Vec<(u64, u32, M)>, moves: &[M], key: impl Fn(M) -> u64) {
    ordered.clear();
    ordered.extend(moves.iter().enumerate().map(|(place, &mv)| (key(mv), place as u32, mv)));
}

/// How many moves of a node [`next_best`] picks one by one before it sorts the rest.
const PICKED: usize = 3;

/// Up to this many moves, [`next_best`] sorts them all at once: picking pays only in long lists (Gomoku's
/// candidate areas, not Othello's handful of moves).
const SORT_AT_ONCE: usize = 12;

/// The move to search `i`-th (for `i` = 0, 1, 2, ... in turn) among `keyed` (key, original place, move), in the
/// order of a stable sort by key, highest first. Most nodes cut off after a move or two, so in a long list the
/// first [`PICKED`] are picked as the best of those left, and only a node that gets further sorts the rest, once.
fn next_best<M: Copy>(keyed: &mut [(u64, u32, M)], i: usize) -> M {
    let sort_from = if keyed.len() <= SORT_AT_ONCE { 0 } else { PICKED };
    if i < sort_from {
        // Places are unique, so the order is total and a swap cannot reorder equal keys.
        let best = (i..keyed.len()).max_by_key(|&j| (keyed[j].0, std::cmp::Reverse(keyed[j].1))).unwrap_or(i);
        keyed.swap(i, best);
    } else if i == sort_from {
        keyed[i..].sort_unstable_by_key(|&(key, place, _)| (std::cmp::Reverse(key), place));
    }
    keyed[i].2
}

/// The bound a fail-soft node's `best` value proves, searched in the window (`alpha`, `beta`).
fn proven_bound(best: Score, alpha: Score, beta: Score) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Whether a stored `value` with `bound` settles a node searched in the window (`alpha`, `beta`).
fn decides(bound: Bound, value: Score, alpha: Score, beta: Score) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => value >= beta,
        Bound::Upper => value <= alpha,
    }
}

/// The score of a finished game from the view of `side`, `ply` plies from the root.
fn terminal_score(outcome: Outcome, side: Player, ply: u32, exact: bool) -> Score {
    if exact && outcome.margin.is_some() {
        return outcome.signed_margin(side);
    }
    match outcome.result {
        GameResult::Draw => 0,
        GameResult::Win(w) if w == side => score::mate_in(ply),
        GameResult::Win(_) => score::mated_in(ply),
    }
}

impl<G: Game, E: Evaluator<G>> Run<'_, G, E> {
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Counts a node, or returns `false` (and marks the search aborted) when a limit is reached.
    fn enter_node(&mut self) -> bool {
        if self.aborted {
            return false;
        }
        let now_and_then = self.nodes.is_multiple_of(CLOCK_INTERVAL);
        if now_and_then {
            self.flush_nodes();
        }
        if self.limit_reached(0, now_and_then) {
            self.aborted = true;
            return false;
        }
        self.nodes += 1;
        true
    }

    /// Adds this thread's nodes to the shared count, when threads share one.
    fn flush_nodes(&mut self) {
        if self.shared.parallel {
            self.shared.nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
        }
    }

    /// The nodes of every thread so far (other threads' up to their last flush).
    fn total_nodes(&self) -> u64 {
        if self.shared.parallel {
            self.shared.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed
        } else {
            self.nodes
        }
    }

    /// Whether a limit is reached `extra_nodes` nodes from now: the node limit, the stop flags, and when
    /// `read_clock` (not at every node: it is slow) the time limit.
    fn limit_reached(&self, extra_nodes: u64, read_clock: bool) -> bool {
        self.limits.nodes.is_some_and(|n| self.total_nodes() + extra_nodes >= n)
            || self.limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
            || (self.helper > 0 && self.shared.done.load(Ordering::Relaxed))
            || (self.shared.parallel && self.shared.deepest.load(Ordering::Relaxed) >= self.target_depth)
            || (read_clock && self.limits.time.is_some_and(|t| self.elapsed() >= t))
    }

    fn info(&self, depth: u32, score: Score, pv: Vec<G::Move>) -> SearchInfo<G::Move> {
        let elapsed = self.elapsed();
        let nodes = self.total_nodes();
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
        SearchInfo { depth, score, pv, nodes, nps, elapsed, exact: self.options.exact }
    }

    /// Iterative deepening: search depth 1, 2, ... until a limit, the maximum depth, or a proven result.
    fn iterate(
        &mut self,
        state: &mut G::State,
        on_depth: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut result = SearchResult {
            best_move: None,
            score: 0,
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
            elapsed: Duration::ZERO,
            stopped: false,
            proven: false,
            exact: self.options.exact,
        };
        if let Some(outcome) = self.game.outcome(state) {
            result.score = terminal_score(outcome, self.game.side_to_move(state), 0, self.options.exact);
            result.proven = true;
            return result;
        }
        let mut moves = Vec::new();
        self.evaluator.search_moves(self.game, state, &mut moves);
        if moves.is_empty() {
            self.game.legal_moves(state, &mut moves);
        }
        moves.retain(|mv| !self.excluded.contains(mv));
        if self.options.exact && !moves.is_empty() {
            // An exact search is one iteration: helpers differ by the root move they try first.
            let first = self.helper % moves.len();
            moves.rotate_left(first);
        }
        self.root = moves.into_iter().map(|mv| RootMove { mv, score: None }).collect();
        result.best_move = self.root.first().map(|r| r.mv);
        if self.root.is_empty() {
            // A game whose outcome is unset though no move is left: nothing to choose, nothing to search.
            return result;
        }

        let max_depth = if self.options.exact { 1 } else { self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) };
        self.target_depth = max_depth;
        let mut previous: Option<Score> = None;
        let mut wins_in_a_row = 0;
        for depth in 1..=max_depth {
            if self.helper > 0 && depth < max_depth && helper_skips(self.helper, depth) {
                continue;
            }
            self.hit_horizon = false;
            self.iteration_depth = depth as usize;
            let nominal = if self.options.exact { EXACT_DEPTH } else { depth as i32 };
            self.previous_best = result.best_move.filter(|_| result.depth > 0);
            self.improved = None;
            let score = self.aspiration_search(state, nominal, previous);
            if self.aborted {
                // A root move that proved better than the previous best before the clock ran out is the better
                // answer (randomness chooses among completed iterations' scores only).
                if let Some(line) = self.improved.take().filter(|_| self.options.randomness <= 0 && result.depth > 0) {
                    result.best_move = line.first().copied();
                    result.pv = line;
                }
                break;
            }
            previous = Some(score);
            result.depth = depth;
            result.score = score;
            result.pv = self.pv[0].clone();
            result.best_move = Some(self.choose_root_move(score, state));
            on_depth(&self.info(depth, score, result.pv.clone()));
            if !self.hit_horizon {
                result.proven = true;
            }
            if self.shared.parallel {
                self.publish(&result);
            }
            if result.proven {
                break;
            }
            wins_in_a_row = if score >= score::MATE_BOUND { wins_in_a_row + 1 } else { 0 };
            if let Some(t) = self.limits.time {
                // On the clock, a forced move or a win that a deeper iteration confirmed needs no more thought,
                // and an iteration that would most likely not finish in time is not begun. A single move left
                // by exclusion is not forced: its value is what the caller asks for.
                let forced = self.root.len() == 1 && self.excluded.is_empty();
                if forced || wins_in_a_row >= 2 || self.elapsed() * 2 > t {
                    break;
                }
            }
        }
        self.flush_nodes();
        result.nodes = self.nodes;
        result.elapsed = self.elapsed();
        result.stopped = self.aborted;
        result
    }

    /// Offers a completed iteration to the other threads: it becomes the search's answer if it is the deepest.
    fn publish(&self, result: &SearchResult<G::Move>) {
        let mut best = self.shared.best.lock().unwrap_or_else(PoisonError::into_inner);
        if best.as_ref().is_none_or(|b| result.depth > b.depth || (result.proven && !b.proven)) {
            *best = Some(result.clone());
            let deepest = if result.proven { PROVEN } else { result.depth };
            self.shared.deepest.fetch_max(deepest, Ordering::Relaxed);
        }
    }

    /// Picks the root move: the best, or with randomness one of those within the margin, better ones likelier.
    fn choose_root_move(&self, best: Score, state: &G::State) -> G::Move {
        let best_move = self.pv[0].first().copied().unwrap_or(self.root[0].mv);
        let margin = self.options.randomness;
        if margin <= 0 || score::is_mate(best) {
            return best_move;
        }
        let candidates: Vec<(G::Move, i64)> = self
            .root
            .iter()
            .filter_map(|r| r.score.filter(|s| *s >= best - margin).map(|s| (r.mv, i64::from(margin - (best - s)) + 1)))
            .collect();
        let total: i64 = candidates.iter().map(|c| c.1).sum();
        if total <= 0 {
            return best_move;
        }
        let mut rng = random::seeded(self.options.seed ^ self.game.hash(state));
        let mut pick = rng.random_range(0..total);
        for (mv, weight) in &candidates {
            if pick < *weight {
                return *mv;
            }
            pick -= weight;
        }
        best_move
    }

    /// One iteration, in an aspiration window around the previous score that widens on failure.
    fn aspiration_search(&mut self, state: &mut G::State, depth: i32, previous: Option<Score>) -> Score {
        let window = match (self.options.aspiration, previous) {
            (Some(w), Some(p)) if self.options.randomness == 0 && !score::is_mate(p) && w > 0 => Some((w, p)),
            _ => None,
        };
        let Some((mut delta, center)) = window else {
            return self.search_root(state, depth, -INFINITY, INFINITY);
        };
        let (mut alpha, mut beta) = (center - delta, center + delta);
        loop {
            let score = self.search_root(state, depth, alpha, beta);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                alpha = if delta > score::MATE_BOUND / 4 { -INFINITY } else { (center - 2 * delta).max(-INFINITY) };
            } else if score >= beta {
                beta = if delta > score::MATE_BOUND / 4 { INFINITY } else { (center + 2 * delta).min(INFINITY) };
            } else {
                return score;
            }
            delta *= 2;
        }
    }

    /// The root node: like [`Self::negamax`], but over the kept root moves, recording their scores, and with a
    /// lowered floor for non-best moves when randomness needs their exact values.
    fn search_root(&mut self, state: &mut G::State, depth: i32, alpha: Score, beta: Score) -> Score {
        self.nodes += 1;
        // Previous best first, then the rest in their previous order (stable sort keeps it).
        if let Some(best) = self.pv_root_move() {
            self.root.sort_by_key(|r| r.mv != best);
        }
        self.pv[0].clear();
        self.root.iter_mut().for_each(|r| r.score = None);
        let margin = self.options.randomness.max(0);
        let mut best = -INFINITY;
        let mut lower = alpha;
        for i in 0..self.root.len() {
            let mv = self.root[i].mv;
            let floor = if margin > 0 && best > -INFINITY { lower.max(best - margin) } else { lower };
            let undo = self.make_move(state, mv);
            let value = self.search_child(state, depth - 1, floor, beta, 1, i == 0, 0);
            self.game.unmake(state, mv, undo);
            if self.aborted {
                return best;
            }
            self.root[i].score = (value > floor || i == 0).then_some(value);
            if value > best {
                best = value;
                self.update_pv(0, mv);
                if value > lower {
                    if i > 0 && self.previous_best == Some(self.root[0].mv) {
                        self.improved = Some(self.pv[0].clone());
                    }
                    lower = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The value of a move whose position `state` is, for its parent searching in (`alpha`, `beta`): the full
    /// window for the first move (or without PVS), else a null window at `alpha`, at first `reduction` plies
    /// shallower, searched again deeper and then wider only while it might beat `alpha` (principal variation
    /// search). The child is searched `depth` plies at `ply`.
    #[allow(clippy::too_many_arguments, reason = "the child, its window and where it stands in the parent's list")]
    fn search_child(
        &mut self,
        state: &mut G::State,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        first: bool,
        reduction: i32,
    ) -> Score {
        if first || !self.options.pvs {
            return -self.negamax(state, depth, -beta, -alpha, ply);
        }
        let mut probe = alpha + 1;
        if reduction > 0 {
            probe = -self.negamax(state, depth - reduction, -alpha - 1, -alpha, ply);
        }
        if probe > alpha {
            probe = -self.negamax(state, depth, -alpha - 1, -alpha, ply);
        }
        if probe > alpha && probe < beta { -self.negamax(state, depth, -beta, -alpha, ply) } else { probe }
    }

    /// Makes `mv`, first starting to load the child's table entry where the game can name its key beforehand.
    fn make_move(&self, state: &mut G::State, mv: G::Move) -> G::Undo {
        let key = self.game.hash_after(state, mv);
        if let Some(key) = key
            && self.options.transposition_table
        {
            self.table.prefetch(key);
        }
        let undo = self.game.make(state, mv);
        debug_assert!(key.is_none_or(|key| key == self.game.hash(state)), "hash_after disagrees with make");
        undo
    }

    fn pv_root_move(&self) -> Option<G::Move> {
        self.pv[0].first().copied()
    }

    /// Sets the principal variation at `ply` to `mv` followed by the child's.
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// The negamax alpha-beta node (fail-soft): the value of `state` for the side to move, searched `depth` more
    /// plies, exact when it lies strictly inside `(alpha, beta)`.
    fn negamax(&mut self, state: &mut G::State, depth: i32, mut alpha: Score, beta: Score, ply: usize) -> Score {
        // Step 1. Count the node and honour the limits.
        if !self.enter_node() {
            return 0;
        }
        self.pv[ply].clear();
        let game = self.game;
        let side = game.side_to_move(state);

        // Step 2. A finished game scores its result.
        if let Some(outcome) = game.outcome(state) {
            return terminal_score(outcome, side, ply as u32, self.options.exact);
        }

        // Step 3. In exact mode the evaluator may solve small positions with a faster special-purpose solver,
        // which asks now and then whether a limit is reached (counting its own nodes); if so, the search is over.
        if self.options.exact {
            let evaluator = self.evaluator;
            let mut nodes = 0;
            let solved = evaluator.solve_exactly(game, state, alpha, beta, &mut nodes, &mut |solver_nodes| {
                self.aborted |= self.limit_reached(solver_nodes, true);
                self.aborted
            });
            self.nodes += nodes;
            if self.aborted {
                return 0;
            }
            if let Some(value) = solved {
                return value;
            }
        }

        // Step 4. At the horizon, resolve forcing moves (quiescence) and evaluate.
        if (depth <= 0 && !self.options.exact) || ply >= MAX_PLY {
            self.hit_horizon = true;
            self.quiescence_end = self.nodes.saturating_add(self.options.quiescence_nodes);
            return self.quiesce(state, alpha, beta, ply, 0);
        }

        // Step 5. Transposition table lookup: a deep enough result may end the node; its move is tried first.
        let key = game.hash(state);
        let stored_depth = if self.options.exact { EXACT_DEPTH } else { depth };
        let is_pv = beta - alpha > 1;
        let mut table_move = None;
        if self.options.transposition_table
            && let Some(entry) = self.table.probe(key)
        {
            table_move = entry.best_move;
            let value = score::from_table(entry.score, ply as u32);
            if !is_pv && entry.depth >= stored_depth && decides(entry.bound, value, alpha, beta) {
                // Only entries whose subtree reached the end of every line are proven.
                if entry.depth < EXACT_DEPTH {
                    self.hit_horizon = true;
                }
                return value;
            }
        }

        // Step 5b. Futility pruning: far enough above beta, the static evaluation is taken as a lower bound.
        if self.options.futility && !is_pv && beta > -score::MATE_BOUND {
            let evaluator = self.evaluator;
            if let Some(margin) = evaluator.futility_margin(game, state, depth) {
                let eval = evaluator.evaluate(game, state);
                if eval < score::MATE_BOUND && eval - margin >= beta {
                    self.hit_horizon = true;
                    return eval;
                }
            }
        }

        // Step 6. Generate the moves and order them: table move, then the evaluator's hint, killers, history.
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        moves.clear();
        self.evaluator.search_moves(game, state, &mut moves);
        if moves.is_empty() {
            self.move_buffers[ply] = moves;
            self.hit_horizon = true;
            return self.evaluator.evaluate(game, state);
        }
        let mut ordered = std::mem::take(&mut self.ordered[ply]);
        self.order_moves(state, &moves, &mut ordered, table_move, ply, side);
        self.move_buffers[ply] = moves;

        // Step 7. Principal variation search: the first move with the full window, the rest with a null window,
        // re-searched only when they might be better.
        let original_alpha = alpha;
        let outer_hit_horizon = std::mem::replace(&mut self.hit_horizon, false);
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..ordered.len() {
            let mv = next_best(&mut ordered, i);
            let quiet = self.options.late_move_reductions && i > 0 && self.evaluator.is_quiet(game, state, mv);
            if quiet && !is_pv && best > -score::MATE_BOUND && i >= late_move_limit(depth) {
                // Move-count pruning: near the horizon, late quiet moves are not searched at all (so the node's
                // value is not proven).
                self.hit_horizon = true;
                continue;
            }
            let reduction = if quiet { late_move_reduction(depth, i) } else { 0 };
            let extended = self.options.extensions
                && !quiet
                && ply < 2 * self.iteration_depth
                && self.evaluator.is_forcing(game, state, mv);
            let child_depth = depth - 1 + i32::from(extended);
            let undo = self.make_move(state, mv);
            let value = self.search_child(state, child_depth, alpha, beta, ply + 1, i == 0, reduction);
            game.unmake(state, mv, undo);
            if self.aborted {
                self.ordered[ply] = ordered;
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                    if value >= beta {
                        // Step 8. A cutoff: remember the move for siblings (killers) and for the game (history).
                        self.reward_cutoff(mv, depth, ply, side);
                        break;
                    }
                }
            }
        }
        self.ordered[ply] = ordered;
        // A subtree that reached the end of every line holds for any depth.
        let stored_depth = if self.hit_horizon { stored_depth } else { EXACT_DEPTH };
        self.hit_horizon |= outer_hit_horizon;

        // Step 9. Store the result with the bound it proves.
        if self.options.transposition_table {
            let bound = proven_bound(best, original_alpha, beta);
            let best_move = best_move.map(|mv| game.move_index(mv) as u32);
            self.table.store(key, best_move, score::to_table(best, ply as u32), stored_depth, bound);
        }
        best
    }

    /// Quiescence: stand pat on the static evaluation, or follow a noisy move if it does better. `qply` counts the
    /// plies past the horizon. Results go to the transposition table at depth 0, so the many orders of the same
    /// forcing moves (Gomoku's fours) are searched once.
    fn quiesce(&mut self, state: &mut G::State, mut alpha: Score, beta: Score, ply: usize, qply: usize) -> Score {
        let game = self.game;
        let key = game.hash(state);
        let use_table = self.options.transposition_table && self.options.quiescence;
        let mut deeper_entry = false;
        if use_table && let Some(entry) = self.table.probe(key) {
            let value = score::from_table(entry.score, ply as u32);
            if entry.depth >= 0 && decides(entry.bound, value, alpha, beta) {
                return value;
            }
            deeper_entry = entry.depth > 0;
        }
        let stand_pat = self.evaluator.evaluate(game, state);
        if !self.options.quiescence
            || stand_pat >= beta
            || ply >= MAX_PLY
            || qply >= MAX_QUIESCENCE_PLIES
            || self.nodes >= self.quiescence_end
        {
            return stand_pat;
        }
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        moves.clear();
        self.evaluator.noisy_moves(game, state, &mut moves);
        let original_alpha = alpha;
        let mut best = stand_pat;
        let mut best_move = None;
        alpha = alpha.max(stand_pat);
        let evaluator = self.evaluator;
        let mut ordered = std::mem::take(&mut self.ordered[ply]);
        key_moves(&mut ordered, &moves, |mv| signed_key(evaluator.move_score(game, state, mv)));
        self.move_buffers[ply] = moves;
        for i in 0..ordered.len() {
            let mv = next_best(&mut ordered, i);
            let undo = self.make_move(state, mv);
            let value = if !self.enter_node() {
                0
            } else if let Some(outcome) = game.outcome(state) {
                -terminal_score(outcome, game.side_to_move(state), ply as u32 + 1, self.options.exact)
            } else {
                -self.quiesce(state, -beta, -alpha, ply + 1, qply + 1)
            };
            game.unmake(state, mv, undo);
            if self.aborted {
                self.ordered[ply] = ordered;
                return best;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        self.ordered[ply] = ordered;
        if use_table && !deeper_entry {
            let bound = proven_bound(best, original_alpha, beta);
            let best_move = best_move.map(|mv| game.move_index(mv) as u32);
            self.table.store(key, best_move, score::to_table(best, ply as u32), 0, bound);
        }
        best
    }

    /// Keys `moves` into `ordered` for [`next_best`]: table move first, then the evaluator's hint, killers, history.
    fn order_moves(
        &self,
        state: &G::State,
        moves: &[G::Move],
        ordered: &mut Vec<(u64, u32, G::Move)>,
        table_move: Option<u32>,
        ply: usize,
        side: Player,
    ) {
        let game = self.game;
        let evaluator = self.evaluator;
        let killers = if self.options.killers { self.worker.killers[ply] } else { [None, None] };
        let use_history = self.options.history;
        let history = &self.worker.history;
        let key = |mv| {
            let first = u64::from(Some(game.move_index(mv) as u32) == table_move);
            let hint = signed_key(evaluator.move_score(game, state, mv));
            let killer = killers.iter().position(|k| *k == Some(mv)).map_or(0, |i| 2 - i as u64);
            // History values stay within 0..=2^24 (see `reward_cutoff`), so 29 bits hold them.
            let hist =
                if use_history { history[game.move_index(mv) * 2 + side.index()].clamp(0, (1 << 29) - 1) } else { 0 };
            first << 63 | hint << 31 | killer << 29 | hist as u64
        };
        key_moves(ordered, moves, key);
    }

    fn reward_cutoff(&mut self, mv: G::Move, depth: i32, ply: usize, side: Player) {
        if self.options.killers {
            let k = &mut self.worker.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        if self.options.history {
            let slot = &mut self.worker.history[self.game.move_index(mv) * 2 + side.index()];
            *slot = slot.saturating_add(depth.max(1).saturating_mul(depth.max(1))).min(1 << 24);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Handing moves out one at a time gives the order of a stable sort by key, highest first, for short and long
    /// lists with many equal keys.
    #[test]
    fn next_best_follows_a_stable_sort() {
        let mut rng = random::seeded(0x2545_F491_4F6C_DD1D);
        for len in 0..40u32 {
            for _ in 0..20 {
                let mut keyed: Vec<(u64, u32, u32)> =
                    (0..len).map(|place| (rng.random_range(0..5), place, place)).collect();
                let mut expected = keyed.clone();
                expected.sort_by_key(|&(key, _, _)| std::cmp::Reverse(key));
                let handed: Vec<u32> = (0..keyed.len()).map(|i| next_best(&mut keyed, i)).collect();
                assert_eq!(handed, expected.iter().map(|e| e.2).collect::<Vec<_>>(), "{len} moves");
            }
        }
    }
}
