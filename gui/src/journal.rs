//! What the app keeps of its games on disk: the autosave of the unfinished game, so that Continue picks it up
//! after a restart, and the statistics of finished games against the computer.

use std::path::PathBuf;

use tabula_core::GameResult;
use tabula_games::Match;
use tabula_games::save_file::{MatchFactory, SavedGame};

use crate::screen::play::Play;
use crate::stats::{self, Statistics};
use crate::storage::{self, Paths};

/// The autosave and the statistics, with the files they live in.
#[derive(Debug)]
pub struct Journal {
    autosave: PathBuf,
    statistics_file: PathBuf,
    stats: Statistics,
    autosave_exists: bool,
}

impl Journal {
    /// The journal in `paths`, with the statistics read from there and a complaint if they could not be.
    #[must_use]
    pub fn open(paths: &Paths) -> (Journal, Option<String>) {
        let (stats, problem) = Statistics::load(&paths.statistics());
        let autosave = paths.current_game();
        let autosave_exists = autosave.exists();
        (Journal { autosave, statistics_file: paths.statistics(), stats, autosave_exists }, problem)
    }

    /// The statistics.
    #[must_use]
    pub fn statistics(&self) -> &Statistics {
        &self.stats
    }

    /// Whether an unfinished game is saved.
    #[must_use]
    pub fn has_unfinished(&self) -> bool {
        self.autosave_exists
    }

    /// Forgets every result; the complaint if the file could not be written.
    pub fn reset_statistics(&mut self) -> Option<String> {
        self.stats = Statistics::default();
        self.stats.save(&self.statistics_file).err()
    }

    /// After any change to `play`: a finished game is counted once and its autosave removed; an unfinished one
    /// is saved. A file that cannot be written is reported in the game's status line.
    pub fn record(&mut self, play: &mut Play) {
        if play.is_over() {
            if !play.recorded {
                play.recorded = true;
                count_result(play, &mut self.stats);
                if let Err(e) = self.stats.save(&self.statistics_file) {
                    play.status = Some(e);
                }
            }
            let _ = std::fs::remove_file(&self.autosave);
            self.autosave_exists = false;
            return;
        }
        if play.game.ply() > 0 {
            let saved = SavedGame::of(&play.setup, play.game.as_ref());
            let text = saved.with_clock(play.clock.as_ref(), std::time::Instant::now()).to_toml();
            match storage::write_atomic(&self.autosave, &text) {
                Ok(()) => self.autosave_exists = true,
                Err(e) => play.status = Some(e),
            }
        }
    }

    /// The unfinished game saved last, started with `factory`.
    pub fn unfinished(&self, factory: MatchFactory) -> Result<(SavedGame, Box<dyn Match>), String> {
        let text = storage::read_optional(&self.autosave)?.ok_or_else(|| "there is no unfinished game".to_string())?;
        SavedGame::parse(&text, &self.autosave.display().to_string(), factory)
    }
}

/// Counts a finished human-vs-computer game in the statistics.
fn count_result(play: &Play, stats: &mut Statistics) {
    let (Some(human), Some(outcome)) = (play.human_colour(), play.outcome()) else { return };
    let Some(opponent) = play.seat_of(human.opponent()).opponent_label() else { return };
    let result = match outcome.result {
        GameResult::Win(p) if p == human => stats::Result::Win,
        GameResult::Win(_) => stats::Result::Loss,
        GameResult::Draw => stats::Result::Draw,
    };
    stats.add(play.kind().id(), &play.setup.spec.rule_set, &opponent, result);
}
