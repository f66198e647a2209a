//! Gomoku: five in a row under the freestyle, exact-five, Renju and Caro win rules, with a threat-aware evaluator,
//! a VCF solver, `h8` notation and Piskvork `.psq` files.
//!
//! A state holds the padded [`board::Board`] (stones, incremental line keys, neighbour counts) and the
//! [`threats::Threats`] cache built on it (per point the patterns, values and threat flags, with totals over the
//! candidate area); `make` updates both and returns the cache entries it changed, which `unmake` writes back.

pub mod board;
pub mod datasets;
mod descriptor;
pub mod eval;
pub mod fitting;
pub mod notation;
pub mod patterns;
pub mod psq;
pub mod renju;
pub mod rules;
pub mod threats;
pub mod values;
pub mod variants;
pub mod vcf;
pub mod vct;

use std::sync::{Arc, OnceLock};

use tabula_core::{Game, GameResult, MoveParseError, Outcome, Player, Score, random};

use crate::board::{BoardGame, Cell, Marker, MoveError, MoveReport};
use board::{Board, Geometry};
pub use eval::GomokuEvaluator;
use patterns::{BLACK, EMPTY, LineRule, Pattern, WHITE};
pub use renju::Forbidden;
pub use rules::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, OpeningRule, WinRule};
use threats::{Flag, ThreatUndo, Threats};
use values::RuleValues;

/// A move: the stone placed on one point, stored as the point's padded board index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// The padded board index of the point.
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A Gomoku position: the board, the side to move, the hash, the result once the game is over, and the threat
/// cache the engine reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GomokuState {
    board: Board,
    side: Player,
    hash: u64,
    outcome: Option<Outcome>,
    threats: Threats,
    /// The points of the stones in the order they were placed, the last at the end.
    placed: Vec<u16>,
}

impl GomokuState {
    /// The padded board, for the engine's modules.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The point of the last stone of `color` placed (in a set-up position, the last in the setup's order).
    #[must_use]
    pub fn last_stone(&self, color: u8) -> Option<usize> {
        self.placed.iter().rev().map(|&p| usize::from(p)).find(|&p| self.board.cells[p] == color)
    }

    /// The number of stones on the board.
    #[must_use]
    pub fn stones(&self) -> usize {
        self.board.stones
    }

    /// What a stone would make on each point, kept up to date by `make` and `unmake`.
    #[must_use]
    pub fn threats(&self) -> &Threats {
        &self.threats
    }
}

/// Rules that could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The board side is outside 7..=25.
    #[error("board size {0} is not supported (use {MIN_SIZE} to {MAX_SIZE})")]
    Size(usize),
    /// Renju is defined on 15 x 15 only.
    #[error("Renju is played on 15 x 15 only, not {0} x {0}")]
    RenjuSize(usize),
}

/// The rules of one Gomoku variant as a value: board size, win rule, opening rule and precomputed tables.
#[derive(Clone, Debug)]
pub struct Gomoku {
    geo: Geometry,
    win: WinRule,
    opening: OpeningRule,
    zobrist: Vec<[u64; 2]>,
    side_key: u64,
    points: Vec<u16>,
    /// Per padded cell, the position of the point in `points` (the dense move index).
    dense: Vec<u16>,
    tables: [&'static [Pattern]; 2],
    values: RuleValues,
    summaries: [Arc<[threats::Summary]>; 2],
    /// Per colour slot, the values of the threat situations with that colour to move; `None` when the values
    /// have none, so the evaluation need not work the situation out.
    situations: Option<Arc<[[i32; values::SITUATIONS]; 2]>>,
    empty: Board,
}

/// The situation values of both colours, indexed by situation; `None` if every one is nothing.
fn situation_table(values: &RuleValues) -> Option<Arc<[[i32; values::SITUATIONS]; 2]>> {
    let mut table = [[0; values::SITUATIONS]; 2];
    for (slot, row) in table.iter_mut().enumerate() {
        for (name, &value) in &values.color(slot).situations {
            if let Some(s) = values::parse_situation(name) {
                row[s] = value;
            }
        }
    }
    table.iter().flatten().any(|&v| v != 0).then(|| Arc::new(table))
}

/// The value-and-flag tables of both colours for `values` under `win`.
fn summaries(values: &RuleValues, win: WinRule) -> [Arc<[threats::Summary]>; 2] {
    [threats::summaries(&values.black, win == WinRule::Renju), threats::summaries(&values.white, false)]
}

/// [`summaries`] of the embedded values, built once per rule.
fn embedded_summaries(win: WinRule) -> [Arc<[threats::Summary]>; 2] {
    static TABLES: [OnceLock<[Arc<[threats::Summary]>; 2]>; 4] = [const { OnceLock::new() }; 4];
    let i = WinRule::ALL.iter().position(|&r| r == win).unwrap_or(0);
    TABLES[i].get_or_init(|| summaries(values::embedded(win), win)).clone()
}

/// The colour code of a player's stones.
#[must_use]
pub fn color_of(player: Player) -> u8 {
    match player {
        Player::First => BLACK,
        Player::Second => WHITE,
    }
}

/// The player owning stones of a colour code.
fn player_of(color: u8) -> Player {
    if color == BLACK { Player::First } else { Player::Second }
}

impl Gomoku {
    /// The rules for a `size` x `size` board with the given win rule and a free opening.
    pub fn new(size: usize, win: WinRule) -> Result<Gomoku, RulesError> {
        Gomoku::with_opening(size, win, OpeningRule::Free)
    }

    /// The rules with an explicit opening rule.
    pub fn with_opening(size: usize, win: WinRule, opening: OpeningRule) -> Result<Gomoku, RulesError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(RulesError::Size(size));
        }
        if win == WinRule::Renju && size != DEFAULT_SIZE {
            return Err(RulesError::RenjuSize(size));
        }
        let geo = Geometry::new(size);
        let mut seed = 0x7AB0_1A00 ^ size as u64;
        let zobrist =
            (0..geo.cells()).map(|_| [random::splitmix64(&mut seed), random::splitmix64(&mut seed)]).collect();
        let side_key = random::splitmix64(&mut seed);
        let points: Vec<u16> =
            (0..size).flat_map(|y| (0..size).map(move |x| (x, y))).map(|(x, y)| geo.index(x, y) as u16).collect();
        let line_rule = |color| match win {
            WinRule::Freestyle => LineRule::Free,
            WinRule::ExactFive => LineRule::Exact,
            WinRule::Renju if color == BLACK => LineRule::Exact,
            WinRule::Renju => LineRule::Free,
            WinRule::Caro => LineRule::Caro,
        };
        let tables = [patterns::table(line_rule(BLACK)), patterns::table(line_rule(WHITE))];
        let mut dense = vec![0; geo.cells()];
        for (i, &p) in points.iter().enumerate() {
            dense[usize::from(p)] = i as u16;
        }
        let values = values::embedded(win).clone();
        let summaries = embedded_summaries(win);
        let situations = situation_table(&values);
        let empty = Board::new(&geo);
        Ok(Gomoku { geo, win, opening, zobrist, side_key, points, dense, tables, values, summaries, situations, empty })
    }

    /// The same rules evaluated with other pattern values (fitting tries candidates this way).
    #[must_use]
    pub fn with_values(mut self, values: RuleValues) -> Gomoku {
        self.summaries = summaries(&values, self.win);
        self.situations = situation_table(&values);
        self.values = values;
        self
    }

    /// What the threat situation `situation` ([`values::SITUATION_FACTS`]) is worth to `color` on move.
    #[must_use]
    pub fn situation_value(&self, color: u8, situation: usize) -> i32 {
        self.situations.as_ref().map_or(0, |table| table[usize::from(color - 1)][situation])
    }

    /// Whether the values give any threat situation a value.
    #[must_use]
    pub fn values_situations(&self) -> bool {
        self.situations.is_some()
    }

    /// The pattern values the evaluation uses.
    #[must_use]
    pub fn values(&self) -> &RuleValues {
        &self.values
    }

    /// The board geometry.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The board side.
    #[must_use]
    pub fn size(&self) -> usize {
        self.geo.size
    }

    /// The win rule.
    #[must_use]
    pub fn win_rule(&self) -> WinRule {
        self.win
    }

    /// The opening rule.
    #[must_use]
    pub fn opening_rule(&self) -> OpeningRule {
        self.opening
    }

    /// The padded indices of all board points, row by row from the top.
    #[must_use]
    pub fn points(&self) -> &[u16] {
        &self.points
    }

    /// The move on column `x`, row `y` (from the top), if that is on the board.
    #[must_use]
    pub fn move_xy(&self, x: usize, y: usize) -> Option<Move> {
        (x < self.geo.size && y < self.geo.size).then(|| Move(self.geo.index(x, y) as u16))
    }

    /// The move at a padded index (which must be a board point).
    #[must_use]
    pub(crate) fn move_of_index(&self, index: usize) -> Move {
        Move(index as u16)
    }

    /// The column and row (from the top) of a move.
    #[must_use]
    pub fn xy(&self, mv: Move) -> (usize, usize) {
        self.geo.coords(mv.index())
    }

    /// What a stone of `color` on the empty point `p` makes along direction `dir`.
    #[must_use]
    pub fn pattern(&self, board: &Board, p: usize, color: u8, dir: usize) -> Pattern {
        let key = patterns::view(board.keys[p][dir], color);
        self.tables[usize::from(color - 1)][key as usize]
    }

    /// The patterns of a stone of `color` on `p` along the four lines.
    #[must_use]
    pub fn patterns(&self, board: &Board, p: usize, color: u8) -> [Pattern; 4] {
        [0, 1, 2, 3].map(|d| self.pattern(board, p, color, d))
    }

    /// Whether `p` is forbidden to `color` (only Black under Renju has forbidden points).
    #[must_use]
    pub fn forbidden(&self, board: &Board, p: usize, color: u8) -> Option<Forbidden> {
        if self.win == WinRule::Renju && color == BLACK { renju::forbidden(self, board, p) } else { None }
    }

    /// The points where the defender stops every five of `attacker`, whose five points are `fives` (all of them).
    /// Usually that is the single five point itself (none if there are two); under Caro a stone just past the end of
    /// the would-be five also defends, by closing it at both ends.
    #[must_use]
    pub fn five_defences(&self, board: &Board, attacker: u8, fives: &[usize]) -> Vec<usize> {
        match fives {
            [] => return Vec::new(),
            [only] if self.win != WinRule::Caro => return vec![*only],
            _ if self.win != WinRule::Caro => return Vec::new(),
            _ => {}
        }
        // A stone stops a five on `f` only on `f` or on the line along which that five would run.
        let mut candidates = fives.to_vec();
        for &f in fives {
            for d in (0..4).filter(|&d| self.pattern(board, f, attacker, d) == Pattern::Five) {
                for k in (-5..=5isize).filter(|&k| k != 0) {
                    let q = self.geo.step(f, d, k);
                    if board.cells[q] == EMPTY && !candidates.contains(&q) {
                        candidates.push(q);
                    }
                }
            }
        }
        let mut scratch = board.clone();
        let defender = 3 - attacker;
        candidates
            .into_iter()
            .filter(|&q| {
                scratch.place(&self.geo, q, defender);
                let alive =
                    fives.iter().any(|&f| f != q && self.patterns(&scratch, f, attacker).contains(&Pattern::Five));
                scratch.remove(&self.geo, q, defender);
                !alive
            })
            .collect()
    }

    /// Whether the side to move may play on the padded index `p`.
    #[must_use]
    pub fn is_legal_point(&self, state: &GomokuState, p: usize) -> bool {
        state.board.cells[p] == EMPTY && self.legal_for(state, p, color_of(state.side))
    }

    /// Whether the empty point `p` is not forbidden to `color`: the same answer as [`Self::forbidden`], with the
    /// full Renju check only where the threat cache says the patterns might forbid it.
    #[must_use]
    pub fn legal_for(&self, state: &GomokuState, p: usize, color: u8) -> bool {
        !state.threats.has(p, color, Flag::Forbiddable) || renju::forbidden(self, &state.board, p).is_none()
    }

    /// The winning run through the stone just placed on `p`, as its steps along the direction, if it wins.
    fn winning_run(&self, board: &Board, p: usize, color: u8) -> Option<(usize, isize, isize)> {
        (0..4).find_map(|d| {
            let (lo, hi) = board.run(&self.geo, p, d, color);
            let len = hi - lo + 1;
            let wins = match self.win {
                WinRule::Freestyle => len >= 5,
                WinRule::ExactFive => len == 5,
                WinRule::Renju => len == 5 || (len > 5 && color == WHITE),
                WinRule::Caro => {
                    let other = 3 - color;
                    let closed = board.cells[self.geo.step(p, d, lo - 1)] == other
                        && board.cells[self.geo.step(p, d, hi + 1)] == other;
                    len >= 5 && !closed
                }
            };
            wins.then_some((d, lo, hi))
        })
    }

    /// The cells of the line that won the game, if the last stone (on `mv`) completed one.
    #[must_use]
    pub fn winning_line(&self, state: &GomokuState, mv: Move) -> Vec<Cell> {
        let p = mv.index();
        let color = state.board.cells[p];
        if color != BLACK && color != WHITE {
            return Vec::new();
        }
        match self.winning_run(&state.board, p, color) {
            Some((d, lo, hi)) => (lo..=hi)
                .map(|k| {
                    let (x, y) = self.geo.coords(self.geo.step(p, d, k));
                    Cell::new(x, y)
                })
                .collect(),
            None => Vec::new(),
        }
    }

    /// Whether the side to move has at least one legal move.
    fn has_legal_move(&self, state: &GomokuState) -> bool {
        self.points.iter().any(|&p| self.is_legal_point(state, usize::from(p)))
    }

    /// The state after playing `moves` from the start, or the index of the first move that is not legal.
    pub fn play_all(&self, moves: &[Move]) -> Result<GomokuState, usize> {
        let mut state = self.initial_state();
        for (i, &mv) in moves.iter().enumerate() {
            if state.outcome.is_some() || !self.is_legal_point(&state, mv.index()) {
                return Err(i);
            }
            self.make(&mut state, mv);
        }
        Ok(state)
    }

    /// A position with the given stones and side to move, not necessarily reachable by play (test positions).
    /// Returns `None` if a point is off the board or given twice.
    #[must_use]
    pub fn setup(&self, black: &[(usize, usize)], white: &[(usize, usize)], side: Player) -> Option<GomokuState> {
        let mut state = self.initial_state();
        for (stones, color) in [(black, BLACK), (white, WHITE)] {
            for &(x, y) in stones {
                let mv = self.move_xy(x, y)?;
                if state.board.cells[mv.index()] != EMPTY {
                    return None;
                }
                state.board.place(&self.geo, mv.index(), color);
                state.placed.push(mv.index() as u16);
            }
        }
        state.threats = Threats::new(self, &state.board);
        state.side = side;
        state.hash = self.recompute_hash(&state);
        state.outcome = self.setup_outcome(&state);
        Some(state)
    }

    /// Whether a set-up position is already decided: a winning line on the board (the side that just moved
    /// first, should both have one), or no move left.
    fn setup_outcome(&self, state: &GomokuState) -> Option<Outcome> {
        let last = state.side.opponent();
        for player in [last, last.opponent()] {
            let color = color_of(player);
            let won = self
                .points
                .iter()
                .map(|&p| usize::from(p))
                .any(|p| state.board.cells[p] == color && self.winning_run(&state.board, p, color).is_some());
            if won {
                return Some(Outcome::win(player));
            }
        }
        (state.board.stones == self.points.len() || !self.has_legal_move(state)).then(Outcome::draw)
    }

    /// The board rebuilt from its stones alone, to check the incremental keys and counts.
    #[must_use]
    pub fn rebuild_board(&self, state: &GomokuState) -> Board {
        let mut board = self.empty.clone();
        for &p in &self.points {
            let color = state.board.cells[usize::from(p)];
            if color == BLACK || color == WHITE {
                board.place(&self.geo, usize::from(p), color);
            }
        }
        board
    }

    /// The threat cache of a state computed from scratch, to check the incremental one.
    #[must_use]
    pub fn rebuild_threats(&self, state: &GomokuState) -> Threats {
        Threats::new(self, &state.board)
    }
}

impl Game for Gomoku {
    type State = GomokuState;
    type Move = Move;
    type Undo = ThreatUndo;

    fn initial_state(&self) -> GomokuState {
        let threats = Threats::new(self, &self.empty);
        GomokuState {
            board: self.empty.clone(),
            side: Player::First,
            hash: 0,
            outcome: None,
            threats,
            placed: Vec::new(),
        }
    }

    fn side_to_move(&self, state: &GomokuState) -> Player {
        state.side
    }

    fn legal_moves(&self, state: &GomokuState, moves: &mut Vec<Move>) {
        if state.outcome.is_some() {
            return;
        }
        moves.extend(self.points.iter().filter(|&&p| self.is_legal_point(state, usize::from(p))).map(|&p| Move(p)));
    }

    fn is_legal(&self, state: &GomokuState, mv: Move) -> bool {
        state.outcome.is_none() && self.points.binary_search(&mv.0).is_ok() && self.is_legal_point(state, mv.index())
    }

    fn make(&self, state: &mut GomokuState, mv: Move) -> ThreatUndo {
        let p = mv.index();
        let color = color_of(state.side);
        state.board.place(&self.geo, p, color);
        let undo = state.threats.place(self, &state.board, p);
        state.placed.push(p as u16);
        state.hash ^= self.zobrist[p][usize::from(color - 1)] ^ self.side_key;
        state.side = state.side.opponent();
        state.outcome = if self.winning_run(&state.board, p, color).is_some() {
            Some(Outcome::win(player_of(color)))
        } else if state.board.stones == self.points.len() || !self.has_legal_move(state) {
            Some(Outcome::draw())
        } else {
            None
        };
        undo
    }

    fn unmake(&self, state: &mut GomokuState, mv: Move, undo: ThreatUndo) {
        let p = mv.index();
        state.side = state.side.opponent();
        let color = color_of(state.side);
        state.board.remove(&self.geo, p, color);
        state.threats.take_back(self, &state.board, p, &undo);
        state.placed.pop();
        state.hash ^= self.zobrist[p][usize::from(color - 1)] ^ self.side_key;
        state.outcome = None;
    }

    fn outcome(&self, state: &GomokuState) -> Option<Outcome> {
        state.outcome
    }

    fn hash(&self, state: &GomokuState) -> u64 {
        state.hash
    }

    fn hash_after(&self, state: &GomokuState, mv: Move) -> Option<u64> {
        Some(state.hash ^ self.zobrist[mv.index()][usize::from(color_of(state.side) - 1)] ^ self.side_key)
    }

    fn move_index(&self, mv: Move) -> usize {
        usize::from(self.dense[mv.index()])
    }

    fn move_index_count(&self) -> usize {
        self.points.len()
    }

    fn remaining_moves(&self, state: &GomokuState) -> Option<u32> {
        Some((self.points.len() - state.board.stones) as u32)
    }

    fn format_move(&self, mv: Move) -> String {
        let (x, y) = self.xy(mv);
        notation::format_point(self.geo.size, x, y)
    }

    fn parse_move(&self, state: &GomokuState, text: &str) -> Result<Move, MoveParseError> {
        let text = text.trim();
        let (x, y) = notation::parse_point(self.geo.size, text)
            .map_err(|e| MoveParseError::new(format!("`{text}`, character {}: {}", e.column, e.message)))?;
        self.move_at(state, Cell::new(x, y)).map_err(|why| MoveParseError::new(format!("{text}: {why}")))
    }
}

impl BoardGame for Gomoku {
    type Eval = GomokuEvaluator;

    fn evaluator(&self, _exact: bool) -> GomokuEvaluator {
        GomokuEvaluator
    }

    fn board_size(&self) -> (usize, usize) {
        (self.geo.size, self.geo.size)
    }

    fn stone(&self, state: &GomokuState, cell: Cell) -> Option<Player> {
        let mv = self.move_xy(cell.x, cell.y)?;
        match state.board.cells[mv.index()] {
            BLACK => Some(Player::First),
            WHITE => Some(Player::Second),
            _ => None,
        }
    }

    fn move_at(&self, state: &GomokuState, cell: Cell) -> Result<Move, MoveError> {
        let mv = self.move_xy(cell.x, cell.y).ok_or(MoveError::OffBoard)?;
        if state.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        if state.board.cells[mv.index()] != EMPTY {
            return Err(MoveError::Illegal("occupied".into()));
        }
        match self.forbidden(&state.board, mv.index(), color_of(state.side)) {
            Some(kind) => Err(MoveError::Forbidden(kind.name())),
            None => Ok(mv),
        }
    }

    fn pass_move(&self, _state: &GomokuState) -> Option<Move> {
        None
    }

    fn cell_of(&self, mv: Move) -> Option<Cell> {
        let (x, y) = self.xy(mv);
        Some(Cell::new(x, y))
    }

    fn setup_state(&self, stones: &[(Cell, Player)], to_move: Player) -> Result<GomokuState, String> {
        let size = self.geo.size;
        if let Some(&(cell, _)) = stones.iter().find(|(c, _)| c.x >= size || c.y >= size) {
            return Err(format!("({}, {}) is off the {size}x{size} board", cell.x, cell.y));
        }
        let of = |player| stones.iter().filter(|(_, p)| *p == player).map(|(c, _)| (c.x, c.y)).collect::<Vec<_>>();
        self.setup(&of(Player::First), &of(Player::Second), to_move).ok_or_else(|| {
            let mut seen = std::collections::HashSet::new();
            let twice = stones.iter().find(|(c, _)| !seen.insert((c.x, c.y))).map(|(c, _)| self.cell_name(*c));
            twice.map_or_else(|| "the position cannot be set up".to_string(), |c| format!("{c} is given twice"))
        })
    }

    fn cell_name(&self, cell: Cell) -> String {
        notation::format_point(self.geo.size, cell.x, cell.y)
    }

    fn describe_move(&self, before: &GomokuState, mv: Move) -> MoveReport {
        let mut after = before.clone();
        self.make(&mut after, mv);
        let won = matches!(after.outcome, Some(Outcome { result: GameResult::Win(_), .. }));
        MoveReport {
            player: Some(before.side),
            placed: self.cell_of(mv),
            flipped: Vec::new(),
            winning_line: if won { self.winning_line(&after, mv) } else { Vec::new() },
        }
    }

    fn markers(&self, state: &GomokuState) -> Vec<(Cell, Marker)> {
        if self.win != WinRule::Renju || state.side != Player::First || state.outcome.is_some() {
            return Vec::new();
        }
        self.points
            .iter()
            .map(|&p| usize::from(p))
            .filter(|&p| state.board.cells[p] == EMPTY && renju::forbidden(self, &state.board, p).is_some())
            .map(|p| {
                let (x, y) = self.geo.coords(p);
                (Cell::new(x, y), Marker::Forbidden)
            })
            .collect()
    }

    fn describe_score(&self, score: Score, _exact: bool) -> String {
        if tabula_core::score::mate_distance(score).is_some() {
            return tabula_core::score::format_score(score);
        }
        // The evaluation was fitted as the logistic of the game result at this scale.
        let chance = 1.0 / (1.0 + (-f64::from(score) / fitting::SCALE).exp());
        format!("{:.0}% win chance", 100.0 * chance)
    }

    fn score_label(&self, score: Score, _exact: bool) -> String {
        match tabula_core::score::mate_distance(score) {
            Some(_) if score > 0 => "win".into(),
            Some(_) => "loss".into(),
            None => format!("{:.0}%", 100.0 * (1.0 + self.advantage(score, false)) / 2.0),
        }
    }

    fn advantage(&self, score: Score, _exact: bool) -> f32 {
        if tabula_core::score::mate_distance(score).is_some() {
            return score.signum() as f32;
        }
        // Twice the win chance less one: 0 is an even game.
        let chance = 1.0 / (1.0 + (-f64::from(score) / fitting::SCALE).exp());
        (2.0 * chance - 1.0) as f32
    }

    fn end_reason(&self, state: &GomokuState) -> Option<String> {
        let outcome = state.outcome?;
        Some(match outcome.result {
            GameResult::Win(winner) => {
                let color = color_of(winner);
                let longest = self
                    .points
                    .iter()
                    .filter(|&&p| state.board.cells[usize::from(p)] == color)
                    .filter_map(|&p| self.winning_run(&state.board, usize::from(p), color))
                    .map(|(_, lo, hi)| hi - lo + 1)
                    .max()
                    .unwrap_or(5);
                let words = ["five", "six", "seven", "eight", "nine"];
                words
                    .get(longest.saturating_sub(5) as usize)
                    .map_or(format!("{longest} in a row"), |w| format!("{w} in a row"))
            }
            GameResult::Draw if state.board.stones == self.points.len() => "board full".to_string(),
            GameResult::Draw => "no legal move for Black".to_string(),
        })
    }

    fn recompute_hash(&self, state: &GomokuState) -> u64 {
        let stones = self.points.iter().map(|&p| usize::from(p)).fold(0, |h, p| match state.board.cells[p] {
            BLACK => h ^ self.zobrist[p][0],
            WHITE => h ^ self.zobrist[p][1],
            _ => h,
        });
        if state.side == Player::Second { stones ^ self.side_key } else { stones }
    }

    fn forced_win(
        &self,
        state: &GomokuState,
        threats: u32,
        nodes: u64,
        deadline: Option<std::time::Instant>,
        visited: &mut u64,
    ) -> Option<crate::board::ForcedWin<Move>> {
        let mut solver = vct::VctSolver::new(self, nodes).until(deadline);
        let win = solver.solve(state, threats);
        *visited += solver.nodes();
        win
    }

    fn engine_rules(&self) -> Option<crate::external::EngineRules> {
        (self.opening == OpeningRule::Free).then(|| crate::external::EngineRules::Gomocup(self.win.gomocup()))
    }

    fn swap_procedure(&self) -> Option<crate::swap::Procedure> {
        self.opening.procedure()
    }

    fn balanced_openings(&self) -> Vec<Vec<Move>> {
        match suite_text(self.win, self.size(), self.opening) {
            // The embedded suites are checked by a test, so a line that failed would be a build from a broken tree.
            Some(text) => crate::openings::parse_suite(self, text).unwrap_or_default(),
            None => Vec::new(),
        }
    }
}

/// The embedded balanced opening suite of a win rule, board size and opening rule, where there is one (made by
/// `tabula-cli openings`, see the README).
fn suite_text(win: WinRule, size: usize, opening: OpeningRule) -> Option<&'static str> {
    if size != DEFAULT_SIZE || opening != OpeningRule::Free {
        return None;
    }
    Some(match win {
        WinRule::Freestyle => include_str!("../../data/openings/gomoku-freestyle-15.txt"),
        WinRule::ExactFive => include_str!("../../data/openings/gomoku-exact-five-15.txt"),
        WinRule::Renju => include_str!("../../data/openings/gomoku-renju-15.txt"),
        WinRule::Caro => include_str!("../../data/openings/gomoku-caro-15.txt"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule's embedded suite reads without error, holds a hundred or more openings of three to five stones,
    /// and is what the arena gets; other sizes have none.
    #[test]
    fn the_embedded_opening_suites_are_usable() {
        for win in WinRule::ALL {
            let game = Gomoku::new(DEFAULT_SIZE, win).expect("rules");
            let text = suite_text(win, DEFAULT_SIZE, OpeningRule::Free).expect("a suite");
            let suite = crate::openings::parse_suite(&game, text).unwrap_or_else(|e| panic!("{win:?}: {e}"));
            assert!(suite.len() >= 100, "{win:?}: {} openings", suite.len());
            assert!(suite.iter().all(|o| (3..=5).contains(&o.len())), "{win:?}");
            assert_eq!(game.balanced_openings(), suite);
        }
        let small = Gomoku::new(9, WinRule::Freestyle).expect("rules");
        assert!(small.balanced_openings().is_empty());
    }

    /// The suites made since the generator knows symmetry hold no opening twice, mirrored or rotated (Renju's is
    /// older, with repeats).
    #[test]
    fn the_regenerated_suites_hold_no_opening_twice() {
        for win in [WinRule::Freestyle, WinRule::ExactFive, WinRule::Caro] {
            let game = Gomoku::new(DEFAULT_SIZE, win).expect("rules");
            let mut keys = std::collections::HashSet::new();
            for opening in game.balanced_openings() {
                let mut state = game.initial_state();
                for mv in opening {
                    game.make(&mut state, mv);
                }
                assert!(keys.insert(crate::openings::symmetric_key(&game, &state)), "{win:?}: a repeat");
            }
            assert!(keys.len() >= 200, "{win:?}: {} openings", keys.len());
        }
    }
}
