//! Tic-tac-toe, the smallest complete game: the searcher must prove it a draw.

use tabula_core::{Evaluator, Game, MoveParseError, Outcome, Player, Score, random};

/// The rules of tic-tac-toe, with Zobrist keys for the hash.
pub struct TicTacToe {
    keys: [[u64; 9]; 2],
    side_key: u64,
}

/// A tic-tac-toe position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub cells: [Option<Player>; 9],
    pub to_move: Player,
    pub hash: u64,
}

const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

impl Default for TicTacToe {
    fn default() -> Self {
        let mut seed = 7;
        let mut keys = [[0; 9]; 2];
        keys.iter_mut().flatten().for_each(|k| *k = random::splitmix64(&mut seed));
        TicTacToe { keys, side_key: random::splitmix64(&mut seed) }
    }
}

impl TicTacToe {
    /// The hash computed from scratch.
    pub fn full_hash(&self, board: &Board) -> u64 {
        let mut h = if board.to_move == Player::Second { self.side_key } else { 0 };
        for (i, c) in board.cells.iter().enumerate() {
            if let Some(p) = c {
                h ^= self.keys[p.index()][i];
            }
        }
        h
    }

    /// A position from a string of nine `X`, `O` or `.`; the side to move follows from the counts.
    pub fn position(&self, text: &str) -> Board {
        let mut cells = [None; 9];
        for (i, ch) in text.chars().filter(|c| !c.is_whitespace()).enumerate() {
            cells[i] = match ch {
                'X' => Some(Player::First),
                'O' => Some(Player::Second),
                _ => None,
            };
        }
        let xs = cells.iter().filter(|c| **c == Some(Player::First)).count();
        let os = cells.iter().filter(|c| **c == Some(Player::Second)).count();
        let to_move = if xs > os { Player::Second } else { Player::First };
        let mut board = Board { cells, to_move, hash: 0 };
        board.hash = self.full_hash(&board);
        board
    }
}

impl Game for TicTacToe {
    type State = Board;
    type Move = u8;
    type Undo = ();

    fn initial_state(&self) -> Board {
        Board { cells: [None; 9], to_move: Player::First, hash: 0 }
    }

    fn side_to_move(&self, s: &Board) -> Player {
        s.to_move
    }

    fn legal_moves(&self, s: &Board, moves: &mut Vec<u8>) {
        if self.outcome(s).is_none() {
            moves.extend((0..9u8).filter(|&i| s.cells[i as usize].is_none()));
        }
    }

    fn make(&self, s: &mut Board, mv: u8) {
        s.cells[mv as usize] = Some(s.to_move);
        s.hash ^= self.keys[s.to_move.index()][mv as usize] ^ self.side_key;
        s.to_move = s.to_move.opponent();
    }

    fn unmake(&self, s: &mut Board, mv: u8, _undo: ()) {
        s.to_move = s.to_move.opponent();
        s.hash ^= self.keys[s.to_move.index()][mv as usize] ^ self.side_key;
        s.cells[mv as usize] = None;
    }

    fn outcome(&self, s: &Board) -> Option<Outcome> {
        for line in LINES {
            if let Some(p) = s.cells[line[0]]
                && line.iter().all(|&i| s.cells[i] == Some(p))
            {
                return Some(Outcome::win(p));
            }
        }
        s.cells.iter().all(Option::is_some).then(Outcome::draw)
    }

    fn hash(&self, s: &Board) -> u64 {
        s.hash
    }

    fn move_index(&self, mv: u8) -> usize {
        mv as usize
    }

    fn move_index_count(&self) -> usize {
        9
    }

    fn remaining_moves(&self, s: &Board) -> Option<u32> {
        Some(s.cells.iter().filter(|c| c.is_none()).count() as u32)
    }

    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, s: &Board, text: &str) -> Result<u8, MoveParseError> {
        let mv: u8 = text.trim().parse().map_err(|_| MoveParseError::new(format!("not a cell number: {text}")))?;
        if self.is_legal(s, mv) { Ok(mv) } else { Err(MoveParseError::new(format!("cell {mv} is not free"))) }
    }
}

/// Counts open lines: a weak but sensible evaluation.
pub struct LineCounter;

impl Evaluator<TicTacToe> for LineCounter {
    fn evaluate(&self, _game: &TicTacToe, s: &Board) -> Score {
        let me = s.to_move;
        let open = |p: Player| LINES.iter().filter(|l| l.iter().all(|&i| s.cells[i] != Some(p.opponent()))).count();
        open(me) as Score - open(me.opponent()) as Score
    }

    fn move_score(&self, _game: &TicTacToe, _s: &Board, mv: u8) -> i32 {
        match mv {
            4 => 2,
            0 | 2 | 6 | 8 => 1,
            _ => 0,
        }
    }
}
