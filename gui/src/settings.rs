//! The player's preferences, kept as TOML in the config directory.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use tabula_games::engine::MAX_THREADS;
use tabula_games::external::{EngineSpec, Protocol};

use crate::storage;

/// How fast Othello discs turn over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnimationSpeed {
    /// No animation: discs change at once.
    Off,
    /// Leisurely.
    Slow,
    /// The default.
    Normal,
    /// Brisk.
    Fast,
}

impl AnimationSpeed {
    /// Every speed, for menus.
    pub const ALL: [AnimationSpeed; 4] =
        [AnimationSpeed::Off, AnimationSpeed::Slow, AnimationSpeed::Normal, AnimationSpeed::Fast];

    /// How long one disc takes to turn over, or `None` when animation is off.
    #[must_use]
    pub fn flip_time(self) -> Option<Duration> {
        match self {
            AnimationSpeed::Off => None,
            AnimationSpeed::Slow => Some(Duration::from_millis(600)),
            AnimationSpeed::Normal => Some(Duration::from_millis(340)),
            AnimationSpeed::Fast => Some(Duration::from_millis(180)),
        }
    }
}

impl fmt::Display for AnimationSpeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AnimationSpeed::Off => "Off",
            AnimationSpeed::Slow => "Slow",
            AnimationSpeed::Normal => "Normal",
            AnimationSpeed::Fast => "Fast",
        })
    }
}

/// Light or dark colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThemeChoice {
    /// Dark text on light backgrounds.
    Light,
    /// Light text on dark backgrounds.
    Dark,
}

impl ThemeChoice {
    /// Both themes, for menus.
    pub const ALL: [ThemeChoice; 2] = [ThemeChoice::Light, ThemeChoice::Dark];
}

impl fmt::Display for ThemeChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ThemeChoice::Light => "Light",
            ThemeChoice::Dark => "Dark",
        })
    }
}

/// The player's preferences.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// How fast discs turn over.
    pub animation: AnimationSpeed,
    /// Show Othello's legal moves.
    pub legal_markers: bool,
    /// Show Renju's forbidden points.
    pub forbidden_markers: bool,
    /// Number the stones in Gomoku.
    pub move_numbers: bool,
    /// Board coordinates along the edges.
    pub coordinates: bool,
    /// Light or dark.
    pub theme: ThemeChoice,
    /// The level the New game screen starts with.
    pub default_level: String,
    /// The least time a computer move takes, in milliseconds, so computer-vs-computer games can be followed.
    pub computer_pace_ms: u64,
    /// Ring the terminal bell on a refused move.
    pub sound: bool,
    /// The computer's search threads; 0 for every core but one.
    pub search_threads: usize,
    /// How long an external engine may think about a move, in milliseconds (the protocols' turn time).
    pub engine_move_ms: u64,
    /// The registered engine that gives hints and reviews games, by name; empty for Tabula's own search.
    pub hint_engine: String,
    /// External engines the player registered, chosen like levels (kept last: TOML writes tables after values).
    pub engines: Vec<EngineSpec>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            animation: AnimationSpeed::Normal,
            legal_markers: true,
            forbidden_markers: true,
            move_numbers: false,
            coordinates: true,
            theme: ThemeChoice::Light,
            default_level: "Medium".into(),
            computer_pace_ms: 400,
            sound: false,
            search_threads: 0,
            engine_move_ms: 1000,
            hint_engine: String::new(),
            engines: Vec::new(),
        }
    }
}

impl Settings {
    /// The threads the computer searches with: the chosen count (at most [`MAX_THREADS`]), or every core but one.
    #[must_use]
    pub fn threads(&self) -> usize {
        match self.search_threads {
            0 => tabula_games::engine::default_threads(),
            n => n.min(MAX_THREADS),
        }
    }

    /// The registered engine called `name`.
    #[must_use]
    pub fn engine(&self, name: &str) -> Option<&EngineSpec> {
        self.engines.iter().find(|e| e.name == name)
    }

    /// The registered engines that speak `protocol` (none when it is `None`: no engine can play the game).
    pub fn engines_for(&self, protocol: Option<Protocol>) -> impl Iterator<Item = &EngineSpec> {
        self.engines.iter().filter(move |e| Some(e.protocol) == protocol)
    }

    /// The engine chosen for hints, if it speaks `protocol` (the game's; `None` when no engine can play it).
    #[must_use]
    pub fn hint_engine_for(&self, protocol: Option<Protocol>) -> Option<&EngineSpec> {
        self.engines_for(protocol).find(|e| e.name == self.hint_engine)
    }

    /// The time an external engine is given for a move.
    #[must_use]
    pub fn engine_move_time(&self) -> Duration {
        Duration::from_millis(self.engine_move_ms.clamp(50, 600_000))
    }

    /// Reads the settings file; a missing file gives the defaults, a broken one is moved aside (never saved over)
    /// and gives the defaults and the problem.
    #[must_use]
    pub fn load(path: &Path) -> (Settings, Option<String>) {
        storage::load_toml(path)
    }

    /// Writes the settings file atomically.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = toml::to_string_pretty(self).map_err(|e| e.to_string())?;
        storage::write_atomic(path, &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::test_dir::TempDir;

    #[test]
    fn round_trips_and_tolerates_missing_fields() {
        let dir = TempDir::create();
        let path = dir.path().join("settings.toml");
        assert_eq!(Settings::load(&path), (Settings::default(), None));
        let changed = Settings { theme: ThemeChoice::Dark, animation: AnimationSpeed::Off, ..Settings::default() };
        changed.save(&path).expect("save");
        assert_eq!(Settings::load(&path), (changed, None));
        std::fs::write(&path, "theme = \"dark\"\n").expect("write");
        assert_eq!(Settings::load(&path).0.theme, ThemeChoice::Dark);
    }

    #[test]
    fn engines_round_trip_and_hints_come_from_one_that_plays_the_game() {
        let dir = TempDir::create();
        let path = dir.path().join("settings.toml");
        let rapfi = EngineSpec {
            name: "Rapfi".into(),
            protocol: Protocol::Pbrain,
            program: "/opt/rapfi/pbrain-rapfi".into(),
            args: vec!["--config".into(), "config.toml".into()],
            folder: Some("/opt/rapfi".into()),
        };
        let settings = Settings { engines: vec![rapfi.clone()], hint_engine: "Rapfi".into(), ..Settings::default() };
        settings.save(&path).expect("save");
        assert_eq!(Settings::load(&path), (settings.clone(), None));
        assert_eq!(settings.hint_engine_for(Some(Protocol::Pbrain)), Some(&rapfi));
        assert_eq!(settings.hint_engine_for(Some(Protocol::NBoard)), None, "Rapfi plays no Othello");
        assert_eq!(settings.hint_engine_for(None), None);
        assert_eq!(Settings { engine_move_ms: 0, ..settings }.engine_move_time(), Duration::from_millis(50));
    }

    #[test]
    fn search_threads_are_the_chosen_count_or_every_core_but_one() {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        assert_eq!(Settings::default().threads(), (cores - 1).max(1));
        assert_eq!(Settings { search_threads: 3, ..Settings::default() }.threads(), 3);
        // A hand-edited file asking for a million threads gets the most the engine takes.
        assert_eq!(Settings { search_threads: 1_000_000, ..Settings::default() }.threads(), MAX_THREADS);
    }

    #[test]
    fn broken_file_gives_defaults_and_names_the_problem() {
        let dir = TempDir::create();
        let path = dir.path().join("settings.toml");
        std::fs::write(&path, "theme = \"purple\"\n").expect("write");
        let (settings, problem) = Settings::load(&path);
        assert_eq!(settings, Settings::default());
        assert!(problem.expect("a problem").contains("purple"));
    }
}
