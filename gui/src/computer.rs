//! The computer's part in a game: it starts the searches a game needs (the computer's own moves and the human's
//! hints), runs them where the app says, and numbers them so that an answer to an abandoned search is dropped.

use std::time::Duration;

use iced::Task;
use tabula_core::{Level, Levels};
use tabula_games::setup::Seat;

use crate::ai_task::{self, Finished, Purpose, Request};
use crate::screen::play::Play;
use crate::settings::Settings;

/// The most time a hint searches.
const HINT_MS: u64 = 1500;

/// The most time a review spends on each position: a 60-move game is reviewed in half a minute.
const REVIEW_MS: u64 = 500;

/// The most moves whose values the board shows: every Othello move in most positions, Gomoku's best.
const VALUE_LINES: usize = 12;

/// The most time each of those moves is searched.
const VALUE_MS: u64 = 250;

/// Where the computer's searches run.
#[derive(Debug)]
pub enum AiRunner {
    /// On blocking threads, answering with messages (the real app).
    Background,
    /// Kept until the owner runs them with [`Computer::run_queued`] (tests).
    Queued(Vec<Request>),
}

/// The levels the computer plays at, where its searches run, and the number of the latest one.
#[derive(Debug)]
pub struct Computer {
    levels: Levels,
    runner: AiRunner,
    generation: u64,
}

impl Computer {
    /// The computer playing at `levels`, searching with `runner`.
    #[must_use]
    pub fn new(levels: Levels, runner: AiRunner) -> Computer {
        Computer { levels, runner, generation: 0 }
    }

    /// The levels.
    #[must_use]
    pub fn levels(&self) -> &Levels {
        &self.levels
    }

    /// A number no earlier search or series has: the work started now carries it, and answers with an older one
    /// are stale.
    pub fn next_generation(&mut self) -> u64 {
        self.generation += 1;
        self.generation
    }

    /// Starts the computer's move when it is the computer's turn in `play` and it is not thinking yet.
    pub fn think(&mut self, play: &mut Play, settings: &Settings) -> Task<Finished> {
        if play.thinking.is_some() || !play.computer_to_move() {
            return Task::none();
        }
        let level = match play.setup.seat(play.game.to_move()) {
            Seat::Computer(choice) => choice.resolve(&self.levels),
            Seat::Human => return Task::none(),
        };
        let pace = Duration::from_millis(settings.computer_pace_ms);
        self.start(play, &level, Purpose::Move, pace, settings)
    }

    /// Starts a search for the human's best move, when the human is to move and nothing else thinks.
    pub fn hint(&mut self, play: &mut Play, settings: &Settings) -> Task<Finished> {
        if !play.human_to_move() || play.thinking.is_some() || play.viewing.is_some() {
            return Task::none();
        }
        play.status = None;
        let level = self.advice_level(HINT_MS);
        self.start(play, &level, Purpose::Hint, Duration::ZERO, settings)
    }

    /// Starts finding the values of the human's best moves (at most [`VALUE_LINES`]), for the board.
    pub fn values(&mut self, play: &mut Play, settings: &Settings) -> Task<Finished> {
        if !play.human_to_move() || play.thinking.is_some() || play.viewing.is_some() {
            return Task::none();
        }
        let level = self.advice_level(VALUE_MS);
        self.start(play, &level, Purpose::Values(VALUE_LINES), Duration::ZERO, settings)
    }

    /// Starts judging the position after `ply` moves of `play`, for its review.
    pub fn review(&mut self, play: &mut Play, ply: usize, settings: &Settings) -> Task<Finished> {
        if play.thinking.is_some() {
            return Task::none();
        }
        let level = self.advice_level(REVIEW_MS);
        self.start(play, &level, Purpose::Review(ply), Duration::ZERO, settings)
    }

    /// The level hints, reviews and values are searched at: Hard without randomness, at most `most_ms` a search.
    fn advice_level(&self, most_ms: u64) -> Level {
        let mut level =
            self.levels.get("Hard").or_else(|| self.levels.hardest()).cloned().unwrap_or_else(|| Level::custom(4));
        level.randomness = 0;
        level.time_ms = Some(level.time_ms.map_or(most_ms, |t| t.min(most_ms)));
        level
    }

    fn start(
        &mut self,
        play: &mut Play,
        level: &Level,
        purpose: Purpose,
        pace: Duration,
        settings: &Settings,
    ) -> Task<Finished> {
        let generation = self.next_generation();
        let threads = settings.threads();
        let (thinking, request) =
            ai_task::prepare(play.game.as_ref(), level, threads, generation, generation, purpose, pace);
        play.thinking = Some(thinking);
        match &mut self.runner {
            AiRunner::Background => request.into_task(),
            AiRunner::Queued(queue) => {
                queue.push(request);
                Task::none()
            }
        }
    }

    /// Runs every queued search on this thread and returns their answers (tests).
    pub fn run_queued(&mut self) -> Vec<Finished> {
        match &mut self.runner {
            AiRunner::Queued(requests) => requests.drain(..).map(Request::run).collect(),
            AiRunner::Background => Vec::new(),
        }
    }
}
