//! VCT (victory by continuous threats): a proof search in which every attacker move makes a four or an open three,
//! so the defender must answer each threat: a four by blocking its five, an open three by one of the points that
//! leave no open four, or, either way, by a four of its own that the attacker must block first. The engine asks it
//! before searching, so a forced win far beyond the search's horizon is played at once (AIWine runs the same kind
//! of search every move).
//!
//! The search is bounded by attacker moves and by nodes; a position it fails to prove within the nodes is simply
//! not a proven win. Every line it returns is a real win under the rules: fours, fives and the open-four points
//! come from the threat cache and the pattern tables, and a Renju attacker with Black never plays a forbidden
//! point.

use std::collections::HashMap;
use std::time::Instant;

use tabula_core::{Game, GameResult};

use super::patterns::{Pattern, field, view};
use super::threats::{Flag, makes_open_four};
use super::values::Role;
use super::{Gomoku, GomokuState, Move, color_of};
use crate::board::ForcedWin;

/// What the attacker threatens after its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Threat {
    /// A five next move (one or more five points).
    Four,
    /// An open four next move (a legal open-four point).
    Three,
}

/// A VCT solver with a table of positions that failed, for one search.
pub struct VctSolver<'g> {
    game: &'g Gomoku,
    failed: HashMap<u64, u32>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    out_of_time: bool,
}

impl<'g> VctSolver<'g> {
    /// A solver for positions of `game` that gives up after visiting `node_limit` positions.
    #[must_use]
    pub fn new(game: &'g Gomoku, node_limit: u64) -> VctSolver<'g> {
        VctSolver { game, failed: HashMap::new(), nodes: 0, node_limit, deadline: None, out_of_time: false }
    }

    /// The same solver, also giving up at `deadline`.
    #[must_use]
    pub fn until(self, deadline: Option<Instant>) -> VctSolver<'g> {
        VctSolver { deadline, ..self }
    }

    /// Whether the node limit or the deadline has ended the search (the clock is read every 256 nodes).
    fn exhausted(&mut self) -> bool {
        if !self.out_of_time && self.nodes.is_multiple_of(256) {
            self.out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.out_of_time || self.nodes >= self.node_limit
    }

    /// Positions visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A win for the side to move by continuous threats of at most `max_len` attacker moves: a line (attacker and
    /// defender moves alternating, ending with the five or a threat the defender cannot meet), the shortest found
    /// by iterative deepening within the node limit, and the plies to the five at the latest.
    pub fn solve(&mut self, state: &GomokuState, max_len: u32) -> Option<ForcedWin<Move>> {
        if state.outcome.is_some() {
            return None;
        }
        let mut s = state.clone();
        for budget in 1..=max_len {
            if let Some(line) = self.attack(&mut s, budget) {
                let plies = self.plies_to_five(state, &line);
                return Some(ForcedWin { line, plies });
            }
            if self.exhausted() {
                break;
            }
        }
        None
    }

    /// Whether the attacker (to move) wins within `budget` threats; the winning line.
    fn attack(&mut self, s: &mut GomokuState, budget: u32) -> Option<Vec<Move>> {
        self.nodes += 1;
        let game = self.game;
        let attacker = color_of(s.side);
        let threats = s.threats();
        if let Some(five) = threats.flagged(attacker, Flag::Five).next() {
            return Some(vec![game.move_of_index(five)]);
        }
        if budget == 0 || self.exhausted() {
            return None;
        }
        let key = game.hash(s);
        if self.failed.get(&key).is_some_and(|&b| b >= budget) {
            return None;
        }
        let defender_fives: Vec<usize> = threats.flagged(3 - attacker, Flag::Five).collect();
        let moves: Vec<usize> = if defender_fives.is_empty() {
            self.threat_moves(s, attacker)
        } else {
            // The defender's four must be blocked first, and a threat must stand after the block to go on.
            game.five_defences(s.board(), 3 - attacker, &defender_fives)
                .into_iter()
                .filter(|&p| game.legal_for(s, p, attacker))
                .collect()
        };
        for p in moves {
            let m = game.move_of_index(p);
            let undo = game.make(s, m);
            let line = match s.outcome {
                Some(outcome) => (outcome.result == GameResult::Win(s.side.opponent())).then(Vec::new),
                None => self.threat_of(s, attacker).and_then(|threat| self.defend(s, attacker, threat, budget - 1)),
            };
            game.unmake(s, m, undo);
            if let Some(rest) = line {
                return Some([vec![m], rest].concat());
            }
            if self.exhausted() {
                return None;
            }
        }
        self.failed.insert(key, budget);
        None
    }

    /// Every answer of the defender (to move) to `threat` must lose within `budget` more threats; the line after
    /// the first answer.
    fn defend(&mut self, s: &mut GomokuState, attacker: u8, threat: Threat, budget: u32) -> Option<Vec<Move>> {
        let game = self.game;
        let defender = 3 - attacker;
        let threats = s.threats();
        if threats.count(defender, Flag::Five) > 0 {
            return None;
        }
        let mut answers: Vec<usize> = match threat {
            Threat::Four => {
                let fives: Vec<usize> = threats.flagged(attacker, Flag::Five).collect();
                game.five_defences(s.board(), attacker, &fives)
            }
            Threat::Three => {
                let mut answers = game.open_four_defences(s, attacker);
                answers
                    .extend(threats.flagged(defender, Flag::Four).filter(|p| !answers.contains(p)).collect::<Vec<_>>());
                answers
            }
        };
        answers.retain(|&p| game.legal_for(s, p, defender));
        let mut first_line = None;
        for p in answers {
            let m = game.move_of_index(p);
            let undo = game.make(s, m);
            let line = if s.outcome.is_some() { None } else { self.attack(s, budget) };
            game.unmake(s, m, undo);
            let rest = line?;
            first_line.get_or_insert_with(|| [vec![m], rest].concat());
        }
        // No legal answer: the threat stands and wins.
        Some(first_line.unwrap_or_default())
    }

    /// How many plies the winning `line` from `state` takes to the five: its own length if it ends with the five,
    /// two more after a four the defender cannot stop (any move, then the five), four more after an open three it
    /// cannot stop (any move, the open four, any move, the five).
    fn plies_to_five(&self, state: &GomokuState, line: &[Move]) -> u32 {
        let attacker = color_of(state.side);
        let mut s = state.clone();
        for &m in line {
            self.game.make(&mut s, m);
        }
        let extra = match (s.outcome, self.threat_of(&s, attacker)) {
            (Some(_), _) => 0,
            (None, Some(Threat::Four)) => 2,
            (None, _) => 4,
        };
        line.len() as u32 + extra
    }

    /// The attacker's legal moves that make a four or an open three, fours first, then the threes by value.
    fn threat_moves(&self, s: &GomokuState, attacker: u8) -> Vec<usize> {
        let threats = s.threats();
        let mut scored: Vec<(i32, usize)> = threats
            .candidates()
            .filter_map(|p| {
                let lines = threats.lines(p, attacker);
                let four = lines.iter().any(|l| l.is_four());
                let three = lines.contains(&Pattern::OpenThree);
                let weight = threats.value(p, attacker, Role::ToMove) + if four { 1 << 24 } else { 0 };
                ((four || three) && self.game.legal_for(s, p, attacker)).then_some((weight, p))
            })
            .collect();
        scored.sort_by_key(|&(w, p)| (std::cmp::Reverse(w), p));
        scored.into_iter().map(|(_, p)| p).collect()
    }

    /// What the attacker, having just moved, threatens: a five, an open four, or nothing forcing.
    fn threat_of(&self, s: &GomokuState, attacker: u8) -> Option<Threat> {
        let threats = s.threats();
        if threats.count(attacker, Flag::Five) > 0 {
            Some(Threat::Four)
        } else if threats.flagged(attacker, Flag::OpenFour).any(|p| self.game.legal_for(s, p, attacker)) {
            Some(Threat::Three)
        } else {
            None
        }
    }
}

impl Gomoku {
    /// The points where the defender's stone leaves `attacker` no open four to make next: `attacker`'s legal
    /// open-four points and, along the lines on which they make a four, the empty points up to five steps away,
    /// each kept when none of those open-four points still makes one with the defender's stone there. A stone
    /// changes patterns only along its own lines, so no other point can stop them.
    #[must_use]
    pub fn open_four_defences(&self, state: &GomokuState, attacker: u8) -> Vec<usize> {
        let threats = state.threats();
        let board = state.board();
        let geo = self.geometry();
        let points: Vec<usize> =
            threats.flagged(attacker, Flag::OpenFour).filter(|&p| self.legal_for(state, p, attacker)).collect();
        let mut candidates = points.clone();
        for &t in &points {
            for d in 0..4 {
                if !threats.lines(t, attacker)[d].is_four() {
                    continue;
                }
                for k in (-5..=5isize).filter(|&k| k != 0) {
                    let q = geo.step(t, d, k);
                    if board.cells[q] == super::patterns::EMPTY && !candidates.contains(&q) {
                        candidates.push(q);
                    }
                }
            }
        }
        let defender = u32::from(3 - attacker);
        let table = self.tables[usize::from(attacker - 1)];
        candidates.retain(|&c| {
            points.iter().all(|&t| {
                t == c || {
                    let lines: [Pattern; 4] =
                        [0, 1, 2, 3].map(|d| match (-5..=5isize).find(|&k| k != 0 && geo.step(t, d, k) == c) {
                            Some(k) => {
                                let key = board.keys[t][d] | defender << (2 * field(k));
                                table[view(key, attacker) as usize]
                            }
                            None => threats.lines(t, attacker)[d],
                        });
                    !makes_open_four(&lines)
                }
            })
        });
        candidates
    }
}
