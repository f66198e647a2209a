//! The Othello evaluator: learned board patterns for play on the 8x8 board, a weighted sum of hand-set features
//! elsewhere, fastest-first move ordering and the endgame fast path for exact mode.
//!
//! On 8x8 with the most discs winning (every start), positions are judged by the pattern evaluation fitted to real
//! games ([`super::weights`]), in hundredths of a disc of final margin. Anti-Othello and the 6x6 and 10x10 boards
//! keep the hand-set features below: the patterns are laid out for 8x8 and learned from games won by the most discs.
//!
//! Hand-set features, each as (side to move) minus (opponent): mobility (legal moves), potential mobility
//! (empties next to the opponent's discs), corners, X squares and C squares next to an empty corner (penalties), edge discs made
//! stable by an owned corner, and near the end the parity of the empties (the side that would play last).
//!
//! The weights of [`Weights::default`] were tuned by self-play with `cargo run --release -p tabula-games --example
//! othello_tune -- 3 64 4`: coordinate ascent from hand-set values (mobility 80, potential 30, corner 800, X 300,
//! C 120, stable 150, parity 100), where each candidate (one weight scaled by 3/2 or 2/3) plays 2 x 64 games (both
//! colours, from 64 fixed random 6-ply openings) at depth 4 against the current weights and replaces them when it
//! scores at least 54%. Only the X-square penalty moved (300 to 450, 55.9%); every other candidate scored 39.8% to
//! 53.9%, and rounds 2 and 3 accepted nothing, so these weights are a local optimum of that procedure.

use std::sync::Arc;

use tabula_core::{Evaluator, Game, Score};

use super::endgame::Solver;
use super::weights::PatternWeights;
use super::{Move, Othello, Position};

/// The weight of each feature, in hundredths of a disc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per legal move of difference.
    pub mobility: i32,
    /// Per empty square next to the opponent's discs, minus the same for one's own.
    pub potential_mobility: i32,
    /// Per corner.
    pub corner: i32,
    /// Per disc on an X square (diagonally next to an empty corner), as a penalty.
    pub x_square: i32,
    /// Per disc on a C square (along the edge next to an empty corner), as a penalty.
    pub c_square: i32,
    /// Per edge disc anchored to an owned corner by an unbroken run.
    pub stable: i32,
    /// For being the side that moves last, when few empties remain.
    pub parity: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            mobility: 80,
            potential_mobility: 30,
            corner: 800,
            x_square: 450,
            c_square: 120,
            stable: 150,
            parity: 100,
        }
    }
}

impl Weights {
    /// The weights as a list, in declaration order (for tuning).
    #[must_use]
    pub fn to_array(self) -> [i32; 7] {
        [self.mobility, self.potential_mobility, self.corner, self.x_square, self.c_square, self.stable, self.parity]
    }

    /// Weights from a list in declaration order (for tuning).
    #[must_use]
    pub fn from_array(a: [i32; 7]) -> Weights {
        let [mobility, potential_mobility, corner, x_square, c_square, stable, parity] = a;
        Weights { mobility, potential_mobility, corner, x_square, c_square, stable, parity }
    }
}

/// The corners of a board with their X squares, C squares and the two edge rays leaving them.
#[derive(Clone, Debug)]
struct CornerRegion {
    corner: u128,
    x_square: u128,
    c_squares: u128,
    edges: [Vec<usize>; 2],
}

/// Empties at or below which the parity feature counts.
const PARITY_EMPTIES: u32 = 18;

/// Empties at or below which exact mode hands the 8x8 board to the endgame solver.
pub const SOLVER_EMPTIES: u32 = 64;

/// Empties from which an exact search orders its moves by a search with the learned evaluation.
const ROOT_ORDER_MIN: u32 = 14;

/// Plies of that ordering search.
const ROOT_ORDER_PLIES: u32 = 6;

/// The Othello evaluator; cheap to clone (the endgame table is shared).
#[derive(Clone, Debug)]
pub struct OthelloEval {
    weights: Weights,
    corners: Vec<CornerRegion>,
    patterns: Option<&'static PatternWeights>,
    exact: Option<Exact>,
}

/// What exact mode adds: fastest-first ordering and the endgame solver.
#[derive(Clone, Debug)]
struct Exact {
    solver: Arc<Solver>,
    solver_empties: u32,
}

impl OthelloEval {
    /// The evaluator for play on `game`'s board with the given weights.
    #[must_use]
    pub fn new(game: &Othello, weights: Weights) -> OthelloEval {
        let n = game.size();
        let last = n - 1;
        let corners = [(0, 0, 1i32, 1i32), (last, 0, -1, 1), (0, last, 1, -1), (last, last, -1, -1)]
            .iter()
            .map(|&(x, y, dx, dy)| {
                let at = |x: usize, y: usize| 1u128 << (y * n + x);
                let (nx, ny) = ((x as i32 + dx) as usize, (y as i32 + dy) as usize);
                let sq = y * n + x;
                let geometry = game.geometry();
                let direction = |ddx: i32, ddy: i32| {
                    let d = super::bitboard::DIRECTIONS.iter().position(|&v| v == (ddx, ddy)).unwrap_or(0);
                    geometry.ray(sq, d).to_vec()
                };
                CornerRegion {
                    corner: at(x, y),
                    x_square: at(nx, ny),
                    c_squares: at(nx, y) | at(x, ny),
                    edges: [direction(dx, 0), direction(0, dy)],
                }
            })
            .collect();
        OthelloEval { weights, corners, patterns: patterns_for(game), exact: None }
    }

    /// This evaluator with the hand-set features only, also where the learned patterns apply (for comparisons).
    #[must_use]
    pub fn without_patterns(mut self) -> OthelloEval {
        self.patterns = None;
        self
    }

    /// The evaluator for exact mode: fastest-first ordering and, on 8x8, the endgame solver for the last
    /// [`SOLVER_EMPTIES`] empties, with a table of `2^table_bits` entries.
    #[must_use]
    pub fn exact(game: &Othello, table_bits: u32) -> OthelloEval {
        let mut eval = OthelloEval::new(game, Weights::default());
        eval.exact = Some(Exact { solver: Arc::new(Solver::new(table_bits)), solver_empties: SOLVER_EMPTIES });
        eval
    }

    /// This evaluator handing exact searches to the endgame solver only from `empties` empties down.
    #[must_use]
    pub fn with_solver_empties(mut self, empties: u32) -> OthelloEval {
        if let Some(exact) = &mut self.exact {
            exact.solver_empties = empties;
        }
        self
    }

    /// The weights in use.
    #[must_use]
    pub fn weights(&self) -> Weights {
        self.weights
    }

    /// The weighted features. For anti-Othello, corners and anchored edges turn into liabilities (discs one can
    /// never lose) and the disc count itself counts against the side that has more.
    fn features(&self, game: &Othello, p: u128, o: u128, anti: bool) -> Score {
        let w = &self.weights;
        let empty = game.geometry().full & !(p | o);
        let count = |b: u128| b.count_ones() as i32;
        let mobility = count(game.moves_of(p, o)) - count(game.moves_of(o, p));
        let geometry = game.geometry();
        let potential = count(geometry.frontier_empties(o, empty)) - count(geometry.frontier_empties(p, empty));
        let mut corners = 0;
        let mut x_squares = 0;
        let mut c_squares = 0;
        let mut stable = 0;
        for region in &self.corners {
            if region.corner & empty != 0 {
                x_squares += count(p & region.x_square) - count(o & region.x_square);
                c_squares += count(p & region.c_squares) - count(o & region.c_squares);
                continue;
            }
            let (owner, sign) = if p & region.corner != 0 { (p, 1) } else { (o, -1) };
            corners += sign;
            for edge in &region.edges {
                stable += sign * edge.iter().take_while(|&&s| owner & (1 << s) != 0).count() as i32;
            }
        }
        let empties = empty.count_ones();
        let parity = if empties <= PARITY_EMPTIES { if empties % 2 == 1 { 1 } else { -1 } } else { 0 };
        let positional = w.corner * corners + w.stable * stable - w.x_square * x_squares - w.c_square * c_squares;
        let common = w.mobility * mobility + w.potential_mobility * potential + w.parity * parity;
        if anti {
            common - positional - 100 * (p.count_ones() as i32 - o.count_ones() as i32)
        } else {
            common + positional
        }
    }
}

/// The learned patterns, where they judge `game` (the 8x8 board, most discs winning).
fn patterns_for(game: &Othello) -> Option<&'static PatternWeights> {
    (game.is_8x8() && game.rules().goal == super::Goal::MostDiscs).then(learned_weights).flatten()
}

/// Whether the play evaluation of `game` is the learned one, whose scores are hundredths of a disc of final margin
/// (the hand-set evaluation's are not in discs).
#[must_use]
pub fn judges_in_discs(game: &Othello) -> bool {
    patterns_for(game).is_some()
}

/// The embedded pattern weights, or `None` (said once on standard error) if the build carries a broken file; the
/// tests check that it does not.
fn learned_weights() -> Option<&'static PatternWeights> {
    static WARNED: std::sync::Once = std::sync::Once::new();
    match PatternWeights::embedded() {
        Ok(weights) => Some(weights),
        Err(e) => {
            WARNED.call_once(|| eprintln!("tabula: {e}; Othello falls back to its hand-set evaluation"));
            None
        }
    }
}

impl Evaluator<Othello> for OthelloEval {
    fn evaluate(&self, game: &Othello, state: &Position) -> Score {
        if game.in_free_opening(state) {
            return 0;
        }
        if let Some(patterns) = self.patterns {
            return patterns.evaluate(state.player() as u64, state.opponent() as u64);
        }
        self.features(game, state.player(), state.opponent(), game.rules().goal == super::Goal::FewestDiscs)
    }

    /// In exact mode the moves come sorted, best first: on 8x8 with many empties by a [`ROOT_ORDER_PLIES`]-ply
    /// search with the learned patterns, else by a one-ply look with the play evaluation. The searcher takes the
    /// root moves in this order, and the first one gets the full window: a good first move is most of the solve
    /// (on FFO #40-#44 this order saves a fifth of the nodes over the one-ply look).
    fn search_moves(&self, game: &Othello, state: &Position, moves: &mut Vec<Move>) {
        game.legal_moves(state, moves);
        let anti = game.rules().goal == super::Goal::FewestDiscs;
        if self.exact.is_some()
            && game.is_8x8()
            && !anti
            && moves.len() > 1
            && game.empties(state) >= ROOT_ORDER_MIN
            && !game.in_free_opening(state)
        {
            moves.sort_by_cached_key(|&mv| {
                let mut after = state.clone();
                game.make(&mut after, mv);
                let (p, o) = (after.player() as u64, after.opponent() as u64);
                Solver::estimate(p, o, ROOT_ORDER_PLIES).unwrap_or(0)
            });
            return;
        }
        if self.exact.is_some() && moves.len() > 1 {
            moves.sort_by_cached_key(|&mv| {
                let mut after = state.clone();
                game.make(&mut after, mv);
                self.features(game, after.player(), after.opponent(), anti)
            });
        }
    }

    fn move_score(&self, game: &Othello, state: &Position, mv: Move) -> i32 {
        let Some(sq) = mv.square() else {
            return 0;
        };
        let (p, o) = (state.player(), state.opponent());
        let bit = 1u128 << sq;
        if self.exact.is_some() {
            // Fastest first: the fewer replies the opponent has, the smaller the subtree.
            let f = if game.in_free_opening(state) { 0 } else { game.flips_of(p, o, sq) };
            let reply = game.moves_of(o ^ f, p ^ f ^ bit);
            let corner = self.corners.iter().any(|r| r.corner == bit);
            return -(reply.count_ones() as i32) * 16 + if corner { 8 } else { 0 };
        }
        for region in &self.corners {
            if region.corner == bit {
                return 3;
            }
            if region.corner & (p | o) == 0 && (region.x_square == bit) {
                return -2;
            }
            if region.corner & (p | o) == 0 && region.c_squares & bit != 0 {
                return -1;
            }
        }
        0
    }

    /// A pass costs no depth, as in Zebra and Edax: the side that must pass has no choice, and a search that
    /// counted it would see one real ply less on every line through it.
    fn is_forcing(&self, _game: &Othello, _state: &Position, mv: Move) -> bool {
        mv.is_pass()
    }

    fn parallel_solve(&self, game: &Othello, threads: usize) -> bool {
        // The solver plays the 8x8 board only; elsewhere the searcher's own threads do the work.
        self.exact.as_ref().filter(|_| game.is_8x8()).is_some_and(|exact| {
            exact.solver.set_threads(threads);
            true
        })
    }

    fn solve_exactly(
        &self,
        game: &Othello,
        state: &mut Position,
        alpha: Score,
        beta: Score,
        nodes: &mut u64,
        should_stop: &mut dyn FnMut(u64) -> bool,
    ) -> Option<Score> {
        let exact = self.exact.as_ref()?;
        if !game.is_8x8() || game.in_free_opening(state) || game.empties(state) > exact.solver_empties {
            return None;
        }
        let anti = game.rules().goal == super::Goal::FewestDiscs;
        exact.solver.solve(state.player() as u64, state.opponent() as u64, alpha, beta, anti, nodes, should_stop)
    }
}

#[cfg(test)]
mod tests {
    use tabula_core::{Game, GameResult, Level, Limits, Searcher, score};

    use super::*;
    use crate::board::BoardGame;
    use crate::othello::{BoardSize, Goal, Rules};

    /// Positions after a few seeded random moves.
    fn positions(game: &Othello) -> Vec<Position> {
        let mut rng = tabula_core::random::seeded(0x2545_F491_4F6C_DD1D);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..20 {
            let mut state = game.initial_state();
            for _ in 0..12 {
                moves.clear();
                game.legal_moves(&state, &mut moves);
                if game.outcome(&state).is_some() {
                    break;
                }
                game.make(&mut state, moves[rand::Rng::random_range(&mut rng, 0..moves.len())]);
            }
            out.push(state);
        }
        out
    }

    /// Negamax without pruning in which a pass costs no depth, as a level's search should count it; `passes`
    /// counts the passes met, so a test can check that its positions have some.
    fn free_pass_negamax(
        game: &Othello,
        eval: &OthelloEval,
        state: &mut Position,
        depth: i32,
        ply: u32,
    ) -> (Score, u32) {
        if let Some(outcome) = game.outcome(state) {
            let value = match outcome.result {
                GameResult::Draw => 0,
                GameResult::Win(w) if w == game.side_to_move(state) => score::mate_in(ply),
                GameResult::Win(_) => score::mated_in(ply),
            };
            return (value, 0);
        }
        if depth == 0 {
            return (eval.evaluate(game, state), 0);
        }
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        let (mut best, mut passes) = (-score::INFINITY, 0);
        for mv in moves {
            let cost = i32::from(!mv.is_pass());
            passes += u32::from(mv.is_pass());
            let undo = game.make(state, mv);
            let (value, below) = free_pass_negamax(game, eval, state, depth - cost, ply + 1);
            game.unmake(state, mv, undo);
            best = best.max(-value);
            passes += below;
        }
        (best, passes)
    }

    /// A level's search counts no depth for a pass, as Zebra and Edax do: near the end, where passes are common,
    /// its value equals that of negamax with free passes.
    #[test]
    fn a_pass_costs_no_depth() {
        let game = Othello::default();
        let eval = OthelloEval::new(&game, Weights::default());
        let options = Level::custom(3).options(0);
        let mut rng = tabula_core::random::seeded(7);
        let (mut checked, mut passes) = (0, 0);
        while checked < 40 {
            let mut state = game.initial_state();
            let mut moves = Vec::new();
            while game.outcome(&state).is_none() && game.empties(&state) > 11 {
                moves.clear();
                game.legal_moves(&state, &mut moves);
                game.make(&mut state, moves[rand::Rng::random_range(&mut rng, 0..moves.len())]);
            }
            if game.outcome(&state).is_some() || game.pass_move(&state).is_some() {
                continue;
            }
            let (expected, met) = free_pass_negamax(&game, &eval, &mut state.clone(), 3, 0);
            let mut searcher = Searcher::new(&game, 1);
            let found = searcher.search(&game, &eval, &state, &Limits::depth(3), &options, &mut |_| {});
            assert_eq!(found.score, expected, "{state:?}");
            checked += 1;
            passes += met;
        }
        assert!(passes > 0, "no position's tree has a pass");
    }

    #[test]
    fn the_learned_patterns_judge_8x8_and_the_hand_features_the_rest() {
        let game = Othello::default();
        let eval = OthelloEval::new(&game, Weights::default());
        let weights = PatternWeights::embedded().expect("the embedded weights load");
        let hand = eval.clone().without_patterns();
        let mut differ = 0;
        for state in positions(&game) {
            let learned = weights.evaluate(state.player() as u64, state.opponent() as u64);
            assert_eq!(eval.evaluate(&game, &state), learned);
            differ += usize::from(hand.evaluate(&game, &state) != learned);
        }
        assert!(differ > 10);
        for rules in [
            Rules { goal: Goal::FewestDiscs, ..Rules::default() },
            Rules { size: BoardSize::Six, ..Rules::default() },
            Rules { size: BoardSize::Ten, ..Rules::default() },
        ] {
            let game = Othello::new(rules);
            let eval = OthelloEval::new(&game, Weights::default());
            let hand = eval.clone().without_patterns();
            for state in positions(&game) {
                assert_eq!(eval.evaluate(&game, &state), hand.evaluate(&game, &state), "{rules:?}");
            }
        }
    }
}
