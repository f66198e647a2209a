//! VCT (victory by continuous threats): a proof search in which every attacker move makes a four or an open three,
//! so the defender must answer each threat: a four by blocking its five, an open three by one of the points that
//! leave no open four, or, either way, by a four of its own that the attacker must block first. The engine asks it
//! before searching, so a forced win far beyond the search's horizon is played at once (AIWine runs the same kind
//! of search every move).
//!
//! It is a depth-first proof-number search (df-pn, as in Nagai's thesis and the threat solvers of strong Gomoku
//! and Renju programs), bounded by attacker moves, nodes and a deadline; a position it fails to prove within them
//! is simply not a proven win. Every line it returns is a real win under the rules: fours, fives and the open-four
//! points come from the threat cache and the pattern tables, and a Renju attacker with Black never plays a
//! forbidden point.

use std::collections::HashMap;
use std::time::Instant;

use tabula_core::{Game, GameResult};

use super::patterns::{Pattern, field, view};
use super::threats::{Flag, makes_open_four};
use super::values::Role;
use super::{Gomoku, GomokuState, Move, color_of, player_of};
use crate::board::ForcedWin;

/// What the attacker threatens after its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Threat {
    /// A five next move (one or more five points).
    Four,
    /// An open four next move (a legal open-four point).
    Three,
}

/// Proof and disproof numbers of a position: at least how many unsettled positions below it must still be proven
/// wins for the attacker (or refuted) to prove (or refute) it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    proof: u32,
    disproof: u32,
}

/// Stands for "never": a proven position's disproof number and a refuted one's proof number.
const INFINITE: u32 = u32::MAX / 2;

impl Numbers {
    const PROVEN: Numbers = Numbers { proof: 0, disproof: INFINITE };
    const REFUTED: Numbers = Numbers { proof: INFINITE, disproof: 0 };
    /// A position not searched yet.
    const UNKNOWN: Numbers = Numbers { proof: 1, disproof: 1 };
}

/// The sum of two proof (or disproof) numbers, where any infinite term makes it infinite.
fn sum(a: u32, b: u32) -> u32 {
    if a >= INFINITE || b >= INFINITE { INFINITE } else { (a + b).min(INFINITE - 1) }
}

/// A VCT solver: a depth-first proof-number search (df-pn) over the threat sequences, with a table of the
/// positions' proof and disproof numbers, for one search. Proof-number search goes deepest where the defender has
/// the fewest answers, so long sequences of fours and threes are proven at a fraction of the nodes that a
/// depth-first search of every threat to a fixed length visits.
pub struct VctSolver<'g> {
    game: &'g Gomoku,
    table: HashMap<u64, Numbers>,
    /// The most attacker moves a line may have in the current iteration.
    max_len: u32,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    out_of_time: bool,
}

impl<'g> VctSolver<'g> {
    /// A solver for positions of `game` that gives up after visiting `node_limit` positions.
    #[must_use]
    pub fn new(game: &'g Gomoku, node_limit: u64) -> VctSolver<'g> {
        VctSolver { game, table: HashMap::new(), max_len: 0, nodes: 0, node_limit, deadline: None, out_of_time: false }
    }

    /// The same solver, also giving up at `deadline`.
    #[must_use]
    pub fn until(self, deadline: Option<Instant>) -> VctSolver<'g> {
        VctSolver { deadline, ..self }
    }

    /// Counts a visited position, reading the clock every 256 of them.
    fn visit(&mut self) {
        self.nodes += 1;
        if !self.out_of_time && self.nodes.is_multiple_of(256) {
            self.out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
        }
    }

    /// Whether the node limit or the deadline has ended the search.
    fn exhausted(&self) -> bool {
        self.out_of_time || self.nodes >= self.node_limit
    }

    /// Positions visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A win for the side to move by continuous threats of at most `max_len` attacker moves: a line (attacker and
    /// defender moves alternating, ending with the five or a threat the defender cannot meet), and the plies to
    /// the five at the latest. The first win found is shortened while the nodes and the time last, by searching
    /// for wins of fewer attacker moves, the fewest first.
    pub fn solve(&mut self, state: &GomokuState, max_len: u32) -> Option<ForcedWin<Move>> {
        if state.outcome.is_some() {
            return None;
        }
        let mut line = self.prove(state, max_len)?;
        for len in 1..line.len().div_ceil(2) as u32 {
            if self.exhausted() {
                break;
            }
            if let Some(shorter) = self.prove(state, len) {
                line = shorter;
                break;
            }
        }
        let plies = self.plies_to_five(state, &line);
        Some(ForcedWin { line, plies })
    }

    /// The line of a win of at most `len` attacker moves, if one is proven within the nodes and the time.
    fn prove(&mut self, state: &GomokuState, len: u32) -> Option<Vec<Move>> {
        // A refutation within fewer moves says nothing about more, so each length starts afresh.
        self.table.clear();
        self.max_len = len;
        let attacker = color_of(state.side);
        let root = self.search(&mut state.clone(), attacker, 0, Numbers { proof: INFINITE, disproof: INFINITE });
        (root.proof == 0).then(|| self.proof_line(state, attacker))
    }

    /// The moves to search from `s`, attacker's or defender's by who is to move, or the position's value when it
    /// is settled without a search: `used` attacker moves have been played since the root.
    fn expand(&self, s: &GomokuState, attacker: u8, used: u32) -> Result<Vec<usize>, Numbers> {
        let game = self.game;
        if let Some(outcome) = s.outcome {
            return Err(if outcome.result == GameResult::Win(player_of(attacker)) {
                Numbers::PROVEN
            } else {
                Numbers::REFUTED
            });
        }
        let threats = s.threats();
        let defender = 3 - attacker;
        if color_of(s.side) == attacker {
            if threats.count(attacker, Flag::Five) > 0 {
                return Err(Numbers::PROVEN);
            }
            if used >= self.max_len {
                return Err(Numbers::REFUTED);
            }
            let defender_fives: Vec<usize> = threats.flagged(defender, Flag::Five).collect();
            let moves: Vec<usize> = if defender_fives.is_empty() {
                self.threat_moves(s, attacker)
            } else {
                // The defender's four must be blocked first, and a threat must stand after the block to go on.
                game.five_defences(s.board(), defender, &defender_fives)
                    .into_iter()
                    .filter(|&p| game.legal_for(s, p, attacker))
                    .collect()
            };
            return if moves.is_empty() { Err(Numbers::REFUTED) } else { Ok(moves) };
        }
        if threats.count(defender, Flag::Five) > 0 {
            return Err(Numbers::REFUTED);
        }
        let mut answers: Vec<usize> = match self.threat_of(s, attacker) {
            None => return Err(Numbers::REFUTED),
            Some(Threat::Four) => {
                let fives: Vec<usize> = threats.flagged(attacker, Flag::Five).collect();
                game.five_defences(s.board(), attacker, &fives)
            }
            Some(Threat::Three) => {
                let mut answers = game.open_four_defences(s, attacker);
                answers
                    .extend(threats.flagged(defender, Flag::Four).filter(|p| !answers.contains(p)).collect::<Vec<_>>());
                answers
            }
        };
        answers.retain(|&p| game.legal_for(s, p, defender));
        // No legal answer: the threat stands and wins.
        if answers.is_empty() { Err(Numbers::PROVEN) } else { Ok(answers) }
    }

    /// Searches `s` until its proof or disproof number reaches its `limit` (or the search is exhausted), and
    /// returns its numbers, which the table keeps.
    fn search(&mut self, s: &mut GomokuState, attacker: u8, used: u32, limit: Numbers) -> Numbers {
        self.visit();
        let game = self.game;
        let key = game.hash(s);
        let moves = match self.expand(s, attacker, used) {
            Ok(moves) => moves,
            Err(numbers) => {
                self.table.insert(key, numbers);
                return numbers;
            }
        };
        let attacking = color_of(s.side) == attacker;
        let child_used = used + u32::from(attacking);
        // Each child's key, and its numbers until it is searched: an open three leaves the defender more answers
        // than a four, so it starts harder to prove.
        let start: Vec<(u64, Numbers)> = moves
            .iter()
            .map(|&p| {
                let key = game.hash_after(s, game.move_of_index(p)).unwrap_or_default();
                let three = attacking && !s.threats().lines(p, attacker).iter().any(|l| l.is_four());
                (key, if three { Numbers { proof: 2, disproof: 1 } } else { Numbers::UNKNOWN })
            })
            .collect();
        loop {
            let children: Vec<Numbers> =
                start.iter().map(|&(key, first)| self.table.get(&key).copied().unwrap_or(first)).collect();
            // Seen from the side to move, the attacker needs one good move and the defender one good answer:
            // `own` is the number that side's best child minimises, `other` the one their sum adds up.
            let own = |n: &Numbers| if attacking { n.proof } else { n.disproof };
            let other = |n: &Numbers| if attacking { n.disproof } else { n.proof };
            let mut best = 0;
            let mut second = INFINITE;
            for (i, n) in children.iter().enumerate().skip(1) {
                if own(n) < own(&children[best]) {
                    second = own(&children[best]);
                    best = i;
                } else {
                    second = second.min(own(n));
                }
            }
            let total = children.iter().fold(0, |acc, n| sum(acc, other(n)));
            let numbers = if attacking {
                Numbers { proof: own(&children[best]), disproof: total }
            } else {
                Numbers { proof: total, disproof: own(&children[best]) }
            };
            if numbers.proof >= limit.proof || numbers.disproof >= limit.disproof || self.exhausted() {
                self.table.insert(key, numbers);
                return numbers;
            }
            let chosen = children[best];
            let child_limit = if attacking {
                Numbers {
                    proof: limit.proof.min(sum(second, 1)),
                    disproof: sum(limit.disproof - numbers.disproof, chosen.disproof),
                }
            } else {
                Numbers {
                    proof: sum(limit.proof - numbers.proof, chosen.proof),
                    disproof: limit.disproof.min(sum(second, 1)),
                }
            };
            let m = game.move_of_index(moves[best]);
            let undo = game.make(s, m);
            self.search(s, attacker, child_used, child_limit);
            game.unmake(s, m, undo);
        }
    }

    /// The line of a proven `state`: the attacker's proven move at each of its turns, the defender's first
    /// answer at each of its own, to the five or to a threat with no answer.
    fn proof_line(&self, state: &GomokuState, attacker: u8) -> Vec<Move> {
        let game = self.game;
        let mut s = state.clone();
        let mut line = Vec::new();
        let mut used = 0;
        loop {
            let attacking = color_of(s.side) == attacker;
            if attacking && let Some(five) = s.threats().flagged(attacker, Flag::Five).next() {
                line.push(game.move_of_index(five));
                return line;
            }
            let Ok(moves) = self.expand(&s, attacker, used) else { return line };
            let next = if attacking {
                moves.into_iter().map(|p| game.move_of_index(p)).find(|&m| {
                    let child = game.hash_after(&s, m).unwrap_or_default();
                    self.table.get(&child).is_some_and(|n| n.proof == 0)
                })
            } else {
                moves.first().map(|&p| game.move_of_index(p))
            };
            let Some(m) = next else { return line };
            used += u32::from(attacking);
            line.push(m);
            game.make(&mut s, m);
        }
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
