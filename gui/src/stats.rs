//! Results against the computer: wins, draws and losses per game, rule set and level, kept in the data directory.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::storage;

/// How a game ended for the human player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    /// The human won.
    Win,
    /// Nobody won.
    Draw,
    /// The computer won.
    Loss,
}

/// The tally for one game, rule set and level.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The game id (`othello`).
    pub game: String,
    /// The rule set id.
    pub rule_set: String,
    /// The computer's level.
    pub level: String,
    /// Games the human won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the human lost.
    pub losses: u32,
}

impl Record {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The share of points won (a draw counts half), in percent.
    #[must_use]
    pub fn win_rate(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            (f64::from(self.wins) + f64::from(self.draws) / 2.0) * 100.0 / f64::from(self.games())
        }
    }
}

/// Every tally.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Statistics {
    /// One record per game, rule set and level, in the order first played.
    #[serde(default, rename = "record")]
    pub records: Vec<Record>,
}

impl Statistics {
    /// Reads the statistics file; a missing file is empty, a broken one is moved aside (never saved over) and the
    /// statistics start empty, with the problem.
    #[must_use]
    pub fn load(path: &Path) -> (Statistics, Option<String>) {
        storage::load_toml(path)
    }

    /// Writes the statistics file atomically.
    pub fn save(&self, path: &Path) -> std::result::Result<(), String> {
        let text = toml::to_string_pretty(self).map_err(|e| e.to_string())?;
        storage::write_atomic(path, &text)
    }

    /// Counts one finished game.
    pub fn add(&mut self, game: &str, rule_set: &str, level: &str, result: Result) {
        let index = match self.records.iter().position(|r| r.game == game && r.rule_set == rule_set && r.level == level)
        {
            Some(i) => i,
            None => {
                self.records.push(Record {
                    game: game.into(),
                    rule_set: rule_set.into(),
                    level: level.into(),
                    ..Record::default()
                });
                self.records.len() - 1
            }
        };
        let record = &mut self.records[index];
        match result {
            Result::Win => record.wins += 1,
            Result::Draw => record.draws += 1,
            Result::Loss => record.losses += 1,
        }
    }

    /// The records of one game.
    pub fn for_game<'a>(&'a self, game: &'a str) -> impl Iterator<Item = &'a Record> + 'a {
        self.records.iter().filter(move |r| r.game == game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::test_dir::TempDir;

    #[test]
    fn counts_persist_and_rates_add_up() {
        let dir = TempDir::create();
        let path = dir.path().join("statistics.toml");
        let mut stats = Statistics::default();
        stats.add("othello", "classic", "Easy", Result::Win);
        stats.add("othello", "classic", "Easy", Result::Draw);
        stats.add("othello", "classic", "Hard", Result::Loss);
        stats.save(&path).expect("save");
        let (loaded, problem) = Statistics::load(&path);
        assert_eq!(problem, None);
        assert_eq!(loaded, stats);
        let easy = &loaded.records[0];
        assert_eq!((easy.wins, easy.draws, easy.losses, easy.games()), (1, 1, 0, 2));
        assert!((easy.win_rate() - 75.0).abs() < 1e-9);
        assert_eq!(loaded.for_game("othello").count(), 2);
        assert_eq!(loaded.for_game("gomoku").count(), 0);
    }

    #[test]
    fn a_broken_file_is_kept_aside_and_never_saved_over() {
        let dir = TempDir::create();
        let path = dir.path().join("statistics.toml");
        let mut stats = Statistics::default();
        for _ in 0..143 {
            stats.add("othello", "classic", "Easy", Result::Win);
        }
        stats.save(&path).expect("save");
        let broken = std::fs::read_to_string(&path).expect("read").replacen("wins = 143", "wins = many", 1);
        std::fs::write(&path, &broken).expect("break it");

        let (mut loaded, problem) = Statistics::load(&path);
        let problem = problem.expect("the user is told");
        let line = broken.lines().position(|l| l.contains("many")).expect("the broken line") + 1;
        assert!(problem.contains(&format!("line {line}:")) && problem.contains("kept as"), "{problem}");
        assert_eq!(loaded, Statistics::default());
        loaded.add("gomoku", "freestyle", "Easy", Result::Loss);
        loaded.save(&path).expect("the next game is saved");
        let kept: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("statistics.toml.broken-"))
            .collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(std::fs::read_to_string(kept[0].path()).expect("read"), broken, "the 143 games are kept");
    }
}
