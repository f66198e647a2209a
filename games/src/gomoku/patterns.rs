//! Line patterns: what one more stone on an empty point makes along one line, read from a precomputed table.
//!
//! Every point keeps, per direction, a 20-bit key of the ten cells around it (five on each side, 2 bits each:
//! empty, black, white, wall), updated incrementally as stones are placed. Half-lines of five (rather than four) let
//! exact-five rules see the sixth stone of an overline. A table per [`LineRule`] maps a key, seen from the stone's
//! owner, to a [`Pattern`], so move ordering, evaluation, VCF and Renju checks cost one lookup per line.

use std::sync::OnceLock;

/// Cells on each side of a point that a key covers.
pub const HALF: usize = 5;
/// The number of keys (and table entries): 10 cells of 2 bits.
const KEYS: usize = 1 << (4 * HALF);

/// Field values of a key cell.
pub const EMPTY: u8 = 0;
/// A black stone (the first player's); also "own" in a table's view.
pub const BLACK: u8 = 1;
/// A white stone; also "opponent" in a table's view.
pub const WHITE: u8 = 2;
/// Outside the board.
pub const WALL: u8 = 3;

/// How a run of stones wins, as far as one line can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRule {
    /// Five or more wins.
    Free,
    /// Exactly five wins (exact five, Renju's Black).
    Exact,
    /// Five or more wins unless both ends are opponent stones.
    Caro,
}

/// What a stone on an empty point makes along one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever pass through the point on this line.
    Dead = 0,
    /// A lone stone with room for five.
    One,
    /// Two stones within a free five-cell span that no one more stone turns into an open three.
    Two,
    /// Two stones that one more stone turns into an open three (Rapfi's flex two): the shape threats are built
    /// from.
    OpenTwo,
    /// A three that can become a four, but not a straight four.
    Three,
    /// A three that can become a straight four.
    OpenThree,
    /// A four: exactly one point completes a five.
    Four,
    /// Two separate fours on this one line (`X.XXX.X` filled in the middle).
    DoubleFour,
    /// A straight four: two points, five apart, complete a five.
    OpenFour,
    /// A winning line.
    Five,
    /// Six or more in a row where that does not win.
    Overline,
}

impl Pattern {
    /// Every pattern, in order.
    pub const ALL: [Pattern; 11] = [
        Pattern::Dead,
        Pattern::One,
        Pattern::Two,
        Pattern::OpenTwo,
        Pattern::Three,
        Pattern::OpenThree,
        Pattern::Four,
        Pattern::DoubleFour,
        Pattern::OpenFour,
        Pattern::Five,
        Pattern::Overline,
    ];

    /// Whether the stone makes a four (one or more points then complete a five).
    #[must_use]
    pub fn is_four(self) -> bool {
        matches!(self, Pattern::Four | Pattern::DoubleFour | Pattern::OpenFour)
    }

    /// How many fours Renju counts on this line.
    #[must_use]
    pub fn four_count(self) -> u32 {
        match self {
            Pattern::Four | Pattern::OpenFour => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }
}

/// The field of the key cell at signed offset `offset` (-5..=5, not 0).
#[must_use]
pub fn field(offset: isize) -> u32 {
    if offset < 0 { (offset + HALF as isize) as u32 } else { (offset + HALF as isize - 1) as u32 }
}

/// The key as seen by `color` (`BLACK` keys are stored; White's view swaps the two stone colours).
#[must_use]
pub fn view(key: u32, color: u8) -> u32 {
    if color == BLACK {
        key
    } else {
        let differ = (key ^ (key >> 1)) & 0x5_5555;
        key ^ (differ | (differ << 1))
    }
}

/// The pattern table of a line rule, built on first use (about a tenth of a second).
#[must_use]
pub fn table(rule: LineRule) -> &'static [Pattern] {
    static TABLES: [OnceLock<Box<[Pattern]>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let slot = match rule {
        LineRule::Free => 0,
        LineRule::Exact => 1,
        LineRule::Caro => 2,
    };
    TABLES[slot].get_or_init(|| build(rule))
}

fn build(rule: LineRule) -> Box<[Pattern]> {
    (0..KEYS as u32)
        .map(|key| match decode(key) {
            Some(cells) => Pattern::ALL[usize::from(classify(rule, cells))],
            None => Pattern::Dead,
        })
        .collect()
}

/// The 11 cells of a key with the centre holding an own stone, or `None` when walls are not contiguous from the
/// outside (no board produces such a key).
fn decode(key: u32) -> Option<[u8; 11]> {
    let mut cells = [EMPTY; 11];
    for offset in -(HALF as isize)..=HALF as isize {
        if offset != 0 {
            cells[(offset + HALF as isize) as usize] = ((key >> (2 * field(offset))) & 3) as u8;
        }
    }
    cells[HALF] = BLACK;
    for i in 1..HALF {
        if (cells[i] == WALL && cells[i - 1] != WALL) || (cells[10 - i] == WALL && cells[10 - i + 1] != WALL) {
            return None;
        }
    }
    Some(cells)
}

/// The run of own stones through `i`, as inclusive bounds.
fn run(cells: &[u8; 11], i: usize) -> (usize, usize) {
    let (mut lo, mut hi) = (i, i);
    while lo > 0 && cells[lo - 1] == BLACK {
        lo -= 1;
    }
    while hi < 10 && cells[hi + 1] == BLACK {
        hi += 1;
    }
    (lo, hi)
}

/// Whether the run through the centre wins under `rule` (cells beyond the window count as empty).
fn wins(rule: LineRule, cells: &[u8; 11]) -> bool {
    let (lo, hi) = run(cells, HALF);
    let len = hi - lo + 1;
    match rule {
        LineRule::Free => len >= 5,
        LineRule::Exact => len == 5,
        LineRule::Caro => len >= 5 && !(lo > 0 && cells[lo - 1] == WHITE && hi < 10 && cells[hi + 1] == WHITE),
    }
}

/// The empty cells that complete a winning line through the centre, as a bit mask of indices.
fn five_points(rule: LineRule, cells: &mut [u8; 11]) -> u16 {
    let mut mask = 0;
    for q in 0..11 {
        if cells[q] == EMPTY {
            cells[q] = BLACK;
            if wins(rule, cells) {
                mask |= 1 << q;
            }
            cells[q] = EMPTY;
        }
    }
    mask
}

/// Whether the five points include a pair five apart around four own stones: a straight four.
fn has_straight_pair(cells: &[u8; 11], points: u16) -> bool {
    (0..6).any(|i| {
        points & (1 << i) != 0 && points & (1 << (i + 5)) != 0 && cells[i + 1..i + 5].iter().all(|&c| c == BLACK)
    })
}

/// The pattern index (into `Pattern::ALL`) of the decoded cells.
fn classify(rule: LineRule, mut cells: [u8; 11]) -> u8 {
    if wins(rule, &cells) {
        return Pattern::Five as u8;
    }
    let (lo, hi) = run(&cells, HALF);
    if rule == LineRule::Exact && hi - lo + 1 >= 6 {
        return Pattern::Overline as u8;
    }
    let points = five_points(rule, &mut cells);
    match points.count_ones() {
        0 => {}
        1 => return Pattern::Four as u8,
        _ if rule == LineRule::Caro && one_stone_defends(&mut cells) => return Pattern::Four as u8,
        _ if has_straight_pair(&cells, points) => return Pattern::OpenFour as u8,
        _ => return Pattern::DoubleFour as u8,
    }
    let straight = straight_four_points_of(rule, &mut cells);
    if straight != 0 {
        return Pattern::OpenThree as u8;
    }
    let can_four = (1..10).any(|q| {
        if q == HALF || cells[q] != EMPTY {
            return false;
        }
        cells[q] = BLACK;
        let four = five_points(rule, &mut cells) != 0;
        cells[q] = EMPTY;
        four
    });
    if can_four {
        return Pattern::Three as u8;
    }
    let best = (1..=HALF)
        .filter(|&s| cells[s..s + 5].iter().all(|&c| c == EMPTY || c == BLACK))
        .map(|s| cells[s..s + 5].iter().filter(|&&c| c == BLACK).count())
        .max();
    match best {
        None => Pattern::Dead as u8,
        Some(1) => Pattern::One as u8,
        Some(_) if makes_open_three(rule, &mut cells) => Pattern::OpenTwo as u8,
        Some(_) => Pattern::Two as u8,
    }
}

/// Whether one more own stone turns the line through the centre into an open three. Only a point inside a
/// six-cell window with empty ends and three more cells empty or own can, so only those are tried.
fn makes_open_three(rule: LineRule, cells: &mut [u8; 11]) -> bool {
    let mut tried = 0u16;
    for s in 0..=5 {
        let window = &cells[s..s + 6];
        let inside = &window[1..5];
        if !(s < HALF && HALF < s + 5) || window[0] != EMPTY || window[5] != EMPTY {
            continue;
        }
        if inside.iter().any(|&c| c != EMPTY && c != BLACK) {
            continue;
        }
        for q in s + 1..s + 5 {
            if cells[q] != EMPTY || tried & (1 << q) != 0 {
                continue;
            }
            tried |= 1 << q;
            cells[q] = BLACK;
            let open = straight_four_points_of(rule, cells) != 0;
            cells[q] = EMPTY;
            if open {
                return true;
            }
        }
    }
    false
}

/// Whether one opponent stone stops every Caro five through the centre (by closing both ends of the five to come).
fn one_stone_defends(cells: &mut [u8; 11]) -> bool {
    (0..11).any(|q| {
        if cells[q] != EMPTY {
            return false;
        }
        cells[q] = WHITE;
        let stopped = five_points(LineRule::Caro, cells) == 0;
        cells[q] = EMPTY;
        stopped
    })
}

/// The cell indices where one more stone turns the line through the centre into a straight four.
fn straight_four_points_of(rule: LineRule, cells: &mut [u8; 11]) -> u16 {
    let mut mask = 0;
    for q in 1..10 {
        if q != HALF && cells[q] == EMPTY {
            cells[q] = BLACK;
            let points = five_points(rule, cells);
            if points.count_ones() >= 2 && has_straight_pair(cells, points) {
                mask |= 1 << q;
            }
            cells[q] = EMPTY;
        }
    }
    mask
}

/// The offsets (-4..=4) along the line where, with an own stone on the centre, one more stone makes a straight
/// four: the points that make a three real (Renju checks that they are legal).
#[must_use]
pub fn straight_four_offsets(rule: LineRule, key: u32) -> Vec<isize> {
    let Some(mut cells) = decode(key) else {
        return Vec::new();
    };
    let mask = straight_four_points_of(rule, &mut cells);
    (1..10).filter(|q| mask & (1 << q) != 0).map(|q| q as isize - HALF as isize).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key from a picture like `"..XX_X..."`: 11 characters, the centre (`_`) at index 5; `X` own, `O` other,
    /// `#` wall.
    fn key_of(picture: &str) -> u32 {
        picture.chars().enumerate().filter(|(i, _)| *i != HALF).fold(0, |key, (i, c)| {
            let value = match c {
                'X' => BLACK,
                'O' => WHITE,
                '#' => WALL,
                _ => EMPTY,
            };
            key | (u32::from(value) << (2 * field(i as isize - HALF as isize)))
        })
    }

    #[test]
    fn classifies_basic_shapes() {
        let free = table(LineRule::Free);
        let exact = table(LineRule::Exact);
        let caro = table(LineRule::Caro);
        let at = |t: &[Pattern], p: &str| t[key_of(p) as usize];
        assert_eq!(at(free, "...XX_XX..."), Pattern::Five);
        assert_eq!(at(free, "..XXX_XX..."), Pattern::Five);
        assert_eq!(at(exact, "..XXX_XX..."), Pattern::Overline);
        assert_eq!(at(exact, "...XX_X...."), Pattern::OpenFour);
        assert_eq!(at(exact, "..OXX_X...."), Pattern::Four);
        assert_eq!(at(exact, ".X.XX_..X.."), Pattern::Four);
        assert_eq!(at(exact, "X.X._XX.X.."), Pattern::OpenThree);
        assert_eq!(at(exact, "...XX_.X..."), Pattern::Four);
        assert_eq!(at(free, "..X.X_X.X.."), Pattern::DoubleFour);
        assert_eq!(at(exact, "....X_X...."), Pattern::OpenThree);
        assert_eq!(at(exact, "...OX_X...."), Pattern::Three);
        assert_eq!(at(exact, "....._X...."), Pattern::OpenTwo);
        assert_eq!(at(exact, "....._.X..."), Pattern::OpenTwo);
        assert_eq!(at(exact, "....._..X.."), Pattern::OpenTwo, "_XX.X_ is an open three");
        assert_eq!(at(exact, ".O..._X..O."), Pattern::OpenTwo);
        assert_eq!(at(exact, "....O_X...."), Pattern::Two, "closed on one side");
        assert_eq!(at(exact, "..O.._X.O.."), Pattern::Two, "room for a five but not for a straight four");
        assert_eq!(at(exact, "....._...X."), Pattern::Two, "too far apart for an open three");
        assert_eq!(at(exact, "#####_X...."), Pattern::Two, "against the edge");
        assert_eq!(at(exact, "....O_O...."), Pattern::Dead);
        assert_ne!(at(caro, "OXXXX_O...."), Pattern::Five);
        assert_eq!(at(caro, "#XXXX_O...."), Pattern::Five);
        assert!(!at(caro, "OXXX._O....").is_four());
        assert_eq!(at(caro, "..O.X_XX..."), Pattern::Four, "one stone past the far end stops both fives");
        assert_eq!(at(caro, "....X_XX..."), Pattern::OpenFour);
        assert_eq!(at(free, "OXXX._O...."), Pattern::Four);
    }

    #[test]
    fn white_view_swaps_colours() {
        let key = key_of("..OXO_#####");
        assert_eq!(view(key, WHITE), key_of("..XOX_#####"));
        assert_eq!(view(key, BLACK), key);
    }
}
