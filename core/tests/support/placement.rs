//! A pseudo-random placement game: players claim cells of a small board, and the end, the winner and the
//! evaluation derive from a hash of the claimed cells. Unlike the random tree it is full of transpositions, at
//! equal distance from the root, which exercises the transposition table.

use tabula_core::{Evaluator, Game, MoveParseError, Outcome, Player, Score};

use super::random_tree::{mix, random_outcome};

/// A board of `cells` cells; every game ends after `height` moves at the latest.
pub struct Placement {
    pub seed: u64,
    pub cells: u32,
    pub height: u32,
}

/// Who owns which cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claims {
    pub owned: [u32; 2],
    pub ply: u32,
    pub hash: u64,
}

impl Placement {
    fn key(&self, player: Player, cell: u8) -> u64 {
        mix(self.seed, 1000 + u64::from(cell) * 2 + player.index() as u64)
    }
}

impl Game for Placement {
    type State = Claims;
    type Move = u8;
    type Undo = ();

    fn initial_state(&self) -> Claims {
        Claims { owned: [0, 0], ply: 0, hash: self.seed }
    }

    fn side_to_move(&self, s: &Claims) -> Player {
        if s.ply.is_multiple_of(2) { Player::First } else { Player::Second }
    }

    fn legal_moves(&self, s: &Claims, moves: &mut Vec<u8>) {
        if self.outcome(s).is_none() {
            let taken = s.owned[0] | s.owned[1];
            moves.extend((0..self.cells as u8).filter(|c| taken & (1 << c) == 0));
        }
    }

    fn make(&self, s: &mut Claims, mv: u8) {
        let p = self.side_to_move(s);
        s.owned[p.index()] |= 1 << mv;
        s.hash ^= self.key(p, mv);
        s.ply += 1;
    }

    fn unmake(&self, s: &mut Claims, mv: u8, _undo: ()) {
        s.ply -= 1;
        let p = self.side_to_move(s);
        s.owned[p.index()] &= !(1 << mv);
        s.hash ^= self.key(p, mv);
    }

    fn outcome(&self, s: &Claims) -> Option<Outcome> {
        let r = mix(s.hash, 3);
        if s.ply >= self.height.min(self.cells) || (s.ply > 1 && r.is_multiple_of(9)) {
            Some(random_outcome(r))
        } else {
            None
        }
    }

    fn hash(&self, s: &Claims) -> u64 {
        s.hash
    }

    fn move_index(&self, mv: u8) -> usize {
        mv as usize
    }

    fn move_index_count(&self) -> usize {
        self.cells as usize
    }

    fn remaining_moves(&self, s: &Claims) -> Option<u32> {
        Some(self.cells - s.ply)
    }

    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, _s: &Claims, text: &str) -> Result<u8, MoveParseError> {
        text.parse().map_err(|_| MoveParseError::new(text))
    }
}

/// A pseudo-random evaluation and move hint.
pub struct PlacementEval;

impl Evaluator<Placement> for PlacementEval {
    fn evaluate(&self, _g: &Placement, s: &Claims) -> Score {
        (mix(s.hash, 4) % 401) as Score - 200
    }

    fn move_score(&self, _g: &Placement, s: &Claims, mv: u8) -> i32 {
        (mix(s.hash, u64::from(mv) + 100) % 5) as i32
    }
}
