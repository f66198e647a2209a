//! Readers for the collections of real 8x8 Othello games the pattern evaluation is trained on: the French
//! federation's WTHOR database (`.wtb`, one file per year) and Logistello's logbook (`.gam`, one game per line,
//! usually gzip-compressed).
//!
//! Every game is replayed while it is read, so a record that is not a legal game from the standard start is an
//! error naming the file and the record, never a silently wrong training position.

use std::io::Read;
use std::path::Path;

use super::bitboard::{self, flips};

/// One real game: its placements in order (passes are implied: a side without a move passes) and the results the
/// collection stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The placements, as squares `8 * row + column` (a1 = 0, h1 = 7, h8 = 63).
    pub moves: Vec<u8>,
    /// Black's final disc count minus White's as the collection stores it: WTHOR gives the empties to the winner,
    /// the logbook counts discs only.
    pub black_margin: i32,
    /// WTHOR only: Black's margin under perfect play from the position with [`THEORETICAL_EMPTIES`] empties, as
    /// computed by the database's solver (`None` for games that stop earlier).
    pub theoretical_margin: Option<i32>,
}

/// Empties of the position WTHOR's theoretical score is computed from.
pub const THEORETICAL_EMPTIES: u32 = 24;

/// The standard start: Black on d5 and e4, White on d4 and e5, Black to move.
pub const START: (u64, u64) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);

/// A position reached in a game: the discs of the side to move and of its opponent, and whether Black is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamePosition {
    /// The discs of the side to move.
    pub player: u64,
    /// The discs of the other side.
    pub opponent: u64,
    /// Whether Black is to move.
    pub black_to_move: bool,
}

/// A game played through: the position before every placement, and where it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The position before each placement, in order.
    pub positions: Vec<GamePosition>,
    /// Black's disc count minus White's at the end, empties to the winner.
    pub black_margin: i32,
    /// Black's disc count minus White's at the end, empties not counted.
    pub disc_difference: i32,
    /// Whether the game ended with neither side able to move (not stopped early).
    pub finished: bool,
}

/// A record that could not be read or replayed.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {place}: {problem}")]
pub struct RecordError {
    /// The file.
    pub file: String,
    /// Where in it: the record or line.
    pub place: String,
    /// What was wrong.
    pub problem: String,
}

impl RecordError {
    fn new(file: &Path, place: impl Into<String>, problem: impl Into<String>) -> RecordError {
        RecordError { file: file.display().to_string(), place: place.into(), problem: problem.into() }
    }
}

/// The name of square `sq` (`a1`..`h8`).
#[must_use]
pub fn square_name(sq: u8) -> String {
    format!("{}{}", char::from(b'a' + sq % 8), sq / 8 + 1)
}

/// Plays `moves` from the standard start, passing for a side that has no placement. Fails on the first move that
/// is not legal, naming it.
pub fn replay(moves: &[u8]) -> Result<Replay, String> {
    let (mut p, mut o) = START;
    let mut black_to_move = true;
    let mut positions = Vec::with_capacity(moves.len());
    for (i, &sq) in moves.iter().enumerate() {
        if bitboard::moves(p, o) == 0 {
            if bitboard::moves(o, p) == 0 {
                return Err(format!("move {} ({}) after the game ended", i + 1, square_name(sq)));
            }
            (p, o) = (o, p);
            black_to_move = !black_to_move;
        }
        if sq >= 64 || bitboard::moves(p, o) & (1 << sq) == 0 {
            return Err(format!("move {} ({}) is not legal", i + 1, square_name(sq.min(63))));
        }
        positions.push(GamePosition { player: p, opponent: o, black_to_move });
        let f = flips(p, o, usize::from(sq));
        (p, o) = (o ^ f, p ^ f ^ (1 << sq));
        black_to_move = !black_to_move;
    }
    let (black, white) = if black_to_move { (p, o) } else { (o, p) };
    let finished = bitboard::moves(p, o) == 0 && bitboard::moves(o, p) == 0;
    let disc_difference = black.count_ones() as i32 - white.count_ones() as i32;
    Ok(Replay { positions, black_margin: margin(black, white), disc_difference, finished })
}

/// Black's margin with the empties given to the side with more discs.
fn margin(black: u64, white: u64) -> i32 {
    let (b, w) = (black.count_ones() as i32, white.count_ones() as i32);
    let empties = 64 - b - w;
    match (b - w).signum() {
        1 => b - w + empties,
        -1 => b - w - empties,
        _ => 0,
    }
}

/// Size of a WTHOR file header, in bytes.
const WTHOR_HEADER: usize = 16;

/// Size of one WTHOR game record, in bytes.
const WTHOR_RECORD: usize = 68;

/// Reads a WTHOR `.wtb` file.
pub fn read_wthor(path: &Path) -> Result<Vec<GameRecord>, RecordError> {
    let bytes = std::fs::read(path).map_err(|e| RecordError::new(path, "file", e.to_string()))?;
    parse_wthor(path, &bytes)
}

/// Parses the bytes of a WTHOR file; `path` only names it in errors.
pub fn parse_wthor(path: &Path, bytes: &[u8]) -> Result<Vec<GameRecord>, RecordError> {
    if bytes.len() < WTHOR_HEADER {
        return Err(RecordError::new(
            path,
            "header",
            format!("{} bytes, shorter than the 16-byte header", bytes.len()),
        ));
    }
    let games = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    if bytes[12] != 8 && bytes[12] != 0 {
        return Err(RecordError::new(path, "header", format!("board size {}, not 8", bytes[12])));
    }
    let expected = WTHOR_HEADER + games * WTHOR_RECORD;
    if bytes.len() != expected {
        return Err(RecordError::new(
            path,
            "header",
            format!("{games} games need {expected} bytes, the file has {}", bytes.len()),
        ));
    }
    let mut records = Vec::with_capacity(games);
    for (i, record) in bytes[WTHOR_HEADER..].chunks_exact(WTHOR_RECORD).enumerate() {
        let place = || format!("game {}", i + 1);
        let mut moves = Vec::with_capacity(60);
        for (j, &byte) in record[8..].iter().enumerate() {
            if byte == 0 {
                if record[8 + j..].iter().any(|&b| b != 0) {
                    return Err(RecordError::new(
                        path,
                        place(),
                        format!("a move after the end marker at move {}", j + 1),
                    ));
                }
                break;
            }
            let (row, column) = (byte / 10, byte % 10);
            if !(1..=8).contains(&row) || !(1..=8).contains(&column) {
                return Err(RecordError::new(path, place(), format!("move {} is byte {byte}, not a square", j + 1)));
            }
            moves.push(8 * (row - 1) + column - 1);
        }
        let replayed = replay(&moves).map_err(|e| RecordError::new(path, place(), e))?;
        let black_discs = i32::from(record[6]);
        let theoretical = i32::from(record[7]);
        if black_discs > 64 || theoretical > 64 {
            return Err(RecordError::new(
                path,
                place(),
                format!("disc counts {black_discs} and {theoretical} above 64"),
            ));
        }
        let reaches_24 = replayed.positions.iter().any(|pos| (pos.player | pos.opponent).count_ones() == 40);
        records.push(GameRecord {
            moves,
            black_margin: 2 * black_discs - 64,
            theoretical_margin: reaches_24.then_some(2 * theoretical - 64),
        });
    }
    Ok(records)
}

/// Reads a logbook `.gam` file, gzip-compressed when its name ends in `.gz`.
pub fn read_logbook(path: &Path) -> Result<Vec<GameRecord>, RecordError> {
    let file = std::fs::File::open(path).map_err(|e| RecordError::new(path, "file", e.to_string()))?;
    let mut text = String::new();
    let read = if path.extension().is_some_and(|e| e == "gz") {
        flate2::read::GzDecoder::new(file).read_to_string(&mut text)
    } else {
        std::io::BufReader::new(file).read_to_string(&mut text)
    };
    read.map_err(|e| RecordError::new(path, "file", e.to_string()))?;
    parse_logbook(path, &text)
}

/// Parses logbook text (`+d3-c3+c4... : -04 10` per line); `path` only names it in errors.
pub fn parse_logbook(path: &Path, text: &str) -> Result<Vec<GameRecord>, RecordError> {
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let place = || format!("line {}", i + 1);
        let (moves_text, result) =
            line.split_once(':').ok_or_else(|| RecordError::new(path, place(), "no ':' before the result"))?;
        let black_margin: i32 =
            result.split_whitespace().next().and_then(|s| s.parse().ok()).ok_or_else(|| {
                RecordError::new(path, place(), format!("result '{}' is not a number", result.trim()))
            })?;
        let bytes = moves_text.trim().as_bytes();
        if bytes.len() % 3 != 0 {
            return Err(RecordError::new(path, place(), "moves are not of the form +d3-c3..."));
        }
        let mut moves = Vec::with_capacity(60);
        let mut signs = Vec::with_capacity(60);
        for (j, chunk) in bytes.chunks_exact(3).enumerate() {
            let (sign, column, row) = (chunk[0], chunk[1].to_ascii_lowercase(), chunk[2]);
            if !matches!(sign, b'+' | b'-') || !(b'a'..=b'h').contains(&column) || !(b'1'..=b'8').contains(&row) {
                let shown = String::from_utf8_lossy(chunk);
                return Err(RecordError::new(
                    path,
                    place(),
                    format!("move {} '{shown}' is not +/- and a square", j + 1),
                ));
            }
            moves.push(8 * (row - b'1') + column - b'a');
            signs.push(sign == b'+');
        }
        let replayed = replay(&moves).map_err(|e| RecordError::new(path, place(), e))?;
        if let Some(j) = replayed.positions.iter().zip(&signs).position(|(pos, &black)| pos.black_to_move != black) {
            return Err(RecordError::new(path, place(), format!("move {} has the wrong colour", j + 1)));
        }
        records.push(GameRecord { moves, black_margin, theoretical_margin: None });
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn testdata(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata").join(name)
    }

    #[test]
    fn a_wthor_year_reads_and_every_finished_game_scores_as_stored() {
        let records = read_wthor(&testdata("WTH_2021.wtb")).unwrap();
        assert_eq!(records.len(), (46_256 - 16) / 68);
        let mut finished = 0;
        for record in &records {
            let replay = replay(&record.moves).unwrap();
            if replay.finished {
                finished += 1;
                assert_eq!(replay.black_margin, record.black_margin, "{record:?}");
            }
        }
        assert!(finished > records.len() * 9 / 10, "{finished} of {}", records.len());
        assert!(records.iter().filter(|r| r.theoretical_margin.is_some()).count() > records.len() * 9 / 10);
    }

    #[test]
    fn the_logbook_sample_reads_and_every_game_scores_as_stored() {
        let records = read_logbook(&testdata("logbook-sample.gam.gz")).unwrap();
        assert_eq!(records.len(), 500);
        // The first game of the logbook, as its first line spells it.
        assert_eq!(records[0].moves[..4], [8 * 2 + 3, 8 * 2 + 2, 8 * 3 + 2, 8 * 2 + 4]);
        assert_eq!(records[0].black_margin, -4);
        for record in &records {
            let replay = replay(&record.moves).unwrap();
            assert!(replay.finished);
            assert_eq!(replay.disc_difference, record.black_margin, "{record:?}");
        }
    }

    #[test]
    fn a_pass_is_read_from_two_moves_of_one_colour() {
        // The logbook's second game ends -b1 -g1 +h1: White moves twice, Black had no move.
        let records = read_logbook(&testdata("logbook-sample.gam.gz")).unwrap();
        let replay = replay(&records[1].moves).unwrap();
        let n = replay.positions.len();
        assert!(!replay.positions[n - 2].black_to_move && !replay.positions[n - 3].black_to_move);
    }

    #[test]
    fn malformed_records_are_errors_that_say_where() {
        let path = Path::new("x.gam");
        let err = parse_logbook(path, "+d3-c3+c4: -04 10\n+d3-d3: +00 10\n").unwrap_err();
        assert_eq!(err.to_string(), "x.gam: line 2: move 2 (d3) is not legal");
        let err = parse_logbook(path, "+d3-c3 -04 10\n").unwrap_err();
        assert!(err.to_string().contains("line 1: no ':'"), "{err}");
        let err = parse_logbook(path, "+d3+c3: -04 10\n").unwrap_err();
        assert!(err.to_string().contains("line 1: move 2 has the wrong colour"), "{err}");
        let err = parse_logbook(path, "+d3-z3: -04 10\n").unwrap_err();
        assert!(err.to_string().contains("'-z3'"), "{err}");

        let good = std::fs::read(testdata("WTH_2021.wtb")).unwrap();
        let wthor = Path::new("y.wtb");
        assert!(parse_wthor(wthor, &good[..good.len() - 1]).unwrap_err().to_string().contains("header"));
        let mut bad = good.clone();
        bad[16 + 68 + 8] = 99;
        assert_eq!(parse_wthor(wthor, &bad).unwrap_err().to_string(), "y.wtb: game 2: move 1 is byte 99, not a square");
        let mut illegal = good;
        illegal[16 + 8] = 11;
        assert_eq!(parse_wthor(wthor, &illegal).unwrap_err().to_string(), "y.wtb: game 1: move 1 (a1) is not legal");
    }
}
