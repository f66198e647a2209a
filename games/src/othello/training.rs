//! Fitting the pattern weights ([`super::weights`]) to real games.
//!
//! Every position before a move of a game becomes a sample, labelled with the game's final margin from the side
//! to move's view (empties to the winner). Labels are made exact where that is cheap or free: positions with few
//! empties are solved by the endgame solver, and the earlier ones take the solved value instead of the played
//! result (what the game was worth once the players reached the solver's horizon), except that WTHOR's theoretical
//! score labels positions with 24 or more empties (the game's value under perfect play from 24 empties on). Each stage's weights are
//! then the regularised least-squares fit of its samples (those within two empties of the stage, so neighbouring
//! stages change smoothly), solved by conjugate gradients preconditioned with each weight's frequency. Nothing is
//! random: the same games give the same weights.

use super::endgame::Solver;
use super::patterns::{EMPTIES_PER_STAGE, FEATURES, Layout, STAGES};
use super::records::{GameRecord, THEORETICAL_EMPTIES, replay};
use super::weights::PatternWeights;

/// A training position: the discs of the side to move and of the other side, and the label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The discs of the side to move.
    pub player: u64,
    /// The discs of the other side.
    pub opponent: u64,
    /// The final margin from the side to move's view, empties to the winner.
    pub target: i8,
}

impl Sample {
    /// Empty squares of the position.
    #[must_use]
    pub fn empties(&self) -> u32 {
        (!(self.player | self.opponent)).count_ones()
    }
}

/// How the samples are labelled.
#[derive(Clone, Copy, Debug)]
pub struct Labels {
    /// Positions with this many empties or fewer get their exact value from the solver (0: none).
    pub exact_empties: u32,
    /// Whether WTHOR's theoretical score labels the positions with 24 or more empties.
    pub theoretical: bool,
    /// Positions one move away from a played one, with this many empties or fewer, are added with their exact
    /// value (0: none): one per played position, after a legal move the player did not choose (picked by the
    /// position's hash). A search judges mostly positions after moves no expert would play; the games alone show
    /// the evaluation few of them.
    pub siblings: u32,
}

/// The samples of one game, or the replay's complaint. `solver` labels the positions of `labels.exact_empties`
/// or fewer; `solved` counts them. Earlier positions without a theoretical score take the exact value of the first
/// solved one: the result the game would have had with perfect play from there, free of the players' endgame
/// mistakes.
pub fn samples_of(
    record: &GameRecord,
    labels: Labels,
    solver: &Solver,
    solved: &mut u64,
) -> Result<Vec<Sample>, String> {
    let played = replay(&record.moves)?;
    let mut result = if played.finished { played.black_margin } else { record.black_margin };
    let mut exact: Vec<Option<i32>> = vec![None; played.positions.len()];
    // From the end back, so that each position's solve knows the next one's value: the played move reaches it, so
    // (in the mover's view) it bounds the value from below, and one null-window search usually confirms it.
    let mut next_black_value = None;
    for (pos, value) in played.positions.iter().zip(&mut exact).rev() {
        if (!(pos.player | pos.opponent)).count_ones() <= labels.exact_empties {
            let hint = next_black_value.map(|v: i32| if pos.black_to_move { v } else { -v });
            *value = solve_with_hint(solver, pos.player, pos.opponent, hint);
            *solved += u64::from(value.is_some());
        }
        next_black_value = value.map(|v| if pos.black_to_move { v } else { -v });
    }
    let first_solved = played.positions.iter().zip(&exact).find_map(|(pos, v)| v.map(|v| (pos, v)));
    if let Some((pos, v)) = first_solved {
        result = if pos.black_to_move { v } else { -v };
    }
    let mut samples = Vec::with_capacity(played.positions.len());
    for (pos, value) in played.positions.iter().zip(&exact) {
        let empties = (!(pos.player | pos.opponent)).count_ones();
        let black_margin = match record.theoretical_margin {
            Some(t) if labels.theoretical && empties >= THEORETICAL_EMPTIES => t,
            _ => result,
        };
        let target = (*value).unwrap_or(if pos.black_to_move { black_margin } else { -black_margin });
        samples.push(Sample { player: pos.player, opponent: pos.opponent, target: target.clamp(-64, 64) as i8 });
    }
    for ((pos, &played_square), value) in played.positions.iter().zip(&record.moves).zip(&exact) {
        let empties = (!(pos.player | pos.opponent)).count_ones();
        if empties > labels.siblings + 1 || empties < 2 {
            continue;
        }
        let Some(square) = sibling_move(pos.player, pos.opponent, played_square) else { continue };
        let f = super::bitboard::flips(pos.player, pos.opponent, square);
        let (p, o) = (pos.opponent & !f, pos.player | f | (1 << square));
        // The mover's value bounds the sibling's from below, in the sibling's mover's view.
        let floor = value.map_or(-65, |v| -v - 1);
        if let Some(v) = solver.solve(p, o, floor, 65, false, &mut 0, &mut |_| false) {
            *solved += 1;
            samples.push(Sample { player: p, opponent: o, target: v.clamp(-64, 64) as i8 });
        }
    }
    Ok(samples)
}

/// The square of a legal move of `p` against `o` other than `played`, picked by the position's hash so that the
/// same games always give the same siblings; `None` when `played` is the only move.
fn sibling_move(p: u64, o: u64, played: u8) -> Option<usize> {
    let others = super::bitboard::moves(p, o) & !(1u64 << played);
    if others == 0 {
        return None;
    }
    let hash = (p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)) >> 32;
    let mut pick = hash % u64::from(others.count_ones());
    let mut rest = others;
    while pick > 0 {
        rest &= rest - 1;
        pick -= 1;
    }
    Some(rest.trailing_zeros() as usize)
}

/// The exact value of `p` to move against `o`, searched first in the null window around `hint` (a likely value):
/// when the hint is right, one narrow search proves it; otherwise its bound narrows the full search.
fn solve_with_hint(solver: &Solver, p: u64, o: u64, hint: Option<i32>) -> Option<i32> {
    let solve = |alpha, beta| solver.solve(p, o, alpha, beta, false, &mut 0, &mut |_| false);
    let Some(hint) = hint else {
        return solve(-64, 64);
    };
    // Final margins are even (the empties go to the winner), so (hint - 1, hint + 1) holds the hint alone.
    let value = solve(hint - 1, hint + 1)?;
    match value.cmp(&hint) {
        std::cmp::Ordering::Equal => Some(value),
        std::cmp::Ordering::Greater => solve(value - 1, 65),
        std::cmp::Ordering::Less => solve(-65, value + 1),
    }
}

/// How the weights are fitted.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// Conjugate-gradient iterations per stage.
    pub iterations: usize,
    /// The ridge penalty: each weight costs `lambda * w^2` (in discs squared), pulling rarely seen configurations
    /// towards zero.
    pub lambda: f64,
    /// Stages fitted at once (each on its own thread).
    pub threads: usize,
}

/// Whether a sample with `empties` empties trains stage `s`: its own empties and two on either side.
fn trains(s: usize, empties: u32) -> bool {
    let low = s as i64 * i64::from(EMPTIES_PER_STAGE) + 1 - 2;
    let high = (s as i64 + 1) * i64::from(EMPTIES_PER_STAGE) + 2;
    (low..=high).contains(&i64::from(empties)) || (s == STAGES - 1 && i64::from(empties) > high)
}

/// Fits the weights of every stage to `samples`. `progress` hears of every finished iteration (stage, iteration).
#[must_use]
pub fn fit(samples: &[Sample], fit: Fit, progress: &(dyn Fn(usize, usize) + Sync)) -> PatternWeights {
    let layout = Layout::get();
    let mut stages: Vec<Vec<i16>> = vec![Vec::new(); STAGES];
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(&mut stages);
    std::thread::scope(|scope| {
        for _ in 0..fit.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let s = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if s >= STAGES {
                        break;
                    }
                    let weights = fit_stage(layout, samples, s, fit, &|i| progress(s, i));
                    results.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[s] = weights;
                }
            });
        }
    });
    PatternWeights::from_compact(stages.concat())
}

/// One stage's compact weights, in hundredths of a disc.
fn fit_stage(layout: &Layout, samples: &[Sample], s: usize, fit: Fit, progress: &dyn Fn(usize)) -> Vec<i16> {
    let size = layout.compact_size;
    let mut rows: Vec<u32> = Vec::new();
    let mut targets: Vec<f64> = Vec::new();
    for sample in samples.iter().filter(|x| trains(s, x.empties())) {
        rows.extend(layout.features(sample.player, sample.opponent).iter().map(|&i| layout.compact[i as usize]));
        targets.push(f64::from(sample.target));
    }
    // Normal equations (A'A + lambda I) w = A'y, by conjugate gradients with the diagonal as preconditioner.
    let mut diagonal = vec![fit.lambda; size];
    let mut r = vec![0.0; size];
    for (row, &y) in rows.chunks_exact(FEATURES).zip(&targets) {
        for &i in row {
            diagonal[i as usize] += 1.0;
            r[i as usize] += y;
        }
    }
    let mut w = vec![0.0; size];
    let mut z: Vec<f64> = r.iter().zip(&diagonal).map(|(r, d)| r / d).collect();
    let mut p = z.clone();
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    let mut q = vec![0.0; size];
    for iteration in 0..fit.iterations {
        q.iter_mut().zip(&p).for_each(|(q, p)| *q = fit.lambda * p);
        for row in rows.chunks_exact(FEATURES) {
            let t: f64 = row.iter().map(|&i| p[i as usize]).sum();
            for &i in row {
                q[i as usize] += t;
            }
        }
        let pq: f64 = p.iter().zip(&q).map(|(a, b)| a * b).sum();
        if rz <= 0.0 || pq <= 0.0 {
            break;
        }
        let alpha = rz / pq;
        for k in 0..size {
            w[k] += alpha * p[k];
            r[k] -= alpha * q[k];
            z[k] = r[k] / diagonal[k];
        }
        let next: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = next / rz;
        rz = next;
        p.iter_mut().zip(&z).for_each(|(p, z)| *p = z + beta * *p);
        progress(iteration + 1);
    }
    w.iter().map(|&x| (x * 100.0).round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16).collect()
}

/// The value of `p` to move against `o`, in hundredths of a disc: a `depth`-ply alpha-beta search with `weights`
/// at the leaves (a pass costs no depth; a finished game scores its exact margin, empties to the winner).
#[must_use]
pub fn searched_value(weights: &PatternWeights, p: u64, o: u64, depth: u32) -> i32 {
    negamax(weights, p, o, depth, -i32::MAX, i32::MAX)
}

fn negamax(weights: &PatternWeights, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let mut moves = super::bitboard::moves(p, o);
    if moves == 0 {
        if super::bitboard::moves(o, p) == 0 {
            let (mine, theirs) = (p.count_ones() as i32, o.count_ones() as i32);
            let empties = 64 - mine - theirs;
            let margin = mine - theirs
                + if mine > theirs {
                    empties
                } else if mine < theirs {
                    -empties
                } else {
                    0
                };
            return 100 * margin;
        }
        return -negamax(weights, o, p, depth, -beta, -alpha);
    }
    if depth == 0 {
        return weights.evaluate(p, o);
    }
    let mut best = -i32::MAX;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let flipped = super::bitboard::flips(p, o, sq);
        let value = -negamax(weights, o & !flipped, p | flipped | (1u64 << sq), depth - 1, -beta, -alpha);
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Labels every sample with more than `above` empties anew: `mix` percent of its `depth`-ply searched value with
/// `weights` (bootstrapping from the fitted evaluation, as TD-leaf does) and the rest of its game label. On
/// `threads` threads; `progress` hears of every thousand samples done.
pub fn relabel(
    samples: &mut [Sample],
    weights: &PatternWeights,
    depth: u32,
    mix: u32,
    above: u32,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        for part in samples.chunks_mut(chunk) {
            scope.spawn(move || {
                for (i, sample) in part.iter_mut().enumerate() {
                    if sample.empties() > above {
                        let searched =
                            f64::from(searched_value(weights, sample.player, sample.opponent, depth)) / 100.0;
                        let label =
                            f64::from(mix) / 100.0 * searched + f64::from(100 - mix) / 100.0 * f64::from(sample.target);
                        sample.target = label.round().clamp(-64.0, 64.0) as i8;
                    }
                    if i % 1000 == 999 {
                        progress(1000);
                    }
                }
            });
        }
    });
}

/// The mean absolute error, in discs, of `weights` on `samples`, per stage (`None` for a stage without samples).
#[must_use]
pub fn mean_errors(weights: &PatternWeights, samples: &[Sample]) -> Vec<Option<(f64, usize)>> {
    let mut sums = vec![(0.0, 0usize); STAGES];
    for sample in samples {
        let predicted = f64::from(weights.evaluate(sample.player, sample.opponent)) / 100.0;
        let entry = &mut sums[super::patterns::stage(sample.empties())];
        entry.0 += (predicted - f64::from(sample.target)).abs();
        entry.1 += 1;
    }
    sums.into_iter().map(|(sum, n)| (n > 0).then(|| (sum / n as f64, n))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::records::read_logbook;

    #[test]
    fn a_searched_value_is_the_negamax_of_the_evaluation_and_exact_at_the_end() {
        let weights = PatternWeights::embedded().expect("the embedded weights");
        let (p, o) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
        assert_eq!(searched_value(weights, p, o, 0), weights.evaluate(p, o));
        let mut best = -i32::MAX;
        let mut moves = crate::othello::bitboard::moves(p, o);
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = crate::othello::bitboard::flips(p, o, sq);
            best = best.max(-weights.evaluate(o & !f, p | f | (1 << sq)));
        }
        assert_eq!(searched_value(weights, p, o, 1), best, "one ply: the best child by the evaluation");
        // A wipe-out with four squares empty: neither side can move, and the empties go to the winner.
        assert_eq!(searched_value(weights, u64::MAX >> 4, 0, 3), 100 * 64);
        assert_eq!(searched_value(weights, 0, u64::MAX >> 4, 3), -100 * 64);
    }

    #[test]
    fn relabelling_mixes_the_searched_value_into_the_label_above_the_horizon_only() {
        let weights = PatternWeights::embedded().expect("the embedded weights");
        let (p, o) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
        let few = Sample { player: u64::MAX >> 4, opponent: 0, target: 60 };
        let mut samples = vec![Sample { player: p, opponent: o, target: 40 }, few];
        relabel(&mut samples, weights, 0, 50, 14, 2, &|_| {});
        let searched = f64::from(weights.evaluate(p, o)) / 100.0;
        assert_eq!(i32::from(samples[0].target), ((searched + 40.0) / 2.0).round() as i32);
        assert_eq!(samples[1], few, "four empties: the exact label stays");
    }

    #[test]
    fn a_fit_learns_its_games_far_better_than_guessing_even() {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata");
        let mut records = read_logbook(&data.join("logbook-sample.gam.gz")).unwrap();
        records.extend(crate::othello::records::read_wthor(&data.join("WTH_2021.wtb")).unwrap());
        let solver = Solver::new(16);
        let labels = Labels { exact_empties: 8, theoretical: true, siblings: 0 };
        let mut solved = 0;
        let mut samples = Vec::new();
        for record in &records {
            samples.extend(samples_of(record, labels, &solver, &mut solved).unwrap());
        }
        assert!(solved > 8 * 1000, "{solved}");
        let weights = fit(&samples, Fit { iterations: 20, lambda: 5.0, threads: 2 }, &|_, _| {});
        let zero = PatternWeights::from_compact(vec![0; weights.compact().len()]);
        let fitted = mean_errors(&weights, &samples);
        let even = mean_errors(&zero, &samples);
        for (s, (f, e)) in fitted.iter().zip(&even).enumerate() {
            let ((f, _), (e, _)) = (f.unwrap(), e.unwrap());
            // Up to 40 empties the positions are varied and the labels (exact, or WTHOR's theoretical score) sharp;
            // the openings are few positions shared by many games of every result.
            let bound = if s <= 9 { 0.65 * e } else { e };
            assert!(f <= bound, "stage {s}: fitted {f:.2}, even {e:.2}");
        }
        // And deterministic, whatever the threads.
        let again = fit(&samples, Fit { iterations: 20, lambda: 5.0, threads: 1 }, &|_, _| {});
        assert_eq!(again, weights);
    }

    /// The games of the test data's logbook sample.
    fn logbook_sample() -> Vec<GameRecord> {
        read_logbook(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/logbook-sample.gam.gz"))
            .unwrap()
    }

    #[test]
    fn siblings_are_positions_after_unplayed_moves_with_their_exact_values() {
        let records = logbook_sample();
        let solver = Solver::new(16);
        let (mut solved, mut plain_solved) = (0, 0);
        let plain = Labels { exact_empties: 10, theoretical: false, siblings: 0 };
        let with = Labels { siblings: 10, ..plain };
        let mut checked = 0;
        for record in records.iter().take(20) {
            let base = samples_of(record, plain, &solver, &mut plain_solved).unwrap();
            let all = samples_of(record, with, &solver, &mut solved).unwrap();
            assert_eq!(&all[..base.len()], &base[..], "the played positions come first, labelled as before");
            let played = replay(&record.moves).unwrap();
            let expected = played
                .positions
                .iter()
                .zip(&record.moves)
                .filter(|&(p, &sq)| {
                    let empties = (!(p.player | p.opponent)).count_ones();
                    (2..=11).contains(&empties)
                        && crate::othello::bitboard::moves(p.player, p.opponent) & !(1u64 << sq) != 0
                })
                .count();
            let siblings = &all[base.len()..];
            assert_eq!(siblings.len(), expected);
            for sibling in siblings {
                assert!(sibling.empties() <= 10);
                assert!(!base.iter().any(|b| b.player == sibling.player && b.opponent == sibling.opponent));
                let exact =
                    solver.solve(sibling.player, sibling.opponent, -64, 64, false, &mut 0, &mut |_| false).unwrap();
                assert_eq!(i32::from(sibling.target), exact);
                checked += 1;
            }
        }
        assert!(checked > 20 * 5, "{checked}");
        assert_eq!(solved, plain_solved + checked);
    }

    #[test]
    fn exact_labels_are_the_solver_values() {
        let records = logbook_sample();
        let solver = Solver::new(16);
        let mut solved = 0;
        let labels = Labels { exact_empties: 10, theoretical: false, siblings: 0 };
        let samples = samples_of(&records[0], labels, &solver, &mut solved).unwrap();
        let last = samples.last().unwrap();
        // The last position has one empty: its exact value is the played result from its mover's view.
        assert_eq!(last.empties(), 1);
        let mut nodes = 0;
        let exact = solver.solve(last.player, last.opponent, -64, 64, false, &mut nodes, &mut |_| false).unwrap();
        assert_eq!(i32::from(last.target), exact);
        assert_eq!(solved, samples.iter().filter(|s| s.empties() <= 10).count() as u64);
        // Before the horizon every position carries the first solved position's value, in Black's view.
        let played = replay(&records[0].moves).unwrap();
        let black = |i: usize| {
            let t = i32::from(samples[i].target);
            if played.positions[i].black_to_move { t } else { -t }
        };
        let horizon = samples.iter().position(|s| s.empties() <= 10).unwrap();
        assert!(horizon > 40);
        assert!((0..horizon).all(|i| black(i) == black(horizon)), "{}", black(horizon));
    }
}
