//! The computer's part in a game: it starts the searches a game needs (the computer's own moves and the human's
//! hints), runs them where the app says, and numbers them so that an answer to an abandoned search is dropped.
//! It also keeps the external engines' processes, one per registered engine, across moves and games.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use iced::Task;
use tabula_core::{Level, Levels};
use tabula_games::external::{Connection, EngineSpec};
use tabula_games::save_file::MatchFactory;
use tabula_games::setup::Seat;

use crate::ai_task::{self, Finished, Purpose, Request};
use crate::screen::play::Play;
use crate::settings::Settings;

/// The most time a hint searches.
const HINT_MS: u64 = 1500;

/// The most time a review spends on each position: a 60-move game is reviewed in half a minute.
const REVIEW_MS: u64 = 500;

/// How many moves' values the board shows: the best this many, where the game does not mark its legal moves or
/// marks more than [`ALL_VALUES`] of them (Gomoku's best).
const VALUE_LINES: usize = 12;

/// The most legal moves a game may mark for the board to show the value of every one of them (Othello's "value
/// all moves", as NBoard and Egaroucid offer).
const ALL_VALUES: usize = 32;

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

/// The levels the computer plays at, where its searches run, the number of the latest one, and the external
/// engines started so far.
#[derive(Debug)]
pub struct Computer {
    levels: Levels,
    runner: AiRunner,
    generation: u64,
    engines: HashMap<String, (EngineSpec, Arc<Mutex<Connection>>)>,
}

impl Computer {
    /// The computer playing at `levels`, searching with `runner`.
    #[must_use]
    pub fn new(levels: Levels, runner: AiRunner) -> Computer {
        Computer { levels, runner, generation: 0, engines: HashMap::new() }
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
        // Under a clock the computer spends its share of its time, and no more waiting for the eye.
        let budget = clock_budget(play);
        let pace = if budget.is_some() { Duration::ZERO } else { Duration::from_millis(settings.computer_pace_ms) };
        let mut level = match play.acting().clone() {
            Seat::Computer(choice) => choice.resolve(&self.levels),
            Seat::Engine(name) => {
                let Some(spec) = settings.engine(&name) else {
                    play.paused = true;
                    play.status = Some(format!(
                        "No engine called {name} is registered: add it in Settings and press Resume, or start a new \
                         game with another player."
                    ));
                    return Task::none();
                };
                let turn = budget.map_or(settings.engine_move_time(), |b| b.min(settings.engine_move_time()));
                return self.ask_engine(play, &spec.clone(), Purpose::Move, pace, turn);
            }
            Seat::Human => return Task::none(),
        };
        if let Some(budget) = budget {
            let ms = u64::try_from(budget.as_millis()).unwrap_or(u64::MAX).max(1);
            level.time_ms = Some(level.time_ms.map_or(ms, |t| t.min(ms)));
        }
        self.start(play, &level, Purpose::Move, pace, settings)
    }

    /// Starts a search for the human's best move, when the human is to move and nothing else thinks.
    pub fn hint(&mut self, play: &mut Play, settings: &Settings) -> Task<Finished> {
        if !play.human_to_move() || play.thinking.is_some() || play.viewing.is_some() {
            return Task::none();
        }
        play.status = None;
        if let Some(spec) = settings.hint_engine_for(play.game.engine_protocol()) {
            return self.ask_engine(play, &spec.clone(), Purpose::Hint, Duration::ZERO, settings.engine_move_time());
        }
        let level = self.advice_level(HINT_MS);
        self.start(play, &level, Purpose::Hint, Duration::ZERO, settings)
    }

    /// Starts finding the values of the human's moves, for the board: every legal move where the game marks at
    /// most [`ALL_VALUES`] of them, else the best [`VALUE_LINES`].
    pub fn values(&mut self, play: &mut Play, settings: &Settings) -> Task<Finished> {
        if !play.human_to_move() || play.thinking.is_some() || play.viewing.is_some() {
            return Task::none();
        }
        let level = self.advice_level(VALUE_MS);
        let lines = value_lines(&play.game.current());
        self.start(play, &level, Purpose::Values(lines), Duration::ZERO, settings)
    }

    /// Starts judging the position after `ply` moves of `play`, for its review: by the engine that gives hints,
    /// if one does for this game.
    pub fn review(&mut self, play: &mut Play, ply: usize, settings: &Settings) -> Task<Finished> {
        if play.thinking.is_some() {
            return Task::none();
        }
        if let Some(spec) = settings.hint_engine_for(play.game.engine_protocol()) {
            let turn = settings.engine_move_time();
            return self.ask_engine(play, &spec.clone(), Purpose::Review(ply), Duration::ZERO, turn);
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
        self.run(play, thinking, request)
    }

    /// Asks the external engine `spec` for its move in `play`'s position, with `turn` to think.
    fn ask_engine(
        &mut self,
        play: &mut Play,
        spec: &EngineSpec,
        purpose: Purpose,
        pace: Duration,
        turn: Duration,
    ) -> Task<Finished> {
        let connection = self.connection(spec);
        let generation = self.next_generation();
        let (thinking, request) =
            ai_task::prepare_engine(play.game.as_ref(), connection, turn, generation, purpose, pace);
        self.run(play, thinking, request)
    }

    /// The process of the engine `spec` describes: the one already started, unless the player has changed how it
    /// is started since.
    fn connection(&mut self, spec: &EngineSpec) -> Arc<Mutex<Connection>> {
        match self.engines.get(&spec.name) {
            Some((started, connection)) if started == spec => connection.clone(),
            _ => {
                let connection = Arc::new(Mutex::new(Connection::new(spec.clone())));
                self.engines.insert(spec.name.clone(), (spec.clone(), connection.clone()));
                connection
            }
        }
    }

    fn run(&mut self, play: &mut Play, thinking: ai_task::Thinking, request: Request) -> Task<Finished> {
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

/// How many moves to find the values of in `snapshot`: all its marked legal moves when there are a few.
fn value_lines(snapshot: &tabula_games::Snapshot) -> usize {
    let legal = snapshot.markers.iter().filter(|(_, m)| *m == tabula_games::Marker::Legal).count();
    if (1..=ALL_VALUES).contains(&legal) { legal } else { VALUE_LINES }
}

/// The most the side to move in `play` may spend on its move under the game's clock, if it has one: its share of
/// its time, reckoning with about half the empty cells (at most 30, at least 6) as its moves to come.
fn clock_budget(play: &Play) -> Option<Duration> {
    let clock = play.clock.as_ref()?;
    let (w, h) = play.game.board_size();
    let moves_left = ((w * h).saturating_sub(play.game.ply()) / 2).clamp(6, 30);
    Some(clock.budget(play.game.to_move(), std::time::Instant::now(), moves_left))
}

/// Tries the engine `spec` describes: a fresh process asked for a move at the start of the standard game its
/// protocol plays, with `turn` to think; the words say what it answered and how fast, or what went wrong.
#[must_use]
pub fn trial(spec: EngineSpec, factory: MatchFactory, turn: Duration) -> String {
    let game = match factory(&spec.protocol.standard_game()) {
        Ok(game) => game,
        Err(e) => return format!("Cannot set up a game to try it on: {e}."),
    };
    let connection = Arc::new(Mutex::new(Connection::new(spec)));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    match game.engine_job(0, connection, turn, stop)() {
        Ok(answer) => format!("Works: it opened with {} in {:.1} s.", answer.notation, answer.elapsed.as_secs_f64()),
        Err(e) => format!("{e}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_games::external::Protocol;

    fn script(name: &str, body: &str) -> EngineSpec {
        EngineSpec {
            name: name.into(),
            protocol: Protocol::NBoard,
            program: "sh".into(),
            args: vec!["-c".into(), body.into()],
            folder: None,
        }
    }

    #[test]
    fn othello_values_every_legal_move_and_gomoku_its_best_few() {
        let game = |kind| tabula_games::new_match(&tabula_games::MatchSpec::default_for(kind)).expect("a game");
        let othello = game(tabula_games::GameKind::Othello);
        assert_eq!(value_lines(&othello.current()), 4, "the four opening moves");
        // A position with more legal moves than the best few: each gets its value.
        let mut crowded = othello.current();
        crowded.markers =
            (0..20).map(|i| (tabula_games::Cell::new(i % 8, i / 8), tabula_games::Marker::Legal)).collect();
        assert_eq!(value_lines(&crowded), 20);
        crowded.markers.clear();
        assert_eq!(value_lines(&crowded), VALUE_LINES, "no marked moves: the best few");
        assert_eq!(value_lines(&game(tabula_games::GameKind::Gomoku).current()), VALUE_LINES);
    }

    #[test]
    fn a_trial_says_what_the_engine_answered_or_what_went_wrong() {
        let answers = "while read l; do case $l in ping*) echo \"pong ${l#ping }\";; go) echo '=== D3';; esac; done";
        let words = trial(script("Fine", answers), tabula_games::registry::new_match, Duration::from_millis(200));
        assert!(words.starts_with("Works: it opened with d3 in "), "{words}");
        let words = trial(script("Gone", "exit 0"), tabula_games::registry::new_match, Duration::from_millis(200));
        assert_eq!(words, "Gone stopped running.");
        let missing = EngineSpec { program: "/no/such/engine".into(), ..script("Missing", "") };
        let words = trial(missing, tabula_games::registry::new_match, Duration::from_millis(200));
        assert!(words.starts_with("Missing: could not start /no/such/engine"), "{words}");
    }
}
