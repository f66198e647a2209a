//! Balanced opening suites: short openings whose deep-search value is close to even, so that a series of games
//! measures the engines or the rule set rather than the colour (from random Gomoku openings Black wins most games).
//!
//! A suite is text, one opening per line: the moves in standard notation separated by spaces, `#` starting a
//! comment. `tabula-cli openings` generates one; [`BoardGame::balanced_openings`] gives a rule set's built-in suite.

use std::collections::HashSet;

use rand::Rng;
use rand::seq::IndexedRandom;
use tabula_core::{Evaluator, Level, Limits, Player, Score, Searcher, random, score};

use crate::board::{BoardGame, Cell};

/// A line of a suite that is not an opening of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct SuiteError {
    /// The 1-based line.
    pub line: usize,
    /// What was wrong with it.
    pub message: String,
}

/// Reads a suite: every opening must be legal and leave the game undecided.
pub fn parse_suite<G: BoardGame>(game: &G, text: &str) -> Result<Vec<Vec<G::Move>>, SuiteError> {
    let mut suite = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let error = |message: String| SuiteError { line: i + 1, message };
        let body = line.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let mut state = game.initial_state();
        let mut opening = Vec::new();
        for word in body.split_whitespace() {
            if game.outcome(&state).is_some() {
                return Err(error(format!("the game is over before `{word}`")));
            }
            let mv = game.parse_move(&state, word).map_err(|e| error(format!("`{word}`: {e}")))?;
            if !game.is_legal(&state, mv) {
                return Err(error(format!("`{word}` is not legal here")));
            }
            game.make(&mut state, mv);
            opening.push(mv);
        }
        if game.outcome(&state).is_some() {
            return Err(error("the opening ends the game".into()));
        }
        suite.push(opening);
    }
    Ok(suite)
}

/// The text of one opening, as a suite line holds it.
pub fn format_opening<G: BoardGame>(game: &G, opening: &[G::Move]) -> String {
    opening.iter().map(|&mv| game.format_move(mv)).collect::<Vec<_>>().join(" ")
}

/// An opening kept by [`generate`]: its moves and its search value, side to move's view.
pub type KeptOpening<M> = (Vec<M>, Score);

/// How [`generate`] looks for balanced openings.
#[derive(Clone, Debug)]
pub struct SuiteSpec {
    /// Moves in each opening.
    pub plies: usize,
    /// Openings to find.
    pub count: usize,
    /// Openings to try at most.
    pub tries: usize,
    /// The search that judges an opening: its depth and options (its time limit is ignored, so that a seed gives
    /// the same suite on any machine).
    pub level: Level,
    /// The largest absolute search value an opening may have, from the side to move's view.
    pub margin: Score,
    /// The seed of the random openings.
    pub seed: u64,
}

/// Draws random openings among the evaluator's candidate moves (Gomoku: the centre first, then points near the
/// stones), searches each to a fixed depth and keeps those within the margin, each position once: a mirror image
/// or rotation of a position tried before is the same opening and is skipped. An opening's value is the mean of
/// the last two iterations, because a side that has just moved tends to look better than it is: one depth alone
/// would favour one colour. Deterministic for a spec. `on_try` hears, after each opening tried, the openings kept
/// so far and whether this one was kept, so that a caller can save a long run as it goes.
pub fn generate<G: BoardGame>(
    game: &G,
    spec: &SuiteSpec,
    mut on_try: impl FnMut(&[KeptOpening<G::Move>], bool),
) -> Vec<KeptOpening<G::Move>> {
    let mut rng = random::seeded(spec.seed);
    let eval = game.evaluator(false);
    let mut searcher = Searcher::new(game, 16);
    let limits = Limits::depth(spec.level.depth);
    let options = tabula_core::SearchOptions { randomness: 0, ..spec.level.options(spec.seed) };
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    for _ in 0..spec.tries {
        if kept.len() >= spec.count {
            break;
        }
        let Some((opening, state)) = random_line(game, &eval, spec.plies, &mut rng) else { continue };
        if !seen.insert(symmetric_key(game, &state)) {
            continue;
        }
        searcher.clear();
        let mut values = Vec::new();
        searcher.search(game, &eval, &state, &limits, &options, &mut |info| values.push(info.score));
        let last = &values[values.len().saturating_sub(2)..];
        let value = last.iter().sum::<Score>() / last.len().max(1) as Score;
        let keep = !last.is_empty() && !last.iter().any(|&v| score::is_mate(v)) && value.abs() <= spec.margin;
        if keep {
            kept.push((opening, value));
        }
        on_try(&kept, keep);
    }
    kept
}

/// The stones and the side to move of `state`, the same for all its mirror images and rotations (eight on a
/// square board, four on an oblong one): the rules of these games treat every direction alike, so such positions
/// are one opening.
pub(crate) fn symmetric_key<G: BoardGame>(game: &G, state: &G::State) -> (Player, Vec<(usize, usize, Player)>) {
    let (width, height) = game.board_size();
    let stones: Vec<(usize, usize, Player)> = (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .filter_map(|(x, y)| game.stone(state, Cell::new(x, y)).map(|p| (x, y, p)))
        .collect();
    let transforms = if width == height { 8 } else { 4 };
    let key = (0..transforms)
        .map(|t| {
            let mut image: Vec<_> = stones
                .iter()
                .map(|&(x, y, p)| {
                    let x = if t & 1 != 0 { width - 1 - x } else { x };
                    let y = if t & 2 != 0 { height - 1 - y } else { y };
                    if t & 4 != 0 { (y, x, p) } else { (x, y, p) }
                })
                .collect();
            image.sort_unstable();
            image
        })
        .min()
        .unwrap_or_default();
    (game.side_to_move(state), key)
}

/// A random line of `plies` candidate moves that leaves the game undecided, with its position.
fn random_line<G: BoardGame>(
    game: &G,
    eval: &G::Eval,
    plies: usize,
    rng: &mut impl Rng,
) -> Option<(Vec<G::Move>, G::State)> {
    let mut state = game.initial_state();
    let mut line = Vec::with_capacity(plies);
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        eval.search_moves(game, &state, &mut moves);
        let &mv = moves.choose(rng)?;
        game.make(&mut state, mv);
        line.push(mv);
        if game.outcome(&state).is_some() {
            return None;
        }
    }
    Some((line, state))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::{Gomoku, WinRule};
    use tabula_core::Game;

    #[test]
    fn a_suite_reads_back_what_was_written_and_bad_lines_name_themselves() {
        let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
        let spec = SuiteSpec { plies: 3, count: 4, tries: 40, level: Level::custom(2), margin: 5_000, seed: 3 };
        let mut heard = Vec::new();
        let found = generate(&game, &spec, |kept, keep| heard.push((kept.to_vec(), keep)));
        assert_eq!(found.len(), 4);
        let (last, _) = heard.last().expect("openings were tried");
        assert_eq!(last, &found, "the last report holds the whole suite");
        for pair in heard.windows(2) {
            let (before, (after, keep)) = (&pair[0].0, &pair[1]);
            assert_eq!(after.len(), before.len() + usize::from(*keep), "each report adds the opening just kept");
            assert_eq!(&after[..before.len()], &before[..], "and keeps those before it");
        }
        assert_eq!(found, generate(&game, &spec, |_, _| {}), "the same seed gives the same suite");
        let text: String =
            found.iter().map(|(o, v)| format!("{}  # {v}\n", format_opening(&game, o))).collect::<String>();
        let read = parse_suite(&game, &format!("# a comment\n\n{text}")).expect("suite");
        assert_eq!(read, found.into_iter().map(|(o, _)| o).collect::<Vec<_>>());
        let bad = parse_suite(&game, "h8 i9\nh8 h8\n").expect_err("h8 twice");
        assert_eq!(bad.line, 2, "{bad}");
        assert!(parse_suite(&game, "h8 zz\n").is_err());
    }

    #[test]
    fn mirror_images_and_rotations_are_one_opening() {
        let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
        let key_of = |opening: &[_]| {
            let mut state = game.initial_state();
            for &mv in opening {
                game.make(&mut state, mv);
            }
            symmetric_key(&game, &state)
        };
        let key = |text: &str| key_of(&parse_suite(&game, text).expect("opening")[0]);
        assert_eq!(key("h8 i9 f6"), key("h8 g7 j10"), "turned half a circle");
        assert_eq!(key("h8 i9 f6"), key("h8 g9 j6"), "mirrored");
        assert_ne!(key("h8 i9 f6"), key("h8 i8 f6"), "a different shape");
        assert_ne!(key("h8 i9 f6"), key("h8 f6 i9"), "the same points, coloured otherwise");

        let spec = SuiteSpec { plies: 2, count: 100, tries: 2_000, level: Level::custom(1), margin: 30_000, seed: 5 };
        let found = generate(&game, &spec, |_, _| {});
        let keys: HashSet<_> = found.iter().map(|(opening, _)| key_of(opening)).collect();
        assert_eq!(keys.len(), found.len(), "no opening is a mirror image of another");
        assert!(found.len() < 100, "the few second stones near the centre make few openings: {}", found.len());
    }
}
