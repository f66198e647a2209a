//! Who plays a game: the match to start and, for Black and White, a human, the computer at some level or an
//! external engine the player registered.

use std::fmt;

use tabula_core::{Level, Levels, Player};

use crate::registry::MatchSpec;

/// The deepest search a Custom level may ask for: Custom has no time limit.
pub const MAX_CUSTOM_DEPTH: u32 = Level::MAX_UNTIMED_DEPTH;

/// How strong the computer plays: a named level from the configuration or a custom search depth.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LevelChoice {
    /// A level of the configuration, by name.
    Named(String),
    /// A plain search to this depth.
    Custom(u32),
}

impl LevelChoice {
    /// The level to search with; a name the configuration does not know falls back to its weakest level.
    #[must_use]
    pub fn resolve(&self, levels: &Levels) -> Level {
        match self {
            LevelChoice::Named(name) => {
                levels.get(name).or_else(|| levels.all().first()).cloned().unwrap_or_else(|| Level::custom(1))
            }
            LevelChoice::Custom(depth) => Level::custom((*depth).clamp(1, MAX_CUSTOM_DEPTH)),
        }
    }

    /// The name statistics are kept under.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            LevelChoice::Named(name) => name.clone(),
            LevelChoice::Custom(depth) => format!("Custom (depth {depth})"),
        }
    }
}

impl fmt::Display for LevelChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// One side of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at this computer.
    Human,
    /// The computer at a level.
    Computer(LevelChoice),
    /// An external engine, by the name it was registered under ([`crate::external::EngineSpec::name`]).
    Engine(String),
}

impl Seat {
    /// Whether a program plays this side (the computer or an external engine), not a person.
    #[must_use]
    pub fn is_computer(&self) -> bool {
        !matches!(self, Seat::Human)
    }

    /// The name a program's results are kept under: the level, or the engine's name; `None` for a human.
    #[must_use]
    pub fn opponent_label(&self) -> Option<String> {
        match self {
            Seat::Human => None,
            Seat::Computer(level) => Some(level.label()),
            Seat::Engine(name) => Some(name.clone()),
        }
    }

    /// A short description ("Human", "Computer (Medium)", "Engine (Rapfi)").
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Seat::Human => "Human".into(),
            Seat::Computer(level) => format!("Computer ({level})"),
            Seat::Engine(name) => format!("Engine ({name})"),
        }
    }

    /// The seat a [`Seat::describe`] text names, as files written by Tabula give it; `None` for anything else.
    #[must_use]
    pub fn from_description(text: &str) -> Option<Seat> {
        if text == "Human" {
            return Some(Seat::Human);
        }
        if let Some(name) = text.strip_prefix("Engine (").and_then(|t| t.strip_suffix(')')) {
            return (!name.trim().is_empty()).then(|| Seat::Engine(name.to_string()));
        }
        let level = text.strip_prefix("Computer (")?.strip_suffix(')')?;
        let custom = level.strip_prefix("Custom (depth ").and_then(|d| d.strip_suffix(')')?.parse().ok());
        Some(Seat::Computer(custom.map_or_else(|| LevelChoice::Named(level.to_string()), LevelChoice::Custom)))
    }
}

/// Everything needed to start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    /// The game, rule set and board size.
    pub spec: MatchSpec,
    /// Black (first player) and White.
    pub seats: [Seat; 2],
}

impl GameSetup {
    /// The seat of `player`.
    #[must_use]
    pub fn seat(&self, player: Player) -> &Seat {
        &self.seats[player.index()]
    }

    /// The one human player when the other side is the computer.
    #[must_use]
    pub fn lone_human(&self) -> Option<Player> {
        match (&self.seats[0], &self.seats[1]) {
            (Seat::Human, other) if other.is_computer() => Some(Player::First),
            (other, Seat::Human) if other.is_computer() => Some(Player::Second),
            _ => None,
        }
    }
}

/// The colour name of a player.
#[must_use]
pub fn colour_name(player: Player) -> &'static str {
    match player {
        Player::First => "Black",
        Player::Second => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_name_the_seat_and_read_back() {
        let seats = [
            Seat::Human,
            Seat::Computer(LevelChoice::Named("Hard".into())),
            Seat::Computer(LevelChoice::Custom(9)),
            Seat::Engine("Rapfi (classical)".into()),
        ];
        let described: Vec<String> = seats.iter().map(Seat::describe).collect();
        assert_eq!(
            described,
            ["Human", "Computer (Hard)", "Computer (Custom (depth 9))", "Engine (Rapfi (classical))"]
        );
        for seat in seats {
            assert_eq!(Seat::from_description(&seat.describe()), Some(seat));
        }
        assert_eq!(Seat::from_description("Engine ( )"), None, "an engine needs a name");
        assert_eq!(Seat::from_description("Yixin"), None);
    }

    #[test]
    fn an_engine_is_a_program_opposite_the_lone_human() {
        let spec =
            MatchSpec { game: crate::registry::GameKind::Gomoku, rule_set: "freestyle".into(), board_size: None };
        let setup = GameSetup { spec, seats: [Seat::Engine("Rapfi".into()), Seat::Human] };
        assert_eq!(setup.lone_human(), Some(Player::Second));
        assert_eq!(setup.seats[0].opponent_label().as_deref(), Some("Rapfi"));
        assert_eq!(Seat::Human.opponent_label(), None);
    }
}
