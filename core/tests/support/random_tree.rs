//! A pseudo-random game tree: every node's branching, end and evaluation derive from a hash of its path, so the
//! tree is reproducible, has no transpositions, and has no structure the search could exploit.

use tabula_core::{Evaluator, Game, MoveParseError, Outcome, Player, Score};

/// A random tree of bounded height.
pub struct RandomTree {
    /// The seed that picks the tree.
    pub seed: u64,
    /// The most children of a node.
    pub max_branching: u64,
    /// Plies after which every game ends.
    pub height: u32,
}

/// A node of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub hash: u64,
    pub ply: u32,
}

/// Mixes `x` into a new hash (splitmix64's finaliser).
pub fn mix(h: u64, x: u64) -> u64 {
    let mut z = h ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A draw or a win for either side, picked by `r`.
pub fn random_outcome(r: u64) -> Outcome {
    match r % 3 {
        0 => Outcome::draw(),
        1 => Outcome::win(Player::First),
        _ => Outcome::win(Player::Second),
    }
}

impl RandomTree {
    fn branching(&self, n: &Node) -> u64 {
        1 + mix(n.hash, 1) % self.max_branching
    }

    fn side(n: &Node) -> Player {
        if n.ply.is_multiple_of(2) { Player::First } else { Player::Second }
    }
}

impl Game for RandomTree {
    type State = Node;
    type Move = u8;
    type Undo = u64;

    fn initial_state(&self) -> Node {
        Node { hash: mix(self.seed, 0), ply: 0 }
    }

    fn side_to_move(&self, n: &Node) -> Player {
        Self::side(n)
    }

    fn legal_moves(&self, n: &Node, moves: &mut Vec<u8>) {
        if self.outcome(n).is_none() {
            moves.extend(0..self.branching(n) as u8);
        }
    }

    fn make(&self, n: &mut Node, mv: u8) -> u64 {
        let previous = n.hash;
        n.hash = mix(n.hash, u64::from(mv) + 2);
        n.ply += 1;
        previous
    }

    fn unmake(&self, n: &mut Node, _mv: u8, previous: u64) {
        n.hash = previous;
        n.ply -= 1;
    }

    fn outcome(&self, n: &Node) -> Option<Outcome> {
        let r = mix(n.hash, 3);
        if n.ply >= self.height || (n.ply > 0 && r.is_multiple_of(11)) { Some(random_outcome(r)) } else { None }
    }

    fn hash(&self, n: &Node) -> u64 {
        n.hash
    }

    fn move_index(&self, mv: u8) -> usize {
        mv as usize
    }

    fn move_index_count(&self) -> usize {
        self.max_branching as usize
    }

    fn remaining_moves(&self, n: &Node) -> Option<u32> {
        Some(self.height - n.ply)
    }

    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, _n: &Node, text: &str) -> Result<u8, MoveParseError> {
        text.parse().map_err(|_| MoveParseError::new(text))
    }
}

/// A pseudo-random evaluation and move hint; move 0 is noisy at every third node.
pub struct RandomEval;

impl Evaluator<RandomTree> for RandomEval {
    fn evaluate(&self, _g: &RandomTree, n: &Node) -> Score {
        (mix(n.hash, 4) % 2001) as Score - 1000
    }

    fn move_score(&self, _g: &RandomTree, n: &Node, mv: u8) -> i32 {
        (mix(n.hash, u64::from(mv) + 100) % 7) as i32
    }

    fn noisy_moves(&self, g: &RandomTree, n: &Node, moves: &mut Vec<u8>) {
        if mix(n.hash, 5).is_multiple_of(3) && g.outcome(n).is_none() {
            moves.push(0);
        }
    }
}
