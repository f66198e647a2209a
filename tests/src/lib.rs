//! Cross-crate tests for Tabula live in `tests/`; this library holds what several of them share: the catalogue
//! of games, rule sets and sizes to run over, read from the registry so that a new game is covered without new
//! test code.

use tabula_games::{GameKind, MatchSpec};

/// Every rule set of every game, as (game, rule set id), in the registry's order.
#[must_use]
pub fn rule_sets() -> Vec<(GameKind, &'static str)> {
    GameKind::ALL.iter().copied().flat_map(|game| game.rule_sets().into_iter().map(move |s| (game, s.id))).collect()
}

/// Every game, rule set and board size the registry offers, one spec each, each naming its size.
#[must_use]
pub fn every_spec() -> Vec<MatchSpec> {
    rule_sets()
        .into_iter()
        .flat_map(|(game, id)| {
            game.board_sizes(id).into_iter().map(move |size| MatchSpec {
                game,
                rule_set: id.to_string(),
                board_size: Some(size),
            })
        })
        .collect()
}
