//! Search scores: centipawn-like integers with mate values that encode the distance to the end.

/// A search score from the view of the side to move.
pub type Score = i32;

/// The value of winning right now; a win `n` plies away scores `MATE - n`.
pub const MATE: Score = 1_000_000;

/// Scores at or beyond this magnitude are wins or losses found by search.
pub const MATE_BOUND: Score = MATE - 10_000;

/// Larger than any real score: the initial search window.
pub const INFINITY: Score = MATE + 1;

/// The score of winning `ply` plies from the root.
#[must_use]
pub fn mate_in(ply: u32) -> Score {
    MATE - ply as Score
}

/// The score of losing `ply` plies from the root.
#[must_use]
pub fn mated_in(ply: u32) -> Score {
    -MATE + ply as Score
}

/// Whether the score is a proven win or loss.
#[must_use]
pub fn is_mate(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts a root-relative mate score to a node-relative one for the transposition table (Stockfish
/// `value_to_tt`), so the entry stays valid wherever the position recurs.
#[must_use]
pub fn to_table(score: Score, ply: u32) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of [`to_table`].
#[must_use]
pub fn from_table(score: Score, ply: u32) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// Plies until the end for a mate score (positive if the side to move wins), `None` otherwise.
#[must_use]
pub fn mate_distance(score: Score) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// A human-readable score: `+35`, `-120`, `win in 5`, `loss in 4`.
#[must_use]
pub fn format_score(score: Score) -> String {
    match mate_distance(score) {
        Some(d) if d >= 0 => format!("win in {d}"),
        Some(d) => format!("loss in {}", -d),
        None => format!("{score:+}"),
    }
}
