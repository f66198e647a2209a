//! The transposition table: search results keyed by position hash, with two-tier replacement, shared without locks
//! by every thread of a search.
//!
//! Each entry is two words, `key ^ data` and `data`, written and read with relaxed atomics (the "XOR trick" of
//! Hyatt and Mann's lockless hashing): a read that meets a half-written entry sees a key that does not match and
//! takes it as a miss, so threads never see a torn result and never wait for each other.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::score::Score;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is exactly the score.
    Exact,
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The full hash, to tell apart positions sharing a bucket.
    pub key: u64,
    /// The move index ([`crate::Game::move_index`]) of the best or refuting move found, tried first next time.
    pub best_move: Option<u32>,
    /// The score, node-relative for mates (see [`crate::score::to_table`]).
    pub score: Score,
    /// The remaining depth the score was searched to.
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
    generation: u8,
}

/// The layout of an entry's data word, low bits first: bound (2 bits, never 0 in a used slot), generation (8),
/// depth offset by [`DEPTH_OFFSET`] (11), move index plus one (16, 0 for none), score (27, signed).
const GENERATION_SHIFT: u32 = 2;
const DEPTH_SHIFT: u32 = 10;
const MOVE_SHIFT: u32 = 21;
const SCORE_SHIFT: u32 = 37;
const DEPTH_OFFSET: i32 = 1 << 10;

/// The largest move index an entry can hold.
pub const MAX_MOVE_INDEX: u32 = (1 << 16) - 2;

impl Entry {
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let depth = (self.depth.clamp(-DEPTH_OFFSET, DEPTH_OFFSET - 1) + DEPTH_OFFSET) as u64;
        let mv = self.best_move.map_or(0, |m| u64::from(m.min(MAX_MOVE_INDEX) + 1));
        bound
            | u64::from(self.generation) << GENERATION_SHIFT
            | depth << DEPTH_SHIFT
            | mv << MOVE_SHIFT
            | (i64::from(self.score) as u64) << SCORE_SHIFT
    }

    /// The entry a slot's two words hold, if they hold one for `key`.
    fn unpack(check: u64, data: u64, key: u64) -> Option<Entry> {
        let bound = match data & 3 {
            0 => return None,
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        if check ^ data != key {
            return None;
        }
        let mv = ((data >> MOVE_SHIFT) & 0xFFFF) as u32;
        Some(Entry {
            key,
            best_move: mv.checked_sub(1),
            score: ((data as i64) >> SCORE_SHIFT) as Score,
            depth: ((data >> DEPTH_SHIFT) & 0x7FF) as i32 - DEPTH_OFFSET,
            bound,
            generation: (data >> GENERATION_SHIFT) as u8,
        })
    }
}

/// `count` default entries for a large table probed at random, backed by 2 MB pages where Linux gives them: such a
/// table otherwise spends much of its time walking page tables, and transparent huge pages are often given only to
/// memory that asks (`madvise` mode).
#[must_use]
pub fn huge_page_table<T: Default>(count: usize) -> Vec<T> {
    let mut entries: Vec<T> = Vec::with_capacity(count);
    advise_huge_pages(entries.as_ptr().cast(), count * std::mem::size_of::<T>());
    entries.extend((0..count).map(|_| T::default()));
    entries
}

/// Starts loading `entry` of a table into the cache, so that reading it soon waits less for memory (on x86-64;
/// elsewhere nothing).
#[inline(always)]
pub fn prefetch<T>(entry: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of the x86-64 baseline, and a prefetch never faults whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(entry).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = entry;
}

/// Asks Linux to back `bytes` from `start` (an allocation not yet touched) with huge pages. Elsewhere, or when
/// refused, nothing changes.
fn advise_huge_pages(start: *const u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let first = (start as usize).next_multiple_of(PAGE);
        let end = (start as usize + bytes) / PAGE * PAGE;
        if end > first {
            // SAFETY: the range lies within an allocation this table owns, and MADV_HUGEPAGE only changes how the
            // kernel backs it, never its contents; a refusal is harmless.
            unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

/// One slot: `key ^ data` and `data`.
type Slot = [AtomicU64; 2];

/// A fixed-size hash table of search results. Each bucket keeps a depth-preferred slot, replaced only by deeper
/// or newer results, and an always-replace slot, so deep results survive while recent ones still get in.
pub struct TranspositionTable {
    buckets: Vec<[Slot; 2]>,
    generation: u8,
}

impl TranspositionTable {
    /// A table using about `megabytes` of memory (at least one bucket).
    #[must_use]
    pub fn with_megabytes(megabytes: usize) -> Self {
        let bucket = std::mem::size_of::<[Slot; 2]>();
        let wanted = (megabytes.saturating_mul(1024 * 1024) / bucket).max(1);
        // A power of two, so the index is a mask of the hash.
        let count = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        TranspositionTable { buckets: huge_page_table(count), generation: 0 }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        for slot in self.buckets.iter_mut().flatten().flatten() {
            *slot.get_mut() = 0;
        }
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims for replacement.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> &[Slot; 2] {
        &self.buckets[(key as usize) & (self.buckets.len() - 1)]
    }

    fn read(slot: &Slot, key: u64) -> Option<Entry> {
        Entry::unpack(slot[0].load(Ordering::Relaxed), slot[1].load(Ordering::Relaxed), key)
    }

    /// The key of the entry in `slot`, if it holds one.
    fn key_in(slot: &Slot) -> Option<(u64, Entry)> {
        let (check, data) = (slot[0].load(Ordering::Relaxed), slot[1].load(Ordering::Relaxed));
        let key = check ^ data;
        Entry::unpack(check, data, key).map(|e| (key, e))
    }

    fn write(slot: &Slot, entry: Option<Entry>) {
        let (check, data) = entry.map_or((0, 0), |e| {
            let data = e.pack();
            (e.key ^ data, data)
        });
        slot[0].store(check, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// Starts loading the bucket of `key` into the cache, so that a later [`Self::probe`] or [`Self::store`] of the
    /// key waits less for memory (on x86-64; elsewhere nothing).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|slot| Self::read(slot, key))
    }

    /// Stores a result. A best move already known for the position is kept when the new result has none. Scores
    /// must lie within ±2^26 and move indices up to [`MAX_MOVE_INDEX`].
    pub fn store(&self, key: u64, best_move: Option<u32>, score: Score, depth: i32, bound: Bound) {
        debug_assert!(score.unsigned_abs() < 1 << 26 && best_move.is_none_or(|m| m <= MAX_MOVE_INDEX));
        let generation = self.generation;
        let bucket = self.bucket(key);
        let deep = Self::key_in(&bucket[0]);
        let recent = Self::key_in(&bucket[1]);
        let previous_move =
            [deep, recent].into_iter().flatten().find(|(k, _)| *k == key).and_then(|(_, e)| e.best_move);
        let entry = Entry { key, best_move: best_move.or(previous_move), score, depth, bound, generation };
        let deep_slot_free = match deep {
            None => true,
            Some((old_key, old)) => old_key == key || old.generation != generation || depth >= old.depth,
        };
        if deep_slot_free {
            // The displaced deep entry falls to the always-replace slot unless it was the same position.
            if let Some((old_key, old)) = deep
                && old_key != key
            {
                Self::write(&bucket[1], Some(old));
            } else if recent.is_some_and(|(k, _)| k == key) {
                Self::write(&bucket[1], None);
            }
            Self::write(&bucket[0], Some(entry));
        } else {
            Self::write(&bucket[1], Some(entry));
        }
    }

    /// The number of buckets (two entries each).
    #[must_use]
    pub fn bucket_count(&self) -> usize {
        self.buckets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::with_megabytes(1);
        tt.store(42, Some(3), 17, 5, Bound::Exact);
        let e = tt.probe(42).expect("stored entry");
        assert_eq!((e.best_move, e.score, e.depth, e.bound), (Some(3), 17, 5, Bound::Exact));
        assert!(tt.probe(43).is_none());
    }

    #[test]
    fn every_field_survives_packing_at_its_limits() {
        let tt = TranspositionTable::with_megabytes(1);
        for (key, mv, score, depth, bound) in [
            (0, None, 0, 0, Bound::Lower),
            (u64::MAX, Some(MAX_MOVE_INDEX), (1 << 26) - 1, DEPTH_OFFSET - 1, Bound::Upper),
            (7, Some(0), -(1 << 26) + 1, -DEPTH_OFFSET, Bound::Exact),
            (9, Some(400), -1_000_001, 1_000, Bound::Lower),
        ] {
            tt.store(key, mv, score, depth, bound);
            let e = tt.probe(key).expect("stored entry");
            assert_eq!((e.key, e.best_move, e.score, e.depth, e.bound), (key, mv, score, depth, bound));
        }
    }

    #[test]
    fn a_torn_entry_is_a_miss() {
        let tt = TranspositionTable::with_megabytes(0);
        tt.store(5, Some(1), 10, 3, Bound::Exact);
        // Another thread's half-finished write: a new data word under the old check word.
        let data = tt.buckets[0][0][1].load(Ordering::Relaxed);
        tt.buckets[0][0][1].store(data ^ 1 << 40, Ordering::Relaxed);
        assert!(tt.probe(5).is_none());
    }

    #[test]
    fn deep_entry_survives_a_shallow_collision() {
        let tt = TranspositionTable::with_megabytes(0);
        assert_eq!(tt.bucket_count(), 1);
        tt.store(1, Some(1), 10, 8, Bound::Exact);
        tt.store(2, Some(2), 20, 2, Bound::Lower);
        tt.store(3, Some(3), 30, 1, Bound::Upper);
        assert_eq!(tt.probe(1).map(|e| e.depth), Some(8), "deep entry kept");
        assert!(tt.probe(2).is_none(), "always-replace slot overwritten");
        assert_eq!(tt.probe(3).map(|e| e.score), Some(30));
    }

    #[test]
    fn keeps_known_best_move() {
        let tt = TranspositionTable::with_megabytes(1);
        tt.store(9, Some(4), 0, 3, Bound::Lower);
        tt.store(9, None, -5, 4, Bound::Upper);
        let e = tt.probe(9).expect("entry");
        assert_eq!((e.best_move, e.score, e.depth), (Some(4), -5, 4));
    }

    #[test]
    fn clear_forgets_everything() {
        let mut tt = TranspositionTable::with_megabytes(1);
        tt.store(11, Some(2), 1, 1, Bound::Exact);
        tt.clear();
        assert!(tt.probe(11).is_none());
    }
}
