//! Renju's forbidden points for Black: overline, double four and double three, where a three counts only if the
//! point that turns it into a straight four is itself legal (checked recursively) and not a five. A five beats
//! them all.

use super::Gomoku;
use super::board::Board;
use super::patterns::{self, BLACK, EMPTY, LineRule, Pattern};

/// Why a point is forbidden to Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// Six or more black stones in a row.
    Overline,
    /// Two or more fours at once (possibly on one line).
    DoubleFour,
    /// Two or more real threes at once.
    DoubleThree,
}

impl Forbidden {
    /// The words shown to players ("double three").
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double four",
            Forbidden::DoubleThree => "double three",
        }
    }

    /// The identifier used in data files ("double-three").
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double-four",
            Forbidden::DoubleThree => "double-three",
        }
    }

    /// The kind with this identifier.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Forbidden> {
        [Forbidden::Overline, Forbidden::DoubleFour, Forbidden::DoubleThree].into_iter().find(|k| k.id() == id)
    }
}

/// Whether a black stone on the empty point `p` would be forbidden, and why. Cheap unless two lines show open
/// threes, when the recursive check works on a copy of the board.
#[must_use]
pub fn forbidden(game: &Gomoku, board: &Board, p: usize) -> Option<Forbidden> {
    match quick(board, p) {
        Quick::Decided(kind) => kind,
        Quick::Threes(lines) => {
            let mut scratch = board.clone();
            double_three(game, &mut scratch, p, &lines)
        }
    }
}

enum Quick {
    Decided(Option<Forbidden>),
    Threes([bool; 4]),
}

/// Whether a black stone with these line patterns (under the exact-five table) might be forbidden: the cheap part
/// of [`forbidden`], which the threat cache keeps per point so most points skip the full check.
#[must_use]
pub fn may_be_forbidden(lines: &[Pattern; 4]) -> bool {
    !matches!(classify(lines), Quick::Decided(None))
}

fn quick(board: &Board, p: usize) -> Quick {
    if board.cells[p] != EMPTY {
        return Quick::Decided(None);
    }
    let exact = patterns::table(LineRule::Exact);
    classify(&[0, 1, 2, 3].map(|d| exact[board.keys[p][d] as usize]))
}

/// What the line patterns alone decide.
fn classify(lines: &[Pattern; 4]) -> Quick {
    if lines.contains(&Pattern::Five) {
        return Quick::Decided(None);
    }
    if lines.contains(&Pattern::Overline) {
        return Quick::Decided(Some(Forbidden::Overline));
    }
    if lines.iter().map(|l| l.four_count()).sum::<u32>() >= 2 {
        return Quick::Decided(Some(Forbidden::DoubleFour));
    }
    let threes = lines.map(|l| l == Pattern::OpenThree);
    if threes.iter().filter(|&&t| t).count() < 2 {
        return Quick::Decided(None);
    }
    Quick::Threes(threes)
}

/// The recursive part: `p` shows open threes on the marked lines; count those that are real.
fn double_three(game: &Gomoku, board: &mut Board, p: usize, lines: &[bool; 4]) -> Option<Forbidden> {
    let geo = *game.geometry();
    board.place(&geo, p, BLACK);
    let mut real = 0;
    for d in (0..4).filter(|&d| lines[d]) {
        let offsets = patterns::straight_four_offsets(LineRule::Exact, board.keys[p][d]);
        let is_real = offsets.into_iter().any(|off| {
            let q = geo.step(p, d, off);
            board.cells[q] == EMPTY && !makes_five(board, q) && forbidden_in_place(game, board, q).is_none()
        });
        if is_real {
            real += 1;
            if real >= 2 {
                break;
            }
        }
    }
    board.remove(&geo, p, BLACK);
    (real >= 2).then_some(Forbidden::DoubleThree)
}

/// Whether a black stone on `q` completes a five: such a point makes a five, not a straight four, so it does not
/// make a three real (as in Rapfi, which the shared fixtures follow).
fn makes_five(board: &Board, q: usize) -> bool {
    let exact = patterns::table(LineRule::Exact);
    (0..4).any(|d| exact[board.keys[q][d] as usize] == Pattern::Five)
}

fn forbidden_in_place(game: &Gomoku, board: &mut Board, p: usize) -> Option<Forbidden> {
    match quick(board, p) {
        Quick::Decided(kind) => kind,
        Quick::Threes(lines) => double_three(game, board, p, &lines),
    }
}
