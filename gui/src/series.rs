//! Computer-vs-computer series for the comparison screen: the arena's series run per rule set on a blocking
//! thread, with shared progress for a progress bar and a stop flag (dropping the run stops it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use iced::Task;
use tabula_games::BoardGame;
use tabula_games::arena::{self, Contender, SeriesConfig, SeriesSummary};
use tabula_games::registry::{GameVisitor, MatchSpec};

/// The tallies so far, one per rule set, in the order asked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// Rule set names and their tallies.
    pub rows: Vec<(String, SeriesSummary)>,
    /// Games per rule set.
    pub games_each: usize,
}

impl Progress {
    /// The share of all games finished, 0 to 1.
    #[must_use]
    pub fn fraction(&self) -> f32 {
        let total = self.games_each * self.rows.len();
        let done: usize = self.rows.iter().map(|(_, s)| s.games).sum();
        if total == 0 { 0.0 } else { done as f32 / total as f32 }
    }
}

/// A series in progress, as the UI sees it.
#[derive(Debug)]
pub struct Run {
    /// The request's generation (a newer run makes an older answer stale).
    pub generation: u64,
    progress: Arc<Mutex<Progress>>,
    stop: Arc<AtomicBool>,
}

impl Run {
    /// The tallies so far.
    #[must_use]
    pub fn progress(&self) -> Progress {
        self.progress.lock().map(|p| p.clone()).unwrap_or_default()
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

struct Visit<'a> {
    config: &'a SeriesConfig,
    stop: &'a AtomicBool,
    progress: &'a Mutex<Progress>,
    row: usize,
}

impl GameVisitor for Visit<'_> {
    type Output = SeriesSummary;
    fn visit<G: BoardGame>(self, game: G) -> SeriesSummary {
        let on_game = |_: usize, record: &arena::GameRecord| {
            if let Ok(mut p) = self.progress.lock() {
                p.rows[self.row].1.add(record);
            }
        };
        arena::run_series(&game, self.config, self.stop, &on_game)
    }
}

/// One row of a series: its name, the rule set and the two players (the same level twice to measure the first
/// player's edge).
pub struct Row {
    /// The name the row is shown under.
    pub name: String,
    /// The game and rule set.
    pub spec: MatchSpec,
    /// Player A and player B.
    pub players: [Contender; 2],
}

/// Starts a series of `games` games per row (rounded up to even: each opening is played twice with colours
/// swapped); the finished progress comes back as a message carrying `generation`.
pub fn start<M: Send + 'static>(
    specs: Vec<Row>,
    games: usize,
    generation: u64,
    on_done: fn(u64, Progress) -> M,
) -> (Run, Task<M>) {
    let openings = games.div_ceil(2).max(1);
    let rows = specs.iter().map(|row| (row.name.clone(), SeriesSummary::default())).collect();
    let progress = Arc::new(Mutex::new(Progress { rows, games_each: openings * 2 }));
    let stop = Arc::new(AtomicBool::new(false));
    let run = Run { generation, progress: progress.clone(), stop: stop.clone() };
    let work = move || {
        for (row, Row { spec, players, .. }) in specs.iter().enumerate() {
            let config = SeriesConfig {
                openings,
                balanced: true,
                opening_plies: 4,
                players: players.clone(),
                seed: 20_260_101 + row as u64,
                threads: 1,
                table_megabytes: 8,
                shard: None,
            };
            let visit = Visit { config: &config, stop: &stop, progress: &progress, row };
            if spec.visit(visit).is_err() || stop.load(Ordering::Relaxed) {
                break;
            }
        }
        progress.lock().map(|p| p.clone()).unwrap_or_default()
    };
    let task = Task::perform(async move { tokio::task::spawn_blocking(work).await.unwrap_or_default() }, move |p| {
        on_done(generation, p)
    });
    (run, task)
}
