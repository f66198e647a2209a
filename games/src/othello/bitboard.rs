//! The 8x8 board on side-relative `u64` bitboards (Edax's layout): bit `8 * row + column`, row 0 at the top.
//!
//! Move generation shifts the mover's discs through runs of opponent discs in all eight directions at once (the
//! edge masks stop wrap-around); flips use per-square rays and find the outflanking disc with a bit scan, so a
//! move costs a few dozen instructions. These functions carry the perft and endgame hot paths.

/// The eight directions as (column step, row step), in the order the rays are stored.
pub const DIRECTIONS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (-1, 1), (1, -1)];

/// For each square and direction, the squares strictly beyond it along that direction up to the edge.
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRECTIONS[d];
            let mut x = (sq % 8) as i32 + dx;
            let mut y = (sq / 8) as i32 + dy;
            let mut ray = 0u64;
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                ray |= 1 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// For each square, the squares next to it (in all eight directions): a placement can only flip if one of them
/// holds an opponent disc, a test far cheaper than [`flips`].
pub static NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRECTIONS[d];
            let (x, y) = ((sq % 8) as i32 + dx, (sq / 8) as i32 + dy);
            if x >= 0 && x < 8 && y >= 0 && y < 8 {
                table[sq] |= 1 << (y * 8 + x);
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// One direction of [`moves`]: the empties (not masked yet) reached from `p` through runs of `mask` by `dir`.
#[inline(always)]
fn moves_along(p: u64, mask: u64, dir: u32) -> u64 {
    let dir2 = dir + dir;
    let mut left = mask & (p << dir);
    let mut right = mask & (p >> dir);
    left |= mask & (left << dir);
    right |= mask & (right >> dir);
    let mask_left = mask & (mask << dir);
    let mask_right = mask & (mask >> dir);
    left |= mask_left & (left << dir2);
    right |= mask_right & (right >> dir2);
    left |= mask_left & (left << dir2);
    right |= mask_right & (right >> dir2);
    (left << dir) | (right >> dir)
}

/// The legal placements for the player owning `p` against `o`.
#[inline(always)]
#[must_use]
pub fn moves(p: u64, o: u64) -> u64 {
    // Horizontal and diagonal runs may not include the edge columns, or shifts would wrap between rows.
    let inner = o & 0x7E7E_7E7E_7E7E_7E7E;
    (moves_along(p, inner, 1) | moves_along(p, o, 8) | moves_along(p, inner, 7) | moves_along(p, inner, 9)) & !(p | o)
}

/// [`moves`] with AVX2: the four direction pairs in the four lanes of one vector (Edax's `get_moves_avx2`); callable
/// only from code compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
#[must_use]
pub(super) fn moves_avx2(p: u64, o: u64) -> u64 {
    use std::arch::x86_64::{
        _mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_add_epi64, _mm256_and_si256,
        _mm256_broadcastq_epi64, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_or_si256, _mm256_set_epi64x,
        _mm256_sllv_epi64, _mm256_srlv_epi64,
    };
    // Lanes, low to high: shifts 1, 8, 9 and 7; only the vertical one may run through the edge columns.
    let shift = _mm256_set_epi64x(7, 9, 8, 1);
    let shift2 = _mm256_add_epi64(shift, shift);
    let inner = 0x7E7E_7E7E_7E7E_7E7E_u64 as i64;
    let masks = _mm256_set_epi64x(inner, inner, -1, inner);
    let pp = _mm256_broadcastq_epi64(_mm_cvtsi64_si128(p as i64));
    let oo = _mm256_and_si256(_mm256_broadcastq_epi64(_mm_cvtsi64_si128(o as i64)), masks);
    let mut left = _mm256_and_si256(oo, _mm256_sllv_epi64(pp, shift));
    let mut right = _mm256_and_si256(oo, _mm256_srlv_epi64(pp, shift));
    left = _mm256_or_si256(left, _mm256_and_si256(oo, _mm256_sllv_epi64(left, shift)));
    right = _mm256_or_si256(right, _mm256_and_si256(oo, _mm256_srlv_epi64(right, shift)));
    let pre_left = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, shift));
    let pre_right = _mm256_srlv_epi64(pre_left, shift);
    left = _mm256_or_si256(left, _mm256_and_si256(pre_left, _mm256_sllv_epi64(left, shift2)));
    right = _mm256_or_si256(right, _mm256_and_si256(pre_right, _mm256_srlv_epi64(right, shift2)));
    left = _mm256_or_si256(left, _mm256_and_si256(pre_left, _mm256_sllv_epi64(left, shift2)));
    right = _mm256_or_si256(right, _mm256_and_si256(pre_right, _mm256_srlv_epi64(right, shift2)));
    let all = _mm256_or_si256(_mm256_sllv_epi64(left, shift), _mm256_srlv_epi64(right, shift));
    let half = _mm_or_si128(_mm256_castsi256_si128(all), _mm256_extracti128_si256::<1>(all));
    let folded = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
    _mm_cvtsi128_si64(folded) as u64 & !(p | o)
}

/// The opponent discs that a disc placed on the empty square `sq` by the owner of `p` would turn over (0 if the
/// placement is illegal).
#[inline(always)]
#[must_use]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    let rays = &RAYS[sq];
    let mut flipped = 0;
    // Without branches, so that the bit scans pipeline well. Directions 0, 2, 4 and 6 go towards higher bits: the
    // first non-opponent square is the lowest set bit.
    for d in [0, 2, 4, 6] {
        let ray = rays[d];
        let blockers = ray & !o;
        let outflank = blockers & blockers.wrapping_neg() & p;
        flipped |= outflank.wrapping_sub(u64::from(outflank != 0)) & ray;
    }
    // The others go towards lower bits: the first non-opponent square is the highest set bit. A ray of opponent
    // discs only (no blocker) gives bit 63 or nothing, and either flips nothing.
    for d in [1, 3, 5, 7] {
        let ray = rays[d];
        let outflank = (1u64 << 63).wrapping_shr((ray & !o).leading_zeros()) & p;
        flipped |= outflank.wrapping_neg().wrapping_shl(1) & ray;
    }
    flipped
}

/// Column a: one bit per row, the multiplier that gathers a column or a diagonal into the top byte.
const COL_A: u64 = 0x0101_0101_0101_0101;

/// For each position in a line of eight and each pattern of the mover's discs on it (the other squares holding
/// opponent discs, the position itself empty), how many discs a placement there flips along the line.
static LINE_FLIPS: [[u8; 256]; 8] = build_line_flips();

const fn build_line_flips() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Towards higher positions, then lower: the run of opponent discs counts if a mover's disc ends it.
            let mut i = pos + 1;
            while i < 8 && line >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                count += i - pos - 1;
            }
            let mut i = pos as i32 - 1;
            while i >= 0 && line >> i & 1 == 0 {
                i -= 1;
            }
            if i >= 0 {
                count += pos - i as usize - 1;
            }
            table[pos][line] = count as u8;
            line += 1;
        }
        pos += 1;
    }
    table
}

/// How many discs the owner of `p` would flip by playing `sq`, the board's one empty square (every other square
/// not in `p` holds an opponent disc): the last move's count without building the flips, as Edax's
/// `count_last_flip` does. Each of the four lines through `sq` is gathered into a byte (for columns and
/// diagonals by a carry-free multiplication) and looked up; squares beyond a short diagonal read as opponent discs,
/// which never changes a count, since no disc of `p` lies beyond them.
#[inline(always)]
#[must_use]
pub fn last_flip_count(p: u64, sq: usize) -> u32 {
    let (row, col) = (sq >> 3, sq & 7);
    let across = (p >> (row * 8)) as u8;
    let down = (((p >> col) & COL_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    let diag = ((p & DIAGONALS[col + 7 - row]).wrapping_mul(COL_A) >> 56) as u8;
    let anti = ((p & DIAGONALS[15 + col + row]).wrapping_mul(COL_A) >> 56) as u8;
    let count = |pos: usize, line: u8| u32::from(LINE_FLIPS[pos][line as usize]);
    count(col, across) + count(row, down) + count(col, diag) + count(col, anti)
}

/// The rays of each square in vector lanes for [`flips_avx2`]: towards higher bits (directions 0, 2, 4, 6) and
/// towards lower bits (directions 1, 3, 5, 7).
#[cfg(target_arch = "x86_64")]
#[repr(align(32))]
struct LaneRays {
    up: [u64; 4],
    down: [u64; 4],
}

#[cfg(target_arch = "x86_64")]
static LANE_RAYS: [LaneRays; 64] = build_lane_rays();

#[cfg(target_arch = "x86_64")]
const fn build_lane_rays() -> [LaneRays; 64] {
    let mut lanes = [const { LaneRays { up: [0; 4], down: [0; 4] } }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut lane = 0;
        while lane < 4 {
            lanes[sq].up[lane] = RAYS[sq][2 * lane];
            lanes[sq].down[lane] = RAYS[sq][2 * lane + 1];
            lane += 1;
        }
        sq += 1;
    }
    lanes
}

/// [`flips`] with AVX2, the four directions of each sense in the lanes of one vector (after Edax's
/// `flip_avx_ppfill`); callable only from code compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
#[must_use]
pub(super) fn flips_avx2(p: u64, o: u64, sq: usize) -> u64 {
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_add_epi64,
        _mm256_and_si256, _mm256_andnot_si256, _mm256_broadcastq_epi64, _mm256_castsi256_si128, _mm256_cmpeq_epi64,
        _mm256_extracti128_si256, _mm256_load_si256, _mm256_or_si256, _mm256_set_epi64x, _mm256_setzero_si256,
        _mm256_slli_epi64, _mm256_srlv_epi64, _mm256_sub_epi64,
    };
    let rays = &LANE_RAYS[sq];
    // SAFETY: `LaneRays` is 32-byte aligned, so both loads are aligned 256-bit reads of its fields.
    let (up, down) = unsafe {
        (_mm256_load_si256(rays.up.as_ptr().cast::<__m256i>()), _mm256_load_si256(rays.down.as_ptr().cast::<__m256i>()))
    };
    let pp = _mm256_broadcastq_epi64(_mm_cvtsi64_si128(p as i64));
    let oo = _mm256_broadcastq_epi64(_mm_cvtsi64_si128(o as i64));
    let zero = _mm256_setzero_si256();
    // Towards higher bits the first non-opponent square is the lowest set bit of the ray without opponent discs.
    let blockers = _mm256_andnot_si256(oo, up);
    let outflank = _mm256_and_si256(_mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers)), pp);
    let run = _mm256_and_si256(_mm256_add_epi64(outflank, _mm256_cmpeq_epi64(zero, zero)), up);
    let mut flipped = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), run);
    // Towards lower bits it is the highest set bit: smear the blockers down the ray (the squares of a ray are one
    // step apart, and a ray has at most seven), then keep the top one.
    let step = _mm256_set_epi64x(7, 9, 8, 1);
    let mut smear = _mm256_andnot_si256(oo, down);
    smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, step));
    smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_add_epi64(step, step)));
    smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_slli_epi64::<2>(step)));
    let top = _mm256_andnot_si256(_mm256_srlv_epi64(smear, step), smear);
    let outflank = _mm256_and_si256(top, pp);
    // Every ray square above the outflanking disc: -outflank is it and above, shifted once to exclude it.
    let above = _mm256_slli_epi64::<1>(_mm256_sub_epi64(zero, outflank));
    flipped = _mm256_or_si256(flipped, _mm256_and_si256(above, down));
    let half = _mm_or_si128(_mm256_castsi256_si128(flipped), _mm256_extracti128_si256::<1>(flipped));
    _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
}

/// The empty squares next to at least one disc of `o`: where the owner of `o`'s opponent may later get moves.
#[inline(always)]
#[must_use]
pub fn frontier_empties(o: u64, empty: u64) -> u64 {
    // Discs that may step a column towards h (not on the h file) and towards a (not on the a file).
    let (east, west) = (o & 0x7F7F_7F7F_7F7F_7F7F, o & 0xFEFE_FEFE_FEFE_FEFE);
    let around =
        (east << 1) | (west >> 1) | (o << 8) | (o >> 8) | (west << 7) | (east >> 7) | (east << 9) | (west >> 9);
    around & empty
}

/// The diagonals of the board (both directions), for [`stable`] and [`last_flip_count`].
static DIAGONALS: [u64; 30] = build_diagonals();

const fn build_diagonals() -> [u64; 30] {
    let mut lines = [0u64; 30];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = (sq % 8, sq / 8);
        // x - y + 7 numbers the down-right diagonals 0..15, x + y the down-left ones (stored from 15).
        lines[x + 7 - y] |= 1 << sq;
        lines[15 + x + y] |= 1 << sq;
        sq += 1;
    }
    lines
}

/// The discs of `p` that can never be flipped, given the discs of `o`: a disc is stable when, along each of the
/// four lines through it, the line is full or a neighbour on that line is the edge or another stable disc of `p`.
/// An under-estimate is fine for its use (the endgame's stability cutoff).
#[inline(always)]
#[must_use]
pub fn stable(p: u64, o: u64) -> u64 {
    const COL_H: u64 = 0x8080_8080_8080_8080;
    const ROW_1: u64 = 0xFF;
    const ROW_8: u64 = 0xFF << 56;
    let filled = p | o;
    let mut rows = 0;
    for r in 0..8 {
        if (filled >> (8 * r)) & 0xFF == 0xFF {
            rows |= 0xFF << (8 * r);
        }
    }
    let mut c = filled;
    c &= c >> 32;
    c &= c >> 16;
    c &= c >> 8;
    let columns = (c & 0xFF) * COL_A;
    let mut down_right = 0;
    let mut down_left = 0;
    for (i, &line) in DIAGONALS.iter().enumerate() {
        if filled & line == line {
            if i < 15 {
                down_right |= line;
            } else {
                down_left |= line;
            }
        }
    }
    let mut stable = 0u64;
    loop {
        let horizontal = rows | ((stable << 1) & !COL_A) | COL_A | ((stable >> 1) & !COL_H) | COL_H;
        let vertical = columns | (stable << 8) | ROW_1 | (stable >> 8) | ROW_8;
        let edges = COL_A | COL_H | ROW_1 | ROW_8;
        let diagonal = down_right | ((stable << 9) & !COL_A) | ((stable >> 9) & !COL_H) | edges;
        let anti_diagonal = down_left | ((stable << 7) & !COL_H) | ((stable >> 7) & !COL_A) | edges;
        let next = p & horizontal & vertical & diagonal & anti_diagonal;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// A perft function, compiled portably and (on x86-64) with `popcnt`/`lzcnt` and AVX2 moves and flips. The last
/// two plies are counted in bulk: after each move, the number of replies (a pass or a finished game is one leaf).
macro_rules! perft_fn {
    ($name:ident, $moves:ident, $flips:ident $(, #[$attr:meta])*) => {
        $(#[$attr])*
        fn $name(p: u64, o: u64, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let mut legal = $moves(p, o);
            if legal == 0 {
                if $moves(o, p) == 0 {
                    return 1;
                }
                return if depth == 1 { 1 } else { $name(o, p, depth - 1) };
            }
            if depth == 1 {
                return u64::from(legal.count_ones());
            }
            let mut total = 0;
            while legal != 0 {
                let sq = legal.trailing_zeros() as usize;
                legal &= legal - 1;
                let f = $flips(p, o, sq);
                let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                total += if depth == 2 { u64::from($moves(np, no).count_ones().max(1)) } else { $name(np, no, depth - 1) };
            }
            total
        }
    };
}

perft_fn!(perft_portable, moves, flips);
#[cfg(target_arch = "x86_64")]
perft_fn!(perft_x86, moves_avx2, flips_avx2, #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]);

/// Whether the CPU has what the x86-64 fast paths ([`moves_avx2`], [`flips_avx2`] and the code compiled with
/// them) were built for: `popcnt`, `lzcnt`, `bmi1`, `bmi2` and AVX2. Checked once per search, not per node.
#[cfg(target_arch = "x86_64")]
#[must_use]
pub fn has_x86_features() -> bool {
    std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("avx2")
}

/// Perft on the 8x8 board with bulk counting at the last ply: the number of leaves `depth` plies below the
/// position where `p` is to move, a pass counting as a ply and a finished game as one leaf at every depth.
#[must_use]
pub fn perft(p: u64, o: u64, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if has_x86_features() {
        // SAFETY: the CPU has every feature `perft_x86` was compiled for.
        return unsafe { perft_x86(p, o, depth) };
    }
    perft_portable(p, o, depth)
}

#[cfg(test)]
mod tests {
    use rand::Rng;
    use tabula_core::random;

    use super::*;

    /// Square-by-square reference for [`flips`].
    fn slow_flips(p: u64, o: u64, sq: usize) -> u64 {
        let mut all = 0;
        for (dx, dy) in DIRECTIONS {
            let (mut x, mut y) = ((sq % 8) as i32 + dx, (sq / 8) as i32 + dy);
            let mut run = 0;
            while (0..8).contains(&x) && (0..8).contains(&y) && o & (1 << (y * 8 + x)) != 0 {
                run |= 1 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            if (0..8).contains(&x) && (0..8).contains(&y) && p & (1 << (y * 8 + x)) != 0 {
                all |= run;
            }
        }
        all
    }

    #[test]
    fn flips_and_moves_match_a_square_by_square_reference() {
        let mut rng = random::seeded(0x1234_5678_9abc_def0);
        for _ in 0..20_000 {
            let (a, b): (u64, u64) = (rng.random(), rng.random());
            let (p, o) = (a & b, !a & b.rotate_left(17));
            let mut expected_moves = 0;
            for sq in 0..64 {
                if (p | o) & (1 << sq) == 0 {
                    let f = slow_flips(p, o, sq);
                    assert_eq!(flips(p, o, sq), f, "p={p:#x} o={o:#x} sq={sq}");
                    if f != 0 {
                        expected_moves |= 1 << sq;
                    }
                }
            }
            assert_eq!(moves(p, o), expected_moves, "p={p:#x} o={o:#x}");
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2.
                assert_eq!(unsafe { moves_avx2(p, o) }, expected_moves, "p={p:#x} o={o:#x}");
                for sq in 0..64 {
                    if (p | o) & (1 << sq) == 0 {
                        // SAFETY: the CPU has AVX2.
                        assert_eq!(unsafe { flips_avx2(p, o, sq) }, flips(p, o, sq), "p={p:#x} o={o:#x} sq={sq}");
                    }
                }
            }
        }
    }

    #[test]
    fn frontier_empties_are_the_empties_next_to_a_disc() {
        let mut rng = random::seeded(0x5eed_f00d_1234_4321);
        for _ in 0..20_000 {
            let (a, b): (u64, u64) = (rng.random(), rng.random());
            let (o, empty) = (a & b, !(a & b) & rng.random::<u64>());
            let expected = (0..64).filter(|&sq| empty & (1 << sq) != 0 && NEIGHBOURS[sq] & o != 0);
            assert_eq!(frontier_empties(o, empty), expected.fold(0, |m, sq| m | 1 << sq), "o={o:#x} e={empty:#x}");
        }
    }

    #[test]
    fn last_flip_counts_match_the_reference() {
        let mut rng = random::seeded(0x0bad_5eed_dead_beef);
        for _ in 0..20_000 {
            let seed: u64 = rng.random();
            // Half-full, sparse and dense boards: long runs of either colour.
            for (sq, mine) in
                (0..64).zip([seed, seed & seed.rotate_left(23), seed | seed.rotate_left(23)].iter().cycle())
            {
                let p = mine & !(1 << sq);
                let o = !p & !(1 << sq);
                assert_eq!(last_flip_count(p, sq), slow_flips(p, o, sq).count_ones(), "p={p:#x} sq={sq}");
            }
        }
    }

    #[test]
    fn stable_discs_never_turn_over() {
        let mut rng = random::seeded(0x9e37_79b9_7f4a_7c15);
        let mut checked = 0;
        for _ in 0..3000 {
            // A random game from the start; at each position the stable discs of both sides are recorded and must
            // keep their colour for the rest of the game.
            let (mut black, mut white) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
            let mut black_to_move = true;
            let mut recorded: Vec<(u64, u64)> = Vec::new();
            loop {
                recorded.push((stable(black, white), stable(white, black)));
                let (p, o) = if black_to_move { (black, white) } else { (white, black) };
                let legal = moves(p, o);
                if legal == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    black_to_move = !black_to_move;
                    continue;
                }
                let pick = rng.random_range(0..legal.count_ones());
                let mut rest = legal;
                for _ in 0..pick {
                    rest &= rest - 1;
                }
                let sq = rest.trailing_zeros() as usize;
                let f = flips(p, o, sq);
                let (p, o) = (p ^ f ^ (1 << sq), o ^ f);
                (black, white) = if black_to_move { (p, o) } else { (o, p) };
                black_to_move = !black_to_move;
                for &(b, w) in &recorded {
                    assert_eq!(b & black, b, "a stable black disc turned");
                    assert_eq!(w & white, w, "a stable white disc turned");
                    checked += (b | w).count_ones();
                }
            }
        }
        assert!(checked > 0);
    }
}
