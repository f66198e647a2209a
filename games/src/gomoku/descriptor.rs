//! Gomoku's entry in the registry ([`crate::descriptor`]).

use super::rules::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
use super::{Gomoku, variants};
use crate::board::RuleSet;
use crate::descriptor::{BenchPositions, BoardLook, GameDescriptor, Material, RegisteredGame, SamplePosition};

impl RegisteredGame for Gomoku {
    const DESCRIPTOR: GameDescriptor = GameDescriptor {
        id: "gomoku",
        name: "Gomoku",
        tagline: "Get five stones in a row before your opponent does.",
        solves_endgames: false,
        axes: variants::option_axes,
        rule_sets: variants::rule_sets,
        aliases: &[("standard", "exact-five")],
        board_sizes,
        arena_opening_plies: 4,
        bench: BenchPositions {
            rule_set: "freestyle",
            depth: 5,
            lines: &[
                "h8",
                "h8 i9 g9 i7 i8 g8",
                "h8 h9 i8 g8 j8 k8 i9 i7 j10 k11 g7 f6",
                "h8 i9 j8 g8 i7 h7 g6 j9 h9 h10 f7 e8 k9",
            ],
        },
        look: BoardLook {
            on_intersections: true,
            rows_from_bottom: true,
            numbers_moves: true,
            material: Material::Wood,
            sample: SamplePosition {
                size: 9,
                first: &[(4, 4), (3, 3), (5, 5), (5, 3), (2, 6)],
                second: &[(4, 3), (3, 4), (6, 6), (4, 5)],
                last: (2, 6),
            },
        },
    };

    fn from_choices(choices: &[(&str, &str)]) -> Result<Gomoku, String> {
        variants::from_choices(choices).map_err(|e| e.to_string())
    }
}

/// Renju is played on 15x15 only; the other rule sets on any size from the smallest to the largest.
fn board_sizes(set: &RuleSet) -> Vec<usize> {
    if set.choices.contains(&("win", "renju")) { vec![DEFAULT_SIZE] } else { (MIN_SIZE..=MAX_SIZE).collect() }
}
