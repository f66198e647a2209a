//! Boards of any size up to 11x11 on `u128` bitboards: bit `n * row + column`, row 0 at the top. The 8x8 board
//! uses the same layout, so its `u128` boards truncate to the [`super::bitboard`] ones.

use super::bitboard::DIRECTIONS;

/// Masks and rays for one board size.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Squares per side.
    pub n: usize,
    /// Every square of the board.
    pub full: u128,
    /// Every square but the leftmost column.
    not_left: u128,
    /// Every square but the rightmost column.
    not_right: u128,
    /// For each square and direction (as in [`DIRECTIONS`]), the squares beyond it up to the edge, nearest first.
    rays: Vec<[Vec<usize>; 8]>,
    /// The same rays as masks.
    ray_masks: Vec<[u128; 8]>,
}

impl Geometry {
    /// The geometry of an `n` x `n` board (`n` from 4 to 11).
    #[must_use]
    pub fn new(n: usize) -> Geometry {
        assert!((4..=11).contains(&n), "board size {n} out of range");
        let full = if n * n == 128 { u128::MAX } else { (1u128 << (n * n)) - 1 };
        let column = |c: usize| (0..n).fold(0u128, |m, r| m | 1 << (r * n + c));
        let mut rays = Vec::with_capacity(n * n);
        let mut ray_masks = Vec::with_capacity(n * n);
        for sq in 0..n * n {
            let squares: [Vec<usize>; 8] = std::array::from_fn(|d| {
                let (dx, dy) = DIRECTIONS[d];
                let (mut x, mut y) = ((sq % n) as i32 + dx, (sq / n) as i32 + dy);
                let mut ray = Vec::new();
                while (0..n as i32).contains(&x) && (0..n as i32).contains(&y) {
                    ray.push(y as usize * n + x as usize);
                    x += dx;
                    y += dy;
                }
                ray
            });
            ray_masks.push(std::array::from_fn(|d| squares[d].iter().fold(0u128, |m, &s| m | 1 << s)));
            rays.push(squares);
        }
        Geometry { n, full, not_left: full & !column(0), not_right: full & !column(n - 1), rays, ray_masks }
    }

    /// The squares beyond `sq` in direction `d`, nearest first.
    #[must_use]
    pub fn ray(&self, sq: usize, d: usize) -> &[usize] {
        &self.rays[sq][d]
    }

    /// `b` moved one step in direction `d`, dropping what leaves the board.
    #[inline]
    fn shift(&self, b: u128, d: usize) -> u128 {
        let n = self.n;
        match d {
            0 => (b << 1) & self.not_left,
            1 => (b >> 1) & self.not_right,
            2 => (b << n) & self.full,
            3 => b >> n,
            4 => (b << (n + 1)) & self.not_left,
            5 => (b >> (n + 1)) & self.not_right,
            6 => (b << (n - 1)) & self.not_right,
            _ => (b >> (n - 1)) & self.not_left,
        }
    }

    /// The legal placements for the owner of `p` against `o`.
    #[must_use]
    pub fn moves(&self, p: u128, o: u128) -> u128 {
        let empty = self.full & !(p | o);
        let mut all = 0;
        for d in 0..8 {
            let mut run = self.shift(p, d) & o;
            for _ in 3..self.n {
                run |= self.shift(run, d) & o;
            }
            all |= self.shift(run, d);
        }
        all & empty
    }

    /// The discs of `o` turned over by a disc placed on the empty square `sq` by the owner of `p`.
    #[must_use]
    pub fn flips(&self, p: u128, o: u128, sq: usize) -> u128 {
        let mut flipped = 0;
        for (d, &ray) in self.ray_masks[sq].iter().enumerate() {
            let blockers = ray & !o;
            if blockers == 0 {
                continue;
            }
            // Even directions go towards higher bits (lowest blocker first), odd ones towards lower bits.
            let first =
                if matches!(d, 0 | 2 | 4 | 6) { blockers.trailing_zeros() } else { 127 - blockers.leading_zeros() };
            if p & (1 << first) != 0 {
                let between = if first as usize > sq { (1u128 << first) - 1 } else { !((2u128 << first) - 1) };
                flipped |= ray & between;
            }
        }
        flipped
    }

    /// The empty squares next to a disc of `o`.
    #[must_use]
    pub fn frontier_empties(&self, o: u128, empty: u128) -> u128 {
        (0..8).fold(0, |m, d| m | self.shift(o, d)) & empty
    }
}
