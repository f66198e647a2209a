//! The solver's transposition table: bounds and best moves in two-word lock-free entries (`key ^ data`, `data`).

use std::sync::atomic::Ordering;

use super::Solver;

/// Bounds on a position's value as stored in the table.
#[derive(Clone, Copy)]
pub(super) struct Bounds {
    pub(super) lower: i32,
    pub(super) upper: i32,
    pub(super) best: Option<usize>,
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub(super) fn key_of(p: u64, o: u64) -> u64 {
    mix(p ^ mix(o ^ 0x9E37_79B9_7F4A_7C15))
}
impl Solver {
    /// Starts loading the table entry of `key` into the cache, so that a later [`Self::probe`] does not wait.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        tabula_core::table::prefetch(&self.table[key as usize & (self.table.len() - 1)]);
    }

    pub(super) fn probe(&self, key: u64) -> Option<Bounds> {
        let slot = &self.table[key as usize & (self.table.len() - 1)];
        let data = slot[1].load(Ordering::Relaxed);
        if slot[0].load(Ordering::Relaxed) ^ data != key || data == 0 {
            return None;
        }
        let lower = i32::from((data & 0xFF) as u8 as i8);
        let upper = i32::from(((data >> 8) & 0xFF) as u8 as i8);
        let best = ((data >> 16) & 0xFF) as usize;
        Some(Bounds { lower, upper, best: (best < 64).then_some(best) })
    }

    pub(super) fn store(&self, key: u64, bounds: Bounds) {
        // A second search of the same position (another window) narrows what is known.
        let bounds = match self.probe(key) {
            Some(old) if old.lower.max(bounds.lower) <= old.upper.min(bounds.upper) => Bounds {
                lower: old.lower.max(bounds.lower),
                upper: old.upper.min(bounds.upper),
                best: bounds.best.or(old.best),
            },
            _ => bounds,
        };
        let slot = &self.table[key as usize & (self.table.len() - 1)];
        let best = bounds.best.map_or(0xFF, |b| b as u64);
        // Bit 24 marks a used entry, so that data is never zero.
        let data =
            u64::from(bounds.lower as i8 as u8) | u64::from(bounds.upper as i8 as u8) << 8 | best << 16 | 1 << 24;
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}
