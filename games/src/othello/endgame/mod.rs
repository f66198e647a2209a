//! The exact endgame solver for the 8x8 board: the fast path behind [`tabula_core::Evaluator::solve_exactly`].
//!
//! A wide window with many empties is narrowed by null-window searches only ([`WINDOW_MIN`]). Two regimes, as in
//! Edax:
//! - Many empties: principal-variation search; a transposition table of bounds and best moves from
//!   [`TABLE_MIN`] empties, its entry prefetched before move generation; enhanced transposition cutoffs from
//!   [`ETC_MIN`] (the children's entries prefetched while the moves are ordered); a stability cutoff (the
//!   opponent's stable discs bound the result). Moves are ordered table move first, then fastest first (the
//!   opponent's weighted mobility after the move, then potential mobility, corner stability and parity); from
//!   [`EVAL_SORT_MIN`] empties by a two-ply look with the play evaluator's features and tuned weights, plus the
//!   opponent's mobility, and from [`PATTERN_SORT_MIN`] by a search of two to four plies with the learned pattern
//!   evaluation instead (with the most empties the better order pays for the costlier look: about 30% fewer nodes
//!   and 15% less time on FFO #40-#44).
//! - The last [`SHALLOW`] empties: no move generation, the empties tried in parity order (odd quadrants first) and
//!   skipped at once when no opponent disc is next to them, and the stability cutoff; from four empties the squares
//!   are taken out once and handed down (`solve3` and `solve2`, each trying the opponent's moves on a pass), and
//!   the last empty is scored by counting flips alone.
//!
//! Scores are final disc margins (empties to the winner) from the view of the side to move, negated for
//! anti-Othello. This module is the driver (windows, the tier the CPU allows); `tiers` holds the search itself,
//! `table` the transposition table and `parallel` the search on several threads.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

mod parallel;
mod table;
mod tiers;

use super::weights;
use tiers::portable;
#[cfg(target_arch = "x86_64")]
use tiers::x86;

/// Empties at or below which the parity-ordered search without move generation takes over.
const SHALLOW: u32 = 6;

/// Empties from which results are kept in the solver's transposition table.
const TABLE_MIN: u32 = 8;

/// Empties from which children are looked up in the table before any is searched.
const ETC_MIN: u32 = 12;

/// Empties from which moves are ordered by a two-ply look with the play evaluator's features.
const EVAL_SORT_MIN: u32 = 12;

/// Empties from which moves are ordered by a search with the learned evaluation ([`pattern_sort_plies`] deep),
/// where the patterns apply (the most discs win).
const PATTERN_SORT_MIN: u32 = 16;

/// Plies of the ordering search with the learned evaluation at a node with `empties` empties: deeper where the
/// subtree is larger (two at 16 empties, three from 17, four from 20), as Zebra and Edax do.
fn pattern_sort_plies(empties: u32) -> u32 {
    match empties {
        ..=16 => 2,
        17..=19 => 3,
        _ => 4,
    }
}

/// More than any quick estimate for ordering (`look`).
const GUESS_MAX: i32 = 1 << 20;

/// Empties from which a wide window is solved by a series of null-window searches.
const WINDOW_MIN: u32 = 12;

/// More than any score.
const INF: i32 = 100;

/// The four quadrants, for parity ordering.
const QUADRANTS: [u64; 4] = [0x0F0F_0F0F, 0xF0F0_F0F0, 0x0F0F_0F0F << 32, 0xF0F0_F0F0 << 32];

/// The corners.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Empties from which a node may share its moves with idle helper threads (once its first move is searched).
const SPLIT_MIN: u32 = 13;

/// The exact endgame solver with its own transposition table (lock-free, so a shared `&Solver` can store).
///
/// Given more than one thread ([`Solver::set_threads`]) it searches in parallel as Edax does (young brothers
/// wait): a node with many empties searches its first move alone, and when that does not cut off, idle helper
/// threads join it and take its remaining moves one by one, sharing the window; a cutoff by any of them ends
/// the others' work. A helper's own nodes split again while threads are idle.
pub struct Solver {
    /// Entries of two words: `key ^ data` and `data`, so a torn write is detected as a miss.
    table: Vec<[AtomicU64; 2]>,
    /// Helper threads free to join a split node.
    idle: AtomicUsize,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver").field("entries", &self.table.len()).finish()
    }
}

/// The final score with the empties going to the winner, from the view of the owner of `p`.
#[inline(always)]
fn final_score(p: u64, o: u64, anti: bool) -> i32 {
    let (pc, oc) = (p.count_ones() as i32, o.count_ones() as i32);
    let diff = pc - oc;
    let empties = 64 - pc - oc;
    let most = if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    };
    if anti { -most } else { most }
}

/// Nodes between two calls of the caller's stop check: rare enough to cost nothing, often enough to stop within
/// about a millisecond.
const POLL_INTERVAL: u64 = 1 << 14;

/// Per-call state: the goal, the node count and the caller's stop check.
struct Context<'a> {
    anti: bool,
    nodes: u64,
    /// The node count at which to ask `should_stop` next; 0 once stopped, so that every node ends at once.
    next_poll: u64,
    stopped: bool,
    should_stop: &'a mut dyn FnMut(u64) -> bool,
    /// The learned evaluation for ordering with many empties, where it applies (not in anti-Othello).
    patterns: Option<&'static weights::PatternWeights>,
}

impl<'a> Context<'a> {
    fn new(anti: bool, should_stop: &'a mut dyn FnMut(u64) -> bool) -> Self {
        let patterns = if anti { None } else { weights::PatternWeights::embedded().ok() };
        Context { anti, nodes: 0, next_poll: POLL_INTERVAL, stopped: false, should_stop, patterns }
    }

    /// Asks the caller whether to stop, and stays stopped once told to: the values found from then on are garbage,
    /// never to be stored or returned.
    #[cold]
    #[inline(never)]
    fn poll(&mut self) -> bool {
        self.stopped = self.stopped || (self.should_stop)(self.nodes);
        self.next_poll = if self.stopped { 0 } else { self.nodes + POLL_INTERVAL };
        self.stopped
    }
}
impl Solver {
    /// A solver whose table holds `2^bits` entries (16 bytes each).
    #[must_use]
    pub fn new(bits: u32) -> Solver {
        Solver { table: tabula_core::table::huge_page_table(1usize << bits), idle: AtomicUsize::new(0) }
    }

    /// Forgets the stored results.
    pub fn clear(&self) {
        for slot in &self.table {
            slot[0].store(0, Ordering::Relaxed);
            slot[1].store(0, Ordering::Relaxed);
        }
    }

    /// The exact value of the position with `p` to move against `o` (fail-soft within `alpha..beta`): the final
    /// disc margin under perfect play, negated for anti-Othello. Adds the nodes visited to `nodes`. Every few
    /// thousand nodes it asks `should_stop` (with the nodes so far); on `true` it gives up and returns `None`,
    /// storing nothing it found since.
    #[allow(clippy::too_many_arguments, reason = "the position, window and goal, then the caller's accounting")]
    pub fn solve(
        &self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        anti: bool,
        nodes: &mut u64,
        should_stop: &mut dyn FnMut(u64) -> bool,
    ) -> Option<i32> {
        let mut ctx = Context::new(anti, should_stop);
        let alpha = alpha.clamp(-INF, INF);
        let beta = beta.clamp(-INF, INF);
        let value = if beta - alpha > 2 && (!(p | o)).count_ones() >= WINDOW_MIN {
            self.zero_windows(&mut ctx, p, o, alpha, beta)
        } else {
            Self::dispatch(self, &mut ctx, p, o, alpha, beta)
        };
        *nodes += ctx.nodes;
        (!ctx.stopped).then_some(value)
    }

    /// A wide window solved by null-window searches only (MTD(f) over the even scores): each probe around a test
    /// score `t` finds the value is `t`, above it or below it, and the fail-soft result (pushed further by a
    /// doubling step while the probes keep failing the same way) is the next test. Far cheaper than a full-window
    /// search, whose first line keeps the whole window all the way down.
    fn zero_windows(&self, ctx: &mut Context, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let (mut lower, mut upper) = (-64, 64);
        let mut test = 0.clamp(alpha, beta);
        // Positive while the probes fail high, negative while they fail low.
        let mut step = 0;
        while lower < upper && lower < beta && upper > alpha {
            let value = Self::dispatch(self, ctx, p, o, test - 1, test + 1);
            if ctx.stopped {
                break;
            }
            if value > test {
                step = if step > 0 { step * 2 } else { 2 };
                lower = value;
                test = value + step - 2;
            } else if value < test {
                step = if step < 0 { step * 2 } else { -2 };
                upper = value;
                test = value + step + 2;
            } else {
                return value;
            }
            test = test.clamp(lower, upper);
        }
        if lower >= beta { lower } else { upper }
    }

    /// The learned evaluation of `p` to move against `o` searched `plies` deep, in hundredths of a disc, where it
    /// applies (the most discs win): an estimate for ordering the moves of a position about to be solved.
    #[must_use]
    pub fn estimate(p: u64, o: u64, plies: u32) -> Option<i32> {
        let patterns = weights::PatternWeights::embedded().ok()?;
        #[cfg(target_arch = "x86_64")]
        if super::bitboard::has_x86_features() {
            // SAFETY: the CPU has every feature the `x86` tiers were compiled for.
            return Some(unsafe { x86::estimate(p, o, plies, patterns) });
        }
        Some(portable::estimate(p, o, plies, patterns))
    }

    fn dispatch(&self, ctx: &mut Context, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if super::bitboard::has_x86_features() {
            // SAFETY: the CPU has every feature the `x86` tiers were compiled for.
            return unsafe { x86::search(self, ctx, p, o, alpha, beta, false) };
        }
        portable::search(self, ctx, p, o, alpha, beta, false)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::othello::bitboard::{flips, moves};

    /// Random 64-bit words from a seed, for random positions.
    pub(crate) fn random_words(seed: u64) -> impl FnMut() -> u64 {
        let mut rng = tabula_core::random::seeded(seed);
        move || rand::Rng::random(&mut rng)
    }

    /// A position reached by random play from the start, down to `empties` empties or the end of the game.
    fn random_playout(next: &mut impl FnMut() -> u64, empties: u32) -> (u64, u64) {
        let (mut p, mut o) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
        while (!(p | o)).count_ones() > empties {
            let legal = moves(p, o);
            if legal == 0 {
                if moves(o, p) == 0 {
                    break;
                }
                (p, o) = (o, p);
                continue;
            }
            let mut rest = legal;
            for _ in 0..next() % u64::from(legal.count_ones()) {
                rest &= rest - 1;
            }
            let sq = rest.trailing_zeros() as usize;
            let f = flips(p, o, sq);
            (p, o) = (o ^ f, p ^ f ^ (1 << sq));
        }
        (p, o)
    }

    /// Null-window narrowing must give the full-window value inside the window and a correct bound outside it.
    #[test]
    fn zero_windows_agree_with_a_full_window_search() {
        let mut next = random_words(0x5DEE_CE66_D1CE_4E5B);
        let mut never = |_: u64| false;
        for _ in 0..40 {
            let target = WINDOW_MIN + (next() % 3) as u32;
            let (p, o) = random_playout(&mut next, target);
            let anti = next().is_multiple_of(2);
            let solver = Solver::new(12);
            let mut ctx = Context::new(anti, &mut never);
            let exact = solver.dispatch(&mut ctx, p, o, -INF, INF);
            let alpha = (next() % 80) as i32 - 50;
            let beta = alpha + 3 + (next() % 40) as i32;
            for (a, b) in [(-INF, INF), (alpha, beta)] {
                solver.clear();
                let value = solver.solve(p, o, a, b, anti, &mut 0, &mut never).expect("never stopped");
                assert_fail_soft(value, exact, a, b, &format!("p={p:#x} o={o:#x} ({a}, {b})"));
            }
        }
    }

    /// A fail-soft result `value` of a search in (`alpha`, `beta`) must be the `exact` value inside the window and
    /// a correct bound on it outside.
    fn assert_fail_soft(value: i32, exact: i32, alpha: i32, beta: i32, context: &str) {
        if value <= alpha {
            assert!(exact <= value, "{context}: {value} vs {exact}");
        } else if value >= beta {
            assert!(exact >= value, "{context}: {value} vs {exact}");
        } else {
            assert_eq!(value, exact, "{context}");
        }
    }

    /// Plain negamax over the bitboards: the exact final margin with `p` to move.
    fn reference(p: u64, o: u64, anti: bool, passed: bool) -> i32 {
        let legal = moves(p, o);
        if legal == 0 {
            return if passed { final_score(p, o, anti) } else { -reference(o, p, anti, true) };
        }
        let mut best = -INF;
        let mut rest = legal;
        while rest != 0 {
            let sq = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let f = flips(p, o, sq);
            best = best.max(-reference(o ^ f, p ^ f ^ (1 << sq), anti, false));
        }
        best
    }

    /// Random discs on a board with `empties` empty squares (any position, not necessarily reachable).
    fn random_board(next: &mut impl FnMut() -> u64, empties: u32) -> (u64, u64) {
        let mut empty = 0u64;
        while empty.count_ones() < empties {
            empty |= 1 << (next() % 64);
        }
        let mask = next();
        (!empty & mask, !empty & !mask)
    }

    /// The tiers for the last six empties must give the exact value inside the window and a correct bound outside
    /// it, passes and wipe-outs included.
    #[test]
    fn last_empties_agree_with_plain_negamax() {
        let mut next = random_words(0x9E37_79B9_7F4A_7C15);
        let mut never = |_: u64| false;
        for i in 0..20_000 {
            let empties = 1 + i % SHALLOW;
            let (mut p, mut o) = random_board(&mut next, empties);
            if i % 5 == 0 {
                // Few discs for one side, so that passes and wipe-outs happen.
                let keep = next() & next();
                (p, o) = (p | (o & !keep), o & keep);
            }
            let anti = i % 7 == 0;
            let exact = reference(p, o, anti, false);
            let alpha = (next() % 130) as i32 - 65;
            let beta = if i % 2 == 0 { alpha + 1 } else { alpha + 1 + (next() % 60) as i32 };
            let mut ctx = Context::new(anti, &mut never);
            let value = portable::search(&Solver::new(1), &mut ctx, p, o, alpha, beta, false);
            assert_fail_soft(value, exact, alpha, beta, &format!("p={p:#x} o={o:#x} anti={anti} ({alpha}, {beta})"));
        }
    }

    /// The portable tiers must agree with the ones the CPU picks (on x86-64 with AVX2, the other build).
    #[test]
    fn portable_and_dispatched_tiers_agree() {
        let mut next = random_words(0x2545_F491_4F6C_DD1D);
        let mut never = |_: u64| false;
        for _ in 0..300 {
            let target = 6 + (next() % 7) as u32;
            let (p, o) = random_playout(&mut next, target);
            let solver = Solver::new(8);
            let mut ctx = Context::new(next().is_multiple_of(2), &mut never);
            let portable = portable::search(&solver, &mut ctx, p, o, -INF, INF, false);
            solver.clear();
            assert_eq!(solver.dispatch(&mut ctx, p, o, -INF, INF), portable, "p={p:#x} o={o:#x}");
        }
    }
}
