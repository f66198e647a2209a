//! A tiny game for tests that must not depend on the real games: three in a row on a 3x3 board, with the
//! same [`Match`] interface the app uses.

use tabula_core::{Evaluator, Game, MoveParseError, Outcome, Player, Score};
use tabula_games::{BoardGame, Cell, Marker, Match, MoveError, MoveReport, Session};

use tabula_games::registry::{MatchSpec, SpecError};

/// Three in a row on 3x3.
#[derive(Clone, Debug)]
pub struct Triplet;

/// The cells (row by row) and the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    cells: [Option<Player>; 9],
    to_move: Player,
}

const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

fn winner(board: &Board) -> Option<(Player, [usize; 3])> {
    LINES.iter().find_map(|line| {
        let p = board.cells[line[0]]?;
        line.iter().all(|&i| board.cells[i] == Some(p)).then_some((p, *line))
    })
}

/// The plain evaluator: every live position is even.
pub struct Even;

impl Evaluator<Triplet> for Even {
    fn evaluate(&self, _game: &Triplet, _state: &Board) -> Score {
        0
    }
}

impl Game for Triplet {
    type State = Board;
    type Move = usize;
    type Undo = ();

    fn initial_state(&self) -> Board {
        Board { cells: [None; 9], to_move: Player::First }
    }
    fn side_to_move(&self, state: &Board) -> Player {
        state.to_move
    }
    fn legal_moves(&self, state: &Board, moves: &mut Vec<usize>) {
        if self.outcome(state).is_none() {
            moves.extend((0..9).filter(|&i| state.cells[i].is_none()));
        }
    }
    fn make(&self, state: &mut Board, mv: usize) {
        state.cells[mv] = Some(state.to_move);
        state.to_move = state.to_move.opponent();
    }
    fn unmake(&self, state: &mut Board, mv: usize, _undo: ()) {
        state.cells[mv] = None;
        state.to_move = state.to_move.opponent();
    }
    fn outcome(&self, state: &Board) -> Option<Outcome> {
        match winner(state) {
            Some((p, _)) => Some(Outcome::win(p)),
            None if state.cells.iter().all(Option::is_some) => Some(Outcome::draw()),
            None => None,
        }
    }
    fn hash(&self, state: &Board) -> u64 {
        state
            .cells
            .iter()
            .fold(u64::from(state.to_move == Player::Second), |h, c| h * 3 + c.map_or(0, |p| p.index() as u64 + 1))
    }
    fn move_index(&self, mv: usize) -> usize {
        mv
    }
    fn move_index_count(&self) -> usize {
        9
    }
    fn remaining_moves(&self, state: &Board) -> Option<u32> {
        Some(state.cells.iter().filter(|c| c.is_none()).count() as u32)
    }
    fn format_move(&self, mv: usize) -> String {
        format!("{}{}", char::from(b'a' + (mv % 3) as u8), mv / 3 + 1)
    }
    fn parse_move(&self, state: &Board, text: &str) -> Result<usize, MoveParseError> {
        let bytes = text.as_bytes();
        let ok = bytes.len() == 2 && (b'a'..=b'c').contains(&bytes[0]) && (b'1'..=b'3').contains(&bytes[1]);
        if !ok {
            return Err(MoveParseError::new(format!("`{text}` is not a square")));
        }
        let mv = usize::from(bytes[1] - b'1') * 3 + usize::from(bytes[0] - b'a');
        if !self.is_legal(state, mv) {
            return Err(MoveParseError::new(format!("{text} is taken")));
        }
        Ok(mv)
    }
}

impl BoardGame for Triplet {
    type Eval = Even;

    fn evaluator(&self, _exact: bool) -> Even {
        Even
    }
    fn board_size(&self) -> (usize, usize) {
        (3, 3)
    }
    fn stone(&self, state: &Board, cell: Cell) -> Option<Player> {
        state.cells[cell.y * 3 + cell.x]
    }
    fn move_at(&self, state: &Board, cell: Cell) -> Result<usize, MoveError> {
        let mv = cell.y * 3 + cell.x;
        if cell.x >= 3 || cell.y >= 3 {
            return Err(MoveError::OffBoard);
        }
        if state.cells[mv].is_some() {
            return Err(MoveError::Illegal("occupied".into()));
        }
        Ok(mv)
    }
    fn pass_move(&self, _state: &Board) -> Option<usize> {
        None
    }
    fn cell_of(&self, mv: usize) -> Option<Cell> {
        Some(Cell::new(mv % 3, mv / 3))
    }
    fn describe_move(&self, before: &Board, mv: usize) -> MoveReport {
        let mut after = before.clone();
        self.make(&mut after, mv);
        let winning_line =
            winner(&after).map(|(_, l)| l.iter().map(|&i| Cell::new(i % 3, i / 3)).collect()).unwrap_or_default();
        MoveReport { player: Some(before.to_move), placed: self.cell_of(mv), flipped: Vec::new(), winning_line }
    }
    fn markers(&self, _state: &Board) -> Vec<(Cell, Marker)> {
        Vec::new()
    }
    fn end_reason(&self, state: &Board) -> Option<String> {
        match self.outcome(state)? {
            o if o.result == tabula_core::GameResult::Draw => Some("board full".into()),
            _ => Some("three in a row".into()),
        }
    }
    fn recompute_hash(&self, state: &Board) -> u64 {
        self.hash(state)
    }
}

/// A [`tabula_games::save_file::MatchFactory`] that starts a [`Triplet`] whatever the spec asks for.
pub fn factory(_spec: &MatchSpec) -> Result<Box<dyn Match>, SpecError> {
    Ok(Box::new(Session::new(Triplet)))
}
