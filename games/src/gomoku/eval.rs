//! The engine's judgement of Gomoku: candidate moves near the stones pruned by threats, move ordering by threat
//! (five, open four, four, open three, three) and a threat-based evaluation.
//!
//! Everything here reads the state's [`Threats`] cache, which `make` and `unmake` keep up to date: the evaluation is
//! the difference of the two colours' value totals over the candidate area (the side to move weighted up), unless
//! a five or an open four decides it. Only Renju needs work per call: Black's strong points that might be
//! forbidden are checked and, if forbidden, are worth nothing to Black.

use tabula_core::{Evaluator, Score};

use super::patterns::BLACK;
use super::threats::{Flag, Threats};
use super::{Gomoku, GomokuState, Move, WinRule, color_of};

/// A position the side to move wins by force (an immediate five, or an open four the opponent cannot answer),
/// kept well inside the mate bound.
pub const WIN: Score = 400_000;

/// A point worth at least this to Black is one Renju may forbid (two threes or two fours), so the evaluation
/// checks it; weaker forbidden points (overlines) keep their small value.
const STRONG: i32 = 700;

/// A point worth less than this to a colour makes no open three or four for it (see `threats::line_value`): a
/// move below it for both colours neither makes nor stops a threat.
const THREAT: i32 = 180;

/// The evaluator the Gomoku AI uses.
#[derive(Clone, Copy, Debug, Default)]
pub struct GomokuEvaluator;

/// Black's forbidden points as the evaluation sees them: the value Black loses on strong forbidden points, and
/// whether Black has a legal point that makes an open four.
fn renju_black(game: &Gomoku, state: &GomokuState) -> (i32, bool) {
    let threats = state.threats();
    let forbidden = |p: usize| !game.legal_for(state, p, BLACK);
    let lost = threats
        .flagged(BLACK, Flag::Forbiddable)
        .map(|p| (p, threats.value(p, BLACK)))
        .filter(|&(p, value)| value >= STRONG && forbidden(p))
        .map(|(_, value)| value)
        .sum();
    let open_four = threats.flagged(BLACK, Flag::OpenFour).any(|p| !forbidden(p));
    (lost, open_four)
}

impl GomokuEvaluator {
    /// Adds the forced replies and returns `true`: the own five if any, else the defences against the opponent's
    /// fives. Returns `false` (adding nothing) when nothing is forced or no defence is legal.
    fn forced(game: &Gomoku, state: &GomokuState, moves: &mut Vec<Move>) -> bool {
        let threats = state.threats();
        let own = color_of(state.side);
        if let Some(win) = threats.flagged(own, Flag::Five).next() {
            moves.push(game.move_of_index(win));
            return true;
        }
        if threats.count(3 - own, Flag::Five) == 0 {
            return false;
        }
        let fives: Vec<usize> = threats.flagged(3 - own, Flag::Five).collect();
        let mut defences = game.five_defences(state.board(), 3 - own, &fives);
        if defences.is_empty() {
            // Lost anyway: block one of the fives.
            defences = fives;
        }
        let before = moves.len();
        moves.extend(defences.into_iter().filter(|&p| game.legal_for(state, p, own)).map(|p| game.move_of_index(p)));
        moves.len() > before
    }

    /// Adds the legal candidates that `keep` accepts, in board order.
    fn add_candidates(
        game: &Gomoku,
        state: &GomokuState,
        moves: &mut Vec<Move>,
        keep: impl Fn(&Threats, usize) -> bool,
    ) {
        let threats = state.threats();
        let own = color_of(state.side);
        moves.extend(
            threats
                .candidates()
                .filter(|&p| keep(threats, p) && game.legal_for(state, p, own))
                .map(|p| game.move_of_index(p)),
        );
    }
}

impl Evaluator<Gomoku> for GomokuEvaluator {
    fn evaluate(&self, game: &Gomoku, state: &GomokuState) -> Score {
        let threats = state.threats();
        let own = color_of(state.side);
        let their_fives = threats.count(3 - own, Flag::Five);
        if threats.count(own, Flag::Five) > 0 {
            return WIN;
        } else if their_fives >= 2 && game.win_rule() != WinRule::Caro {
            return -WIN;
        } else if their_fives == 1 {
            return -WIN / 2;
        }
        let mut totals = [threats.total(own), threats.total(3 - own)];
        let mut own_open_four = threats.count(own, Flag::OpenFour) > 0;
        if game.win_rule() == WinRule::Renju {
            let (lost, open_four) = renju_black(game, state);
            let black = usize::from(own != BLACK);
            totals[black] -= lost;
            if own == BLACK {
                own_open_four = open_four;
            }
        }
        if own_open_four { WIN / 2 } else { (totals[0] * 5 - totals[1] * 4) / 4 }
    }

    fn search_moves(&self, game: &Gomoku, state: &GomokuState, moves: &mut Vec<Move>) {
        if state.stones() == 0 {
            let centre = game.size() / 2;
            moves.extend(game.move_xy(centre, centre));
            return;
        }
        if Self::forced(game, state, moves) {
            return;
        }
        let own = color_of(state.side);
        if state.threats().count(3 - own, Flag::OpenFour) > 0 {
            Self::add_candidates(game, state, moves, |t, p| t.has(p, own, Flag::Four) || t.has(p, 3 - own, Flag::Four));
        }
        if moves.is_empty() {
            Self::add_candidates(game, state, moves, |_, _| true);
        }
        if moves.is_empty() {
            tabula_core::Game::legal_moves(game, state, moves);
        }
    }

    fn move_score(&self, _game: &Gomoku, state: &GomokuState, mv: Move) -> i32 {
        let own = color_of(state.side);
        let threats = state.threats();
        2 * threats.value(mv.index(), own) + threats.value(mv.index(), 3 - own)
    }

    fn is_quiet(&self, _game: &Gomoku, state: &GomokuState, mv: Move) -> bool {
        let own = color_of(state.side);
        let threats = state.threats();
        threats.value(mv.index(), own) < THREAT && threats.value(mv.index(), 3 - own) < THREAT
    }

    fn noisy_moves(&self, game: &Gomoku, state: &GomokuState, moves: &mut Vec<Move>) {
        if Self::forced(game, state, moves) {
            return;
        }
        let threats = state.threats();
        let own = color_of(state.side);
        if threats.count(3 - own, Flag::Five) > 0 {
            return;
        }
        moves.extend(
            threats.flagged(own, Flag::Four).filter(|&p| game.legal_for(state, p, own)).map(|p| game.move_of_index(p)),
        );
    }
}
