//! Fitting the pattern values ([`super::values`]) to game results, Texel's way: the engine plays itself from
//! random openings, every position where the values decide the evaluation becomes a sample labelled with the
//! game's result, and the values are moved (Adam) to minimise the cross-entropy between the logistic of the
//! evaluation and those results.

use rand::seq::IndexedRandom;
use tabula_core::{Evaluator, Game, GameResult, Level, random};

use super::eval::features;
use super::values::{FEATURES, LIMIT, RuleValues};
use super::{Gomoku, GomokuEvaluator, Move, color_of};
use crate::arena::random_opening;
use crate::board::BoardGame;
use crate::engine::Engine;

/// One position of a self-play game, from the side to move's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The colour slot of the side to move (0 Black, 1 White).
    pub mover: usize,
    /// The features of the side to move and of the other side ([`features`]).
    pub features: [[i32; FEATURES]; 2],
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

/// Plays the self-play games and returns their samples, in game order whatever the threads (so a seed gives the
/// same samples). `on_game` hears each finished game.
pub fn self_play(game: &Gomoku, spec: &SelfPlay, on_game: &(dyn Fn() + Sync)) -> Vec<Sample> {
    let suite = if spec.suite { game.balanced_openings() } else { Vec::new() };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut per_game: Vec<(usize, Vec<Sample>)> = std::thread::scope(|scope| {
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
                        done.push((i, play_one(&mut engine, spec, start, spec.seed.wrapping_add(i as u64))));
                        on_game();
                    }
                    done
                })
            })
            .collect();
        // A worker's panic is the caller's: no game may go missing quietly.
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    per_game.sort_by_key(|(i, _)| *i);
    per_game.into_iter().flat_map(|(_, samples)| samples).collect()
}

/// One self-play game's samples, from the opening `start` and then `spec.opening` random stones.
fn play_one(engine: &mut Engine<Gomoku>, spec: &SelfPlay, start: &[Move], seed: u64) -> Vec<Sample> {
    let game = engine.game().clone();
    let mut rng = random::seeded(seed);
    let mut state = game.initial_state();
    if start.is_empty() {
        for mv in random_opening(&game, spec.opening, &mut rng) {
            game.make(&mut state, mv);
        }
    } else {
        for &mv in start {
            game.make(&mut state, mv);
        }
        let mut moves = Vec::new();
        for _ in 0..spec.opening {
            moves.clear();
            GomokuEvaluator.search_moves(&game, &state, &mut moves);
            match moves.choose(&mut rng) {
                Some(&mv) if game.outcome(&state).is_none() => game.make(&mut state, mv),
                _ => break,
            };
        }
    }
    engine.clear();
    let mut positions = Vec::new();
    let mut ply = 0u64;
    let winner = loop {
        if let Some(outcome) = game.outcome(&state) {
            break match outcome.result {
                GameResult::Win(player) => Some(color_of(player)),
                GameResult::Draw => None,
            };
        }
        let mover = color_of(game.side_to_move(&state));
        if let Some(f) = features(&game, &state) {
            positions.push((mover, f));
        }
        let Some(mv) = engine.think(&state, &spec.level, seed ^ ply, None, &mut |_| {}).best_move else {
            break None;
        };
        game.make(&mut state, mv);
        ply += 1;
    };
    positions
        .into_iter()
        .map(|(mover, features)| Sample {
            mover: usize::from(mover - 1),
            features,
            result: match winner {
                Some(w) if w == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
        })
        .collect()
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
    /// The weight of the L2 pull towards the starting values, per sample.
    pub pull: f64,
}

/// The evaluation of a sample under `values`.
fn evaluation(values: &[f64; 4 * FEATURES], sample: &Sample) -> f64 {
    let own = &values[sample.mover * 2 * FEATURES..][..FEATURES];
    let other = &values[(1 - sample.mover) * 2 * FEATURES + FEATURES..][..FEATURES];
    let dot = |v: &[f64], f: &[i32; FEATURES]| v.iter().zip(f).map(|(v, &c)| v * f64::from(c)).sum::<f64>();
    dot(own, &sample.features[0]) - dot(other, &sample.features[1])
}

/// The values as one vector: Black to move, Black waiting, White to move, White waiting.
fn flatten(values: &RuleValues) -> [f64; 4 * FEATURES] {
    let mut flat = [0.0; 4 * FEATURES];
    for slot in 0..2 {
        let color = values.color(slot);
        for (role, row) in [color.to_move, color.waiting].into_iter().enumerate() {
            for (i, &v) in row.iter().enumerate() {
                flat[(slot * 2 + role) * FEATURES + i] = f64::from(v);
            }
        }
    }
    flat
}

/// The mean cross-entropy of the samples' results against the logistic of their evaluations under `values`.
#[must_use]
pub fn loss(values: &RuleValues, samples: &[Sample]) -> f64 {
    let flat = flatten(values);
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = (1.0 / (1.0 + (-evaluation(&flat, s) / SCALE).exp())).clamp(1e-9, 1.0 - 1e-9);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Fits the values to the samples from `start`; `progress` hears each step. The values stay within
/// `0..=`[`LIMIT`]: a pattern is never worth less than nothing to its owner.
#[must_use]
pub fn fit(start: &RuleValues, samples: &[Sample], fit: &Fit, progress: &dyn Fn(usize)) -> RuleValues {
    let origin = flatten(start);
    let mut x = origin;
    let (mut m, mut v) = ([0.0; 4 * FEATURES], [0.0; 4 * FEATURES]);
    let n = samples.len().max(1) as f64;
    for step in 1..=fit.steps {
        let mut grad = [0.0; 4 * FEATURES];
        for s in samples {
            let p = 1.0 / (1.0 + (-evaluation(&x, s) / SCALE).exp());
            let d = (p - s.result) / SCALE;
            let own = s.mover * 2 * FEATURES;
            let other = (1 - s.mover) * 2 * FEATURES + FEATURES;
            for i in 0..FEATURES {
                grad[own + i] += d * f64::from(s.features[0][i]);
                grad[other + i] -= d * f64::from(s.features[1][i]);
            }
        }
        for i in 0..x.len() {
            let g = grad[i] / n + fit.pull * (x[i] - origin[i]);
            m[i] = 0.9 * m[i] + 0.1 * g;
            v[i] = 0.999 * v[i] + 0.001 * g * g;
            let m_hat = m[i] / (1.0 - 0.9f64.powi(step as i32));
            let v_hat = v[i] / (1.0 - 0.999f64.powi(step as i32));
            x[i] = (x[i] - fit.rate * m_hat / (v_hat.sqrt() + 1e-12)).clamp(0.0, f64::from(LIMIT));
        }
        progress(step);
    }
    let mut fitted = *start;
    for slot in 0..2 {
        let color = fitted.color_mut(slot);
        for (role, row) in [&mut color.to_move, &mut color.waiting].into_iter().enumerate() {
            for (i, value) in row.iter_mut().enumerate() {
                *value = x[(slot * 2 + role) * FEATURES + i].round() as i32;
            }
        }
    }
    fitted
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
        let samples = self_play(&game, &spec, &|| {});
        assert!(samples.len() > 20, "{} samples", samples.len());
        assert_eq!(samples, self_play(&game, &SelfPlay { threads: 1, ..spec }, &|| {}));
        let start = RuleValues::hand_set();
        let fitted = fit(&start, &samples, &Fit { steps: 200, rate: 5.0, pull: 0.0 }, &|_| {});
        assert!(loss(&fitted, &samples) < loss(&start, &samples));
    }

    /// With `suite`, games start from the balanced suite's openings in turn: the first sample of the first game is
    /// the position after the suite's first opening.
    #[test]
    fn suite_games_start_from_the_suite() {
        let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
        let spec = SelfPlay { games: 1, opening: 0, suite: true, level: Level::custom(1), seed: 5, threads: 1 };
        let samples = self_play(&game, &spec, &|| {});
        let first = &game.balanced_openings()[0];
        let state = game.play_all(first).expect("a legal opening");
        let expected = features(&game, &state).expect("an undecided opening");
        assert_eq!(samples.first().map(|s| s.features), Some(expected));
        assert_eq!(samples[0].mover, first.len() % 2, "the side to move after the opening");
    }
}
