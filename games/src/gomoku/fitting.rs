//! Fitting the pattern values ([`super::values`]) to game results, Texel's way: the engine plays itself from
//! random openings, every position where the values decide the evaluation becomes a sample labelled with the
//! game's result, and the values are moved (Adam) to minimise the cross-entropy between the logistic of the
//! evaluation and those results.

use rand::seq::IndexedRandom;
use tabula_core::{Evaluator, Game, GameResult, Level, random};

use super::eval::{ShapeCounts, Terms, terms};
use super::notation::{format_moves, parse_moves};
use super::patterns::{BLACK, WHITE};
use super::values::{
    FEATURES, LIMIT, RuleValues, SHAPES, SITUATIONS, add_features, parse_shape, parse_situation, shape_lines,
    shape_name, situation_name,
};
use super::{Gomoku, GomokuEvaluator, Move, color_of};
use crate::arena::random_opening;
use crate::board::BoardGame;
use crate::engine::Engine;

/// One position of a self-play game, from the side to move's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The index of the self-play game it comes from, so that whole games can be held back.
    pub game: usize,
    /// The colour slot of the side to move (0 Black, 1 White).
    pub mover: usize,
    /// What its evaluation adds up ([`terms`]).
    pub terms: Terms,
    /// The game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
}

/// How the self-play games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Games to play.
    pub games: usize,
    /// Stones of each random opening (after the suite's stones, with `suite`).
    pub opening: usize,
    /// Start each game from the next opening of the rule's balanced suite, so that games are not decided by the
    /// colour: from random openings Black wins most of them.
    pub suite: bool,
    /// The level both sides play (a fixed depth with some randomness, so games differ).
    pub level: Level,
    /// The seed of the openings and the randomness.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
}

/// A finished self-play game, enough to replay it: its samples follow from its moves ([`samples`]), so that a
/// games file ([`format_games`]) lets later fits (other pulls, shapes or situations) reuse games that took an hour
/// to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The moves from the empty board.
    pub moves: Vec<Move>,
    /// How many of them are the opening: played before the search, so not sampled.
    pub opening: usize,
    /// The winner's colour ([`BLACK`] or [`WHITE`]), `None` for a draw.
    pub winner: Option<u8>,
}

/// Plays the self-play games and returns them in game order whatever the threads (so a seed gives the same
/// games). `on_game` hears each finished game.
pub fn self_play(game: &Gomoku, spec: &SelfPlay, on_game: &(dyn Fn() + Sync)) -> Vec<PlayedGame> {
    let suite = if spec.suite { game.balanced_openings() } else { Vec::new() };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut played: Vec<(usize, PlayedGame)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..spec.threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut engine = Engine::with_table(game.clone(), 4);
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= spec.games {
                            break;
                        }
                        let start = suite.get(i % suite.len().max(1)).map_or(&[][..], Vec::as_slice);
                        done.push((i, play_one(&mut engine, spec, start, i)));
                        on_game();
                    }
                    done
                })
            })
            .collect();
        // A worker's panic is the caller's: no game may go missing quietly.
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    played.sort_by_key(|(i, _)| *i);
    played.into_iter().map(|(_, game)| game).collect()
}

/// Self-play game `index`, from the opening `start` and then `spec.opening` random stones.
fn play_one(engine: &mut Engine<Gomoku>, spec: &SelfPlay, start: &[Move], index: usize) -> PlayedGame {
    let seed = spec.seed.wrapping_add(index as u64);
    let game = engine.game().clone();
    let mut rng = random::seeded(seed);
    let mut state = game.initial_state();
    let mut moves = if start.is_empty() { random_opening(&game, spec.opening, &mut rng) } else { start.to_vec() };
    for &mv in &moves {
        game.make(&mut state, mv);
    }
    if !start.is_empty() {
        let mut choices = Vec::new();
        for _ in 0..spec.opening {
            choices.clear();
            GomokuEvaluator.search_moves(&game, &state, &mut choices);
            match choices.choose(&mut rng) {
                Some(&mv) if game.outcome(&state).is_none() => {
                    game.make(&mut state, mv);
                    moves.push(mv);
                }
                _ => break,
            };
        }
    }
    engine.clear();
    let opening = moves.len();
    let mut ply = 0u64;
    let winner = loop {
        if let Some(outcome) = game.outcome(&state) {
            break match outcome.result {
                GameResult::Win(player) => Some(color_of(player)),
                GameResult::Draw => None,
            };
        }
        let Some(mv) = engine.think(&state, &spec.level, seed ^ ply, None, &mut |_| {}).best_move else {
            break None;
        };
        game.make(&mut state, mv);
        moves.push(mv);
        ply += 1;
    };
    PlayedGame { moves, opening, winner }
}

/// The samples of the games: every position after a game's opening whose evaluation the values decide ([`terms`]),
/// labelled with the game's result; [`Sample::game`] is the game's index.
#[must_use]
pub fn samples(game: &Gomoku, games: &[PlayedGame]) -> Vec<Sample> {
    let mut samples = Vec::new();
    for (index, played) in games.iter().enumerate() {
        let mut state = game.initial_state();
        for ply in 0..=played.moves.len() {
            if ply >= played.opening && game.outcome(&state).is_none() {
                let mover = color_of(game.side_to_move(&state));
                if let Some(terms) = terms(game, &state) {
                    let result = match played.winner {
                        Some(w) if w == mover => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    };
                    samples.push(Sample { game: index, mover: usize::from(mover - 1), terms, result });
                }
            }
            if let Some(&mv) = played.moves.get(ply) {
                game.make(&mut state, mv);
            }
        }
    }
    samples
}

/// A games file's first line after its comments: the rule's id and the board size.
const GAMES_HEADER: &str = "# fit-gomoku self-play games: the rule and board size, then a line per game: the winner \
                            (black, white or draw), the opening stones (not sampled) and the moves from the empty \
                            board";

/// Writes games as text for [`parse_games`]: a comment, a line with the rule and board size, then a line per game:
/// its winner, its opening's length and its moves in `h8` notation.
#[must_use]
pub fn format_games(game: &Gomoku, games: &[PlayedGame]) -> String {
    let mut text = format!("{GAMES_HEADER}\nrule {} {}\n", game.win_rule().id(), game.size());
    for played in games {
        let winner = match played.winner {
            Some(BLACK) => "black",
            Some(_) => "white",
            None => "draw",
        };
        text.push_str(&format!("{winner} {} {}\n", played.opening, format_moves(game, &played.moves)));
    }
    text
}

/// A games file that could not be read: the 1-based line and what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct GamesFileError {
    /// The 1-based line.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

/// Reads games written by [`format_games`] for this game's rule and board size, replaying each: an unreadable or
/// illegal move (one after the game ended too) or a winner the moves do not give is an error naming the line.
pub fn parse_games(game: &Gomoku, text: &str) -> Result<Vec<PlayedGame>, GamesFileError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let expected = format!("rule {} {}", game.win_rule().id(), game.size());
    match lines.next() {
        Some((_, header)) if header.trim() == expected => {}
        Some((i, header)) => {
            return Err(GamesFileError { line: i + 1, message: format!("expected `{expected}`, found `{header}`") });
        }
        None => return Err(GamesFileError { line: 1, message: format!("no `{expected}` line") }),
    }
    lines.map(|(i, line)| parse_game(game, line).map_err(|message| GamesFileError { line: i + 1, message })).collect()
}

/// One game line of a games file.
fn parse_game(game: &Gomoku, line: &str) -> Result<PlayedGame, String> {
    let mut fields = line.splitn(3, ' ');
    let winner = match fields.next() {
        Some("black") => Some(BLACK),
        Some("white") => Some(WHITE),
        Some("draw") => None,
        other => return Err(format!("expected the winner (black, white or draw), found `{}`", other.unwrap_or(""))),
    };
    let opening = fields.next().unwrap_or("");
    let opening: usize =
        opening.parse().map_err(|_| format!("expected the opening's number of stones, found `{opening}`"))?;
    let (moves, state) = parse_moves(game, fields.next().unwrap_or(""))
        .map_err(|e| format!("moves, column {}: {}", e.column, e.message))?;
    if opening > moves.len() {
        return Err(format!("an opening of {opening} stones in a game of {} moves", moves.len()));
    }
    let replayed = match game.outcome(&state).map(|o| o.result) {
        Some(GameResult::Win(player)) => Some(color_of(player)),
        Some(GameResult::Draw) | None => None,
    };
    if replayed != winner {
        return Err("the moves do not give that winner".into());
    }
    Ok(PlayedGame { moves, opening, winner })
}

/// The evaluation that maps to a 73% expected score (1 / (1 + e^-1)): the logistic's scale.
pub const SCALE: f64 = 1_000.0;

/// How the values are fitted.
#[derive(Clone, Debug)]
pub struct Fit {
    /// Passes over all samples (full-batch Adam steps).
    pub steps: usize,
    /// Adam's step size, in value units.
    pub rate: f64,
    /// The weight of the L2 pull of the features' values towards the starting values, per sample.
    pub pull: f64,
    /// Whether the shape adjustments are fitted too; otherwise they stay as they start.
    pub shapes: bool,
    /// Whether the threat situations' values are fitted too; otherwise they stay as they start.
    pub situations: bool,
    /// The weight of the L2 pull of the shape adjustments and situation values towards nothing, per sample: rare
    /// shapes and situations keep little.
    pub shape_pull: f64,
}

/// The rows of a rule's values, each colour in each role: Black to move, Black waiting, White to move, White
/// waiting.
const ROWS: usize = 4;

/// The row of the side to move's values and of the other side's, for a sample.
fn rows(sample: &Sample) -> [usize; 2] {
    [sample.mover * 2, (1 - sample.mover) * 2 + 1]
}

/// The features of every shape ([`add_features`] of its lines).
fn shape_features() -> &'static [[i32; FEATURES]] {
    static TABLE: std::sync::OnceLock<Vec<[i32; FEATURES]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (0..SHAPES)
            .map(|s| {
                let mut counts = [0; FEATURES];
                add_features(&shape_lines(s), &mut counts);
                counts
            })
            .collect()
    })
}

/// A rule's values as numbers to fit: the features' values per row, the shape adjustments per row and shape, and
/// the situation values per colour to move and situation.
#[derive(Clone, Debug)]
struct Model {
    features: [f64; ROWS * FEATURES],
    shapes: Vec<f64>,
    situations: Vec<f64>,
}

impl Model {
    fn of(values: &RuleValues) -> Model {
        let mut model = Model {
            features: [0.0; ROWS * FEATURES],
            shapes: vec![0.0; ROWS * SHAPES],
            situations: vec![0.0; 2 * SITUATIONS],
        };
        for row in 0..ROWS {
            let color = values.color(row / 2);
            for (i, &v) in color.role(row % 2).iter().enumerate() {
                model.features[row * FEATURES + i] = f64::from(v);
            }
            for (name, &v) in color.shapes(row % 2) {
                if let Some(s) = parse_shape(name) {
                    model.shapes[row * SHAPES + s] = f64::from(v);
                }
            }
            if row % 2 == 0 {
                for (name, &v) in &color.situations {
                    if let Some(s) = parse_situation(name) {
                        model.situations[row / 2 * SITUATIONS + s] = f64::from(v);
                    }
                }
            }
        }
        model
    }

    /// The values, rounded, on top of `start` (whose other fields they keep).
    fn values(&self, start: &RuleValues) -> RuleValues {
        let mut values = start.clone();
        for row in 0..ROWS {
            let color = values.color_mut(row / 2);
            let (features, shapes) = if row % 2 == 0 {
                (&mut color.to_move, &mut color.to_move_shapes)
            } else {
                (&mut color.waiting, &mut color.waiting_shapes)
            };
            for (i, value) in features.iter_mut().enumerate() {
                *value = self.features[row * FEATURES + i].round() as i32;
            }
            shapes.clear();
            for s in 0..SHAPES {
                let v = self.shapes[row * SHAPES + s].round() as i32;
                if v != 0 {
                    shapes.insert(shape_name(s), v);
                }
            }
        }
        for slot in 0..2 {
            let situations = &mut values.color_mut(slot).situations;
            situations.clear();
            for s in 0..SITUATIONS {
                let v = self.situations[slot * SITUATIONS + s].round() as i32;
                if v != 0 {
                    situations.insert(situation_name(s), v);
                }
            }
        }
        values
    }

    /// The value of a shape in a row, without its adjustment.
    fn feature_value(&self, row: usize, shape: usize) -> f64 {
        let features = &self.features[row * FEATURES..][..FEATURES];
        features.iter().zip(&shape_features()[shape]).map(|(v, &c)| v * f64::from(c)).sum()
    }

    /// Every shape's point value per row.
    fn table(&self) -> Vec<f64> {
        (0..ROWS * SHAPES).map(|i| self.feature_value(i / SHAPES, i % SHAPES) + self.shapes[i]).collect()
    }
}

/// The evaluation of a sample under a table of point values ([`Model::table`]) and situation values.
fn evaluation(table: &[f64], situations: &[f64], sample: &Sample) -> f64 {
    let [own, other] = rows(sample);
    let sum = |row: usize, counts: &ShapeCounts| {
        counts.iter().map(|&(s, c)| table[row * SHAPES + usize::from(s)] * f64::from(c)).sum::<f64>()
    };
    let shapes = &sample.terms.shapes;
    sum(own, &shapes[0]) - sum(other, &shapes[1]) + situations[situation_index(sample)]
}

/// The index of a sample's situation among the model's situation values.
fn situation_index(sample: &Sample) -> usize {
    sample.mover * SITUATIONS + sample.terms.situation
}

/// The logistic of an evaluation: the expected result.
fn expected(evaluation: f64) -> f64 {
    1.0 / (1.0 + (-evaluation / SCALE).exp())
}

/// The mean cross-entropy of the samples' results against the logistic of their evaluations under `values`.
#[must_use]
pub fn loss(values: &RuleValues, samples: &[Sample]) -> f64 {
    let model = Model::of(values);
    let table = model.table();
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = expected(evaluation(&table, &model.situations, s)).clamp(1e-9, 1.0 - 1e-9);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The loss's gradient with respect to every shape's point value per row, and to every situation value, summed
/// over the samples, on every core.
fn value_gradient(table: &[f64], situations: &[f64], samples: &[Sample]) -> (Vec<f64>, Vec<f64>) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = samples.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut gradient = (vec![0.0; ROWS * SHAPES], vec![0.0; 2 * SITUATIONS]);
                    for s in part {
                        let d = (expected(evaluation(table, situations, s)) - s.result) / SCALE;
                        let [own, other] = rows(s);
                        let shapes = &s.terms.shapes;
                        for (row, sign, counts) in [(own, d, &shapes[0]), (other, -d, &shapes[1])] {
                            for &(shape, c) in counts {
                                gradient.0[row * SHAPES + usize::from(shape)] += sign * f64::from(c);
                            }
                        }
                        gradient.1[situation_index(s)] += d;
                    }
                    gradient
                })
            })
            .collect();
        let mut total = (vec![0.0; ROWS * SHAPES], vec![0.0; 2 * SITUATIONS]);
        for part in parts {
            // A worker's panic is the caller's.
            let part = part.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            total.0.iter_mut().zip(part.0).for_each(|(t, g)| *t += g);
            total.1.iter_mut().zip(part.1).for_each(|(t, g)| *t += g);
        }
        total
    })
}

/// Adam's moment estimates for a vector of parameters.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Adam {
    fn new(len: usize) -> Adam {
        Adam { m: vec![0.0; len], v: vec![0.0; len] }
    }

    /// The step for parameter `i` with gradient `g`, at step `step` (from 1).
    fn step(&mut self, i: usize, g: f64, step: usize, rate: f64) -> f64 {
        self.m[i] = 0.9 * self.m[i] + 0.1 * g;
        self.v[i] = 0.999 * self.v[i] + 0.001 * g * g;
        let m_hat = self.m[i] / (1.0 - 0.9f64.powi(step as i32));
        let v_hat = self.v[i] / (1.0 - 0.999f64.powi(step as i32));
        rate * m_hat / (v_hat.sqrt() + 1e-12)
    }
}

/// Fits the values to the samples from `start`; `progress` hears each step. The features' values stay within
/// `0..=`[`LIMIT`] and no shape's point value falls below nothing: a pattern is never worth less than nothing to
/// its owner. A situation's value may be negative (a threat of the opponent's).
#[must_use]
pub fn fit(start: &RuleValues, samples: &[Sample], fit: &Fit, progress: &dyn Fn(usize)) -> RuleValues {
    let mut model = Model::of(start);
    let origin = model.features;
    let (mut adam_features, mut adam_shapes) = (Adam::new(ROWS * FEATURES), Adam::new(ROWS * SHAPES));
    let mut adam_situations = Adam::new(2 * SITUATIONS);
    let n = samples.len().max(1) as f64;
    let features = shape_features();
    for step in 1..=fit.steps {
        let (gradient, situation_gradient) = value_gradient(&model.table(), &model.situations, samples);
        let mut feature_gradient = [0.0; ROWS * FEATURES];
        for (i, &g) in gradient.iter().enumerate().filter(|(_, g)| **g != 0.0) {
            for (f, &c) in features[i % SHAPES].iter().enumerate() {
                feature_gradient[i / SHAPES * FEATURES + f] += g * f64::from(c);
            }
        }
        for (i, &g) in feature_gradient.iter().enumerate() {
            let g = g / n + fit.pull * (model.features[i] - origin[i]);
            let x = model.features[i] - adam_features.step(i, g, step, fit.rate);
            model.features[i] = x.clamp(0.0, f64::from(LIMIT));
        }
        if fit.shapes {
            for (i, &g) in gradient.iter().enumerate() {
                let g = g / n + fit.shape_pull * model.shapes[i];
                let x = model.shapes[i] - adam_shapes.step(i, g, step, fit.rate);
                let floor = -model.feature_value(i / SHAPES, i % SHAPES);
                model.shapes[i] = x.clamp(floor.max(-f64::from(LIMIT)), f64::from(LIMIT));
            }
        }
        if fit.situations {
            for (i, &g) in situation_gradient.iter().enumerate() {
                let g = g / n + fit.shape_pull * model.situations[i];
                let x = model.situations[i] - adam_situations.step(i, g, step, fit.rate);
                model.situations[i] = x.clamp(-f64::from(LIMIT), f64::from(LIMIT));
            }
        }
        progress(step);
    }
    model.values(start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::WinRule;

    /// A few fast games give samples, the same for a seed whatever the threads, and fitting lowers their loss.
    #[test]
    fn self_play_samples_replay_and_the_fit_lowers_the_loss() {
        let game = Gomoku::new(9, WinRule::Freestyle).expect("rules");
        let spec = SelfPlay { games: 6, opening: 3, suite: false, level: Level::custom(1), seed: 5, threads: 2 };
        let games = self_play(&game, &spec, &|| {});
        assert_eq!(games, self_play(&game, &SelfPlay { threads: 1, ..spec }, &|| {}));
        let samples = samples(&game, &games);
        assert!(samples.len() > 20, "{} samples", samples.len());
        let start = RuleValues::hand_set();
        let features_only = Fit { steps: 200, rate: 5.0, pull: 0.0, shapes: false, situations: false, shape_pull: 0.0 };
        let fitted = fit(&start, &samples, &features_only, &|_| {});
        assert!(fitted.black.to_move_shapes.is_empty(), "the shapes stay as they start");
        assert!(loss(&fitted, &samples) < loss(&start, &samples));
        let with_shapes = fit(&start, &samples, &Fit { shapes: true, ..features_only }, &|_| {});
        assert!(!with_shapes.black.to_move_shapes.is_empty() || !with_shapes.white.to_move_shapes.is_empty());
        assert!(loss(&with_shapes, &samples) < loss(&fitted, &samples), "more freedom fits the same games closer");
        let with_situations = fit(&start, &samples, &Fit { situations: true, ..features_only }, &|_| {});
        assert!(!with_situations.black.situations.is_empty() || !with_situations.white.situations.is_empty());
        assert!(loss(&with_situations, &samples) < loss(&fitted, &samples));
    }

    /// With `suite`, games start from the balanced suite's openings in turn: the first sample of the first game is
    /// the position after the suite's first opening.
    #[test]
    fn suite_games_start_from_the_suite() {
        let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
        let spec = SelfPlay { games: 1, opening: 0, suite: true, level: Level::custom(1), seed: 5, threads: 1 };
        let samples = samples(&game, &self_play(&game, &spec, &|| {}));
        let first = &game.balanced_openings()[0];
        let state = game.play_all(first).expect("a legal opening");
        let expected = terms(&game, &state).expect("an undecided opening");
        assert_eq!(samples.first().map(|s| s.terms.clone()), Some(expected));
        assert_eq!(samples[0].mover, first.len() % 2, "the side to move after the opening");
    }

    /// Games written to text read back the same, and give the same samples.
    #[test]
    fn games_files_round_trip() {
        let game = Gomoku::new(9, WinRule::Freestyle).expect("rules");
        let spec = SelfPlay { games: 4, opening: 3, suite: false, level: Level::custom(1), seed: 9, threads: 1 };
        let games = self_play(&game, &spec, &|| {});
        let text = format_games(&game, &games);
        assert_eq!(parse_games(&game, &text), Ok(games.clone()));
        assert_eq!(samples(&game, &parse_games(&game, &text).expect("readable")), samples(&game, &games));
    }

    /// A games file for another rule or size, or with a bad line, is an error naming the line.
    #[test]
    fn bad_games_files_name_the_line() {
        let game = Gomoku::new(9, WinRule::Freestyle).expect("rules");
        let header = "# games\nrule freestyle 9\n";
        let error = |text: &str| parse_games(&game, text).expect_err(text);
        assert_eq!(error("rule renju 9\n").line, 1);
        assert_eq!(error("rule freestyle 15\n").line, 1);
        assert_eq!(error("").line, 1);
        let cases = [
            ("blue 0 e5", "the winner"),
            ("draw x e5", "number of stones"),
            ("draw 0 e5 z9", "moves, column 4"),
            ("draw 0 e5 e5", "not legal"),
            ("draw 3 e5", "an opening of 3 stones"),
            ("black 0 a1 a9 b1 b9 c1 c9 d1 d9 e1 e9", "the game is over"),
            ("white 0 a1 a9 b1 b9 c1 c9 d1 d9 e1", "do not give that winner"),
        ];
        for (line, problem) in cases {
            let e = error(&format!("{header}black 0 a1 a9 b1 b9 c1 c9 d1 d9 e1\n{line}\n"));
            assert_eq!(e.line, 4, "{line}: {e}");
            assert!(e.message.contains(problem), "{line}: {e}");
        }
    }
}
