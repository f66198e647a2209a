//! The catalogue of games and rule sets, and the one place that turns a choice of game, rule set and board size
//! into rules. Front ends list what is here and never name a game's types.

use serde::{Deserialize, Serialize};

use crate::board::{BoardGame, OptionAxis, RuleSet};
use crate::descriptor::{GameDescriptor, RegisteredGame};
use crate::external::{EngineRules, Protocol};
use crate::gomoku::Gomoku;
use crate::othello::Othello;
use crate::session::{Match, Session};

/// Declares the games: the [`GameKind`] enum with one variant per game, and the dispatch from a kind to its
/// descriptor and to its rules type. Adding a game is one line here.
macro_rules! games {
    ($($(#[$doc:meta])* $kind:ident => $game:ty),+ $(,)?) => {
        /// A game Tabula plays.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum GameKind {
            $($(#[$doc])* $kind),+
        }

        impl GameKind {
            /// Every game, in menu order.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$kind),+];

            /// The game's facts.
            #[must_use]
            pub fn descriptor(self) -> &'static GameDescriptor {
                match self {
                    $(GameKind::$kind => &<$game as RegisteredGame>::DESCRIPTOR),+
                }
            }

            /// Builds the game's rules from option choices and hands them to `visitor`.
            fn build<V: GameVisitor>(self, choices: &[(&str, &str)], visitor: V) -> Result<V::Output, SpecError> {
                match self {
                    $(GameKind::$kind => {
                        let game = <$game as RegisteredGame>::from_choices(choices).map_err(SpecError::Rules)?;
                        Ok(visitor.visit(game))
                    }),+
                }
            }
        }
    };
}

games! {
    /// Five in a row.
    Gomoku => Gomoku,
    /// Othello / Reversi.
    Othello => Othello,
}

impl GameKind {
    /// The stable identifier (`gomoku`, `othello`).
    #[must_use]
    pub fn id(self) -> &'static str {
        self.descriptor().id
    }

    /// The game with this identifier (case-insensitive).
    #[must_use]
    pub fn from_id(id: &str) -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|g| g.id().eq_ignore_ascii_case(id.trim()))
    }

    /// The game with this identifier (case-insensitive), or an error naming the games there are.
    pub fn parse(id: &str) -> Result<GameKind, SpecError> {
        GameKind::from_id(id).ok_or_else(|| SpecError::UnknownGame {
            name: id.trim().to_string(),
            known: GameKind::ALL.iter().map(|g| g.id()).collect(),
        })
    }

    /// The name shown to players.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.descriptor().name
    }

    /// One line about the game, for its card on the home screen.
    #[must_use]
    pub fn tagline(self) -> &'static str {
        self.descriptor().tagline
    }

    /// Whether the computer plays this game perfectly once few empty squares remain (see
    /// [`GameDescriptor::solves_endgames`]).
    #[must_use]
    pub fn solves_endgames(self) -> bool {
        self.descriptor().solves_endgames
    }

    /// The option axes the game declares.
    #[must_use]
    pub fn axes(self) -> Vec<OptionAxis> {
        (self.descriptor().axes)()
    }

    /// The named rule sets, the default first.
    #[must_use]
    pub fn rule_sets(self) -> Vec<RuleSet> {
        (self.descriptor().rule_sets)()
    }

    /// The rule set with this id, name or alias (case-insensitive).
    #[must_use]
    pub fn rule_set(self, name: &str) -> Option<RuleSet> {
        let name = name.trim();
        let aliased = self.descriptor().aliases.iter().find(|(alias, _)| alias.eq_ignore_ascii_case(name));
        let name = aliased.map_or(name, |&(_, id)| id);
        self.rule_sets().into_iter().find(|s| s.id.eq_ignore_ascii_case(name) || s.name.eq_ignore_ascii_case(name))
    }

    /// The board sizes a rule set allows; a single entry when the rule set fixes the size.
    #[must_use]
    pub fn board_sizes(self, rule_set: &str) -> Vec<usize> {
        self.rule_set(rule_set).map_or_else(Vec::new, |set| (self.descriptor().board_sizes)(&set))
    }
}

/// A [`MatchSpec`] that names no game Tabula can set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// No game has that identifier.
    #[error("unknown game `{name}` (known: {})", known.join(", "))]
    UnknownGame {
        /// The identifier asked for.
        name: String,
        /// The games' identifiers.
        known: Vec<&'static str>,
    },
    /// The game has no rule set of that id or name.
    #[error("unknown {game} rule set `{name}` (known: {})", known.join(", "))]
    UnknownRuleSet {
        /// The game's name.
        game: &'static str,
        /// The name asked for.
        name: String,
        /// The rule sets' ids.
        known: Vec<&'static str>,
    },
    /// The rule set is not played on that board.
    #[error("{rule_set} is not played on a {size}x{size} board")]
    SizeNotAllowed {
        /// The rule set's name.
        rule_set: &'static str,
        /// The board size asked for.
        size: usize,
    },
    /// The game's rules refused the rule set's choices.
    #[error("{0}")]
    Rules(String),
}

/// Front ends that report errors as text take a spec error's sentence.
impl From<SpecError> for String {
    fn from(e: SpecError) -> String {
        e.to_string()
    }
}

/// A game to set up: which game, which rule set, and a board size where the rule set leaves it open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSpec {
    /// The game.
    pub game: GameKind,
    /// The rule set's id.
    pub rule_set: String,
    /// The board size, if not the rule set's default.
    #[serde(default)]
    pub board_size: Option<usize>,
}

/// Something to do with the rules of whichever game a [`MatchSpec`] names, generic over the game type, so
/// generic code (the arena, benchmarks, sessions) runs for every game without naming one.
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Runs with the game's rules.
    fn visit<G: BoardGame>(self, game: G) -> Self::Output;
}

impl MatchSpec {
    /// The default rule set of a game at its default size.
    #[must_use]
    pub fn default_for(game: GameKind) -> MatchSpec {
        let rule_set = game.rule_sets().first().map_or_else(String::new, |s| s.id.to_string());
        MatchSpec { game, rule_set, board_size: None }
    }

    /// Builds the rules and hands them to `visitor`; an unknown rule set or a size the rule set does not allow is
    /// an error saying so.
    pub fn visit<V: GameVisitor>(&self, visitor: V) -> Result<V::Output, SpecError> {
        let set = self.game.rule_set(&self.rule_set).ok_or_else(|| SpecError::UnknownRuleSet {
            game: self.game.name(),
            name: self.rule_set.clone(),
            known: self.game.rule_sets().iter().map(|s| s.id).collect(),
        })?;
        if let Some(size) = self.board_size
            && !self.game.board_sizes(set.id).contains(&size)
        {
            return Err(SpecError::SizeNotAllowed { rule_set: set.name, size });
        }
        let size_text = self.board_size.map(|s| s.to_string());
        let mut choices = set.choices.clone();
        if let Some(size) = &size_text {
            choices.retain(|c| c.0 != "board");
            choices.push(("board", size.as_str()));
        }
        self.game.build(&choices, visitor)
    }

    /// The protocol an external engine needs to play this rule set from its start, or `None` when none can
    /// (an unknown rule set included): which registered engines the new-game form offers.
    #[must_use]
    pub fn engine_protocol(&self) -> Option<Protocol> {
        struct EngineProtocol;
        impl GameVisitor for EngineProtocol {
            type Output = Option<Protocol>;
            fn visit<G: BoardGame>(self, game: G) -> Option<Protocol> {
                game.engine_rules().map(EngineRules::protocol)
            }
        }
        self.visit(EngineProtocol).ok().flatten()
    }

    /// The swap opening this rule set plays ([`BoardGame::swap_procedure`]), if any: the form then seats a first
    /// and a second player rather than Black and White.
    #[must_use]
    pub fn swap_procedure(&self) -> Option<crate::swap::Procedure> {
        struct SwapProcedure;
        impl GameVisitor for SwapProcedure {
            type Output = Option<crate::swap::Procedure>;
            fn visit<G: BoardGame>(self, game: G) -> Option<crate::swap::Procedure> {
                game.swap_procedure()
            }
        }
        self.visit(SwapProcedure).ok().flatten()
    }

    /// What is known of this game under perfect play ([`RuleSet::known_result`]), which holds only on the rule
    /// set's own board size.
    #[must_use]
    pub fn known_result(&self) -> Option<&'static str> {
        let set = self.game.rule_set(&self.rule_set)?;
        let declared = set.choices.iter().find(|c| c.0 == "board").and_then(|c| c.1.parse::<usize>().ok());
        let own = declared.or_else(|| self.game.board_sizes(set.id).first().copied());
        match self.board_size {
            Some(size) if Some(size) != own => None,
            _ => set.known_result,
        }
    }

    /// The rule set's display name.
    #[must_use]
    pub fn rule_set_name(&self) -> String {
        self.game.rule_set(&self.rule_set).map_or_else(|| self.rule_set.clone(), |s| s.name.to_string())
    }
}

struct NewMatch;

impl GameVisitor for NewMatch {
    type Output = Box<dyn Match>;
    fn visit<G: BoardGame>(self, game: G) -> Box<dyn Match> {
        Box::new(Session::new(game))
    }
}

/// A new game for `spec`, behind the game-independent [`Match`] interface.
pub fn new_match(spec: &MatchSpec) -> Result<Box<dyn Match>, SpecError> {
    spec.visit(NewMatch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_results_hold_on_their_own_board_only() {
        let spec =
            |rule_set: &str, size| MatchSpec { game: GameKind::Gomoku, rule_set: rule_set.into(), board_size: size };
        assert!(spec("freestyle", None).known_result().is_some_and(|k| k.contains("first-player win")));
        assert!(spec("freestyle", Some(15)).known_result().is_some());
        assert_eq!(spec("freestyle", Some(9)).known_result(), None, "solved on 15x15, not on 9x9");
        assert_eq!(spec("caro", None).known_result(), None);
        let six = MatchSpec { game: GameKind::Othello, rule_set: "othello-6x6".into(), board_size: None };
        assert!(six.known_result().is_some_and(|k| k.contains("16-20")));
    }

    #[test]
    fn engine_protocols_follow_the_rule_sets() {
        let spec = |game, rule_set: &str| MatchSpec { game, rule_set: rule_set.into(), board_size: None };
        assert_eq!(spec(GameKind::Othello, "othello").engine_protocol(), Some(Protocol::NBoard));
        assert_eq!(spec(GameKind::Othello, "anti-othello").engine_protocol(), None);
        assert_eq!(spec(GameKind::Gomoku, "renju").engine_protocol(), Some(Protocol::Pbrain));
        assert_eq!(spec(GameKind::Gomoku, "no-such-rules").engine_protocol(), None);
        assert_eq!(spec(GameKind::Gomoku, "freestyle-swap2").engine_protocol(), None, "no protocol tells a swap");
        assert_eq!(spec(GameKind::Gomoku, "swap2").swap_procedure(), Some(crate::swap::Procedure::Swap2));
        assert_eq!(spec(GameKind::Gomoku, "renju").swap_procedure(), None);
    }

    #[test]
    fn every_rule_set_builds_a_match() {
        for &game in GameKind::ALL {
            assert!(!game.rule_sets().is_empty());
            for set in game.rule_sets() {
                let spec = MatchSpec { game, rule_set: set.id.to_string(), board_size: None };
                let m = new_match(&spec).unwrap_or_else(|e| panic!("{}: {e}", set.id));
                assert_eq!(m.ply(), 0);
                let sizes = game.board_sizes(set.id);
                assert!(sizes.contains(&m.board_size().0), "{}: {:?} vs {sizes:?}", set.id, m.board_size());
            }
        }
    }

    #[test]
    fn each_game_is_saved_under_its_descriptor_id() {
        #[derive(Serialize)]
        struct Saved {
            game: GameKind,
        }
        for &game in GameKind::ALL {
            let saved = toml::to_string(&Saved { game }).unwrap();
            assert_eq!(saved.trim(), format!("game = \"{}\"", game.id()));
            assert_eq!(GameKind::from_id(game.id()), Some(game));
            let set = game.rule_sets().remove(0);
            assert!(!game.board_sizes(set.id).is_empty(), "{}", game.id());
            assert!(game.rule_set(game.descriptor().bench.rule_set).is_some(), "{}: bench rule set", game.id());
        }
    }

    #[test]
    fn sizes_and_names_are_checked() {
        let renju = MatchSpec { game: GameKind::Gomoku, rule_set: "renju".into(), board_size: Some(19) };
        let refused = new_match(&renju).err();
        assert_eq!(refused, Some(SpecError::SizeNotAllowed { rule_set: "Renju", size: 19 }));
        assert!(refused.is_some_and(|e| e.to_string().contains("19x19")));
        let free19 = MatchSpec { game: GameKind::Gomoku, rule_set: "freestyle".into(), board_size: Some(19) };
        assert_eq!(new_match(&free19).map(|m| m.board_size()).ok(), Some((19, 19)));
        let unknown = MatchSpec { game: GameKind::Othello, rule_set: "chess".into(), board_size: None };
        let refused = new_match(&unknown).err().map(|e| e.to_string());
        assert!(refused.is_some_and(|e| e.contains("chess") && e.contains("anti-othello")));
        assert_eq!(GameKind::Gomoku.rule_set("standard").map(|s| s.id), Some("exact-five"));
        assert_eq!(GameKind::from_id("Othello"), Some(GameKind::Othello));
        assert_eq!(GameKind::parse(" gomoku"), Ok(GameKind::Gomoku));
        let refused = GameKind::parse("chess").map_err(|e| e.to_string());
        assert_eq!(refused, Err("unknown game `chess` (known: gomoku, othello)".to_string()));
        assert_eq!(GameKind::Othello.board_sizes("grand-othello"), vec![10]);
    }

    #[test]
    fn a_match_plays_undoes_and_redoes() {
        let mut m = new_match(&MatchSpec::default_for(GameKind::Othello)).expect("othello");
        let before = m.current();
        assert_eq!(before.counts, [2, 2]);
        assert!(m.play_cell(crate::Cell::new(0, 0)).is_err(), "a corner flips nothing at the start");
        assert_eq!(m.current(), before, "an illegal move changes nothing");
        let report = m.play_notation("f5").expect("f5 is legal");
        assert_eq!(report.flipped.len(), 1);
        assert_eq!(m.current().counts, [4, 1]);
        assert!(m.undo());
        assert_eq!(m.current(), before);
        assert!(m.redo());
        assert_eq!(m.move_list(), ["f5"]);
        assert_eq!(m.snapshot(0), before);
    }
}
