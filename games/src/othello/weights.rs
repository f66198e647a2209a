//! The learned weights of the pattern evaluation ([`super::patterns`]) and their file format.
//!
//! A weight file is a 32-byte header, then one signed 16-bit little-endian weight (hundredths of a disc) per
//! compact table entry, stage after stage. Header: the magic `TABULAOW`, the format version (u16), the number of
//! stages (u16), the compact entries per stage (u32), the layout's fingerprint (u64: the pattern masks, the mobility
//! tables and the stages, so a file made for another layout is refused) and the FNV-1a checksum of the weights
//! (u64). The file the engine plays with, `games/data/othello.weights`, is embedded in the binaries and checked
//! when first used; `tabula-cli train` makes it (see the README).

use std::sync::OnceLock;

use super::patterns::{FEATURES, Layout, STAGES, stage};
use crate::checksum::Fnv;

/// The magic bytes that open a weight file.
const MAGIC: &[u8; 8] = b"TABULAOW";

/// The format version this code reads and writes.
pub const VERSION: u16 = 1;

/// Bytes of the header.
const HEADER: usize = 32;

/// The weight file the engine plays with.
static EMBEDDED: &[u8] = include_bytes!("../../data/othello.weights");

/// A weight file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Shorter than its header says.
    #[error("the weight file has {found} bytes, {expected} expected")]
    Length {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// Not a weight file.
    #[error("not a Tabula Othello weight file (the magic bytes are wrong)")]
    Magic,
    /// Written by another version of the format.
    #[error("weight file format version {0}, this program reads version {VERSION}")]
    Version(u16),
    /// Made for another set of patterns or stages.
    #[error("the weight file was made for another pattern layout ({0})")]
    Layout(String),
    /// The weights do not match the checksum.
    #[error("the weight file is corrupt: checksum {found:016x}, header says {expected:016x}")]
    Checksum {
        /// The checksum in the header.
        expected: u64,
        /// The checksum of the weights read.
        found: u64,
    },
}

/// The weights, expanded to one full table per stage so that evaluation is a plain sum of look-ups.
#[derive(Clone, PartialEq, Eq)]
pub struct PatternWeights {
    /// The compact weights, stage after stage (what the file holds).
    compact: Vec<i16>,
    /// `STAGES` full tables of `Layout::full_size` entries.
    full: Vec<i16>,
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternWeights").field("weights", &self.compact.len()).finish()
    }
}

impl PatternWeights {
    /// The weights from compact tables (`STAGES` of [`Layout::compact_size`] entries each), in hundredths of a disc.
    ///
    /// # Panics
    /// If `compact` has the wrong length (a programming error: the trainer makes them for this layout).
    #[must_use]
    pub fn from_compact(compact: Vec<i16>) -> PatternWeights {
        let layout = Layout::get();
        assert_eq!(compact.len(), STAGES * layout.compact_size, "compact weights for another layout");
        let mut full = Vec::with_capacity(STAGES * layout.full_size);
        for stage in compact.chunks_exact(layout.compact_size) {
            full.extend(layout.compact.iter().map(|&c| stage[c as usize]));
        }
        PatternWeights { compact, full }
    }

    /// The compact weights, stage after stage.
    #[must_use]
    pub fn compact(&self) -> &[i16] {
        &self.compact
    }

    /// The weights the engine plays with, read from the embedded file once.
    pub fn embedded() -> Result<&'static PatternWeights, WeightsError> {
        static WEIGHTS: OnceLock<Result<PatternWeights, WeightsError>> = OnceLock::new();
        WEIGHTS.get_or_init(|| PatternWeights::from_bytes(EMBEDDED)).as_ref().map_err(Clone::clone)
    }

    /// Reads a weight file, checking its header, layout and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        if bytes.len() < HEADER {
            return Err(WeightsError::Length { expected: HEADER, found: bytes.len() });
        }
        if &bytes[..8] != MAGIC {
            return Err(WeightsError::Magic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap_or_default());
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or_default());
        let version = u16_at(8);
        if version != VERSION {
            return Err(WeightsError::Version(version));
        }
        let layout = Layout::get();
        let (stages, per_stage, fingerprint) = (usize::from(u16_at(10)), u32_at(12) as usize, u64_at(16));
        if stages != STAGES || per_stage != layout.compact_size || fingerprint != layout.fingerprint {
            return Err(WeightsError::Layout(format!(
                "{stages} stages of {per_stage} weights, fingerprint {fingerprint:016x}; expected {STAGES} of {}, {:016x}",
                layout.compact_size, layout.fingerprint
            )));
        }
        let expected = HEADER + 2 * stages * per_stage;
        if bytes.len() != expected {
            return Err(WeightsError::Length { expected, found: bytes.len() });
        }
        let payload = &bytes[HEADER..];
        let mut hash = Fnv::new();
        hash.write(payload);
        let checksum = u64_at(24);
        if hash.finish() != checksum {
            return Err(WeightsError::Checksum { expected: checksum, found: hash.finish() });
        }
        let compact = payload.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        Ok(PatternWeights::from_compact(compact))
    }

    /// The weight file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let layout = Layout::get();
        let payload: Vec<u8> = self.compact.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut hash = Fnv::new();
        hash.write(&payload);
        let mut bytes = Vec::with_capacity(HEADER + payload.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(STAGES as u16).to_le_bytes());
        bytes.extend_from_slice(&(layout.compact_size as u32).to_le_bytes());
        bytes.extend_from_slice(&layout.fingerprint.to_le_bytes());
        bytes.extend_from_slice(&hash.finish().to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// The evaluation of `p` to move against `o`, in hundredths of a disc of final margin.
    #[must_use]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        let layout = Layout::get();
        let empties = (!(p | o)).count_ones();
        let table = &self.full[stage(empties) * layout.full_size..][..layout.full_size];
        let features: [u32; FEATURES] = layout.features(p, o);
        features.iter().map(|&i| i32::from(table[i as usize])).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_weights_load_and_judge_the_start_as_near_even() {
        let weights = PatternWeights::embedded().unwrap();
        let (p, o) = super::super::records::START;
        assert!(weights.evaluate(p, o).abs() < 300, "{}", weights.evaluate(p, o));
        // Black has taken every corner and most edges: far ahead whoever is to move.
        let black = 0x8100_0000_0000_0081 | 0x7E00_0000_0000_007E;
        let white = 0x0000_3C3C_3C3C_0000;
        assert!(weights.evaluate(black, white) > 1000);
        assert!(weights.evaluate(white, black) < -1000);
    }

    #[test]
    fn a_weight_file_round_trips_and_damage_is_refused() {
        let layout = Layout::get();
        let compact: Vec<i16> = (0..STAGES * layout.compact_size).map(|i| (i % 2001) as i16 - 1000).collect();
        let weights = PatternWeights::from_compact(compact);
        let bytes = weights.to_bytes();
        assert_eq!(PatternWeights::from_bytes(&bytes).unwrap(), weights);

        let mut flipped = bytes.clone();
        flipped[HEADER + 1234] ^= 1;
        assert!(matches!(PatternWeights::from_bytes(&flipped), Err(WeightsError::Checksum { .. })));
        let err = PatternWeights::from_bytes(&bytes[..bytes.len() - 2]).unwrap_err();
        assert_eq!(err, WeightsError::Length { expected: bytes.len(), found: bytes.len() - 2 });
        assert_eq!(
            PatternWeights::from_bytes(&bytes[..10]).unwrap_err(),
            WeightsError::Length { expected: 32, found: 10 }
        );
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(PatternWeights::from_bytes(&magic).unwrap_err(), WeightsError::Magic);
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(PatternWeights::from_bytes(&version).unwrap_err(), WeightsError::Version(9));
        let mut other = bytes;
        other[16] ^= 0xFF;
        let err = PatternWeights::from_bytes(&other).unwrap_err();
        assert!(err.to_string().contains("another pattern layout"), "{err}");
    }
}
