//! VCF (victory by continuous fours): a proof search in which every attacker move makes a four, so the defender's
//! reply is forced. Works under every win rule: a Renju attacker with Black never plays a forbidden point, and
//! White also wins when Black's only block is forbidden.

use std::collections::HashMap;

use tabula_core::{Game, Player};

use super::patterns::{BLACK, EMPTY, Pattern};
use super::threats::Flag;
use super::{Gomoku, GomokuState, Move, WinRule, color_of};

/// A proven VCF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VcfWin {
    /// Attacker moves in the shortest win, the final five included (a win by forcing Black onto a forbidden point
    /// counts only the fours).
    pub length: u32,
    /// The attacker's first moves that win in `length` moves (all of them when asked, else the first found).
    pub first_moves: Vec<Move>,
    /// One winning line, attacker and defender moves alternating.
    pub line: Vec<Move>,
}

/// A VCF solver with a table of positions known to fail, reusable across searches of one game.
pub struct VcfSolver<'g> {
    game: &'g Gomoku,
    failed: HashMap<u64, u32>,
    nodes: u64,
}

impl<'g> VcfSolver<'g> {
    /// A solver for positions of `game`.
    #[must_use]
    pub fn new(game: &'g Gomoku) -> VcfSolver<'g> {
        VcfSolver { game, failed: HashMap::new(), nodes: 0 }
    }

    /// Positions visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Finds the shortest VCF of at most `max_len` attacker moves for the side to move, by iterative deepening.
    /// With `all_first_moves`, lists every first move that wins in the shortest length.
    pub fn solve(&mut self, state: &GomokuState, max_len: u32, all_first_moves: bool) -> Option<VcfWin> {
        if state.outcome.is_some() {
            return None;
        }
        let mut s = state.clone();
        let attacker = color_of(s.side);
        let fives = self.five_points(&s, attacker);
        if let Some(&first) = fives.first() {
            let first_moves = if all_first_moves { fives.clone() } else { vec![first] };
            return Some(VcfWin { length: 1, first_moves, line: vec![first] });
        }
        let defender_fives = self.five_points(&s, 3 - attacker);
        for budget in 1..=max_len {
            let Some(line) = self.attack(&mut s, budget, &defender_fives) else { continue };
            let mut first_moves = vec![line[0]];
            if all_first_moves {
                for m in self.candidates(&s, &defender_fives) {
                    if m != line[0] && self.try_four(&mut s, m, budget).is_some() {
                        first_moves.push(m);
                    }
                }
                first_moves.sort();
            }
            return Some(VcfWin { length: budget, first_moves, line });
        }
        None
    }

    /// Every empty point where `color` completes a five.
    fn five_points(&self, s: &GomokuState, color: u8) -> Vec<Move> {
        s.threats.flagged(color, Flag::Five).map(|p| self.game.move_of_index(p)).collect()
    }

    /// The points where `color` completes a five on the four lines through `center`.
    fn five_points_near(&self, s: &GomokuState, center: usize, color: u8) -> Vec<usize> {
        let geo = self.game.geometry();
        let mut found = Vec::new();
        for d in 0..4 {
            for k in (-5..=5isize).filter(|&k| k != 0) {
                let q = geo.step(center, d, k);
                if s.board.cells[q] == EMPTY
                    && self.game.pattern(&s.board, q, color, d) == Pattern::Five
                    && !found.contains(&q)
                {
                    found.push(q);
                }
            }
        }
        found
    }

    /// The attacker's legal four-making moves (or only the block of the defender's single five point), the most
    /// promising first.
    fn candidates(&self, s: &GomokuState, defender_fives: &[Move]) -> Vec<Move> {
        let threats = &s.threats;
        let attacker = color_of(s.side);
        let mut scored: Vec<(i32, Move)> = Vec::new();
        let mut consider = |p: usize| {
            if !threats.has(p, attacker, Flag::Four) || !self.game.legal_for(s, p, attacker) {
                return;
            }
            let weight = threats.lines(p, attacker).iter().map(|&l| l as i32 * l as i32).sum();
            scored.push((weight, self.game.move_of_index(p)));
        };
        match defender_fives {
            [] => threats.flagged(attacker, Flag::Four).for_each(&mut consider),
            [only] => consider(only.index()),
            _ => {}
        }
        scored.sort_by_key(|&(w, m)| (std::cmp::Reverse(w), m));
        scored.into_iter().map(|(_, m)| m).collect()
    }

    /// Whether the attacker (to move) wins within `budget` moves of fours; returns the line.
    fn attack(&mut self, s: &mut GomokuState, budget: u32, defender_fives: &[Move]) -> Option<Vec<Move>> {
        self.nodes += 1;
        if budget == 0 || defender_fives.len() >= 2 {
            return None;
        }
        let key = self.game.hash(s);
        if self.failed.get(&key).is_some_and(|&b| b >= budget) {
            return None;
        }
        for m in self.candidates(s, defender_fives) {
            if let Some(line) = self.try_four(s, m, budget) {
                return Some(line);
            }
        }
        self.failed.insert(key, budget);
        None
    }

    /// Tries every defence (the defender to move): the attacker must win within `budget` after each. Returns the
    /// line after the first defence.
    fn defend(&mut self, s: &mut GomokuState, defences: &[usize], attacker: u8, budget: u32) -> Option<Vec<Move>> {
        let game = self.game;
        let mut first_line = None;
        for &d in defences {
            if s.side == Player::First && !game.legal_for(s, d, BLACK) {
                continue;
            }
            let block = game.move_of_index(d);
            let undo = game.make(s, block);
            let line = if s.outcome.is_some() {
                None
            } else {
                let threats: Vec<Move> =
                    self.five_points_near(s, d, 3 - attacker).into_iter().map(|q| game.move_of_index(q)).collect();
                self.attack(s, budget, &threats)
            };
            game.unmake(s, block, undo);
            let rest = line?;
            first_line.get_or_insert_with(|| [vec![block], rest].concat());
        }
        first_line
    }

    /// Plays the attacker's four `m` and follows the defender's replies.
    fn try_four(&mut self, s: &mut GomokuState, m: Move, budget: u32) -> Option<Vec<Move>> {
        let game = self.game;
        let attacker = color_of(s.side);
        let undo = game.make(s, m);
        let result = if let Some(outcome) = s.outcome {
            (outcome.result == tabula_core::GameResult::Win(s.side.opponent())).then(|| vec![m])
        } else {
            let fives = self.five_points_near(s, m.index(), attacker);
            let defences = game.five_defences(&s.board, attacker, &fives);
            let forbidden_only = game.win_rule() == WinRule::Renju
                && s.side == Player::First
                && !defences.is_empty()
                && defences.iter().all(|&d| !game.legal_for(s, d, BLACK));
            if fives.is_empty() {
                None
            } else if forbidden_only && fives.len() == 1 {
                Some(vec![m])
            } else if defences.is_empty() || forbidden_only {
                (budget >= 2)
                    .then(|| [vec![m], fives.iter().map(|&f| game.move_of_index(f)).take(2).collect()].concat())
            } else if budget >= 2 {
                self.defend(s, &defences, attacker, budget - 1).map(|rest| [vec![m], rest].concat())
            } else {
                None
            }
        };
        game.unmake(s, m, undo);
        result
    }
}
