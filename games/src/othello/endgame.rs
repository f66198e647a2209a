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
//!   opponent's mobility.
//! - The last [`SHALLOW`] empties: no move generation, the empties tried in parity order (odd quadrants first) and
//!   skipped at once when no opponent disc is next to them, and the stability cutoff; from four empties the squares
//!   are taken out once and handed down (`solve3` and `solve2`, each trying the opponent's moves on a pass), and the last empty is scored by counting flips alone.
//!
//! Scores are final disc margins (empties to the winner) from the view of the side to move, negated for
//! anti-Othello.
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};

use super::bitboard::{NEIGHBOURS, flips, frontier_empties, last_flip_count, moves, stable};
use super::eval::Weights;

/// Empties at or below which the parity-ordered search without move generation takes over.
const SHALLOW: u32 = 6;

/// Empties from which results are kept in the solver's transposition table.
const TABLE_MIN: u32 = 8;

/// Empties from which children are looked up in the table before any is searched.
const ETC_MIN: u32 = 12;

/// Empties from which moves are ordered by a two-ply look with the play evaluator's features.
const EVAL_SORT_MIN: u32 = 12;

/// More than any quick estimate for ordering (`guess`).
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

/// A node whose remaining moves several threads search: the next move to hand out, the best value so far (the
/// shared alpha) and whether a cutoff (or the caller) ended the node.
struct Split<'a> {
    moves: &'a [(usize, u64, i32)],
    next: AtomicUsize,
    alpha: AtomicI32,
    beta: i32,
    abort: AtomicBool,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver").field("entries", &self.table.len()).finish()
    }
}

/// Bounds on a position's value as stored in the table.
#[derive(Clone, Copy)]
struct Bounds {
    lower: i32,
    upper: i32,
    best: Option<usize>,
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn key_of(p: u64, o: u64) -> u64 {
    mix(p ^ mix(o ^ 0x9E37_79B9_7F4A_7C15))
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
}

impl<'a> Context<'a> {
    fn new(anti: bool, should_stop: &'a mut dyn FnMut(u64) -> bool) -> Self {
        Context { anti, nodes: 0, next_poll: POLL_INTERVAL, stopped: false, should_stop }
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
        Solver {
            table: (0..1usize << bits).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect(),
            idle: AtomicUsize::new(0),
        }
    }

    /// Solves with up to `threads` threads (at least one) from the next solve on; not while a solve runs.
    pub fn set_threads(&self, threads: usize) {
        self.idle.store(threads.max(1) - 1, Ordering::Relaxed);
    }

    /// Takes up to `most` idle helper threads for a split node; `release` gives them back.
    fn reserve(&self, most: usize) -> usize {
        let mut idle = self.idle.load(Ordering::Relaxed);
        loop {
            let take = idle.min(most);
            if take == 0 {
                return 0;
            }
            match self.idle.compare_exchange_weak(idle, idle - take, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return take,
                Err(now) => idle = now,
            }
        }
    }

    fn release(&self, helpers: usize) {
        self.idle.fetch_add(helpers, Ordering::Relaxed);
    }

    /// Searches the remaining moves of a split node with `helpers` more threads, the caller's own among them;
    /// returns the best value found and its move. A stop the caller asks for stops every thread.
    fn split(&self, ctx: &mut Context, p: u64, o: u64, work: &Split, helpers: usize) -> (i32, Option<usize>) {
        let anti = ctx.anti;
        let base = ctx.nodes;
        let mut caller_stopped = false;
        let (best, nodes) = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..helpers)
                .map(|_| {
                    scope.spawn(|| {
                        let mut stop = |_| work.abort.load(Ordering::Relaxed);
                        let mut own = Context::new(anti, &mut stop);
                        let best = self.split_worker(&mut own, p, o, work);
                        (best, own.nodes)
                    })
                })
                .collect();
            let parent = &mut *ctx.should_stop;
            let mut stop = |nodes| {
                if !work.abort.load(Ordering::Relaxed) && parent(base + nodes) {
                    caller_stopped = true;
                    work.abort.store(true, Ordering::Relaxed);
                }
                work.abort.load(Ordering::Relaxed)
            };
            let mut own = Context::new(anti, &mut stop);
            let mut best = self.split_worker(&mut own, p, o, work);
            let mut nodes = own.nodes;
            for handle in handles {
                let (theirs, their_nodes) = handle.join().expect("a solver thread panicked");
                nodes += their_nodes;
                if theirs.0 > best.0 {
                    best = theirs;
                }
            }
            (best, nodes)
        });
        ctx.nodes += nodes;
        if caller_stopped {
            ctx.stopped = true;
            ctx.next_poll = 0;
        }
        best
    }

    /// One thread's share of a split node, in the fastest tier the CPU allows.
    fn split_worker(&self, ctx: &mut Context, p: u64, o: u64, work: &Split) -> (i32, Option<usize>) {
        #[cfg(target_arch = "x86_64")]
        if super::bitboard::has_x86_features() {
            // SAFETY: the CPU has every feature the `x86` tiers were compiled for.
            return unsafe { x86::split_worker(self, ctx, p, o, work) };
        }
        portable::split_worker(self, ctx, p, o, work)
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

    fn dispatch(&self, ctx: &mut Context, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if super::bitboard::has_x86_features() {
            // SAFETY: the CPU has every feature the `x86` tiers were compiled for.
            return unsafe { x86::search(self, ctx, p, o, alpha, beta, false) };
        }
        portable::search(self, ctx, p, o, alpha, beta, false)
    }

    /// Starts loading the table entry of `key` into the cache, so that a later [`Self::probe`] does not wait.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot = &self.table[key as usize & (self.table.len() - 1)];
            // SAFETY: SSE is part of the x86-64 baseline, and a prefetch never faults whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.as_ptr().cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn probe(&self, key: u64) -> Option<Bounds> {
        let slot = &self.table[key as usize & (self.table.len() - 1)];
        let data = slot[1].load(Ordering::Relaxed);
        if slot[0].load(Ordering::Relaxed) ^ data != key || data == 0 {
            return None;
        }
        let lower = i32::from((data & 0xFF) as u8 as i8);
        let upper = i32::from(((data >> 8) & 0xFF) as u8 as i8);
        let best = ((data >> 16) & 0xFF) as usize;
        Some(Bounds { lower, upper, best: (best < 64).then_some(best) })
    }

    fn store(&self, key: u64, bounds: Bounds) {
        // A second search of the same position (another window) narrows what is known.
        let bounds = match self.probe(key) {
            Some(old) if old.lower.max(bounds.lower) <= old.upper.min(bounds.upper) => Bounds {
                lower: old.lower.max(bounds.lower),
                upper: old.upper.min(bounds.upper),
                best: bounds.best.or(old.best),
            },
            _ => bounds,
        };
        let slot = &self.table[key as usize & (self.table.len() - 1)];
        let best = bounds.best.map_or(0xFF, |b| b as u64);
        // Bit 24 marks a used entry, so that data is never zero.
        let data =
            u64::from(bounds.lower as i8 as u8) | u64::from(bounds.upper as i8 as u8) << 8 | best << 16 | 1 << 24;
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

/// The search tiers, compiled twice: portably, and on x86-64 with the bit-counting instructions (`popcnt`,
/// `lzcnt`), which the baseline target lacks and which make the solver about a third faster. The solver picks
/// the second copy when the CPU has them.
macro_rules! tiers {
    ($moves:ident, $flips:ident $(, #[$attr:meta])*) => {
        /// Fastest-first search with many empties (with the table from [`TABLE_MIN`] empties).
        $(#[$attr])*
        pub(super) fn search(solver: &Solver, ctx: &mut Context, p: u64, o: u64, mut alpha: i32, mut beta: i32, passed: bool) -> i32 {
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
                } else if n >= EVAL_SORT_MIN {
                    -guess(np, no, 1, -GUESS_MAX, GUESS_MAX) * 8 - (reply.count_ones() as i32) * 1024
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
                    if probe > alpha && probe < beta { -search(solver, ctx, np, no, -beta, -alpha, false) } else { probe }
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
        pub(super) fn split_worker(solver: &Solver, ctx: &mut Context, p: u64, o: u64, work: &Split) -> (i32, Option<usize>) {
            let (mut best, mut best_move) = (-INF, None);
            let beta = work.beta;
            while !work.abort.load(Ordering::Relaxed) {
                let Some(&(sq, f, _)) = work.moves.get(work.next.fetch_add(1, Ordering::Relaxed)) else {
                    break;
                };
                let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                let alpha = work.alpha.load(Ordering::Relaxed);
                let probe = -search(solver, ctx, np, no, -alpha - 1, -alpha, false);
                let value =
                    if probe > alpha && probe < beta { -search(solver, ctx, np, no, -beta, -alpha, false) } else { probe };
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

        /// A quick estimate for ordering with many empties: the play evaluator's features and weights
        /// ([`Weights::default`]) at the leaves of an alpha-beta search `depth` plies deep, from the view of the
        /// owner of `p`.
        $(#[$attr])*
        fn guess(p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
            let legal = $moves(p, o);
            if depth == 0 || legal == 0 {
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
                return w.mobility * mobility + w.potential_mobility * potential + w.corner * corners
                    - w.x_square * x_squares
                    - w.c_square * c_squares
                    + w.stable * anchored;
            }
            let mut best = -GUESS_MAX;
            let mut rest = legal;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let f = $flips(p, o, sq);
                let value = -guess(o ^ f, p ^ f ^ (1 << sq), depth - 1, -beta, -alpha);
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
        fn moves3(ctx: &mut Context, p: u64, o: u64, mut alpha: i32, beta: i32, [x1, x2, x3]: [usize; 3]) -> Option<i32> {
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
mod portable {
    use super::*;
    tiers!(moves, flips);
}

/// The tiers for x86-64 CPUs with `popcnt`, `lzcnt`, `bmi1` and AVX2 (for move generation and flips).
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::super::bitboard::{flips_avx2, moves_avx2};
    use super::*;
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A deterministic xorshift generator for random positions.
    pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
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
        let mut next = xorshift(0x5DEE_CE66_D1CE_4E5B);
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
                if value <= a {
                    assert!(exact <= value, "p={p:#x} o={o:#x} ({a}, {b}): {value} vs {exact}");
                } else if value >= b {
                    assert!(exact >= value, "p={p:#x} o={o:#x} ({a}, {b}): {value} vs {exact}");
                } else {
                    assert_eq!(value, exact, "p={p:#x} o={o:#x} ({a}, {b})");
                }
            }
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
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
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
            let context = format!("p={p:#x} o={o:#x} anti={anti} ({alpha}, {beta}): {value} vs {exact}");
            if value <= alpha {
                assert!(exact <= value, "{context}");
            } else if value >= beta {
                assert!(exact >= value, "{context}");
            } else {
                assert_eq!(value, exact, "{context}");
            }
        }
    }

    /// The portable tiers must agree with the ones the CPU picks (on x86-64 with AVX2, the other build).
    #[test]
    fn portable_and_dispatched_tiers_agree() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
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
