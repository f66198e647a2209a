//! Othello's entry in the registry ([`crate::descriptor`]).

use super::{Othello, variants};
use crate::board::RuleSet;
use crate::descriptor::{BenchPositions, BoardLook, GameDescriptor, Material, RegisteredGame, SamplePosition};

impl RegisteredGame for Othello {
    const DESCRIPTOR: GameDescriptor = GameDescriptor {
        id: "othello",
        name: "Othello",
        tagline: "Outflank and flip discs; the most discs at the end wins.",
        solves_endgames: true,
        axes: variants::axes,
        rule_sets: variants::rule_sets,
        aliases: &[],
        board_sizes,
        arena_opening_plies: 6,
        bench: BenchPositions {
            rule_set: "othello",
            depth: 8,
            lines: &[
                "",
                "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7",
                "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 g6 f8 f7 g5 h6 h4 g4 h3 c5",
                "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 g6 f8 f7 g5 h6 h4 g4 h3 c5 e3 b4 h5 g3 h7 e8 e2 c8 c6 c7 a4 f2",
            ],
        },
        look: BoardLook {
            on_intersections: false,
            rows_from_bottom: false,
            numbers_moves: false,
            material: Material::Baize,
            sample: SamplePosition {
                size: 8,
                first: &[(3, 3), (4, 4), (2, 3), (3, 2), (4, 3), (5, 2)],
                second: &[(3, 4), (4, 5), (2, 4), (5, 4)],
                last: (5, 2),
            },
        },
    };

    fn from_choices(choices: &[(&str, &str)]) -> Result<Othello, String> {
        Othello::from_choices(choices)
    }
}

/// Each rule set fixes its board: the one its `board` choice names, else 8x8.
fn board_sizes(set: &RuleSet) -> Vec<usize> {
    vec![set.choices.iter().find(|c| c.0 == "board").and_then(|c| c.1.parse().ok()).unwrap_or(8)]
}
