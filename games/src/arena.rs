//! Computer-versus-computer series: how often the first player wins under a rule set, or which of two players
//! (our engine at a level, or an external engine) is stronger. The command-line arena and the app's comparison
//! screen share it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;
use rand::seq::IndexedRandom;
use tabula_core::{Evaluator, GameResult, Level, Limits, Player, SearchOptions, Searcher, random, score};

use crate::board::BoardGame;
use crate::engine::Engine;
use crate::external::{self, Connection, EngineSpec};
use crate::swap;

/// One side of a series.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contender {
    /// Our engine at a level.
    Level(Level),
    /// An external engine, given `turn` for each move. An error of its (a crash, a hang, an illegal move) loses
    /// the game, as tournament managers rule.
    External {
        /// How to start it.
        spec: EngineSpec,
        /// Its time per move.
        turn: Duration,
    },
}

impl Contender {
    /// The name results are shown under: the level's or the engine's.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Contender::Level(level) => &level.name,
            Contender::External { spec, .. } => &spec.name,
        }
    }

    /// The level, for our own engine.
    #[must_use]
    pub fn level(&self) -> Option<&Level> {
        match self {
            Contender::Level(level) => Some(level),
            Contender::External { .. } => None,
        }
    }
}

/// The players of one worker: our engine for each side (used by a level) and the external engines' processes,
/// started on first use and kept across the worker's games.
struct Players<G: BoardGame> {
    engines: [Engine<G>; 2],
    connections: [Option<Connection>; 2],
}

/// How a series is played.
#[derive(Clone, Debug)]
pub struct SeriesConfig {
    /// The number of openings; each is played twice, with the levels' colours swapped.
    pub openings: usize,
    /// Take the openings from the rule set's balanced suite ([`BoardGame::balanced_openings`]) where it has one.
    pub balanced: bool,
    /// Plies of each random opening (where the openings are not from a suite).
    pub opening_plies: usize,
    /// Player A and player B (the same level twice to measure the first player's edge).
    pub players: [Contender; 2],
    /// The seed for openings and the levels' randomness.
    pub seed: u64,
    /// Worker threads (at least one).
    pub threads: usize,
    /// Transposition table per worker, in megabytes.
    pub table_megabytes: usize,
    /// Play only part `k` of `n` (from 1): the openings whose index leaves `k - 1` divided by `n`, so that `n`
    /// machines each play their part of one series and the parts merge into it.
    pub shard: Option<(usize, usize)>,
}

/// One finished game of a series.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Which player (0 = A, 1 = B) played first: under a swap opening, the one who ended with Black.
    pub first_level: usize,
    /// Who won.
    pub result: GameResult,
    /// Plies played, opening included.
    pub plies: usize,
    /// Moves the engines chose (after the opening).
    pub engine_moves: usize,
    /// Time the engines spent.
    pub thinking: Duration,
    /// Every move of the game, opening included, in the game's notation ([`tabula_core::Game::format_move`]).
    pub moves: Vec<String>,
    /// An external engine's error that ended the game (the engine's side lost it).
    pub forfeit: Option<String>,
    /// In a won game, the ply from which our engine's judgement (of the moves it searched) favoured the winner
    /// to the end; `None` for a draw or a game with no judgement to go by.
    pub decided_at: Option<usize>,
    /// Under a swap opening, which player (0 = A, 1 = B) placed the first stones.
    pub opener: Option<usize>,
}

/// The share of a game's plies, counted from its end, in which a game counts as decided late: its winner was not
/// yet ahead by the engine's judgement in the last fifth of the game.
pub const LATE: f64 = 0.2;

impl GameRecord {
    /// Whether the game was decided late ([`LATE`]), where that can be told.
    #[must_use]
    pub fn decided_late(&self) -> Option<bool> {
        self.decided_at.map(|ply| ply as f64 > self.plies as f64 * (1.0 - LATE))
    }
}

/// The ply from which `judgements` (each ply's score from the first player's view, where our engine searched it)
/// favoured `winner` to the end, counting from `first` (the first ply after the opening).
fn decided_at(judgements: &[(usize, i64)], winner: Player, first: usize) -> Option<usize> {
    if judgements.is_empty() {
        return None;
    }
    let favours = |score: i64| if winner == Player::First { score > 0 } else { score < 0 };
    let last_doubt = judgements.iter().rev().find(|(_, score)| !favours(*score)).map(|(ply, _)| *ply);
    Some(last_doubt.map_or(first, |ply| ply + 1))
}

impl GameRecord {
    /// The game as one line of a record file: the rule set's id, the result from the first player's view (`1-0`,
    /// `0-1` or `1/2-1/2`) and the moves, separated by tabs (moves by spaces). A transcript reader of the game
    /// replays the moves.
    #[must_use]
    pub fn to_line(&self, rule_set: &str) -> String {
        let result = match self.result {
            GameResult::Win(Player::First) => "1-0",
            GameResult::Win(Player::Second) => "0-1",
            GameResult::Draw => "1/2-1/2",
        };
        format!("{rule_set}\t{result}\t{}", self.moves.join(" "))
    }
}

/// One line of a record file ([`GameRecord::to_line`]) taken apart: the rule set's id, the result and the moves.
pub fn parse_record_line(line: &str) -> Result<(&str, &str, &str), String> {
    let mut fields = line.split('\t');
    match (fields.next(), fields.next(), fields.next(), fields.next()) {
        (Some(rule_set), Some(result @ ("1-0" | "0-1" | "1/2-1/2")), Some(moves), None) => {
            Ok((rule_set, result, moves))
        }
        (Some(_), Some(result), Some(_), None) => Err(format!("result `{result}` is not 1-0, 0-1 or 1/2-1/2")),
        _ => Err("expected three tab-separated fields: rule set, result, moves".into()),
    }
}

/// The tally of a series.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeriesSummary {
    /// Games played.
    pub games: usize,
    /// Wins of the player who moved first.
    pub first_wins: usize,
    /// Wins of the player who moved second.
    pub second_wins: usize,
    /// Draws.
    pub draws: usize,
    /// Wins of level A and level B.
    pub level_wins: [usize; 2],
    /// Plies over all games.
    pub total_plies: usize,
    /// Engine moves over all games.
    pub engine_moves: usize,
    /// Engine time over all games.
    pub thinking: Duration,
    /// Games an external engine lost by an error of its own.
    pub forfeits: usize,
    /// The first of those errors, in words.
    pub first_forfeit: Option<String>,
    /// Won games whose deciding moment can be told from the engine's judgement, and how many of them were decided
    /// late ([`GameRecord::decided_late`]): how often the last moves decide.
    pub judged_wins: usize,
    /// Those decided late.
    pub late_wins: usize,
    /// Every game's length in plies, in the order they finished: the length distribution.
    pub lengths: Vec<usize>,
    /// Games under a swap opening, and the opener's wins and draws in them: whether the opening rule makes the
    /// game fair between the players, whatever it does for the colours.
    pub swap_games: usize,
    /// The opener's wins in those games.
    pub opener_wins: usize,
    /// Draws in those games.
    pub swap_draws: usize,
}

impl SeriesSummary {
    /// Adds one game.
    pub fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        match g.result {
            GameResult::Draw => self.draws += 1,
            GameResult::Win(p) => {
                if p == Player::First {
                    self.first_wins += 1;
                } else {
                    self.second_wins += 1;
                }
                let level = if p == Player::First { g.first_level } else { 1 - g.first_level };
                self.level_wins[level] += 1;
            }
        }
        if let Some(opener) = g.opener {
            self.swap_games += 1;
            match g.result {
                GameResult::Draw => self.swap_draws += 1,
                GameResult::Win(p) => {
                    let winner = if p == Player::First { g.first_level } else { 1 - g.first_level };
                    self.opener_wins += usize::from(winner == opener);
                }
            }
        }
        self.total_plies += g.plies;
        self.lengths.push(g.plies);
        self.engine_moves += g.engine_moves;
        self.thinking += g.thinking;
        self.forfeits += usize::from(g.forfeit.is_some());
        if self.first_forfeit.is_none() {
            self.first_forfeit.clone_from(&g.forfeit);
        }
        if let Some(late) = g.decided_late() {
            self.judged_wins += 1;
            self.late_wins += usize::from(late);
        }
    }

    /// The first player's score (win 1, draw 1/2) and the half-width of its 95% confidence interval.
    #[must_use]
    pub fn first_player_score(&self) -> (f64, f64) {
        score_with_interval(self.first_wins, self.draws, self.games)
    }

    /// The opener's score in the games under a swap opening, with the half-width of its 95% interval; `None`
    /// without such games.
    #[must_use]
    pub fn opener_score(&self) -> Option<(f64, f64)> {
        (self.swap_games > 0).then(|| score_with_interval(self.opener_wins, self.swap_draws, self.swap_games))
    }

    /// Level A's score and the half-width of its 95% confidence interval.
    #[must_use]
    pub fn level_a_score(&self) -> (f64, f64) {
        score_with_interval(self.level_wins[0], self.draws, self.games)
    }

    /// The share of the judged won games decided late, when there are any.
    #[must_use]
    pub fn late_share(&self) -> Option<f64> {
        (self.judged_wins > 0).then(|| self.late_wins as f64 / self.judged_wins as f64)
    }

    /// Average plies per game.
    #[must_use]
    pub fn average_length(&self) -> f64 {
        self.total_plies as f64 / self.games.max(1) as f64
    }

    /// Average engine time per move.
    #[must_use]
    pub fn average_move_time(&self) -> Duration {
        self.thinking.checked_div(self.engine_moves.max(1) as u32).unwrap_or_default()
    }
}

/// A score (wins plus half the draws, over games) with the half-width of its normal 95% interval.
fn score_with_interval(wins: usize, draws: usize, games: usize) -> (f64, f64) {
    if games == 0 {
        return (0.0, 0.0);
    }
    let n = games as f64;
    let mean = (wins as f64 + 0.5 * draws as f64) / n;
    let second_moment = (wins as f64 + 0.25 * draws as f64) / n;
    let variance = (second_moment - mean * mean).max(0.0);
    (mean, 1.96 * (variance / n).sqrt())
}

/// A random opening of `plies` moves among the evaluator's candidates, rejected and drawn again while it ends the
/// game or a shallow search finds a forced win for either side.
pub fn random_opening<G: BoardGame>(game: &G, plies: usize, rng: &mut impl Rng) -> Vec<G::Move> {
    let eval = game.evaluator(false);
    let mut searcher = Searcher::new(game, 1);
    let mut fallback = Vec::new();
    for _attempt in 0..50 {
        let mut state = game.initial_state();
        let mut line = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..plies {
            moves.clear();
            eval.search_moves(game, &state, &mut moves);
            let Some(&mv) = moves.choose(rng) else { break };
            game.make(&mut state, mv);
            line.push(mv);
            if game.outcome(&state).is_some() {
                break;
            }
        }
        if game.outcome(&state).is_some() {
            continue;
        }
        let probe = searcher.search(game, &eval, &state, &Limits::depth(3), &SearchOptions::default(), &mut |_| {});
        if !score::is_mate(probe.score) {
            return line;
        }
        fallback = line;
    }
    fallback
}

/// The openings of a series: with `config.balanced` and a rule set that has a balanced suite, `config.openings` of
/// the suite in order from a place the seed chooses (wrapping round when the series asks for more than the suite
/// holds), else random openings of `config.opening_plies`.
pub fn series_openings<G: BoardGame>(game: &G, config: &SeriesConfig) -> Vec<Vec<G::Move>> {
    if game.swap_procedure().is_some() {
        // The swap opening is the opening: the players place the first stones and choose the colours.
        return vec![Vec::new(); config.openings];
    }
    let mut rng = random::seeded(config.seed);
    let suite = if config.balanced { game.balanced_openings() } else { Vec::new() };
    if suite.is_empty() {
        return (0..config.openings).map(|_| random_opening(game, config.opening_plies, &mut rng)).collect();
    }
    let start = rng.random_range(0..suite.len());
    (0..config.openings).map(|i| suite[(start + i) % suite.len()].clone()).collect()
}

/// Plays one game from `opening`: `first_level` (0 or 1) says which of `players` moves first, or under a swap
/// opening (from the empty board) opens.
fn play_game<G: BoardGame>(
    sides: &mut Players<G>,
    opening: &[G::Move],
    players: &[Contender; 2],
    first_level: usize,
    seed: u64,
    stop: &AtomicBool,
) -> GameRecord {
    let game = sides.engines[0].game().clone();
    let rules = game.engine_rules();
    let mut state = game.initial_state();
    for &mv in opening {
        game.make(&mut state, mv);
    }
    sides.engines.iter_mut().for_each(Engine::clear);
    let mut line = opening.to_vec();
    let mut plies = opening.len();
    let mut engine_moves = 0;
    let mut thinking = Duration::ZERO;
    let mut forfeit = None;
    let mut judgements: Vec<(usize, i64)> = Vec::new();
    let procedure = game.swap_procedure().filter(|_| opening.is_empty());
    let mut decisions: Vec<swap::Decision> = Vec::new();
    let index_of = |person: swap::Person| if person == swap::Person::Opener { first_level } else { 1 - first_level };
    let outcome = loop {
        if let Some(outcome) = game.outcome(&state) {
            break Some(outcome.result);
        }
        if stop.load(Ordering::Relaxed) {
            break None;
        }
        let mover = game.side_to_move(&state);
        let step = procedure.map_or(swap::Step::Play, |p| p.step(plies, &decisions));
        let index = match procedure {
            Some(p) => index_of(p.actor(plies, &decisions, mover)),
            None if mover == Player::First => first_level,
            None => 1 - first_level,
        };
        let started = Instant::now();
        let chosen = match (&players[index], step) {
            (Contender::Level(level), swap::Step::Play) => {
                let result = sides.engines[index].think(&state, level, seed ^ plies as u64, None, &mut |_| {});
                let score = i64::from(result.score);
                judgements.push((plies, if mover == Player::First { score } else { -score }));
                result.best_move.ok_or(None)
            }
            (Contender::Level(level), step) => {
                let engine = &mut sides.engines[index];
                let mut program = swap::Program { engine, level, seed: seed ^ plies as u64, stop: None };
                match program.turn(&state, step, &decisions) {
                    Some((Some(choice), _)) => {
                        decisions.push(swap::Decision { ply: plies, choice });
                        thinking += started.elapsed();
                        continue;
                    }
                    Some((None, result)) => result.best_move.ok_or(None),
                    None => Err(None),
                }
            }
            (Contender::External { spec, turn }, swap::Step::Play) => {
                let connection = sides.connections[index].get_or_insert_with(|| Connection::new(spec.clone()));
                external::ask(&game, rules, &state, &line, connection, *turn, stop)
                    .map(|(mv, _)| mv)
                    .map_err(|e| Some(e.to_string()))
            }
            (Contender::External { spec, .. }, _) => {
                Err(Some(format!("{} cannot play a swap opening (the engine protocols tell none)", spec.name)))
            }
        };
        thinking += started.elapsed();
        engine_moves += 1;
        match chosen {
            Ok(mv) => {
                line.push(mv);
                game.make(&mut state, mv);
                plies += 1;
            }
            Err(Some(error)) if !stop.load(Ordering::Relaxed) => {
                forfeit = Some(error);
                break Some(GameResult::Win(mover.opponent()));
            }
            Err(_) => break None,
        }
    };
    let result = outcome.unwrap_or(GameResult::Draw);
    let moves = line.iter().map(|&mv| game.format_move(mv)).collect();
    let decided_at = match result {
        GameResult::Win(winner) if forfeit.is_none() => decided_at(&judgements, winner, opening.len()),
        _ => None,
    };
    let opener = procedure.map(|_| first_level);
    let first_level = procedure.map_or(first_level, |p| index_of(p.holder(&decisions, Player::First)));
    GameRecord { first_level, result, plies, engine_moves, thinking, moves, forfeit, decided_at, opener }
}

/// Plays a whole series on `config.threads` threads. `on_game` hears each finished game with its number in the
/// series (opening `i` gives games `2i` and `2i + 1`), in completion order; setting `stop` ends the series early
/// with the games finished so far.
pub fn run_series<G: BoardGame>(
    game: &G,
    config: &SeriesConfig,
    stop: &AtomicBool,
    on_game: &(dyn Fn(usize, &GameRecord) + Sync),
) -> SeriesSummary {
    let openings = series_openings(game, config);
    let next = AtomicUsize::new(0);
    let summary = Mutex::new(SeriesSummary::default());
    // The games of this shard, by their number in the whole series.
    let jobs: Vec<usize> = (0..openings.len() * 2)
        .filter(|job| config.shard.is_none_or(|(k, n)| (job / 2) % n.max(1) == k.saturating_sub(1)))
        .collect();
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                let engines = [0, 1].map(|_| Engine::with_table(game.clone(), config.table_megabytes));
                let mut sides = Players { engines, connections: [None, None] };
                while let Some(&job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let seed = config.seed.wrapping_mul(0x9E37_79B9).wrapping_add(job as u64);
                    let record = play_game(&mut sides, &openings[job / 2], &config.players, job % 2, seed, stop);
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    on_game(job, &record);
                    summary.lock().unwrap_or_else(std::sync::PoisonError::into_inner).add(&record);
                }
            });
        }
    });
    summary.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(first_level: usize, result: GameResult) -> GameRecord {
        let moves = vec!["h8".into(), "pass".into()];
        let thinking = Duration::from_millis(60);
        let (forfeit, decided_at, opener) = (None, None, None);
        GameRecord { first_level, result, plies: 10, engine_moves: 6, thinking, moves, forfeit, decided_at, opener }
    }

    #[test]
    fn a_swap2_series_plays_the_opening_by_the_rules_from_the_empty_board() {
        use tabula_core::Game;
        let game = crate::gomoku::variants::from_choices(&[("board", "9"), ("opening", "swap2")]).expect("rules");
        let level = Level { name: "shallow".into(), ..Level::custom(2) };
        let config = SeriesConfig {
            openings: 3,
            balanced: true,
            opening_plies: 4,
            players: [Contender::Level(level.clone()), Contender::Level(level)],
            seed: 5,
            threads: 1,
            table_megabytes: 1,
            shard: None,
        };
        let games = Mutex::new(Vec::new());
        let summary = run_series(&game, &config, &AtomicBool::new(false), &|job, g| {
            games.lock().expect("lock").push((job, g.clone()));
        });
        assert_eq!(summary.games, 6);
        let games = games.into_inner().expect("lock");
        let openings: std::collections::HashSet<Vec<String>> =
            games.iter().map(|(_, g)| g.moves[..3].to_vec()).collect();
        assert!(openings.len() > 1, "the openers' stones vary: {openings:?}");
        for (job, g) in &games {
            // Replayed from the empty board, every stone is legal and the game ends as recorded.
            let mut state = game.initial_state();
            for notation in &g.moves {
                let mv = game.parse_move(&state, notation).expect("a move");
                assert!(game.is_legal(&state, mv), "game {job}: {notation}");
                game.make(&mut state, mv);
            }
            assert_eq!(game.outcome(&state).map(|o| o.result), Some(g.result), "game {job}");
            assert!(g.first_level < 2);
            assert_eq!(g.opener, Some(job % 2), "game {job}: the players open in turn");
        }
        let (score, _) = summary.opener_score().expect("swap games");
        assert_eq!(summary.swap_games, 6);
        let opener = |(job, g): &(usize, GameRecord)| match g.result {
            GameResult::Win(p) => {
                f64::from(u8::from((if p == Player::First { g.first_level } else { 1 - g.first_level }) == job % 2))
            }
            GameResult::Draw => 0.5,
        };
        assert!((score - games.iter().map(opener).sum::<f64>() / 6.0).abs() < 1e-9);
        let external = Contender::External {
            spec: EngineSpec {
                name: "probe".into(),
                protocol: external::Protocol::Pbrain,
                program: "true".into(),
                args: Vec::new(),
                folder: None,
            },
            turn: Duration::from_millis(50),
        };
        let config = SeriesConfig { openings: 1, players: [external, config.players[1].clone()], ..config };
        let summary = run_series(&game, &config, &AtomicBool::new(false), &|_, _| {});
        assert_eq!(summary.forfeits, 2, "an engine cannot take part in a swap opening");
        assert!(summary.first_forfeit.is_some_and(|f| f.contains("swap opening")));
    }

    #[test]
    fn a_record_line_reads_back() {
        let line = record(0, GameResult::Win(Player::Second)).to_line("othello");
        assert_eq!(line, "othello\t0-1\th8 pass");
        assert_eq!(parse_record_line(&line), Ok(("othello", "0-1", "h8 pass")));
        assert!(parse_record_line("othello\t2-0\tf5").unwrap_err().contains("`2-0`"));
        assert!(parse_record_line("othello f5 d6").unwrap_err().contains("three tab-separated"));
    }

    #[test]
    fn summary_counts_players_and_levels() {
        let mut s = SeriesSummary::default();
        s.add(&record(0, GameResult::Win(Player::First)));
        s.add(&record(1, GameResult::Win(Player::First)));
        s.add(&record(1, GameResult::Win(Player::Second)));
        s.add(&record(0, GameResult::Draw));
        assert_eq!((s.first_wins, s.second_wins, s.draws), (2, 1, 1));
        assert_eq!(s.level_wins, [2, 1]);
        assert_eq!(s.average_length(), 10.0);
        assert_eq!(s.average_move_time(), Duration::from_millis(10));
        let (score, half_width) = s.first_player_score();
        assert!((score - 0.625).abs() < 1e-9);
        assert!(half_width > 0.0 && half_width < 0.5);
    }

    #[test]
    fn forfeits_are_counted_and_the_first_reason_kept() {
        let mut s = SeriesSummary::default();
        let lost = |why: &str| GameRecord { forfeit: Some(why.into()), ..record(0, GameResult::Win(Player::First)) };
        s.add(&record(0, GameResult::Draw));
        s.add(&lost("Rapfi stopped running"));
        s.add(&lost("Rapfi gave no answer within 3 s"));
        assert_eq!((s.forfeits, s.first_forfeit.as_deref()), (2, Some("Rapfi stopped running")));
    }

    #[test]
    fn a_game_is_decided_when_the_judgement_turns_for_good_to_the_winner() {
        let j = [(4, 30), (5, -10), (6, 50), (7, 80), (8, 200)];
        assert_eq!(decided_at(&j, Player::First, 4), Some(6), "Black ahead from ply 6 on");
        assert_eq!(decided_at(&j, Player::Second, 4), Some(9), "White never ahead: decided by the last move");
        assert_eq!(decided_at(&[(4, 10), (5, 20)], Player::First, 4), Some(4), "ahead from the start");
        assert_eq!(decided_at(&[], Player::First, 4), None);
        let game = |decided_at| GameRecord { decided_at, ..record(0, GameResult::Win(Player::First)) };
        assert_eq!(game(Some(9)).decided_late(), Some(true), "ply 9 of 10 is in the last fifth");
        assert_eq!(game(Some(8)).decided_late(), Some(false));
        let mut s = SeriesSummary::default();
        for g in [game(Some(9)), game(Some(3)), game(None), game(Some(10))] {
            s.add(&g);
        }
        assert_eq!((s.judged_wins, s.late_wins, s.late_share()), (3, 2, Some(2.0 / 3.0)));
    }

    #[test]
    fn interval_is_zero_for_unanimous_results() {
        assert_eq!(score_with_interval(5, 0, 5), (1.0, 0.0));
        assert_eq!(score_with_interval(0, 0, 0), (0.0, 0.0));
    }
}
