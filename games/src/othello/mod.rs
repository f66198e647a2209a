//! Othello and its relatives (Reversi with a free start, anti-Othello, 6x6 and 10x10 boards) on bitboards.
//!
//! A position is two side-relative bitboards (the discs of the side to move and of its opponent), the side to move
//! and the incremental Zobrist hash. Boards are `u128` so that 10x10 fits; the 8x8 board takes the `u64` fast path
//! of [`bitboard`] (same bit layout), which also carries perft and the endgame solver.

pub mod bitboard;
mod descriptor;
pub mod endgame;
pub mod eval;
pub mod geometry;
pub mod notation;
pub mod opening_names;
pub mod patterns;
pub mod records;
pub mod training;
pub mod variants;
pub mod weights;

use std::sync::Arc;

use tabula_core::{Game, GameResult, MoveParseError, Outcome, Player, Score, random};

use crate::board::{BoardGame, Cell, Marker, MoveError, MoveReport};
pub use eval::{OthelloEval, Weights};
use geometry::Geometry;
pub use notation::NotationError;
pub use variants::{BoardSize, Goal, Rules, Start};

/// A move: a square index (`n * row + column`) or the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The pass, legal only when the side to move has no placement but the opponent has one.
    pub const PASS: Move = Move(u8::MAX);

    /// The placement on square `sq` (`n * row + column`).
    #[must_use]
    pub const fn at(sq: usize) -> Move {
        Move(sq as u8)
    }

    /// The square index, or `None` for the pass.
    #[must_use]
    pub fn square(self) -> Option<usize> {
        (self != Move::PASS).then_some(usize::from(self.0))
    }

    /// Whether this is the pass.
    #[must_use]
    pub fn is_pass(self) -> bool {
        self == Move::PASS
    }
}

/// A position: the discs of the side to move and of its opponent, who is to move, and the hash.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    player: u128,
    opponent: u128,
    side: Player,
    hash: u64,
}

impl Position {
    /// The discs of the side to move.
    #[must_use]
    pub fn player(&self) -> u128 {
        self.player
    }

    /// The discs of the side not to move.
    #[must_use]
    pub fn opponent(&self) -> u128 {
        self.opponent
    }

    /// The side to move.
    #[must_use]
    pub fn side(&self) -> Player {
        self.side
    }

    /// The discs of `who`.
    #[must_use]
    pub fn discs(&self, who: Player) -> u128 {
        if who == self.side { self.player } else { self.opponent }
    }
}

/// What [`Game::make`] returns: the discs it turned over (the board is restored by XOR with them) and the hash
/// before the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The discs turned over by the move (none for a pass or a free-start placement).
    pub flips: u128,
    hash: u64,
}

/// Zobrist keys: one per square and colour, and one for White to move.
#[derive(Debug)]
struct Keys {
    discs: [Vec<u64>; 2],
    flip: Vec<u64>,
    white_to_move: u64,
}

impl Keys {
    fn new(squares: usize) -> Keys {
        // From a fixed seed: the same keys on every run and machine.
        let mut seed = 0x5EED_0F07_4E11_0000_u64;
        let mut next = move || random::splitmix64(&mut seed);
        let black: Vec<u64> = (0..squares).map(|_| next()).collect();
        let white: Vec<u64> = (0..squares).map(|_| next()).collect();
        let flip = black.iter().zip(&white).map(|(b, w)| b ^ w).collect();
        Keys { discs: [black, white], flip, white_to_move: next() }
    }
}

/// The rules of one Othello variant, with its board tables and hash keys. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Othello {
    rules: Rules,
    geometry: Arc<Geometry>,
    keys: Arc<Keys>,
    centre: u128,
}

impl Default for Othello {
    fn default() -> Self {
        Othello::new(Rules::default())
    }
}

/// Iterates over the set bits of a board, lowest first.
pub(crate) fn squares_of(mut b: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let sq = b.trailing_zeros() as usize;
            b &= b - 1;
            sq
        })
    })
}

impl Othello {
    /// The game with these rules.
    #[must_use]
    pub fn new(rules: Rules) -> Othello {
        let n = rules.size.squares_per_side();
        let c = n / 2;
        let centre =
            [(c - 1, c - 1), (c, c - 1), (c - 1, c), (c, c)].iter().fold(0u128, |m, &(x, y)| m | 1 << (y * n + x));
        Othello { rules, geometry: Arc::new(Geometry::new(n)), keys: Arc::new(Keys::new(n * n)), centre }
    }

    /// The rules of this game.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Squares per side.
    #[must_use]
    pub fn size(&self) -> usize {
        self.geometry.n
    }

    /// The board tables.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Whether this is the 8x8 board, where the `u64` fast paths apply.
    #[must_use]
    pub fn is_8x8(&self) -> bool {
        self.geometry.n == 8
    }

    /// The four centre squares.
    #[must_use]
    pub fn centre(&self) -> u128 {
        self.centre
    }

    /// The position with the given discs and side to move (discs on both colours count as Black's).
    #[must_use]
    pub fn position(&self, black: u128, white: u128, side: Player) -> Position {
        let black = black & self.geometry.full;
        let white = white & self.geometry.full & !black;
        let (player, opponent) = if side == Player::First { (black, white) } else { (white, black) };
        let mut pos = Position { player, opponent, side, hash: 0 };
        pos.hash = self.recompute_hash(&pos);
        pos
    }

    /// Whether the position is still in the free opening of original Reversi (centre squares to fill).
    #[must_use]
    pub fn in_free_opening(&self, pos: &Position) -> bool {
        self.rules.start == Start::Free && self.centre & !(pos.player | pos.opponent) != 0
    }

    /// The legal placements of the owner of `p` against `o` (ignores the free opening).
    #[inline]
    #[must_use]
    pub fn moves_of(&self, p: u128, o: u128) -> u128 {
        if self.is_8x8() { u128::from(bitboard::moves(p as u64, o as u64)) } else { self.geometry.moves(p, o) }
    }

    /// The discs of `o` turned over by the owner of `p` placing on `sq`.
    #[inline]
    #[must_use]
    pub fn flips_of(&self, p: u128, o: u128, sq: usize) -> u128 {
        if self.is_8x8() { u128::from(bitboard::flips(p as u64, o as u64, sq)) } else { self.geometry.flips(p, o, sq) }
    }

    /// The placements legal for the side to move (the free opening's centre squares included).
    #[must_use]
    pub fn placements(&self, pos: &Position) -> u128 {
        if self.in_free_opening(pos) {
            self.centre & !(pos.player | pos.opponent)
        } else {
            self.moves_of(pos.player, pos.opponent)
        }
    }

    /// The number of empty squares.
    #[must_use]
    pub fn empties(&self, pos: &Position) -> u32 {
        (self.geometry.full & !(pos.player | pos.opponent)).count_ones()
    }

    /// The final score from the view of the side to move if the game ended now: the disc difference with the
    /// empty squares given to the winner, negated when the fewest discs win.
    #[must_use]
    pub fn final_score(&self, pos: &Position) -> i32 {
        let (p, o) = (pos.player.count_ones() as i32, pos.opponent.count_ones() as i32);
        let diff = p - o;
        let empties = self.geometry.n as i32 * self.geometry.n as i32 - p - o;
        let most = match diff.signum() {
            1 => diff + empties,
            -1 => diff - empties,
            _ => 0,
        };
        match self.rules.goal {
            Goal::MostDiscs => most,
            Goal::FewestDiscs => -most,
        }
    }

    /// The number of leaves `depth` plies below `pos`: a pass is a ply, a finished game is one leaf at every depth.
    #[must_use]
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        if self.is_8x8() && !self.in_free_opening(pos) {
            return bitboard::perft(pos.player as u64, pos.opponent as u64, depth);
        }
        let mut pos = pos.clone();
        self.perft_generic(&mut pos, depth)
    }

    fn perft_generic(&self, pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 || self.outcome(pos).is_some() {
            return 1;
        }
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|mv| {
                let undo = self.make(pos, mv);
                let n = self.perft_generic(pos, depth - 1);
                self.unmake(pos, mv, undo);
                n
            })
            .sum()
    }

    fn cell(&self, sq: usize) -> Cell {
        Cell::new(sq % self.geometry.n, sq / self.geometry.n)
    }

    fn square_of(&self, cell: Cell) -> Option<usize> {
        let n = self.geometry.n;
        (cell.x < n && cell.y < n).then_some(cell.y * n + cell.x)
    }
}

impl Game for Othello {
    type State = Position;
    type Move = Move;
    type Undo = Undo;

    fn initial_state(&self) -> Position {
        let n = self.geometry.n;
        let c = n / 2;
        let at = |x: usize, y: usize| 1u128 << (y * n + x);
        let (black, white) = match self.rules.start {
            Start::Standard => (at(c, c - 1) | at(c - 1, c), at(c - 1, c - 1) | at(c, c)),
            Start::Alternative => (at(c - 1, c - 1) | at(c, c - 1), at(c - 1, c) | at(c, c)),
            Start::Free => (0, 0),
        };
        self.position(black, white, Player::First)
    }

    fn side_to_move(&self, state: &Position) -> Player {
        state.side
    }

    fn legal_moves(&self, state: &Position, moves: &mut Vec<Move>) {
        let placements = self.placements(state);
        if placements != 0 {
            moves.extend(squares_of(placements).map(Move::at));
        } else if self.moves_of(state.opponent, state.player) != 0 {
            moves.push(Move::PASS);
        }
    }

    fn is_legal(&self, state: &Position, mv: Move) -> bool {
        let placements = self.placements(state);
        match mv.square() {
            Some(sq) => sq < 128 && placements & (1 << sq) != 0,
            None => placements == 0 && self.moves_of(state.opponent, state.player) != 0,
        }
    }

    fn make(&self, state: &mut Position, mv: Move) -> Undo {
        let undo_hash = state.hash;
        let mut hash = state.hash ^ self.keys.white_to_move;
        let flips = match mv.square() {
            None => 0,
            Some(sq) => {
                let flips =
                    if self.in_free_opening(state) { 0 } else { self.flips_of(state.player, state.opponent, sq) };
                hash ^= self.keys.discs[state.side.index()][sq];
                for f in squares_of(flips) {
                    hash ^= self.keys.flip[f];
                }
                state.player ^= flips | 1 << sq;
                state.opponent ^= flips;
                flips
            }
        };
        std::mem::swap(&mut state.player, &mut state.opponent);
        state.side = state.side.opponent();
        state.hash = hash;
        Undo { flips, hash: undo_hash }
    }

    fn unmake(&self, state: &mut Position, mv: Move, undo: Undo) {
        std::mem::swap(&mut state.player, &mut state.opponent);
        state.side = state.side.opponent();
        if let Some(sq) = mv.square() {
            state.player ^= undo.flips | 1 << sq;
            state.opponent ^= undo.flips;
        }
        state.hash = undo.hash;
    }

    fn outcome(&self, state: &Position) -> Option<Outcome> {
        if self.placements(state) != 0 || self.moves_of(state.opponent, state.player) != 0 {
            return None;
        }
        let score = self.final_score(state);
        Some(match score.signum() {
            1 => Outcome { result: GameResult::Win(state.side), margin: Some(score) },
            -1 => Outcome { result: GameResult::Win(state.side.opponent()), margin: Some(-score) },
            _ => Outcome { result: GameResult::Draw, margin: Some(0) },
        })
    }

    fn hash(&self, state: &Position) -> u64 {
        state.hash
    }

    fn move_index(&self, mv: Move) -> usize {
        mv.square().unwrap_or(self.geometry.n * self.geometry.n)
    }

    fn move_index_count(&self) -> usize {
        self.geometry.n * self.geometry.n + 1
    }

    fn remaining_moves(&self, state: &Position) -> Option<u32> {
        Some(self.empties(state))
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(self.geometry.n, mv)
    }

    fn parse_move(&self, state: &Position, text: &str) -> Result<Move, MoveParseError> {
        let mv = notation::parse_square(self.geometry.n, text).map_err(|e| MoveParseError::new(e.to_string()))?;
        if self.is_legal(state, mv) {
            return Ok(mv);
        }
        Err(MoveParseError::new(match mv.square() {
            None => "pass is not legal: a move is available".to_string(),
            Some(sq) => format!("{}: {}", self.format_move(mv), self.illegal_reason(state, sq)),
        }))
    }
}

impl Othello {
    /// Why placing on the square `sq` is not legal for the side to move.
    fn illegal_reason(&self, state: &Position, sq: usize) -> &'static str {
        if (state.player | state.opponent) & (1 << sq) != 0 {
            "occupied"
        } else if self.in_free_opening(state) {
            "the first four discs go on the centre squares"
        } else {
            "no discs to flip"
        }
    }
}

impl BoardGame for Othello {
    type Eval = OthelloEval;

    fn engine_rules(&self) -> Option<crate::external::EngineRules> {
        (self.rules == Rules::default()).then_some(crate::external::EngineRules::NBoard)
    }

    /// The catalogue's names, for standard Othello only: other boards, starts and goals have openings of their own.
    fn opening_name(&self, moves: &[Move]) -> Option<&'static str> {
        (self.rules == Rules::default()).then(|| opening_names::name_of(moves)).flatten()
    }

    /// NBoard engines evaluate in discs; the heuristic search scores in hundredths of a disc.
    fn engine_score(&self, eval: f64) -> Option<Score> {
        let discs = eval.clamp(-64.0, 64.0);
        eval::judges_in_discs(self).then(|| (discs * 100.0).round() as Score)
    }

    fn evaluator(&self, exact: bool) -> OthelloEval {
        if exact { OthelloEval::exact(self, 20) } else { OthelloEval::new(self, Weights::default()) }
    }

    fn board_size(&self) -> (usize, usize) {
        (self.geometry.n, self.geometry.n)
    }

    fn stone(&self, state: &Position, cell: Cell) -> Option<Player> {
        let bit = 1u128 << self.square_of(cell)?;
        Player::BOTH.into_iter().find(|&who| state.discs(who) & bit != 0)
    }

    fn move_at(&self, state: &Position, cell: Cell) -> Result<Move, MoveError> {
        let sq = self.square_of(cell).ok_or(MoveError::OffBoard)?;
        if self.placements(state) & (1 << sq) != 0 {
            Ok(Move::at(sq))
        } else {
            Err(MoveError::Illegal(self.illegal_reason(state, sq).to_string()))
        }
    }

    fn pass_move(&self, state: &Position) -> Option<Move> {
        self.is_legal(state, Move::PASS).then_some(Move::PASS)
    }

    fn cell_of(&self, mv: Move) -> Option<Cell> {
        mv.square().map(|sq| self.cell(sq))
    }

    fn setup_state(&self, stones: &[(Cell, Player)], to_move: Player) -> Result<Position, String> {
        let (mut black, mut white) = (0u128, 0u128);
        for &(cell, player) in stones {
            let square = self.square_of(cell).ok_or_else(|| format!("{} is off the board", self.cell_name(cell)))?;
            let bit = 1u128 << square;
            if (black | white) & bit != 0 {
                return Err(format!("{} is given twice", self.cell_name(cell)));
            }
            if player == Player::First { black |= bit } else { white |= bit }
        }
        Ok(self.position(black, white, to_move))
    }

    fn cell_name(&self, cell: Cell) -> String {
        format!("{}{}", char::from(b'a'.saturating_add(u8::try_from(cell.x).unwrap_or(u8::MAX))), cell.y + 1)
    }

    fn describe_move(&self, before: &Position, mv: Move) -> MoveReport {
        let mut report = MoveReport { player: Some(before.side), ..MoveReport::default() };
        let Some(sq) = mv.square() else {
            return report;
        };
        report.placed = Some(self.cell(sq));
        if self.in_free_opening(before) {
            return report;
        }
        let flips = self.flips_of(before.player, before.opponent, sq);
        // Walk each direction outward, then order all flips by distance so the animation spreads from the disc.
        let mut flipped: Vec<(usize, usize)> = Vec::new();
        for d in 0..8 {
            for (distance, &s) in self.geometry.ray(sq, d).iter().enumerate() {
                if flips & (1 << s) == 0 {
                    break;
                }
                flipped.push((distance, s));
            }
        }
        flipped.sort_by_key(|&(distance, _)| distance);
        report.flipped = flipped.into_iter().map(|(_, s)| self.cell(s)).collect();
        report
    }

    fn markers(&self, state: &Position) -> Vec<(Cell, Marker)> {
        squares_of(self.placements(state)).map(|sq| (self.cell(sq), Marker::Legal)).collect()
    }

    fn describe_score(&self, score: Score, exact: bool) -> String {
        if tabula_core::score::mate_distance(score).is_some() {
            tabula_core::score::format_score(score)
        } else if exact {
            format!("{score:+} discs")
        } else if eval::judges_in_discs(self) {
            format!("{:+.1} discs", f64::from(score) / 100.0)
        } else {
            tabula_core::score::format_score(score)
        }
    }

    fn score_label(&self, score: Score, exact: bool) -> String {
        if tabula_core::score::mate_distance(score).is_some() || !(exact || eval::judges_in_discs(self)) {
            return tabula_core::score::format_score(score);
        }
        let discs = if exact { f64::from(score) } else { f64::from(score) / 100.0 };
        match discs.round() as i64 {
            0 => "0".into(),
            d => format!("{d:+}"),
        }
    }

    fn advantage(&self, score: Score, exact: bool) -> f32 {
        if tabula_core::score::mate_distance(score).is_some() {
            return score.signum() as f32;
        }
        // In discs of final margin: a 64-disc win is the whole board.
        let discs = if exact {
            f64::from(score)
        } else if eval::judges_in_discs(self) {
            f64::from(score) / 100.0
        } else {
            return (f64::from(score) / 1000.0).tanh() as f32;
        };
        (discs / 64.0).clamp(-1.0, 1.0) as f32
    }

    fn end_reason(&self, state: &Position) -> Option<String> {
        self.outcome(state)?;
        let reason = if state.player == 0 || state.opponent == 0 {
            "wipe-out"
        } else if self.empties(state) == 0 {
            "board full"
        } else {
            "both passed"
        };
        Some(reason.to_string())
    }

    fn recompute_hash(&self, state: &Position) -> u64 {
        let mut h = if state.side == Player::Second { self.keys.white_to_move } else { 0 };
        for who in Player::BOTH {
            for sq in squares_of(state.discs(who)) {
                h ^= self.keys.discs[who.index()][sq];
            }
        }
        h
    }
}
