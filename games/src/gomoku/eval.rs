//! The engine's judgement of Gomoku: candidate moves near the stones pruned by threats, move ordering by threat
//! (five, open four, four, open three, three) and a threat-based evaluation.

use tabula_core::{Evaluator, Score};

use super::patterns::{BLACK, EMPTY, Pattern};
use super::{Gomoku, GomokuState, Move, WinRule, color_of};

/// A position the side to move wins by force (an immediate five, or an open four the opponent cannot answer),
/// kept well inside the mate bound.
pub const WIN: Score = 400_000;

/// The evaluator the Gomoku AI uses.
#[derive(Clone, Copy, Debug, Default)]
pub struct GomokuEvaluator;

/// The value of one line pattern for the stone's owner.
fn line_value(pattern: Pattern) -> i32 {
    match pattern {
        Pattern::Dead | Pattern::Overline => 0,
        Pattern::One => 2,
        Pattern::Two => 12,
        Pattern::Three => 50,
        Pattern::OpenThree => 180,
        Pattern::Four => 220,
        Pattern::DoubleFour | Pattern::OpenFour => 3_000,
        Pattern::Five => 20_000,
    }
}

/// The value of a point for a colour from its four line patterns, with bonuses for the winning combinations.
fn point_value(lines: &[Pattern; 4]) -> i32 {
    let fours = lines.iter().filter(|l| l.is_four()).count();
    let threes = lines.iter().filter(|&&l| l == Pattern::OpenThree).count();
    let combo = if fours >= 2 {
        3_000
    } else if fours == 1 && threes >= 1 {
        1_500
    } else if threes >= 2 {
        700
    } else {
        0
    };
    lines.iter().map(|&l| line_value(l)).sum::<i32>() + combo
}

/// Whether a stone there makes a four the opponent cannot stop with one stone.
fn makes_open_four(lines: &[Pattern; 4]) -> bool {
    lines.iter().any(|&l| matches!(l, Pattern::OpenFour | Pattern::DoubleFour))
        || lines.iter().filter(|l| l.is_four()).count() >= 2
}

/// What one point means to both sides.
struct PointInfo {
    p: usize,
    own: [Pattern; 4],
    theirs: [Pattern; 4],
}

/// Every empty point in the candidate area with its patterns for both sides.
fn scan(game: &Gomoku, state: &GomokuState) -> Vec<PointInfo> {
    let board = state.board();
    let own = color_of(state.side);
    game.points()
        .iter()
        .map(|&p| usize::from(p))
        .filter(|&p| board.near[p] > 0 && board.cells[p] == EMPTY)
        .map(|p| PointInfo { p, own: game.patterns(board, p, own), theirs: game.patterns(board, p, 3 - own) })
        .collect()
}

/// Whether a point that looks strong for `color` is legal for it: strong shapes are exactly the ones Renju may
/// forbid, so only those pay for the check.
fn legal_for(game: &Gomoku, state: &GomokuState, p: usize, color: u8) -> bool {
    game.win_rule() != WinRule::Renju || color != BLACK || game.forbidden(state.board(), p, color).is_none()
}

impl GomokuEvaluator {
    /// The forced replies: the own five if any, else the defences against the opponent's fives, else `None`.
    fn forced(game: &Gomoku, state: &GomokuState, points: &[PointInfo]) -> Option<Vec<Move>> {
        if let Some(win) = points.iter().find(|i| i.own.contains(&Pattern::Five)) {
            return Some(vec![game.move_of_index(win.p)]);
        }
        let own = color_of(state.side);
        let fives: Vec<usize> = points.iter().filter(|i| i.theirs.contains(&Pattern::Five)).map(|i| i.p).collect();
        if fives.is_empty() {
            return None;
        }
        let mut defences = game.five_defences(state.board(), 3 - own, &fives);
        if defences.is_empty() {
            // Lost anyway: block one of the fives.
            defences = fives;
        }
        let blocks: Vec<Move> =
            defences.into_iter().filter(|&p| legal_for(game, state, p, own)).map(|p| game.move_of_index(p)).collect();
        (!blocks.is_empty()).then_some(blocks)
    }
}

impl Evaluator<Gomoku> for GomokuEvaluator {
    fn evaluate(&self, game: &Gomoku, state: &GomokuState) -> Score {
        let own_color = color_of(state.side);
        let (mut own, mut theirs) = (0i32, 0i32);
        let (mut own_five, mut their_fives, mut own_open_four) = (false, 0, false);
        for info in scan(game, state) {
            own_five |= info.own.contains(&Pattern::Five);
            their_fives += usize::from(info.theirs.contains(&Pattern::Five));
            let mut value = point_value(&info.own);
            if value >= 700 && !legal_for(game, state, info.p, own_color) {
                value = 0;
            }
            own_open_four |= value > 0 && makes_open_four(&info.own);
            own += value;
            let mut value = point_value(&info.theirs);
            if value >= 700 && !legal_for(game, state, info.p, 3 - own_color) {
                value = 0;
            }
            theirs += value;
        }
        if own_five {
            WIN
        } else if their_fives >= 2 && game.win_rule() != WinRule::Caro {
            -WIN
        } else if their_fives == 1 {
            -WIN / 2
        } else if own_open_four {
            WIN / 2
        } else {
            (own * 5 - theirs * 4) / 4
        }
    }

    fn search_moves(&self, game: &Gomoku, state: &GomokuState, moves: &mut Vec<Move>) {
        if state.stones() == 0 {
            let centre = game.size() / 2;
            moves.extend(game.move_xy(centre, centre));
            return;
        }
        let points = scan(game, state);
        if let Some(forced) = Self::forced(game, state, &points) {
            moves.extend(forced);
            return;
        }
        let own = color_of(state.side);
        let threatened = points.iter().any(|i| makes_open_four(&i.theirs));
        moves.extend(
            points
                .iter()
                .filter(|i| !threatened || i.own.iter().any(|l| l.is_four()) || i.theirs.iter().any(|l| l.is_four()))
                .filter(|i| legal_for(game, state, i.p, own))
                .map(|i| game.move_of_index(i.p)),
        );
        if moves.is_empty() {
            moves.extend(points.iter().filter(|i| legal_for(game, state, i.p, own)).map(|i| game.move_of_index(i.p)));
        }
        if moves.is_empty() {
            tabula_core::Game::legal_moves(game, state, moves);
        }
    }

    fn move_score(&self, game: &Gomoku, state: &GomokuState, mv: Move) -> i32 {
        let own = color_of(state.side);
        let board = state.board();
        let p = mv.index();
        2 * point_value(&game.patterns(board, p, own)) + point_value(&game.patterns(board, p, 3 - own))
    }

    fn noisy_moves(&self, game: &Gomoku, state: &GomokuState, moves: &mut Vec<Move>) {
        let points = scan(game, state);
        if let Some(forced) = Self::forced(game, state, &points) {
            moves.extend(forced);
            return;
        }
        if points.iter().any(|i| i.theirs.contains(&Pattern::Five)) {
            return;
        }
        let own = color_of(state.side);
        moves.extend(
            points
                .iter()
                .filter(|i| makes_open_four(&i.own) && legal_for(game, state, i.p, own))
                .map(|i| game.move_of_index(i.p)),
        );
    }
}
