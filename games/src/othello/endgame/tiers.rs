//! The solver's search, node by node, compiled once portably and once for x86-64 with AVX2.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

use super::parallel::Split;
use super::table::{Bounds, key_of};
use super::*;
use crate::othello::bitboard::{NEIGHBOURS, flips, frontier_empties, last_flip_count, moves, stable};
use crate::othello::eval::Weights;
use crate::othello::weights::PatternWeights;

/// The search tiers, compiled twice: portably, and on x86-64 with the bit-counting instructions (`popcnt`,
/// `lzcnt`), which the baseline target lacks and which make the solver about a third faster. The solver picks
/// the second copy when the CPU has them.
macro_rules! tiers {
    ($moves:ident, $flips:ident $(, #[$attr:meta])*) => {
        /// Fastest-first search with many empties (with the table from [`TABLE_MIN`] empties).
        $(#[$attr])*
        pub(crate) fn search(
            solver: &Solver,
            ctx: &mut Context,
            p: u64,
            o: u64,
            mut alpha: i32,
            mut beta: i32,
            passed: bool,
        ) -> i32 {
            let empty = !(p | o);
            let n = empty.count_ones();
            if n <= SHALLOW {
                return shallow(ctx, p, o, alpha, beta, passed);
            }
            ctx.nodes += 1;
            if ctx.nodes >= ctx.next_poll && ctx.poll() {
                return 0;
            }
            let use_table = n >= TABLE_MIN;
            let key = if use_table { key_of(p, o) } else { 0 };
            if use_table {
                solver.prefetch(key);
            }
            let legal = $moves(p, o);
            if legal == 0 {
                if passed {
                    return final_score(p, o, ctx.anti);
                }
                return -search(solver, ctx, o, p, -beta, -alpha, true);
            }

            // The table: a stored bound may settle the node; its best move goes first.
            let mut table_move = None;
            if use_table && let Some(b) = solver.probe(key) {
                if b.lower >= beta {
                    return b.lower;
                }
                if b.upper <= alpha || b.lower == b.upper {
                    return b.upper;
                }
                table_move = b.best;
                alpha = alpha.max(b.lower);
                beta = beta.min(b.upper);
            }

            if let Some(bound) = stability_cutoff(p, o, alpha, ctx.anti) {
                return bound;
            }

            // Order: table move, then fastest first (the opponent's weighted mobility), then the opponent's potential
            // mobility, corner stability and parity; with many empties a two-ply look with the play evaluator instead.
            let parity = odd_quadrants(empty);
            let mut list = [(0usize, 0u64, 0i32); 32];
            let mut keys = [0u64; 32];
            let mut count = 0;
            let mut rest = legal;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let f = $flips(p, o, sq);
                let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                // The children's entries load while the moves are ordered: for the transposition cutoff below, and
                // so that a child's own probe finds its entry in the cache.
                if n > TABLE_MIN {
                    keys[count] = key_of(np, no);
                    solver.prefetch(keys[count]);
                }
                let reply = $moves(np, no);
                let score = if Some(sq) == table_move {
                    1 << 30
                } else if let Some(patterns) = ctx.patterns.filter(|_| n >= PATTERN_SORT_MIN) {
                    let plies = pattern_sort_plies(n) - 1;
                    let leaf = |p, o, _| patterns.evaluate(p, o);
                    -look(np, no, plies, -GUESS_MAX, GUESS_MAX, &leaf) * 32
                        - (reply.count_ones() as i32) * 2048
                } else if n >= EVAL_SORT_MIN {
                    -look(np, no, 1, -GUESS_MAX, GUESS_MAX, &|p, o, legal| hand_features(p, o, legal)) * 8
                        - (reply.count_ones() as i32) * 1024
                } else {
                    -((reply.count_ones() + (reply & CORNERS).count_ones()) as i32) * 1024
                        - (frontier_empties(no, !(np | no)).count_ones() as i32) * 16
                        + corner_stability(no) * 64
                        + if parity & (1 << sq) != 0 { 8 } else { 0 }
                };
                list[count] = (sq, f, score);
                count += 1;
            }
            // Enhanced transposition cutoff: a child already known bad enough for the opponent settles the node.
            if n >= ETC_MIN {
                for &key in &keys[..count] {
                    if let Some(child) = solver.probe(key)
                        && -child.upper >= beta
                    {
                        return -child.upper;
                    }
                }
            }

            let original_alpha = alpha;
            let mut best = -INF;
            let mut best_move = None;
            for i in 0..count {
                if i == 1 && n >= SPLIT_MIN && count > 2 {
                    let helpers = solver.reserve(count - 2);
                    if helpers > 0 {
                        // The first move did not cut off: idle threads share the rest.
                        list[1..count].sort_unstable_by_key(|m| std::cmp::Reverse(m.2));
                        let work = Split {
                            moves: &list[1..count],
                            next: AtomicUsize::new(0),
                            alpha: AtomicI32::new(alpha),
                            beta,
                            abort: AtomicBool::new(false),
                        };
                        let (value, sq) = solver.split(ctx, p, o, &work, helpers);
                        solver.release(helpers);
                        if ctx.stopped {
                            return 0;
                        }
                        if value > best {
                            best = value;
                            best_move = sq;
                        }
                        break;
                    }
                }
                // Selection sort on the fly: most nodes cut off after a move or two.
                let pick = (i..count).max_by_key(|&j| list[j].2).unwrap_or(i);
                list.swap(i, pick);
                let (sq, f, _) = list[i];
                let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                let value = if i == 0 {
                    -search(solver, ctx, np, no, -beta, -alpha, false)
                } else {
                    let probe = -search(solver, ctx, np, no, -alpha - 1, -alpha, false);
                    if probe > alpha && probe < beta {
                        -search(solver, ctx, np, no, -beta, -alpha, false)
                    } else {
                        probe
                    }
                };
                if ctx.stopped {
                    return 0;
                }
                if value > best {
                    best = value;
                    best_move = Some(sq);
                    if value > alpha {
                        alpha = value;
                        if value >= beta {
                            break;
                        }
                    }
                }
            }
            if use_table {
                let (lower, upper) = if best >= beta {
                    (best, 64)
                } else if best > original_alpha {
                    (best, best)
                } else {
                    (-64, best)
                };
                solver.store(key, Bounds { lower, upper, best: best_move });
            }
            best
        }

        /// One thread's share of a split node: moves taken one by one until none is left or the node is decided,
        /// each searched in a null window at the shared alpha and again in the full one when it lands inside.
        $(#[$attr])*
        pub(crate) fn split_worker(
            solver: &Solver,
            ctx: &mut Context,
            p: u64,
            o: u64,
            work: &Split,
        ) -> (i32, Option<usize>) {
            let (mut best, mut best_move) = (-INF, None);
            let beta = work.beta;
            while !work.abort.load(Ordering::Relaxed) {
                let Some(&(sq, f, _)) = work.moves.get(work.next.fetch_add(1, Ordering::Relaxed)) else {
                    break;
                };
                let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                let alpha = work.alpha.load(Ordering::Relaxed);
                let probe = -search(solver, ctx, np, no, -alpha - 1, -alpha, false);
                let value = if probe > alpha && probe < beta {
                    -search(solver, ctx, np, no, -beta, -alpha, false)
                } else {
                    probe
                };
                if ctx.stopped {
                    break;
                }
                if value > best {
                    (best, best_move) = (value, Some(sq));
                }
                if value > alpha {
                    work.alpha.fetch_max(value, Ordering::Relaxed);
                    if value >= beta {
                        work.abort.store(true, Ordering::Relaxed);
                    }
                }
            }
            (best, best_move)
        }

        /// An alpha-beta search `depth` plies deep from the view of the owner of `p`, its leaves judged by `leaf`
        /// (given the position and the legal moves of the side to move there): the ordering estimate with many
        /// empties.
        $(#[$attr])*
        fn look(p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32, leaf: &impl Fn(u64, u64, u64) -> i32) -> i32 {
            let legal = $moves(p, o);
            if depth == 0 || legal == 0 {
                return leaf(p, o, legal);
            }
            let mut best = -GUESS_MAX;
            let mut rest = legal;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let f = $flips(p, o, sq);
                let value = -look(o ^ f, p ^ f ^ (1 << sq), depth - 1, -beta, -alpha, leaf);
                if value > best {
                    best = value;
                    if value > alpha {
                        alpha = value;
                        if value >= beta {
                            break;
                        }
                    }
                }
            }
            best
        }

        /// The learned evaluation searched `depth` plies from the view of the owner of `p`, in hundredths of a
        /// disc: the order of an exact search's root moves.
        $(#[$attr])*
        pub(crate) fn estimate(p: u64, o: u64, depth: u32, patterns: &PatternWeights) -> i32 {
            look(p, o, depth, -GUESS_MAX, GUESS_MAX, &|p, o, _| patterns.evaluate(p, o))
        }

        /// The play evaluator's features and weights ([`Weights::default`]) from the view of the owner of `p`,
        /// whose legal moves are `legal`: the quick leaf estimate for ordering.
        $(#[$attr])*
        fn hand_features(p: u64, o: u64, legal: u64) -> i32 {
            let w = Weights::default();
            let theirs = $moves(o, p);
            let empty = !(p | o);
            let mobility = legal.count_ones() as i32 - theirs.count_ones() as i32;
            let potential =
                frontier_empties(o, empty).count_ones() as i32 - frontier_empties(p, empty).count_ones() as i32;
            let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
            let open = empty & CORNERS;
            let x = ((open & 0x01) << 9) | ((open & 0x80) << 7) | ((open & 1 << 56) >> 7) | ((open & 1 << 63) >> 9);
            let c = ((open & 0x0100_0000_0000_0001) << 1)
                | ((open & 0x8000_0000_0000_0080) >> 1)
                | ((open & 0x81) << 8)
                | ((open & 0x81 << 56) >> 8);
            let x_squares = (p & x).count_ones() as i32 - (o & x).count_ones() as i32;
            let c_squares = (p & c).count_ones() as i32 - (o & c).count_ones() as i32;
            let anchored = corner_stability(p) - corner_stability(o) - corners;
            w.mobility * mobility + w.potential_mobility * potential + w.corner * corners
                - w.x_square * x_squares
                - w.c_square * c_squares
                + w.stable * anchored
        }

        /// The last few empties: no move generation, the squares taken out once, those in odd quadrants first
        /// (with four empties only the 2-1-1 split needs sorting), and from four empties handed down without
        /// scanning the board again.
        $(#[$attr])*
        fn shallow(ctx: &mut Context, p: u64, o: u64, mut alpha: i32, beta: i32, passed: bool) -> i32 {
            let empty = !(p | o);
            let n = empty.count_ones() as usize;
            match n {
                0 => return final_score(p, o, ctx.anti),
                1 => return last(ctx, p, o, empty.trailing_zeros() as usize),
                2 => {
                    let x1 = empty.trailing_zeros() as usize;
                    return solve2(ctx, p, o, alpha, beta, x1, (empty & (empty - 1)).trailing_zeros() as usize);
                }
                3 => return solve3(ctx, p, o, alpha, beta, squares3(empty)),
                _ => {}
            }
            ctx.nodes += 1;
            if n > 4
                && let Some(bound) = stability_cutoff(p, o, alpha, ctx.anti)
            {
                return bound;
            }
            let odd = odd_quadrants(empty);
            let mut xs = [0usize; SHALLOW as usize];
            let mut k = 0;
            for group in [empty & odd, empty & !odd] {
                let mut rest = group;
                while rest != 0 {
                    xs[k] = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    k += 1;
                }
            }
            let mut best = -INF;
            for i in 0..n {
                let sq = xs[i];
                if NEIGHBOURS[sq] & o == 0 {
                    continue;
                }
                let f = $flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                let value = if n == 4 {
                    // The other three squares: the first takes the place of the one played.
                    let mut others = [xs[1], xs[2], xs[3]];
                    if i > 0 {
                        others[i - 1] = xs[0];
                    }
                    -solve3(ctx, np, no, -beta, -alpha, others)
                } else {
                    -shallow(ctx, np, no, -beta, -alpha, false)
                };
                if value > best {
                    best = value;
                    if value > alpha {
                        alpha = value;
                        if value >= beta {
                            return best;
                        }
                    }
                }
            }
            if best == -INF {
                if passed {
                    return final_score(p, o, ctx.anti);
                }
                return -shallow(ctx, o, p, -beta, -alpha, true);
            }
            best
        }

        /// Three empties `xs`: the one alone in its quadrant first.
        $(#[$attr])*
        fn solve3(ctx: &mut Context, p: u64, o: u64, alpha: i32, beta: i32, xs: [usize; 3]) -> i32 {
            ctx.nodes += 1;
            let xs = parity_order(xs);
            if let Some(value) = moves3(ctx, p, o, alpha, beta, xs) {
                return value;
            }
            // A pass: the opponent tries the same squares; if neither can move, the game is over.
            moves3(ctx, o, p, -beta, -alpha, xs).map_or_else(|| final_score(p, o, ctx.anti), |v| -v)
        }

        /// The best of the moves of `p` on the three empties `xs`, or `None` when it has none.
        $(#[$attr])*
        fn moves3(
            ctx: &mut Context,
            p: u64,
            o: u64,
            mut alpha: i32,
            beta: i32,
            [x1, x2, x3]: [usize; 3],
        ) -> Option<i32> {
            let mut best = -INF;
            for (sq, a, b) in [(x1, x2, x3), (x2, x1, x3), (x3, x1, x2)] {
                if NEIGHBOURS[sq] & o == 0 {
                    continue;
                }
                let f = $flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                let value = -solve2(ctx, o ^ f, p ^ f ^ (1 << sq), -beta, -alpha, a, b);
                if value > best {
                    best = value;
                    if value > alpha {
                        alpha = value;
                        if value >= beta {
                            break;
                        }
                    }
                }
            }
            (best > -INF).then_some(best)
        }

        /// Two empties `x1` and `x2`.
        $(#[$attr])*
        fn solve2(ctx: &mut Context, p: u64, o: u64, alpha: i32, beta: i32, x1: usize, x2: usize) -> i32 {
            ctx.nodes += 1;
            if let Some(value) = moves2(ctx, p, o, beta, x1, x2) {
                return value;
            }
            // A pass: the opponent tries both squares; if neither can move, the game is over.
            moves2(ctx, o, p, -alpha, x1, x2).map_or_else(|| final_score(p, o, ctx.anti), |v| -v)
        }

        /// The best of the moves of `p` on the two empties, or `None` when it has none.
        $(#[$attr])*
        fn moves2(ctx: &mut Context, p: u64, o: u64, beta: i32, x1: usize, x2: usize) -> Option<i32> {
            let mut best = None;
            if NEIGHBOURS[x1] & o != 0 {
                let f = $flips(p, o, x1);
                if f != 0 {
                    let value = -last(ctx, o ^ f, p ^ f ^ (1 << x1), x2);
                    if value >= beta {
                        return Some(value);
                    }
                    best = Some(value);
                }
            }
            if NEIGHBOURS[x2] & o != 0 {
                let f = $flips(p, o, x2);
                if f != 0 {
                    let value = -last(ctx, o ^ f, p ^ f ^ (1 << x2), x1);
                    return Some(best.map_or(value, |b: i32| b.max(value)));
                }
            }
            best
        }

        /// The last empty square `sq`: whoever can, plays it; the result needs no search, only a count of flips.
        $(#[$attr])*
        fn last(ctx: &mut Context, p: u64, o: u64, sq: usize) -> i32 {
            ctx.nodes += 1;
            // With one empty, the board's margin before the move is `2 * |p| - 63`.
            let before = 2 * p.count_ones() as i32 - 63;
            let gained = last_flip_count(p, sq) as i32;
            let diff = if gained != 0 {
                before + 2 * gained + 1
            } else {
                let lost = last_flip_count(o, sq) as i32;
                if lost != 0 { before - 2 * lost - 1 } else if before > 0 { before + 1 } else { before - 1 }
            };
            if ctx.anti { -diff } else { diff }
        }
    };
}

/// The tiers for any CPU.
pub(super) mod portable {
    use super::*;
    tiers!(moves, flips);
}

/// The tiers for x86-64 CPUs with `popcnt`, `lzcnt`, `bmi1` and AVX2 (for move generation and flips).
#[cfg(target_arch = "x86_64")]
pub(super) mod x86 {
    use super::*;
    use crate::othello::bitboard::{flips_avx2, moves_avx2};
    tiers!(moves_avx2, flips_avx2, #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]);
}

/// The stability cutoff: the opponent's stable discs (one's own in anti-Othello) bound the best final margin, so a
/// bound at or below `alpha` settles the node. The stable discs are only counted when the opponent's disc count
/// leaves room for such a bound.
#[inline(always)]
fn stability_cutoff(p: u64, o: u64, alpha: i32, anti: bool) -> Option<i32> {
    let (keeper, other) = if anti { (p, o) } else { (o, p) };
    if alpha < 64 - 2 * keeper.count_ones() as i32 {
        return None;
    }
    let bound = 64 - 2 * stable(keeper, other).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

/// The discs of `p` on corners and on the edge squares next to its corners: a cheap count of stable discs.
#[inline(always)]
fn corner_stability(p: u64) -> i32 {
    let next_to_corners = ((0x0100_0000_0000_0001 & p) << 1)
        | ((0x8000_0000_0000_0080 & p) >> 1)
        | ((0x0000_0000_0000_0081 & p) << 8)
        | ((0x8100_0000_0000_0000 & p) >> 8);
    ((next_to_corners | CORNERS) & p).count_ones() as i32
}

/// The quadrant (0-3) of a square.
#[inline(always)]
fn quadrant(sq: usize) -> usize {
    (sq >> 5 & 1) << 1 | (sq >> 2 & 1)
}

/// The three squares of `empty` (which has exactly three), lowest first.
#[inline(always)]
fn squares3(empty: u64) -> [usize; 3] {
    let x1 = empty.trailing_zeros() as usize;
    let rest = empty & (empty - 1);
    let x2 = rest.trailing_zeros() as usize;
    [x1, x2, (rest & (rest - 1)).trailing_zeros() as usize]
}

/// Three empties with the one alone in its quadrant (when the others share one) first.
#[inline(always)]
fn parity_order([x1, x2, x3]: [usize; 3]) -> [usize; 3] {
    let (q1, q2, q3) = (quadrant(x1), quadrant(x2), quadrant(x3));
    if q1 == q2 && q1 != q3 {
        [x3, x1, x2]
    } else if q1 == q3 && q1 != q2 {
        [x2, x1, x3]
    } else {
        [x1, x2, x3]
    }
}

/// The empties lying in quadrants with an odd number of empties.
#[inline(always)]
fn odd_quadrants(empty: u64) -> u64 {
    QUADRANTS.iter().filter(|&&q| (empty & q).count_ones() & 1 == 1).fold(0, |m, q| m | q)
}
