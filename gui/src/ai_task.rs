//! The computer's thinking off the UI thread: a search (or an external engine's answer) runs on a blocking thread
//! with a stop flag, its progress is shared for the analysis panel, and every request carries a generation so a
//! stale answer can be recognised and dropped (cancelling an iced task does not stop a blocking thread).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use iced::Task;
use tabula_core::Level;
use tabula_games::external::Connection;
use tabula_games::{Analysis, EngineJob, Match, ThinkJob};

/// Why the computer is thinking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// To play its move.
    Move,
    /// To suggest a move to the human.
    Hint,
    /// To judge the position after this many moves, for the review of the game.
    Review(usize),
    /// To find the values of this many of the best moves, for the board.
    Values(usize),
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The generation of the request.
    pub generation: u64,
    /// Why it was asked.
    pub purpose: Purpose,
    /// The chosen move and what the search saw; `None` if there was nothing to play.
    pub analysis: Option<Analysis>,
    /// For [`Purpose::Values`], every line found, best first; otherwise empty.
    pub lines: Vec<Analysis>,
    /// What went wrong with an external engine (it crashed, hung or played an illegal move), naming it.
    pub error: Option<String>,
}

/// A search in progress, as the UI sees it. Dropping it stops the search.
#[derive(Debug)]
pub struct Thinking {
    /// The generation of the request.
    pub generation: u64,
    /// Why it was asked.
    pub purpose: Purpose,
    /// When it started.
    pub started: Instant,
    stop: Arc<AtomicBool>,
    progress: Arc<Mutex<Option<Analysis>>>,
}

impl Thinking {
    /// Asks the search to stop now and answer with the best move it has found ("Move now"): unlike dropping the
    /// search, its answer still counts.
    pub fn move_now(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The latest completed depth, if any.
    #[must_use]
    pub fn latest(&self) -> Option<Analysis> {
        self.progress.lock().ok().and_then(|p| p.clone())
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Where an answer comes from.
enum Job {
    /// Our own search.
    Search(ThinkJob),
    /// An external engine.
    Engine(EngineJob),
}

/// A search ready to run somewhere.
pub struct Request {
    job: Job,
    generation: u64,
    purpose: Purpose,
    min_time: Duration,
    progress: Arc<Mutex<Option<Analysis>>>,
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request").field("generation", &self.generation).field("purpose", &self.purpose).finish()
    }
}

/// Prepares a search of `game`'s current position (or, for a review, the position it names) at `level` on
/// `threads` threads. The answer is held back until at least `min_time` has passed, so computer moves can be
/// followed by eye.
#[must_use]
pub fn prepare(
    game: &dyn Match,
    level: &Level,
    threads: usize,
    seed: u64,
    generation: u64,
    purpose: Purpose,
    min_time: Duration,
) -> (Thinking, Request) {
    let ply = purpose.ply(game);
    pair(generation, purpose, min_time, |stop| {
        Job::Search(match purpose {
            Purpose::Values(lines) => game.lines_job(lines, level, seed, threads, stop),
            _ => game.think_job_at(ply, level, seed, threads, stop),
        })
    })
}

/// Prepares asking the external engine on `connection` for its move in `game`'s current position (for a review,
/// the position it names), with `turn` to think; the engine gives one line, without progress.
#[must_use]
pub fn prepare_engine(
    game: &dyn Match,
    connection: Arc<Mutex<Connection>>,
    turn: Duration,
    generation: u64,
    purpose: Purpose,
    min_time: Duration,
) -> (Thinking, Request) {
    let ply = purpose.ply(game);
    pair(generation, purpose, min_time, |stop| Job::Engine(game.engine_job(ply, connection, turn, stop)))
}

impl Purpose {
    /// The position the work is about: the one a review names, else the current one.
    fn ply(self, game: &dyn Match) -> usize {
        match self {
            Purpose::Review(ply) => ply,
            Purpose::Move | Purpose::Hint | Purpose::Values(_) => game.ply(),
        }
    }
}

/// The UI's view of a piece of work and the work itself, sharing its stop flag and progress.
fn pair(
    generation: u64,
    purpose: Purpose,
    min_time: Duration,
    job: impl FnOnce(Arc<AtomicBool>) -> Job,
) -> (Thinking, Request) {
    let stop = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(Mutex::new(None));
    let job = job(stop.clone());
    let thinking = Thinking { generation, purpose, started: Instant::now(), stop, progress: progress.clone() };
    (thinking, Request { job, generation, purpose, min_time, progress })
}

impl Request {
    /// Runs the search on this thread.
    #[must_use]
    pub fn run(self) -> Finished {
        let started = Instant::now();
        let slot = self.progress;
        let mut lines = Vec::new();
        let keep_lines = matches!(self.purpose, Purpose::Values(_));
        let (analysis, error) = match self.job {
            Job::Search(job) => {
                let analysis = job(&mut |info| {
                    if keep_lines {
                        lines.push(info.clone());
                    }
                    if let Ok(mut p) = slot.lock() {
                        *p = Some(info);
                    }
                });
                (analysis, None)
            }
            Job::Engine(job) => match job() {
                Ok(analysis) => (Some(analysis), None),
                Err(e) => (None, Some(e.to_string())),
            },
        };
        let rest = self.min_time.saturating_sub(started.elapsed());
        if !rest.is_zero() {
            std::thread::sleep(rest);
        }
        Finished { generation: self.generation, purpose: self.purpose, analysis, lines, error }
    }

    /// Runs the search on a blocking thread of the runtime.
    pub fn into_task(self) -> Task<Finished> {
        let generation = self.generation;
        let purpose = self.purpose;
        Task::perform(
            async move {
                match tokio::task::spawn_blocking(move || self.run()).await {
                    Ok(finished) => finished,
                    Err(_) => {
                        let error = Some("the search thread failed".to_string());
                        Finished { generation, purpose, analysis: None, lines: Vec::new(), error }
                    }
                }
            },
            std::convert::identity,
        )
    }
}
