//! The transposition table: search results keyed by position hash, with two-tier replacement.

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
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    /// The full hash, to tell apart positions sharing a bucket.
    pub key: u64,
    /// The best or refuting move found, tried first next time.
    pub best_move: Option<M>,
    /// The score, node-relative for mates (see [`crate::score::to_table`]).
    pub score: Score,
    /// The remaining depth the score was searched to.
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
    generation: u8,
}

/// A fixed-size hash table of search results. Each bucket keeps a depth-preferred slot, replaced only by deeper
/// or newer results, and an always-replace slot, so deep results survive while recent ones still get in.
pub struct TranspositionTable<M> {
    buckets: Vec<[Option<Entry<M>>; 2]>,
    generation: u8,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table using about `megabytes` of memory (at least one bucket).
    #[must_use]
    pub fn with_megabytes(megabytes: usize) -> Self {
        let bucket = std::mem::size_of::<[Option<Entry<M>>; 2]>().max(1);
        let wanted = (megabytes.saturating_mul(1024 * 1024) / bucket).max(1);
        // A power of two, so the index is a mask of the hash.
        let count = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        TranspositionTable { buckets: vec![[None, None]; count], generation: 0 }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = [None, None]);
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims for replacement.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket_index(&self, key: u64) -> usize {
        (key as usize) & (self.buckets.len() - 1)
    }

    /// The entry stored for `key`, if any.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.buckets[self.bucket_index(key)].iter().flatten().find(|e| e.key == key).copied()
    }

    /// Stores a result. A best move already known for the position is kept when the new result has none.
    pub fn store(&mut self, key: u64, best_move: Option<M>, score: Score, depth: i32, bound: Bound) {
        let generation = self.generation;
        let index = self.bucket_index(key);
        let bucket = &mut self.buckets[index];
        let previous_move = bucket.iter().flatten().find(|e| e.key == key).and_then(|e| e.best_move);
        let entry = Entry { key, best_move: best_move.or(previous_move), score, depth, bound, generation };
        let deep_slot_free = match &bucket[0] {
            None => true,
            Some(old) => old.key == key || old.generation != generation || depth >= old.depth,
        };
        if deep_slot_free {
            // The displaced deep entry falls to the always-replace slot unless it was the same position.
            if let Some(old) = bucket[0].take()
                && old.key != key
            {
                bucket[1] = Some(old);
            } else if bucket[1].is_some_and(|e| e.key == key) {
                bucket[1] = None;
            }
            bucket[0] = Some(entry);
        } else {
            bucket[1] = Some(entry);
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
        let mut tt: TranspositionTable<u8> = TranspositionTable::with_megabytes(1);
        tt.store(42, Some(3), 17, 5, Bound::Exact);
        let e = tt.probe(42).expect("stored entry");
        assert_eq!((e.best_move, e.score, e.depth, e.bound), (Some(3), 17, 5, Bound::Exact));
        assert!(tt.probe(43).is_none());
    }

    #[test]
    fn deep_entry_survives_a_shallow_collision() {
        let mut tt: TranspositionTable<u8> = TranspositionTable::with_megabytes(0);
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
        let mut tt: TranspositionTable<u8> = TranspositionTable::with_megabytes(1);
        tt.store(9, Some(4), 0, 3, Bound::Lower);
        tt.store(9, None, -5, 4, Bound::Upper);
        let e = tt.probe(9).expect("entry");
        assert_eq!((e.best_move, e.score, e.depth), (Some(4), -5, 4));
    }
}
