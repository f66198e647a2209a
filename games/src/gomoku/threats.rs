//! The threat cache: for every board point and both colours, what a stone there would make (its four line
//! patterns, its value to the evaluator and its threat flags), kept up to date as stones come and go, with running
//! value totals and flag sets over the candidate area, so the evaluator and move generator read a position without
//! scanning the board (Rapfi and Yixin keep the same information incrementally).
//!
//! A stone changes the line keys only of the cells within five steps along its four lines, and each of those along
//! that one line, so placing it re-reads one pattern per colour on at most 40 cells, recomputes value and flags
//! (from a table of every combination of four patterns) only where a pattern changed, and re-checks the candidate
//! membership of the 5 x 5 box whose neighbour counts changed. It returns the entries it overwrote, and taking the
//! stone back writes them back instead of reading the patterns again. The cache is a pure function of the board:
//! the tests compare it with [`Threats::new`] and with a plain scan after every move and take-back.

use std::sync::Arc;

use super::Gomoku;
use super::board::{Board, Geometry};
use super::patterns::{self, EMPTY, HALF, Pattern, WALL, WHITE};
use super::renju;
use super::values::{self, ColorValues, Combination, Role};

/// A property of a point for one colour, kept as a set of points so it can be counted and listed quickly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Flag {
    /// A stone there completes a winning line.
    Five,
    /// A stone there makes at least one four.
    Four,
    /// A stone there makes a four the opponent cannot stop with one stone (see [`makes_open_four`]).
    OpenFour,
    /// Renju only, Black only: the point might be forbidden, so legality needs [`renju::forbidden`].
    Forbiddable,
    /// A stone there makes a four and a three or a two on another line ([`Combination::FourThree`] or
    /// [`Combination::FourTwo`]): a four that builds the next threat.
    FourPlus,
    /// A stone there makes an open three and another three or open two ([`Combination::ThreeThree`] or
    /// [`Combination::OpenThreeTwo`]).
    ThreePlus,
    /// A stone there makes an open three.
    OpenThree,
}

/// The number of flags, and the flags in bit order.
const FLAGS: usize = 7;
const ALL_FLAGS: [Flag; FLAGS] =
    [Flag::Five, Flag::Four, Flag::OpenFour, Flag::Forbiddable, Flag::FourPlus, Flag::ThreePlus, Flag::OpenThree];

/// Whether a stone there makes a four the opponent cannot stop with one stone.
#[must_use]
pub fn makes_open_four(lines: &[Pattern; 4]) -> bool {
    lines.iter().any(|&l| matches!(l, Pattern::OpenFour | Pattern::DoubleFour))
        || lines.iter().filter(|l| l.is_four()).count() >= 2
}

/// Whether `lines` have `flag`, `Forbiddable` read as if Renju's restrictions applied to the stone.
fn has_flag(lines: &[Pattern; 4], flag: Flag) -> bool {
    match flag {
        Flag::Five => lines.contains(&Pattern::Five),
        Flag::Four => lines.iter().any(|l| l.is_four()),
        Flag::OpenFour => makes_open_four(lines),
        Flag::Forbiddable => renju::may_be_forbidden(lines),
        Flag::FourPlus => matches!(values::combination(lines), Some(Combination::FourThree | Combination::FourTwo)),
        Flag::ThreePlus => {
            matches!(values::combination(lines), Some(Combination::ThreeThree | Combination::OpenThreeTwo))
        }
        Flag::OpenThree => lines.contains(&Pattern::OpenThree),
    }
}

/// The values (to move, waiting) and flags (one bit per [`Flag`]) of a combination of four line patterns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Summary {
    value: [i32; 2],
    flags: u8,
}

/// The number of patterns.
const KINDS: usize = Pattern::Overline as usize + 1;

/// The index of a combination of four line patterns in a table of summaries.
fn combination(lines: &[Pattern; 4]) -> usize {
    lines.iter().rev().fold(0, |i, &l| i * KINDS + l as usize)
}

/// The summaries of every combination of four line patterns for a colour with `values`, indexed by
/// [`combination`]. With `forbiddable` (Renju's Black) they carry the `Forbiddable` flag, otherwise never.
pub(crate) fn summaries(values: &ColorValues, forbiddable: bool) -> Arc<[Summary]> {
    let mut table = vec![Summary { value: [0; 2], flags: 0 }; KINDS.pow(4)];
    for i in 0..table.len() {
        let lines = [0, 1, 2, 3].map(|d| Pattern::ALL[i / KINDS.pow(d) % KINDS]);
        let flags = ALL_FLAGS
            .iter()
            .filter(|&&f| (forbiddable || f != Flag::Forbiddable) && has_flag(&lines, f))
            .fold(0, |bits, &f| bits | 1 << f as u8);
        let value = [Role::ToMove, Role::Waiting].map(|role| values.point_value(role, &lines));
        table[combination(&lines)] = Summary { value, flags };
    }
    table.into()
}

/// A set of padded cell indices.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(cells: usize) -> Bits {
        Bits(vec![0; cells.div_ceil(64)])
    }

    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    fn set(&mut self, i: usize, on: bool) {
        let bit = 1 << (i % 64);
        if on {
            self.0[i / 64] |= bit;
        } else {
            self.0[i / 64] &= !bit;
        }
    }
}

/// The indices of the set bits of `words`, ascending.
struct Ones<I> {
    words: I,
    base: usize,
    word: u64,
}

impl<I: Iterator<Item = u64>> Iterator for Ones<I> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.word == 0 {
            self.word = self.words.next()?;
            self.base = self.base.wrapping_add(64);
        }
        let bit = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(self.base + bit)
    }
}

/// The set bits of `words` (bit `i` of word `w` is index `64 * w + i`).
fn ones<I: Iterator<Item = u64>>(words: I) -> Ones<I> {
    Ones { words, base: 0usize.wrapping_sub(64), word: 0 }
}

/// The cache for one position: per point and colour the patterns, value and flags, per colour the sets of points
/// with each flag, the candidate area (empty points with a stone within two steps, the moves the engine considers)
/// and the value totals over it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threats {
    lines: Vec<[[Pattern; 4]; 2]>,
    values: Vec<[[i32; 2]; 2]>,
    point_flags: Vec<[u8; 2]>,
    flags: [[Bits; FLAGS]; 2],
    candidates: Bits,
    totals: [[i32; 2]; 2],
}

/// Whether the board makes `q` a candidate: empty, with a stone within two steps.
fn is_candidate(board: &Board, q: usize) -> bool {
    board.cells[q] == EMPTY && board.near[q] > 0
}

/// The five rows of the 5 x 5 box around `p`, whose neighbour counts a stone on `p` changes.
fn box_rows(geo: &Geometry, p: usize) -> impl Iterator<Item = std::ops::RangeInclusive<usize>> {
    (0..5).map(move |row| {
        let centre = p + row * geo.width - 2 * geo.width;
        centre - 2..=centre + 2
    })
}

/// The most cells one stone changes the line keys of: five on each side along four lines.
const LINE_CELLS: usize = 8 * HALF;

/// One point's entry as it was before a move.
#[derive(Clone, Copy, Debug)]
struct Saved {
    q: u16,
    lines: [[Pattern; 4]; 2],
    values: [[i32; 2]; 2],
    flags: [u8; 2],
}

impl Saved {
    const BLANK: Saved = Saved { q: 0, lines: [[Pattern::Dead; 4]; 2], values: [[0; 2]; 2], flags: [0; 2] };
}

/// What placing a stone changed in the cache, so that taking it back restores the cache without reading patterns
/// again (measured faster than re-reading them).
#[derive(Clone, Debug)]
pub struct ThreatUndo {
    totals: [[i32; 2]; 2],
    len: usize,
    saved: [Saved; LINE_CELLS],
}

/// The index of a colour code in per-colour arrays.
fn slot(color: u8) -> usize {
    usize::from(color - 1)
}

/// The patterns Black and White would make on `q` along `d`.
#[inline]
fn read_lines(game: &Gomoku, board: &Board, q: usize, d: usize) -> [Pattern; 2] {
    let key = board.keys[q][d];
    [game.tables[0][key as usize], game.tables[1][patterns::view(key, WHITE) as usize]]
}

impl Threats {
    /// The cache of `board` computed from scratch.
    #[must_use]
    pub fn new(game: &Gomoku, board: &Board) -> Threats {
        let cells = board.cells.len();
        let mut threats = Threats {
            lines: vec![[[Pattern::Dead; 4]; 2]; cells],
            values: vec![[[0; 2]; 2]; cells],
            point_flags: vec![[0; 2]; cells],
            flags: std::array::from_fn(|_| std::array::from_fn(|_| Bits::new(cells))),
            candidates: Bits::new(cells),
            totals: [[0; 2]; 2],
        };
        for &p in game.points() {
            let p = usize::from(p);
            for d in 0..4 {
                let [black, white] = read_lines(game, board, p, d);
                threats.lines[p][0][d] = black;
                threats.lines[p][1][d] = white;
            }
            threats.restate(game, p, 0);
            threats.restate(game, p, 1);
            threats.sync_candidate(board, p);
        }
        threats
    }

    /// Brings the cache up to date after a stone was placed on `p` (the board already shows it), and returns what
    /// [`Self::take_back`] needs to undo that.
    pub fn place(&mut self, game: &Gomoku, board: &Board, p: usize) -> ThreatUndo {
        let mut undo = ThreatUndo { totals: self.totals, len: 0, saved: [Saved::BLANK; LINE_CELLS] };
        let geo = game.geometry();
        for d in 0..4 {
            for k in 1..=HALF as isize {
                for q in [geo.step(p, d, k), geo.step(p, d, -k)] {
                    if board.cells[q] == WALL {
                        continue;
                    }
                    let now = read_lines(game, board, q, d);
                    let old = self.lines[q];
                    if old[0][d] == now[0] && old[1][d] == now[1] {
                        continue;
                    }
                    undo.saved[undo.len] =
                        Saved { q: q as u16, lines: old, values: self.values[q], flags: self.point_flags[q] };
                    undo.len += 1;
                    for (c, line) in now.into_iter().enumerate() {
                        if old[c][d] != line {
                            self.lines[q][c][d] = line;
                            self.restate(game, q, c);
                        }
                    }
                }
            }
        }
        for q in box_rows(geo, p).flatten() {
            self.sync_candidate(board, q);
        }
        undo
    }

    /// Restores the cache after the stone placed on `p` was taken off again (the board already shows it).
    pub fn take_back(&mut self, game: &Gomoku, board: &Board, p: usize, undo: &ThreatUndo) {
        for saved in &undo.saved[..undo.len] {
            let q = usize::from(saved.q);
            self.lines[q] = saved.lines;
            self.values[q] = saved.values;
            for c in 0..2 {
                self.set_flags(q, c, saved.flags[c]);
            }
        }
        for q in box_rows(game.geometry(), p).flatten() {
            self.candidates.set(q, is_candidate(board, q));
        }
        self.totals = undo.totals;
    }

    /// Recomputes the value and flags of `q` for colour slot `c` from its lines, keeping the totals and flag sets in
    /// step.
    fn restate(&mut self, game: &Gomoku, q: usize, c: usize) {
        let Summary { value, flags } = game.summaries[c][combination(&self.lines[q][c])];
        if self.candidates.contains(q) {
            for ((total, new), old) in self.totals[c].iter_mut().zip(value).zip(self.values[q][c]) {
                *total += new - old;
            }
        }
        self.values[q][c] = value;
        self.set_flags(q, c, flags);
    }

    /// Sets the flags of `q` for colour slot `c`, in the point's entry and in the flag sets.
    fn set_flags(&mut self, q: usize, c: usize, flags: u8) {
        let mut changed = flags ^ self.point_flags[q][c];
        self.point_flags[q][c] = flags;
        while changed != 0 {
            let f = changed.trailing_zeros() as usize;
            self.flags[c][f].set(q, flags & (1 << f) != 0);
            changed &= changed - 1;
        }
    }

    /// Adds `q` to the candidate area or takes it out, as the board now says, with its values.
    #[inline]
    fn sync_candidate(&mut self, board: &Board, q: usize) {
        let wanted = is_candidate(board, q);
        if wanted != self.candidates.contains(q) {
            self.candidates.set(q, wanted);
            let sign = if wanted { 1 } else { -1 };
            for c in 0..2 {
                for role in 0..2 {
                    self.totals[c][role] += sign * self.values[q][c][role];
                }
            }
        }
    }

    /// The four line patterns a stone of `color` would make on the point `p` (empty or not).
    #[must_use]
    pub fn lines(&self, p: usize, color: u8) -> &[Pattern; 4] {
        &self.lines[p][slot(color)]
    }

    /// The evaluator's value ([`ColorValues::point_value`]) of the point `p` for `color` in `role`.
    #[must_use]
    pub fn value(&self, p: usize, color: u8, role: Role) -> i32 {
        self.values[p][slot(color)][role as usize]
    }

    /// Whether the point `p` has `flag` for `color`.
    #[must_use]
    pub fn has(&self, p: usize, color: u8, flag: Flag) -> bool {
        self.flags[slot(color)][flag as usize].contains(p)
    }

    /// The sum of the values for `color` in `role` over the candidate area.
    #[must_use]
    pub fn total(&self, color: u8, role: Role) -> i32 {
        self.totals[slot(color)][role as usize]
    }

    /// Whether `p` is in the candidate area.
    #[must_use]
    pub fn is_candidate(&self, p: usize) -> bool {
        self.candidates.contains(p)
    }

    /// The candidate points, in board order (row by row from the top).
    pub fn candidates(&self) -> impl Iterator<Item = usize> + '_ {
        ones(self.candidates.0.iter().copied())
    }

    /// The candidate points with `flag` for `color`, in board order.
    pub fn flagged(&self, color: u8, flag: Flag) -> impl Iterator<Item = usize> + '_ {
        let set = &self.flags[slot(color)][flag as usize];
        ones(self.candidates.0.iter().zip(&set.0).map(|(a, b)| a & b))
    }

    /// Whether any candidate point has `flag` for `color`.
    #[must_use]
    pub fn any(&self, color: u8, flag: Flag) -> bool {
        let set = &self.flags[slot(color)][flag as usize];
        self.candidates.0.iter().zip(&set.0).any(|(a, b)| a & b != 0)
    }

    /// The threat situation of the position for `own` to move: the bits of [`values::SITUATION_FACTS`].
    #[must_use]
    pub fn situation(&self, own: u8) -> usize {
        let other = 3 - own;
        let facts = [
            (other, Flag::OpenFour),
            (own, Flag::FourPlus),
            (own, Flag::Four),
            (own, Flag::ThreePlus),
            (own, Flag::OpenThree),
            (other, Flag::FourPlus),
            (other, Flag::Four),
            (other, Flag::ThreePlus),
            (other, Flag::OpenThree),
        ];
        facts.iter().enumerate().fold(0, |bits, (i, &(color, flag))| bits | usize::from(self.any(color, flag)) << i)
    }

    /// How many candidate points have `flag` for `color`.
    #[must_use]
    pub fn count(&self, color: u8, flag: Flag) -> u32 {
        let set = &self.flags[slot(color)][flag as usize];
        self.candidates.0.iter().zip(&set.0).map(|(a, b)| (a & b).count_ones()).sum()
    }
}
