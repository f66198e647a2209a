//! The features of the learned 8x8 evaluation: board patterns read as base-3 indices, the mobility of both sides,
//! and a constant, as in Logistello, Zebra and Edax.
//!
//! A pattern family is a set of squares near the a1 corner (the edge with both X squares, the 2x5 and 3x3 corner
//! blocks, rows 2-4, the diagonals of length 4 to 8). Its instances are its images under the board's eight
//! symmetries, so all instances of a family share one table: an instance is read by applying the family's mask to
//! the board turned by that symmetry. Each square of the mask is a base-3 digit (0 empty, 1 the side to move's
//! disc, 2 the opponent's). A family that a symmetry maps onto itself (the 3x3 corner onto its diagonal, a row
//! onto its mirror image) sees equivalent configurations under two or more indices: [`Layout::compact`] folds them
//! into one weight, so training sees each configuration's data once and the weight file stays small.
//!
//! Everything here is computed from the family definitions when the layout is first used; nothing is hand-listed
//! per instance.

use std::sync::OnceLock;

use super::bitboard;
use crate::checksum::Fnv;

/// A pattern family: its name and its squares in the a1 orientation, as (column, row) with a1 = (0, 0).
struct FamilyDef {
    name: &'static str,
    squares: &'static [(u8, u8)],
}

const FAMILY_DEFS: [FamilyDef; 11] = [
    FamilyDef {
        name: "edge + 2X",
        squares: &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (1, 1), (6, 1)],
    },
    FamilyDef {
        name: "corner 2x5",
        squares: &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (0, 1), (1, 1), (2, 1), (3, 1), (4, 1)],
    },
    FamilyDef {
        name: "corner 3x3",
        squares: &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
    },
    FamilyDef { name: "row 2", squares: &[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)] },
    FamilyDef { name: "row 3", squares: &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2)] },
    FamilyDef { name: "row 4", squares: &[(0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3), (7, 3)] },
    FamilyDef { name: "diagonal 8", squares: &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7)] },
    FamilyDef { name: "diagonal 7", squares: &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)] },
    FamilyDef { name: "diagonal 6", squares: &[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)] },
    FamilyDef { name: "diagonal 5", squares: &[(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)] },
    FamilyDef { name: "diagonal 4", squares: &[(0, 4), (1, 5), (2, 6), (3, 7)] },
];

/// Entries of each mobility table: legal-move counts 0 to 31 (more counts as 31).
const MOBILITY_ENTRIES: usize = 32;

/// Pattern instances on the board (the sum of the families' instance counts).
pub const INSTANCES: usize = 46;

/// Features of one position: every pattern instance, the two mobility counts and the constant.
pub const FEATURES: usize = INSTANCES + 3;

/// Game stages with their own tables, by empties: 1-4, 5-8, ..., 57-60.
pub const STAGES: usize = 15;

/// Empties per stage.
pub const EMPTIES_PER_STAGE: u32 = 4;

/// The stage of a position with `empties` empty squares.
#[must_use]
pub fn stage(empties: u32) -> usize {
    ((empties.max(1) - 1) / EMPTIES_PER_STAGE).min(STAGES as u32 - 1) as usize
}

/// Applies board symmetry `s` (bit 0: mirror left-right, bit 1: flip top-bottom, bit 2: transpose, in that order).
#[must_use]
pub fn symmetry(s: usize, mut b: u64) -> u64 {
    if s & 1 != 0 {
        b = mirror(b);
    }
    if s & 2 != 0 {
        b = b.swap_bytes();
    }
    if s & 4 != 0 {
        b = transpose(b);
    }
    b
}

/// The board mirrored left-right (column c to 7 - c).
fn mirror(mut b: u64) -> u64 {
    b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((b & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// The board transposed about the a1-h8 diagonal (column and row swapped).
fn transpose(mut b: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// The bits of `b` under `mask`, packed to the low end in the mask's order (BMI2's `pext`, portably).
fn extract(b: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        if b & mask & mask.wrapping_neg() != 0 {
            out |= bit;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    out
}

/// The inverse of [`extract`]: the low bits of `bits` spread over `mask`'s squares.
fn deposit(bits: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        if bits & bit != 0 {
            out |= mask & mask.wrapping_neg();
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    out
}

/// One pattern family as laid out in the tables.
#[derive(Clone, Debug)]
pub struct Family {
    /// The family's name, for reports.
    pub name: &'static str,
    /// Its squares in the a1 orientation.
    pub mask: u64,
    /// The symmetries whose boards give the distinct instances.
    pub symmetries: Vec<usize>,
    /// Where its `3^squares` entries start in a stage's full table.
    pub offset: usize,
    /// `3^squares`.
    pub entries: usize,
}

/// One instance: the symmetry to turn the board by, the family's mask, and where the family's table starts.
#[derive(Clone, Copy, Debug)]
struct Instance {
    symmetry: usize,
    mask: u64,
    offset: u32,
}

/// The layout of a stage's table: the families, their instances, the mobility tables and the constant, and the
/// folding of equivalent pattern configurations.
#[derive(Debug)]
pub struct Layout {
    /// The pattern families, in table order.
    pub families: Vec<Family>,
    instances: [Instance; INSTANCES],
    /// Where the side to move's mobility table starts; the opponent's follows, then the constant.
    mobility_offset: usize,
    /// Entries of a stage's full table.
    pub full_size: usize,
    /// For each entry of the full table, its weight in the compact table.
    pub compact: Vec<u32>,
    /// Entries of a stage's compact table.
    pub compact_size: usize,
    /// A fingerprint of the layout, stored in weight files so a file made for another layout is refused.
    pub fingerprint: u64,
    /// Whether the CPU has the x86-64 fast path's features (BMI2 `pext` among them), checked once.
    fast: bool,
}

/// The base-3 value of each set of mask bits: `sum of 3^k` over the set bits `k`, for up to 10 squares.
static BASE3: [u16; 1024] = build_base3();

const fn build_base3() -> [u16; 1024] {
    let mut table = [0u16; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let (mut k, mut power, mut sum) = (0, 1u32, 0u32);
        while k < 10 {
            if bits & (1 << k) != 0 {
                sum += power;
            }
            power *= 3;
            k += 1;
        }
        table[bits] = sum as u16;
        bits += 1;
    }
    table
}

impl Layout {
    /// The layout, built on first use.
    pub fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(Layout::build)
    }

    fn build() -> Layout {
        let mut families = Vec::new();
        let mut instances = Vec::new();
        let mut compact = Vec::new();
        let mut fingerprint = Fnv::new();
        for def in &FAMILY_DEFS {
            let mask = def.squares.iter().fold(0u64, |m, &(c, r)| m | 1 << (8 * r + c));
            let entries = 3usize.pow(def.squares.len() as u32);
            // The squares symmetry `s`'s instance reads: those that `s` takes into the mask.
            let read =
                |s: usize| (0..64).filter(|&sq| symmetry(s, 1 << sq) & mask != 0).fold(0u64, |m, sq| m | 1 << sq);
            let mut seen = Vec::new();
            let mut symmetries = Vec::new();
            for s in 0..8 {
                if !seen.contains(&read(s)) {
                    seen.push(read(s));
                    symmetries.push(s);
                }
            }
            let offset = compact.len();
            for &s in &symmetries {
                instances.push(Instance { symmetry: s, mask, offset: offset as u32 });
            }
            // Fold: an index and its images under the symmetries that map the mask onto itself share a weight.
            let stabiliser: Vec<usize> = (1..8).filter(|&s| read(s) == mask).collect();
            let base = compact.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
            let mut first_of = vec![u32::MAX; entries];
            let mut next = base as u32;
            for index in 0..entries {
                let (p, o) = decode(index, mask);
                let canonical =
                    stabiliser.iter().map(|&s| encode(symmetry(s, p), symmetry(s, o), mask)).fold(index, usize::min);
                if first_of[canonical] == u32::MAX {
                    first_of[canonical] = next;
                    next += 1;
                }
                compact.push(first_of[canonical]);
            }
            fingerprint.write(&mask.to_le_bytes());
            families.push(Family { name: def.name, mask, symmetries, offset, entries });
        }
        let mobility_offset = compact.len();
        let mut next = compact.iter().map(|&c| c + 1).max().unwrap_or(0);
        for _ in 0..2 * MOBILITY_ENTRIES + 1 {
            compact.push(next);
            next += 1;
        }
        fingerprint.write(&(MOBILITY_ENTRIES as u64).to_le_bytes());
        fingerprint.write(&(STAGES as u64).to_le_bytes());
        let instances: [Instance; INSTANCES] =
            instances.try_into().unwrap_or_else(|v: Vec<_>| panic!("{} pattern instances, not {INSTANCES}", v.len()));
        Layout {
            families,
            instances,
            mobility_offset,
            full_size: compact.len(),
            compact,
            compact_size: next as usize,
            fingerprint: fingerprint.finish(),
            #[cfg(target_arch = "x86_64")]
            fast: bitboard::has_x86_features(),
            #[cfg(not(target_arch = "x86_64"))]
            fast: false,
        }
    }

    /// The full-table entries a position uses, `p` to move against `o`: one per pattern instance, the two
    /// mobility counts, the constant.
    #[must_use]
    pub fn features(&self, p: u64, o: u64) -> [u32; FEATURES] {
        let mut out = [0; FEATURES];
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: the CPU has BMI2 and the other features the fast path was compiled for.
            unsafe { self.patterns_x86(p, o, &mut out) };
            return out;
        }
        let (ps, os) = (symmetries(p), symmetries(o));
        for (slot, inst) in out.iter_mut().zip(&self.instances) {
            let (a, b) = (extract(ps[inst.symmetry], inst.mask), extract(os[inst.symmetry], inst.mask));
            *slot = inst.offset + u32::from(BASE3[a as usize]) + 2 * u32::from(BASE3[b as usize]);
        }
        self.mobility(p, o, &mut out, bitboard::moves);
        out
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    unsafe fn patterns_x86(&self, p: u64, o: u64, out: &mut [u32; FEATURES]) {
        use std::arch::x86_64::_pext_u64;
        let (ps, os) = (symmetries(p), symmetries(o));
        for (slot, inst) in out.iter_mut().zip(&self.instances) {
            let (a, b) = (_pext_u64(ps[inst.symmetry], inst.mask), _pext_u64(os[inst.symmetry], inst.mask));
            *slot = inst.offset + u32::from(BASE3[a as usize]) + 2 * u32::from(BASE3[b as usize]);
        }
        self.mobility(p, o, out, |a, b| bitboard::moves_avx2(a, b));
    }

    /// The mobility entries and the constant, with `moves` as the move generator.
    #[inline(always)]
    fn mobility(&self, p: u64, o: u64, out: &mut [u32; FEATURES], moves: impl Fn(u64, u64) -> u64) {
        let count = |a: u64, b: u64| (moves(a, b).count_ones() as usize).min(MOBILITY_ENTRIES - 1);
        out[INSTANCES] = (self.mobility_offset + count(p, o)) as u32;
        out[INSTANCES + 1] = (self.mobility_offset + MOBILITY_ENTRIES + count(o, p)) as u32;
        out[INSTANCES + 2] = (self.mobility_offset + 2 * MOBILITY_ENTRIES) as u32;
    }
}

/// The board under all eight symmetries.
#[inline]
fn symmetries(b: u64) -> [u64; 8] {
    let h = mirror(b);
    let v = b.swap_bytes();
    let hv = h.swap_bytes();
    [b, h, v, hv, transpose(b), transpose(h), transpose(v), transpose(hv)]
}

/// The discs of a pattern configuration: digit `k` of `index` (base 3) on the mask's `k`-th square.
fn decode(mut index: usize, mask: u64) -> (u64, u64) {
    let (mut p, mut o) = (0, 0);
    let mut k = 0;
    while index > 0 {
        match index % 3 {
            1 => p |= 1 << k,
            2 => o |= 1 << k,
            _ => {}
        }
        index /= 3;
        k += 1;
    }
    (deposit(p, mask), deposit(o, mask))
}

/// The index of the discs under the mask.
fn encode(p: u64, o: u64, mask: u64) -> usize {
    usize::from(BASE3[extract(p, mask) as usize]) + 2 * usize::from(BASE3[extract(o, mask) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` random boards (disjoint discs for the two sides) from a seed.
    fn random_boards(seed: u64, n: usize) -> Vec<(u64, u64)> {
        let mut next = crate::othello::endgame::tests::random_words(seed);
        (0..n)
            .map(|_| {
                let (a, b) = (next(), next());
                (a & b, !a & b)
            })
            .collect()
    }

    #[test]
    fn symmetries_move_squares_as_the_geometry_says() {
        for sq in 0..64u32 {
            let (c, r) = (sq % 8, sq / 8);
            assert_eq!(mirror(1 << sq), 1 << (8 * r + 7 - c));
            assert_eq!(symmetry(2, 1 << sq), 1 << (8 * (7 - r) + c));
            assert_eq!(transpose(1 << sq), 1 << (8 * c + r));
        }
    }

    #[test]
    fn the_layout_has_the_classic_instances() {
        let layout = Layout::get();
        let counts: Vec<usize> = layout.families.iter().map(|f| f.symmetries.len()).collect();
        assert_eq!(counts, [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
        // Every square is read by some instance of the edge, corner or line families.
        let mut covered = 0u64;
        for f in &layout.families {
            for &s in &f.symmetries {
                covered |= (0..64).filter(|&sq| symmetry(s, 1 << sq) & f.mask != 0).fold(0, |m, sq| m | 1 << sq);
            }
        }
        assert_eq!(covered, u64::MAX);
    }

    #[test]
    fn symmetric_boards_use_the_same_weights() {
        let layout = Layout::get();
        for (p, o) in random_boards(0x9E37_79B9_7F4A_7C15, 2000) {
            let mut reference: Vec<u32> = layout.features(p, o).iter().map(|&i| layout.compact[i as usize]).collect();
            reference.sort_unstable();
            for s in 1..8 {
                let mut turned: Vec<u32> = layout
                    .features(symmetry(s, p), symmetry(s, o))
                    .iter()
                    .map(|&i| layout.compact[i as usize])
                    .collect();
                turned.sort_unstable();
                assert_eq!(turned, reference, "symmetry {s}");
            }
        }
    }

    #[test]
    fn the_fast_path_reads_the_same_indices_as_the_portable_one() {
        let layout = Layout::get();
        for (p, o) in random_boards(77, 2000) {
            let (ps, os) = (symmetries(p), symmetries(o));
            let features = layout.features(p, o);
            for (inst, &got) in layout.instances.iter().zip(&features) {
                let expected = inst.offset as usize + encode(ps[inst.symmetry], os[inst.symmetry], inst.mask);
                assert_eq!(got as usize, expected);
            }
        }
    }

    #[test]
    fn folding_joins_only_mirror_images() {
        let layout = Layout::get();
        // The 3x3 corner is symmetric about its diagonal: b1 alone and a2 alone are one configuration, a1 alone
        // another.
        let corner = &layout.families[2];
        let one = |sq: u32| corner.offset + encode(1 << sq, 0, corner.mask);
        assert_eq!(layout.compact[one(1)], layout.compact[one(8)]);
        assert_ne!(layout.compact[one(0)], layout.compact[one(1)]);
        // The 2x5 corner has no symmetry: every configuration keeps its own weight.
        let block = &layout.families[1];
        let mut ids: Vec<u32> = layout.compact[block.offset..block.offset + block.entries].to_vec();
        ids.dedup();
        assert_eq!(ids.len(), block.entries);
        assert!(layout.compact_size < layout.full_size);
    }
}
