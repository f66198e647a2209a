//! The computer's thinking off the UI thread: a search runs on a blocking thread with a stop flag, its progress is
//! shared for the analysis panel, and every request carries a generation so a stale answer can be recognised and
//! dropped (cancelling an iced task does not stop a blocking thread).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use iced::Task;
use tabula_core::Level;
use tabula_games::{Analysis, Match, ThinkJob};

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

/// A search ready to run somewhere.
pub struct Request {
    job: ThinkJob,
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
    let stop = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(Mutex::new(None));
    let ply = match purpose {
        Purpose::Review(ply) => ply,
        Purpose::Move | Purpose::Hint | Purpose::Values(_) => game.ply(),
    };
    let job = match purpose {
        Purpose::Values(lines) => game.lines_job(lines, level, seed, threads, stop.clone()),
        _ => game.think_job_at(ply, level, seed, threads, stop.clone()),
    };
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
        let analysis = (self.job)(&mut |info| {
            if keep_lines {
                lines.push(info.clone());
            }
            if let Ok(mut p) = slot.lock() {
                *p = Some(info);
            }
        });
        let rest = self.min_time.saturating_sub(started.elapsed());
        if !rest.is_zero() {
            std::thread::sleep(rest);
        }
        Finished { generation: self.generation, purpose: self.purpose, analysis, lines }
    }

    /// Runs the search on a blocking thread of the runtime.
    pub fn into_task(self) -> Task<Finished> {
        let generation = self.generation;
        let purpose = self.purpose;
        Task::perform(
            async move {
                match tokio::task::spawn_blocking(move || self.run()).await {
                    Ok(finished) => finished,
                    Err(_) => Finished { generation, purpose, analysis: None, lines: Vec::new() },
                }
            },
            std::convert::identity,
        )
    }
}
