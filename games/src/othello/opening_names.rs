//! The names of Othello's standard openings (Tiger, Rose, Buffalo, ...), from Robert Gatliff's catalogue
//! (`games/data/othello-openings.tsv`, which gives its source), for the panel to say which opening a game follows.

use std::sync::LazyLock;

use super::Move;
use super::notation::parse_square;

/// The catalogue as embedded: one opening a line, its moves from c4, a tab, its name.
const CATALOGUE: &str = include_str!("../../data/othello-openings.tsv");

/// The openings: squares (`8 * row + column`) in order, and the name.
static OPENINGS: LazyLock<Vec<(Vec<usize>, &'static str)>> = LazyLock::new(|| {
    CATALOGUE
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (moves, name) = line.split_once('\t').expect("catalogue lines are moves, a tab, a name");
            let squares = (0..moves.len())
                .step_by(2)
                .map(|i| parse_square(8, &moves[i..i + 2]).ok().and_then(Move::square).expect("catalogue squares"))
                .collect();
            (squares, name)
        })
        .collect()
});

/// A symmetry of the board on (column, row).
type Symmetry = fn(usize, usize) -> (usize, usize);

/// The four symmetries of the 8x8 board that keep the standard start.
const SYMMETRIES: [Symmetry; 4] = [|x, y| (x, y), |x, y| (7 - x, 7 - y), |x, y| (y, x), |x, y| (7 - y, 7 - x)];

/// The name of the longest catalogued opening that `moves` (played from the standard 8x8 start) begin with, in
/// any orientation; `None` when they follow none (or not yet: the shortest opening has two moves).
#[must_use]
pub fn name_of(moves: &[Move]) -> Option<&'static str> {
    let squares: Vec<usize> = moves.iter().map_while(|m| m.square()).collect();
    SYMMETRIES
        .iter()
        .flat_map(|symmetry| {
            let turned: Vec<usize> = squares
                .iter()
                .map(|&sq| {
                    let (x, y) = symmetry(sq % 8, sq / 8);
                    8 * y + x
                })
                .collect();
            OPENINGS.iter().filter(move |(line, _)| turned.starts_with(line))
        })
        .max_by_key(|(line, _)| line.len())
        .map(|(_, name)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::Othello;
    use crate::othello::notation::parse_transcript;

    fn name(transcript: &str) -> Option<&'static str> {
        let game = Othello::new(crate::othello::variants::Rules::default());
        let (moves, _) = parse_transcript(&game, transcript).expect("a legal transcript");
        name_of(&moves)
    }

    #[test]
    fn every_catalogued_opening_is_legal_and_named_in_each_orientation() {
        let game = Othello::new(crate::othello::variants::Rules::default());
        for (line, opening) in OPENINGS.iter() {
            for symmetry in SYMMETRIES {
                let text: String = line
                    .iter()
                    .map(|&sq| {
                        let (x, y) = symmetry(sq % 8, sq / 8);
                        crate::othello::notation::format_move(8, Move::at(8 * y + x))
                    })
                    .collect();
                let (moves, _) = parse_transcript(&game, &text).unwrap_or_else(|e| panic!("{opening}: {text}: {e}"));
                assert_eq!(name_of(&moves), Some(*opening), "{text}");
            }
        }
        assert!(OPENINGS.len() > 70);
    }

    #[test]
    fn the_usual_f5_orientation_finds_the_names() {
        assert_eq!(name("f5d6c3d3c4"), Some("Tiger"));
        assert_eq!(name("f5d6c3d3c4f4"), Some("Tiger"), "a move beyond keeps the longest name reached");
        assert_eq!(name("f5d6c3d3c4f4c5b3c2"), Some("Rose-Bill"));
        assert_eq!(name("f5f6e6f4c3"), Some("Buffalo / Kenichi Variation"));
        assert_eq!(name("f5f4"), Some("Parallel Opening"));
        assert_eq!(name("f5"), None, "one move names nothing yet");
    }
}
