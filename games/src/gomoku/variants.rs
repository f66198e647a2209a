//! Gomoku's rule options as data: the option axes (board size, win rule, opening rule) and named rule sets, from
//! which menus and help text are generated.

use super::rules::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, OpeningRule, WinRule};
use super::{Gomoku, RulesError};
use crate::board::{OptionAxis, OptionChoice, RuleSet};

/// Board sides as (id, name), smallest first.
const SIZES: [(&str, &str); MAX_SIZE - MIN_SIZE + 1] = [
    ("7", "7 x 7"),
    ("8", "8 x 8"),
    ("9", "9 x 9"),
    ("10", "10 x 10"),
    ("11", "11 x 11"),
    ("12", "12 x 12"),
    ("13", "13 x 13"),
    ("14", "14 x 14"),
    ("15", "15 x 15"),
    ("16", "16 x 16"),
    ("17", "17 x 17"),
    ("18", "18 x 18"),
    ("19", "19 x 19"),
    ("20", "20 x 20"),
    ("21", "21 x 21"),
    ("22", "22 x 22"),
    ("23", "23 x 23"),
    ("24", "24 x 24"),
    ("25", "25 x 25"),
];

/// The option axes: `board`, `win` and `opening`.
#[must_use]
pub fn option_axes() -> Vec<OptionAxis> {
    let board = OptionAxis {
        id: "board",
        name: "Board size",
        choices: SIZES
            .iter()
            .map(|&(id, name)| OptionChoice {
                id,
                name,
                description: if id == "15" {
                    "The standard board, and the only one Renju allows."
                } else {
                    "A square board of this many points per side."
                },
            })
            .collect(),
        default: DEFAULT_SIZE - MIN_SIZE,
    };
    let win = OptionAxis {
        id: "win",
        name: "Win rule",
        choices: WinRule::ALL
            .iter()
            .map(|r| OptionChoice { id: r.id(), name: r.name(), description: r.description() })
            .collect(),
        default: 0,
    };
    let opening = OptionAxis {
        id: "opening",
        name: "Opening rule",
        choices: OpeningRule::ALL
            .iter()
            .map(|r| OptionChoice { id: r.id(), name: r.name(), description: r.description() })
            .collect(),
        default: 0,
    };
    vec![board, win, opening]
}

/// The named rule sets: `freestyle`, `exact-five`, `renju` and `caro` with a free opening, then the swap openings
/// players meet in tournaments: freestyle with Swap and with Swap2, exact five with Swap2 (`swap2`, the world
/// championships' rules) and Renju with Taraguchi-10 (`renju-taraguchi-10`, an opening rule of the RIF).
#[must_use]
pub fn rule_sets() -> Vec<RuleSet> {
    let mut sets: Vec<RuleSet> = WinRule::ALL
        .iter()
        .map(|&rule| RuleSet {
            id: rule.id(),
            name: rule.name(),
            description: rule.description(),
            choices: vec![("board", "15"), ("win", rule.id()), ("opening", "free")],
            known_result: rule.known_result(),
        })
        .collect();
    for (id, name, win, opening, description) in SWAP_SETS {
        sets.push(RuleSet {
            id,
            name,
            description,
            choices: vec![("board", "15"), ("win", win.id()), ("opening", opening.id())],
            known_result: None,
        });
    }
    sets
}

/// The swap-opening rule sets: id, name, win rule, opening rule, description.
const SWAP_SETS: [(&str, &str, WinRule, OpeningRule, &str); 4] = [
    (
        "freestyle-swap",
        "Freestyle with Swap",
        WinRule::Freestyle,
        OpeningRule::Swap,
        "Five or more in a row win. The first player places three stones (two black, one white); the second then \
         plays White or takes Black.",
    ),
    (
        "freestyle-swap2",
        "Freestyle with Swap2",
        WinRule::Freestyle,
        OpeningRule::Swap2,
        "Five or more in a row win. The first player places three stones; the second plays White, takes Black, or \
         places two more and lets the first player choose the colour.",
    ),
    (
        "swap2",
        "Exact five with Swap2",
        WinRule::ExactFive,
        OpeningRule::Swap2,
        "Exactly five in a row win, as in the Gomoku world championships, whose opening rule is Swap2: three \
         stones, then the second player plays White, takes Black, or places two more and lets the first choose.",
    ),
    (
        "renju-taraguchi-10",
        "Renju with Taraguchi-10",
        WinRule::Renju,
        OpeningRule::Taraguchi10,
        "Renju's restrictions on Black, with the RIF's Taraguchi-10 opening: the first four stones inside growing \
         central squares with a right to swap after each, then a fifth inside the 9x9 and a last swap, or ten \
         fifth stones offered for White to pick from.",
    ),
];

/// A choice that does not exist on an axis, or a combination the rules forbid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// No axis has that id.
    #[error("unknown option `{0}` (use board, win or opening)")]
    Axis(String),
    /// The axis has no such choice.
    #[error("unknown choice `{choice}` for option `{axis}`")]
    Choice {
        /// The axis id.
        axis: String,
        /// The rejected choice.
        choice: String,
    },
    /// No rule set has that id.
    #[error("unknown rule set `{0}` (use freestyle, exact-five, renju or caro)")]
    RuleSet(String),
    /// The choices are individually valid but not together.
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// The rules for a list of (axis id, choice id); axes not listed take their default.
pub fn from_choices(choices: &[(&str, &str)]) -> Result<Gomoku, VariantError> {
    let (mut size, mut win, mut opening) = (DEFAULT_SIZE, WinRule::Freestyle, OpeningRule::Free);
    for &(axis, choice) in choices {
        let bad = || VariantError::Choice { axis: axis.to_string(), choice: choice.to_string() };
        match axis {
            "board" => size = choice.parse().ok().filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s)).ok_or_else(bad)?,
            "win" => win = WinRule::from_id(choice).ok_or_else(bad)?,
            "opening" => opening = OpeningRule::from_id(choice).ok_or_else(bad)?,
            _ => return Err(VariantError::Axis(axis.to_string())),
        }
    }
    Ok(Gomoku::with_opening(size, win, opening)?)
}

/// The rules of a named rule set (`standard` is accepted for `exact-five`).
pub fn from_rule_set(id: &str) -> Result<Gomoku, VariantError> {
    let id = if id == "standard" { "exact-five" } else { id };
    let set = rule_sets().into_iter().find(|s| s.id == id).ok_or_else(|| VariantError::RuleSet(id.to_string()))?;
    from_choices(&set.choices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_sets_build() {
        let ids: Vec<_> = rule_sets().iter().map(|s| s.id).collect();
        assert_eq!(
            ids,
            [
                "freestyle",
                "exact-five",
                "renju",
                "caro",
                "freestyle-swap",
                "freestyle-swap2",
                "swap2",
                "renju-taraguchi-10"
            ]
        );
        for id in &ids[..4] {
            assert_eq!(from_rule_set(id).expect("builds").win_rule().id(), *id);
        }
        let swap2 = from_rule_set("swap2").expect("builds");
        assert_eq!((swap2.win_rule(), swap2.opening_rule()), (WinRule::ExactFive, OpeningRule::Swap2));
        let taraguchi = from_rule_set("renju-taraguchi-10").expect("builds");
        assert_eq!(taraguchi.opening_rule().procedure(), Some(crate::swap::Procedure::Taraguchi10));
        assert_eq!(from_rule_set("standard").map(|g| g.win_rule()).ok(), Some(WinRule::ExactFive));
        assert!(from_rule_set("gomoku").is_err());
        assert!(from_choices(&[("board", "19"), ("win", "renju")]).is_err());
        assert_eq!(from_choices(&[("board", "19")]).map(|g| g.size()).ok(), Some(19));
        assert!(from_choices(&[("board", "30")]).is_err());
        let axes = option_axes();
        assert_eq!(axes[0].choices[axes[0].default].id, "15");
    }
}
