//! The padded board: cells with a five-cell wall margin (line scans need no bounds checks), the incremental line
//! keys of [`super::patterns`], and the neighbour counts that define the candidate area.

use super::patterns::{self, EMPTY, HALF, WALL};

/// The shape of a board: its side, the padded row width and the four line directions as index steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Points per side.
    pub size: usize,
    /// Cells per padded row (`size` plus a margin of five on each side).
    pub width: usize,
    /// Index steps of the four lines: horizontal, vertical, diagonal, anti-diagonal.
    pub dirs: [isize; 4],
}

impl Geometry {
    /// The geometry of a `size` x `size` board.
    #[must_use]
    pub fn new(size: usize) -> Geometry {
        let width = size + 2 * HALF;
        let w = width as isize;
        Geometry { size, width, dirs: [1, w, w + 1, w - 1] }
    }

    /// The padded index of column `x`, row `y`.
    #[must_use]
    pub fn index(&self, x: usize, y: usize) -> usize {
        (y + HALF) * self.width + x + HALF
    }

    /// The column and row of a padded index on the board.
    #[must_use]
    pub fn coords(&self, index: usize) -> (usize, usize) {
        (index % self.width - HALF, index / self.width - HALF)
    }

    /// The cell `steps` steps from `index` along direction `dir` (steps may be negative).
    #[must_use]
    pub fn step(&self, index: usize, dir: usize, steps: isize) -> usize {
        (index as isize + steps * self.dirs[dir]) as usize
    }

    /// How many cells the padded array holds.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.width * self.width
    }

    /// Whether `a` and `b` are close enough for a stone on one to build on a stone on the other: within the 5 x 5
    /// box around it, or on one of its lines at most four points away (where one five can hold both).
    #[must_use]
    pub fn within_reach(&self, a: usize, b: usize) -> bool {
        let (dx, dy) = ((a % self.width).abs_diff(b % self.width), (a / self.width).abs_diff(b / self.width));
        (dx <= 2 && dy <= 2) || ((dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 4)
    }
}

/// Stones, line keys and neighbour counts. Placing and removing a stone are exact inverses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// `EMPTY`, `BLACK`, `WHITE` or `WALL` per padded cell.
    pub cells: Vec<u8>,
    /// Per cell and direction, the key of the ten cells around it (see [`patterns`]).
    pub keys: Vec<[u32; 4]>,
    /// Per cell, the number of stones within two steps (king moves): the candidate area is where it is positive.
    pub near: Vec<u8>,
    /// Stones on the board.
    pub stones: usize,
}

impl Board {
    /// An empty board of the given geometry.
    #[must_use]
    pub fn new(geo: &Geometry) -> Board {
        let mut cells = vec![WALL; geo.cells()];
        for y in 0..geo.size {
            for x in 0..geo.size {
                cells[geo.index(x, y)] = EMPTY;
            }
        }
        let mut keys = vec![[0u32; 4]; geo.cells()];
        for y in 0..geo.size {
            for x in 0..geo.size {
                let p = geo.index(x, y);
                for (d, key) in keys[p].iter_mut().enumerate() {
                    for k in 1..=HALF as isize {
                        for offset in [-k, k] {
                            let value = u32::from(cells[geo.step(p, d, offset)]);
                            *key |= value << (2 * patterns::field(offset));
                        }
                    }
                }
            }
        }
        Board { cells, keys, near: vec![0; geo.cells()], stones: 0 }
    }

    /// Puts a stone of `color` on the empty cell `p`.
    pub fn place(&mut self, geo: &Geometry, p: usize, color: u8) {
        self.cells[p] = color;
        self.toggle(geo, p, color);
        self.adjust_near(geo, p, true);
        self.stones += 1;
    }

    /// Takes the stone of `color` off `p`.
    pub fn remove(&mut self, geo: &Geometry, p: usize, color: u8) {
        self.cells[p] = EMPTY;
        self.toggle(geo, p, color);
        self.adjust_near(geo, p, false);
        self.stones -= 1;
    }

    fn toggle(&mut self, geo: &Geometry, p: usize, color: u8) {
        let c = u32::from(color);
        for d in 0..4 {
            for k in 1..=HALF as isize {
                self.keys[geo.step(p, d, k)][d] ^= c << (2 * patterns::field(-k));
                self.keys[geo.step(p, d, -k)][d] ^= c << (2 * patterns::field(k));
            }
        }
    }

    fn adjust_near(&mut self, geo: &Geometry, p: usize, add: bool) {
        let w = geo.width as isize;
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let q = (p as isize + dy * w + dx) as usize;
                if add {
                    self.near[q] += 1;
                } else {
                    self.near[q] -= 1;
                }
            }
        }
    }

    /// The run of `color` stones through `p` along `dir`, as the steps to its two ends (non-positive,
    /// non-negative).
    #[must_use]
    pub fn run(&self, geo: &Geometry, p: usize, dir: usize, color: u8) -> (isize, isize) {
        let mut lo = 0;
        while self.cells[geo.step(p, dir, lo - 1)] == color {
            lo -= 1;
        }
        let mut hi = 0;
        while self.cells[geo.step(p, dir, hi + 1)] == color {
            hi += 1;
        }
        (lo, hi)
    }
}
