//! Othello's rule options as data (board size, start, goal) and the named rule sets that bundle them.

use crate::board::{OptionAxis, OptionChoice, RuleSet};

use super::Othello;

/// The board: squares per side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BoardSize {
    /// 6x6: a small board, solved by computers (perfect play ends 16-20, a win for White).
    Six,
    /// 8x8: standard Othello.
    #[default]
    Eight,
    /// 10x10: Grand Othello.
    Ten,
}

impl BoardSize {
    /// The number of squares per side.
    #[must_use]
    pub fn squares_per_side(self) -> usize {
        match self {
            BoardSize::Six => 6,
            BoardSize::Eight => 8,
            BoardSize::Ten => 10,
        }
    }
}

/// How the game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Start {
    /// The four centre squares hold a diagonal cross: d5 and e4 Black, d4 and e5 White (on 8x8).
    #[default]
    Standard,
    /// The parallel centre: d4 and e4 Black, d5 and e5 White (on 8x8).
    Alternative,
    /// Original Reversi: the board starts empty and the first four moves fill the centre without flipping.
    Free,
}

/// Who wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Goal {
    /// More discs wins (Othello).
    #[default]
    MostDiscs,
    /// Fewer discs wins (anti-Othello).
    FewestDiscs,
}

/// One choice on each axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// The board.
    pub size: BoardSize,
    /// The start position.
    pub start: Start,
    /// The goal.
    pub goal: Goal,
}

/// The option axes, in menu order.
#[must_use]
pub fn axes() -> Vec<OptionAxis> {
    vec![
        OptionAxis {
            id: "board",
            name: "Board",
            choices: vec![
                OptionChoice { id: "6", name: "6x6", description: "A quick game on 36 squares." },
                OptionChoice { id: "8", name: "8x8", description: "The standard Othello board." },
                OptionChoice { id: "10", name: "10x10", description: "Grand Othello: longer games, more to plan." },
            ],
            default: 1,
        },
        OptionAxis {
            id: "start",
            name: "Start",
            choices: vec![
                OptionChoice {
                    id: "standard",
                    name: "Standard",
                    description: "Two discs each on the centre squares, placed diagonally.",
                },
                OptionChoice {
                    id: "alternative",
                    name: "Parallel",
                    description: "Two discs each on the centre squares, side by side in rows.",
                },
                OptionChoice {
                    id: "free",
                    name: "Free (Reversi)",
                    description: "The board starts empty; the first four discs fill the centre without flipping.",
                },
            ],
            default: 0,
        },
        OptionAxis {
            id: "goal",
            name: "Goal",
            choices: vec![
                OptionChoice { id: "most", name: "Most discs", description: "The player with more discs wins." },
                OptionChoice {
                    id: "fewest",
                    name: "Fewest discs",
                    description: "Anti-Othello: the player with fewer discs wins.",
                },
            ],
            default: 0,
        },
    ]
}

/// The named rule sets.
#[must_use]
pub fn rule_sets() -> Vec<RuleSet> {
    vec![
        RuleSet {
            id: "othello",
            name: "Othello",
            description: "Black moves first. Place a disc so that it brackets a line of your opponent's discs \
                          between it and one of yours; the bracketed discs turn to your colour. If you cannot \
                          move you pass; the game ends when neither player can move, and the one with more discs \
                          wins (empty squares go to the winner).",
            choices: vec![],
            known_result: Some("Weakly solved: a draw with perfect play (H. Takizawa, 2023)"),
        },
        RuleSet {
            id: "othello-6x6",
            name: "Othello 6x6",
            description: "Othello on a 6x6 board: the same rules, a shorter game.",
            choices: vec![("board", "6")],
            known_result: Some("Solved: White wins 16-20 with perfect play (J. Feinstein, 1993)"),
        },
        RuleSet {
            id: "grand-othello",
            name: "Grand Othello 10x10",
            description: "Othello on a 10x10 board: the same rules, a longer game.",
            choices: vec![("board", "10")],
            known_result: None,
        },
        RuleSet {
            id: "reversi",
            name: "Reversi (free start)",
            description: "The original Reversi: the board starts empty, the first four moves fill the four centre \
                          squares without flipping, then play continues as in Othello.",
            choices: vec![("start", "free")],
            known_result: None,
        },
        RuleSet {
            id: "othello-parallel",
            name: "Othello, parallel start",
            description: "Othello from the parallel opening: the four centre discs stand side by side in rows \
                          (d4 and e4 one colour, d5 and e5 the other) instead of crosswise, which leads to other \
                          openings; everything else is as in Othello.",
            choices: vec![("start", "alternative")],
            known_result: None,
        },
        RuleSet {
            id: "anti-othello",
            name: "Anti-Othello",
            description: "Othello played to lose: moves flip as usual, and the player with fewer discs at the end \
                          wins (empty squares go to the winner).",
            choices: vec![("goal", "fewest")],
            known_result: None,
        },
    ]
}

impl Othello {
    /// The game with the given (axis id, choice id) pairs; unlisted axes take their default.
    pub fn from_choices(choices: &[(&str, &str)]) -> Result<Othello, String> {
        let mut rules = Rules::default();
        for &(axis, choice) in choices {
            match (axis, choice) {
                ("board", "6") => rules.size = BoardSize::Six,
                ("board", "8") => rules.size = BoardSize::Eight,
                ("board", "10") => rules.size = BoardSize::Ten,
                ("start", "standard") => rules.start = Start::Standard,
                ("start", "alternative") => rules.start = Start::Alternative,
                ("start", "free") => rules.start = Start::Free,
                ("goal", "most") => rules.goal = Goal::MostDiscs,
                ("goal", "fewest") => rules.goal = Goal::FewestDiscs,
                _ => {
                    return Err(match axes().iter().find(|a| a.id == axis) {
                        Some(a) => format!(
                            "unknown choice `{choice}` for option `{axis}` (choose {})",
                            a.choices.iter().map(|c| c.id).collect::<Vec<_>>().join(", ")
                        ),
                        None => format!("unknown option `{axis}` (options: board, start, goal)"),
                    });
                }
            }
        }
        Ok(Othello::new(rules))
    }

    /// The game of a named rule set, found by id or name (case-insensitive).
    pub fn from_rule_set(name: &str) -> Result<Othello, String> {
        let sets = rule_sets();
        let set = sets
            .iter()
            .find(|s| s.id.eq_ignore_ascii_case(name.trim()) || s.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                let known: Vec<_> = sets.iter().map(|s| s.id).collect();
                format!("unknown rule set `{name}` (known: {})", known.join(", "))
            })?;
        Othello::from_choices(&set.choices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_builds_and_matches_its_declared_choices() {
        for set in rule_sets() {
            let game = Othello::from_rule_set(set.name).expect("named set builds");
            assert_eq!(game.rules(), Othello::from_rule_set(set.id).expect("id builds").rules());
        }
        assert_eq!(Othello::from_rule_set("Anti-Othello").map(|g| g.rules().goal), Ok(Goal::FewestDiscs));
        assert_eq!(Othello::from_rule_set("grand-othello").map(|g| g.size()), Ok(10));
        assert!(Othello::from_rule_set("chess").unwrap_err().contains("othello-6x6"));
        assert!(Othello::from_choices(&[("board", "7")]).unwrap_err().contains("6, 8, 10"));
    }

    #[test]
    fn every_declared_choice_is_accepted() {
        for axis in axes() {
            assert!(axis.default < axis.choices.len());
            for choice in &axis.choices {
                assert!(Othello::from_choices(&[(axis.id, choice.id)]).is_ok(), "{} {}", axis.id, choice.id);
            }
        }
    }
}
